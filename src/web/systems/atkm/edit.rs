//! The All the King's Men editor's actions. Each posts one small form; the server applies it to
//! the army and saves it against the version the form was based on. The forms offer only what
//! the catalogue knows (its unit types, qualities, gun sizes, periods, optional rules, ratings 1
//! to 3); a combination the rules refuse, such as a quality without the rule for it or a unit of
//! another size, still saves and shows its finding.

use crate::rules::systems::atkm::roster::{
    GeneralDoc, RosterDoc, UnitDoc, MAX_GENERALS, MAX_TEXT, MAX_UNITS,
};
use crate::rules::systems::atkm::types::{AdvancedRule, Gun, Period, Quality, Role, UnitType};
use crate::web::page::FormErrors;

/// Every field any editor form may send; each action reads the ones it needs.
#[derive(Debug, Clone, Default)]
pub struct EditForm {
    pub version: i32,
    pub action: String,
    pub general: String,
    pub unit: String,
    // the army
    pub name: String,
    pub period: String,
    pub advanced_rules: Vec<String>,
    // generals
    pub g_name: String,
    pub g_role: String,
    pub g_rating: String,
    pub g_radius: String,
    // units
    pub u_name: String,
    pub u_type: String,
    pub u_general: String,
    pub u_rank_and_file: String,
    pub u_break_point: String,
    /// `on` when ticked.
    pub u_officer: String,
    pub u_ensign: String,
    pub u_quality: String,
    pub u_label: String,
    pub u_gun: String,
    pub u_group: String,
}

impl EditForm {
    /// Reads the posted pairs; `advanced_rules` may come many times (one per ticked box).
    pub fn from_pairs(pairs: &[(String, String)]) -> EditForm {
        let mut f = EditForm::default();
        for (k, v) in pairs {
            let v = v.clone();
            match k.as_str() {
                "version" => f.version = v.trim().parse().unwrap_or(-1),
                "action" => f.action = v,
                "general" => f.general = v,
                "unit" => f.unit = v,
                "name" => f.name = v,
                "period" => f.period = v,
                "advanced_rules" => f.advanced_rules.push(v),
                "g_name" => f.g_name = v,
                "g_role" => f.g_role = v,
                "g_rating" => f.g_rating = v,
                "g_radius" => f.g_radius = v,
                "u_name" => f.u_name = v,
                "u_type" => f.u_type = v,
                "u_general" => f.u_general = v,
                "u_rank_and_file" => f.u_rank_and_file = v,
                "u_break_point" => f.u_break_point = v,
                "u_officer" => f.u_officer = v,
                "u_ensign" => f.u_ensign = v,
                "u_quality" => f.u_quality = v,
                "u_label" => f.u_label = v,
                "u_gun" => f.u_gun = v,
                "u_group" => f.u_group = v,
                _ => {}
            }
        }
        f
    }

    /// The form as `(name, value)` pairs, to post it again against a newer version.
    pub fn fields(&self) -> Vec<(&'static str, String)> {
        let single = [
            ("action", &self.action),
            ("general", &self.general),
            ("unit", &self.unit),
            ("name", &self.name),
            ("period", &self.period),
            ("g_name", &self.g_name),
            ("g_role", &self.g_role),
            ("g_rating", &self.g_rating),
            ("g_radius", &self.g_radius),
            ("u_name", &self.u_name),
            ("u_type", &self.u_type),
            ("u_general", &self.u_general),
            ("u_rank_and_file", &self.u_rank_and_file),
            ("u_break_point", &self.u_break_point),
            ("u_officer", &self.u_officer),
            ("u_ensign", &self.u_ensign),
            ("u_quality", &self.u_quality),
            ("u_label", &self.u_label),
            ("u_gun", &self.u_gun),
            ("u_group", &self.u_group),
        ];
        let mut out: Vec<(&'static str, String)> = single
            .into_iter()
            .filter(|(_, v)| !v.is_empty())
            .map(|(k, v)| (k, v.clone()))
            .collect();
        out.extend(
            self.advanced_rules
                .iter()
                .map(|r| ("advanced_rules", r.clone())),
        );
        out
    }

    /// A short description of the change, for the conflict page.
    pub fn describe(&self) -> String {
        match self.action.as_str() {
            "settings" => format!("change the army (name “{}”)", self.name.trim()),
            "add_general" => format!("add a general (“{}”)", self.g_name.trim()),
            "update_general" => format!("change a general (“{}”)", self.g_name.trim()),
            "remove_general" => "remove a general".into(),
            "add_unit" => format!("add a unit (“{}”)", self.u_name.trim()),
            "update_unit" => format!("change a unit (“{}”)", self.u_name.trim()),
            "remove_unit" => "remove a unit".into(),
            _ => "change the army".into(),
        }
    }
}

/// What an applied change points at, for the page to scroll to.
pub struct Applied {
    pub anchor: String,
}

fn clean(text: &str, field: &str, errors: &mut FormErrors) -> String {
    let text = text.trim();
    if text.chars().count() > MAX_TEXT {
        errors.add(
            field,
            format!("Keep names to {MAX_TEXT} characters or fewer."),
        );
    }
    text.chars().take(MAX_TEXT).collect()
}

fn optional(text: String) -> Option<String> {
    (!text.is_empty()).then_some(text)
}

/// A whole number in `range`, or `None` for an empty field.
fn number(
    text: &str,
    range: std::ops::RangeInclusive<u32>,
    field: &str,
    words: &str,
    errors: &mut FormErrors,
) -> Option<u32> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    match text.parse::<u32>() {
        Ok(n) if range.contains(&n) => Some(n),
        _ => {
            errors.add(
                field,
                format!(
                    "Give {words} as a whole number from {} to {}, or leave it empty.",
                    range.start(),
                    range.end()
                ),
            );
            None
        }
    }
}

