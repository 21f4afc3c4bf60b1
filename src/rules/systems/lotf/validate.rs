//! The roster validator and pricing.
//!
//! [`validate`] returns every finding at once with a stable code, a severity,
//! the path of what it concerns and a plain-words message naming the numbers;
//! it never panics, whatever the roster holds.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::catalogue::{skill_ids, Catalogue};
use super::roster::{ElementDoc, RosterDoc};
use super::types::{ElementType, Mode, Size, Upgrade, Weapon};

/// How serious a finding is. Only errors make a roster illegal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Error,
    Warning,
}

macro_rules! finding_codes {
    ($($variant:ident => $id:literal,)+) => {
        /// Stable finding codes (snake_case in JSON).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
        pub enum FindingCode { $(#[serde(rename = $id)] $variant),+ }

        impl FindingCode {
            /// Every code.
            pub const ALL: &'static [FindingCode] = &[$(FindingCode::$variant),+];

            /// The code as it appears in reports.
            pub fn as_str(self) -> &'static str {
                match self { $(FindingCode::$variant => $id),+ }
            }
        }
    };
}

finding_codes! {
    CatalogueVersionMismatch => "catalogue_version_mismatch",
    NationNotInWar => "nation_not_in_war",
    MissingForceCommander => "missing_force_commander",
    MissingGroupCommander => "missing_group_commander",
    TooFewGroups => "too_few_groups",
    TooManyGroups => "too_many_groups",
    TooFewElements => "too_few_elements",
    TooManyElements => "too_many_elements",
    PointsLimitMissing => "points_limit_missing",
    PointsOverLimit => "points_over_limit",
    SizeNotAllowedForType => "size_not_allowed_for_type",
    WeaponNotAllowedForType => "weapon_not_allowed_for_type",
    RocketsOutsideWarOf1812 => "rockets_outside_war_of_1812",
    WeaponNotAllowedInWar => "weapon_not_allowed_in_war",
    UpgradeNotAllowedForType => "upgrade_not_allowed_for_type",
    UpgradeNotAllowedForSize => "upgrade_not_allowed_for_size",
    TooManyUpgrades => "too_many_upgrades",
    DuplicateUpgrade => "duplicate_upgrade",
    UpgradeCapExceeded => "upgrade_cap_exceeded",
    RifledWithRiflesUpgrade => "rifled_with_rifles_upgrade",
    RifledWithMixedWeaponsUpgrade => "rifled_with_mixed_weapons_upgrade",
    HistoricalEntryUnknown => "historical_entry_unknown",
    HistoricalEntryTypeMismatch => "historical_entry_type_mismatch",
    TypeDiffersFromName => "type_differs_from_name",
    SizeAssumed => "size_assumed",
    GunClassAssumed => "gun_class_assumed",
    DuplicateId => "duplicate_id",
}

impl std::fmt::Display for FindingCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One thing the validator noticed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub code: FindingCode,
    pub severity: Severity,
    /// What it concerns, e.g. `groups[1].elements[3]`; empty for the whole force.
    pub path: String,
    pub message: String,
}

/// Points of one element.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ElementPoints {
    pub path: String,
    pub name: String,
    pub points: u32,
}

/// Points of one group.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GroupPoints {
    pub path: String,
    pub name: String,
    pub points: u32,
}

/// The points breakdown of a force.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Points {
    pub total: u32,
    pub limit: Option<u32>,
    pub by_group: Vec<GroupPoints>,
    pub by_element: Vec<ElementPoints>,
}

/// The validator's verdict on a roster.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Report {
    /// True when there is no error finding.
    pub legal: bool,
    pub points: Points,
    pub findings: Vec<Finding>,
}

impl Report {
    /// Findings with a given code.
    pub fn with_code(&self, code: FindingCode) -> Vec<&Finding> {
        self.findings.iter().filter(|f| f.code == code).collect()
    }

    /// Whether any finding has this code.
    pub fn has(&self, code: FindingCode) -> bool {
        self.findings.iter().any(|f| f.code == code)
    }

    /// Number of error findings.
    pub fn error_count(&self) -> usize {
        self.findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
            .count()
    }

    /// Number of warning findings.
    pub fn warning_count(&self) -> usize {
        self.findings
            .iter()
            .filter(|f| f.severity == Severity::Warning)
            .count()
    }
}

