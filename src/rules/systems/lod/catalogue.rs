//! The *Liberty or Death!* catalogue: every number of the unit sizes, combat dice, movement,
//! qualities, weapons, special rules, army lists and tables, read from the data files in
//! `data/` and checked when Muster starts. Rules code reads numbers from here, never from
//! literals, so the cards, the quick reference, the odds and the simulator agree.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::types::{
    ArmyList, EntryOption, HalfDice, HitState, Kind, MoraleResult, MoraleTrigger, Order, Quality,
    RangeBand, SpecialRule, Weapon,
};

const META_JSON: &str = include_str!("data/meta.json");
const UNITS_JSON: &str = include_str!("data/units.json");
const LISTS_JSON: &str = include_str!("data/lists.json");
const TABLES_JSON: &str = include_str!("data/tables.json");

/// A data file that does not read or does not agree with itself or the others.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("Liberty or Death! catalogue, {file}: {message}")]
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

/// A dice expression of the tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DiceRoll {
    D2,
    D3,
    D6,
    #[serde(rename = "d3_plus_1")]
    D3Plus1,
    #[serde(rename = "d6_plus_1")]
    D6Plus1,
    #[serde(rename = "minus_d3_plus_1")]
    MinusD3Plus1,
    #[serde(rename = "two_d3")]
    TwoD3,
}

impl DiceRoll {
    /// Each possible value with its chance out of the total weight (the value and its weight).
    pub fn outcomes(self) -> &'static [(i32, u32)] {
        match self {
            DiceRoll::D2 => &[(1, 1), (2, 1)],
            DiceRoll::D3 => &[(1, 1), (2, 1), (3, 1)],
            DiceRoll::D6 => &[(1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1)],
            DiceRoll::D3Plus1 => &[(2, 1), (3, 1), (4, 1)],
            DiceRoll::D6Plus1 => &[(2, 1), (3, 1), (4, 1), (5, 1), (6, 1), (7, 1)],
            DiceRoll::MinusD3Plus1 => &[(-2, 1), (-3, 1), (-4, 1)],
            DiceRoll::TwoD3 => &[(2, 1), (3, 2), (4, 3), (5, 2), (6, 1)],
        }
    }

    /// As the tables write it.
    pub fn label(self) -> &'static str {
        match self {
            DiceRoll::D2 => "D2",
            DiceRoll::D3 => "D3",
            DiceRoll::D6 => "D6",
            DiceRoll::D3Plus1 => "D3+1",
            DiceRoll::D6Plus1 => "D6+1",
            DiceRoll::MinusD3Plus1 => "−(D3+1)",
            DiceRoll::TwoD3 => "2D3",
        }
    }
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Meta {
    pub system: String,
    pub version: String,
    pub source: String,
}

/// One row of the unit sizes table: a unit of `bases` bases and its morale values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SizeRow {
    /// `smaller`, `standard` or `larger`.
    pub row: SizeName,
    pub bases: u32,
    pub worn: u32,
    pub shaken: u32,
    pub auto_broken: u32,
}

/// The three rows of the unit sizes table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SizeName {
    Smaller,
    Standard,
    Larger,
}

impl SizeRow {
    /// The hit-state of a unit of this size carrying `hits` (L-24: BROKEN at AUTO BROKEN).
    pub fn state(&self, hits: u32) -> HitState {
        if hits >= self.auto_broken {
            HitState::Broken
        } else if hits >= self.shaken {
            HitState::Shaken
        } else if hits >= self.worn {
            HitState::Worn
        } else {
            HitState::Steady
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct DiceFile {
    shooting: f64,
    melee: f64,
    supporting_melee: f64,
}

/// A kind's combat dice per base, in halves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct CombatDice {
    pub shooting: HalfDice,
    pub melee: HalfDice,
    pub supporting_melee: HalfDice,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct KindFile {
    id: Kind,
    name: String,
    base_mm: [u32; 2],
    figures_per_base: u32,
    figure_word: String,
    sizes: Vec<SizeRow>,
    dice: DiceFile,
    foot: bool,
    mounted: bool,
}

/// A unit kind: its bases, sizes and dice.
#[derive(Debug, Clone, Serialize)]
pub struct KindData {
    pub id: Kind,
    pub name: String,
    /// Width × depth in millimetres.
    pub base_mm: [u32; 2],
    pub figures_per_base: u32,
    /// `figures` or `guns`.
    pub figure_word: String,
    pub sizes: Vec<SizeRow>,
    pub dice: CombatDice,
    /// Counts as infantry in melee modifiers (L-25: every foot unit).
    pub foot: bool,
    /// Counts as cavalry in melee modifiers (L-25: mounted cavalry only).
    pub mounted: bool,
}

/// What a unit does with difficult terrain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DifficultTerrain {
    NoRun,
    Ignore,
    NoRunHalfMove,
}

/// What a unit does at an obstacle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ObstacleRule {
    #[serde(rename = "minus_d3_plus_1")]
    MinusD3Plus1,
    NoMove,
}

/// One row of the movement table (inches).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MovementRow {
    pub kind: Kind,
    /// `any`, `mounted`, `dismounted`, `limbered` or `unlimbered`.
    pub formation: String,
    pub advance: u32,
    pub run: Option<u32>,
    /// Added to RUN (ADVANCE through difficult terrain) for CHARGE, ROUTE and PURSUIT moves.
    pub charge_bonus: DiceRoll,
    pub difficult: DifficultTerrain,
    pub obstacles: ObstacleRule,
    pub road: Option<DiceRoll>,
    pub march_column: Option<DiceRoll>,
}

