//! The *All the King's Men* catalogue: every number of the book's tables (unit make-up, movement,
//! ranges, dice per figure, colours, bonus dice, random force tables, guns, qualities) and the
//! three sample battles, read from `data/` and checked when Muster starts. Rules code reads
//! numbers from here, never from literals, so cards, odds and the simulator agree.
//!
//! The cells the source lost are restored as Muster reads them and marked so (`restored`):
//! cavalry moves K-1, the artillery band K-2, the heavy-gun band K-3, the general rating chart
//! K-4, the cavalry-against-infantry footnote K-5.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::roster::{parse_roster, RosterDoc};
use super::types::{
    AdvancedRule, Colour, CpRule, FireClass, Gun, MeleeTarget, Period, Quality, UnitType,
};

const META_JSON: &str = include_str!("data/meta.json");
const TABLES_JSON: &str = include_str!("data/tables.json");
const SCENARIOS_JSON: &str = include_str!("data/scenarios.json");

/// The sample battles' forces, by roster id.
pub const SCENARIO_ROSTERS: [(&str, &str); 6] = [
    (
        "monmouth_1778_americans",
        include_str!("data/examples/monmouth_1778_americans.json"),
    ),
    (
        "monmouth_1778_british",
        include_str!("data/examples/monmouth_1778_british.json"),
    ),
    (
        "cowpens_1781_americans",
        include_str!("data/examples/cowpens_1781_americans.json"),
    ),
    (
        "cowpens_1781_british",
        include_str!("data/examples/cowpens_1781_british.json"),
    ),
    (
        "north_point_1814_americans",
        include_str!("data/examples/north_point_1814_americans.json"),
    ),
    (
        "north_point_1814_british",
        include_str!("data/examples/north_point_1814_british.json"),
    ),
];

/// A data file that does not read or does not agree with itself or the others.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("All the King's Men catalogue, {file}: {message}")]
pub struct CatalogueError {
    pub file: &'static str,
    pub message: String,
}

fn bad(file: &'static str, message: impl Into<String>) -> CatalogueError {
    CatalogueError {
        file,
        message: message.into(),
    }
}

fn parse_file<T: for<'de> Deserialize<'de>>(
    file: &'static str,
    text: &str,
) -> Result<T, CatalogueError> {
    serde_json::from_str(text).map_err(|e| bad(file, e.to_string()))
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Meta {
    pub system: String,
    pub version: String,
    pub source: String,
}

/// A dice colour and the lowest face that succeeds with it.
#[derive(Debug, Clone, Copy, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ColourRow {
    pub id: Colour,
    pub succeeds_on: u8,
}

/// Maximum move in inches by formation; `None` where the unit never takes it.
#[derive(Debug, Clone, Copy, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Moves {
    pub line: Option<u32>,
    pub column: Option<u32>,
    pub loose: Option<u32>,
}

/// One unit type's make-up and abilities (spec 1.1, 1.5–1.7).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct UnitTypeRow {
    pub id: UnitType,
    pub name: String,
    /// What its rank and file are called: privates, troopers, gunners, warriors.
    pub men: String,
    /// Rank and file at the start (Indians: the most a war party may have).
    pub rank_and_file: u32,
    /// Collapses when rank and file fall to this or fewer (Indians: half the starting party).
    pub break_point: u32,
    /// The optional rule that brings the type into the game, if any.
    pub rule: Option<AdvancedRule>,
    /// Its row and column in the fire table.
    pub fire_class: FireClass,
    /// Its column in the melee table when attacked.
    pub melee_defends_as: MeleeTarget,
    /// Always in loose order (+2 defence dice under fire).
    pub loose: bool,
    pub can_fire: bool,
    /// Attack dice per firing figure (artillery: at long range).
    pub fire_dice: u32,
    /// Fire range in inches (artillery: with a medium gun).
    pub range: u32,
    pub can_attack_in_melee: bool,
    #[serde(rename = "move")]
    pub moves: Moves,
    pub cp: CpRule,
    /// The ruling that restores or decides a cell of this row.
    pub restored: Option<String>,
}

