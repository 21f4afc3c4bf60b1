//! How *Liberty or Death!* builds its dice: shooting and melee pools (fractional dice per base,
//! at least half a die per base, rounded up), to-hit and save chances, and the dice, scoring and
//! re-rolls of ORDER and MORALE tests. The exact odds and the simulator both build their dice
//! here, so they cannot disagree; every step names the ruling it rests on.

use serde::Serialize;

use super::catalogue::{Catalogue, Profile};
use super::types::{HalfDice, HitState, Kind, RangeBand, SpecialRule};

/// One step of building a pool: what changed the dice and by how much.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Step {
    pub what: String,
    /// Per base (for modifiers) or whole dice (for additions after rounding), in halves.
    pub change: HalfDice,
    /// `per_base` for modifiers, `dice` for dice added after the per-base total.
    pub applies: &'static str,
}

/// A pool of dice and how it was built.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Pool {
    /// Base dice per base before modifiers.
    pub base_per_base: HalfDice,
    /// Per base after modifiers and the half-die minimum.
    pub per_base: HalfDice,
    /// The bases the per-base dice count for (firing or direct bases).
    pub bases: u32,
    /// `per_base × bases`, rounded up.
    pub from_bases: u32,
    pub dice: u32,
    pub steps: Vec<Step>,
    /// Rulings the pool used.
    pub rulings: Vec<&'static str>,
}

struct Builder {
    base: HalfDice,
    per_base: i32,
    steps: Vec<Step>,
    rulings: Vec<&'static str>,
}

impl Builder {
    fn new(base: HalfDice) -> Builder {
        Builder {
            base,
            per_base: base.0,
            steps: Vec::new(),
            rulings: Vec::new(),
        }
    }

    fn modify(&mut self, when: bool, what: &str, change: HalfDice) {
        if when && change.0 != 0 {
            self.per_base += change.0;
            self.steps.push(Step {
                what: what.to_string(),
                change,
                applies: "per_base",
            });
        }
    }

    fn ruling(&mut self, ruling: &'static str) {
        if !self.rulings.contains(&ruling) {
            self.rulings.push(ruling);
        }
    }

    fn finish(mut self, bases: u32, minimum: HalfDice, extras: Vec<(String, u32)>) -> Pool {
        let per_base = HalfDice(self.per_base.max(minimum.0));
        if per_base.0 != self.per_base {
            self.steps.push(Step {
                what: format!("at least {minimum} dice per base"),
                change: HalfDice(per_base.0 - self.per_base),
                applies: "per_base",
            });
        }
        let from_bases = if bases == 0 {
            0
        } else {
            per_base.times_rounded_up(bases)
        };
        let mut dice = from_bases;
        for (what, n) in extras {
            if n > 0 {
                dice += n;
                self.steps.push(Step {
                    what,
                    change: HalfDice(2 * n as i32),
                    applies: "dice",
                });
            }
        }
        Pool {
            base_per_base: self.base,
            per_base,
            bases,
            from_bases,
            dice,
            steps: self.steps,
            rulings: self.rulings,
        }
    }
}

/// What the shooting dice depend on besides the shooter (4.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shot {
    /// Front-rank bases with line of sight (L-17).
    pub firing_bases: u32,
    /// The shooter's hit-state now.
    pub shooter_state: HitState,
    pub band: RangeBand,
    /// The target is skirmishers or unlimbered artillery.
    pub target_skirmishers_or_guns: bool,
    pub cover: bool,
    pub obscured: bool,
    pub enfiladed: bool,
}

/// Whether a target of `kind` shoots at −½ die per base (skirmishers and unlimbered guns).
pub fn hard_target(kind: Kind, limbered: bool) -> bool {
    kind == Kind::Skirmishers || (kind == Kind::Artillery && !limbered)
}

