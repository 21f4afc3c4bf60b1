//! An All the King's Men roster prepared for pages and the plain text: the generals, each
//! general's command with its units in the game's words (rank and file, officer, ensign, break
//! point), the optional rules in use, and every finding beside what it concerns.

use crate::rules::system::{Finding, Severity};
use crate::rules::systems::atkm::catalogue::Catalogue;
use crate::rules::systems::atkm::roster::{RosterDoc, UnitDoc, UnitRolls};
use crate::rules::systems::atkm::types::{AdvancedRule, Gun, Period, Quality, Role};
use crate::rules::systems::atkm::validate::{profile, Report};

#[derive(Debug, Clone)]
pub struct FindingView {
    /// `error` or `warning`.
    pub severity: &'static str,
    pub code: String,
    pub message: String,
    /// Where on the page it belongs: `#g-<id>`, `#u-<id>` or `#army`.
    pub anchor: String,
}

#[derive(Debug, Clone)]
pub struct RuleView {
    pub id: String,
    pub label: String,
    pub on: bool,
}

#[derive(Debug, Clone)]
pub struct GeneralView {
    pub id: String,
    pub name: String,
    /// The name, or "General n" when none was given.
    pub title: String,
    pub rating: u32,
    /// "capable" for 2.
    pub rating_words: &'static str,
    /// `commanding` or `lieutenant` as stored.
    pub role: String,
    pub role_label: String,
    pub radius: u32,
    pub findings: Vec<FindingView>,
}

#[derive(Debug, Clone)]
pub struct UnitView {
    pub id: String,
    /// The player's name, or the type's when none was given.
    pub name: String,
    pub type_id: String,
    pub type_label: String,
    /// The stored general's id.
    pub general: String,
    pub rank_and_file: u32,
    /// "12 privates, officer and ensign".
    pub strength: String,
    pub officer: bool,
    pub ensign: bool,
    pub break_point: u32,
    /// The stored quality id, or empty.
    pub quality: String,
    /// "Elite (guard): defends one colour better", or empty without a quality.
    pub quality_label: String,
    /// The book's own word.
    pub label: String,
    /// The stored gun id, or empty.
    pub gun: String,
    pub gun_label: String,
    pub group: String,
    /// The dice the random force generator rolled for this unit, in words.
    pub random_roll: String,
    pub findings: Vec<FindingView>,
}

/// A general's command (or the units without one).
#[derive(Debug, Clone)]
pub struct CommandView {
    /// The general's id, or `none`.
    pub key: String,
    pub title: String,
    pub units: Vec<UnitView>,
}

#[derive(Debug, Clone)]
pub struct RosterView {
    pub name: String,
    pub period: String,
    pub period_label: String,
    pub scenario_label: String,
    pub rules: Vec<RuleView>,
    /// The optional rules in use, named, comma-separated.
    pub rules_in_use: String,
    /// How the force was rolled (seed), when it was.
    pub random_note: String,
    /// Every roll of the generator, in order, as the rules core wrote them.
    pub random_rolls: Vec<String>,
    pub legal: bool,
    pub errors: usize,
    pub warnings: usize,
    pub army_findings: Vec<FindingView>,
    pub findings: Vec<FindingView>,
    pub generals: Vec<GeneralView>,
    pub commands: Vec<CommandView>,
    pub unit_count: u32,
    /// The army collapses when this many units or fewer remain (K-16).
    pub collapse_at: u32,
    pub saved_with: String,
    pub checked_with: String,
}

impl RosterView {
    pub fn catalogue_changed(&self) -> bool {
        !self.saved_with.is_empty() && self.saved_with != self.checked_with
    }

    /// "collapses with 4 of 9 units left" (K-16).
    pub fn army_collapse_text(&self) -> String {
        format!(
            "collapses with {} of {} unit{} left",
            self.collapse_at,
            self.unit_count,
            if self.unit_count == 1 { "" } else { "s" }
        )
    }

