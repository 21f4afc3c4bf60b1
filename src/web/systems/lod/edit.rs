//! The Liberty or Death! editor's actions. Each posts one small form; the server applies it to
//! the army, re-checks it and saves it against the version the form was based on. The forms
//! offer only what the catalogue allows (the army's entries and its allies', each entry's sizes,
//! Grenadiers Detached where the entry has it); a combination the rules refuse, such as
//! detaching the grenadiers of a 3-base regiment (L-50), still saves and shows its finding.

use serde::{Deserialize, Serialize};

use crate::rules::systems::lod::catalogue::Entry;
use crate::rules::systems::lod::roster::{MAX_BRIGADES, MAX_TEXT, MAX_UNITS};
use crate::rules::systems::lod::types::EntryOption;
use crate::rules::systems::lod::validate::resolve;
use crate::rules::systems::lod::{ArmyList, BrigadeDoc, Catalogue, LeaderDoc, RosterDoc, UnitDoc};
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
    pub army_list: String,
    pub c_in_c: String,
    // brigades
    pub brigade_name: String,
    pub general: String,
    pub to_brigade: String,
    // units
    pub u_name: String,
    pub u_entry: String,
    pub u_bases: String,
    /// `detached` or empty.
    pub u_grenadiers: String,
}

impl EditForm {
    /// The form as `(name, value)` pairs, to post it again against a newer version.
    pub fn fields(&self) -> Vec<(&'static str, String)> {
        let all = [
            ("action", &self.action),
            ("brigade", &self.brigade),
            ("unit", &self.unit),
            ("name", &self.name),
            ("army_list", &self.army_list),
            ("c_in_c", &self.c_in_c),
            ("brigade_name", &self.brigade_name),
            ("general", &self.general),
            ("to_brigade", &self.to_brigade),
            ("u_name", &self.u_name),
            ("u_entry", &self.u_entry),
            ("u_bases", &self.u_bases),
            ("u_grenadiers", &self.u_grenadiers),
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
            "rename_brigade" => format!("rename a brigade (General “{}”)", self.general.trim()),
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

/// The reference a unit of `army` stores for an entry of `list` (L-49: `list.entry` for allies).
pub fn reference(army: ArmyList, list: ArmyList, entry: &Entry) -> String {
    if list == army {
        entry.id.clone()
    } else {
        format!("{}.{}", list.id(), entry.id)
    }
}

/// Reads the unit fields against what the army may field; the form offers nothing else.
fn unit_choice(
    cat: &Catalogue,
    army: ArmyList,
    form: &EditForm,
    errors: &mut FormErrors,
) -> Option<(String, u32, bool)> {
    let Some((list, entry)) = resolve(cat, army, &form.u_entry)
        .filter(|(list, _)| *list == army || cat.list(army).allies.contains(list))
    else {
        errors.add("u_entry", "Choose a unit from the army's list.");
        return None;
    };
    let bases = form.u_bases.trim().parse::<u32>().ok();
    let Some(bases) = bases.filter(|b| entry.bases.contains(b)) else {
        errors.add(
            "u_bases",
            format!("{} comes with {}.", entry.name, entry.bases_in_words()),
        );
        return None;
    };
    let detached = match form.u_grenadiers.as_str() {
        "" => false,
        "detached" if entry.offers(EntryOption::GrenadiersDetached) => true,
        _ => {
            errors.add(
                "u_grenadiers",
                format!("{} cannot detach its grenadiers.", entry.name),
            );
            return None;
        }
    };
    Some((reference(army, list, entry), bases, detached))
}

/// What a successful edit wants the page to show next.
pub struct Applied {
    /// Fragment to scroll to, e.g. `b-brigade-2`.
    pub anchor: String,
}

/// Applies one editor action to the army. On form errors nothing is saved.
pub fn apply(cat: &Catalogue, doc: &mut RosterDoc, form: &EditForm) -> Result<Applied, FormErrors> {
    let mut errors = FormErrors::default();
    let gone = || {
        let mut e = FormErrors::default();
        e.general
            .push("That part of the army no longer exists; the page has been refreshed.".into());
        e
    };
    let army = ArmyList::from_id(&doc.army_list);
    let anchor = match form.action.as_str() {
        "settings" => {
            let name = clean_name(&form.name, "name", &mut errors);
            if name.is_empty() {
                errors.add("name", "Give the army a name.");
            }
            let c_in_c = clean_name(&form.c_in_c, "c_in_c", &mut errors);
            let new_list = ArmyList::from_id(&form.army_list);
            if new_list.is_none() {
                errors.add("army_list", "Choose an army list.");
            }
            let (true, Some(new_list)) = (errors.is_empty(), new_list) else {
                return Err(errors);
            };
            // Units keep the entry they stand for: a changed list turns the old list's entries
            // into `list.entry` references and the new list's into plain ids.
            if let Some(old) = army.filter(|old| *old != new_list) {
                for unit in doc.brigades.iter_mut().flat_map(|b| b.units.iter_mut()) {
                    if let Some((list, entry)) = resolve(cat, old, &unit.entry) {
                        // The same unit in the new list (a 6pdr battery is one in every list)
                        // becomes that list's own entry.
                        let twin = cat.find_entry(new_list, &entry.id).filter(|(_, e)| {
                            e.kind == entry.kind
                                && e.quality == entry.quality
                                && e.weapon == entry.weapon
                                && e.rules == entry.rules
                                && e.bases.contains(&unit.bases)
                        });
                        unit.entry = match twin {
                            Some((_, e)) => e.id.clone(),
                            None => reference(new_list, list, entry),
                        };
                    }
                }
            }
            doc.name = name;
            doc.army_list = new_list.id().to_string();
            doc.c_in_c.name = c_in_c;
            "army".to_string()
        }
        "add_brigade" => {
            if doc.brigades.len() >= MAX_BRIGADES {
                errors.general.push(format!(
                    "An army holds at most {MAX_BRIGADES} brigades in Muster."
                ));
                return Err(errors);
            }
            let name = clean_name(&form.brigade_name, "brigade_name", &mut errors);
            let general = clean_name(&form.general, "general", &mut errors);
            if !errors.is_empty() {
                return Err(errors);
            }
            doc.brigades.push(BrigadeDoc {
                id: None,
                name: if name.is_empty() {
                    format!("{} Brigade", ordinal(doc.brigades.len() + 1))
                } else {
                    name
                },
                general: Some(LeaderDoc {
                    id: None,
                    name: general,
                }),
                units: Vec::new(),
            });
            "brigades-end".to_string()
        }
        "rename_brigade" => {
            let bi = brigade_index(doc, &form.brigade).ok_or_else(gone)?;
            let name = clean_name(&form.brigade_name, "brigade_name", &mut errors);
            let general = clean_name(&form.general, "general", &mut errors);
            if !errors.is_empty() {
                return Err(errors);
            }
            let brigade = &mut doc.brigades[bi];
            brigade.name = name;
            brigade.general.get_or_insert_with(LeaderDoc::default).name = general;
            format!("b-{}", form.brigade)
        }
        "brigade_up" | "brigade_down" => {
            let bi = brigade_index(doc, &form.brigade).ok_or_else(gone)?;
            let target = if form.action == "brigade_up" {
                bi.checked_sub(1)
            } else {
                Some(bi + 1)
            };
            if let Some(t) = target.filter(|t| *t < doc.brigades.len()) {
                doc.brigades.swap(bi, t);
            }
            format!("b-{}", form.brigade)
        }
        "remove_brigade" => {
            let bi = brigade_index(doc, &form.brigade).ok_or_else(gone)?;
            doc.brigades.remove(bi);
            "brigades".to_string()
        }
        "add_unit" | "update_unit" => {
            let Some(army) = army else {
                errors
                    .general
                    .push("Choose the army's list first: units come from its entries.".into());
                return Err(errors);
            };
            let name = clean_name(&form.u_name, "u_name", &mut errors);
            let choice = unit_choice(cat, army, form, &mut errors);
            let (Some((entry, bases, detached)), true) = (choice, errors.is_empty()) else {
                return Err(errors);
            };
            if form.action == "add_unit" {
                let bi = brigade_index(doc, &form.brigade).ok_or_else(gone)?;
                if doc.unit_count() >= MAX_UNITS {
                    errors.general.push(format!(
                        "An army holds at most {MAX_UNITS} units in Muster."
                    ));
                    return Err(errors);
                }
                let mut unit = UnitDoc::new(&entry, bases);
                unit.name = name;
                unit.grenadiers_detached = detached;
                doc.brigades[bi].units.push(unit);
                format!("b-{}", form.brigade)
            } else {
                let (bi, ui) = unit_index(doc, &form.unit).ok_or_else(gone)?;
                let unit = &mut doc.brigades[bi].units[ui];
                unit.name = name;
                unit.entry = entry;
                unit.bases = bases;
                unit.grenadiers_detached = detached;
                format!("u-{}", form.unit)
            }
        }
        "remove_unit" => {
            let (bi, ui) = unit_index(doc, &form.unit).ok_or_else(gone)?;
            doc.brigades[bi].units.remove(ui);
            format!("b-{}", doc.brigades[bi].id.clone().unwrap_or_default())
        }
        "move_unit" => {
            let (bi, ui) = unit_index(doc, &form.unit).ok_or_else(gone)?;
            let target = brigade_index(doc, &form.to_brigade).ok_or_else(gone)?;
            if target != bi {
                let unit = doc.brigades[bi].units.remove(ui);
                doc.brigades[target].units.push(unit);
            }
            format!("u-{}", form.unit)
        }
        _ => {
            errors
                .general
                .push("Muster does not know that action.".into());
            return Err(errors);
        }
    };
    Ok(Applied { anchor })
}

/// "1st", "2nd", "3rd", "4th", … "11th", "21st": how brigades are numbered (as the first is).
pub(crate) fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cat() -> Catalogue {
        Catalogue::builtin().expect("catalogue")
    }

    fn british() -> RosterDoc {
        let mut doc = RosterDoc::new("Test", "british");
        doc.assign_ids();
        doc
    }

    fn add(
        doc: &mut RosterDoc,
        entry: &str,
        bases: &str,
        grenadiers: &str,
    ) -> Result<Applied, FormErrors> {
        let form = EditForm {
            action: "add_unit".into(),
            brigade: doc.brigades[0].id.clone().unwrap_or_default(),
            u_entry: entry.into(),
            u_bases: bases.into(),
            u_grenadiers: grenadiers.into(),
            ..EditForm::default()
        };
        apply(&cat(), doc, &form)
    }

    #[test]
    fn the_form_refuses_what_the_list_does_not_offer() {
        let mut doc = british();
        let errors = add(&mut doc, "light_infantry", "3", "")
            .err()
            .expect("no 3-base light infantry");
        assert!(errors.has("u_bases"));
        let errors = add(&mut doc, "grenadier_infantry", "4", "detached")
            .err()
            .expect("refused");
        assert!(errors.has("u_grenadiers"));
        let errors = add(&mut doc, "continental.riflemen", "3", "")
            .err()
            .expect("L-49");
        assert!(errors.has("u_entry"));
        assert!(doc.brigades[0].units.is_empty(), "nothing was added");
    }

    #[test]
    fn allies_are_stored_by_list_and_an_illegal_combination_still_saves() {
        let mut doc = british();
        add(&mut doc, "hessian.jagers", "4", "").expect("an ally (L-49)");
        // L-50: offered option and offered size, but together they leave 2 bases.
        add(&mut doc, "regular_infantry_regiment", "3", "detached").expect("saved as a draft");
        let units = &doc.brigades[0].units;
        assert_eq!(units[0].entry, "hessian.jagers");
        assert!(units[1].grenadiers_detached);
    }

    #[test]
    fn changing_the_list_keeps_each_units_entry() {
        let mut doc = british();
        add(&mut doc, "artillery_6pdr", "2", "").expect("ok");
        add(&mut doc, "hessian.jagers", "4", "").expect("ok");
        let form = EditForm {
            action: "settings".into(),
            name: "Hessians".into(),
            army_list: "hessian".into(),
            ..EditForm::default()
        };
        apply(&cat(), &mut doc, &form).expect("ok");
        let entries: Vec<&str> = doc.brigades[0]
            .units
            .iter()
            .map(|u| u.entry.as_str())
            .collect();
        // A 6pdr battery is the same unit in both lists: it becomes the Hessian list's own.
        assert_eq!(entries, ["artillery_6pdr", "jagers"]);
    }
}