/// The General's numbers.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct GeneralData {
    pub base_mm: [u32; 2],
    pub melee_dice: u32,
    pub lead_the_fight_dice: u32,
    pub command_range: u32,
    pub independent_range: u32,
    pub move_inches: u32,
    pub killed_on: Vec<u8>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct GeneralFile {
    base_mm: [u32; 2],
    melee_dice: u32,
    lead_the_fight_dice: u32,
    command_range: u32,
    independent_range: u32,
    #[serde(rename = "move")]
    move_inches: u32,
    killed_on: Vec<u8>,
}

/// A quality's to-hit numbers and how its test dice score.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct QualityData {
    pub id: Quality,
    pub name: String,
    pub shooting_to_hit: u8,
    pub melee_to_hit: u8,
    pub one_success: Vec<u8>,
    pub two_successes: Vec<u8>,
}

impl QualityData {
    /// Successes a test die showing `face` scores (UNRELIABLE: a 6 scores one).
    pub fn successes(&self, face: u8, unreliable: bool) -> u32 {
        if self.two_successes.contains(&face) {
            if unreliable {
                1
            } else {
                2
            }
        } else if self.one_success.contains(&face) {
            1
        } else {
            0
        }
    }
}

/// A weapon's range bands (inches, inclusive) and what each artillery hit becomes.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponData {
    pub id: Weapon,
    pub name: String,
    pub short: [u32; 2],
    pub effective: [u32; 2],
    pub long: [u32; 2],
    pub explodes: Option<DiceRoll>,
    pub artillery: bool,
}

impl WeaponData {
    /// The band of a range in whole inches (rounded down before, L-18); `None` beyond long
    /// range.
    pub fn band(&self, inches: u32) -> Option<RangeBand> {
        let within = |b: [u32; 2]| inches >= b[0] && inches <= b[1];
        if within(self.short) {
            Some(RangeBand::Short)
        } else if within(self.effective) {
            Some(RangeBand::Effective)
        } else if within(self.long) {
            Some(RangeBand::Long)
        } else {
            None
        }
    }

    pub fn max_range(&self) -> u32 {
        self.long[1]
    }
}

/// Canister: every gun at 0–10", each hit becoming 2D3 instead (L-20).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Canister {
    pub range: [u32; 2],
    pub explodes: DiceRoll,
}

/// A special rule and what it does, in Muster's words.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RuleData {
    pub id: SpecialRule,
    pub name: String,
    pub summary: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct UnitsFile {
    kinds: Vec<KindFile>,
    general: GeneralFile,
    movement: Vec<MovementRow>,
    qualities: Vec<QualityData>,
    weapons: Vec<WeaponData>,
    canister: Canister,
    special_rules: Vec<RuleData>,
}

/// One entry of an army list: everything about the unit but its size.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    pub id: String,
    pub name: String,
    pub kind: Kind,
    pub quality: Quality,
    /// The base counts the entry may be fielded at (its SIZE column).
    pub bases: Vec<u32>,
    pub weapon: Weapon,
    pub rules: Vec<SpecialRule>,
    #[serde(default)]
    pub options: Vec<EntryOption>,
}

impl Entry {
    pub fn has(&self, rule: SpecialRule) -> bool {
        self.rules.contains(&rule)
    }