/// Distinct upgrades of an element, in the order first listed.
fn distinct_upgrades(e: &ElementDoc) -> Vec<Upgrade> {
    let mut seen = BTreeSet::new();
    e.upgrades
        .iter()
        .copied()
        .filter(|u| seen.insert(*u))
        .collect()
}

/// The weapon an element uses: its own, or its type's default (M-10).
pub fn effective_weapon(cat: &Catalogue, e: &ElementDoc) -> Weapon {
    e.weapon.unwrap_or_else(|| {
        cat.element_type(e.element_type)
            .map(|t| t.default_weapon)
            .unwrap_or(match e.element_type {
                ElementType::Infantry => Weapon::Smoothbore,
                ElementType::Cavalry => Weapon::Mixed,
                ElementType::Artillery => Weapon::LightGun,
            })
    })
}

/// Points of one element: base for type and size, plus weapon, plus each
/// distinct upgrade; never below 0. Infantry upgrades are added to
/// the smoothbore price, so a rifled element pays the rifled +5 on top.
/// A size the type does not come in (tiny artillery) has no base cost (M-4).
pub fn price_element(cat: &Catalogue, e: &ElementDoc) -> u32 {
    let base = cat
        .stats(e.element_type, e.size)
        .map(|s| i64::from(s.points))
        .unwrap_or(0);
    let weapon = cat
        .weapon(effective_weapon(cat, e))
        .map(|w| i64::from(w.points))
        .unwrap_or(0);
    let upgrades: i64 = distinct_upgrades(e)
        .iter()
        .filter_map(|u| cat.upgrade(*u))
        .map(|u| i64::from(u.points))
        .sum();
    let total = (base + weapon + upgrades).max(0);
    u32::try_from(total).unwrap_or(u32::MAX)
}

/// The points breakdown of a whole roster.
pub fn price_roster(cat: &Catalogue, roster: &RosterDoc) -> Points {
    let mut total: u32 = 0;
    let mut by_group = Vec::with_capacity(roster.groups.len());
    let mut by_element = Vec::with_capacity(roster.element_count());
    for (gi, g) in roster.groups.iter().enumerate() {
        let mut group_total: u32 = 0;
        for (ei, e) in g.elements.iter().enumerate() {
            let p = price_element(cat, e);
            group_total = group_total.saturating_add(p);
            by_element.push(ElementPoints {
                path: element_path(gi, ei),
                name: e.name.clone(),
                points: p,
            });
        }
        total = total.saturating_add(group_total);
        let name = if !g.name.is_empty() {
            g.name.clone()
        } else {
            g.commander
                .as_ref()
                .map(|c| c.name.clone())
                .unwrap_or_default()
        };
        by_group.push(GroupPoints {
            path: format!("groups[{gi}]"),
            name,
            points: group_total,
        });
    }
    Points {
        total,
        limit: roster.points_limit,
        by_group,
        by_element,
    }
}

fn element_path(gi: usize, ei: usize) -> String {
    format!("groups[{gi}].elements[{ei}]")
}

fn element_label(gi: usize, ei: usize, e: &ElementDoc) -> String {
    let name = e.name.trim();
    if name.is_empty() {
        format!("Element {} of group {}", ei + 1, gi + 1)
    } else {
        format!(
            "\u{201c}{name}\u{201d} (group {}, element {})",
            gi + 1,
            ei + 1
        )
    }
}

fn group_label(gi: usize, roster: &RosterDoc) -> String {
    let g = &roster.groups[gi];
    let who = if !g.name.trim().is_empty() {
        g.name.trim().to_string()
    } else {
        g.commander
            .as_ref()
            .map(|c| c.name.trim().to_string())
            .unwrap_or_default()
    };
    if who.is_empty() {
        format!("Group {}", gi + 1)
    } else {
        format!("Group {} ({who})", gi + 1)
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}

fn list_words(items: &[String]) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        n => format!("{} or {}", items[..n - 1].join(", "), items[n - 1]),
    }
}

struct Ctx<'a> {
    cat: &'a Catalogue,
    roster: &'a RosterDoc,
    findings: Vec<Finding>,
    /// Severity of organisation, points and cap findings: warnings in
    /// historical mode (R-1, M-1).
    org: Severity,
    /// The fewest elements the R-6 caps are judged on: a campaign force's strength before its
    /// losses (M-96); 0 outside campaigns.
    cap_elements: usize,
}