fn general_index(doc: &RosterDoc, id: &str) -> Option<usize> {
    doc.generals
        .iter()
        .position(|g| g.id.as_deref() == Some(id))
}

fn unit_index(doc: &RosterDoc, id: &str) -> Option<usize> {
    doc.units.iter().position(|u| u.id.as_deref() == Some(id))
}

fn read_general(form: &EditForm, errors: &mut FormErrors) -> Option<GeneralDoc> {
    let name = clean(&form.g_name, "g_name", errors);
    let role = match Role::from_id(form.g_role.trim()) {
        Some(r) => r,
        None => {
            errors.add("g_role", "Choose a role from the list.");
            return None;
        }
    };
    let rating = match form.g_rating.trim().parse::<i64>() {
        Ok(r) if (1..=3).contains(&r) => r,
        _ => {
            errors.add("g_rating", "Choose a rating of 1, 2 or 3.");
            return None;
        }
    };
    let radius = number(&form.g_radius, 1..=48, "g_radius", "the radius", errors);
    Some(GeneralDoc {
        id: None,
        name,
        rating,
        role: role.id().to_string(),
        command_radius: radius,
        rating_roll: None,
    })
}

/// Reads the unit fields; only the catalogue's own values pass.
fn read_unit(doc: &RosterDoc, form: &EditForm, errors: &mut FormErrors) -> Option<UnitDoc> {
    let name = clean(&form.u_name, "u_name", errors);
    let Some(unit_type) = UnitType::from_id(form.u_type.trim()) else {
        errors.add("u_type", "Choose a unit type from the list.");
        return None;
    };
    let general = match form.u_general.trim() {
        "" => None,
        id if general_index(doc, id).is_some() => Some(id.to_string()),
        _ => {
            errors.add("u_general", "Choose one of the army's generals.");
            return None;
        }
    };
    let rank_and_file = number(
        &form.u_rank_and_file,
        1..=99,
        "u_rank_and_file",
        "the rank and file",
        errors,
    );
    let break_point = number(
        &form.u_break_point,
        0..=99,
        "u_break_point",
        "the break point",
        errors,
    );
    let quality = match form.u_quality.trim() {
        "" => None,
        q => match Quality::from_id(q) {
            Some(q) => Some(q.id().to_string()),
            None => {
                errors.add("u_quality", "Choose a quality from the list.");
                return None;
            }
        },
    };
    let gun = match form.u_gun.trim() {
        "" => None,
        g => match Gun::from_id(g) {
            Some(g) => Some(g.id().to_string()),
            None => {
                errors.add("u_gun", "Choose a gun from the list.");
                return None;
            }
        },
    };
    let label = optional(clean(&form.u_label, "u_label", errors));
    let group = optional(clean(&form.u_group, "u_group", errors));
    Some(UnitDoc {
        id: None,
        name,
        unit_type: unit_type.id().to_string(),
        general,
        rank_and_file,
        break_point,
        officer: form.u_officer == "on",
        ensign: form.u_ensign == "on",
        quality,
        label,
        gun,
        group,
        variations: Default::default(),
        random_roll: None,
        arrives: "start".to_string(),
    })
}