    pub fn offers(&self, option: EntryOption) -> bool {
        self.options.contains(&option)
    }

    /// The base counts it comes in with the word: "1 base", "3 or 4 bases".
    pub fn bases_in_words(&self) -> String {
        let n = self.sizes_in_words();
        if self.bases == [1] {
            format!("{n} base")
        } else {
            format!("{n} bases")
        }
    }

    /// The base counts it comes in, for a list's label: "1 base", "3/4 bases".
    pub fn bases_label(&self) -> String {
        let all: Vec<String> = self.bases.iter().map(u32::to_string).collect();
        if self.bases == [1] {
            "1 base".into()
        } else {
            format!("{} bases", all.join("/"))
        }
    }

    /// The base counts it comes in, as a sentence says them: "3, 4 or 5".
    pub fn sizes_in_words(&self) -> String {
        let all: Vec<String> = self.bases.iter().map(u32::to_string).collect();
        match all.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => all.join(""),
        }
    }
}

/// An army list.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ListData {
    pub id: ArmyList,
    pub name: String,
    /// Lists whose entries a force of this list may field, each with a warning (L-49).
    pub allies: Vec<ArmyList>,
    pub entries: Vec<Entry>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct ListsFile {
    lists: Vec<ListData>,
}

/// An order test's need for one hit-state; `None` in [`OrderData`] means no test.
#[derive(Debug, Clone, Copy, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Need {
    pub need: u32,
}

/// A row of the ORDER table.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct OrderData {
    pub id: Order,
    pub name: String,
    pub steady: Option<Need>,
    pub worn: Option<Need>,
    pub shaken: Option<Need>,
    /// Graded by successes (CHARGE) rather than pass or fail.
    pub graded: bool,
    pub may_shoot: bool,
    /// `disordered` or `none`.
    pub on_failure: String,
    #[serde(default)]
    pub not_allowed_when: Vec<HitState>,
}

impl OrderData {
    /// The successes the test needs in `state`; `None` when the order needs no test.
    pub fn need(&self, state: HitState) -> Option<u32> {
        match state {
            HitState::Steady => self.steady,
            HitState::Worn => self.worn,
            HitState::Shaken => self.shaken,
            HitState::Broken => None,
        }
        .map(|n| n.need)
    }

    pub fn allowed(&self, state: HitState) -> bool {
        state != HitState::Broken && !self.not_allowed_when.contains(&state)
    }
}

/// How many successes make which CHARGE result.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ChargeGradeRow {
    pub successes: u32,
    pub grade: super::types::ChargeGrade,
}

/// A MORALE test's trigger and the successes it needs.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TriggerData {
    pub id: MoraleTrigger,
    pub name: String,
    pub need: u32,
    /// Read against the MELEE columns of the results table.
    pub melee: bool,
}

/// One hit-state's row of the MORALE results table.
#[derive(Debug, Clone, Copy, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MoraleRow {
    pub failed_melee: MoraleResult,
    pub failed_other: MoraleResult,
    pub passed_melee: MoraleResult,
    pub passed_other: MoraleResult,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MoraleResults {
    pub steady: MoraleRow,
    pub worn: MoraleRow,
    pub shaken: MoraleRow,
}

impl MoraleResults {
    /// The result of a test taken in `state` (after the hits that caused it).
    pub fn result(&self, state: HitState, melee: bool, passed: bool) -> MoraleResult {
        let row = match state {
            HitState::Steady => self.steady,
            HitState::Worn => self.worn,
            HitState::Shaken | HitState::Broken => self.shaken,
        };
        match (melee, passed) {
            (true, false) => row.failed_melee,
            (false, false) => row.failed_other,
            (true, true) => row.passed_melee,
            (false, true) => row.passed_other,
        }
    }
}

#[derive(Debug, Clone, Copy, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TestDice {
    pub steady: u32,
    pub worn: u32,
    pub shaken: u32,
}

impl TestDice {
    /// Test dice by hit-state before DRILLED or BRAVE (L-5: routing units too).
    pub fn of(&self, state: HitState) -> u32 {
        match state {
            HitState::Steady => self.steady,
            HitState::Worn => self.worn,
            HitState::Shaken | HitState::Broken => self.shaken,
        }
    }
}

#[derive(Debug, Clone, Copy, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct DisorderMarkers {
    pub own_turn: u32,
    pub enemy_turn: u32,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct ShootingModsFile {
    enfiladed: f64,
    short_range: f64,
    target_skirmishers_or_unlimbered_artillery: f64,
    shooter_worn: f64,
    long_range: f64,
    obscured: f64,
    cover: f64,
    shooter_shaken: f64,
    minimum_per_base: f64,
}

