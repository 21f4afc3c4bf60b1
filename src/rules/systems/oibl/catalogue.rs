//! The *One if by Land* catalogue: the Combat Table cell by cell, qualities and Morale Numbers,
//! every modifier of fire, melee and morale, movement rates, weapons, guns, basings and troop
//! classes, read from the data files in `data/` and checked when Muster starts. Rules code reads
//! numbers from here, so cards, the quick reference, the odds and the simulator agree.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::types::{Formation, GunClass, Kind, Quality};

const META_JSON: &str = include_str!("data/meta.json");
const TABLES_JSON: &str = include_str!("data/tables.json");
const CLASSES_JSON: &str = include_str!("data/classes.json");

/// A data file that does not read or does not agree with itself or the others.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("One if by Land catalogue, {file}: {message}")]
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
    pub version: String,
    pub source: String,
}

/// One row of the Combat Table: figures `min..=max`, one cell per Modified Die Roll 0..=12.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CombatRow {
    pub min: u32,
    pub max: u32,
    pub cells: Vec<u32>,
}

/// The one table every shot and every melee round reads (spec 4.1, B-2).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CombatTable {
    /// Highest column; a higher roll reads this one.
    pub max_mdr: i32,
    /// Most figures one roll covers; more roll again in chunks of this many.
    pub chunk: u32,
    pub rows: Vec<CombatRow>,
}

impl CombatTable {
    /// Figures removed by one roll of `figures` (at most one chunk) at Modified Die Roll `mdr`
    /// (B-2): below 2 figures no roll, a roll below 0 a complete miss, above the last column the
    /// last column.
    pub fn cell(&self, figures: u32, mdr: i32) -> u32 {
        if mdr < 0 {
            return 0;
        }
        let col = usize::try_from(mdr.min(self.max_mdr)).unwrap_or(0);
        self.rows
            .iter()
            .find(|r| (r.min..=r.max).contains(&figures))
            .and_then(|r| r.cells.get(col).copied())
            .unwrap_or(0)
    }

