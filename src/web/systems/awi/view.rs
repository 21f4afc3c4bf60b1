//! An AWI order of battle prepared for pages and the plain text: each unit in the game's words
//! ("6 bases of trained infantry (18 figures, 360 men)"), findings beside what they concern,
//! and the derived figures (bases, men and guns per brigade and army, the army's break
//! threshold, W-31) shown but not judged: the rules set no limits (W-36).

use crate::rules::system::{Finding, Severity};
use crate::rules::systems::awi::catalogue::Catalogue;
use crate::rules::systems::awi::roster::{whole, RosterDoc};
use crate::rules::systems::awi::types::{Grade, GunClass, TroopType};
use crate::rules::systems::awi::validate::{self, Report};

#[derive(Debug, Clone)]
pub struct FindingView {
    /// `error`, `warning` or `info`.
    pub severity: &'static str,
    pub code: String,
    pub message: String,
    /// Where on the page it belongs: `#b-<id>`, `#u-<id>` or `#army`.
    pub anchor: String,
}

impl FindingView {
    /// The word before the message.
    pub fn kind(&self) -> &'static str {
        match self.severity {
            "error" => "Error",
            "warning" => "Warning",
            _ => "Note",
        }
    }
}

#[derive(Debug, Clone)]
pub struct UnitView {
    pub id: String,
    /// The player's name, or the type's when none was given.
    pub name: String,
    /// The stored values, for the editor's fields (`""` when absent).
    pub kind: String,
    pub grade: String,
    pub bases: String,
    pub arms: String,
    pub gun: String,
    pub gunners: String,
    /// "6 bases of trained infantry (18 figures, 360 men)"; what was written when it does not
    /// read as a unit.
    pub described: String,
    /// "Trained infantry, close order".
    pub type_label: String,
    /// "Musket (close 0–4", long 4–8")", "Light gun", "—".
    pub arms_label: String,
    /// Bases in action at or below which the unit is at half strength (W-3); `""` unread.
    pub half_at: String,
    pub findings: Vec<FindingView>,
}

#[derive(Debug, Clone)]
pub struct BrigadeView {
    pub id: String,
    pub number: usize,
    /// The name, or "Brigade n".
    pub title: String,
    pub name: String,
    pub has_brigadier: bool,
    pub brigadier: String,
    /// The rating as the editor's select holds it: `"1"`…`"10"`, or `""` to be rolled.
    pub ability: String,
    /// "ability 6", "ability to be rolled (D6+2)" or what was written.
    pub ability_label: String,
    pub bases: u32,
    pub men: u32,
    pub guns: u32,
    pub findings: Vec<FindingView>,
    pub units: Vec<UnitView>,
}

#[derive(Debug, Clone)]
pub struct RosterView {
    pub name: String,
    pub side: String,
    pub has_cinc: bool,
    pub cinc: String,
    pub legal: bool,
    pub errors: usize,
    pub warnings: usize,
    pub notes: usize,
    pub army_findings: Vec<FindingView>,
    pub findings: Vec<FindingView>,
    pub brigades: Vec<BrigadeView>,
    /// Units, guns not counted (W-31 counts these).
    pub army_units: u32,
    pub guns: u32,
    pub bases: u32,
    pub men: u32,
    pub break_threshold: u32,
    pub saved_with: String,
    pub checked_with: String,
}

impl RosterView {
    pub fn catalogue_changed(&self) -> bool {
        !self.saved_with.is_empty() && self.saved_with != self.checked_with
    }

    /// "British" or "no side named".
    pub fn side_label(&self) -> String {
        if self.side.is_empty() {
            "no side named".into()
        } else {
            self.side.clone()
        }
    }
}

/// Indices out of a path such as `brigades[1].units[3].bases`.
pub fn indices(path: &str) -> (Option<usize>, Option<usize>) {
    let grab = |key: &str| -> Option<usize> {
        let start = path.find(key)? + key.len();
        let end = path[start..].find(']')? + start;
        path[start..end].parse().ok()
    };
    (grab("brigades["), grab("units["))
}

pub fn severity_word(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        _ => "info",
    }
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
        severity: severity_word(f.severity),
        code: f.code.clone(),
        message: f.message.clone(),
        anchor,
    }
}