/// Shooting dice modifiers per firing base, in halves.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct ShootingModifiers {
    pub enfiladed: HalfDice,
    pub short_range: HalfDice,
    pub target_skirmishers_or_unlimbered_artillery: HalfDice,
    pub shooter_worn: HalfDice,
    pub long_range: HalfDice,
    pub obscured: HalfDice,
    pub cover: HalfDice,
    pub shooter_shaken: HalfDice,
    pub minimum_per_base: HalfDice,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct MeleeModsFile {
    charging: f64,
    against_rear: f64,
    against_flank: f64,
    cavalry_v_infantry_in_open: f64,
    enemy_defending_obstacle: f64,
    enemy_uphill: f64,
    disordered: f64,
    worn: f64,
    infantry_v_cavalry_in_open: f64,
    shaken: f64,
    minimum_per_base: f64,
}

/// Melee dice modifiers per direct base, in halves.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct MeleeModifiers {
    pub charging: HalfDice,
    pub against_rear: HalfDice,
    pub against_flank: HalfDice,
    pub cavalry_v_infantry_in_open: HalfDice,
    pub enemy_defending_obstacle: HalfDice,
    pub enemy_uphill: HalfDice,
    pub disordered: HalfDice,
    pub worn: HalfDice,
    pub infantry_v_cavalry_in_open: HalfDice,
    pub shaken: HalfDice,
    pub minimum_per_base: HalfDice,
}

#[derive(Debug, Clone, Copy, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ToHit {
    pub natural_miss: u8,
    pub natural_hit: u8,
    pub marksmen: i32,
    pub poorly_trained: i32,
}

/// Saving rolls needed on a D6 (a 1 always fails, a 6 always saves).
#[derive(Debug, Clone, Copy, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Saves {
    pub shooting: u8,
    pub fortified: u8,
    pub melee: u8,
}

#[derive(Debug, Clone, Copy, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MeleeScore {
    pub against_flank: u32,
    pub against_rear: u32,
    pub more_bases: u32,
}

/// Distances of the rules, in inches.
#[derive(Debug, Clone, Copy, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Distances {
    pub support: u32,
    pub steady_rule_support: u32,
    pub supporters_needed: u32,
    pub broken_friend: u32,
    pub proximity: u32,
    pub response_limit: u32,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CommandPoints {
    pub per_brigade: u32,
    pub c_in_c: DiceRoll,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ActionData {
    pub id: super::types::CommandAction,
    pub name: String,
    /// `command`, `shooting`, `melee` or `any`.
    pub phase: String,
    pub cost: u32,
    pub summary: String,
}

#[derive(Debug, Clone, Copy, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct VictoryPoints {
    pub broken: u32,
    pub shaken: u32,
    pub worn: u32,
    pub enemy_broke: u32,
}

#[derive(Debug, Clone, Copy, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct BandRow {
    /// The largest VP difference in the band; `None` for the last.
    pub up_to: Option<u32>,
    pub band: super::types::Band,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Victory {
    pub default_turns: u32,
    pub vp: VictoryPoints,
    pub bands: Vec<BandRow>,
}

impl Victory {
    /// The band of a VP difference (4.7).
    pub fn band(&self, difference: u32) -> super::types::Band {
        self.bands
            .iter()
            .find(|b| b.up_to.is_none_or(|max| difference <= max))
            .map_or(super::types::Band::Major, |b| b.band)
    }

    /// VPs a unit's end state is worth to the enemy (L-47).
    pub fn vp_for(&self, state: HitState) -> u32 {
        match state {
            HitState::Broken => self.vp.broken,
            HitState::Shaken => self.vp.shaken,
            HitState::Worn => self.vp.worn,
            HitState::Steady => 0,
        }
    }
}

#[derive(Debug, Clone, Copy, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Deployment {
    pub zone_depth: u32,
    pub gap: u32,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct TablesFile {
    test_dice: TestDice,
    orders: Vec<OrderData>,
    charge_grades: Vec<ChargeGradeRow>,
    morale_triggers: Vec<TriggerData>,
    morale_results: MoraleResults,
    disorder_markers: DisorderMarkers,
    shooting_modifiers: ShootingModsFile,
    melee_modifiers: MeleeModsFile,
    elite_rule_dice: u32,
    to_hit: ToHit,
    saves: Saves,
    melee_score: MeleeScore,
    pursuit_on: u8,
    breakthrough_on: u8,
    veterans_on: u8,
    distances: Distances,
    rally_recovers: DiceRoll,
    failed_rally_hits: DiceRoll,
    command_points: CommandPoints,
    command_actions: Vec<ActionData>,
    victory: Victory,
    deployment: Deployment,
}

