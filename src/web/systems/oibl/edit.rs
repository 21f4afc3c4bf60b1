//! The One if by Land editor's actions. Each posts one small form; the server applies it to the
//! order of battle, re-checks it and saves it against the version the form was based on. The
//! forms offer only values the catalogue has (its classes, qualities, basings, weapons, guns,
//! the three formations a scenario may grant and ratings 0 to 3); a combination the troop-class
//! rules refuse, such as bayonets on militia, still saves as a draft and shows its finding.

use serde::{Deserialize, Serialize};

use crate::rules::systems::oibl::catalogue::Catalogue;
use crate::rules::systems::oibl::roster::{
    BrigadeDoc, CommanderDoc, RosterDoc, UnitDoc, MAX_BRIGADES, MAX_STANDS, MAX_TEXT, MAX_UNITS,
    NATIONS,
};
use crate::rules::systems::oibl::types::{GunClass, Kind, Quality};
use crate::web::page::FormErrors;

/// The formations a scenario may grant (spec 2.1).
pub const GRANTS: [&str; 3] = ["close_order", "open_order", "skirmish"];

/// Every field any editor form may send; each action reads the ones it needs. Check boxes send
/// `on` when ticked.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct EditForm {
    pub version: i32,
    pub action: String,
    pub brigade: String,
    pub unit: String,
    // the order of battle
    pub name: String,
    pub nation: String,
    pub scenario: String,
    pub army_commander: String,
    /// Empty: no army commander card.
    pub army_rating: String,
    // brigades
    pub brigade_name: String,
    pub commander: String,
    /// Empty: the brigade has no commander.
    pub rating: String,
    pub to_brigade: String,
    // units
    pub u_name: String,
    pub u_class: String,
    pub u_quality: String,
    pub u_stands: String,
    pub u_figures: String,
    pub u_basing: String,
    pub u_weapon: String,
    /// "", "yes" or "no": the class's default, or the document says.
    pub u_bayonets: String,
    pub u_auth_close_order: String,
    pub u_auth_open_order: String,
    pub u_auth_skirmish: String,
    pub u_marksmen: String,
    pub u_light_infantry: String,
    pub u_grenadiers: String,
    pub u_legion: String,
    pub u_discharged_continentals: String,
    pub u_gun: String,
    pub u_guns: String,
    pub u_crew: String,
}

fn ticked(v: &str) -> bool {
    matches!(v, "on" | "1" | "true" | "yes")
}

impl EditForm {
    /// The form as `(name, value)` pairs, to post it again against a newer version.
    pub fn fields(&self) -> Vec<(&'static str, String)> {
        let all = [
            ("action", &self.action),
            ("brigade", &self.brigade),
            ("unit", &self.unit),
            ("name", &self.name),
            ("nation", &self.nation),
            ("scenario", &self.scenario),
            ("army_commander", &self.army_commander),
            ("army_rating", &self.army_rating),
            ("brigade_name", &self.brigade_name),
            ("commander", &self.commander),
            ("rating", &self.rating),
            ("to_brigade", &self.to_brigade),
            ("u_name", &self.u_name),
            ("u_class", &self.u_class),
            ("u_quality", &self.u_quality),
            ("u_stands", &self.u_stands),
            ("u_figures", &self.u_figures),
            ("u_basing", &self.u_basing),
            ("u_weapon", &self.u_weapon),
            ("u_bayonets", &self.u_bayonets),
            ("u_auth_close_order", &self.u_auth_close_order),
            ("u_auth_open_order", &self.u_auth_open_order),
            ("u_auth_skirmish", &self.u_auth_skirmish),
            ("u_marksmen", &self.u_marksmen),
            ("u_light_infantry", &self.u_light_infantry),
            ("u_grenadiers", &self.u_grenadiers),
            ("u_legion", &self.u_legion),
            ("u_discharged_continentals", &self.u_discharged_continentals),
            ("u_gun", &self.u_gun),
            ("u_guns", &self.u_guns),
            ("u_crew", &self.u_crew),
        ];
        all.into_iter()
            .filter(|(_, v)| !v.is_empty())
            .map(|(k, v)| (k, v.clone()))
            .collect()
    }

