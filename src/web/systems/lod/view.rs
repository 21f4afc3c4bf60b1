//! A Liberty or Death! roster prepared for pages and the plain text: each unit as the catalogue
//! reads it (entry, bases, WORN / SHAKEN / AUTO BROKEN), findings beside what they concern, and
//! the derived figures (units, break point, Command Points) shown but not judged (spec 2.3).

use crate::rules::system::{Finding, Severity};
use crate::rules::systems::lod::validate::{resolve, Report};
use crate::rules::systems::lod::{ArmyList, Catalogue, RosterDoc};

#[derive(Debug, Clone)]
pub struct FindingView {
    /// `error` or `warning`.
    pub severity: &'static str,
    pub code: String,
    pub message: String,
    /// Where on the page it belongs: `#b-<id>`, `#u-<id>` or `#army`.
    pub anchor: String,
}

#[derive(Debug, Clone)]
pub struct UnitView {
    pub id: String,
    /// The player's name, or the entry's when none was given.
    pub name: String,
    /// The entry reference as stored (`jagers`, `hessian.jagers`).
    pub entry: String,
    /// "Continental Regiment, 4 bases (8/16/24)"; the bare reference when it cannot be read.
    pub described: String,
    /// "Elite Infantry" (quality, then kind).
    pub type_label: String,
    pub weapon: String,
    pub rules: String,
    /// The SIZE option chosen (before a detachment).
    pub bases: u32,
    pub grenadiers_detached: bool,
    /// From an allied list (L-49): the list's name.
    pub ally: String,
    pub worn: String,
    pub shaken: String,
    pub auto_broken: String,
    pub findings: Vec<FindingView>,
}

#[derive(Debug, Clone)]
pub struct BrigadeView {
    pub id: String,
    pub number: usize,
    /// The name, or "Brigade n".
    pub title: String,
    pub name: String,
    pub has_general: bool,
    pub general: String,
    pub findings: Vec<FindingView>,
    pub units: Vec<UnitView>,
}

#[derive(Debug, Clone)]
pub struct RosterView {
    pub name: String,
    pub army_list: String,
    /// "British army", or the stored id when it is no list.
    pub army_label: String,
    /// "Hessian" when the list may field allies (L-49), else empty.
    pub allies: String,
    pub c_in_c: String,
    pub legal: bool,
    pub errors: usize,
    pub warnings: usize,
    pub army_findings: Vec<FindingView>,
    pub findings: Vec<FindingView>,
    pub brigades: Vec<BrigadeView>,
    pub units: u32,
    pub break_point: u32,
    pub command_points: u32,
    pub saved_with: String,
    pub checked_with: String,
}

impl RosterView {
    /// The posts whose General has no name yet ("C-in-C", "Brigade 2"): a reminder beside the
    /// legality, not a finding, since the sheet asks for the Generals, not their names (M-103).
    pub fn unnamed_commanders(&self) -> Vec<String> {
        let mut posts = Vec::new();
        if self.c_in_c.is_empty() {
            posts.push("C-in-C".to_string());
        }
        for b in &self.brigades {
            if b.has_general && b.general.is_empty() {
                posts.push(format!("General of {}", b.title));
            }
        }
        posts
    }
    pub fn catalogue_changed(&self) -> bool {
        !self.saved_with.is_empty() && self.saved_with != self.checked_with
    }
}

/// Indices out of a path such as `brigades[1].units[3].bases`.
fn indices(path: &str) -> (Option<usize>, Option<usize>) {
    let grab = |key: &str| -> Option<usize> {
        let start = path.find(key)? + key.len();
        let end = path[start..].find(']')? + start;
        path[start..end].parse().ok()
    };
    (grab("brigades["), grab("units["))
}

fn finding_view(f: &Finding, doc: &RosterDoc) -> FindingView {
    let (b, u) = indices(&f.path);
    let brigade = b.and_then(|b| doc.brigades.get(b));
    let anchor = match (brigade, u) {
        (Some(brigade), Some(u)) => brigade
            .units
            .get(u)
            .and_then(|unit| unit.id.clone())
            .map(|id| format!("#u-{id}")),
        (Some(brigade), None) => brigade.id.clone().map(|id| format!("#b-{id}")),
        _ => None,
    }
    .unwrap_or_else(|| "#army".into());
    FindingView {
        severity: if f.severity == Severity::Error {
            "error"
        } else {
            "warning"
        },
        code: f.code.clone(),
        message: f.message.clone(),
        anchor,
    }
}

pub fn army_label(cat: &Catalogue, army_list: &str) -> String {
    match ArmyList::from_id(army_list) {
        Some(list) => format!("{} army", cat.list(list).name),
        None => army_list.to_string(),
    }
}