/// The tables of the rules: orders, morale, modifiers, saves, scores, victory.
#[derive(Debug, Clone, Serialize)]
pub struct Tables {
    pub test_dice: TestDice,
    pub orders: Vec<OrderData>,
    pub charge_grades: Vec<ChargeGradeRow>,
    pub morale_triggers: Vec<TriggerData>,
    pub morale_results: MoraleResults,
    pub disorder_markers: DisorderMarkers,
    pub shooting_modifiers: ShootingModifiers,
    pub melee_modifiers: MeleeModifiers,
    pub elite_rule_dice: u32,
    pub to_hit: ToHit,
    pub saves: Saves,
    pub melee_score: MeleeScore,
    pub pursuit_on: u8,
    pub breakthrough_on: u8,
    pub veterans_on: u8,
    pub distances: Distances,
    pub rally_recovers: DiceRoll,
    pub failed_rally_hits: DiceRoll,
    pub command_points: CommandPoints,
    pub command_actions: Vec<ActionData>,
    pub victory: Victory,
    pub deployment: Deployment,
}

impl Tables {
    pub fn order(&self, order: Order) -> &OrderData {
        self.orders
            .iter()
            .find(|o| o.id == order)
            .unwrap_or(&self.orders[0])
    }

    pub fn trigger(&self, trigger: MoraleTrigger) -> &TriggerData {
        self.morale_triggers
            .iter()
            .find(|t| t.id == trigger)
            .unwrap_or(&self.morale_triggers[0])
    }

    /// The CHARGE result of a number of successes.
    pub fn charge_grade(&self, successes: u32) -> super::types::ChargeGrade {
        self.charge_grades
            .iter()
            .rev()
            .find(|g| successes >= g.successes)
            .map_or(super::types::ChargeGrade::Failed, |g| g.grade)
    }
}

/// The whole catalogue, checked.
#[derive(Debug, Clone, Serialize)]
pub struct Catalogue {
    pub meta: Meta,
    pub kinds: Vec<KindData>,
    pub general: GeneralData,
    pub movement: Vec<MovementRow>,
    pub qualities: Vec<QualityData>,
    pub weapons: Vec<WeaponData>,
    pub canister: Canister,
    pub special_rules: Vec<RuleData>,
    pub lists: Vec<ListData>,
    pub tables: Tables,
}

fn halves(file: &'static str, what: &str, dice: f64) -> Result<HalfDice, CatalogueError> {
    HalfDice::from_dice(dice).ok_or_else(|| {
        bad(
            file,
            format!("{what} is {dice}, not a multiple of half a die"),
        )
    })
}