    /// The role a new general takes: commanding for the first, lieutenant after.
    pub fn next_role(&self) -> &'static str {
        if self.generals.iter().any(|g| g.role == "commanding") {
            "lieutenant"
        } else {
            "commanding"
        }
    }

    /// The general a new unit goes to: the first (usually the Commanding General), else none.
    pub fn default_general(&self) -> String {
        self.generals
            .first()
            .map(|g| g.id.clone())
            .unwrap_or_default()
    }
}

/// A general's rating in words.
pub fn rating_words(rating: u32) -> &'static str {
    match rating {
        1 => "competent but slow",
        2 => "capable",
        3 => "excellent",
        _ => "not a rating",
    }
}

/// The roster as plain text, for forums and e-mail.
pub fn text(view: &RosterView) -> String {
    let mut out = String::new();
    out.push_str(&format!("{}\n", view.name));
    out.push_str(&format!("All the King's Men — {}", view.period_label));
    if !view.scenario_label.is_empty() {
        out.push_str(&format!(" — {}", view.scenario_label));
    }
    out.push('\n');
    out.push_str(&format!(
        "Optional rules: {}\n",
        if view.rules_in_use.is_empty() {
            "none"
        } else {
            &view.rules_in_use
        }
    ));
    if !view.random_note.is_empty() {
        out.push_str(&format!("{}\n", view.random_note));
    }
    out.push_str("\nGenerals\n");
    for g in &view.generals {
        out.push_str(&format!(
            "  - {}: {}, rating {} ({}), command radius {}\"\n",
            g.title, g.role_label, g.rating, g.rating_words, g.radius
        ));
    }
    for c in &view.commands {
        out.push_str(&format!("\n{}\n", c.title));
        for u in &c.units {
            let mut extras = vec![u.type_label.clone(), u.strength.clone()];
            extras.push(format!("collapses at {}", u.break_point));
            if !u.quality_label.is_empty() {
                extras.push(u.quality_label.clone());
            }
            if !u.gun_label.is_empty() {
                extras.push(u.gun_label.clone());
            }
            if !u.group.is_empty() {
                extras.push(u.group.clone());
            }
            out.push_str(&format!("  - {}: {}\n", u.name, extras.join("; ")));
            if !u.random_roll.is_empty() {
                out.push_str(&format!("      rolled: {}\n", u.random_roll));
            }
        }
    }
    out.push_str(&format!(
        "\n{} unit{} · army {}\n",
        view.unit_count,
        if view.unit_count == 1 { "" } else { "s" },
        view.army_collapse_text()
    ));
    if view.legal {
        out.push_str("Legal under All the King's Men");
    } else {
        out.push_str(&format!("NOT LEGAL: {} error(s)", view.errors));
    }
    if view.warnings > 0 {
        out.push_str(&format!(", {} warning(s)", view.warnings));
    }
    out.push('\n');
    for f in &view.findings {
        let kind = if f.severity == "error" {
            "Error"
        } else {
            "Warning"
        };
        out.push_str(&format!("  {kind}: {}\n", f.message));
    }
    out
}

/// The index after `key[` in a finding's path (`units[3].gun` → 3 for `units[`).
fn index_in(path: &str, key: &str) -> Option<usize> {
    let start = path.find(key)? + key.len();
    let end = path[start..].find(']')? + start;
    path[start..end].parse().ok()
}

fn finding_view(f: &Finding, doc: &RosterDoc) -> FindingView {
    let anchor = if let Some(u) = index_in(&f.path, "units[") {
        doc.units
            .get(u)
            .and_then(|u| u.id.clone())
            .map(|id| format!("#u-{id}"))
    } else if let Some(g) = index_in(&f.path, "generals[") {
        doc.generals
            .get(g)
            .and_then(|g| g.id.clone())
            .map(|id| format!("#g-{id}"))
    } else {
        None
    }
    .unwrap_or_else(|| "#army".into());
    FindingView {
        severity: match f.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        },
        code: f.code.clone(),
        message: f.message.clone(),
        anchor,
    }
}

/// "Elite (guard): defends one colour better".
pub fn quality_words(cat: &Catalogue, quality: Quality, label: Option<&str>) -> String {
    let effect = match cat.quality(quality).shift {
        s if s < 0 => ": defends one colour better",
        s if s > 0 => ": defends one colour worse",
        _ => "",
    };
    let name = &cat.quality(quality).name;
    match label.map(str::trim).filter(|l| !l.is_empty()) {
        Some(word) if !word.eq_ignore_ascii_case(name) => format!("{name} ({word}){effect}"),
        _ => format!("{name}{effect}"),
    }
}