pub fn build(cat: &Catalogue, doc: &RosterDoc, report: &Report) -> RosterView {
    let army = ArmyList::from_id(&doc.army_list);
    let all: Vec<(Option<usize>, Option<usize>, FindingView)> = report
        .findings
        .iter()
        .map(|f| {
            let (b, u) = indices(&f.path);
            (b, u, finding_view(f, doc))
        })
        .collect();
    let of = |b: Option<usize>, u: Option<usize>| -> Vec<FindingView> {
        all.iter()
            .filter(|(fb, fu, _)| *fb == b && *fu == u)
            .map(|(_, _, f)| f.clone())
            .collect()
    };
    let brigades = doc
        .brigades
        .iter()
        .enumerate()
        .map(|(bi, brigade)| BrigadeView {
            id: brigade.id.clone().unwrap_or_default(),
            number: bi + 1,
            title: if brigade.name.trim().is_empty() {
                format!("Brigade {}", bi + 1)
            } else {
                brigade.name.clone()
            },
            name: brigade.name.clone(),
            has_general: brigade.general.is_some(),
            general: brigade
                .general
                .as_ref()
                .map(|g| g.name.clone())
                .unwrap_or_default(),
            findings: of(Some(bi), None),
            units: brigade
                .units
                .iter()
                .enumerate()
                .map(|(ui, unit)| {
                    let found = army.and_then(|a| resolve(cat, a, &unit.entry));
                    let profile = found.and_then(|(list, entry)| {
                        cat.profile(list, entry, unit.bases, unit.grenadiers_detached)
                    });
                    let entry = found.map(|(_, e)| e);
                    let number = |n: Option<u32>| n.map_or_else(|| "?".into(), |n| n.to_string());
                    UnitView {
                        id: unit.id.clone().unwrap_or_default(),
                        name: if unit.name.trim().is_empty() {
                            entry.map_or_else(|| unit.entry.clone(), |e| e.name.clone())
                        } else {
                            unit.name.clone()
                        },
                        entry: unit.entry.clone(),
                        described: match (&profile, entry) {
                            (Some(p), _) => p.describe(),
                            (None, Some(e)) => format!("{}, {} bases", e.name, unit.bases),
                            (None, None) => format!("{}, {} bases", unit.entry, unit.bases),
                        },
                        type_label: entry.map_or_else(String::new, |e| {
                            format!("{} {}", e.quality.label(), e.kind.label())
                        }),
                        weapon: entry
                            .map_or_else(String::new, |e| cat.weapon(e.weapon).name.clone()),
                        rules: entry.map_or_else(String::new, |e| {
                            e.rules
                                .iter()
                                .map(|r| r.label())
                                .collect::<Vec<_>>()
                                .join(", ")
                        }),
                        bases: unit.bases,
                        grenadiers_detached: unit.grenadiers_detached,
                        ally: match (found, army) {
                            (Some((list, _)), Some(army)) if list != army => {
                                cat.list(list).name.clone()
                            }
                            _ => String::new(),
                        },
                        worn: number(profile.as_ref().map(|p| p.size.worn)),
                        shaken: number(profile.as_ref().map(|p| p.size.shaken)),
                        auto_broken: number(profile.as_ref().map(|p| p.size.auto_broken)),
                        findings: of(Some(bi), Some(ui)),
                    }
                })
                .collect(),
        })
        .collect();
    let errors = report
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    RosterView {
        name: doc.name.clone(),
        army_list: doc.army_list.clone(),
        army_label: army_label(cat, &doc.army_list),
        allies: army
            .map(|a| {
                cat.list(a)
                    .allies
                    .iter()
                    .map(|l| cat.list(*l).name.clone())
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .unwrap_or_default(),
        c_in_c: doc.c_in_c.name.clone(),
        legal: report.legal,
        errors,
        warnings: report.findings.len() - errors,
        army_findings: of(None, None),
        findings: all.into_iter().map(|(_, _, f)| f).collect(),
        brigades,
        units: report.units,
        break_point: report.break_point,
        command_points: report.command_points_before_d3,
        saved_with: doc.catalogue_version.clone().unwrap_or_default(),
        checked_with: cat.version().to_string(),
    }
}

/// The plain-text export for forums and e-mail.
pub fn text(view: &RosterView) -> String {
    let mut out = String::new();
    out.push_str(&format!("{}\n", view.name));
    out.push_str(&format!("Liberty or Death! — {}", view.army_label));
    if !view.allies.is_empty() {
        out.push_str(&format!(" (may field {} allies)", view.allies));
    }
    out.push('\n');
    let c_in_c = if view.c_in_c.is_empty() {
        "(not named)"
    } else {
        &view.c_in_c
    };
    out.push_str(&format!("C-in-C: {c_in_c}\n"));
    for b in &view.brigades {
        let general = match (b.has_general, b.general.is_empty()) {
            (false, _) => "no General".to_string(),
            (true, true) => "General (not named)".to_string(),
            (true, false) => format!("General {}", b.general),
        };
        out.push_str(&format!("\n{} — {general}\n", b.title));
        for u in &b.units {
            let mut extras = vec![u.type_label.clone(), u.weapon.clone()];
            if !u.rules.is_empty() {
                extras.push(u.rules.clone());
            }
            if u.grenadiers_detached {
                extras.push("Grenadiers Detached".into());
            }
            if !u.ally.is_empty() {
                extras.push(format!("{} ally", u.ally));
            }
            extras.retain(|e| !e.is_empty());
            out.push_str(&format!(
                "  - {}: {}; {}\n",
                u.name,
                u.described,
                extras.join("; ")
            ));
        }
    }
    out.push_str(&format!(
        "\n{} unit{} in {} brigade{} · break point {} unit{} broken · Command Points {} + D3\n",
        view.units,
        if view.units == 1 { "" } else { "s" },
        view.brigades.len(),
        if view.brigades.len() == 1 { "" } else { "s" },
        view.break_point,
        if view.break_point == 1 { "" } else { "s" },
        view.command_points
    ));
    if view.legal {
        out.push_str("Legal under Liberty or Death!");
    } else {
        out.push_str(&format!("NOT LEGAL: {} error(s)", view.errors));
    }
    if view.warnings > 0 {
        out.push_str(&format!(", {} warning(s)", view.warnings));
    }
    out.push('\n');
    for f in &view.findings {
        out.push_str(&format!("  [{}] {} ({})\n", f.severity, f.message, f.code));
    }
    out.push_str(&format!(
        "Checked with catalogue {} by Muster.\n",
        view.checked_with
    ));
    out
}