impl Catalogue {
    /// The built-in data, parsed and checked.
    pub fn builtin() -> Result<Catalogue, CatalogueError> {
        let meta: Meta = parse_file("meta.json", META_JSON)?;
        let units: UnitsFile = parse_file("units.json", UNITS_JSON)?;
        let lists: ListsFile = parse_file("lists.json", LISTS_JSON)?;
        let tables: TablesFile = parse_file("tables.json", TABLES_JSON)?;

        let kinds = units
            .kinds
            .into_iter()
            .map(|k| {
                let dice = CombatDice {
                    shooting: halves("units.json", "shooting dice", k.dice.shooting)?,
                    melee: halves("units.json", "melee dice", k.dice.melee)?,
                    supporting_melee: halves(
                        "units.json",
                        "supporting melee dice",
                        k.dice.supporting_melee,
                    )?,
                };
                Ok(KindData {
                    id: k.id,
                    name: k.name,
                    base_mm: k.base_mm,
                    figures_per_base: k.figures_per_base,
                    figure_word: k.figure_word,
                    sizes: k.sizes,
                    dice,
                    foot: k.foot,
                    mounted: k.mounted,
                })
            })
            .collect::<Result<Vec<_>, CatalogueError>>()?;

        let s = &tables.shooting_modifiers;
        let f = "tables.json";
        let shooting_modifiers = ShootingModifiers {
            enfiladed: halves(f, "enfiladed", s.enfiladed)?,
            short_range: halves(f, "short range", s.short_range)?,
            target_skirmishers_or_unlimbered_artillery: halves(
                f,
                "target skirmishers",
                s.target_skirmishers_or_unlimbered_artillery,
            )?,
            shooter_worn: halves(f, "shooter worn", s.shooter_worn)?,
            long_range: halves(f, "long range", s.long_range)?,
            obscured: halves(f, "obscured", s.obscured)?,
            cover: halves(f, "cover", s.cover)?,
            shooter_shaken: halves(f, "shooter shaken", s.shooter_shaken)?,
            minimum_per_base: halves(f, "minimum", s.minimum_per_base)?,
        };
        let m = &tables.melee_modifiers;
        let melee_modifiers = MeleeModifiers {
            charging: halves(f, "charging", m.charging)?,
            against_rear: halves(f, "against rear", m.against_rear)?,
            against_flank: halves(f, "against flank", m.against_flank)?,
            cavalry_v_infantry_in_open: halves(
                f,
                "cavalry v infantry",
                m.cavalry_v_infantry_in_open,
            )?,
            enemy_defending_obstacle: halves(f, "obstacle", m.enemy_defending_obstacle)?,
            enemy_uphill: halves(f, "uphill", m.enemy_uphill)?,
            disordered: halves(f, "disordered", m.disordered)?,
            worn: halves(f, "worn", m.worn)?,
            infantry_v_cavalry_in_open: halves(
                f,
                "infantry v cavalry",
                m.infantry_v_cavalry_in_open,
            )?,
            shaken: halves(f, "shaken", m.shaken)?,
            minimum_per_base: halves(f, "minimum", m.minimum_per_base)?,
        };
        let g = units.general;
        let catalogue = Catalogue {
            meta,
            kinds,
            general: GeneralData {
                base_mm: g.base_mm,
                melee_dice: g.melee_dice,
                lead_the_fight_dice: g.lead_the_fight_dice,
                command_range: g.command_range,
                independent_range: g.independent_range,
                move_inches: g.move_inches,
                killed_on: g.killed_on,
            },
            movement: units.movement,
            qualities: units.qualities,
            weapons: units.weapons,
            canister: units.canister,
            special_rules: units.special_rules,
            lists: lists.lists,
            tables: Tables {
                test_dice: tables.test_dice,
                orders: tables.orders,
                charge_grades: tables.charge_grades,
                morale_triggers: tables.morale_triggers,
                morale_results: tables.morale_results,
                disorder_markers: tables.disorder_markers,
                shooting_modifiers,
                melee_modifiers,
                elite_rule_dice: tables.elite_rule_dice,
                to_hit: tables.to_hit,
                saves: tables.saves,
                melee_score: tables.melee_score,
                pursuit_on: tables.pursuit_on,
                breakthrough_on: tables.breakthrough_on,
                veterans_on: tables.veterans_on,
                distances: tables.distances,
                rally_recovers: tables.rally_recovers,
                failed_rally_hits: tables.failed_rally_hits,
                command_points: tables.command_points,
                command_actions: tables.command_actions,
                victory: tables.victory,
                deployment: tables.deployment,
            },
        };
        catalogue.check()?;
        Ok(catalogue)
    }

