//! The *Liberty or Death!* roster check (spec 2.3): every finding at once, in plain words, never
//! a panic. There are no points and no limits per entry; brigade size is advice only (L-51).

use std::collections::BTreeMap;

use serde::Serialize;

use crate::rules::system::{Finding, RosterSummary, Severity};

use super::battle::break_point;
use super::catalogue::{Catalogue, Profile};
use super::roster::RosterDoc;
use super::types::{ArmyList, EntryOption};

/// Brigades of 3 to 6 units are advised, not required (L-51).
pub const ADVISED_BRIGADE: std::ops::RangeInclusive<usize> = 3..=6;

/// Where a roster is checked: on its own, or as a campaign force whose units may have been
/// reduced below their entry's sizes (3.4: `size_below_list_option`, a warning).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Setting {
    #[default]
    Standalone,
    Campaign,
}

/// A unit of the roster as the catalogue reads it.
#[derive(Debug, Clone, Serialize)]
pub struct UnitView {
    pub path: String,
    pub brigade: usize,
    pub index: usize,
    /// `None` when the entry or its size cannot be read.
    pub profile: Option<Profile>,
}

/// The check's whole answer: findings and what is derived, shown but not judged.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub legal: bool,
    pub findings: Vec<Finding>,
    pub units: u32,
    pub brigades: u32,
    /// ⌈units / 2⌉ (4.7).
    pub break_point: u32,
    /// 1 per brigade; the C-in-C's D3 is added when the battle starts (L-42).
    pub command_points_before_d3: u32,
}

fn finding(code: &str, severity: Severity, path: String, message: String) -> Finding {
    Finding {
        code: code.to_string(),
        severity,
        path,
        message,
    }
}

/// Reads every unit of the roster against the catalogue.
pub fn units(cat: &Catalogue, doc: &RosterDoc) -> Vec<UnitView> {
    let army = ArmyList::from_id(&doc.army_list);
    doc.units()
        .map(|(b, u, unit)| {
            let profile = army.and_then(|army| {
                let (list, entry) = resolve(cat, army, &unit.entry)?;
                cat.profile(list, entry, unit.bases, unit.grenadiers_detached)
            });
            UnitView {
                path: format!("brigades[{b}].units[{u}]"),
                brigade: b,
                index: u,
                profile,
            }
        })
        .collect()
}

/// Checks a roster and returns every finding.
pub fn validate(cat: &Catalogue, doc: &RosterDoc, setting: Setting) -> Report {
    let mut findings = Vec::new();
    let army = ArmyList::from_id(&doc.army_list);
    if army.is_none() {
        findings.push(finding(
            "unknown_army_list",
            Severity::Error,
            "army_list".into(),
            format!(
                "'{}' is not an army list; choose continental, british or hessian.",
                doc.army_list
            ),
        ));
    }
    if doc.brigades.is_empty() {
        findings.push(finding(
            "no_brigades",
            Severity::Error,
            "brigades".into(),
            "An army needs at least one brigade under a General.".into(),
        ));
    }
    for (b, brigade) in doc.brigades.iter().enumerate() {
        let path = format!("brigades[{b}]");
        let label = if brigade.name.is_empty() {
            format!("Brigade {}", b + 1)
        } else {
            brigade.name.clone()
        };
        if brigade.general.is_none() {
            findings.push(finding(
                "brigade_without_general",
                Severity::Error,
                format!("{path}.general"),
                format!("{label} has no General; every brigade needs exactly one."),
            ));
        }
        if brigade.units.is_empty() {
            findings.push(finding(
                "empty_brigade",
                Severity::Error,
                format!("{path}.units"),
                format!("{label} has no units."),
            ));
        } else if !ADVISED_BRIGADE.contains(&brigade.units.len()) {
            findings.push(finding(
                "brigade_size_advice",
                Severity::Warning,
                format!("{path}.units"),
                format!(
                    "{label} has {} unit{}; brigades of 3 to 6 units are usual, though not required.",
                    brigade.units.len(),
                    if brigade.units.len() == 1 { "" } else { "s" }
                ),
            ));
        }
        for (u, unit) in brigade.units.iter().enumerate() {
            let path = format!("{path}.units[{u}]");
            if let Some(army) = army {
                check_unit(cat, army, unit, &path, setting, &mut findings);
            }
        }
    }
    duplicate_ids(doc, &mut findings);
    let units = doc.unit_count() as u32;
    let summary_errors = findings.iter().any(|f| f.severity == Severity::Error);
    Report {
        legal: !summary_errors,
        findings,
        units,
        brigades: doc.brigades.len() as u32,
        break_point: break_point(units),
        command_points_before_d3: doc.brigades.len() as u32 * cat.tables.command_points.per_brigade,
    }
}