impl Ctx<'_> {
    fn push(&mut self, code: FindingCode, severity: Severity, path: String, message: String) {
        self.findings.push(Finding {
            code,
            severity,
            path,
            message,
        });
    }

    fn upgrade_name(&self, u: Upgrade) -> String {
        self.cat
            .upgrade(u)
            .map(|d| d.name.clone())
            .unwrap_or_else(|| u.label().to_string())
    }
}

/// Judge a roster against a catalogue: every finding at once, plus points.
pub fn validate(cat: &Catalogue, roster: &RosterDoc) -> Report {
    validate_caps_on(cat, roster, 0)
}

/// As [`validate`], with the R-6 caps judged on at least `cap_elements` elements: a campaign
/// force is judged on its strength before its losses (M-96).
pub fn validate_caps_on(cat: &Catalogue, roster: &RosterDoc, cap_elements: usize) -> Report {
    let historical = roster.mode == Mode::Historical;
    let mut cx = Ctx {
        cat,
        roster,
        findings: Vec::new(),
        org: if historical {
            Severity::Warning
        } else {
            Severity::Error
        },
        cap_elements,
    };
    check_force(&mut cx);
    for (gi, g) in roster.groups.iter().enumerate() {
        check_group(&mut cx, gi);
        for (ei, e) in g.elements.iter().enumerate() {
            check_element(&mut cx, gi, ei, e);
        }
    }
    check_caps(&mut cx);
    check_ids(&mut cx);
    let points = price_roster(cat, roster);
    check_points(&mut cx, &points);
    let legal = !cx.findings.iter().any(|f| f.severity == Severity::Error);
    Report {
        legal,
        points,
        findings: cx.findings,
    }
}

fn check_force(cx: &mut Ctx<'_>) {
    let roster = cx.roster;
    // A roster saved with another catalogue is judged by this one, with a warning (M-12).
    if let Some(v) = &roster.catalogue_version {
        if v != cx.cat.version() {
            let msg = format!(
                "This roster was saved with catalogue {v}; it is checked against {} now, so points or rules may have changed.",
                cx.cat.version()
            );
            cx.push(
                FindingCode::CatalogueVersionMismatch,
                Severity::Warning,
                "catalogue_version".into(),
                msg,
            );
        }
    }
    if !cx.cat.nation_in_war(roster.war, roster.nation) {
        let listed: Vec<String> = cx
            .cat
            .war(roster.war)
            .map(|w| {
                w.nations
                    .iter()
                    .map(|n| n.nation.label().to_string())
                    .collect()
            })
            .unwrap_or_default();
        let msg = format!(
            "The book has no {} force list for the {}; its lists are {}. You may still field what you own.",
            roster.nation.label(),
            roster.war.label(),
            list_words(&listed)
        );
        cx.push(
            FindingCode::NationNotInWar,
            Severity::Warning,
            "nation".into(),
            msg,
        );
    }
    // Commanders may be missing in a draft; the validator reports it (M-6).
    if roster.force_commander.is_none() {
        cx.push(
            FindingCode::MissingForceCommander,
            cx.org,
            "force_commander".into(),
            "The force has no Force Commander; it needs exactly one (R-1).".into(),
        );
    }
    let n = roster.groups.len();
    if n < 2 {
        let msg = format!(
            "The force has {}; it needs at least 2, each with a Group Commander (R-1).",
            plural(n, "group", "groups")
        );
        cx.push(FindingCode::TooFewGroups, cx.org, "groups".into(), msg);
    } else if n > 6 {
        let msg = format!("The force has {n} groups; at most 6 are allowed (R-1).");
        cx.push(FindingCode::TooManyGroups, cx.org, "groups".into(), msg);
    }
}

fn check_group(cx: &mut Ctx<'_>, gi: usize) {
    let g = &cx.roster.groups[gi];
    let label = group_label(gi, cx.roster);
    if g.commander.is_none() {
        let msg = format!("{label} has no Group Commander; every group needs one (R-1).");
        cx.push(
            FindingCode::MissingGroupCommander,
            cx.org,
            format!("groups[{gi}].commander"),
            msg,
        );
    }
    let n = g.elements.len();
    if n < 2 {
        let msg = format!(
            "{label} has {}; a group needs at least 2 (R-1).",
            plural(n, "element", "elements")
        );
        cx.push(
            FindingCode::TooFewElements,
            cx.org,
            format!("groups[{gi}]"),
            msg,
        );
    } else if n > 6 {
        let msg = format!("{label} has {n} elements; a group may have at most 6 (R-1).");
        cx.push(
            FindingCode::TooManyElements,
            cx.org,
            format!("groups[{gi}]"),
            msg,
        );
    }
}