    /// A short description of the change, for the conflict page.
    pub fn describe(&self) -> String {
        match self.action.as_str() {
            "settings" => format!("change the order of battle (name “{}”)", self.name.trim()),
            "add_brigade" => "add a brigade".into(),
            "update_brigade" => format!("change a brigade (commander “{}”)", self.commander.trim()),
            "brigade_up" | "brigade_down" => "move a brigade".into(),
            "remove_brigade" => "remove a brigade".into(),
            "add_unit" => format!("add a unit (“{}”)", self.u_name.trim()),
            "update_unit" => format!("change a unit (“{}”)", self.u_name.trim()),
            "remove_unit" => "remove a unit".into(),
            "move_unit" => "move a unit to another brigade".into(),
            _ => "change the order of battle".into(),
        }
    }
}

/// Ordinal words for new brigades' names.
pub fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

fn clean_name(text: &str, field: &str, errors: &mut FormErrors) -> String {
    let text = text.trim();
    if text.chars().count() > MAX_TEXT {
        errors.add(
            field,
            format!("Keep names to {MAX_TEXT} characters or fewer."),
        );
    }
    text.chars().take(MAX_TEXT).collect()
}

fn brigade_index(doc: &RosterDoc, id: &str) -> Option<usize> {
    doc.brigades
        .iter()
        .position(|b| b.id.as_deref() == Some(id))
}

fn unit_index(doc: &RosterDoc, id: &str) -> Option<(usize, usize)> {
    doc.brigades.iter().enumerate().find_map(|(bi, b)| {
        b.units
            .iter()
            .position(|u| u.id.as_deref() == Some(id))
            .map(|ui| (bi, ui))
    })
}

/// A rating from a select: empty is "none"; anything else must be one the catalogue allows.
fn read_rating(
    cat: &Catalogue,
    text: &str,
    field: &str,
    errors: &mut FormErrors,
) -> Option<Option<i32>> {
    let text = text.trim();
    if text.is_empty() {
        return Some(None);
    }
    let r = &cat.commander_rating;
    match text.parse::<i32>() {
        Ok(n) if (r.min..=r.max).contains(&n) => Some(Some(n)),
        _ => {
            errors.add(
                field,
                format!("Choose a rating from {} to {} (B-8).", r.min, r.max),
            );
            None
        }
    }
}

fn read_count(
    text: &str,
    field: &str,
    max: u32,
    what: &str,
    errors: &mut FormErrors,
) -> Option<u32> {
    match text.trim().parse::<u32>() {
        Ok(n) if (1..=max).contains(&n) => Some(n),
        _ => {
            errors.add(
                field,
                format!("Give {what} as a whole number from 1 to {max}."),
            );
            None
        }
    }
}

