//! The roster editor's actions. Each posts one small form; the server applies it to the
//! document, re-checks the whole roster and saves it against the version the form was based on.

use serde::{Deserialize, Serialize};

use super::options;
use crate::rules::systems::lotf::{
    Catalogue, CommanderDoc, ElementDoc, GroupDoc, Mode, RosterDoc, MAX_POINTS_LIMIT,
};
use crate::web::page::FormErrors;

/// Muster keeps rosters to a sane size so a page never grows without bound; the validator
/// reports the book's own limits (2–6) long before these.
pub use crate::rules::systems::lotf::roster::{MAX_ELEMENTS_PER_GROUP, MAX_GROUPS};
pub const MAX_NAME_CHARS: usize = crate::rules::systems::lotf::roster::MAX_TEXT_CHARS;

/// Every field any editor form may send; each action reads the ones it needs.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct EditForm {
    pub version: i32,
    pub action: String,
    pub group: String,
    pub element: String,
    // settings
    pub name: String,
    pub war: String,
    pub nation: String,
    pub points_limit: String,
    pub mode: String,
    pub force_commander: String,
    // groups
    pub group_name: String,
    pub commander: String,
    pub to_group: String,
    // elements
    pub el_name: String,
    pub el_type: String,
    pub el_size: String,
    pub el_weapon: String,
    pub el_upgrade: String,
}

impl EditForm {
    /// The form as `(name, value)` pairs, to post it again against a newer version.
    pub fn fields(&self) -> Vec<(&'static str, String)> {
        let all = [
            ("action", &self.action),
            ("group", &self.group),
            ("element", &self.element),
            ("name", &self.name),
            ("war", &self.war),
            ("nation", &self.nation),
            ("points_limit", &self.points_limit),
            ("mode", &self.mode),
            ("force_commander", &self.force_commander),
            ("group_name", &self.group_name),
            ("commander", &self.commander),
            ("to_group", &self.to_group),
            ("el_name", &self.el_name),
            ("el_type", &self.el_type),
            ("el_size", &self.el_size),
            ("el_weapon", &self.el_weapon),
            ("el_upgrade", &self.el_upgrade),
        ];
        all.into_iter()
            .filter(|(_, v)| !v.is_empty())
            .map(|(k, v)| (k, v.clone()))
            .collect()
    }

    /// A short description of the change, for the conflict page.
    pub fn describe(&self) -> String {
        match self.action.as_str() {
            "settings" => format!("change the force settings (name “{}”)", self.name.trim()),
            "add_group" => "add a group".into(),
            "rename_group" => format!("rename a group (commander “{}”)", self.commander.trim()),
            "group_up" | "group_down" => "move a group".into(),
            "remove_group" => "remove a group".into(),
            "add_element" => format!("add an element (“{}”)", self.el_name.trim()),
            "update_element" => format!("change an element (“{}”)", self.el_name.trim()),
            "remove_element" => "remove an element".into(),
            "move_element" => "move an element to another group".into(),
            _ => "change the roster".into(),
        }
    }
}

fn clean_name(text: &str, field: &str, errors: &mut FormErrors) -> String {
    let text = text.trim();
    if text.chars().count() > MAX_NAME_CHARS {
        errors.add(
            field,
            format!("Keep names to {MAX_NAME_CHARS} characters or fewer."),
        );
    }
    text.chars().take(MAX_NAME_CHARS).collect()
}

fn group_index(doc: &RosterDoc, id: &str) -> Option<usize> {
    doc.groups.iter().position(|g| g.id.as_deref() == Some(id))
}

fn element_index(doc: &RosterDoc, id: &str) -> Option<(usize, usize)> {
    doc.groups.iter().enumerate().find_map(|(gi, g)| {
        g.elements
            .iter()
            .position(|e| e.id.as_deref() == Some(id))
            .map(|ei| (gi, ei))
    })
}

/// What a successful edit wants the page to show next.
pub struct Applied {
    /// Fragment to scroll to, e.g. `g-g2`.
    pub anchor: String,
}