/// A value as written in the document, for a form or a description.
fn written(v: Option<&serde_json::Value>) -> String {
    match v {
        None | Some(serde_json::Value::Null) => String::new(),
        Some(v) => whole(Some(v)).map_or_else(|| v.to_string(), |n| n.to_string()),
    }
}

/// The range bands of a weapon or gun in inches: "close 0–4", long 4–8"".
fn bands_label(bands: &[crate::rules::systems::awi::catalogue::Band]) -> String {
    let mut from = 0;
    let mut parts = Vec::new();
    for b in bands {
        parts.push(format!(
            "{} {from}–{}\"",
            b.band.label().to_lowercase(),
            b.to
        ));
        from = b.to;
    }
    parts.join(", ")
}

/// "Musket: close 0–4", long 4–8"".
pub fn arms_label(cat: &Catalogue, spec: &crate::rules::systems::awi::roster::UnitSpec) -> String {
    if let Some(g) = spec.gun {
        return format!("{}: {}", g.label(), bands_label(&cat.gun(g).bands));
    }
    match spec.arms {
        Some(a) => format!("{}: {}", a.label(), bands_label(&cat.weapon(a).bands)),
        None => "No firearms".into(),
    }
}

pub fn type_label(kind: TroopType, grade: Grade) -> String {
    let order = match kind {
        TroopType::Artillery => "",
        k if k.close_order() => ", close order",
        _ => ", open order",
    };
    format!("{} {}{order}", grade.label(), kind.id())
}

pub fn build(cat: &Catalogue, doc: &RosterDoc, report: &Report) -> RosterView {
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
        .map(|(bi, brigade)| {
            let totals = report.brigades.get(bi);
            let ability = brigade.brigadier.as_ref().and_then(|g| g.ability.as_ref());
            let ability_value = brigade.brigadier.as_ref().and_then(|g| g.ability_value());
            BrigadeView {
                id: brigade.id.clone().unwrap_or_default(),
                number: bi + 1,
                title: if brigade.name.trim().is_empty() {
                    format!("Brigade {}", bi + 1)
                } else {
                    brigade.name.clone()
                },
                name: brigade.name.clone(),
                has_brigadier: brigade.brigadier.is_some(),
                brigadier: brigade
                    .brigadier
                    .as_ref()
                    .map(|g| g.name.clone())
                    .unwrap_or_default(),
                ability: ability_value.map(|a| a.to_string()).unwrap_or_default(),
                ability_label: match (ability_value, written(ability)) {
                    (Some(a), _) => format!("ability {a}"),
                    (None, w) if w.is_empty() => format!(
                        "ability to be rolled ({})",
                        cat.command.ability_roll.label()
                    ),
                    (None, w) => format!("ability {w} (not a rating)"),
                },
                bases: totals.map_or(0, |t| t.bases),
                men: totals.map_or(0, |t| t.men),
                guns: totals.map_or(0, |t| t.guns),
                findings: of(Some(bi), None),
                units: brigade
                    .units
                    .iter()
                    .enumerate()
                    .map(|(ui, unit)| {
                        let path = format!("brigades[{bi}].units[{ui}]");
                        let derived = report.units.iter().find(|v| v.path == path);
                        let spec = unit.spec();
                        let kind = unit.troop_type.clone().unwrap_or_default();
                        UnitView {
                            id: unit.id.clone().unwrap_or_default(),
                            name: if unit.name.trim().is_empty() {
                                unit.troop()
                                    .map_or_else(|| "Unit".to_string(), |t| t.label().to_string())
                            } else {
                                unit.name.clone()
                            },
                            grade: unit.grade.clone().unwrap_or_default(),
                            bases: written(unit.bases.as_ref()),
                            arms: unit.arms.clone().unwrap_or_default(),
                            gun: unit.gun.clone().unwrap_or_default(),
                            gunners: written(unit.gunners.as_ref()),
                            described: match derived {
                                Some(d) if !d.describe.is_empty() => d.describe.clone(),
                                _ => {
                                    let bases = written(unit.bases.as_ref());
                                    format!(
                                        "{} {}{}",
                                        unit.grade.as_deref().unwrap_or("(no grade)"),
                                        if kind.is_empty() { "(no type)" } else { &kind },
                                        if bases.is_empty() {
                                            String::new()
                                        } else {
                                            format!(", {bases} bases")
                                        }
                                    )
                                }
                            },
                            type_label: spec
                                .map_or_else(String::new, |s| type_label(s.troop_type, s.grade)),
                            arms_label: spec.map_or_else(String::new, |s| arms_label(cat, &s)),
                            half_at: match (spec, derived) {
                                (Some(_), Some(d)) => d.half_strength_at.to_string(),
                                _ => String::new(),
                            },
                            kind,
                            findings: of(Some(bi), Some(ui)),
                        }
                    })
                    .collect(),
            }
        })
        .collect();
    let count = |s: Severity| report.findings.iter().filter(|f| f.severity == s).count();
    let errors = count(Severity::Error);
    let warnings = count(Severity::Warning);
    RosterView {
        name: doc.name.clone(),
        side: doc.side.clone().unwrap_or_default(),
        has_cinc: doc.cinc.is_some(),
        cinc: doc
            .cinc
            .as_ref()
            .map(|c| c.name.clone())
            .unwrap_or_default(),
        legal: report.legal,
        errors,
        warnings,
        notes: report.findings.len() - errors - warnings,
        army_findings: of(None, None),
        findings: all.into_iter().map(|(_, _, f)| f).collect(),
        brigades,
        army_units: report.army_units,
        guns: report.guns,
        bases: report.bases,
        men: report.men,
        break_threshold: report.break_threshold,
        saved_with: doc.catalogue_version.clone().unwrap_or_default(),
        checked_with: cat.version().to_string(),
    }
}