/// The shooting pool of `shooter` (4.3).
pub fn shooting_pool(cat: &Catalogue, shooter: &Profile, shot: &Shot) -> Pool {
    let m = &cat.tables.shooting_modifiers;
    let mut b = Builder::new(cat.kind(shooter.kind()).dice.shooting);
    b.modify(shot.enfiladed, "target enfiladed", m.enfiladed);
    b.modify(shot.band == RangeBand::Short, "short range", m.short_range);
    b.modify(
        shot.target_skirmishers_or_guns,
        "target is skirmishers or unlimbered artillery",
        m.target_skirmishers_or_unlimbered_artillery,
    );
    b.modify(
        shot.shooter_state == HitState::Worn,
        "shooter WORN",
        m.shooter_worn,
    );
    b.modify(shot.band == RangeBand::Long, "long range", m.long_range);
    b.modify(shot.obscured, "target obscured", m.obscured);
    b.modify(shot.cover, "target in cover", m.cover);
    b.modify(
        shot.shooter_state == HitState::Shaken,
        "shooter SHAKEN",
        m.shooter_shaken,
    );
    b.ruling("L-17");
    b.ruling("L-18");
    let elite = if shooter.has(SpecialRule::Elite) {
        cat.tables.elite_rule_dice
    } else {
        0
    };
    b.finish(
        shot.firing_bases,
        m.minimum_per_base,
        vec![("ELITE rule".to_string(), elite)],
    )
}

/// The faces of a D6 that hit, out of 6: the quality's number with MARKSMEN (+1) or POORLY
/// TRAINED (−1) on the die, a natural 1 always missing and a 6 always hitting (L-19).
pub fn shooting_hit_faces(cat: &Catalogue, shooter: &Profile) -> u32 {
    let t = &cat.tables.to_hit;
    let mut modifier = 0;
    if shooter.has(SpecialRule::Marksmen) {
        modifier += t.marksmen;
    }
    if shooter.has(SpecialRule::PoorlyTrained) {
        modifier += t.poorly_trained;
    }
    hit_faces(
        i32::from(cat.quality(shooter.quality()).shooting_to_hit),
        modifier,
        t.natural_miss,
        t.natural_hit,
    )
}

/// The faces that hit in melee, out of 6 (L-28; no modifiers on the die).
pub fn melee_hit_faces(cat: &Catalogue, unit: &Profile) -> u32 {
    let t = &cat.tables.to_hit;
    hit_faces(
        i32::from(cat.quality(unit.quality()).melee_to_hit),
        0,
        t.natural_miss,
        t.natural_hit,
    )
}

fn hit_faces(need: i32, modifier: i32, natural_miss: u8, natural_hit: u8) -> u32 {
    (1..=6u8)
        .filter(|&f| f == natural_hit || (f != natural_miss && i32::from(f) + modifier >= need))
        .count() as u32
}

/// The faces that save out of 6 (a 1 always fails, a 6 always saves).
pub fn save_faces(need: u8) -> u32 {
    (1..=6u8)
        .filter(|&f| f == 6 || (f != 1 && f >= need))
        .count() as u32
}

/// Which way a unit fights its enemy in melee.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Against {
    #[default]
    Front,
    Flank,
    Rear,
}

/// What the melee dice depend on besides the unit (4.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fight {
    pub direct_bases: u32,
    pub supporting_bases: u32,
    /// The unit's hit-state now.
    pub state: HitState,
    pub disordered: bool,
    /// Charged into this melee and this is its first round (L-33).
    pub charging: bool,
    pub against: Against,
    /// The kind of the enemy it fights (for the cavalry and infantry modifiers, L-25).
    pub enemy_kind: Kind,
    /// Neither unit in difficult terrain, defending an obstacle, in a building or fortified
    /// position (L-25).
    pub in_the_open: bool,
    pub enemy_defending_obstacle: bool,
    pub enemy_uphill: bool,
    /// Limbered artillery has no melee dice of its own (L-25).
    pub limbered: bool,
    pub general_attached: bool,
    pub lead_the_fight: bool,
}