fn check_unit(
    cat: &Catalogue,
    army: ArmyList,
    unit: &super::roster::UnitDoc,
    path: &str,
    setting: Setting,
    findings: &mut Vec<Finding>,
) {
    let Some((list, entry)) = resolve(cat, army, &unit.entry) else {
        let (code, message) = match cat.entry_anywhere(&unit.entry) {
            Some((other, e)) if !unit.entry.contains('.') => (
                "entry_not_in_list",
                format!(
                    "{} belongs to the {} list; a {} army cannot field it (L-49).",
                    e.name,
                    other.label(),
                    army.label()
                ),
            ),
            _ => (
                "unknown_entry",
                format!("'{}' is not an entry of any army list.", unit.entry),
            ),
        };
        findings.push(finding(
            code,
            Severity::Error,
            format!("{path}.entry"),
            message,
        ));
        return;
    };
    if list != army {
        if cat.list(army).allies.contains(&list) {
            findings.push(finding(
                "allied_list_entry",
                Severity::Warning,
                format!("{path}.entry"),
                format!(
                    "{} comes from the {} list, an ally of a {} army (L-49).",
                    entry.name,
                    list.label(),
                    army.label()
                ),
            ));
        } else {
            findings.push(finding(
                "entry_not_in_list",
                Severity::Error,
                format!("{path}.entry"),
                format!(
                    "{} belongs to the {} list; a {} army cannot field it (L-49).",
                    entry.name,
                    list.label(),
                    army.label()
                ),
            ));
            return;
        }
    }
    let offered = entry.sizes_in_words();
    if !entry.bases.contains(&unit.bases) {
        let fielded = unit
            .bases
            .saturating_sub(u32::from(unit.grenadiers_detached));
        let smaller_row =
            cat.size(entry.kind, fielded).is_some() && entry.bases.iter().any(|b| *b > unit.bases);
        if setting == Setting::Campaign && smaller_row {
            findings.push(finding(
                "size_below_list_option",
                Severity::Warning,
                format!("{path}.bases"),
                format!(
                    "{} is down to {} bases after its battles; the list offers {offered}.",
                    entry.name, unit.bases
                ),
            ));
        } else {
            findings.push(finding(
                "size_not_allowed",
                Severity::Error,
                format!("{path}.bases"),
                format!(
                    "{} comes with {offered} bases, not {}.",
                    entry.name, unit.bases
                ),
            ));
        }
    }
    if unit.grenadiers_detached {
        if !entry.offers(EntryOption::GrenadiersDetached) {
            findings.push(finding(
                "grenadiers_detached_not_allowed",
                Severity::Error,
                format!("{path}.grenadiers_detached"),
                format!("{} cannot detach its grenadiers.", entry.name),
            ));
        } else if cat.size(entry.kind, unit.bases.saturating_sub(1)).is_none() {
            findings.push(finding(
                "grenadiers_detached_too_small",
                Severity::Error,
                format!("{path}.grenadiers_detached"),
                format!(
                    "Detaching the grenadiers of a {}-base {} would leave {} bases, smaller than any unit (L-50).",
                    unit.bases,
                    entry.name,
                    unit.bases.saturating_sub(1)
                ),
            ));
        }
    }
}

/// Finds a unit's entry for an army of `army`: its own list first, then its allies' (L-49), or
/// the list a `list.entry` reference names.
pub fn resolve<'c>(
    cat: &'c Catalogue,
    army: ArmyList,
    reference: &str,
) -> Option<(ArmyList, &'c super::catalogue::Entry)> {
    cat.find_entry(army, reference).or_else(|| {
        if reference.contains('.') {
            return None;
        }
        cat.list(army)
            .allies
            .iter()
            .find_map(|ally| cat.find_entry(*ally, reference))
    })
}

fn duplicate_ids(doc: &RosterDoc, findings: &mut Vec<Finding>) {
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    let mut note = |id: &Option<String>, path: String, findings: &mut Vec<Finding>| {
        let Some(id) = id.as_deref().filter(|s| !s.is_empty()) else {
            return;
        };
        if let Some(first) = seen.get(id) {
            findings.push(finding(
                "duplicate_id",
                Severity::Warning,
                path,
                format!("The id '{id}' is already used at {first}; Muster will give this one a new id when it is saved."),
            ));
        } else {
            seen.insert(id.to_string(), path);
        }
    };
    note(&doc.c_in_c.id, "c_in_c".into(), findings);
    for (b, brigade) in doc.brigades.iter().enumerate() {
        note(&brigade.id, format!("brigades[{b}]"), findings);
        if let Some(g) = &brigade.general {
            note(&g.id, format!("brigades[{b}].general"), findings);
        }
        for (u, unit) in brigade.units.iter().enumerate() {
            note(&unit.id, format!("brigades[{b}].units[{u}]"), findings);
        }
    }
}

/// The summary generic code stores beside the roster.
pub fn summary(doc: &RosterDoc, report: &Report) -> RosterSummary {
    RosterSummary {
        name: doc.name.clone(),
        // The game covers one war; campaigns match forces to theirs by it.
        war: Some(super::roster::WAR.to_string()),
        nation: Some(doc.army_list.clone()),
        points: None,
        limit: None,
        legal: report.legal,
        errors: 0,
        warnings: 0,
    }
    .counting(&report.findings)
}