/// The roster checked and prepared.
pub fn of(cat: &Catalogue, doc: &RosterDoc) -> RosterView {
    build(cat, doc, &validate::validate(cat, doc))
}

fn plural(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The plain-text export for forums and e-mail.
pub fn text(view: &RosterView) -> String {
    let mut out = String::new();
    out.push_str(&format!("{}\n", view.name));
    out.push_str(&format!(
        "AWI wargames rules — order of battle, {}\n",
        view.side_label()
    ));
    let cinc = match (view.has_cinc, view.cinc.is_empty()) {
        (false, _) => "none".to_string(),
        (true, true) => "(not named)".to_string(),
        (true, false) => view.cinc.clone(),
    };
    out.push_str(&format!("CinC: {cinc}\n"));
    for b in &view.brigades {
        let brigadier = match (b.has_brigadier, b.brigadier.is_empty()) {
            (false, _) => "no brigadier".to_string(),
            (true, true) => format!("brigadier (not named), {}", b.ability_label),
            (true, false) => format!("brigadier {}, {}", b.brigadier, b.ability_label),
        };
        out.push_str(&format!("\n{} — {brigadier}\n", b.title));
        for u in &b.units {
            let mut extras = vec![u.type_label.clone(), u.arms_label.clone()];
            extras.retain(|e| !e.is_empty());
            out.push_str(&format!("  - {}: {}", u.name, u.described));
            if !extras.is_empty() {
                out.push_str(&format!("; {}", extras.join("; ")));
            }
            out.push('\n');
        }
    }
    out.push_str(&format!(
        "\n{} and {} in {} · {} · {} men · the army breaks with {} routed, destroyed or gone (Muster's rule W-31)\n",
        plural(view.army_units, "unit", "units"),
        plural(view.guns, "gun", "guns"),
        plural(view.brigades.len() as u64, "brigade", "brigades"),
        plural(view.bases, "base", "bases"),
        view.men,
        plural(view.break_threshold, "unit", "units"),
    ));
    if view.legal {
        out.push_str("A complete order of battle under the AWI wargames rules");
    } else {
        out.push_str(&format!(
            "NOT COMPLETE: {}",
            plural(view.errors as u64, "error", "errors")
        ));
    }
    if view.warnings > 0 {
        out.push_str(&format!(
            ", {}",
            plural(view.warnings as u64, "warning", "warnings")
        ));
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

/// The grades in their order, for forms.
pub fn grades() -> &'static [Grade] {
    Grade::ALL
}

/// The gun classes, for forms.
pub fn gun_classes() -> &'static [GunClass] {
    GunClass::ALL
}
