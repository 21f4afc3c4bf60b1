//! The check of an order of battle (spec 2.2): structure only, every finding at once, never a
//! panic. There are no lists, points or sizes in these rules, so Muster invents no limits
//! (W-36). Beside the findings, the derived figures a player reads: figures and men per unit,
//! the half-strength mark and the 10 % / 20 % steps (W-3), totals per brigade and army, and
//! the army's break threshold (W-31).

use std::collections::BTreeMap;

use serde::Serialize;

use super::catalogue::Catalogue;
use super::roster::{whole, Extra, RosterDoc, UnitDoc, UnitSpec};
use super::types::{Arms, Grade, GunClass, TroopType};
use crate::rules::system::{Finding, RosterSummary, Severity};

/// One unit as the check reads it, with what the card and the sheet show.
#[derive(Debug, Clone, Serialize)]
pub struct UnitView {
    pub path: String,
    pub name: String,
    /// `None` when the unit's document is not legal enough to read.
    pub spec: Option<UnitSpec>,
    pub figures: u32,
    pub men: u32,
    /// "6 bases of trained infantry (18 figures, 360 men)".
    pub describe: String,
    /// Bases in action at or below which the unit is at half strength (W-3).
    pub half_strength_at: u32,
    /// For each number of bases lost (1, 2, …): (10 % steps, 20 % steps).
    pub steps: Vec<(u32, u32)>,
}

/// A brigade's totals.
#[derive(Debug, Clone, Serialize)]
pub struct BrigadeView {
    pub path: String,
    pub name: String,
    pub brigadier: Option<String>,
    pub ability: Option<u32>,
    pub units: usize,
    pub bases: u32,
    pub men: u32,
    pub guns: u32,
}

/// The validator's answer: findings and the derived figures.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub legal: bool,
    pub findings: Vec<Finding>,
    pub units: Vec<UnitView>,
    pub brigades: Vec<BrigadeView>,
    /// Units, guns not counted (W-31 counts these).
    pub army_units: u32,
    pub guns: u32,
    pub bases: u32,
    pub men: u32,
    /// Routed, destroyed and departed units (guns not counted) that break the army (W-31).
    pub break_threshold: u32,
}

fn finding(code: &str, severity: Severity, path: String, message: String) -> Finding {
    Finding {
        code: code.to_string(),
        severity,
        path,
        message,
    }
}

/// 10 % steps = ⌊10 × lost / start⌋, 20 % steps = ⌊5 × lost / start⌋ (W-3).
pub fn dead_steps(bases_lost: u32, start_bases: u32) -> (u32, u32) {
    if start_bases == 0 {
        return (0, 0);
    }
    (10 * bases_lost / start_bases, 5 * bases_lost / start_bases)
}

/// The army break threshold: half the starting units (guns not counted), rounded up (W-31).
pub fn break_threshold(units: u32) -> u32 {
    units.div_ceil(2)
}

/// Describes a unit in the game's words.
pub fn describe(cat: &Catalogue, s: &UnitSpec) -> String {
    let grade = s.grade.id();
    match s.troop_type {
        TroopType::Artillery => format!(
            "{}, {} gunner{} ({grade})",
            s.gun.map_or("gun", |g| g.label()),
            s.gunners,
            if s.gunners == 1 { "" } else { "s" }
        ),
        t => {
            let fpb = cat.troop(t).figures_per_base;
            let arms = match s.arms {
                Some(Arms::Rifle) => ", rifles",
                _ => "",
            };
            format!(
                "{} base{} of {grade} {}{arms} ({} figures, {} men)",
                s.bases,
                if s.bases == 1 { "" } else { "s" },
                t.id(),
                s.bases * fpb,
                cat.men(t, s.bases)
            )
        }
    }
}

fn unit_view(cat: &Catalogue, path: String, u: &UnitDoc) -> UnitView {
    let spec = u.spec();
    let (figures, men, describe_text, half, steps) = match &spec {
        Some(s) => {
            let fpb = cat.troop(s.troop_type).figures_per_base;
            let start = s.start_bases();
            (
                s.figures(fpb),
                cat.men(s.troop_type, s.bases),
                describe(cat, s),
                start / 2,
                (1..=start).map(|k| dead_steps(k, start)).collect(),
            )
        }
        None => (0, 0, String::new(), 0, Vec::new()),
    };
    UnitView {
        path,
        name: u.name.clone(),
        spec,
        figures,
        men,
        describe: describe_text,
        half_strength_at: half,
        steps,
    }
}

fn unknown_fields(extra: &Extra, path: &str, out: &mut Vec<Finding>) {
    for key in extra.keys() {
        let at = if path.is_empty() {
            key.clone()
        } else {
            format!("{path}.{key}")
        };
        out.push(finding(
            "unknown_field",
            Severity::Warning,
            at,
            format!("Muster does not know the field '{key}'; it is kept but has no effect."),
        ));
    }
}

