//! The AWI editor's actions. Each posts one small form; the server applies it to the order of
//! battle, re-checks it and saves it against the version the form was based on. The forms offer
//! only what the catalogue allows (its troop types, grades, the arms a type may carry, gun
//! classes and gunners); a post left empty stays vacant and an empty brigade stays, so an
//! incomplete draft still saves and shows its findings (spec 2.2).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::rules::systems::awi::catalogue::Catalogue;
use crate::rules::systems::awi::roster::{
    BrigadeDoc, BrigadierDoc, LeaderDoc, RosterDoc, UnitDoc, MAX_BRIGADES, MAX_TEXT, MAX_UNITS,
};
use crate::rules::systems::awi::types::{Arms, Grade, GunClass, TroopType};
use crate::web::page::FormErrors;

/// Every field any editor form may send; each action reads the ones it needs.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct EditForm {
    pub version: i32,
    pub action: String,
    pub brigade: String,
    pub unit: String,
    // the army
    pub name: String,
    pub side: String,
    pub cinc: String,
    // brigades
    pub brigade_name: String,
    pub brigadier: String,
    /// `""` (to be rolled) or 1–10.
    pub ability: String,
    pub to_brigade: String,
    // units
    pub u_name: String,
    pub u_type: String,
    pub u_grade: String,
    pub u_bases: String,
    /// `""` for the type's default.
    pub u_arms: String,
    pub u_gun: String,
    pub u_gunners: String,
}

impl EditForm {
    /// The form as `(name, value)` pairs, to post it again against a newer version.
    pub fn fields(&self) -> Vec<(&'static str, String)> {
        let all = [
            ("action", &self.action),
            ("brigade", &self.brigade),
            ("unit", &self.unit),
            ("name", &self.name),
            ("side", &self.side),
            ("cinc", &self.cinc),
            ("brigade_name", &self.brigade_name),
            ("brigadier", &self.brigadier),
            ("ability", &self.ability),
            ("to_brigade", &self.to_brigade),
            ("u_name", &self.u_name),
            ("u_type", &self.u_type),
            ("u_grade", &self.u_grade),
            ("u_bases", &self.u_bases),
            ("u_arms", &self.u_arms),
            ("u_gun", &self.u_gun),
            ("u_gunners", &self.u_gunners),
        ];
        all.into_iter()
            .filter(|(_, v)| !v.is_empty())
            .map(|(k, v)| (k, v.clone()))
            .collect()
    }

    /// A short description of the change, for the conflict page.
    pub fn describe(&self) -> String {
        match self.action.as_str() {
            "settings" => format!("change the army (name “{}”)", self.name.trim()),
            "add_brigade" => "add a brigade".into(),
            "update_brigade" => format!("change a brigade (brigadier “{}”)", self.brigadier.trim()),
            "brigade_up" | "brigade_down" => "move a brigade".into(),
            "remove_brigade" => "remove a brigade".into(),
            "add_unit" => format!("add a unit (“{}”)", self.u_name.trim()),
            "update_unit" => format!("change a unit (“{}”)", self.u_name.trim()),
            "remove_unit" => "remove a unit".into(),
            "move_unit" => "move a unit to another brigade".into(),
            _ => "change the army".into(),
        }
    }
}

/// Where the editor goes after a change.
pub struct Applied {
    pub anchor: String,
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

/// "1st", "2nd", "3rd", "4th", … "11th", "21st".
pub fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// The ability select: `""` is "to be rolled" (W-4), otherwise the catalogue's range.
fn read_ability(cat: &Catalogue, text: &str, errors: &mut FormErrors) -> Option<Value> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    match text.parse::<u32>() {
        Ok(n) if (cat.command.ability_min..=cat.command.ability_max).contains(&n) => {
            Some(Value::from(n))
        }
        _ => {
            errors.add(
                "ability",
                format!(
                    "Choose an ability from {} to {}, or leave it to be rolled.",
                    cat.command.ability_min, cat.command.ability_max
                ),
            );
            None
        }
    }
}

