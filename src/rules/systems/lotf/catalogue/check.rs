//! The consistency check run on every load: every problem is listed at once.

use std::collections::BTreeSet;

use super::*;
use crate::rules::systems::lotf::types::{
    ElementType, Formation, Nation, Size, Upgrade, War, Weapon,
};

impl Catalogue {
    /// Check the data for consistency; every problem is reported at once.
    pub fn check(&self) -> Result<(), CatalogueError> {
        let mut p: Vec<String> = Vec::new();
        if self.meta.version.trim().is_empty() {
            p.push("the catalogue version is empty".into());
        }
        if self.threat_zone == 0 {
            p.push("the Threat Zone depth is 0".into());
        }

        // Element types: one entry per type, sizes unique, weapons and formations known.
        for t in ElementType::ALL {
            let n = self.element_types.iter().filter(|d| d.id == *t).count();
            if n != 1 {
                p.push(format!(
                    "element type {t} appears {n} times (expected once)"
                ));
            }
        }
        for d in &self.element_types {
            if d.sizes.is_empty() {
                p.push(format!("element type {} has no sizes", d.id));
            }
            let sizes: BTreeSet<Size> = d.sizes.iter().map(|s| s.size).collect();
            if sizes.len() != d.sizes.len() {
                p.push(format!("element type {} lists a size twice", d.id));
            }
            for s in &d.sizes {
                if s.morale < 2 || s.morale > 12 {
                    p.push(format!(
                        "{} {} has morale {} outside 2..12",
                        s.size, d.id, s.morale
                    ));
                }
                if s.discipline == 0 {
                    p.push(format!("{} {} has discipline 0", s.size, d.id));
                }
            }
            if d.weapons.is_empty() {
                p.push(format!("element type {} has no weapons", d.id));
            }
            if !d.weapons.contains(&d.default_weapon) {
                p.push(format!(
                    "element type {}: default weapon {} is not among its weapons",
                    d.id, d.default_weapon
                ));
            }
            for f in &d.formations {
                if !self.formations.iter().any(|x| x.id == *f) {
                    p.push(format!("element type {}: unknown formation {f}", d.id));
                }
            }
        }
        for w in Weapon::ALL {
            let n = self.weapons.iter().filter(|d| d.id == *w).count();
            if n != 1 {
                p.push(format!("weapon {w} appears {n} times (expected once)"));
            }
            if !self.element_types.iter().any(|t| t.weapons.contains(w)) {
                p.push(format!("weapon {w} is not allowed for any element type"));
            }
        }
        for w in &self.weapons {
            if let Some(min) = w.min_range {
                if min >= w.range {
                    p.push(format!(
                        "weapon {}: minimum range is not below maximum",
                        w.id
                    ));
                }
            }
        }
        for f in Formation::ALL {
            let n = self.formations.iter().filter(|d| d.id == *f).count();
            if n != 1 {
                p.push(format!("formation {f} appears {n} times (expected once)"));
            }
        }

        // Skills: unique ids, includes known.
        let mut skill_ids = BTreeSet::new();
        for s in &self.skills {
            if !skill_ids.insert(s.id.as_str()) {
                p.push(format!("skill {} is listed twice", s.id));
            }
            if s.summary.trim().is_empty() {
                p.push(format!("skill {} has no summary", s.id));
            }
        }
        for s in &self.skills {
            for inc in &s.includes {
                if !skill_ids.contains(inc.as_str()) || inc == &s.id {
                    p.push(format!("skill {} includes unknown skill {inc}", s.id));
                }
            }
        }
        for id in [
            skill_ids::RIFLES,
            skill_ids::MIXED_WEAPONS,
            skill_ids::GERMAN_RANKS,
            skill_ids::NUMBERS,
            skill_ids::RESILIENT,
            skill_ids::SELF_PRESERVATION,
            skill_ids::SCOUTS,
            skill_ids::WILDERNESS_GUIDES,
        ] {
            if !skill_ids.contains(id) {
                p.push(format!(
                    "skill {id}, which the rules code relies on, is missing"
                ));
            }
        }

        // Upgrades: one entry each, references known.
        for u in Upgrade::ALL {
            let n = self.upgrades.iter().filter(|d| d.id == *u).count();
            if n != 1 {
                p.push(format!("upgrade {u} appears {n} times (expected once)"));
            }
        }
        for u in &self.upgrades {
            if u.types.is_empty() {
                p.push(format!("upgrade {} allows no element type", u.id));
            }
            for s in &u.skills {
                if !skill_ids.contains(s.as_str()) {
                    p.push(format!("upgrade {} grants unknown skill {s}", u.id));
                }
            }
            if let Some(sizes) = &u.sizes {
                if sizes.is_empty() {
                    p.push(format!("upgrade {} allows no size", u.id));
                }
                let usable = u
                    .types
                    .iter()
                    .any(|t| sizes.iter().any(|s| self.stats(*t, *s).is_some()));
                if !usable {
                    p.push(format!("upgrade {} fits no existing type and size", u.id));
                }
            }
            if let Some(forms) = &u.formations {
                for f in forms {
                    let some_type_has = u.types.iter().any(|t| {
                        self.element_type(*t)
                            .map(|d| d.formations.contains(f))
                            .unwrap_or(false)
                    });
                    if !some_type_has {
                        p.push(format!(
                            "upgrade {} lists formation {f}, which none of its types can take",
                            u.id
                        ));
                    }
                }
            }
        }
        if self.max_upgrades_per_element == 0 {
            p.push("elements may carry no upgrade at all".into());
        }
        for c in &self.upgrade_combinations {
            if c.upgrades.len() < 2 {
                p.push("an upgrade combination lists fewer than two upgrades".into());
            }
            let set: BTreeSet<Upgrade> = c.upgrades.iter().copied().collect();
            if set.len() != c.upgrades.len() {
                p.push("an upgrade combination lists an upgrade twice".into());
            }
            let common_type = ElementType::ALL.iter().any(|t| {
                c.upgrades.iter().all(|u| {
                    self.upgrade(*u)
                        .map(|d| d.types.contains(t))
                        .unwrap_or(false)
                })
            });
            if !common_type {
                p.push("an upgrade combination has no element type in common".into());
            }
        }
        if self.cap_percent == 0 || self.cap_percent > 100 {
            p.push(format!(
                "cap percentage {} outside 1..100",
                self.cap_percent
            ));
        }

        // Commander ratings cover 1..=6 exactly once.
        for roll in 1..=6u8 {
            let n = self
                .commanders
                .ratings
                .iter()
                .filter(|r| r.roll_min <= roll && roll <= r.roll_max)
                .count();
            if n != 1 {
                p.push(format!("commander rating roll {roll} matches {n} rows"));
            }
        }
        for r in &self.commanders.ratings {
            if r.roll_min > r.roll_max || r.roll_min < 1 || r.roll_max > 6 {
                p.push(format!("commander rating {} has a bad roll range", r.id));
            }
        }

        // Tables.
        let t = &self.tables;
        if t.game_length_turns == 0 {
            p.push("game length is 0 turns".into());
        }
        for (name, to_hit) in [("shooting", t.shooting.to_hit), ("melee", t.melee.to_hit)] {
            if !(2..=6).contains(&to_hit) {
                p.push(format!("{name} to-hit number {to_hit} is not a d6 result"));
            }
        }
        if t.shooting.modifiers.is_empty() || t.melee.dice_modifiers.is_empty() {
            p.push("shooting or melee dice modifiers are missing".into());
        }
        // Every modifier the combat code names has exactly one row: a missing
        // row is a load error, never a silent 0 (issue 16).
        let shooting: Vec<_> = t.shooting.modifiers.iter().map(|m| m.id).collect();
        rows_once(
            "shooting modifier",
            ShootingModifier::ALL,
            &shooting,
            &mut p,
        );
        let melee_dice: Vec<_> = t.melee.dice_modifiers.iter().map(|m| m.id).collect();
        rows_once(
            "melee dice modifier",
            MeleeDiceModifier::ALL,
            &melee_dice,
            &mut p,
        );
        let resolution: Vec<_> = t.melee.resolution_modifiers.iter().map(|m| m.id).collect();
        rows_once(
            "melee resolution modifier",
            MeleeResolutionModifier::ALL,
            &resolution,
            &mut p,
        );
        let morale: Vec<_> = t.morale.modifiers.iter().map(|m| m.id).collect();
        rows_once("morale modifier", MoraleModifier::ALL, &morale, &mut p);
        for (field, text) in t.numbers.dice_fields() {
            if crate::rules::dice::DiceExpr::parse(text).is_none() {
                p.push(format!(
                    "numbers.{field}: `{text}` is not a dice expression"
                ));
            }
        }
        for r in &self.commanders.ratings {
            if crate::rules::dice::DiceExpr::parse(&r.command_points).is_none() {
                p.push(format!(
                    "commander rating {}: `{}` is not a dice expression",
                    r.id, r.command_points
                ));
            }
        }
        for ty in ElementType::ALL {
            let forms = self
                .element_type(*ty)
                .map(|d| d.formations.clone())
                .unwrap_or_default();
            for f in forms {
                if !t
                    .movement
                    .iter()
                    .any(|m| m.element_type == *ty && m.formation == f && m.weapon.is_none())
                {
                    p.push(format!("movement for {ty} in {f} is missing"));
                }
            }
        }
        let n = &t.numbers;
        if !(1..=6).contains(&n.zero_pool_to_hit)
            || !(1..=6).contains(&n.penetration_face)
            || !(1..=6).contains(&n.raking_penetration_face)
        {
            p.push("a die face in the numbers table is not 1-6".into());
        }
        if n.volley_doubles < 2 {
            p.push("volley_doubles must be at least 2".into());
        }
        if t.melee.resolution_modifiers.is_empty() {
            p.push("melee resolution modifiers are missing".into());
        }
        if t.charge_reactions.is_empty() {
            p.push("charge reactions are missing".into());
        }
        let kinds: BTreeSet<&str> = t.morale.test_kinds.iter().map(|k| k.id.as_str()).collect();
        for k in ["morale", "discipline", "disorder"] {
            if !kinds.contains(k) {
                p.push(format!("morale test kind {k} is missing"));
            }
        }
        if t.morale.modifiers.is_empty() {
            p.push("morale modifiers are missing".into());
        }
        let levels: Vec<_> = t.discipline_levels.iter().map(|l| l.id).collect();
        if levels != crate::rules::systems::lotf::types::DisciplineLevel::ALL {
            p.push("discipline levels must be fit, shaken, exhausted, shattered in order".into());
        }
        for ty in ElementType::ALL {
            let n = t.orders.iter().filter(|o| o.element_type == *ty).count();
            if n != 1 {
                p.push(format!("orders for {ty} appear {n} times (expected once)"));
            }
        }
        if t.turn_sequence.is_empty() {
            p.push("the turn sequence is empty".into());
        }
        if t.terrain.is_empty() {
            p.push("the terrain table is empty".into());
        }
        let vl = &t.victory_points.levels;
        if vl.len() != 4 || vl.iter().filter(|l| l.above_percent.is_none()).count() != 1 {
            p.push("victory levels must be major, minor, marginal and tie".into());
        }
        let mut last = u32::MAX;
        for l in vl.iter().filter_map(|l| l.above_percent) {
            if l >= last {
                p.push("victory level thresholds must fall from major to marginal".into());
            }
            last = l;
        }
        let scen_ids: BTreeSet<&str> = t.scenarios.iter().map(|s| s.id.as_str()).collect();
        if scen_ids.len() != t.scenarios.len() {
            p.push("a scenario is listed twice".into());
        }
        for roll in 2..=12u8 {
            let n = t
                .scenario_table
                .iter()
                .filter(|r| r.roll_min <= roll && roll <= r.roll_max)
                .count();
            if n != 1 {
                p.push(format!("scenario table roll {roll} matches {n} rows"));
            }
        }
        for r in &t.scenario_table {
            if !scen_ids.contains(r.scenario.as_str()) {
                p.push(format!(
                    "scenario table names unknown scenario {}",
                    r.scenario
                ));
            }
            if r.roll_min > r.roll_max || r.roll_min < 2 || r.roll_max > 12 {
                p.push(format!(
                    "scenario table row for {} has a bad roll range",
                    r.scenario
                ));
            }
        }

        // Nations and wars with their historical lists.
        for n in Nation::ALL {
            let c = self.nations.iter().filter(|d| d.id == *n).count();
            if c != 1 {
                p.push(format!("nation {n} appears {c} times (expected once)"));
            }
        }
        for w in War::ALL {
            let c = self.wars.iter().filter(|d| d.id == *w).count();
            if c != 1 {
                p.push(format!("war {w} appears {c} times (expected once)"));
            }
        }
        for w in &self.wars {
            if w.nations.is_empty() {
                p.push(format!("war {} has no nations", w.id));
            }
            let mut seen_nations = BTreeSet::new();
            for nl in &w.nations {
                if !seen_nations.insert(nl.nation) {
                    p.push(format!("war {}: nation {} listed twice", w.id, nl.nation));
                }
                let mut ids = BTreeSet::new();
                for e in &nl.entries {
                    if !ids.insert(e.id.as_str()) {
                        p.push(format!(
                            "{} {}: entry {} listed twice",
                            w.id, nl.nation, e.id
                        ));
                    }
                    self.check_entry(w.id, nl.nation, e, &mut p);
                }
            }
        }

        if p.is_empty() {
            Ok(())
        } else {
            Err(CatalogueError::Inconsistent { problems: p })
        }
    }

