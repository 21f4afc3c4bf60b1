//! The *All the King's Men* roster check (spec 2.4): every finding at once, in plain words,
//! never a panic. Illegal = impossible under the rules and options the roster declares; a
//! warning = legal only because an optional rule is on, or not what the book advises. There are
//! no points and no force-composition rules.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::rules::system::{Finding, RosterSummary, Severity};

use super::catalogue::Catalogue;
use super::roster::{RosterDoc, UnitDoc};
use super::types::{AdvancedRule, Colour, Gun, Period, Quality, Role, UnitType};

/// A unit as the rules read it: every value resolved against the catalogue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UnitProfile {
    pub unit_type: UnitType,
    pub rank_and_file: u32,
    pub break_point: u32,
    pub quality: Quality,
    /// Artillery: the gun (medium when the roster names none).
    pub gun: Option<Gun>,
    pub officer: bool,
    pub ensign: bool,
}

/// The standard break point of a unit of `t` with `rank_and_file` (Indians: half, rounded
/// down).
pub fn standard_break_point(cat: &Catalogue, t: UnitType, rank_and_file: u32) -> u32 {
    if t == UnitType::WoodlandIndians {
        rank_and_file / 2
    } else {
        cat.unit(t).break_point
    }
}

/// Reads one unit; `None` when its type is unknown.
pub fn profile(cat: &Catalogue, unit: &UnitDoc) -> Option<UnitProfile> {
    let t = UnitType::from_id(&unit.unit_type)?;
    let rank_and_file = unit.rank_and_file.unwrap_or(cat.unit(t).rank_and_file);
    let break_point = unit
        .break_point
        .unwrap_or_else(|| standard_break_point(cat, t, rank_and_file));
    let quality = unit
        .quality
        .as_deref()
        .and_then(Quality::from_id)
        .unwrap_or(Quality::Regular);
    let gun = if t.is_artillery() {
        Some(
            unit.gun
                .as_deref()
                .and_then(Gun::from_id)
                .unwrap_or(Gun::Medium),
        )
    } else {
        None
    };
    Some(UnitProfile {
        unit_type: t,
        rank_and_file,
        break_point,
        quality,
        gun,
        officer: unit.officer,
        ensign: unit.ensign,
    })
}

/// The check's whole answer: findings and what is derived, shown but not judged.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub legal: bool,
    pub findings: Vec<Finding>,
    /// Units at the start (those arriving later not counted).
    pub units: u32,
    pub reinforcements: u32,
    pub generals: u32,
    /// The army collapses when this many units or fewer remain (K-16: half the start, rounded
    /// down).
    pub army_breaks_at: u32,
    /// The Commanding General's rating: the dice he rolls for command points.
    pub command_dice: u32,
}

fn finding(code: &str, severity: Severity, path: String, message: String) -> Finding {
    Finding {
        code: code.to_string(),
        severity,
        path,
        message,
    }
}