/// Applies one editor action to `doc`. Errors name the form's fields; nothing is changed then.
pub fn apply(doc: &mut RosterDoc, form: &EditForm) -> Result<Applied, FormErrors> {
    let mut errors = FormErrors::default();
    let anchor = match form.action.as_str() {
        "settings" => {
            let name = clean(&form.name, "name", &mut errors);
            if name.is_empty() {
                errors.add("name", "Give the army a name.");
            }
            if Period::from_id(form.period.trim()).is_none() {
                errors.add("period", "Choose a period from the list.");
            }
            let mut rules = Vec::new();
            for r in &form.advanced_rules {
                match AdvancedRule::from_id(r.trim()) {
                    Some(rule) if !rules.iter().any(|x: &String| x == rule.id()) => {
                        rules.push(rule.id().to_string())
                    }
                    Some(_) => {}
                    None => errors.add("advanced_rules", "Tick only the rules listed."),
                }
            }
            if errors.is_empty() {
                doc.name = name;
                doc.period = form.period.trim().to_string();
                // Keep the catalogue's order, so that the document reads the same way each time.
                doc.advanced_rules = AdvancedRule::ALL
                    .iter()
                    .filter(|r| rules.iter().any(|x| x == r.id()))
                    .map(|r| r.id().to_string())
                    .collect();
            }
            "#army".to_string()
        }
        "add_general" => {
            if doc.generals.len() >= MAX_GENERALS {
                errors.add(
                    "g_name",
                    format!("An army may have at most {MAX_GENERALS} generals."),
                );
            }
            let general = read_general(form, &mut errors);
            match general {
                Some(g) if errors.is_empty() => {
                    doc.generals.push(g);
                    doc.assign_ids();
                    doc.generals
                        .last()
                        .and_then(|g| g.id.clone())
                        .map_or("#generals".into(), |id| format!("#g-{id}"))
                }
                _ => "#generals".into(),
            }
        }
        "update_general" => {
            let Some(i) = general_index(doc, &form.general) else {
                errors
                    .general
                    .push("That general is no longer in the army.".into());
                return Err(errors);
            };
            match read_general(form, &mut errors) {
                Some(mut g) if errors.is_empty() => {
                    g.id = doc.generals[i].id.clone();
                    if g.rating == doc.generals[i].rating {
                        g.rating_roll = doc.generals[i].rating_roll;
                    }
                    doc.generals[i] = g;
                }
                _ => {}
            }
            format!("#g-{}", form.general)
        }
        "remove_general" => {
            let Some(i) = general_index(doc, &form.general) else {
                errors
                    .general
                    .push("That general is no longer in the army.".into());
                return Err(errors);
            };
            let removed = doc.generals.remove(i).id;
            for u in &mut doc.units {
                if u.general.is_some() && u.general == removed {
                    u.general = None;
                }
            }
            "#generals".into()
        }
        "add_unit" => {
            if doc.units.len() >= MAX_UNITS {
                errors.add(
                    "u_type",
                    format!("An army may have at most {MAX_UNITS} units."),
                );
            }
            match read_unit(doc, form, &mut errors) {
                Some(u) if errors.is_empty() => {
                    doc.units.push(u);
                    doc.assign_ids();
                    doc.units
                        .last()
                        .and_then(|u| u.id.clone())
                        .map_or("#add-unit".into(), |id| format!("#u-{id}"))
                }
                _ => "#add-unit".into(),
            }
        }
        "update_unit" => {
            let Some(i) = unit_index(doc, &form.unit) else {
                errors
                    .general
                    .push("That unit is no longer in the army.".into());
                return Err(errors);
            };
            match read_unit(doc, form, &mut errors) {
                Some(mut u) if errors.is_empty() => {
                    let old = &doc.units[i];
                    u.id = old.id.clone();
                    // What the form does not show stays as it was.
                    u.variations = old.variations.clone();
                    u.arrives = old.arrives.clone();
                    if u.unit_type == old.unit_type {
                        u.random_roll = old.random_roll.clone();
                    }
                    doc.units[i] = u;
                }
                _ => {}
            }
            format!("#u-{}", form.unit)
        }
        "remove_unit" => {
            let Some(i) = unit_index(doc, &form.unit) else {
                errors
                    .general
                    .push("That unit is no longer in the army.".into());
                return Err(errors);
            };
            doc.units.remove(i);
            "#commands".into()
        }
        _ => {
            errors
                .general
                .push("The editor does not know that change.".into());
            return Err(errors);
        }
    };
    if errors.is_empty() {
        Ok(Applied { anchor })
    } else {
        Err(errors)
    }
}