/// The brigadier of a brigade form: none when both his name and ability are left empty.
fn read_brigadier(
    cat: &Catalogue,
    form: &EditForm,
    old: Option<&BrigadierDoc>,
    errors: &mut FormErrors,
) -> Option<BrigadierDoc> {
    let name = clean_name(&form.brigadier, "brigadier", errors);
    let ability = read_ability(cat, &form.ability, errors);
    if name.is_empty() && ability.is_none() {
        return None;
    }
    let mut b = old.cloned().unwrap_or_default();
    b.name = name;
    b.ability = ability;
    Some(b)
}

/// Reads the unit fields against what the catalogue allows; the form offers nothing else.
fn read_unit(cat: &Catalogue, form: &EditForm, errors: &mut FormErrors) -> Option<UnitDoc> {
    let name = clean_name(&form.u_name, "u_name", errors);
    let kind = TroopType::from_id(&form.u_type).filter(|t| cat.types.iter().any(|d| d.id == *t));
    let grade = Grade::from_id(&form.u_grade).filter(|g| cat.grades.iter().any(|d| d.id == *g));
    if kind.is_none() {
        errors.add(
            "u_type",
            "Choose infantry, skirmishers, cavalry or artillery.",
        );
    }
    if grade.is_none() {
        errors.add("u_grade", "Choose a grade: elite, trained, raw or militia.");
    }
    let (kind, grade) = (kind?, grade?);
    let mut unit = UnitDoc {
        name,
        troop_type: Some(kind.id().to_string()),
        grade: Some(grade.id().to_string()),
        ..UnitDoc::default()
    };
    if kind == TroopType::Artillery {
        let gun = GunClass::from_id(&form.u_gun).filter(|g| cat.guns.iter().any(|d| d.id == *g));
        let Some(gun) = gun else {
            errors.add("u_gun", "Choose a light or a medium gun.");
            return None;
        };
        let (min, max) = (cat.gunners.min, cat.gunners.max);
        let gunners = match form.u_gunners.trim() {
            "" => cat.gunners.default,
            text => match text.parse::<u32>() {
                Ok(n) if (min..=max).contains(&n) => n,
                _ => {
                    errors.add(
                        "u_gunners",
                        format!("A gun has {min} to {max} gunners (W-17)."),
                    );
                    return None;
                }
            },
        };
        unit.gun = Some(gun.id().to_string());
        unit.gunners = Some(Value::from(gunners));
        return Some(unit);
    }
    let bases = form.u_bases.trim().parse::<u32>().ok().filter(|b| *b >= 1);
    let Some(bases) = bases else {
        errors.add("u_bases", "Give the bases as a whole number, 1 or more.");
        return None;
    };
    unit.bases = Some(Value::from(bases));
    let allowed = &cat.troop(kind).arms;
    match form.u_arms.trim() {
        "" => {}
        text => match Arms::from_id(text).filter(|a| allowed.contains(a)) {
            // The default (musket) is left out of the document, as the format says.
            Some(a) if Some(a) == cat.troop(kind).default_arms => {}
            Some(a) => unit.arms = Some(a.id().to_string()),
            None => {
                errors.add(
                    "u_arms",
                    if allowed.is_empty() {
                        format!("{} carry no arms in these rules.", kind.label())
                    } else {
                        "Only skirmishers may carry rifles (W-34).".to_string()
                    },
                );
                return None;
            }
        },
    }
    Some(unit)
}

