//! The *One if by Land* roster check (spec 2.2): every finding at once, with a code, a severity,
//! a path into the document and plain words; never a panic. Illegal = contradicts the troop
//! class rules or has no value the game can use; unusual (a warning) = what a scenario may grant.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::rules::system::{Finding, RosterSummary, Severity};

use super::catalogue::{Catalogue, FLAGS};
use super::roster::{CommanderDoc, RosterDoc, UnitDoc, NATIONS, WAR};
use super::types::{Formation, GunClass, Kind, Quality};

/// The check's whole answer: findings and what is derived, shown but not judged.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub legal: bool,
    pub findings: Vec<Finding>,
    pub brigades: u32,
    pub units: u32,
    /// Figures of every readable unit (artillery: crew).
    pub figures: u32,
    pub guns: u32,
    /// Cards in the deck: brigades with units (B-29).
    pub cards: u32,
}

fn push(out: &mut Vec<Finding>, code: &str, severity: Severity, path: String, message: String) {
    out.push(Finding {
        code: code.to_string(),
        severity,
        path,
        message,
    });
}

fn check_commander(out: &mut Vec<Finding>, c: &CommanderDoc, path: String, who: &str) {
    if let Some(r) = c.rating {
        if !(0..=3).contains(&r) {
            push(
                out,
                "commander_rating_out_of_range",
                Severity::Error,
                format!("{path}.rating"),
                format!("{who}'s rating is {r}; a commander's rating X is 0, 1, 2 or 3 (B-8)."),
            );
        }
    }
}

/// Checks a roster and returns every finding.
pub fn validate(cat: &Catalogue, doc: &RosterDoc) -> Report {
    let mut out = Vec::new();
    if !NATIONS.contains(&doc.nation.as_str()) {
        push(
            &mut out,
            "nation_unknown",
            Severity::Warning,
            "nation".into(),
            format!(
                "'{}' is not a nation Muster knows for this war; use one of {}.",
                doc.nation,
                NATIONS.join(", ")
            ),
        );
    }
    if doc.brigades.is_empty() {
        push(
            &mut out,
            "no_brigades",
            Severity::Error,
            "brigades".into(),
            "An order of battle needs at least one brigade: each brigade is a card in the deck."
                .into(),
        );
    }
    if let Some(c) = &doc.army_commander {
        check_commander(&mut out, c, "army_commander".into(), "The army commander");
    }
    let brigade_ids: BTreeSet<&str> = doc
        .brigades
        .iter()
        .filter_map(|b| b.id.as_deref())
        .collect();
    let mut in_division: BTreeMap<&str, usize> = BTreeMap::new();
    for (d, division) in doc.divisions.iter().enumerate() {
        let path = format!("divisions[{d}]");
        if let Some(c) = &division.commander {
            check_commander(
                &mut out,
                c,
                format!("{path}.commander"),
                "The division commander",
            );
        }
        for (i, b) in division.brigades.iter().enumerate() {
            if !brigade_ids.contains(b.as_str()) {
                push(
                    &mut out,
                    "division_brigade_unknown",
                    Severity::Error,
                    format!("{path}.brigades[{i}]"),
                    format!("No brigade of this order of battle has the id '{b}'."),
                );
            } else if in_division.insert(b.as_str(), d).is_some() {
                push(
                    &mut out,
                    "brigade_in_two_divisions",
                    Severity::Warning,
                    format!("{path}.brigades[{i}]"),
                    format!(
                        "Brigade '{b}' is already under another division; its first one counts."
                    ),
                );
            }
        }
    }
    // Duplicate ids anywhere (as Land of the Free M-9).
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    let mut ids: Vec<(String, String)> = Vec::new();
    for (b, brigade) in doc.brigades.iter().enumerate() {
        if let Some(id) = &brigade.id {
            ids.push((id.clone(), format!("brigades[{b}].id")));
        }
        for (u, unit) in brigade.units.iter().enumerate() {
            if let Some(id) = &unit.id {
                ids.push((id.clone(), format!("brigades[{b}].units[{u}].id")));
            }
        }
    }
    for (id, path) in ids {
        if id.is_empty() {
            continue;
        }
        if let Some(first) = seen.get(&id) {
            push(
                &mut out,
                "duplicate_id",
                Severity::Warning,
                path,
                format!(
                    "The id '{id}' is already used at {first}; saving gives this part a new one."
                ),
            );
        } else {
            seen.insert(id, path);
        }
    }
    let mut figures = 0u32;
    let mut guns = 0u32;
    let mut cards = 0u32;
    for (b, brigade) in doc.brigades.iter().enumerate() {
        let path = format!("brigades[{b}]");
        let label = if brigade.name.is_empty() {
            format!("Brigade {}", b + 1)
        } else {
            brigade.name.clone()
        };
        match &brigade.commander {
            Some(c) => check_commander(&mut out, c, format!("{path}.commander"), &label),
            None => push(
                &mut out,
                "missing_brigade_commander",
                Severity::Warning,
                format!("{path}.commander"),
                format!(
                    "{label} has a card but no commander: no rating helps its tests and nobody is at risk."
                ),
            ),
        }
        if brigade.units.is_empty() {
            push(
                &mut out,
                "brigade_without_units",
                Severity::Error,
                format!("{path}.units"),
                format!("{label} has no units; its card would activate nothing."),
            );
        } else {
            cards += 1;
        }
        for (u, unit) in brigade.units.iter().enumerate() {
            let (f, g) = check_unit(cat, unit, &format!("{path}.units[{u}]"), &mut out);
            figures = figures.saturating_add(f);
            guns = guns.saturating_add(g);
        }
    }
    let legal = !out.iter().any(|f| f.severity == Severity::Error);
    Report {
        legal,
        findings: out,
        brigades: u32::try_from(doc.brigades.len()).unwrap_or(u32::MAX),
        units: u32::try_from(doc.unit_count()).unwrap_or(u32::MAX),
        figures,
        guns,
        cards,
    }
}