/// The melee pool of `unit` (4.5).
pub fn melee_pool(cat: &Catalogue, unit: &Profile, fight: &Fight) -> Pool {
    let m = &cat.tables.melee_modifiers;
    let kind = cat.kind(unit.kind());
    let enemy = cat.kind(fight.enemy_kind);
    let base = if fight.limbered {
        HalfDice(0)
    } else {
        kind.dice.melee
    };
    let mut b = Builder::new(base);
    if fight.limbered {
        b.ruling("L-25");
    }
    b.modify(fight.charging, "charging (first round)", m.charging);
    if fight.charging {
        b.ruling("L-33");
    }
    b.modify(
        fight.against == Against::Rear,
        "fighting the enemy's rear",
        m.against_rear,
    );
    b.modify(
        fight.against == Against::Flank,
        "fighting the enemy's flank",
        m.against_flank,
    );
    let cavalry_v_foot = kind.mounted && enemy.foot && enemy.id != Kind::Artillery;
    let foot_v_cavalry = kind.foot && kind.id != Kind::Artillery && enemy.mounted;
    b.modify(
        fight.in_the_open && cavalry_v_foot,
        "cavalry against infantry in the open",
        m.cavalry_v_infantry_in_open,
    );
    b.modify(
        fight.enemy_defending_obstacle,
        "enemy defending an obstacle",
        m.enemy_defending_obstacle,
    );
    b.modify(fight.enemy_uphill, "enemy uphill", m.enemy_uphill);
    b.modify(fight.disordered, "DISORDERED", m.disordered);
    b.modify(fight.state == HitState::Worn, "WORN", m.worn);
    b.modify(
        fight.in_the_open && foot_v_cavalry,
        "infantry against cavalry in the open",
        m.infantry_v_cavalry_in_open,
    );
    b.modify(fight.state == HitState::Shaken, "SHAKEN", m.shaken);
    if cavalry_v_foot || foot_v_cavalry {
        b.ruling("L-25");
    }
    let supporting = kind
        .dice
        .supporting_melee
        .times_rounded_up(fight.supporting_bases);
    let general = match (fight.general_attached, fight.lead_the_fight) {
        (true, true) => cat.general.lead_the_fight_dice,
        (true, false) => cat.general.melee_dice,
        (false, _) => 0,
    };
    if fight.general_attached {
        b.ruling("L-26");
    }
    let elite = if unit.has(SpecialRule::Elite) {
        cat.tables.elite_rule_dice
    } else {
        0
    };
    b.finish(
        fight.direct_bases,
        m.minimum_per_base,
        vec![
            ("supporting bases".to_string(), supporting),
            (
                if fight.lead_the_fight {
                    "attached General (Lead The Fight!)".to_string()
                } else {
                    "attached General".to_string()
                },
                general,
            ),
            ("ELITE rule".to_string(), elite),
        ],
    )
}

/// ORDER or MORALE.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TestKind {
    Order,
    Morale,
}

/// The dice of an ORDER or MORALE test taken in `state` (4.2): 4/3/2 by hit-state (L-5:
/// routing units too), +1 DRILLED in ORDER tests, +1 BRAVE in MORALE tests.
pub fn test_dice(
    cat: &Catalogue,
    unit: &Profile,
    state: HitState,
    kind: TestKind,
) -> (u32, Vec<String>) {
    let mut dice = cat.tables.test_dice.of(state);
    let mut how = vec![format!("{dice} dice for a {} unit", state.label())];
    match kind {
        TestKind::Order if unit.has(SpecialRule::Drilled) => {
            dice += 1;
            how.push("+1 die DRILLED".to_string());
        }
        TestKind::Morale if unit.has(SpecialRule::Brave) => {
            dice += 1;
            how.push("+1 die BRAVE".to_string());
        }
        _ => {}
    }
    (dice, how)
}

/// Faces out of 6 that score 0, 1 and 2 successes on a test die (L-6: the quality table in
/// ORDER and MORALE tests alike; UNRELIABLE: a 6 scores one).
pub fn success_faces(cat: &Catalogue, unit: &Profile) -> [u32; 3] {
    let q = cat.quality(unit.quality());
    let unreliable = unit.has(SpecialRule::Unreliable);
    let mut faces = [0; 3];
    for face in 1..=6 {
        faces[q.successes(face, unreliable) as usize] += 1;
    }
    faces
}

/// What gives a test its die re-rolls (4.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RerollSources {
    pub in_command: bool,
    pub supported: bool,
    pub fortified: bool,
}

/// The die re-rolls of a test and why: In Command, Supported (never NATIVES), RELIABLE in
/// ORDER tests only (L-7), a fortified position giving RELIABLE (L-23).
pub fn test_rerolls(unit: &Profile, kind: TestKind, sources: RerollSources) -> (u32, Vec<String>) {
    let mut why = Vec::new();
    if sources.in_command {
        why.push("in command".to_string());
    }
    if sources.supported && !unit.has(SpecialRule::Natives) {
        why.push("Supported".to_string());
    }
    if kind == TestKind::Order && (unit.has(SpecialRule::Reliable) || sources.fortified) {
        why.push(if unit.has(SpecialRule::Reliable) {
            "RELIABLE".to_string()
        } else {
            "RELIABLE (fortified position)".to_string()
        });
    }
    (why.len() as u32, why)
}