/// How big a war party is (period rule).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct IndianSize {
    pub min: u32,
    pub max: u32,
    pub dice: String,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FireDice {
    pub defender_dice_per_figure: u32,
    /// Artillery within this many inches rolls `artillery_close_dice` per gunner.
    pub artillery_close_range: u32,
    pub artillery_close_dice: u32,
}

/// A gun size (advanced "artillery sizes"); a battery without one fires as medium.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct GunRow {
    pub id: Gun,
    pub name: String,
    pub foot_range: u32,
    /// `None`: horse artillery may not have it.
    pub horse_range: Option<u32>,
    /// Dice per gunner within the close range.
    pub close_dice: u32,
    /// Extra dice within the close range (heavy guns, K-20).
    pub close_bonus: u32,
    pub move_and_fire: bool,
    /// Fire dice never better than this (rockets, K-21).
    pub colour_cap: Option<Colour>,
}

/// One attacker row of the melee table: dice per figure against each defender column;
/// `None`: may not attack it.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MeleeRow {
    pub attacker: UnitType,
    pub infantry: Option<u32>,
    pub cavalry: Option<u32>,
    pub skirmishers: Option<u32>,
    pub foot_artillery: Option<u32>,
    pub horse_artillery: Option<u32>,
}

impl MeleeRow {
    pub fn against(&self, target: MeleeTarget) -> Option<u32> {
        match target {
            MeleeTarget::Infantry => self.infantry,
            MeleeTarget::Cavalry => self.cavalry,
            MeleeTarget::Skirmishers => self.skirmishers,
            MeleeTarget::FootArtillery => self.foot_artillery,
            MeleeTarget::HorseArtillery => self.horse_artillery,
        }
    }
}