/// Checks a roster and returns every finding.
pub fn validate(cat: &Catalogue, doc: &RosterDoc) -> Report {
    let mut out = Vec::new();
    macro_rules! push {
        ($code:expr, $severity:expr, $path:expr, $message:expr $(,)?) => {
            out.push(finding($code, $severity, $path, $message))
        };
    }
    if Period::from_id(&doc.period).is_none() {
        push!(
            "unknown_period",
            Severity::Error,
            "period".into(),
            format!(
                "'{}' is not a period Muster knows; choose sywar, fiw, awi, napoleonic, war_of_1812, acw or generic.",
                doc.period
            ),
        );
    }
    if let Some(s) = &doc.scenario {
        if cat.scenario(s).is_none() {
            push!(
                "unknown_scenario",
                Severity::Warning,
                "scenario".into(),
                format!("'{s}' is not one of the sample battles; the army is checked on its own."),
            );
        }
    }
    let mut seen_rules = BTreeSet::new();
    for (i, r) in doc.advanced_rules.iter().enumerate() {
        if AdvancedRule::from_id(r).is_none() {
            push!(
                "unknown_advanced_rule",
                Severity::Error,
                format!("advanced_rules[{i}]"),
                format!("'{r}' is not one of the book's optional rules."),
            );
        } else if !seen_rules.insert(r.as_str()) {
            push!(
                "duplicate_advanced_rule",
                Severity::Warning,
                format!("advanced_rules[{i}]"),
                format!("'{r}' is listed twice."),
            );
        }
    }
    let uses = |r: AdvancedRule| doc.uses(r);

    // Generals.
    let mut general_ids: BTreeMap<&str, usize> = BTreeMap::new();
    let commanding: Vec<usize> = doc
        .generals
        .iter()
        .enumerate()
        .filter(|(_, g)| g.role == Role::Commanding.id())
        .map(|(i, _)| i)
        .collect();
    if commanding.len() != 1 {
        push!(
            "commanding_general_count",
            Severity::Error,
            "generals".into(),
            format!(
                "An army has exactly one Commanding General; this one has {}.",
                commanding.len()
            ),
        );
    }
    let cg_rating = commanding
        .first()
        .and_then(|i| doc.generals.get(*i))
        .map_or(0, |g| g.rating);
    for (i, g) in doc.generals.iter().enumerate() {
        let path = format!("generals[{i}]");
        let who = if g.name.is_empty() {
            format!("General {}", i + 1)
        } else {
            g.name.clone()
        };
        if let Some(id) = g.id.as_deref().filter(|s| !s.is_empty()) {
            if general_ids.insert(id, i).is_some() {
                push!(
                    "duplicate_general_id",
                    Severity::Error,
                    format!("{path}.id"),
                    format!(
                        "Two generals share the id '{id}'; units could not say whose they are."
                    ),
                );
            }
        }
        if !(1..=3).contains(&g.rating) {
            push!(
                "general_rating_out_of_range",
                Severity::Error,
                format!("{path}.rating"),
                format!("{who} is rated {}; a rating is 1, 2 or 3.", g.rating),
            );
        }
        if Role::from_id(&g.role).is_none() {
            push!(
                "unknown_role",
                Severity::Error,
                format!("{path}.role"),
                format!(
                    "{who}'s role '{}' is neither commanding nor lieutenant.",
                    g.role
                ),
            );
        }
        if g.role == Role::Lieutenant.id() && g.rating > cg_rating && cg_rating > 0 {
            push!(
                "lt_general_outranks_cg",
                Severity::Warning,
                format!("{path}.rating"),
                format!(
                    "{who} is rated higher than the Commanding General; the book allows it where history had it so."
                ),
            );
        }
        if let Some(radius) = g.command_radius {
            if radius != cat.tables.command.default_radius && !uses(AdvancedRule::CommandRadius) {
                push!(
                    "rule_not_enabled",
                    Severity::Error,
                    format!("{path}.command_radius"),
                    format!(
                        "{who}'s command radius of {radius}\" needs the optional rule 'command radius'; the standard is {}\".",
                        cat.tables.command.default_radius
                    ),
                );
            }
            if radius < cat.tables.command.smallest_advised_radius {
                push!(
                    "command_radius_small",
                    Severity::Warning,
                    format!("{path}.command_radius"),
                    format!(
                        "{who}'s command radius of {radius}\" is below the {}\" the book advises.",
                        cat.tables.command.smallest_advised_radius
                    ),
                );
            }
        }
        let has_units =
            g.id.as_deref()
                .is_some_and(|id| doc.units.iter().any(|u| u.general.as_deref() == Some(id)));
        if !has_units {
            push!(
                "general_without_units",
                Severity::Warning,
                path.clone(),
                format!(
                    "{who} has no personal command; he can still pay command points to activate his comrades' units."
                ),
            );
        }
    }

    if doc.units.is_empty() {
        push!(
            "no_units",
            Severity::Error,
            "units".into(),
            "An army needs at least one unit.".into(),
        );
    }
    let mut starting = 0u32;
    let mut later = 0u32;
    for (i, u) in doc.units.iter().enumerate() {
        let path = format!("units[{i}]");
        let who = if u.name.is_empty() {
            format!("Unit {}", i + 1)
        } else {
            u.name.clone()
        };
        match u.arrives.as_str() {
            "start" => starting += 1,
            "reinforcement" => later += 1,
            other => push!(
                "unknown_arrival",
                Severity::Error,
                format!("{path}.arrives"),
                format!("{who}: '{other}' is neither start nor reinforcement."),
            ),
        }
        match u.general.as_deref() {
            Some(g) if general_ids.contains_key(g) => {}
            Some(g) => push!(
                "unit_without_general",
                Severity::Error,
                format!("{path}.general"),
                format!("{who} belongs to general '{g}', who is not in this army."),
            ),
            None => push!(
                "unit_without_general",
                Severity::Error,
                format!("{path}.general"),
                format!(
                    "{who} belongs to no general; every unit is in one general's personal command."
                ),
            ),
        }
        if (!u.officer || !u.ensign) && doc.carried_losses {
            // K-51: lost in an earlier battle of the campaign; K-10 says how it starts a turn.
            let (missing, starts) = match (u.officer, u.ensign) {
                (false, false) => ("officer and ensign", "red"),
                (false, true) => ("officer", "red"),
                _ => ("ensign", "yellow"),
            };
            push!(
                "leader_lost_earlier",
                Severity::Warning,
                path.clone(),
                format!(
                    "{who} fights without its {missing}, lost in an earlier battle: it starts every turn {starts} (K-10)."
                ),
            );
        } else if !u.officer || !u.ensign {
            push!(
                "missing_officer_or_ensign",
                Severity::Error,
                path.clone(),
                format!("{who} must start the battle with its officer and its ensign."),
            );
        }
        let Some(t) = UnitType::from_id(&u.unit_type) else {
            push!(
                "unknown_type",
                Severity::Error,
                format!("{path}.type"),
                format!(
                    "'{}' is not a unit type; choose infantry, skirmishers, cavalry, foot_artillery, horse_artillery, skirmishing_cavalry or woodland_indians.",
                    u.unit_type
                ),
            );
            continue;
        };
        let row = cat.unit(t);
        if let Some(rule) = row.rule {
            if !uses(rule) {
                push!(
                    "rule_not_enabled",
                    Severity::Error,
                    format!("{path}.type"),
                    format!("{} need the optional rule '{}'.", row.name, rule.label()),
                );
            }
        }
        // Size and break point.
        let rf = u.rank_and_file.unwrap_or(row.rank_and_file);
        if t == UnitType::WoodlandIndians {
            let ind = &cat.tables.woodland_indians_size;
            if !(ind.min..=ind.max).contains(&rf) {
                // K-51: a war party a campaign's battles have thinned is still one.
                if uses(AdvancedRule::UnitSizes) || (doc.carried_losses && rf < ind.min) {
                    push!(
                        "non_standard_size",
                        Severity::Warning,
                        format!("{path}.rank_and_file"),
                        format!(
                            "{who} is a war party of {rf}; the rules roll {} to {} warriors.",
                            ind.min, ind.max
                        ),
                    );
                } else {
                    push!(
                        "indian_size_out_of_range",
                        Severity::Error,
                        format!("{path}.rank_and_file"),
                        format!(
                            "{who} has {rf} warriors; a war party has {} to {}.",
                            ind.min, ind.max
                        ),
                    );
                }
            }
        } else if rf != row.rank_and_file {
            if uses(AdvancedRule::UnitSizes) || (doc.carried_losses && rf < row.rank_and_file) {
                push!(
                    "non_standard_size",
                    Severity::Warning,
                    format!("{path}.rank_and_file"),
                    format!(
                        "{who} has {rf} {}; the standard is {}.",
                        row.men, row.rank_and_file
                    ),
                );
            } else {
                push!(
                    "size_not_standard",
                    Severity::Error,
                    format!("{path}.rank_and_file"),
                    format!(
                        "{who} has {rf} {}; without the optional rule 'unit sizes' a unit of its type has {}.",
                        row.men, row.rank_and_file
                    ),
                );
            }
        }
        let standard_bp = standard_break_point(cat, t, rf);
        let bp = u.break_point.unwrap_or(standard_bp);
        if bp != standard_bp {
            // K-51: a campaign's unit keeps the break point it enlisted with as it shrinks.
            if uses(AdvancedRule::BreakPoints) || doc.carried_losses {
                push!(
                    "non_standard_break_point",
                    Severity::Warning,
                    format!("{path}.break_point"),
                    format!("{who} collapses at {bp}; the standard is {standard_bp}."),
                );
            } else {
                push!(
                    "break_point_not_standard",
                    Severity::Error,
                    format!("{path}.break_point"),
                    format!(
                        "{who} collapses at {bp}; without the optional rule 'break points' it collapses at {standard_bp}."
                    ),
                );
            }
        }
        if bp >= rf {
            push!(
                "break_point_not_below_size",
                Severity::Error,
                format!("{path}.break_point"),
                format!(
                    "{who} would collapse at once: its break point {bp} is not below its {rf} {} (K-27).",
                    row.men
                ),
            );
        }
        // Quality.
        if let Some(q) = u.quality.as_deref() {
            match Quality::from_id(q) {
                None => push!(
                    "unknown_quality",
                    Severity::Error,
                    format!("{path}.quality"),
                    format!("'{q}' is not a quality; choose elite, regular or militia."),
                ),
                Some(Quality::Regular) => {}
                Some(_) if !uses(AdvancedRule::EliteMilitia) => push!(
                    "rule_not_enabled",
                    Severity::Error,
                    format!("{path}.quality"),
                    format!(
                        "{who} is {q}: that needs the optional rule 'elite and militia units'."
                    ),
                ),
                Some(_) => {}
            }
        }
        // Gun.
        if let Some(g) = u.gun.as_deref() {
            match Gun::from_id(g) {
                None => push!(
                    "unknown_gun",
                    Severity::Error,
                    format!("{path}.gun"),
                    format!("'{g}' is not a gun; choose light, medium, heavy or rockets."),
                ),
                Some(_) if !t.is_artillery() => push!(
                    "gun_on_non_artillery",
                    Severity::Error,
                    format!("{path}.gun"),
                    format!("{who} is not artillery and has no gun."),
                ),
                Some(Gun::Rockets) => {
                    push!(
                        "scenario_special_rule",
                        Severity::Warning,
                        format!("{path}.gun"),
                        format!("{who} fires rockets, a rule of the North Point battle (K-21)."),
                    );
                    if t == UnitType::HorseArtillery {
                        push!(
                            "heavy_gun_on_horse_artillery",
                            Severity::Error,
                            format!("{path}.gun"),
                            format!("{who}: rockets fire as heavy guns, which horse artillery never has."),
                        );
                    }
                }
                Some(Gun::Heavy) if t == UnitType::HorseArtillery => push!(
                    "heavy_gun_on_horse_artillery",
                    Severity::Error,
                    format!("{path}.gun"),
                    format!("{who}: horse artillery never has a heavy gun."),
                ),
                Some(Gun::Medium) => {}
                Some(_) if !uses(AdvancedRule::ArtillerySizes) => push!(
                    "rule_not_enabled",
                    Severity::Error,
                    format!("{path}.gun"),
                    format!("{who} has a {g} gun: that needs the optional rule 'artillery sizes'."),
                ),
                Some(_) => {}
            }
        }
        // Variations.
        let v = &u.variations;
        let vpath = format!("{path}.variations");
        let mut need = |rule: AdvancedRule, what: &str| {
            if !uses(rule) {
                out.push(finding(
                    "rule_not_enabled",
                    Severity::Error,
                    vpath.clone(),
                    format!("{who}'s {what} needs the optional rule '{}'.", rule.label()),
                ));
            }
        };
        for shift in [v.attack_shift, v.defence_shift].into_iter().flatten() {
            if shift != 0 {
                need(AdvancedRule::RollModifiers, "colour modifier");
            }
        }
        if v.reroll.is_some() {
            need(AdvancedRule::Rerolls, "re-roll");
        }
        if v.extra_counter.is_some() {
            need(AdvancedRule::ExtraResolveCounters, "extra resolve counter");
        }
        if v.repeating_rifles {
            need(AdvancedRule::RepeatingRifles, "repeating rifles");
        }
        if v.marksmen {
            need(AdvancedRule::Marksmen, "marksmen");
        }
        for (name, shift) in [
            ("attack_shift", v.attack_shift),
            ("defence_shift", v.defence_shift),
        ] {
            if let Some(s) = shift {
                if !(-1..=1).contains(&s) {
                    out.push(finding(
                        "colour_modifier_out_of_range",
                        Severity::Error,
                        format!("{vpath}.{name}"),
                        format!("{who}: a colour modifier is one colour better (-1) or worse (1), not {s}."),
                    ));
                }
            }
        }
        if v.attack_shift.is_some_and(|s| s != 0) && v.defence_shift.is_some_and(|s| s != 0) {
            out.push(finding(
                "both_colour_modifiers",
                Severity::Warning,
                vpath.clone(),
                format!("{who} changes both its attack and its defence colour; the book advises one or the other."),
            ));
        }
        if let Some(r) = &v.reroll {
            let known = ["fire", "fire_defence", "melee_attack", "melee_defence"];
            if !known.contains(&r.roll.as_str()) || !["best", "worst"].contains(&r.keep.as_str()) {
                out.push(finding(
                    "unknown_reroll",
                    Severity::Error,
                    format!("{vpath}.reroll"),
                    format!(
                        "{who}: a re-roll names fire, fire_defence, melee_attack or melee_defence, and keeps best or worst."
                    ),
                ));
            }
        }
        if let Some(c) = v.extra_counter.as_deref() {
            if Colour::from_id(c).is_none() {
                out.push(finding(
                    "unknown_colour",
                    Severity::Error,
                    format!("{vpath}.extra_counter"),
                    format!("{who}: '{c}' is not a colour; choose green, yellow or red."),
                ));
            }
        }
        if v.scrap_ammunition {
            out.push(finding(
                "scenario_special_rule",
                Severity::Warning,
                format!("{vpath}.scrap_ammunition"),
                format!("{who} fires scrap, a rule of the North Point battle (K-22)."),
            ));
            if !t.is_artillery() {
                out.push(finding(
                    "scrap_on_non_artillery",
                    Severity::Error,
                    format!("{vpath}.scrap_ammunition"),
                    format!("{who} is not artillery and cannot fire scrap."),
                ));
            }
        }
        if v.repeating_rifles && !matches!(t, UnitType::Infantry | UnitType::Skirmishers) {
            out.push(finding(
                "rifles_on_wrong_type",
                Severity::Error,
                format!("{vpath}.repeating_rifles"),
                format!("{who}: repeating rifles are for infantry and skirmishers."),
            ));
        }
    }
    let _ = later;
    let errors = out.iter().filter(|f| f.severity == Severity::Error).count();
    Report {
        legal: errors == 0,
        units: starting,
        reinforcements: later,
        generals: u32::try_from(doc.generals.len()).unwrap_or(u32::MAX),
        army_breaks_at: starting / 2,
        command_dice: u32::try_from(cg_rating.clamp(0, 3)).unwrap_or(0),
        findings: out,
    }
}

/// What generic code stores beside the roster.
pub fn summary(doc: &RosterDoc, report: &Report) -> RosterSummary {
    RosterSummary {
        name: doc.name.clone(),
        war: Some(doc.period.clone()),
        nation: doc.side.clone(),
        points: None,
        limit: None,
        legal: report.legal,
        errors: 0,
        warnings: 0,
    }
    .counting(&report.findings)
}