    /// Every cross-check of the data: each vocabulary fully described once, every size row
    /// with SHAKEN = 2 × WORN and AUTO BROKEN = 3 × WORN, every entry's sizes in its kind's
    /// table and every option where the rules allow it (L-50).
    fn check(&self) -> Result<(), CatalogueError> {
        fn each_once<T: Ord + Copy + std::fmt::Debug>(
            file: &'static str,
            what: &str,
            all: &[T],
            have: impl Iterator<Item = T>,
        ) -> Result<(), CatalogueError> {
            let mut seen = BTreeSet::new();
            for id in have {
                if !seen.insert(id) {
                    return Err(bad(file, format!("{what} {id:?} is described twice")));
                }
            }
            if let Some(missing) = all.iter().find(|id| !seen.contains(id)) {
                return Err(bad(file, format!("{what} {missing:?} is not described")));
            }
            Ok(())
        }
        if self.meta.system != "lod" {
            return Err(bad("meta.json", "the system is not lod"));
        }
        each_once(
            "units.json",
            "kind",
            Kind::ALL,
            self.kinds.iter().map(|k| k.id),
        )?;
        each_once(
            "units.json",
            "quality",
            Quality::ALL,
            self.qualities.iter().map(|q| q.id),
        )?;
        each_once(
            "units.json",
            "weapon",
            Weapon::ALL,
            self.weapons.iter().map(|w| w.id),
        )?;
        each_once(
            "units.json",
            "special rule",
            SpecialRule::ALL,
            self.special_rules.iter().map(|r| r.id),
        )?;
        each_once(
            "lists.json",
            "army list",
            ArmyList::ALL,
            self.lists.iter().map(|l| l.id),
        )?;
        each_once(
            "tables.json",
            "order",
            Order::ALL,
            self.tables.orders.iter().map(|o| o.id),
        )?;
        each_once(
            "tables.json",
            "morale trigger",
            MoraleTrigger::ALL,
            self.tables.morale_triggers.iter().map(|t| t.id),
        )?;
        each_once(
            "tables.json",
            "command action",
            super::types::CommandAction::ALL,
            self.tables.command_actions.iter().map(|a| a.id),
        )?;
        for kind in &self.kinds {
            if kind.sizes.len() != 3 {
                return Err(bad(
                    "units.json",
                    format!("{} has {} size rows, not 3", kind.name, kind.sizes.len()),
                ));
            }
            for row in &kind.sizes {
                if row.shaken != 2 * row.worn || row.auto_broken != 3 * row.worn {
                    return Err(bad(
                        "units.json",
                        format!(
                            "{} of {} bases: {}/{}/{} is not W / 2W / 3W",
                            kind.name, row.bases, row.worn, row.shaken, row.auto_broken
                        ),
                    ));
                }
            }
            if !kind.sizes.windows(2).all(|w| w[0].bases < w[1].bases) {
                return Err(bad(
                    "units.json",
                    format!("{}: sizes out of order", kind.name),
                ));
            }
            if !self.movement.iter().any(|m| m.kind == kind.id) {
                return Err(bad(
                    "units.json",
                    format!("{} has no movement row", kind.name),
                ));
            }
        }
        for quality in &self.qualities {
            for face in quality.one_success.iter().chain(&quality.two_successes) {
                if !(1..=6).contains(face) {
                    return Err(bad("units.json", format!("{}: face {face}", quality.name)));
                }
            }
        }
        for list in &self.lists {
            let mut ids = BTreeSet::new();
            for entry in &list.entries {
                if !ids.insert(entry.id.as_str()) {
                    return Err(bad(
                        "lists.json",
                        format!("{} lists {} twice", list.name, entry.id),
                    ));
                }
                if entry.bases.is_empty() {
                    return Err(bad("lists.json", format!("{} has no size", entry.name)));
                }
                for bases in &entry.bases {
                    if self.size(entry.kind, *bases).is_none() {
                        return Err(bad(
                            "lists.json",
                            format!("{} at {bases} bases is no row of its kind", entry.name),
                        ));
                    }
                }
                if entry.offers(EntryOption::GrenadiersDetached) {
                    let fielded = entry.bases.iter().filter_map(|b| b.checked_sub(1));
                    if entry.kind != Kind::Infantry
                        || !fielded.clone().any(|b| self.size(entry.kind, b).is_some())
                    {
                        return Err(bad(
                            "lists.json",
                            format!("{} cannot detach its grenadiers (L-50)", entry.name),
                        ));
                    }
                }
                let weapon = self.weapon(entry.weapon);
                if weapon.artillery != (entry.kind == Kind::Artillery) {
                    return Err(bad(
                        "lists.json",
                        format!("{} carries {}", entry.name, weapon.name),
                    ));
                }
            }
            if list.allies.contains(&list.id) {
                return Err(bad(
                    "lists.json",
                    format!("{} allies with itself", list.name),
                ));
            }
        }
        let v = &self.tables.victory;
        if v.bands.last().is_none_or(|b| b.up_to.is_some()) {
            return Err(bad("tables.json", "the last victory band must be open"));
        }
        Ok(())
    }

    pub fn version(&self) -> &str {
        &self.meta.version
    }

    pub fn kind(&self, kind: Kind) -> &KindData {
        self.kinds
            .iter()
            .find(|k| k.id == kind)
            .unwrap_or(&self.kinds[0])
    }

    /// The row of the unit sizes table for `bases` bases of `kind`, if there is one.
    pub fn size(&self, kind: Kind, bases: u32) -> Option<&SizeRow> {
        self.kind(kind).sizes.iter().find(|r| r.bases == bases)
    }