fn check_element(cx: &mut Ctx<'_>, gi: usize, ei: usize, e: &ElementDoc) {
    let cat = cx.cat;
    let path = element_path(gi, ei);
    let label = element_label(gi, ei, e);
    let t = e.element_type;

    // sizes by type.
    if cat.stats(t, e.size).is_none() {
        let sizes: Vec<String> = cat
            .element_type(t)
            .map(|d| d.sizes.iter().map(|s| s.size.id().to_string()).collect())
            .unwrap_or_default();
        let msg = format!(
            "{label} is {} {}; {} comes only {} (R-2).",
            e.size.id(),
            t.id(),
            t.id(),
            list_words(&sizes)
        );
        cx.push(
            FindingCode::SizeNotAllowedForType,
            Severity::Error,
            path.clone(),
            msg,
        );
    }

    // weapons by type and war.
    let weapon = effective_weapon(cat, e);
    let allowed: Vec<Weapon> = cat
        .element_type(t)
        .map(|d| d.weapons.clone())
        .unwrap_or_default();
    if !allowed.contains(&weapon) {
        let names: Vec<String> = allowed
            .iter()
            .map(|w| {
                cat.weapon(*w)
                    .map(|d| d.name.to_lowercase())
                    .unwrap_or_else(|| w.id().to_string())
            })
            .collect();
        let msg = format!(
            "{label} is {} armed with {}; {} may use {} (R-3).",
            t.id(),
            weapon.label().to_lowercase(),
            t.id(),
            list_words(&names)
        );
        cx.push(
            FindingCode::WeaponNotAllowedForType,
            Severity::Error,
            path.clone(),
            msg,
        );
    }
    if let Some(wars) = cat.weapon(weapon).and_then(|w| w.wars.as_ref()) {
        if !wars.contains(&cx.roster.war) {
            let only: Vec<String> = wars.iter().map(|w| w.label().to_string()).collect();
            let code = if weapon == Weapon::Rockets {
                FindingCode::RocketsOutsideWarOf1812
            } else {
                FindingCode::WeaponNotAllowedInWar
            };
            let msg = format!(
                "{label} fires {}, which belong to the {} only; this roster is for the {} (R-3).",
                weapon.label().to_lowercase(),
                list_words(&only),
                cx.roster.war.label()
            );
            cx.push(code, Severity::Error, path.clone(), msg);
        }
    }

    // one upgrade per element, Hessians + Grenadiers excepted.
    let distinct = distinct_upgrades(e);
    if distinct.len() < e.upgrades.len() {
        let mut counts: BTreeMap<Upgrade, usize> = BTreeMap::new();
        for u in &e.upgrades {
            *counts.entry(*u).or_default() += 1;
        }
        let dups: Vec<String> = counts
            .iter()
            .filter(|(_, n)| **n > 1)
            .map(|(u, n)| format!("{} ({n} times)", cx.upgrade_name(*u)))
            .collect();
        let msg = format!(
            "{label} lists {}; an upgrade can be bought only once per element, so it is priced once (M-3).",
            list_words(&dups)
        );
        cx.push(
            FindingCode::DuplicateUpgrade,
            Severity::Error,
            path.clone(),
            msg,
        );
    }
    let max = usize::from(cat.max_upgrades_per_element());
    if distinct.len() > max {
        let combo_ok = cat.upgrade_combinations().iter().any(|c| {
            c.upgrades.len() == distinct.len() && distinct.iter().all(|u| c.upgrades.contains(u))
        });
        if !combo_ok {
            let names: Vec<String> = distinct.iter().map(|u| cx.upgrade_name(*u)).collect();
            let combos: Vec<String> = cat
                .upgrade_combinations()
                .iter()
                .map(|c| {
                    let v: Vec<String> = c.upgrades.iter().map(|u| cx.upgrade_name(*u)).collect();
                    v.join(" with ")
                })
                .collect();
            let msg = format!(
                "{label} has {} ({}); an element may carry {}{} (R-4).",
                plural(distinct.len(), "upgrade", "upgrades"),
                names.join(", "),
                plural(max, "upgrade", "upgrades"),
                if combos.is_empty() {
                    String::new()
                } else {
                    format!(", or {}", list_words(&combos))
                }
            );
            cx.push(
                FindingCode::TooManyUpgrades,
                Severity::Error,
                path.clone(),
                msg,
            );
        }
    }

    // type and size restrictions of each upgrade.
    for u in &distinct {
        let Some(data) = cat.upgrade(*u) else {
            continue;
        };
        if !data.types.contains(&t) {
            let types: Vec<String> = data.types.iter().map(|x| x.id().to_string()).collect();
            let msg = format!(
                "{label} is {}; {} is for {} elements only (R-7).",
                t.id(),
                data.name,
                list_words(&types)
            );
            cx.push(
                FindingCode::UpgradeNotAllowedForType,
                Severity::Error,
                path.clone(),
                msg,
            );
        }
        if let Some(sizes) = &data.sizes {
            if !sizes.contains(&e.size) {
                let names: Vec<String> = sizes.iter().map(|x| x.id().to_string()).collect();
                let msg = format!(
                    "{label} is {}; {} is for {} elements only (R-7).",
                    e.size.id(),
                    data.name,
                    list_words(&names)
                );
                cx.push(
                    FindingCode::UpgradeNotAllowedForSize,
                    Severity::Error,
                    path.clone(),
                    msg,
                );
            }
        }
    }

    // the rifled-musket option against upgrades granting Rifles or Mixed Weapons.
    if weapon == Weapon::Rifled {
        for u in &distinct {
            let Some(data) = cat.upgrade(*u) else {
                continue;
            };
            if data.skills.iter().any(|s| s == skill_ids::RIFLES) {
                let msg = format!(
                    "{label} has the rifled-musket option and {}, which already gives Rifles; pay for only one (R-5).",
                    data.name
                );
                cx.push(
                    FindingCode::RifledWithRiflesUpgrade,
                    Severity::Error,
                    path.clone(),
                    msg,
                );
            }
            if data.skills.iter().any(|s| s == skill_ids::MIXED_WEAPONS) {
                let msg = format!(
                    "{label} has the rifled-musket option and {}, whose Mixed Weapons limit its range to 6\"; the two cannot be combined (R-5).",
                    data.name
                );
                cx.push(
                    FindingCode::RifledWithMixedWeaponsUpgrade,
                    Severity::Error,
                    path.clone(),
                    msg,
                );
            }
        }
    }

    // Historical list entries: warnings only (players may field what they own, M-7).
    if let Some(key) = &e.historical_entry {
        match cat.find_historical_entry(cx.roster.war, cx.roster.nation, key) {
            None => {
                let msg = format!(
                    "{label} names the historical entry \u{201c}{}\u{201d}, which is not in the {} lists; it is checked as an ordinary element.",
                    key.trim(),
                    cx.roster.war.label()
                );
                cx.push(
                    FindingCode::HistoricalEntryUnknown,
                    Severity::Warning,
                    path.clone(),
                    msg,
                );
            }
            Some(entry) if entry.element_type != t => {
                let msg = format!(
                    "{label} is {}, but the historical entry \u{201c}{}\u{201d} is {}.",
                    t.id(),
                    entry.name,
                    entry.element_type.id()
                );
                cx.push(
                    FindingCode::HistoricalEntryTypeMismatch,
                    Severity::Warning,
                    path.clone(),
                    msg,
                );
            }
            Some(_) => {}
        }
    }

    // entries that look odd load as printed, with a warning (M-8).
    let lower = e.name.to_lowercase();
    if t != ElementType::Artillery && (lower.contains("artillery") || lower.contains("battery")) {
        let msg = format!(
            "{label} is listed as {} although its name suggests artillery; it is kept as given (R-25).",
            t.id()
        );
        cx.push(
            FindingCode::TypeDiffersFromName,
            Severity::Warning,
            path.clone(),
            msg,
        );
    }
    if e.size_assumed {
        let msg = format!(
            "{label}: the source gives no size, so it is fielded as {} (R-26).",
            e.size.id()
        );
        cx.push(
            FindingCode::SizeAssumed,
            Severity::Warning,
            path.clone(),
            msg,
        );
    }
    if e.gun_class_assumed {
        let msg = format!(
            "{label}: the source names howitzers, no calibre or a mixed battery, so the gun class {} was assumed (R-25).",
            weapon.label().to_lowercase()
        );
        cx.push(FindingCode::GunClassAssumed, Severity::Warning, path, msg);
    }
}