    /// The chunks `figures` roll in (B-2): 30s and the remainder, each its own d10. Chunks below
    /// 2 figures are kept: they roll nothing, and the odds say so.
    pub fn chunks(&self, figures: u32) -> Vec<u32> {
        let chunk = self.chunk.max(1);
        let mut out = vec![chunk; (figures / chunk) as usize];
        if figures % chunk > 0 {
            out.push(figures % chunk);
        }
        out
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QualityData {
    pub id: Quality,
    pub name: String,
    pub step: i32,
    pub morale_number: i32,
    pub fire_modifier: i32,
}

/// A modifier of a table, with its words.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Modifier {
    pub id: String,
    pub value: i32,
    pub words: String,
}

/// A movement rate: `base` inches plus a d6 when `die`, or `fixed` inches (the optional rule).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRate {
    pub id: String,
    pub words: String,
    pub base: f64,
    pub die: bool,
    pub fixed: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MovementBonus {
    pub road: f64,
    pub charge: f64,
    pub militia_retreat: f64,
    pub obstacle: f64,
    pub about_face: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponData {
    pub id: String,
    pub name: String,
    /// Maximum range in inches; a target exactly at it is in range.
    pub range: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GunData {
    pub id: GunClass,
    pub name: String,
    pub calibre: String,
    /// Figures it counts as when firing.
    pub figures: u32,
    /// Crew figures when the scenario gives none (B-7).
    pub default_crew: u32,
}

/// B-5: under `short_below` no modifier; to `medium_to` −2; to `long_to` −4.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CannonBands {
    pub short_below: f64,
    pub medium_to: f64,
    pub long_to: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CounterBattery {
    /// d10 faces that destroy the gun (B-6).
    pub destroys_on: Vec<u32>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LossBand {
    /// Lost quarters of the starting figures.
    pub quarters: u32,
    /// The morale modifier it gives.
    pub id: String,
}

/// B-8: rating range, default and Muster's roll table (d6 face 1..=6 → rating).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommanderRating {
    pub min: i32,
    pub max: i32,
    pub default: i32,
    pub roll: Vec<i32>,
}

/// The wound a general takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Wound {
    Light,
    Serious,
    Killed,
}

/// B-32: one d10 per `hits_per_die` casualties (rounded up); on `trigger` a d6 reads `wounds`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeneralRisk {
    pub hits_per_die: u32,
    pub trigger: u32,
    pub wounds: Vec<Wound>,
}

/// B-34/B-35: Muster's own victory rule.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Victory {
    pub turns: u32,
    pub lost_share_num: u32,
    pub lost_share_den: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TablesFile {
    combat_table: CombatTable,
    qualities: Vec<QualityData>,
    fire_modifiers: Vec<Modifier>,
    melee_modifiers: Vec<Modifier>,
    morale_modifiers: Vec<Modifier>,
    movement: Vec<MoveRate>,
    movement_bonus: MovementBonus,
    weapons: Vec<WeaponData>,
    guns: Vec<GunData>,
    cannon_bands: CannonBands,
    point_blank: f64,
    counter_battery: CounterBattery,
    loss_bands: Vec<LossBand>,
    commander_rating: CommanderRating,
    general_risk: GeneralRisk,
    victory: Victory,
    destroyed_below: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BasingData {
    pub id: String,
    pub name: String,
    pub figures_per_stand: u32,
    /// Width × depth in inches.
    pub stand: [f64; 2],
    pub deployment: String,
}

/// A troop class (spec 1.3): what a unit of it is and may do without a scenario grant.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClassData {
    pub id: String,
    pub name: String,
    pub kind: Kind,
    pub basing: String,
    /// Weapons the class may carry; the first is its default.
    pub weapons: Vec<String>,
    /// Bayonets by default.
    pub bayonets: bool,
    /// Bayonets may be carried at all (militia: only as discharged Continentals, B-41).
    pub bayonets_allowed: bool,
    /// Formations it may use with no grant.
    pub formations: Vec<Formation>,
    /// Formations a scenario may grant.
    pub authorizable: Vec<Formation>,
    /// Flags that make skirmish order free (B-40).
    pub free_skirmish_flags: Vec<String>,
    /// Flags a unit of the class may carry.
    pub flags: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ClassesFile {
    basings: Vec<BasingData>,
    classes: Vec<ClassData>,
}

/// Every number of the game, checked.
#[derive(Debug, Clone, Serialize)]
pub struct Catalogue {
    pub meta: Meta,
    pub combat_table: CombatTable,
    pub qualities: Vec<QualityData>,
    pub fire_modifiers: Vec<Modifier>,
    pub melee_modifiers: Vec<Modifier>,
    pub morale_modifiers: Vec<Modifier>,
    pub movement: Vec<MoveRate>,
    pub movement_bonus: MovementBonus,
    pub weapons: Vec<WeaponData>,
    pub guns: Vec<GunData>,
    pub cannon_bands: CannonBands,
    pub point_blank: f64,
    pub counter_battery: CounterBattery,
    pub loss_bands: Vec<LossBand>,
    pub commander_rating: CommanderRating,
    pub general_risk: GeneralRisk,
    pub victory: Victory,
    /// B-33: a unit with fewer figures is destroyed.
    pub destroyed_below: u32,
    pub basings: Vec<BasingData>,
    pub classes: Vec<ClassData>,
}

/// The flags a unit may carry (spec 2.1).
pub const FLAGS: [&str; 4] = [
    "light_infantry",
    "grenadiers",
    "legion",
    "discharged_continentals",
];

impl Catalogue {
    /// The built-in data, parsed and checked.
    pub fn builtin() -> Result<Catalogue, CatalogueError> {
        Catalogue::from_texts(META_JSON, TABLES_JSON, CLASSES_JSON)
    }

    /// Data from texts, parsed and checked (tests feed broken copies).
    pub fn from_texts(
        meta: &str,
        tables: &str,
        classes: &str,
    ) -> Result<Catalogue, CatalogueError> {
        let meta: Meta = parse_file("meta.json", meta)?;
        let t: TablesFile = parse_file("tables.json", tables)?;
        let c: ClassesFile = parse_file("classes.json", classes)?;
        let cat = Catalogue {
            meta,
            combat_table: t.combat_table,
            qualities: t.qualities,
            fire_modifiers: t.fire_modifiers,
            melee_modifiers: t.melee_modifiers,
            morale_modifiers: t.morale_modifiers,
            movement: t.movement,
            movement_bonus: t.movement_bonus,
            weapons: t.weapons,
            guns: t.guns,
            cannon_bands: t.cannon_bands,
            point_blank: t.point_blank,
            counter_battery: t.counter_battery,
            loss_bands: t.loss_bands,
            commander_rating: t.commander_rating,
            general_risk: t.general_risk,
            victory: t.victory,
            destroyed_below: t.destroyed_below,
            basings: c.basings,
            classes: c.classes,
        };
        cat.check()?;
        Ok(cat)
    }

    pub fn version(&self) -> &str {
        &self.meta.version
    }

    fn check(&self) -> Result<(), CatalogueError> {
        const T: &str = "tables.json";
        const C: &str = "classes.json";
        if self.meta.system != "oibl" {
            return Err(bad("meta.json", "the system must be 'oibl'"));
        }
        // The Combat Table: rows from 2 to the chunk size without gaps, 13 columns each, and
        // never fewer casualties for a higher roll or more figures (B-2).
        let ct = &self.combat_table;
        if ct.max_mdr != 12 || ct.chunk != 30 {
            return Err(bad(
                T,
                "the Combat Table reads columns 0 to 12 and chunks of 30",
            ));
        }
        let mut next = 2;
        for (i, row) in ct.rows.iter().enumerate() {
            if row.min != next || row.max < row.min {
                return Err(bad(
                    T,
                    format!("Combat Table row {i} does not follow on from {next}"),
                ));
            }
            next = row.max + 1;
            if row.cells.len() != 13 {
                return Err(bad(T, format!("Combat Table row {i} needs 13 cells")));
            }
            if row.cells.windows(2).any(|w| w[1] < w[0]) {
                return Err(bad(
                    T,
                    format!("Combat Table row {i} falls as the roll rises"),
                ));
            }
            if i > 0 {
                let above = &ct.rows[i - 1].cells;
                if row.cells.iter().zip(above).any(|(a, b)| a < b) {
                    return Err(bad(
                        T,
                        format!("Combat Table row {i} kills fewer than the row above"),
                    ));
                }
            }
            if row.cells.iter().any(|&c| c > row.min) {
                return Err(bad(
                    T,
                    format!("Combat Table row {i} removes more figures than roll"),
                ));
            }
        }
        if next != ct.chunk + 1 {
            return Err(bad(T, "the Combat Table must end at the chunk size"));
        }
        // Qualities: all five, Morale Numbers 5..9 by step.
        for q in Quality::ALL {
            let d = self
                .qualities
                .iter()
                .find(|d| d.id == q)
                .ok_or_else(|| bad(T, format!("quality '{}' is missing", q.id())))?;
            if d.step != q.step() || d.morale_number != 5 + q.step() {
                return Err(bad(
                    T,
                    format!("quality '{}' has the wrong step or Morale Number", q.id()),
                ));
            }
            if d.fire_modifier > 0 {
                return Err(bad(
                    T,
                    format!("quality '{}' cannot help the firer", q.id()),
                ));
            }
        }
        if self.qualities.len() != Quality::ALL.len() {
            return Err(bad(T, "qualities are listed more than once"));
        }
        for (name, list, needed) in [
            ("fire", &self.fire_modifiers, FIRE_IDS.as_slice()),
            ("melee", &self.melee_modifiers, MELEE_IDS.as_slice()),
            ("morale", &self.morale_modifiers, MORALE_IDS.as_slice()),
        ] {
            let ids: BTreeSet<&str> = list.iter().map(|m| m.id.as_str()).collect();
            if ids.len() != list.len() {
                return Err(bad(T, format!("a {name} modifier is listed twice")));
            }
            for id in needed {
                if !ids.contains(id) {
                    return Err(bad(T, format!("the {name} modifier '{id}' is missing")));
                }
            }
        }
        for id in MOVE_IDS {
            if !self.movement.iter().any(|m| m.id == id) {
                return Err(bad(T, format!("movement rate '{id}' is missing")));
            }
        }
        for g in GunClass::ALL {
            let d = self
                .guns
                .iter()
                .find(|d| d.id == g)
                .ok_or_else(|| bad(T, format!("gun '{}' is missing", g.id())))?;
            if d.figures < 2 || d.default_crew < 1 {
                return Err(bad(
                    T,
                    format!("gun '{}' must fire 2+ figures with 1+ crew", g.id()),
                ));
            }
        }
        let cb = &self.cannon_bands;
        if !(cb.short_below < cb.medium_to && cb.medium_to < cb.long_to) {
            return Err(bad(T, "cannon bands must rise"));
        }
        if self.counter_battery.destroys_on.iter().any(|&f| f > 9) {
            return Err(bad(T, "counter-battery faces are d10 faces 0 to 9"));
        }
        if self
            .loss_bands
            .iter()
            .map(|b| b.quarters)
            .collect::<Vec<_>>()
            != [1, 2, 3]
        {
            return Err(bad(
                T,
                "loss bands are a quarter, a half and three quarters",
            ));
        }
        for b in &self.loss_bands {
            if self.morale_modifier(&b.id).is_none() {
                return Err(bad(
                    T,
                    format!("loss band '{}' has no morale modifier", b.id),
                ));
            }
        }
        let r = &self.commander_rating;
        if r.roll.len() != 6
            || r.roll
                .iter()
                .chain([&r.default])
                .any(|x| *x < r.min || *x > r.max)
        {
            return Err(bad(
                T,
                "commander ratings: six d6 faces within the range, default within it",
            ));
        }
        if self.general_risk.wounds.len() != 6 || self.general_risk.trigger > 9 {
            return Err(bad(
                T,
                "Risk to Generals: one wound per d6 face, a d10 trigger face",
            ));
        }
        if self.victory.lost_share_den == 0 || self.victory.turns == 0 {
            return Err(bad(T, "victory needs a share and a number of turns"));
        }
        for w in &self.weapons {
            if w.range <= 0.0 {
                return Err(bad(T, format!("weapon '{}' needs a range", w.id)));
            }
        }
        // Classes: every basing, weapon and flag they name exists.
        for class in &self.classes {
            if self.basing(&class.basing).is_none() {
                return Err(bad(
                    C,
                    format!("class '{}' names basing '{}'", class.id, class.basing),
                ));
            }
            if class.weapons.is_empty() {
                return Err(bad(C, format!("class '{}' has no weapon", class.id)));
            }
            for w in &class.weapons {
                if self.weapon(w).is_none() {
                    return Err(bad(C, format!("class '{}' names weapon '{w}'", class.id)));
                }
            }
            for f in class.flags.iter().chain(&class.free_skirmish_flags) {
                if !FLAGS.contains(&f.as_str()) {
                    return Err(bad(C, format!("class '{}' names flag '{f}'", class.id)));
                }
            }
            if class.formations.is_empty() {
                return Err(bad(C, format!("class '{}' has no formation", class.id)));
            }
            if class.bayonets && !class.bayonets_allowed {
                return Err(bad(
                    C,
                    format!("class '{}' carries bayonets it may not", class.id),
                ));
            }
        }
        for id in CLASS_IDS {
            if self.class(id).is_none() {
                return Err(bad(C, format!("class '{id}' is missing")));
            }
        }
        Ok(())
    }

    pub fn quality(&self, q: Quality) -> &QualityData {
        // Checked at start-up: every quality is present.
        self.qualities
            .iter()
            .find(|d| d.id == q)
            .unwrap_or(&self.qualities[0])
    }

    pub fn morale_number(&self, q: Quality) -> i32 {
        self.quality(q).morale_number
    }

    pub fn class(&self, id: &str) -> Option<&ClassData> {
        self.classes.iter().find(|c| c.id == id)
    }

    pub fn basing(&self, id: &str) -> Option<&BasingData> {
        self.basings.iter().find(|b| b.id == id)
    }

    pub fn weapon(&self, id: &str) -> Option<&WeaponData> {
        self.weapons.iter().find(|w| w.id == id)
    }

    pub fn gun(&self, g: GunClass) -> &GunData {
        self.guns
            .iter()
            .find(|d| d.id == g)
            .unwrap_or(&self.guns[0])
    }

    fn find(list: &[Modifier], id: &str) -> Option<i32> {
        list.iter().find(|m| m.id == id).map(|m| m.value)
    }

    /// A fire modifier's value; 0 for an id the tables lack (checked at start-up).
    pub fn fire_mod(&self, id: &str) -> i32 {
        Self::find(&self.fire_modifiers, id).unwrap_or(0)
    }

    pub fn melee_mod(&self, id: &str) -> i32 {
        Self::find(&self.melee_modifiers, id).unwrap_or(0)
    }

    pub fn morale_modifier(&self, id: &str) -> Option<i32> {
        Self::find(&self.morale_modifiers, id)
    }

    pub fn morale_mod(&self, id: &str) -> i32 {
        self.morale_modifier(id).unwrap_or(0)
    }

    pub fn move_rate(&self, id: &str) -> Option<&MoveRate> {
        self.movement.iter().find(|m| m.id == id)
    }

    /// B-9: the loss band's morale modifier for `lost` of `start` figures (the highest reached,
    /// thresholds inclusive): its id and value.
    pub fn loss_band(&self, start: u32, lost: u32) -> Option<(&str, i32)> {
        if start == 0 {
            return None;
        }
        self.loss_bands
            .iter()
            .rev()
            .find(|b| u64::from(lost) * 4 >= u64::from(start) * u64::from(b.quarters))
            .map(|b| (b.id.as_str(), self.morale_mod(&b.id)))
    }

    /// B-5: the cannon's range modifier id at `inches`, `None` under 12".
    pub fn cannon_band(&self, inches: f64) -> Option<&'static str> {
        if inches < self.cannon_bands.short_below {
            None
        } else if inches <= self.cannon_bands.medium_to {
            Some("cannon_12_25")
        } else {
            Some("cannon_over_25")
        }
    }
}

pub const FIRE_IDS: [&str; 10] = [
    "point_blank",
    "marksmen",
    "target_column_or_mounted",
    "flank_or_rear",
    "firer_poor",
    "firer_wretched",
    "target_light_cover",
    "target_heavy_cover",
    "cannon_12_25",
    "cannon_over_25",
];

pub const MELEE_IDS: [&str; 9] = [
    "higher_quality",
    "opponent_panic_marker",
    "attacking_flank_rear",
    "bayonets_vs_none",
    "defending_light_cover",
    "defending_heavy_cover",
    "cavalry_vs_non_cavalry",
    "attacked_flank_rear",
    "routing",
];

pub const MORALE_IDS: [&str; 13] = [
    "commander_with_unit",
    "light_cover",
    "heavy_cover",
    "outflanked",
    "equal_friend_routing",
    "higher_friend_routing",
    "open_charged_by_cavalry",
    "skirmish_charged_by_cavalry",
    "skirmish_charged_by_infantry",
    "artillery_charged_by_cavalry",
    "losses_25",
    "losses_50",
    "losses_75",
];

pub const MOVE_IDS: [&str; 10] = [
    "close_order",
    "open_order",
    "column",
    "skirmish",
    "cavalry",
    "infantry_retreat",
    "infantry_rout",
    "cavalry_retreat",
    "cavalry_rout",
    "prolonge",
];

pub const CLASS_IDS: [&str; 13] = [
    "continental",
    "militia",
    "militia_rifle",
    "british_line",
    "loyalist_provincial",
    "loyalist_rifle",
    "german_line",
    "german_light",
    "german_jaeger",
    "french",
    "indian",
    "cavalry",
    "artillery",
];