    fn check_entry(&self, war: War, nation: Nation, e: &HistoricalEntry, p: &mut Vec<String>) {
        let at = format!("{war} {nation} entry {}", e.id);
        for u in &e.upgrades {
            match self.upgrade(*u) {
                Some(d) if !d.types.contains(&e.element_type) => p.push(format!(
                    "{at}: upgrade {u} is not allowed for {}",
                    e.element_type
                )),
                None => p.push(format!("{at}: unknown upgrade {u}")),
                _ => {}
            }
        }
        if e.upgrades.len() > usize::from(self.max_upgrades_per_element) {
            let allowed = self.upgrade_combinations.iter().any(|c| {
                c.upgrades.len() == e.upgrades.len()
                    && e.upgrades.iter().all(|u| c.upgrades.contains(u))
            });
            if !allowed {
                p.push(format!(
                    "{at}: suggests more upgrades than an element may carry"
                ));
            }
        }
        match (&e.gun_classes, e.element_type) {
            (Some(guns), ElementType::Artillery) => {
                for g in guns {
                    let ok = self
                        .element_type(ElementType::Artillery)
                        .map(|t| t.weapons.contains(g))
                        .unwrap_or(false);
                    if !ok {
                        p.push(format!("{at}: {g} is not an artillery gun class"));
                    }
                    let war_ok = self
                        .weapon(*g)
                        .and_then(|w| w.wars.as_ref())
                        .map(|wars| wars.contains(&war))
                        .unwrap_or(true);
                    if !war_ok {
                        p.push(format!("{at}: {g} cannot be fielded in {war}"));
                    }
                }
            }
            (None, ElementType::Artillery) => {
                p.push(format!("{at}: artillery entry lists no gun classes"))
            }
            (Some(_), _) => p.push(format!("{at}: gun classes on a non-artillery entry")),
            (None, _) => {}
        }
    }
}

/// Each id of `all` must have exactly one row in `rows`.
fn rows_once<Id: Copy + PartialEq + std::fmt::Display>(
    table: &str,
    all: &[Id],
    rows: &[Id],
    p: &mut Vec<String>,
) {
    for id in all {
        match rows.iter().filter(|r| *r == id).count() {
            1 => {}
            0 => p.push(format!(
                "{table} {id}, which the combat code uses, has no row"
            )),
            n => p.push(format!("{table} {id} has {n} rows (expected one)")),
        }
    }
}