/// What the random force generator rolled for a unit, in words.
pub fn rolls_in_words(cat: &Catalogue, r: &UnitRolls) -> String {
    use crate::rules::systems::atkm::catalogue::band;
    let tables = &cat.tables.random_tables;
    let sum = r.unit_type[0] + r.unit_type[1];
    let named = |table: &[crate::rules::systems::atkm::catalogue::Band], roll: u8| {
        band(table, roll).map_or_else(|| "?".to_string(), |b| b.result.replace('_', " "))
    };
    let mut parts = vec![format!(
        "unit type 2d6 {}+{} = {sum} → {}",
        r.unit_type[0],
        r.unit_type[1],
        named(&tables.unit_type, sum)
    )];
    if let Some(k) = r.artillery_kind {
        parts.push(format!("d6 {k} → {}", named(&tables.artillery_kind, k)));
    }
    if let Some([a, b]) = r.artillery_size {
        parts.push(format!(
            "gun 2d6 {a}+{b} = {} → {}",
            a + b,
            named(&tables.artillery_size, a + b)
        ));
    }
    if let Some(q) = r.quality {
        parts.push(format!(
            "quality d6 {q} → {}",
            named(&tables.unit_quality, q)
        ));
    }
    parts.join("; ")
}

fn unit_view(
    cat: &Catalogue,
    doc: &RosterDoc,
    u: &UnitDoc,
    findings: Vec<FindingView>,
) -> UnitView {
    let id = u.id.clone().unwrap_or_default();
    let known = profile(cat, u);
    let row = known.as_ref().map(|p| cat.unit(p.unit_type));
    let type_label = row.map_or_else(
        || format!("{} (not a unit type)", u.unit_type),
        |r| r.name.clone(),
    );
    let men = row.map_or("rank and file", |r| r.men.as_str());
    let rank_and_file = known
        .as_ref()
        .map_or(u.rank_and_file.unwrap_or(0), |p| p.rank_and_file);
    let break_point = known
        .as_ref()
        .map_or(u.break_point.unwrap_or(0), |p| p.break_point);
    let command = match (u.officer, u.ensign) {
        (true, true) => ", officer and ensign",
        (true, false) => ", officer, no ensign",
        (false, true) => ", ensign, no officer",
        (false, false) => ", no officer or ensign",
    };
    let gun_piece = known
        .as_ref()
        .and_then(|p| p.gun)
        .map_or(String::new(), |_| " and a cannon".to_string());
    let uses_quality = doc.uses(AdvancedRule::EliteMilitia) || u.quality.is_some();
    let quality_label = match u.quality.as_deref() {
        Some(q) => match Quality::from_id(q) {
            Some(q) => quality_words(cat, q, u.label.as_deref()),
            None => format!("{q} (not a quality)"),
        },
        None if uses_quality => quality_words(cat, Quality::Regular, u.label.as_deref()),
        None => String::new(),
    };
    let gun_label = match u.gun.as_deref() {
        Some(g) => {
            Gun::from_id(g).map_or_else(|| format!("{g} (not a gun)"), |g| cat.gun(g).name.clone())
        }
        None => String::new(),
    };
    UnitView {
        name: if u.name.trim().is_empty() {
            type_label.clone()
        } else {
            u.name.clone()
        },
        id,
        type_id: u.unit_type.clone(),
        type_label,
        general: u.general.clone().unwrap_or_default(),
        rank_and_file,
        strength: format!("{rank_and_file} {men}{gun_piece}{command}"),
        officer: u.officer,
        ensign: u.ensign,
        break_point,
        quality: u.quality.clone().unwrap_or_default(),
        quality_label,
        label: u.label.clone().unwrap_or_default(),
        gun: u.gun.clone().unwrap_or_default(),
        gun_label,
        group: u.group.clone().unwrap_or_default(),
        random_roll: u
            .random_roll
            .as_ref()
            .map(|r| rolls_in_words(cat, r))
            .unwrap_or_default(),
        findings,
    }
}