/// Applies one editor action to the order of battle; a form with mistakes changes nothing.
pub fn apply(cat: &Catalogue, doc: &mut RosterDoc, form: &EditForm) -> Result<Applied, FormErrors> {
    let mut errors = FormErrors::default();
    let gone = |errors: &mut FormErrors, what: &str| {
        errors.general.push(format!(
            "That {what} is no longer in the order of battle; reload the page."
        ));
    };
    let anchor = match form.action.as_str() {
        "settings" => {
            let name = clean_name(&form.name, "name", &mut errors);
            if name.is_empty() {
                errors.add("name", "Give the order of battle a name.");
            }
            let side = clean_name(&form.side, "side", &mut errors);
            let cinc = clean_name(&form.cinc, "cinc", &mut errors);
            if !errors.is_empty() {
                return Err(errors);
            }
            doc.name = name;
            doc.side = (!side.is_empty()).then_some(side);
            // An empty CinC leaves the post vacant: the draft saves and says so (W-36).
            doc.cinc = if cinc.is_empty() {
                None
            } else {
                let mut c = doc.cinc.clone().unwrap_or_default();
                c.name = cinc;
                Some(c)
            };
            "army".to_string()
        }
        "add_brigade" => {
            if doc.brigades.len() >= MAX_BRIGADES {
                errors.general.push(format!(
                    "An order of battle may have at most {MAX_BRIGADES} brigades."
                ));
                return Err(errors);
            }
            let name = clean_name(&form.brigade_name, "brigade_name", &mut errors);
            let brigadier = read_brigadier(cat, form, None, &mut errors);
            if !errors.is_empty() {
                return Err(errors);
            }
            let name = if name.is_empty() {
                format!("{} Brigade", ordinal(doc.brigades.len() + 1))
            } else {
                name
            };
            doc.brigades.push(BrigadeDoc {
                name,
                brigadier,
                ..BrigadeDoc::default()
            });
            doc.assign_ids();
            doc.brigades
                .last()
                .and_then(|b| b.id.clone())
                .map_or_else(|| "brigades-end".into(), |id| format!("b-{id}"))
        }
        "update_brigade" => {
            let Some(bi) = brigade_index(doc, &form.brigade) else {
                gone(&mut errors, "brigade");
                return Err(errors);
            };
            let name = clean_name(&form.brigade_name, "brigade_name", &mut errors);
            let brigadier =
                read_brigadier(cat, form, doc.brigades[bi].brigadier.as_ref(), &mut errors);
            if !errors.is_empty() {
                return Err(errors);
            }
            doc.brigades[bi].name = name;
            doc.brigades[bi].brigadier = brigadier;
            doc.assign_ids();
            format!("b-{}", form.brigade)
        }
        "brigade_up" | "brigade_down" => {
            let Some(bi) = brigade_index(doc, &form.brigade) else {
                gone(&mut errors, "brigade");
                return Err(errors);
            };
            let other = if form.action == "brigade_up" {
                bi.checked_sub(1)
            } else {
                Some(bi + 1).filter(|o| *o < doc.brigades.len())
            };
            if let Some(o) = other {
                doc.brigades.swap(bi, o);
            }
            format!("b-{}", form.brigade)
        }
        "remove_brigade" => {
            let Some(bi) = brigade_index(doc, &form.brigade) else {
                gone(&mut errors, "brigade");
                return Err(errors);
            };
            doc.brigades.remove(bi);
            "brigades".to_string()
        }
        "add_unit" | "update_unit" => {
            let target = if form.action == "add_unit" {
                brigade_index(doc, &form.brigade).map(|b| (b, None))
            } else {
                unit_index(doc, &form.unit).map(|(b, u)| (b, Some(u)))
            };
            let Some((bi, ui)) = target else {
                gone(
                    &mut errors,
                    if form.action == "add_unit" {
                        "brigade"
                    } else {
                        "unit"
                    },
                );
                return Err(errors);
            };
            if ui.is_none() && doc.unit_count() >= MAX_UNITS {
                errors.general.push(format!(
                    "An order of battle may have at most {MAX_UNITS} units."
                ));
                return Err(errors);
            }
            let unit = read_unit(cat, form, &mut errors);
            let Some(mut unit) = unit.filter(|_| errors.is_empty()) else {
                return Err(errors);
            };
            match ui {
                Some(ui) => {
                    let old = &doc.brigades[bi].units[ui];
                    unit.id = old.id.clone();
                    unit.extra = old.extra.clone();
                    doc.brigades[bi].units[ui] = unit;
                }
                None => doc.brigades[bi].units.push(unit),
            }
            doc.assign_ids();
            let ui = ui.unwrap_or(doc.brigades[bi].units.len() - 1);
            doc.brigades[bi].units[ui]
                .id
                .clone()
                .map_or_else(|| format!("b-{}", form.brigade), |id| format!("u-{id}"))
        }
        "remove_unit" => {
            let Some((bi, ui)) = unit_index(doc, &form.unit) else {
                gone(&mut errors, "unit");
                return Err(errors);
            };
            doc.brigades[bi].units.remove(ui);
            doc.brigades[bi]
                .id
                .clone()
                .map_or_else(|| "brigades".into(), |id| format!("b-{id}"))
        }
        "move_unit" => {
            let (Some((bi, ui)), Some(to)) = (
                unit_index(doc, &form.unit),
                brigade_index(doc, &form.to_brigade),
            ) else {
                gone(&mut errors, "unit or brigade");
                return Err(errors);
            };
            let unit = doc.brigades[bi].units.remove(ui);
            doc.brigades[to].units.push(unit);
            format!("u-{}", form.unit)
        }
        _ => {
            errors
                .general
                .push("The editor did not understand that change.".into());
            return Err(errors);
        }
    };
    Ok(Applied { anchor })
}