/// each capped upgrade separately, at most ⌊25 % × elements⌋ elements.
/// Hessian Grenadiers count as Grenadiers. Warnings in historical mode (M-1).
/// A campaign force's elements are counted as before its losses (M-96).
fn check_caps(cx: &mut Ctx<'_>) {
    let count = cx.roster.element_count();
    let total = count.max(cx.cap_elements);
    let allowed = cx.cat.cap_allowance(total);
    let force = if total > count {
        format!(
            "{}, {total} before its losses,",
            plural(count, "element", "elements")
        )
    } else {
        plural(total, "element", "elements")
    };
    let capped: Vec<Upgrade> = cx
        .cat
        .upgrades()
        .iter()
        .filter(|u| u.cap)
        .map(|u| u.id)
        .collect();
    for u in capped {
        let mut carriers: Vec<String> = Vec::new();
        for (gi, g) in cx.roster.groups.iter().enumerate() {
            for (ei, e) in g.elements.iter().enumerate() {
                if e.upgrades.contains(&u) {
                    carriers.push(element_path(gi, ei));
                }
            }
        }
        if carriers.len() > allowed {
            let path = carriers.get(allowed).cloned().unwrap_or_default();
            let msg = format!(
                "{} {} {}; a force of {} allows {} ({}% with remainders dropped, R-6).",
                carriers.len(),
                if carriers.len() == 1 {
                    "element has"
                } else {
                    "elements have"
                },
                cx.upgrade_name(u),
                force,
                allowed,
                cx.cat.cap_percent()
            );
            cx.push(FindingCode::UpgradeCapExceeded, cx.org, path, msg);
        }
    }
}