    /// The next smaller row of the unit sizes table (the campaign's reductions, 3.4).
    pub fn smaller_size(&self, kind: Kind, bases: u32) -> Option<&SizeRow> {
        self.kind(kind).sizes.iter().rev().find(|r| r.bases < bases)
    }

    pub fn quality(&self, quality: Quality) -> &QualityData {
        self.qualities
            .iter()
            .find(|q| q.id == quality)
            .unwrap_or(&self.qualities[0])
    }

    pub fn weapon(&self, weapon: Weapon) -> &WeaponData {
        self.weapons
            .iter()
            .find(|w| w.id == weapon)
            .unwrap_or(&self.weapons[0])
    }

    pub fn rule(&self, rule: SpecialRule) -> &RuleData {
        self.special_rules
            .iter()
            .find(|r| r.id == rule)
            .unwrap_or(&self.special_rules[0])
    }

    pub fn list(&self, list: ArmyList) -> &ListData {
        self.lists
            .iter()
            .find(|l| l.id == list)
            .unwrap_or(&self.lists[0])
    }

    /// The movement row of a kind in a formation (`any` rows match every formation).
    pub fn movement(&self, kind: Kind, formation: &str) -> Option<&MovementRow> {
        self.movement
            .iter()
            .find(|m| m.kind == kind && (m.formation == formation || m.formation == "any"))
            .or_else(|| self.movement.iter().find(|m| m.kind == kind))
    }

    /// Finds a roster's `entry` reference for a force of `army`: an id of the army's own list,
    /// or `list.entry` for another list (L-49). Returns the list it was found in.
    pub fn find_entry(&self, army: ArmyList, reference: &str) -> Option<(ArmyList, &Entry)> {
        let (list, id) = match reference.split_once('.') {
            Some((list, id)) => (ArmyList::from_id(list)?, id),
            None => (army, reference),
        };
        self.list(list)
            .entries
            .iter()
            .find(|e| e.id == id)
            .map(|e| (list, e))
    }

    /// Whether any list has an entry of this id (an unknown entry rather than one of another
    /// list).
    pub fn entry_anywhere(&self, id: &str) -> Option<(ArmyList, &Entry)> {
        let id = id.split_once('.').map_or(id, |(_, id)| id);
        self.lists
            .iter()
            .find_map(|l| l.entries.iter().find(|e| e.id == id).map(|e| (l.id, e)))
    }

    /// The unit a list entry fields at `bases` (chosen before any detachment, L-50).
    pub fn profile(
        &self,
        list: ArmyList,
        entry: &Entry,
        bases: u32,
        grenadiers_detached: bool,
    ) -> Option<Profile> {
        let fielded = if grenadiers_detached {
            bases.checked_sub(1)?
        } else {
            bases
        };
        let size = *self.size(entry.kind, fielded)?;
        Some(Profile {
            list,
            entry: entry.clone(),
            chosen_bases: bases,
            grenadiers_detached,
            size,
        })
    }

    /// Every entry by list, for pages and the API.
    pub fn entries_by_list(&self) -> BTreeMap<ArmyList, &[Entry]> {
        self.lists
            .iter()
            .map(|l| (l.id, l.entries.as_slice()))
            .collect()
    }
}

/// A unit as fielded: its entry, the bases chosen and the row of the sizes table it uses.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Profile {
    pub list: ArmyList,
    pub entry: Entry,
    /// The SIZE option chosen, before a detachment.
    pub chosen_bases: u32,
    pub grenadiers_detached: bool,
    /// The row the unit fields (its bases and WORN / SHAKEN / AUTO BROKEN).
    pub size: SizeRow,
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id && self.kind == other.kind
    }
}

impl Profile {
    pub fn bases(&self) -> u32 {
        self.size.bases
    }

    pub fn has(&self, rule: SpecialRule) -> bool {
        self.entry.has(rule)
    }

    pub fn kind(&self) -> Kind {
        self.entry.kind
    }

    pub fn quality(&self) -> Quality {
        self.entry.quality
    }

    pub fn state(&self, hits: u32) -> HitState {
        self.size.state(hits)
    }

    /// "Continental Regiment, 4 bases (8/16/24)" (1.1).
    pub fn describe(&self) -> String {
        format!(
            "{}, {} base{} ({}/{}/{})",
            self.entry.name,
            self.size.bases,
            if self.size.bases == 1 { "" } else { "s" },
            self.size.worn,
            self.size.shaken,
            self.size.auto_broken
        )
    }
}