/// A new order of battle as the new-roster form makes it: the empty starting point (a CinC and
/// one brigade whose brigadier's ability is rolled later, W-4).
pub fn new_roster(name: &str, side: &str) -> RosterDoc {
    let mut doc = RosterDoc::new(name);
    if !side.trim().is_empty() {
        doc.side = Some(side.trim().to_string());
    }
    if let Some(c) = doc.cinc.as_mut() {
        if c.name.is_empty() {
            *c = LeaderDoc::default();
        }
    }
    doc.assign_ids();
    doc
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cat() -> Catalogue {
        Catalogue::builtin().expect("the built-in catalogue reads")
    }

    fn form(action: &str, fields: &[(&str, &str)]) -> EditForm {
        let mut pairs: Vec<(String, String)> = vec![("action".into(), action.into())];
        pairs.extend(fields.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        let encoded = serde_urlencoded::to_string(&pairs).unwrap_or_default();
        serde_urlencoded::from_str(&encoded).unwrap_or_default()
    }

    #[test]
    fn a_gun_gets_its_class_and_gunners_and_no_bases() {
        let cat = cat();
        let mut doc = new_roster("Test", "British");
        let brigade = doc.brigades[0].id.clone().unwrap_or_default();
        let f = form(
            "add_unit",
            &[
                ("brigade", &brigade),
                ("u_type", "artillery"),
                ("u_grade", "trained"),
                ("u_bases", "6"),
                ("u_gun", "light"),
                ("u_gunners", "3"),
            ],
        );
        assert!(apply(&cat, &mut doc, &f).is_ok());
        let gun = &doc.brigades[0].units[0];
        assert_eq!(gun.gun.as_deref(), Some("light"));
        assert_eq!(gun.gunners, Some(Value::from(3)));
        assert_eq!(gun.bases, None, "a gun stands on one base: no bases field");
    }

    #[test]
    fn rifles_are_refused_to_infantry_but_given_to_skirmishers() {
        let cat = cat();
        let mut doc = new_roster("Test", "");
        let brigade = doc.brigades[0].id.clone().unwrap_or_default();
        let unit = |kind: &str| {
            form(
                "add_unit",
                &[
                    ("brigade", &brigade),
                    ("u_type", kind),
                    ("u_grade", "elite"),
                    ("u_bases", "2"),
                    ("u_arms", "rifle"),
                ],
            )
        };
        let refused = apply(&cat, &mut doc, &unit("infantry"));
        assert!(refused.is_err_and(|e| e.has("u_arms")), "W-34");
        assert!(apply(&cat, &mut doc, &unit("skirmishers")).is_ok());
        assert_eq!(doc.brigades[0].units[0].arms.as_deref(), Some("rifle"));
    }

    #[test]
    fn an_empty_cinc_and_brigadier_leave_the_posts_vacant_and_the_draft_saves() {
        let cat = cat();
        let mut doc = new_roster("Test", "");
        let brigade = doc.brigades[0].id.clone().unwrap_or_default();
        assert!(apply(
            &cat,
            &mut doc,
            &form("settings", &[("name", "Test"), ("cinc", "")])
        )
        .is_ok());
        assert!(doc.cinc.is_none());
        let f = form(
            "update_brigade",
            &[("brigade", &brigade), ("brigadier", ""), ("ability", "")],
        );
        assert!(apply(&cat, &mut doc, &f).is_ok());
        assert!(doc.brigades[0].brigadier.is_none());
        let f = form(
            "update_brigade",
            &[
                ("brigade", &brigade),
                ("brigadier", "Webster"),
                ("ability", "11"),
            ],
        );
        assert!(
            apply(&cat, &mut doc, &f).is_err_and(|e| e.has("ability")),
            "W-4: 1-10 only"
        );
    }
}
