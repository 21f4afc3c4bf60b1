//! The *AWI wargames rules* catalogue: every number of the spec's tables (troop types, grades,
//! movement, ranges, gun dice, the firing, melee, morale (reconstructed, W-7), uncontrolled,
//! entering-melee and losers modifiers, the result bands and Muster's victory points, W-31),
//! read from the data files in `data/` and checked when Muster starts. Rules code reads its
//! numbers from here, so the odds, the simulator, the cards and the quick reference agree.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::types::{Arms, Grade, GunClass, MoraleReason, MoveRow, RangeBand, TroopType};

const META_JSON: &str = include_str!("data/meta.json");
const TROOPS_JSON: &str = include_str!("data/troops.json");
const TABLES_JSON: &str = include_str!("data/tables.json");

/// A data file that does not read or does not agree with itself or the others.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("AWI wargames rules catalogue, {file}: {message}")]
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

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Meta {
    pub system: String,
    pub name: String,
    pub version: String,
    pub source: String,
}

/// How a troop type fires.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fires {
    /// 1D10 per base in the front rank (W-16).
    PerBase,
    /// 2D10 or 1D10 by gunners.
    Gun,
    /// Cavalry never fire (W-16).
    None,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TypeData {
    pub id: TroopType,
    /// Figures on one base (gunner figures count one each for a gun).
    pub figures_per_base: u32,
    pub base_mm: [u32; 2],
    /// Men a base represents (0 for a gun: each gunner stands for one piece).
    pub men_per_base: u32,
    pub close_order: bool,
    pub fires: Fires,
    /// The arms the type may carry (empty: none may be given).
    pub arms: Vec<Arms>,
    pub default_arms: Option<Arms>,
    pub formations: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum MoraleDice {
    #[serde(rename = "2d5")]
    TwoD5,
    #[serde(rename = "2d6")]
    TwoD6,
}

impl MoraleDice {
    /// Faces of one die (a D5 is ⌈D10/2⌉, W-6).
    pub fn sides(self) -> u32 {
        match self {
            MoraleDice::TwoD5 => 5,
            MoraleDice::TwoD6 => 6,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            MoraleDice::TwoD5 => "2D5",
            MoraleDice::TwoD6 => "2D6",
        }
    }
}

/// Every place a grade changes a number (spec 1.3).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GradeData {
    pub id: Grade,
    pub morale_dice: MoraleDice,
    pub morale: i32,
    pub uncontrolled: i32,
    /// Added to the score needed to hit when firing.
    pub firing_need: i32,
    pub entering: i32,
    /// Added to the score needed to hit in melee.
    pub melee_need: i32,
    pub losers: i32,
    pub change_formation: String,
    pub wheel: String,
    pub incline: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Gunners {
    pub min: u32,
    pub max: u32,
    pub default: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GunDice {
    pub gunners_min: u32,
    pub gunners_max: u32,
    pub dice: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WheelRow {
    pub who: String,
    pub speed: String,
}

/// A row of the movement table, inches per move (W-30).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveData {
    pub id: MoveRow,
    pub normal: u32,
    pub charge_bonus: Option<u32>,
    pub pursuit: Option<u32>,
    pub rout: Option<u32>,
}

impl MoveData {
    /// The charge move: normal plus the charge bonus (W-13).
    pub fn charge(&self) -> Option<u32> {
        self.charge_bonus.map(|b| self.normal + b)
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sideways {
    pub close_order_foot: String,
    pub skirmishers: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainRow {
    pub id: String,
    pub effect: String,
}

/// One band of a weapon: up to and including `to` inches (W-18).
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Band {
    pub band: RangeBand,
    pub to: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponData {
    pub id: Arms,
    pub bands: Vec<Band>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GunData {
    pub id: GunClass,
    /// Man-handled move, inches.
    pub man_handled: u32,
    pub bands: Vec<Band>,
}

/// The band a distance falls in: the first whose limit it does not pass (W-18).
pub fn band_at(bands: &[Band], inches: f64) -> Option<RangeBand> {
    if inches.is_nan() || inches < 0.0 {
        return None;
    }
    bands
        .iter()
        .find(|b| inches <= f64::from(b.to))
        .map(|b| b.band)
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Roll {
    pub dice: u32,
    pub sides: u32,
    pub plus: u32,
}

impl Roll {
    pub fn label(&self) -> String {
        format!("D{}+{}", self.sides, self.plus)
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Command {
    pub cinc_span: u32,
    pub brigadier_span: u32,
    pub ability_min: u32,
    pub ability_max: u32,
    /// A brigadier's ability when none is given (W-4).
    pub ability_roll: Roll,
    /// A campaign's new brigadier for one killed (W-29).
    pub replacement_roll: Roll,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TroopsFile {
    types: Vec<TypeData>,
    general_base_mm: u32,
    gunners: Gunners,
    gun_dice: Vec<GunDice>,
    grades: Vec<GradeData>,
    skirmisher_change_formation: String,
    wheel_by_kind: Vec<WheelRow>,
    movement: Vec<MoveData>,
    sideways: Sideways,
    terrain: Vec<TerrainRow>,
    halt_distance: u32,
    charge_stop: u32,
    weapons: Vec<WeaponData>,
    guns: Vec<GunData>,
    command: Command,
}

/// One modifier of a table: a value and its words, with the ruling that decided it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Modifier {
    pub id: String,
    pub value: i32,
    pub label: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ruling: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hit {
    pub base_need: i32,
    pub die: u32,
}

/// A result band of a modified total: `min..=max`, open where absent.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResultBand {
    pub id: String,
    pub min: Option<i32>,
    pub max: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meaning: Option<String>,
}

impl ResultBand {
    pub fn holds(&self, total: i32) -> bool {
        self.min.is_none_or(|m| total >= m) && self.max.is_none_or(|m| total <= m)
    }

    /// "5+", "3–4", "0 or less".
    pub fn range_label(&self) -> String {
        match (self.min, self.max) {
            (Some(a), None) => format!("{a}+"),
            (None, Some(b)) => format!("{b} or less"),
            (Some(a), Some(b)) => format!("{a}–{b}"),
            (None, None) => "any".into(),
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Meaning {
    pub reason: MoraleReason,
    pub ok: String,
    pub halt: String,
    pub halt_disordered: String,
    pub rout: String,
}

impl Meaning {
    pub fn of(&self, band: &str) -> &str {
        match band {
            "ok" => &self.ok,
            "halt" => &self.halt,
            "halt_disordered" => &self.halt_disordered,
            _ => &self.rout,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoraleTable {
    pub modifiers: Vec<Modifier>,
    pub bands: Vec<ResultBand>,
    pub meanings: Vec<Meaning>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UncontrolledTable {
    pub modifiers: Vec<Modifier>,
    pub bands: Vec<ResultBand>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnteringTable {
    pub modifiers: Vec<Modifier>,
    /// The modified D6 must be above this to go in.
    pub pass_above: i32,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FallBack {
    pub infantry: u32,
    pub skirmishers: u32,
    pub cavalry: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LosersTable {
    pub modifiers: Vec<Modifier>,
    /// A modified D10 of this or more breaks and routs.
    pub break_at: i32,
    pub fall_back: FallBack,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Brigadier {
    pub die: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawRow {
    pub pairing: String,
    pub effect: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ruling: Option<String>,
}

/// Muster's victory rules (W-31, W-32): not in the source.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Victory {
    pub turns: u32,
    pub moves_per_turn: u32,
    pub destroyed_or_routed_off: u32,
    pub routing_at_end: u32,
    pub at_or_below_half: u32,
    pub gun_lost: u32,
    pub enemy_broke: u32,
    pub draw_max: u32,
    pub minor_max: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TablesFile {
    hit: Hit,
    firing: Vec<Modifier>,
    melee: Vec<Modifier>,
    morale: MoraleTable,
    uncontrolled: UncontrolledTable,
    entering: EnteringTable,
    losers: LosersTable,
    brigadier: Brigadier,
    draws: Vec<DrawRow>,
    victory: Victory,
}

/// Every number of the rules, checked.
#[derive(Debug, Clone, Serialize)]
pub struct Catalogue {
    pub meta: Meta,
    pub types: Vec<TypeData>,
    pub general_base_mm: u32,
    pub gunners: Gunners,
    pub gun_dice: Vec<GunDice>,
    pub grades: Vec<GradeData>,
    pub skirmisher_change_formation: String,
    pub wheel_by_kind: Vec<WheelRow>,
    pub movement: Vec<MoveData>,
    pub sideways: Sideways,
    pub terrain: Vec<TerrainRow>,
    pub halt_distance: u32,
    pub charge_stop: u32,
    pub weapons: Vec<WeaponData>,
    pub guns: Vec<GunData>,
    pub command: Command,
    pub hit: Hit,
    pub firing: Vec<Modifier>,
    pub melee: Vec<Modifier>,
    pub morale: MoraleTable,
    pub uncontrolled: UncontrolledTable,
    pub entering: EnteringTable,
    pub losers: LosersTable,
    pub brigadier: Brigadier,
    pub draws: Vec<DrawRow>,
    pub victory: Victory,
}

/// The modifier ids code reads from each table; the data must give each exactly once.
pub const FIRING_IDS: &[&str] = &[
    "first_volley",
    "column_or_enfilade",
    "canister",
    "moving_and_firing",
    "militia",
    "skirmishers",
    "cover",
    "disordered",
    "long",
    "extreme",
    "strong_house",
];
pub const MELEE_IDS: &[&str] = &[
    "elite",
    "infantry_charging",
    "led_by_general",
    "cavalry_charging",
    "close_order_v_skirmishers",
    "v_unsupported_gunners",
    "militia",
    "rifle",
    "disordered",
    "infantry_v_obstacle",
    "cavalry_v_obstacle",
    "infantry_v_strong_house",
];
pub const MORALE_IDS: &[&str] = &[
    "rear_support",
    "elite",
    "brigadier_attached",
    "no_enemy_within_12",
    "defending_obstacle",
    "pursuing",
    "won_melee",
    "cinc_attached",
    "per_10pct_dead",
    "per_routing_same_class",
    "enemy_flank_rear",
    "raw",
    "lost_melee",
    "in_rout",
    "per_routing_higher_class",
    "militia",
];
pub const UNCONTROLLED_IDS: &[&str] = &[
    "per_10pct_dead",
    "raw",
    "disordered",
    "militia",
    "elite",
    "cavalry",
];
pub const ENTERING_IDS: &[&str] = &[
    "led_by_general",
    "elite",
    "defending_obstacle",
    "charging_flank_rear",
    "charging_unsupported_gunners",
    "charging_defended_obstacle",
    "per_figure_killed_by_fire",
    "per_20pct_dead",
    "disordered",
    "raw",
    "in_column",
    "militia",
    "cavalry_v_ordered_infantry",
    "charged_flank_rear",
    "unsupported_gunners",
];
pub const LOSERS_IDS: &[&str] = &[
    "per_casualty_difference",
    "raw",
    "militia",
    "infantry_charged",
    "cavalry_charged",
    "elite",
];
const MORALE_BANDS: &[&str] = &["ok", "halt", "halt_disordered", "rout"];
const UNCONTROLLED_BANDS: &[&str] = &["full", "half", "none"];

fn exactly<T: Ord + Copy + std::fmt::Debug>(
    file: &'static str,
    what: &str,
    all: &[T],
    have: impl Iterator<Item = T>,
) -> Result<(), CatalogueError> {
    let mut seen = BTreeSet::new();
    for id in have {
        if !all.contains(&id) {
            return Err(bad(
                file,
                format!("{what} {id:?} is not one the rules know"),
            ));
        }
        if !seen.insert(id) {
            return Err(bad(file, format!("{what} {id:?} is described twice")));
        }
    }
    if let Some(missing) = all.iter().find(|id| !seen.contains(id)) {
        return Err(bad(file, format!("{what} {missing:?} is not described")));
    }
    Ok(())
}

/// The bands must cover every total exactly once, from the top down.
fn check_bands(file: &'static str, what: &str, bands: &[ResultBand]) -> Result<(), CatalogueError> {
    for total in -30..=30 {
        let n = bands.iter().filter(|b| b.holds(total)).count();
        if n != 1 {
            return Err(bad(
                file,
                format!("{what}: a total of {total} falls in {n} bands"),
            ));
        }
    }
    Ok(())
}

fn check_ranges(file: &'static str, what: &str, bands: &[Band]) -> Result<(), CatalogueError> {
    let mut last = 0;
    for b in bands {
        if b.to <= last {
            return Err(bad(file, format!("{what}: the bands must grow")));
        }
        last = b.to;
    }
    if bands.is_empty() {
        return Err(bad(file, format!("{what}: no range bands")));
    }
    Ok(())
}

impl Catalogue {
    /// The built-in data, parsed and checked.
    pub fn builtin() -> Result<Catalogue, CatalogueError> {
        let meta: Meta = parse_file("meta.json", META_JSON)?;
        let t: TroopsFile = parse_file("troops.json", TROOPS_JSON)?;
        let x: TablesFile = parse_file("tables.json", TABLES_JSON)?;
        let cat = Catalogue {
            meta,
            types: t.types,
            general_base_mm: t.general_base_mm,
            gunners: t.gunners,
            gun_dice: t.gun_dice,
            grades: t.grades,
            skirmisher_change_formation: t.skirmisher_change_formation,
            wheel_by_kind: t.wheel_by_kind,
            movement: t.movement,
            sideways: t.sideways,
            terrain: t.terrain,
            halt_distance: t.halt_distance,
            charge_stop: t.charge_stop,
            weapons: t.weapons,
            guns: t.guns,
            command: t.command,
            hit: x.hit,
            firing: x.firing,
            melee: x.melee,
            morale: x.morale,
            uncontrolled: x.uncontrolled,
            entering: x.entering,
            losers: x.losers,
            brigadier: x.brigadier,
            draws: x.draws,
            victory: x.victory,
        };
        cat.check()?;
        Ok(cat)
    }

    fn check(&self) -> Result<(), CatalogueError> {
        const T: &str = "troops.json";
        const X: &str = "tables.json";
        if self.meta.system != "awi" {
            return Err(bad("meta.json", "the system is not awi"));
        }
        exactly(
            T,
            "troop type",
            TroopType::ALL,
            self.types.iter().map(|t| t.id),
        )?;
        exactly(T, "grade", Grade::ALL, self.grades.iter().map(|g| g.id))?;
        exactly(
            T,
            "movement row",
            MoveRow::ALL,
            self.movement.iter().map(|m| m.id),
        )?;
        exactly(T, "weapon", Arms::ALL, self.weapons.iter().map(|w| w.id))?;
        exactly(
            T,
            "gun class",
            GunClass::ALL,
            self.guns.iter().map(|g| g.id),
        )?;
        for ty in &self.types {
            if ty.figures_per_base == 0 {
                return Err(bad(T, format!("{} has no figures per base", ty.id)));
            }
            if ty.close_order != ty.id.close_order() {
                return Err(bad(
                    T,
                    format!("{}: close order disagrees with W-33", ty.id),
                ));
            }
            if ty.default_arms.is_some_and(|a| !ty.arms.contains(&a)) {
                return Err(bad(T, format!("{}: default arms not allowed", ty.id)));
            }
        }
        for w in &self.weapons {
            check_ranges(T, w.id.id(), &w.bands)?;
        }
        for g in &self.guns {
            check_ranges(T, g.id.id(), &g.bands)?;
        }
        if self.gunners.min == 0
            || self.gunners.min > self.gunners.max
            || !(self.gunners.min..=self.gunners.max).contains(&self.gunners.default)
        {
            return Err(bad(T, "gunners: min, default and max disagree"));
        }
        for n in self.gunners.min..=self.gunners.max {
            let rows = self
                .gun_dice
                .iter()
                .filter(|r| (r.gunners_min..=r.gunners_max).contains(&n))
                .count();
            if rows != 1 {
                return Err(bad(T, format!("gun dice: {n} gunners fall in {rows} rows")));
            }
        }
        let c = &self.command;
        if c.ability_min < 1 || c.ability_max > self.brigadier.die || c.ability_min > c.ability_max
        {
            return Err(bad(T, "command: ability range outside the brigadier's die"));
        }
        for roll in [c.ability_roll, c.replacement_roll] {
            let (lo, hi) = (roll.dice + roll.plus, roll.dice * roll.sides + roll.plus);
            if lo < c.ability_min || hi > c.ability_max {
                return Err(bad(T, "command: a rolled ability falls outside 1–10"));
            }
        }
        let ids = |m: &[Modifier]| m.iter().map(|x| x.id.clone()).collect::<Vec<_>>();
        let check_mods = |what: &str, all: &[&str], m: &[Modifier]| {
            let have = ids(m);
            exactly(X, what, all, have.iter().map(String::as_str))
        };
        check_mods("firing modifier", FIRING_IDS, &self.firing)?;
        check_mods("melee modifier", MELEE_IDS, &self.melee)?;
        check_mods("morale modifier", MORALE_IDS, &self.morale.modifiers)?;
        check_mods(
            "uncontrolled modifier",
            UNCONTROLLED_IDS,
            &self.uncontrolled.modifiers,
        )?;
        check_mods("entering modifier", ENTERING_IDS, &self.entering.modifiers)?;
        check_mods("losers modifier", LOSERS_IDS, &self.losers.modifiers)?;
        exactly(
            X,
            "morale band",
            MORALE_BANDS,
            self.morale.bands.iter().map(|b| b.id.as_str()),
        )?;
        check_bands(X, "morale", &self.morale.bands)?;
        exactly(
            X,
            "uncontrolled band",
            UNCONTROLLED_BANDS,
            self.uncontrolled.bands.iter().map(|b| b.id.as_str()),
        )?;
        check_bands(X, "uncontrolled", &self.uncontrolled.bands)?;
        exactly(
            X,
            "morale meaning",
            MoraleReason::ALL,
            self.morale.meanings.iter().map(|m| m.reason),
        )?;
        if self.hit.die != 10 || self.brigadier.die != 10 {
            return Err(bad(X, "the hit and brigadier dice are D10s"));
        }
        let v = &self.victory;
        if v.turns == 0 || v.moves_per_turn == 0 || v.draw_max >= v.minor_max {
            return Err(bad(X, "victory: turns or bands out of order"));
        }
        Ok(())
    }

    pub fn version(&self) -> &str {
        &self.meta.version
    }

    pub fn troop(&self, t: TroopType) -> &TypeData {
        self.types
            .iter()
            .find(|x| x.id == t)
            .unwrap_or(&self.types[0])
    }

    pub fn grade(&self, g: Grade) -> &GradeData {
        self.grades
            .iter()
            .find(|x| x.id == g)
            .unwrap_or(&self.grades[0])
    }

    pub fn movement_row(&self, m: MoveRow) -> &MoveData {
        self.movement
            .iter()
            .find(|x| x.id == m)
            .unwrap_or(&self.movement[0])
    }

    pub fn weapon(&self, a: Arms) -> &WeaponData {
        self.weapons
            .iter()
            .find(|x| x.id == a)
            .unwrap_or(&self.weapons[0])
    }

    pub fn gun(&self, g: GunClass) -> &GunData {
        self.guns
            .iter()
            .find(|x| x.id == g)
            .unwrap_or(&self.guns[0])
    }

    /// Dice a gun with `gunners` gunners throws (0 when it has none left).
    pub fn gun_dice_for(&self, gunners: u32) -> u32 {
        self.gun_dice
            .iter()
            .find(|r| (r.gunners_min..=r.gunners_max).contains(&gunners))
            .map_or(0, |r| r.dice)
    }

    fn value(list: &[Modifier], id: &str) -> i32 {
        list.iter().find(|m| m.id == id).map_or(0, |m| m.value)
    }

    pub fn firing_mod(&self, id: &str) -> i32 {
        Self::value(&self.firing, id)
    }
    pub fn melee_mod(&self, id: &str) -> i32 {
        Self::value(&self.melee, id)
    }
    pub fn morale_mod(&self, id: &str) -> i32 {
        Self::value(&self.morale.modifiers, id)
    }
    pub fn uncontrolled_mod(&self, id: &str) -> i32 {
        Self::value(&self.uncontrolled.modifiers, id)
    }
    pub fn entering_mod(&self, id: &str) -> i32 {
        Self::value(&self.entering.modifiers, id)
    }
    pub fn losers_mod(&self, id: &str) -> i32 {
        Self::value(&self.losers.modifiers, id)
    }

    /// The words of a modifier of `table` (`firing`, `melee`, `morale`, ...).
    pub fn modifier_label(&self, table: &str, id: &str) -> String {
        let list = match table {
            "firing" => &self.firing,
            "melee" => &self.melee,
            "morale" => &self.morale.modifiers,
            "uncontrolled" => &self.uncontrolled.modifiers,
            "entering" => &self.entering.modifiers,
            _ => &self.losers.modifiers,
        };
        list.iter()
            .find(|m| m.id == id)
            .map_or_else(|| id.replace('_', " "), |m| m.label.clone())
    }

    /// The morale band of a modified total.
    pub fn morale_band(&self, total: i32) -> &ResultBand {
        self.morale
            .bands
            .iter()
            .find(|b| b.holds(total))
            .unwrap_or(&self.morale.bands[0])
    }

    pub fn uncontrolled_band(&self, total: i32) -> &ResultBand {
        self.uncontrolled
            .bands
            .iter()
            .find(|b| b.holds(total))
            .unwrap_or(&self.uncontrolled.bands[0])
    }

    /// What a morale band means for a reason (W-9).
    pub fn morale_meaning(&self, reason: MoraleReason, band: &str) -> String {
        self.morale
            .meanings
            .iter()
            .find(|m| m.reason == reason)
            .map(|m| m.of(band).to_string())
            .unwrap_or_default()
    }

    /// Men a unit of `bases` bases represents.
    pub fn men(&self, t: TroopType, bases: u32) -> u32 {
        self.troop(t).men_per_base * bases
    }
}