/// Ids must be unique so campaigns can track elements and commanders (M-9).
fn check_ids(cx: &mut Ctx<'_>) {
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    let mut dups: Vec<(String, String, String)> = Vec::new();
    let roster = cx.roster;
    let mut note = |id: &Option<String>, path: String| {
        if let Some(id) = id {
            match seen.get(id.as_str()) {
                Some(first) => dups.push((id.clone(), path, first.clone())),
                None => {
                    seen.insert(id.clone(), path);
                }
            }
        }
    };
    note(&roster.id, String::new());
    if let Some(c) = &roster.force_commander {
        note(&c.id, "force_commander".into());
    }
    for (gi, g) in roster.groups.iter().enumerate() {
        note(&g.id, format!("groups[{gi}]"));
        if let Some(c) = &g.commander {
            note(&c.id, format!("groups[{gi}].commander"));
        }
        for (ei, e) in g.elements.iter().enumerate() {
            note(&e.id, element_path(gi, ei));
        }
    }
    for (id, path, first) in dups {
        let msg = format!(
            "The id \u{201c}{id}\u{201d} is also used at {}; it will be replaced by a new id when the roster is saved.",
            if first.is_empty() { "the force" } else { first.as_str() }
        );
        cx.push(FindingCode::DuplicateId, Severity::Warning, path, msg);
    }
}

fn check_points(cx: &mut Ctx<'_>, points: &Points) {
    // In historical mode a limit of 0 means "no limit" (M-2).
    let limit = match cx.roster.points_limit {
        Some(0) if cx.roster.mode == Mode::Historical => None,
        other => other,
    };
    match limit {
        None => {
            // Historical rosters need no limit (M-2).
            if cx.roster.mode == Mode::Standard {
                cx.push(
                    FindingCode::PointsLimitMissing,
                    Severity::Error,
                    "points_limit".into(),
                    format!(
                        "No points limit is set; the force costs {} points. Set the agreed game size (R-1).",
                        points.total
                    ),
                );
            }
        }
        Some(limit) if points.total > limit => {
            let over = points.total - limit;
            let msg = format!(
                "The force costs {} points; the limit is {limit} ({over} over) (R-1).",
                points.total
            );
            cx.push(
                FindingCode::PointsOverLimit,
                cx.org,
                "points_limit".into(),
                msg,
            );
        }
        Some(_) => {}
    }
}

/// Which sizes an element type comes in (for forms and messages).
pub fn sizes_for(cat: &Catalogue, t: ElementType) -> Vec<Size> {
    cat.element_type(t)
        .map(|d| d.sizes.iter().map(|s| s.size).collect())
        .unwrap_or_default()
}