/// Applies one editor action to the document. Form errors leave the document unchanged as far
/// as the user can tell (it is not saved).
pub fn apply(cat: &Catalogue, doc: &mut RosterDoc, form: &EditForm) -> Result<Applied, FormErrors> {
    let mut errors = FormErrors::default();
    let gone = || {
        let mut e = FormErrors::default();
        e.general
            .push("That part of the roster no longer exists; the page has been refreshed.".into());
        e
    };
    let anchor = match form.action.as_str() {
        "settings" => {
            let name = clean_name(&form.name, "name", &mut errors);
            if name.is_empty() {
                errors.add("name", "Give the roster a name.");
            }
            let war = options::parse_war(&form.war);
            if war.is_none() {
                errors.add("war", "Choose a war.");
            }
            let nation = options::parse_nation(&form.nation);
            if nation.is_none() {
                errors.add("nation", "Choose a nation.");
            }
            let limit = match form.points_limit.trim() {
                // 0 is what an imported roster may carry for "no limit" (M-2).
                "" | "0" => None,
                text => match text.parse::<u32>() {
                    Ok(n) if (1..=MAX_POINTS_LIMIT).contains(&n) => Some(n),
                    _ => {
                        errors.add("points_limit", "Give the points limit as a whole number from 1 to 100000, or leave it empty.");
                        None
                    }
                },
            };
            let mode = match form.mode.as_str() {
                "historical" => Mode::Historical,
                "standard" | "" => Mode::Standard,
                _ => {
                    errors.add("mode", "Choose standard or historical.");
                    Mode::Standard
                }
            };
            let commander = clean_name(&form.force_commander, "force_commander", &mut errors);
            if !errors.is_empty() {
                return Err(errors);
            }
            doc.name = name;
            if let (Some(war), Some(nation)) = (war, nation) {
                doc.war = war;
                doc.nation = nation;
            }
            doc.points_limit = limit;
            doc.mode = mode;
            doc.force_commander
                .get_or_insert_with(CommanderDoc::default)
                .name = commander;
            "settings".to_string()
        }
        "add_group" => {
            if doc.groups.len() >= MAX_GROUPS {
                errors.general.push(format!(
                    "A roster holds at most {MAX_GROUPS} groups in Muster."
                ));
                return Err(errors);
            }
            let commander = clean_name(&form.commander, "commander", &mut errors);
            if !errors.is_empty() {
                return Err(errors);
            }
            doc.groups.push(GroupDoc {
                id: None,
                name: String::new(),
                commander: Some(CommanderDoc {
                    id: None,
                    name: commander,
                }),
                elements: Vec::new(),
            });
            "groups-end".to_string()
        }
        "rename_group" => {
            let gi = group_index(doc, &form.group).ok_or_else(gone)?;
            let name = clean_name(&form.group_name, "group_name", &mut errors);
            let commander = clean_name(&form.commander, "commander", &mut errors);
            if !errors.is_empty() {
                return Err(errors);
            }
            let group = &mut doc.groups[gi];
            group.name = name;
            group
                .commander
                .get_or_insert_with(CommanderDoc::default)
                .name = commander;
            format!("g-{}", form.group)
        }
        "group_up" | "group_down" => {
            let gi = group_index(doc, &form.group).ok_or_else(gone)?;
            let target = if form.action == "group_up" {
                gi.checked_sub(1)
            } else {
                Some(gi + 1)
            };
            if let Some(t) = target.filter(|t| *t < doc.groups.len()) {
                doc.groups.swap(gi, t);
            }
            format!("g-{}", form.group)
        }
        "remove_group" => {
            let gi = group_index(doc, &form.group).ok_or_else(gone)?;
            doc.groups.remove(gi);
            "groups".to_string()
        }
        "add_element" | "update_element" => {
            let name = clean_name(&form.el_name, "el_name", &mut errors);
            let choice = options::check_element_choice(
                cat,
                doc.war,
                &form.el_type,
                &form.el_size,
                &form.el_weapon,
                &form.el_upgrade,
            );
            let (t, size, weapon, upgrades) = match choice {
                Ok(c) => c,
                Err(list) => {
                    for (field, message) in list {
                        errors.add(&format!("el_{field}"), message);
                    }
                    return Err(errors);
                }
            };
            if !errors.is_empty() {
                return Err(errors);
            }
            let name = if name.is_empty() {
                format!("{} {}", size.label(), t.label().to_lowercase())
            } else {
                name
            };
            if form.action == "add_element" {
                let gi = group_index(doc, &form.group).ok_or_else(gone)?;
                if doc.groups[gi].elements.len() >= MAX_ELEMENTS_PER_GROUP {
                    errors.general.push(format!(
                        "A group holds at most {MAX_ELEMENTS_PER_GROUP} elements in Muster."
                    ));
                    return Err(errors);
                }
                let mut element = ElementDoc::new(&name, t, size);
                element.weapon = weapon;
                element.upgrades = upgrades;
                doc.groups[gi].elements.push(element);
                format!("g-{}", form.group)
            } else {
                let (gi, ei) = element_index(doc, &form.element).ok_or_else(gone)?;
                let element = &mut doc.groups[gi].elements[ei];
                element.name = name;
                element.element_type = t;
                element.size = size;
                element.weapon = weapon;
                element.upgrades = upgrades;
                // A changed element no longer stands exactly for the book's entry or assumption.
                element.size_assumed = false;
                element.gun_class_assumed = false;
                format!("e-{}", form.element)
            }
        }
        "remove_element" => {
            let (gi, ei) = element_index(doc, &form.element).ok_or_else(gone)?;
            doc.groups[gi].elements.remove(ei);
            format!("g-{}", doc.groups[gi].id.clone().unwrap_or_default())
        }
        "move_element" => {
            let (gi, ei) = element_index(doc, &form.element).ok_or_else(gone)?;
            let target = group_index(doc, &form.to_group).ok_or_else(gone)?;
            if target != gi {
                if doc.groups[target].elements.len() >= MAX_ELEMENTS_PER_GROUP {
                    errors.general.push(format!(
                        "A group holds at most {MAX_ELEMENTS_PER_GROUP} elements in Muster."
                    ));
                    return Err(errors);
                }
                let element = doc.groups[gi].elements.remove(ei);
                doc.groups[target].elements.push(element);
            }
            format!("e-{}", form.element)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::systems::lotf::{Nation, War};

    fn cat() -> Catalogue {
        Catalogue::builtin().expect("catalogue")
    }

    fn doc_with_group() -> RosterDoc {
        let mut doc = RosterDoc::new("Test", War::AmericanRevolution, Nation::American, Some(150));
        doc.groups.push(GroupDoc {
            id: Some("g1".into()),
            ..GroupDoc::default()
        });
        doc
    }

    fn add(
        doc: &mut RosterDoc,
        t: &str,
        size: &str,
        weapon: &str,
        upgrade: &str,
    ) -> Result<Applied, FormErrors> {
        let form = EditForm {
            action: "add_element".into(),
            group: "g1".into(),
            el_type: t.into(),
            el_size: size.into(),
            el_weapon: weapon.into(),
            el_upgrade: upgrade.into(),
            ..EditForm::default()
        };
        apply(&cat(), doc, &form)
    }

    #[test]
    fn an_element_gets_a_default_name_and_what_was_chosen() {
        let mut doc = doc_with_group();
        add(&mut doc, "infantry", "large", "rifled", "grenadiers").expect("allowed");
        let e = &doc.groups[0].elements[0];
        assert_eq!(e.name, "Large infantry");
        assert_eq!(e.upgrades.len(), 1);
    }

    #[test]
    fn the_form_refuses_what_the_catalogue_does_not_allow_for_the_type_and_size() {
        let mut doc = doc_with_group();
        let errors = add(&mut doc, "infantry", "medium", "light_gun", "")
            .err()
            .expect("refused");
        assert!(errors.has("el_weapon"));
        let errors = add(&mut doc, "artillery", "tiny", "", "")
            .err()
            .expect("refused");
        assert!(errors.has("el_size"), "R-2: no tiny artillery");
        let errors = add(&mut doc, "infantry", "medium", "", "additional_ranks")
            .err()
            .expect("refused");
        assert!(
            errors.of("el_upgrade").contains("R-7"),
            "Additional Ranks is for large elements only"
        );
        let errors = add(&mut doc, "infantry", "medium", "", "elite+grenadiers")
            .err()
            .expect("refused");
        assert!(errors.of("el_upgrade").contains("R-4"));
        assert!(doc.groups[0].elements.is_empty(), "nothing was added");
        add(&mut doc, "infantry", "medium", "", "hessians+grenadiers").expect("the R-4 exception");
    }

    #[test]
    fn rockets_are_refused_outside_the_war_of_1812() {
        let mut doc = doc_with_group();
        assert!(add(&mut doc, "artillery", "small", "rockets", "").is_err());
        doc.war = War::WarOf1812;
        assert!(add(&mut doc, "artillery", "small", "rockets", "").is_ok());
    }

    #[test]
    fn settings_check_the_points_limit() {
        let mut doc = doc_with_group();
        let form = EditForm {
            action: "settings".into(),
            name: "New name".into(),
            war: "war_of_1812".into(),
            nation: "british".into(),
            points_limit: "lots".into(),
            ..EditForm::default()
        };
        let errors = apply(&cat(), &mut doc, &form).err().expect("refused");
        assert!(errors.has("points_limit"));
        assert_eq!(doc.name, "Test", "nothing changed");
        let form = EditForm {
            points_limit: "200".into(),
            ..form
        };
        apply(&cat(), &mut doc, &form).expect("accepted");
        assert_eq!(
            (doc.name.as_str(), doc.points_limit, doc.war),
            ("New name", Some(200), War::WarOf1812)
        );
    }

    #[test]
    fn elements_move_between_groups_and_groups_reorder() {
        let mut doc = doc_with_group();
        doc.groups.push(GroupDoc {
            id: Some("g2".into()),
            ..GroupDoc::default()
        });
        add(&mut doc, "cavalry", "small", "", "").expect("ok");
        doc.groups[0].elements[0].id = Some("e1".into());
        let mv = EditForm {
            action: "move_element".into(),
            element: "e1".into(),
            to_group: "g2".into(),
            ..EditForm::default()
        };
        apply(&cat(), &mut doc, &mv).expect("moved");
        assert!(doc.groups[0].elements.is_empty() && doc.groups[1].elements.len() == 1);
        let up = EditForm {
            action: "group_up".into(),
            group: "g2".into(),
            ..EditForm::default()
        };
        apply(&cat(), &mut doc, &up).expect("moved up");
        assert_eq!(doc.groups[0].id.as_deref(), Some("g2"));
        let stale = EditForm {
            action: "remove_element".into(),
            element: "nope".into(),
            ..EditForm::default()
        };
        assert!(apply(&cat(), &mut doc, &stale).is_err());
    }
}
