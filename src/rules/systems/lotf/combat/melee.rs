//! Melee (R-18, R-29; artillery and buildings from the book's Melee and
//! Scenery chapters): pools with support, resolution modifiers, the result.

use serde::{Deserialize, Serialize};

use super::{die_hit_probability, DicePool, Term};
use crate::rules::dice::Dice;
use crate::rules::systems::lotf::catalogue::{
    Catalogue, MeleeDiceModifier, MeleeResolutionModifier,
};
use crate::rules::systems::lotf::types::{DisciplineLevel, ElementType, Formation};

/// A supporting element.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Supporter {
    pub action: u8,
    /// Its own Numbers dice.
    pub extra_dice: u8,
    pub disorder_markers: u32,
    /// Close support: within 1" of, or in the Threat Zone of, an enemy in
    /// the melee: all its Action dice (compulsory).
    pub close: bool,
    pub level: DisciplineLevel,
    pub formation: Formation,
}

impl Supporter {
    /// Whether it may support at all: never Exhausted, in March Column or
    /// limbered.
    pub fn eligible(&self) -> bool {
        !matches!(
            self.level,
            DisciplineLevel::Exhausted | DisciplineLevel::Shattered
        ) && !matches!(self.formation, Formation::MarchColumn | Formation::Limbered)
    }

    /// Dice it adds: half its Action dice rounded up, or all in close
    /// support, plus its Numbers, minus its Disorder Markers, never below 0
    /// . No base dice and no situational dice.
    pub fn dice(&self) -> i32 {
        let a = i32::from(self.action);
        let base = if self.close { a } else { (a + 1) / 2 };
        (base + i32::from(self.extra_dice) - self.disorder_markers.min(1000) as i32).max(0)
    }
}

/// One side of a melee.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MeleeSide {
    pub element_type: ElementType,
    pub action: u8,
    pub extra_dice: u8,
    pub level: DisciplineLevel,
    pub formation: Formation,
    pub disorder_markers: u32,
    /// The active element that spent the Combat Order.
    pub initiated: bool,
    /// Fighting into the enemy's flank.
    pub flank: bool,
    /// It counter-charged into this melee.
    pub counter_charged: bool,
    pub supporters: Vec<Supporter>,
    pub in_spi: bool,
    pub commander_attached: bool,
    pub defenses: bool,
    pub high_ground: bool,
    /// Self-preservation: no Battle Line dice or result bonus.
    pub self_preservation: bool,
    /// Occupies a building: no support, half Action dice for both sides.
    pub in_building: bool,
    /// Inspirational Charge passed: misses re-rolled once.
    pub reroll_misses: bool,
}

impl MeleeSide {
    /// A plain Fit element in a formation, no modifiers.
    pub fn plain(element_type: ElementType, action: u8, formation: Formation) -> MeleeSide {
        MeleeSide {
            element_type,
            action,
            extra_dice: 0,
            level: DisciplineLevel::Fit,
            formation,
            disorder_markers: 0,
            initiated: false,
            flank: false,
            counter_charged: false,
            supporters: Vec::new(),
            in_spi: false,
            commander_attached: false,
            defenses: false,
            high_ground: false,
            self_preservation: false,
            in_building: false,
            reroll_misses: false,
        }
    }

    fn open_like(&self) -> bool {
        matches!(self.formation, Formation::OpenOrder | Formation::Unlimbered)
    }
}

/// The melee pool of `side` fighting `other`. In a building fight
/// both sides roll half their Action dice, rounded up, and the element in
/// the building gets no support.
pub fn melee_pool(cat: &Catalogue, side: &MeleeSide, other: &MeleeSide) -> DicePool {
    melee_pool_with(cat, side, other, true)
}

/// [`melee_pool`] without its terms (the same total and to-hit numbers): no
/// allocation, for callers that never explain it.
pub fn melee_pool_unexplained(cat: &Catalogue, side: &MeleeSide, other: &MeleeSide) -> DicePool {
    melee_pool_with(cat, side, other, false)
}