fn check_unit(u: &UnitDoc, path: &str, out: &mut Vec<Finding>) {
    let who = if u.name.is_empty() {
        "This unit".to_string()
    } else {
        format!("'{}'", u.name)
    };
    let troop = u.troop();
    match (&u.troop_type, troop) {
        (None, _) => out.push(finding(
            "unknown_type",
            Severity::Error,
            format!("{path}.type"),
            format!("{who} has no troop type: choose infantry, skirmishers, cavalry or artillery."),
        )),
        (Some(t), None) => out.push(finding(
            "unknown_type",
            Severity::Error,
            format!("{path}.type"),
            format!("{who}: '{t}' is not a troop type of these rules (infantry, skirmishers, cavalry, artillery)."),
        )),
        _ => {}
    }
    match (&u.grade, u.grade_value()) {
        (None, _) => out.push(finding(
            "unknown_grade",
            Severity::Error,
            format!("{path}.grade"),
            format!(
                "{who} has no grade: every unit, guns included, is elite, trained, raw or militia."
            ),
        )),
        (Some(g), None) => out.push(finding(
            "unknown_grade",
            Severity::Error,
            format!("{path}.grade"),
            format!("{who}: '{g}' is not a grade (elite, trained, raw, militia)."),
        )),
        _ => {}
    }
    let Some(troop) = troop else {
        return;
    };
    let not_for = |field: &str, out: &mut Vec<Finding>, words: String| {
        out.push(finding(
            "field_not_allowed_for_type",
            Severity::Error,
            format!("{path}.{field}"),
            words,
        ));
    };
    if troop == TroopType::Artillery {
        if u.bases.is_some() && whole(u.bases.as_ref()) != Some(1) {
            not_for(
                "bases",
                out,
                format!("{who} is a gun: it stands on one base, so give no other number of bases."),
            );
        }
        match &u.gun {
            Some(g) if GunClass::from_id(g).is_some() => {}
            Some(g) => out.push(finding(
                "gun_class_invalid",
                Severity::Error,
                format!("{path}.gun"),
                format!("{who}: '{g}' is not a gun class; guns are light or medium (there are no heavy guns)."),
            )),
            None => out.push(finding(
                "gun_class_invalid",
                Severity::Error,
                format!("{path}.gun"),
                format!("{who} is a gun without a class: choose light or medium."),
            )),
        }
        if let Some(v) = &u.gunners {
            if !whole(Some(v)).is_some_and(|g| (1..=4).contains(&g)) {
                out.push(finding(
                    "gunners_out_of_range",
                    Severity::Error,
                    format!("{path}.gunners"),
                    format!("{who}: a gun has 1 to 4 gunner figures, each one piece of the battery (W-17); {v} will not do."),
                ));
            }
        }
        if let Some(a) = &u.arms {
            out.push(finding(
                "arms_not_allowed",
                Severity::Error,
                format!("{path}.arms"),
                format!("{who} is a gun: guns carry no small arms ('{a}')."),
            ));
        }
        return;
    }
    for (field, present) in [("gun", u.gun.is_some()), ("gunners", u.gunners.is_some())] {
        if present {
            not_for(
                field,
                out,
                format!("{who} is {}: only a gun has a '{field}'.", troop.id()),
            );
        }
    }
    match &u.bases {
        Some(v) if whole(Some(v)).is_some_and(|b| b >= 1) => {}
        Some(v) => out.push(finding(
            "bases_invalid",
            Severity::Error,
            format!("{path}.bases"),
            format!("{who}: bases must be a whole number, 1 or more; {v} will not do."),
        )),
        None => out.push(finding(
            "bases_invalid",
            Severity::Error,
            format!("{path}.bases"),
            format!("{who} has no number of bases: give a whole number, 1 or more."),
        )),
    }
    if let Some(a) = &u.arms {
        let why = match (troop, Arms::from_id(a)) {
            (TroopType::Cavalry, _) => Some(format!(
                "{who} is cavalry: cavalry carry no firearms in these rules (W-16), so give no arms."
            )),
            (_, None) => Some(format!(
                "{who}: '{a}' is not an arm of these rules; foot carry musket or rifle."
            )),
            (TroopType::Infantry, Some(Arms::Rifle)) => Some(format!(
                "{who}: only skirmishers may carry rifles (W-34); close-order infantry have muskets."
            )),
            _ => None,
        };
        if let Some(message) = why {
            out.push(finding(
                "arms_not_allowed",
                Severity::Error,
                format!("{path}.arms"),
                message,
            ));
        }
    }
}