/// Checks one unit; answers its figures and guns (0 when unreadable).
fn check_unit(cat: &Catalogue, unit: &UnitDoc, path: &str, out: &mut Vec<Finding>) -> (u32, u32) {
    let label = if unit.name.is_empty() {
        format!("The unit at {path}")
    } else {
        unit.name.clone()
    };
    if Quality::from_id(&unit.quality).is_none() {
        push(
            out,
            "quality_unknown",
            Severity::Error,
            format!("{path}.quality"),
            format!(
                "{label}: '{}' is not a troop quality; choose elite, veteran, regular, poor or wretched.",
                unit.quality
            ),
        );
    }
    if unit.marksmen {
        push(
            out,
            "marksmen",
            Severity::Warning,
            format!("{path}.marksmen"),
            format!("{label} fights as Marksmen (+2 to its fire): only a scenario grants that."),
        );
    }
    let Some(class) = cat.class(&unit.class) else {
        let ids: Vec<&str> = cat.classes.iter().map(|c| c.id.as_str()).collect();
        push(
            out,
            "class_unknown",
            Severity::Error,
            format!("{path}.class"),
            format!(
                "{label}: '{}' is not a troop class; choose one of {}.",
                unit.class,
                ids.join(", ")
            ),
        );
        return (0, 0);
    };
    // Flags.
    for flag in unit.flags() {
        if !class.flags.iter().any(|f| f == flag) {
            push(
                out,
                "flag_not_for_class",
                Severity::Warning,
                format!("{path}.{flag}"),
                format!(
                    "{label}: {} is marked '{}', which means nothing for this class.",
                    class.name,
                    flag.replace('_', " ")
                ),
            );
        }
    }
    debug_assert!(unit.flags().iter().all(|f| FLAGS.contains(f)));
    let discharged = unit.discharged_continentals && class.id == "militia";
    if discharged {
        push(
            out,
            "discharged_continentals",
            Severity::Warning,
            format!("{path}.discharged_continentals"),
            format!(
                "{label} claims the discharged Continentals exception: normal basing and bayonets allowed, militia formations kept (B-41)."
            ),
        );
    }
    // Basing.
    let mut basing = cat.basing(&class.basing);
    if let Some(b) = &unit.basing {
        match cat.basing(b) {
            None => push(
                out,
                "basing_unknown",
                Severity::Error,
                format!("{path}.basing"),
                format!("{label}: '{b}' is not a basing."),
            ),
            Some(given) => {
                basing = Some(given);
                let ok = *b == class.basing || (discharged && b == "normal");
                if !ok {
                    push(
                        out,
                        "basing_mismatch",
                        Severity::Error,
                        format!("{path}.basing"),
                        format!(
                            "{label}: {} are based as {}, not {}.",
                            class.name,
                            cat.basing(&class.basing).map_or("", |x| x.name.as_str()),
                            given.name
                        ),
                    );
                }
            }
        }
    }
    // Weapon.
    if let Some(w) = &unit.weapon {
        if cat.weapon(w).is_none() {
            push(
                out,
                "weapon_unknown",
                Severity::Error,
                format!("{path}.weapon"),
                format!("{label}: '{w}' is not a weapon of this game."),
            );
        } else if !class.weapons.contains(w) {
            push(
                out,
                "weapon_not_allowed",
                Severity::Error,
                format!("{path}.weapon"),
                format!(
                    "{label}: {} carry {}, not {w}.",
                    class.name,
                    class.weapons.join(" or ")
                ),
            );
        }
    }
    // Bayonets.
    if unit.bayonets == Some(true) && !class.bayonets_allowed && !discharged {
        let why = match class.kind {
            Kind::Indian => "Indians fight with hatchets, which already count as bayonets (B-39)",
            Kind::Cavalry => "cavalry fight with sabres",
            Kind::Artillery => "gun crews carry none",
            Kind::Infantry => "this class carries none (B-46)",
        };
        push(
            out,
            "bayonets_not_allowed",
            Severity::Error,
            format!("{path}.bayonets"),
            format!("{label} may not have bayonets: {why}."),
        );
    }
    // Formations and grants.
    let allowed = super::unit::allowed_formations(cat, unit);
    for (i, a) in unit.authorizations.iter().enumerate() {
        let ok = Formation::from_id(a).filter(|f| class.authorizable.contains(f));
        match ok {
            Some(f) => {
                if !class.formations.contains(&f) {
                    push(
                        out,
                        "scenario_authorization",
                        Severity::Warning,
                        format!("{path}.authorizations[{i}]"),
                        format!(
                            "{label} may use {} by the scenario's grant; show it to your opponent.",
                            f.words()
                        ),
                    );
                }
            }
            None => push(
                out,
                "formation_not_allowed",
                Severity::Error,
                format!("{path}.authorizations[{i}]"),
                if class.authorizable.is_empty() {
                    format!(
                        "{label}: no scenario grants {} any other formation.",
                        class.name
                    )
                } else {
                    format!(
                        "{label}: a scenario may grant {} only {}, not '{a}'.",
                        class.name,
                        class
                            .authorizable
                            .iter()
                            .map(|f| f.words())
                            .collect::<Vec<_>>()
                            .join(" or ")
                    )
                },
            ),
        }
    }
    if let Some(list) = &unit.formations {
        for (i, f) in list.iter().enumerate() {
            match Formation::from_id(f) {
                Some(form) if allowed.contains(&form) => {}
                _ => push(
                    out,
                    "formation_not_allowed",
                    Severity::Error,
                    format!("{path}.formations[{i}]"),
                    format!(
                        "{label} may not use '{f}': {} use {} unless the scenario grants more.",
                        class.name,
                        class
                            .formations
                            .iter()
                            .map(|f| f.words())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ),
            }
        }
    }
    // Strength.
    if class.kind == Kind::Artillery {
        let gun = unit.gun.as_deref().and_then(GunClass::from_id);
        if gun.is_none() {
            push(
                out,
                "gun_class_missing",
                Severity::Error,
                format!("{path}.gun"),
                format!("{label}: a battery needs its guns' class: light, medium or heavy."),
            );
        }
        let guns = unit.guns.unwrap_or(1);
        if guns == 0 {
            push(
                out,
                "artillery_without_crew",
                Severity::Error,
                format!("{path}.guns"),
                format!("{label} has no gun."),
            );
        }
        let crew = unit
            .crew
            .unwrap_or_else(|| gun.map_or(1, |g| cat.gun(g).default_crew));
        if crew < 1 || unit.figures == Some(0) {
            push(
                out,
                "artillery_without_crew",
                Severity::Error,
                format!("{path}.crew"),
                format!("{label} has no crew: a gun without crew is abandoned (B-7, B-33)."),
            );
        }
        let full = guns.saturating_mul(crew);
        let figures = unit.figures.unwrap_or(full);
        if figures > full {
            push(
                out,
                "figures_exceed_stands",
                Severity::Error,
                format!("{path}.figures"),
                format!(
                    "{label} has {figures} crew figures; {guns} gun(s) of {crew} crew hold {full}."
                ),
            );
        } else if figures < full && figures > 0 {
            push(
                out,
                "under_strength",
                Severity::Warning,
                format!("{path}.figures"),
                format!("{label} starts with {figures} of {full} crew figures."),
            );
        }
        return (figures.min(full), guns);
    }
    if unit.gun.is_some() || unit.guns.is_some() || unit.crew.is_some() {
        push(
            out,
            "gun_ignored",
            Severity::Warning,
            format!("{path}.gun"),
            format!("{label} is not artillery; its gun, guns and crew are ignored."),
        );
    }
    let per_stand = basing.map_or(0, |b| b.figures_per_stand);
    if unit.stands == 0 {
        push(
            out,
            "no_stands",
            Severity::Error,
            format!("{path}.stands"),
            format!("{label} has no stands."),
        );
    }
    let full = unit.stands.saturating_mul(per_stand);
    let figures = unit.figures.unwrap_or(full);
    if figures > full {
        push(
            out,
            "figures_exceed_stands",
            Severity::Error,
            format!("{path}.figures"),
            format!(
                "{label} has {figures} figures; {} stands of {per_stand} hold {full}.",
                unit.stands
            ),
        );
    } else if figures < full {
        push(
            out,
            "under_strength",
            Severity::Warning,
            format!("{path}.figures"),
            format!("{label} starts with {figures} of the {full} figures its stands hold."),
        );
    }
    if figures < cat.destroyed_below && unit.stands > 0 {
        push(
            out,
            "too_few_figures",
            Severity::Error,
            format!("{path}.figures"),
            format!(
                "{label} has {figures} figure(s): a unit needs at least {} to roll on the Combat Table (B-33).",
                cat.destroyed_below
            ),
        );
    }
    if unit.stands == 1
        && class.kind == Kind::Infantry
        && class.formations.first() == Some(&Formation::CloseOrder)
    {
        push(
            out,
            "single_stand_unit",
            Severity::Warning,
            format!("{path}.stands"),
            format!("{label} has one stand: it cannot form a close order line two deep."),
        );
    }
    (figures.min(full), 0)
}

/// The summary columns stored beside the roster.
pub fn summary(doc: &RosterDoc, report: &Report) -> RosterSummary {
    RosterSummary {
        name: doc.name.clone(),
        war: Some(WAR.to_string()),
        nation: if doc.nation.is_empty() {
            None
        } else {
            Some(doc.nation.clone())
        },
        points: None,
        limit: None,
        legal: false,
        errors: 0,
        warnings: 0,
    }
    .counting(&report.findings)
}