/// Reads the unit fields of the add and change forms into `unit`; the values must be ones the
/// catalogue has, combinations are the validator's to judge.
fn read_unit(cat: &Catalogue, form: &EditForm, unit: &mut UnitDoc, full: bool) -> FormErrors {
    let mut errors = FormErrors::default();
    unit.name = clean_name(&form.u_name, "u_name", &mut errors);
    let class = cat.class(&form.u_class);
    if class.is_none() {
        errors.add("u_class", "Choose one of the game's troop classes.");
    }
    if Quality::from_id(&form.u_quality).is_none() {
        errors.add(
            "u_quality",
            "Choose a quality: Elite, Veteran, Regular, Poor or Wretched.",
        );
    }
    let artillery = class.is_some_and(|c| c.kind == Kind::Artillery);
    let stands = if artillery && form.u_stands.trim().is_empty() {
        Some(0)
    } else {
        read_count(
            &form.u_stands,
            "u_stands",
            MAX_STANDS,
            "the stands",
            &mut errors,
        )
    };
    if !errors.is_empty() {
        return errors;
    }
    let (Some(class), Some(stands)) = (class, stands) else {
        return errors;
    };
    let class_changed = unit.class != class.id;
    unit.class = class.id.clone();
    unit.quality = form.u_quality.clone();
    unit.stands = stands;
    if class_changed {
        // A new class brings its own basing, weapon, bayonets and flags.
        unit.basing = None;
        unit.weapon = None;
        unit.bayonets = None;
        unit.formations = None;
        unit.light_infantry = false;
        unit.grenadiers = false;
        unit.legion = false;
        unit.discharged_continentals = false;
        if !artillery {
            unit.gun = None;
            unit.guns = None;
            unit.crew = None;
        }
    }
    if artillery && unit.gun.is_none() {
        // A battery needs its gun class; the medium gun stands in until one is chosen.
        unit.gun = Some(GunClass::Medium.id().to_string());
    }
    if !full {
        return errors;
    }
    unit.figures = match form.u_figures.trim() {
        "" => None,
        text => match text.parse::<u32>() {
            Ok(n) if n <= MAX_STANDS * 4 => Some(n),
            _ => {
                errors.add(
                    "u_figures",
                    "Give the figures as a whole number, or leave it empty for full strength.",
                );
                None
            }
        },
    };
    let pick =
        |value: &str, known: bool, field: &str, what: &str, errors: &mut FormErrors| match value
            .trim()
        {
            "" => None,
            v if known => Some(v.to_string()),
            _ => {
                errors.add(field, format!("Choose {what} from the list."));
                None
            }
        };
    unit.basing = pick(
        &form.u_basing,
        cat.basing(form.u_basing.trim()).is_some(),
        "u_basing",
        "a basing",
        &mut errors,
    );
    unit.weapon = pick(
        &form.u_weapon,
        cat.weapon(form.u_weapon.trim()).is_some(),
        "u_weapon",
        "a weapon",
        &mut errors,
    );
    unit.bayonets = match form.u_bayonets.as_str() {
        "yes" => Some(true),
        "no" => Some(false),
        _ => None,
    };
    unit.authorizations = GRANTS
        .iter()
        .zip([
            &form.u_auth_close_order,
            &form.u_auth_open_order,
            &form.u_auth_skirmish,
        ])
        .filter(|(_, v)| ticked(v))
        .map(|(g, _)| (*g).to_string())
        .collect();
    unit.marksmen = ticked(&form.u_marksmen);
    let may = |flag: &str| class.flags.iter().any(|f| f == flag);
    unit.light_infantry = ticked(&form.u_light_infantry) && may("light_infantry");
    unit.grenadiers = ticked(&form.u_grenadiers) && may("grenadiers");
    unit.legion = ticked(&form.u_legion) && may("legion");
    unit.discharged_continentals =
        ticked(&form.u_discharged_continentals) && may("discharged_continentals");
    if artillery {
        unit.gun = match GunClass::from_id(form.u_gun.trim()) {
            Some(g) => Some(g.id().to_string()),
            None => {
                errors.add("u_gun", "Choose the gun: light, medium or heavy.");
                unit.gun.clone()
            }
        };
        unit.guns = match form.u_guns.trim() {
            "" => None,
            t => read_count(t, "u_guns", 50, "the guns", &mut errors),
        };
        unit.crew = match form.u_crew.trim() {
            "" => None,
            // Zero crew is kept, so the check can say so (artillery_without_crew).
            "0" => Some(0),
            t => read_count(t, "u_crew", 50, "the crew a gun", &mut errors),
        };
    }
    errors
}

/// What a successful edit wants the page to show next.
pub struct Applied {
    /// Fragment to scroll to, e.g. `b-b2`.
    pub anchor: String,
}