/// One bonus-dice entry (K-23).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct BonusRow {
    pub id: String,
    /// `attacker`, `defender` or `either`.
    pub side: String,
    pub dice: u32,
    /// `fire`, `melee` or `both`.
    pub applies: String,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Movement {
    pub general_move: u32,
    pub road_multiplier_tenths: u32,
    pub escape_loser: u32,
    pub escape_tie: u32,
    pub rally_escape: u32,
    pub skirmisher_spread: u32,
    pub artillery_crew_spread: u32,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Command {
    pub default_radius: u32,
    pub smallest_advised_radius: u32,
    pub largest_lieutenant_cp: u32,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ArmySizes {
    /// Muster's end of an undecided battle (K-14).
    pub turn_limit: u32,
    pub small: u32,
    pub medium: u32,
    pub large: u32,
}

/// One band of a random table: a roll from `from` to `to` gives `result`.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Band {
    pub from: u8,
    pub to: u8,
    pub result: String,
    pub restored: Option<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RandomTables {
    /// 2d6 per unit.
    pub unit_type: Vec<Band>,
    /// 1d6 when the unit is artillery.
    pub artillery_kind: Vec<Band>,
    /// 2d6 (artillery sizes).
    pub artillery_size: Vec<Band>,
    /// 1d6 (elite and militia units).
    pub unit_quality: Vec<Band>,
    /// 1d6 per general (K-4).
    pub general_rating: Vec<Band>,
}

/// The band a roll falls in.
pub fn band(table: &[Band], roll: u8) -> Option<&Band> {
    table.iter().find(|b| (b.from..=b.to).contains(&roll))
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct QualityRow {
    pub id: Quality,
    pub name: String,
    /// Colour steps added to defence rolls (negative = better; K-6).
    pub shift: i32,
    /// The book's words read as this quality (K-7).
    pub words: Vec<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SpecialCard {
    pub card: String,
    pub effect: String,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct AdvancedRuleRow {
    pub id: AdvancedRule,
    pub name: String,
    pub gist: String,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PeriodRow {
    pub id: Period,
    pub name: String,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LeaderLoss {
    pub ensign_on: u8,
    pub officer_on: u8,
}

/// `data/tables.json`.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Tables {
    pub colours: Vec<ColourRow>,
    pub unit_types: Vec<UnitTypeRow>,
    pub woodland_indians_size: IndianSize,
    pub fire_dice: FireDice,
    pub guns: Vec<GunRow>,
    pub melee_dice: Vec<MeleeRow>,
    pub bonus_dice: Vec<BonusRow>,
    pub movement: Movement,
    pub command: Command,
    pub army: ArmySizes,
    pub random_tables: RandomTables,
    pub qualities: Vec<QualityRow>,
    pub special_cards: Vec<SpecialCard>,
    pub advanced_rules: Vec<AdvancedRuleRow>,
    pub periods: Vec<PeriodRow>,
    pub general_casualty_on: u8,
    pub leader_loss: LeaderLoss,
}

/// A sample battle: its two forces, set-up and victory in Muster's words (spec 2.5, K-39–K-41).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub id: String,
    pub name: String,
    /// Side (`americans`, `british`) → roster id of its force.
    pub sides: BTreeMap<String, String>,
    /// The side that attacks.
    pub first_side: String,
    pub players: String,
    /// The last turn played.
    pub turn_limit: u32,
    pub setup: Vec<String>,
    pub victory: Vec<String>,
    pub rulings: Vec<String>,
}

/// Every table of the game, checked.
#[derive(Debug, Clone, Serialize)]
pub struct Catalogue {
    pub meta: Meta,
    #[serde(flatten)]
    pub tables: Tables,
    pub scenarios: Vec<Scenario>,
}

impl Catalogue {
    /// The built-in data, parsed and checked for consistency.
    pub fn builtin() -> Result<Catalogue, CatalogueError> {
        let meta: Meta = parse_file("meta.json", META_JSON)?;
        if meta.system != "atkm" {
            return Err(bad("meta.json", "the system must be 'atkm'"));
        }
        let tables: Tables = parse_file("tables.json", TABLES_JSON)?;
        let scenarios: Vec<Scenario> = parse_file("scenarios.json", SCENARIOS_JSON)?;
        let cat = Catalogue {
            meta,
            tables,
            scenarios,
        };
        cat.check()?;
        Ok(cat)
    }

    pub fn version(&self) -> &str {
        &self.meta.version
    }

    /// The row of a unit type (every type has one: checked at start-up).
    pub fn unit(&self, t: UnitType) -> &UnitTypeRow {
        self.tables
            .unit_types
            .iter()
            .find(|r| r.id == t)
            .unwrap_or(&self.tables.unit_types[0])
    }

    pub fn gun(&self, g: Gun) -> &GunRow {
        self.tables
            .guns
            .iter()
            .find(|r| r.id == g)
            .unwrap_or(&self.tables.guns[0])
    }

    /// The lowest face that succeeds with dice of this colour.
    pub fn succeeds_on(&self, c: Colour) -> u8 {
        self.tables
            .colours
            .iter()
            .find(|r| r.id == c)
            .map_or(6, |r| r.succeeds_on)
    }

    /// Dice per figure when `attacker` attacks a unit of column `target` in melee; `None`: it
    /// may not.
    pub fn melee_dice(&self, attacker: UnitType, target: MeleeTarget) -> Option<u32> {
        self.tables
            .melee_dice
            .iter()
            .find(|r| r.attacker == attacker)
            .and_then(|r| r.against(target))
    }

    /// Dice of a bonus (K-23); 0 for one the table lacks.
    pub fn bonus(&self, id: &str) -> u32 {
        self.tables
            .bonus_dice
            .iter()
            .find(|b| b.id == id)
            .map_or(0, |b| b.dice)
    }

    pub fn quality(&self, q: Quality) -> &QualityRow {
        self.tables
            .qualities
            .iter()
            .find(|r| r.id == q)
            .unwrap_or(&self.tables.qualities[0])
    }

    /// The quality a word of the book stands for (K-7).
    pub fn quality_for_word(&self, word: &str) -> Option<Quality> {
        let w = word.trim().to_lowercase();
        self.tables
            .qualities
            .iter()
            .find(|q| q.words.contains(&w))
            .map(|q| q.id)
    }

    pub fn scenario(&self, id: &str) -> Option<&Scenario> {
        self.scenarios.iter().find(|s| s.id == id)
    }

    /// The rule a gist describes, for the quick reference.
    pub fn advanced_rule(&self, r: AdvancedRule) -> Option<&AdvancedRuleRow> {
        self.tables.advanced_rules.iter().find(|x| x.id == r)
    }

    /// A unit type's range with a gun (artillery), in inches; `None` when it cannot fire.
    pub fn range(&self, t: UnitType, gun: Option<Gun>) -> Option<u32> {
        let row = self.unit(t);
        if !row.can_fire {
            return None;
        }
        match (t, gun) {
            (UnitType::FootArtillery, Some(g)) => Some(self.gun(g).foot_range),
            (UnitType::HorseArtillery, Some(g)) => self.gun(g).horse_range,
            _ => Some(row.range),
        }
    }

    fn check(&self) -> Result<(), CatalogueError> {
        let t = &self.tables;
        let f = "tables.json";
        // Colours: green, yellow, red, each harder than the last.
        let order: Vec<Colour> = t.colours.iter().map(|c| c.id).collect();
        if order != Colour::ALL {
            return Err(bad(f, "colours must be green, yellow, red in that order"));
        }
        if t.colours
            .windows(2)
            .any(|w| w[0].succeeds_on >= w[1].succeeds_on)
            || t.colours.iter().any(|c| !(1..=6).contains(&c.succeeds_on))
        {
            return Err(bad(f, "each colour must succeed on a higher face, 1 to 6"));
        }
        for ty in UnitType::ALL {
            let n = t.unit_types.iter().filter(|r| r.id == *ty).count();
            if n != 1 {
                return Err(bad(f, format!("unit type {ty} must have one row, has {n}")));
            }
        }
        for r in &t.unit_types {
            if r.break_point >= r.rank_and_file {
                return Err(bad(
                    f,
                    format!("{}: break point not below the strength", r.id),
                ));
            }
            if r.can_fire != (r.fire_dice > 0 && r.range > 0) {
                return Err(bad(f, format!("{}: fire dice and range disagree", r.id)));
            }
            if r.can_attack_in_melee != t.melee_dice.iter().any(|m| m.attacker == r.id) {
                return Err(bad(f, format!("{}: melee row and ability disagree", r.id)));
            }
            let moves = [r.moves.line, r.moves.column, r.moves.loose];
            if moves.iter().all(Option::is_none) {
                return Err(bad(f, format!("{}: no move in any formation", r.id)));
            }
        }
        let ind = &t.woodland_indians_size;
        if ind.min == 0 || ind.min > ind.max {
            return Err(bad(f, "woodland Indian sizes must run upwards from 1"));
        }
        for g in Gun::ALL {
            if !t.guns.iter().any(|r| r.id == *g) {
                return Err(bad(f, format!("gun {g} has no row")));
            }
        }
        if t.guns
            .iter()
            .any(|g| g.id == Gun::Heavy && g.horse_range.is_some())
        {
            return Err(bad(f, "horse artillery never has a heavy gun"));
        }
        for q in Quality::ALL {
            if t.qualities.iter().filter(|r| r.id == *q).count() != 1 {
                return Err(bad(f, format!("quality {q} must have one row")));
            }
        }
        for r in AdvancedRule::ALL {
            if !t.advanced_rules.iter().any(|x| x.id == *r) {
                return Err(bad(f, format!("advanced rule {r} has no row")));
            }
        }
        for p in Period::ALL {
            if !t.periods.iter().any(|x| x.id == *p) {
                return Err(bad(f, format!("period {p} has no row")));
            }
        }
        let needed = [
            "cavalry_under_fire",
            "loose_under_fire",
            "light_cover",
            "heavy_cover",
            "heavy_cover_vs_heavy_gun",
            "light_cover_vs_heavy_gun",
            "high_ground",
            "flank",
            "rear",
            "mob",
            "heavy_gun_close",
            "enfilade",
            "repeating_rifles",
            "scrap_ammunition",
            "indian_melee",
        ];
        let ids: BTreeSet<&str> = t.bonus_dice.iter().map(|b| b.id.as_str()).collect();
        for n in needed {
            if !ids.contains(n) {
                return Err(bad(f, format!("bonus dice '{n}' missing")));
            }
        }
        // Random tables: each covers its dice exactly once and names what exists.
        let rt = &t.random_tables;
        covers(&rt.unit_type, 2, 12, "unit_type", |r| {
            matches!(r, "infantry" | "cavalry" | "skirmishers" | "artillery")
        })?;
        covers(&rt.artillery_kind, 1, 6, "artillery_kind", |r| {
            matches!(r, "foot_artillery" | "horse_artillery")
        })?;
        covers(&rt.artillery_size, 2, 12, "artillery_size", |r| {
            Gun::from_id(r).is_some()
        })?;
        covers(&rt.unit_quality, 1, 6, "unit_quality", |r| {
            Quality::from_id(r).is_some()
        })?;
        covers(&rt.general_rating, 1, 6, "general_rating", |r| {
            matches!(r, "1" | "2" | "3")
        })?;
        // Scenarios: each names two forces that read and pass the check.
        let rosters = scenario_rosters();
        if rosters.len() != SCENARIO_ROSTERS.len() {
            return Err(bad("examples", "a sample battle's force does not read"));
        }
        for s in &self.scenarios {
            if s.sides.len() != 2 || !s.sides.contains_key(&s.first_side) {
                return Err(bad(
                    "scenarios.json",
                    format!("{}: two sides, one of them first", s.id),
                ));
            }
            for roster_id in s.sides.values() {
                let Some(r) = rosters.iter().find(|r| r.id.as_deref() == Some(roster_id)) else {
                    return Err(bad(
                        "scenarios.json",
                        format!("{}: no force {roster_id}", s.id),
                    ));
                };
                if r.scenario.as_deref() != Some(s.id.as_str()) {
                    return Err(bad(
                        "scenarios.json",
                        format!("{roster_id}: wrong scenario"),
                    ));
                }
            }
        }
        Ok(())
    }
}

fn covers(
    table: &[Band],
    lo: u8,
    hi: u8,
    name: &str,
    known: impl Fn(&str) -> bool,
) -> Result<(), CatalogueError> {
    for roll in lo..=hi {
        let n = table
            .iter()
            .filter(|b| (b.from..=b.to).contains(&roll))
            .count();
        if n != 1 {
            return Err(bad(
                "tables.json",
                format!("random table {name}: roll {roll} falls in {n} bands"),
            ));
        }
    }
    if table
        .iter()
        .any(|b| b.from < lo || b.to > hi || b.from > b.to)
    {
        return Err(bad(
            "tables.json",
            format!("random table {name}: a band out of range"),
        ));
    }
    if let Some(b) = table.iter().find(|b| !known(&b.result)) {
        return Err(bad(
            "tables.json",
            format!("random table {name}: unknown result '{}'", b.result),
        ));
    }
    Ok(())
}

/// The six forces of the sample battles, read.
pub fn scenario_rosters() -> Vec<RosterDoc> {
    SCENARIO_ROSTERS
        .iter()
        .filter_map(|(_, text)| parse_roster(text).ok())
        .collect()
}