/// Checks an order of battle: every finding at once, and the derived figures.
pub fn validate(cat: &Catalogue, doc: &RosterDoc) -> Report {
    let mut out = Vec::new();
    unknown_fields(&doc.extra, "", &mut out);
    match &doc.cinc {
        None => out.push(finding(
            "missing_cinc",
            Severity::Error,
            "cinc".into(),
            "The army needs a commander-in-chief: he commands the brigadiers (W-36).".into(),
        )),
        Some(c) => unknown_fields(&c.extra, "cinc", &mut out),
    }
    if doc.brigades.is_empty() {
        out.push(finding(
            "no_brigades",
            Severity::Error,
            "brigades".into(),
            "The army needs at least one brigade.".into(),
        ));
    }
    let mut units = Vec::new();
    let mut brigades = Vec::new();
    for (b, brigade) in doc.brigades.iter().enumerate() {
        let path = format!("brigades[{b}]");
        let name = if brigade.name.is_empty() {
            format!("Brigade {}", b + 1)
        } else {
            format!("'{}'", brigade.name)
        };
        unknown_fields(&brigade.extra, &path, &mut out);
        if brigade.units.is_empty() {
            out.push(finding(
                "empty_brigade",
                Severity::Error,
                format!("{path}.units"),
                format!("{name} has no units: a brigade has at least one."),
            ));
        }
        match &brigade.brigadier {
            None => out.push(finding(
                "brigade_without_brigadier",
                Severity::Error,
                format!("{path}.brigadier"),
                format!("{name} has no brigadier: its units are commanded through him."),
            )),
            Some(g) => {
                unknown_fields(&g.extra, &format!("{path}.brigadier"), &mut out);
                match &g.ability {
                    None | Some(serde_json::Value::Null) => out.push(finding(
                        "ability_to_be_rolled",
                        Severity::Info,
                        format!("{path}.brigadier.ability"),
                        format!(
                            "{name}'s brigadier has no ability rating yet: Muster rolls {} for him when the force first fights or enlists (W-4).",
                            cat.command.ability_roll.label()
                        ),
                    )),
                    Some(v) if g.ability_value().is_none() => out.push(finding(
                        "ability_out_of_range",
                        Severity::Error,
                        format!("{path}.brigadier.ability"),
                        format!(
                            "{name}'s brigadier: an ability rating is a whole number from {} to {} (he passes on a D10 at or under it); {v} will not do.",
                            cat.command.ability_min, cat.command.ability_max
                        ),
                    )),
                    Some(_) => {}
                }
            }
        }
        let mut totals = (0u32, 0u32, 0u32);
        for (u, unit) in brigade.units.iter().enumerate() {
            let upath = format!("{path}.units[{u}]");
            unknown_fields(&unit.extra, &upath, &mut out);
            check_unit(unit, &upath, &mut out);
            let view = unit_view(cat, upath, unit);
            if let Some(s) = &view.spec {
                if s.troop_type == TroopType::Artillery {
                    totals.2 += 1;
                } else {
                    totals.0 += s.bases;
                }
                totals.1 += view.men;
            }
            units.push(view);
        }
        brigades.push(BrigadeView {
            path,
            name: brigade.name.clone(),
            brigadier: brigade.brigadier.as_ref().map(|g| g.name.clone()),
            ability: brigade.brigadier.as_ref().and_then(|g| g.ability_value()),
            units: brigade.units.len(),
            bases: totals.0,
            men: totals.1,
            guns: totals.2,
        });
    }
    duplicate_ids(doc, &mut out);
    let army_units = doc
        .units()
        .filter(|(_, _, u)| u.troop() != Some(TroopType::Artillery))
        .count();
    let army_units = u32::try_from(army_units).unwrap_or(u32::MAX);
    let legal = out.iter().all(|f| f.severity != Severity::Error);
    Report {
        legal,
        army_units,
        guns: brigades.iter().map(|b| b.guns).sum(),
        bases: brigades.iter().map(|b| b.bases).sum(),
        men: brigades.iter().map(|b| b.men).sum(),
        break_threshold: break_threshold(army_units),
        findings: out,
        units,
        brigades,
    }
}

fn duplicate_ids(doc: &RosterDoc, out: &mut Vec<Finding>) {
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    let mut note = |id: &Option<String>, path: String, out: &mut Vec<Finding>| {
        let Some(id) = id.as_deref().filter(|s| !s.is_empty()) else {
            return;
        };
        if let Some(first) = seen.get(id) {
            out.push(finding(
                "duplicate_id",
                Severity::Warning,
                path,
                format!("The id '{id}' is already used at {first}; Muster gives this part a new one when it is saved."),
            ));
        } else {
            seen.insert(id.to_string(), path);
        }
    };
    if let Some(c) = &doc.cinc {
        note(&c.id, "cinc".into(), out);
    }
    for (b, brigade) in doc.brigades.iter().enumerate() {
        note(&brigade.id, format!("brigades[{b}]"), out);
        if let Some(g) = &brigade.brigadier {
            note(&g.id, format!("brigades[{b}].brigadier"), out);
        }
        for (u, unit) in brigade.units.iter().enumerate() {
            note(&unit.id, format!("brigades[{b}].units[{u}]"), out);
        }
    }
}

/// The summary generic code stores beside the roster.
pub fn summary(doc: &RosterDoc, report: &Report) -> RosterSummary {
    RosterSummary {
        name: doc.name.clone(),
        war: Some(super::roster::WAR.to_string()),
        nation: doc.side.clone().filter(|s| !s.is_empty()),
        points: None,
        limit: None,
        legal: report.legal,
        errors: 0,
        warnings: 0,
    }
    .counting(&report.findings)
}

/// Grades in their order (best first), for forms.
pub fn grades() -> &'static [Grade] {
    Grade::ALL
}