fn melee_pool_with(
    cat: &Catalogue,
    side: &MeleeSide,
    other: &MeleeSide,
    explain: bool,
) -> DicePool {
    let t = &cat.tables().melee;
    let n = cat.numbers();
    let mut pool = if explain {
        DicePool::new(t.to_hit, n.zero_pool_to_hit)
    } else {
        DicePool::unexplained(t.to_hit, n.zero_pool_to_hit)
    };
    pool.put(explain, "base", "base", i32::from(t.base_dice));
    let building = side.in_building || other.in_building;
    let action = if building {
        (i32::from(side.action) + 1) / 2
    } else {
        i32::from(side.action)
    };
    pool.put(
        explain,
        "action",
        if building {
            "half Action (building)"
        } else {
            "Action"
        },
        action,
    );
    pool.put(explain, "numbers", "Numbers", i32::from(side.extra_dice));
    if side.initiated {
        pool.put(
            explain,
            "initiated",
            "initiated",
            cat.melee_dice_modifier(MeleeDiceModifier::Initiated),
        );
    }
    if side.formation == Formation::BattleLine && !side.self_preservation {
        pool.put(
            explain,
            "battle_line",
            "battle line",
            cat.melee_dice_modifier(MeleeDiceModifier::BattleLine),
        );
    }
    if side.flank {
        pool.put(
            explain,
            "flank",
            "flank",
            cat.melee_dice_modifier(MeleeDiceModifier::Flank),
        );
    }
    if side.counter_charged {
        pool.put(
            explain,
            "counter_charged",
            "counter-charge",
            cat.melee_dice_modifier(MeleeDiceModifier::CounterCharged),
        );
    }
    if side.disorder_markers > 0 {
        pool.put(
            explain,
            "disorder",
            "Disorder",
            cat.melee_dice_modifier(MeleeDiceModifier::Disorder)
                * side.disorder_markers.min(1000) as i32,
        );
    }
    if matches!(
        side.level,
        DisciplineLevel::Exhausted | DisciplineLevel::Shattered
    ) {
        pool.put(
            explain,
            "exhausted",
            "Exhausted",
            cat.melee_dice_modifier(MeleeDiceModifier::Exhausted),
        );
    }
    if !side.in_building {
        let support: i32 = side
            .supporters
            .iter()
            .filter(|s| s.eligible())
            .take(usize::from(n.max_supporters))
            .map(Supporter::dice)
            .sum();
        pool.put(explain, "support", "support", support);
    }
    pool
}

/// The resolution modifiers of `side` against `other` (the hits are added
/// when rolled).
pub fn melee_resolution(cat: &Catalogue, side: &MeleeSide, other: &MeleeSide) -> (i32, Vec<Term>) {
    let mut terms = Vec::with_capacity(8);
    each_resolution_term(cat, side, other, |id, label, v| {
        terms.push(Term::new(id.id(), label, v))
    });
    let total = terms.iter().map(|t| t.value).sum();
    (total, terms)
}

/// The total of [`melee_resolution`] without its terms (no allocation).
pub fn melee_resolution_total(cat: &Catalogue, side: &MeleeSide, other: &MeleeSide) -> i32 {
    let mut total = 0;
    each_resolution_term(cat, side, other, |_, _, v| total += v);
    total
}

/// Every non-zero resolution modifier of `side` against `other`: which, words, value.
fn each_resolution_term(
    cat: &Catalogue,
    side: &MeleeSide,
    other: &MeleeSide,
    mut term: impl FnMut(MeleeResolutionModifier, &'static str, i32),
) {
    let mut add = |id: MeleeResolutionModifier, label: &'static str| {
        let v = cat.melee_resolution_modifier(id);
        if v != 0 {
            term(id, label, v);
        }
    };
    if matches!(
        other.formation,
        Formation::Unlimbered | Formation::MarchColumn
    ) {
        add(
            MeleeResolutionModifier::VsUnlimberedOrColumn,
            "enemy unlimbered or in column",
        );
    }
    if side.formation == Formation::BattleLine && !side.self_preservation && other.open_like() {
        add(
            MeleeResolutionModifier::LineVsOpen,
            "line against open order",
        );
    }
    if side.flank {
        add(MeleeResolutionModifier::FlankAttack, "flank attack");
    }
    if side.level == DisciplineLevel::Fit {
        match other.level {
            DisciplineLevel::Exhausted | DisciplineLevel::Shattered => add(
                MeleeResolutionModifier::FitVsExhausted,
                "Fit against Exhausted",
            ),
            DisciplineLevel::Shaken => {
                add(MeleeResolutionModifier::FitVsShaken, "Fit against Shaken")
            }
            DisciplineLevel::Fit => {}
        }
    }
    if side.in_spi {
        add(MeleeResolutionModifier::InSpi, "inside its commander's SPI");
    }
    if side.commander_attached {
        add(
            MeleeResolutionModifier::CommanderAttached,
            "commander attached",
        );
    }
    if side.defenses {
        add(MeleeResolutionModifier::Defenses, "defenses");
    }
    if side.high_ground {
        add(MeleeResolutionModifier::HighGround, "high ground");
    }
}

/// Who won.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MeleeOutcome {
    AttackerWins,
    Tie,
    DefenderWins,
}