/// The roster as the pages show it, with the check's findings placed.
pub fn build(cat: &Catalogue, doc: &RosterDoc, report: &Report) -> RosterView {
    let findings: Vec<FindingView> = report
        .findings
        .iter()
        .map(|f| finding_view(f, doc))
        .collect();
    let at = |anchor: String| -> Vec<FindingView> {
        findings
            .iter()
            .filter(|f| f.anchor == anchor)
            .cloned()
            .collect()
    };
    let generals: Vec<GeneralView> = doc
        .generals
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let id = g.id.clone().unwrap_or_default();
            let rating = u32::try_from(g.rating).unwrap_or(0);
            GeneralView {
                title: if g.name.trim().is_empty() {
                    format!("General {}", i + 1)
                } else {
                    g.name.clone()
                },
                name: g.name.clone(),
                rating,
                rating_words: rating_words(rating),
                role: g.role.clone(),
                role_label: Role::from_id(&g.role).map_or_else(
                    || format!("{} (not a role)", g.role),
                    |r| r.label().to_string(),
                ),
                radius: g
                    .command_radius
                    .unwrap_or(cat.tables.command.default_radius),
                findings: at(format!("#g-{id}")),
                id,
            }
        })
        .collect();
    let mut commands: Vec<CommandView> = generals
        .iter()
        .map(|g| CommandView {
            key: g.id.clone(),
            title: format!("{}'s command ({})", g.title, g.role_label),
            units: Vec::new(),
        })
        .collect();
    let mut unattached = CommandView {
        key: "none".into(),
        title: "Units without a general".into(),
        units: Vec::new(),
    };
    for u in &doc.units {
        let id = u.id.clone().unwrap_or_default();
        let view = unit_view(cat, doc, u, at(format!("#u-{id}")));
        match commands
            .iter_mut()
            .find(|c| !c.key.is_empty() && Some(&c.key) == u.general.as_ref())
        {
            Some(c) => c.units.push(view),
            None => unattached.units.push(view),
        }
    }
    if !unattached.units.is_empty() {
        commands.push(unattached);
    }
    let rules: Vec<RuleView> = cat
        .tables
        .advanced_rules
        .iter()
        .map(|r| RuleView {
            id: r.id.id().to_string(),
            label: r.name.clone(),
            on: doc.advanced_rules.iter().any(|x| x == r.id.id()),
        })
        .collect();
    let mut in_use: Vec<String> = rules
        .iter()
        .filter(|r| r.on)
        .map(|r| r.label.clone())
        .collect();
    in_use.extend(
        doc.advanced_rules
            .iter()
            .filter(|x| AdvancedRule::from_id(x).is_none())
            .map(|x| format!("{x} (not a rule Muster knows)")),
    );
    let errors = findings.iter().filter(|f| f.severity == "error").count();
    RosterView {
        name: if doc.name.trim().is_empty() {
            "Unnamed army".into()
        } else {
            doc.name.clone()
        },
        period: doc.period.clone(),
        period_label: Period::from_id(&doc.period)
            .map_or_else(|| doc.period.clone(), |p| p.label().to_string()),
        scenario_label: doc
            .scenario
            .as_deref()
            .map(|s| {
                cat.scenario(s)
                    .map_or_else(|| s.to_string(), |s| s.name.clone())
            })
            .unwrap_or_default(),
        rules,
        rules_in_use: in_use.join(", "),
        random_note: doc
            .random
            .as_ref()
            .map(|r| format!("Rolled on the random force table with seed {}.", r.seed))
            .unwrap_or_default(),
        random_rolls: doc
            .random
            .as_ref()
            .map(|r| r.rolls.clone())
            .unwrap_or_default(),
        legal: report.legal,
        errors,
        warnings: findings.len() - errors,
        army_findings: at("#army".into()),
        findings,
        generals,
        commands,
        unit_count: report.units,
        collapse_at: report.army_breaks_at,
        saved_with: doc.catalogue_version.clone().unwrap_or_default(),
        checked_with: cat.version().to_string(),
    }
}