/// Applies one editor action to the order of battle. On form errors nothing is saved.
pub fn apply(cat: &Catalogue, doc: &mut RosterDoc, form: &EditForm) -> Result<Applied, FormErrors> {
    let mut errors = FormErrors::default();
    let gone = || {
        let mut e = FormErrors::default();
        e.general.push(
            "That part of the order of battle no longer exists; the page has been refreshed."
                .into(),
        );
        e
    };
    let anchor = match form.action.as_str() {
        "settings" => {
            let name = clean_name(&form.name, "name", &mut errors);
            if name.is_empty() {
                errors.add("name", "Give the order of battle a name.");
            }
            if !NATIONS.contains(&form.nation.as_str()) {
                errors.add("nation", "Choose the side from the list.");
            }
            let scenario = clean_name(&form.scenario, "scenario", &mut errors);
            let commander = clean_name(&form.army_commander, "army_commander", &mut errors);
            let rating = read_rating(cat, &form.army_rating, "army_rating", &mut errors);
            let (true, Some(rating)) = (errors.is_empty(), rating) else {
                return Err(errors);
            };
            doc.name = name;
            doc.nation = form.nation.clone();
            doc.scenario = scenario;
            doc.army_commander = match rating {
                None if commander.is_empty() => None,
                rating => {
                    let mut c = doc.army_commander.take().unwrap_or_default();
                    c.name = commander;
                    c.rating = rating.or(Some(cat.commander_rating.default));
                    Some(c)
                }
            };
            "army".to_string()
        }
        "add_brigade" => {
            if doc.brigades.len() >= MAX_BRIGADES {
                errors.general.push(format!(
                    "An order of battle holds at most {MAX_BRIGADES} brigades in Muster."
                ));
                return Err(errors);
            }
            let name = clean_name(&form.brigade_name, "brigade_name", &mut errors);
            let commander = clean_name(&form.commander, "commander", &mut errors);
            let rating = read_rating(cat, &form.rating, "rating", &mut errors);
            let (true, Some(rating)) = (errors.is_empty(), rating) else {
                return Err(errors);
            };
            doc.brigades.push(BrigadeDoc {
                id: None,
                name: if name.is_empty() {
                    format!("{} Brigade", ordinal(doc.brigades.len() + 1))
                } else {
                    name
                },
                commander: Some(CommanderDoc {
                    id: None,
                    name: commander,
                    rating: Some(rating.unwrap_or(cat.commander_rating.default)),
                    wound: None,
                }),
                units: Vec::new(),
            });
            "brigades-end".to_string()
        }
        "update_brigade" => {
            let bi = brigade_index(doc, &form.brigade).ok_or_else(gone)?;
            let name = clean_name(&form.brigade_name, "brigade_name", &mut errors);
            let commander = clean_name(&form.commander, "commander", &mut errors);
            let rating = read_rating(cat, &form.rating, "rating", &mut errors);
            let (true, Some(rating)) = (errors.is_empty(), rating) else {
                return Err(errors);
            };
            let brigade = &mut doc.brigades[bi];
            brigade.name = name;
            brigade.commander = match rating {
                // No rating chosen and no name: the brigade has no commander (a warning).
                None if commander.is_empty() => None,
                rating => {
                    let mut c = brigade.commander.take().unwrap_or_default();
                    c.name = commander;
                    c.rating = rating.or(Some(cat.commander_rating.default));
                    Some(c)
                }
            };
            format!("b-{}", form.brigade)
        }
        "brigade_up" | "brigade_down" => {
            let bi = brigade_index(doc, &form.brigade).ok_or_else(gone)?;
            let target = if form.action == "brigade_up" {
                bi.checked_sub(1)
            } else {
                Some(bi + 1).filter(|t| *t < doc.brigades.len())
            };
            if let Some(t) = target {
                doc.brigades.swap(bi, t);
            }
            format!("b-{}", form.brigade)
        }
        "remove_brigade" => {
            let bi = brigade_index(doc, &form.brigade).ok_or_else(gone)?;
            doc.brigades.remove(bi);
            for d in &mut doc.divisions {
                d.brigades.retain(|b| b != &form.brigade);
            }
            "brigades".to_string()
        }
        "add_unit" => {
            let bi = brigade_index(doc, &form.brigade).ok_or_else(gone)?;
            if doc.unit_count() >= MAX_UNITS {
                errors.general.push(format!(
                    "An order of battle holds at most {MAX_UNITS} units in Muster."
                ));
                return Err(errors);
            }
            let mut unit = UnitDoc::default();
            let errors = read_unit(cat, form, &mut unit, false);
            if !errors.is_empty() {
                return Err(errors);
            }
            doc.brigades[bi].units.push(unit);
            doc.assign_ids();
            let id = doc.brigades[bi]
                .units
                .last()
                .and_then(|u| u.id.clone())
                .unwrap_or_default();
            format!("u-{id}")
        }
        "update_unit" => {
            let (bi, ui) = unit_index(doc, &form.unit).ok_or_else(gone)?;
            let mut unit = doc.brigades[bi].units[ui].clone();
            let errors = read_unit(cat, form, &mut unit, true);
            if !errors.is_empty() {
                return Err(errors);
            }
            doc.brigades[bi].units[ui] = unit;
            format!("u-{}", form.unit)
        }
        "remove_unit" => {
            let (bi, ui) = unit_index(doc, &form.unit).ok_or_else(gone)?;
            doc.brigades[bi].units.remove(ui);
            format!("b-{}", doc.brigades[bi].id.clone().unwrap_or_default())
        }
        "move_unit" => {
            let (bi, ui) = unit_index(doc, &form.unit).ok_or_else(gone)?;
            let to = brigade_index(doc, &form.to_brigade).ok_or_else(gone)?;
            if to != bi {
                let unit = doc.brigades[bi].units.remove(ui);
                doc.brigades[to].units.push(unit);
            }
            format!("u-{}", form.unit)
        }
        _ => {
            errors
                .general
                .push("The editor did not understand that change.".into());
            return Err(errors);
        }
    };
    doc.assign_ids();
    Ok(Applied { anchor })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cat() -> Catalogue {
        Catalogue::builtin().expect("catalogue")
    }

    fn form(action: &str) -> EditForm {
        EditForm {
            action: action.into(),
            ..EditForm::default()
        }
    }

    #[test]
    fn a_unit_the_rules_refuse_still_saves_but_a_value_the_game_lacks_does_not() {
        let cat = cat();
        let mut doc = RosterDoc::new("Test", "american");
        doc.assign_ids();
        let brigade = doc.brigades[0].id.clone().unwrap_or_default();
        let mut add = form("add_unit");
        add.brigade = brigade;
        add.u_name = "Levies".into();
        add.u_class = "militia".into();
        add.u_quality = "guard".into();
        add.u_stands = "4".into();
        let refused = apply(&cat, &mut doc, &add)
            .err()
            .expect("guard is no quality");
        assert!(refused.has("u_quality"));
        add.u_quality = "poor".into();
        apply(&cat, &mut doc, &add).expect("militia saves");
        let unit = doc.brigades[0].units[0].clone();
        assert_eq!((unit.class.as_str(), unit.stands), ("militia", 4));
        // Bayonets on militia contradict the class (an error finding), yet the draft saves.
        let mut change = form("update_unit");
        change.unit = unit.id.clone().unwrap_or_default();
        change.u_name = "Levies".into();
        change.u_class = "militia".into();
        change.u_quality = "poor".into();
        change.u_stands = "4".into();
        change.u_bayonets = "yes".into();
        change.u_auth_close_order = "on".into();
        change.u_grenadiers = "on".into();
        apply(&cat, &mut doc, &change).expect("an illegal draft saves");
        let unit = &doc.brigades[0].units[0];
        assert_eq!(unit.bayonets, Some(true));
        assert_eq!(unit.authorizations, vec!["close_order".to_string()]);
        assert!(
            !unit.grenadiers,
            "militia carry no grenadier flag, so it is not offered"
        );
    }

    #[test]
    fn ratings_outside_b8_are_refused() {
        let cat = cat();
        let mut doc = RosterDoc::new("Test", "british");
        let mut add = form("add_brigade");
        add.rating = "4".into();
        assert!(apply(&cat, &mut doc, &add).is_err());
        add.rating = "3".into();
        add.commander = "Tarleton".into();
        apply(&cat, &mut doc, &add).expect("rating 3");
        assert_eq!(
            doc.brigades[1].commander.as_ref().and_then(|c| c.rating),
            Some(3)
        );
        assert_eq!(doc.brigades[1].name, "2nd Brigade");
    }
}