/// A rolled melee round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MeleeRoll {
    pub attacker_faces: Vec<u8>,
    pub defender_faces: Vec<u8>,
    pub attacker_hits: u32,
    pub defender_hits: u32,
    pub attacker_result: i32,
    pub defender_result: i32,
    pub outcome: MeleeOutcome,
    /// |attacker_result − defender_result|.
    pub margin: u32,
}

fn roll_side(pool: &DicePool, reroll: bool, dice: &mut Dice) -> (Vec<u8>, u32) {
    let mut faces = Vec::with_capacity(pool.dice() as usize);
    let hits = roll_side_with(pool, reroll, dice, |f| faces.push(f));
    (faces, hits)
}

/// Roll a side's pool (each miss once more with `reroll`), handing each
/// final face to `face`; returns the hits.
fn roll_side_with(pool: &DicePool, reroll: bool, dice: &mut Dice, mut face: impl FnMut(u8)) -> u32 {
    let th = pool.to_hit();
    let mut hits = 0;
    for _ in 0..pool.dice().min(10_000) {
        let mut f = dice.d6();
        if reroll && f < th {
            f = dice.d6();
        }
        face(f);
        hits += u32::from(f >= th);
    }
    hits
}

/// Fight one round: both pools roll, hitting on 5+ (6 for an empty pool,
/// R-14 as extended by Muster); result = hits scored + resolution
/// modifiers; the higher wins, equal is a tie.
pub fn resolve_melee(
    cat: &Catalogue,
    attacker: &MeleeSide,
    defender: &MeleeSide,
    dice: &mut Dice,
) -> MeleeRoll {
    let pa = melee_pool(cat, attacker, defender);
    let pd = melee_pool(cat, defender, attacker);
    let (fa, ha) = roll_side(&pa, attacker.reroll_misses, dice);
    let (fd, hd) = roll_side(&pd, defender.reroll_misses, dice);
    let per_hit = cat.melee_resolution_modifier(MeleeResolutionModifier::Hits);
    let ra = ha as i32 * per_hit + melee_resolution(cat, attacker, defender).0;
    let rd = hd as i32 * per_hit + melee_resolution(cat, defender, attacker).0;
    let outcome = match ra.cmp(&rd) {
        std::cmp::Ordering::Greater => MeleeOutcome::AttackerWins,
        std::cmp::Ordering::Less => MeleeOutcome::DefenderWins,
        std::cmp::Ordering::Equal => MeleeOutcome::Tie,
    };
    MeleeRoll {
        attacker_faces: fa,
        defender_faces: fd,
        attacker_hits: ha,
        defender_hits: hd,
        attacker_result: ra,
        defender_result: rd,
        outcome,
        margin: (ra - rd).unsigned_abs(),
    }
}

/// A melee round as [`resolve_melee`] fights it (the same dice in the same
/// order), counted without keeping the faces or the pools' terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MeleeRound {
    /// Dice each side rolled.
    pub attacker_dice: u32,
    pub defender_dice: u32,
    pub attacker_hits: u32,
    pub defender_hits: u32,
    pub attacker_result: i32,
    pub defender_result: i32,
    pub outcome: MeleeOutcome,
    /// |attacker_result − defender_result|.
    pub margin: u32,
}

/// [`resolve_melee`] without its explanation: no allocation.
pub fn resolve_melee_round(
    cat: &Catalogue,
    attacker: &MeleeSide,
    defender: &MeleeSide,
    dice: &mut Dice,
) -> MeleeRound {
    let pa = melee_pool_unexplained(cat, attacker, defender);
    let pd = melee_pool_unexplained(cat, defender, attacker);
    let ha = roll_side_with(&pa, attacker.reroll_misses, dice, |_| {});
    let hd = roll_side_with(&pd, defender.reroll_misses, dice, |_| {});
    let per_hit = cat.melee_resolution_modifier(MeleeResolutionModifier::Hits);
    let ra = ha as i32 * per_hit + melee_resolution_total(cat, attacker, defender);
    let rd = hd as i32 * per_hit + melee_resolution_total(cat, defender, attacker);
    let outcome = match ra.cmp(&rd) {
        std::cmp::Ordering::Greater => MeleeOutcome::AttackerWins,
        std::cmp::Ordering::Less => MeleeOutcome::DefenderWins,
        std::cmp::Ordering::Equal => MeleeOutcome::Tie,
    };
    MeleeRound {
        attacker_dice: pa.dice().min(10_000),
        defender_dice: pd.dice().min(10_000),
        attacker_hits: ha,
        defender_hits: hd,
        attacker_result: ra,
        defender_result: rd,
        outcome,
        margin: (ra - rd).unsigned_abs(),
    }
}

/// Per-die hit probability of a side's pool.
pub fn side_hit_probability(pool: &DicePool, reroll: bool) -> f64 {
    die_hit_probability(pool.to_hit(), reroll)
}
