//! Land of the Free combat mechanics as pure functions over explicit state.
//!
//! Every number comes from the [`Catalogue`](super::Catalogue) (its tables are
//! the one source of truth); every roll comes from a [`Dice`](crate::rules::dice::Dice)
//! passed in. Each function names the rule and ruling (R-n from the shared
//! rulings, M-n from `docs/rulings.md`) it implements.

use std::borrow::Cow;
pub mod charges;
pub mod commanders;
pub mod discipline;
pub mod melee;
pub mod morale;
pub mod shooting;
pub mod victory;

use serde::{Deserialize, Serialize};

pub use charges::{
    charge_permission, counter_charge_allowed, size_may_charge, withdraw_reaction_expr, ChargeBar,
    ChargePermission,
};
pub use commanders::{
    commander_casualty_probability, commander_killed, rating_for_roll, roll_command_points,
    roll_rating, Rating,
};
pub use discipline::{action_dice, combat_orders, degrade, take_hits, HitResult};
pub use melee::{
    melee_pool, melee_pool_unexplained, melee_resolution, melee_resolution_total, resolve_melee,
    resolve_melee_round, MeleeOutcome, MeleeRoll, MeleeRound, MeleeSide, Supporter,
};
pub use morale::{
    morale_modifier, morale_modifier_total, morale_pass_probability, roll_morale, MoraleRoll,
    MoraleSituation, MoraleTest, TestKind,
};
pub use shooting::{
    judge_volley, roll_volley, roll_volley_effect, shooting_pool, shooting_pool_unexplained,
    shot_kind, Ammunition, ShooterState, ShotBar, ShotKind, ShotSituation, ShotSpec, VolleyEffect,
    VolleyRoll,
};
pub use victory::{
    element_counts_as_broken, group_is_broken, victory_by_broken_force, victory_by_objectives,
    victory_by_points, DecidedBy, Victory, VictoryLevel,
};

/// The two sides of a battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Attacker,
    Defender,
}

impl Side {
    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::Attacker => Side::Defender,
            Side::Defender => Side::Attacker,
        }
    }

    /// `attacker` or `defender`.
    pub fn id(self) -> &'static str {
        match self {
            Side::Attacker => "attacker",
            Side::Defender => "defender",
        }
    }
}

/// One line of a dice pool or modifier sum, for explanations.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Term {
    /// The table row id (`cover`, `battle_line`, …) or `base`/`action`.
    pub id: Cow<'static, str>,
    /// A short label in our own words.
    pub label: Cow<'static, str>,
    pub value: i32,
}

impl Term {
    /// Borrowed words: the simulator builds terms on every roll and never
    /// reads them, so they must cost no allocation.
    pub(crate) fn new(id: &'static str, label: &'static str, value: i32) -> Term {
        Term {
            id: Cow::Borrowed(id),
            label: Cow::Borrowed(label),
            value,
        }
    }
}

/// A dice pool with the terms that built it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DicePool {
    pub terms: Vec<Term>,
    /// The sum of the terms; zero or below still rolls one die.
    pub total: i32,
    /// The normal to-hit number (5+, R-14).
    pub normal_to_hit: u8,
    /// The to-hit number of the single die of an empty pool (6, R-14).
    pub zero_pool_to_hit: u8,
}

impl DicePool {
    fn new(normal_to_hit: u8, zero_pool_to_hit: u8) -> DicePool {
        DicePool {
            // Room for a typical pool's terms at once, not four reallocations.
            terms: Vec::with_capacity(8),
            total: 0,
            normal_to_hit,
            zero_pool_to_hit,
        }
    }

    /// A pool that keeps only its total: the simulator rolls thousands of
    /// pools it never explains, and their terms would cost an allocation each.
    fn unexplained(normal_to_hit: u8, zero_pool_to_hit: u8) -> DicePool {
        DicePool {
            terms: Vec::new(),
            total: 0,
            normal_to_hit,
            zero_pool_to_hit,
        }
    }

    fn add(&mut self, id: &'static str, label: &'static str, value: i32) {
        if value != 0 || id == "base" || id == "action" {
            self.terms.push(Term::new(id, label, value));
            self.total += value;
        }
    }

    /// [`add`](Self::add) a term, or only its value to the total when the
    /// pool is not to be explained.
    fn put(&mut self, explain: bool, id: &'static str, label: &'static str, value: i32) {
        if explain {
            self.add(id, label, value);
        } else {
            self.total += value;
        }
    }

    /// Dice actually rolled: the total, or one die for a pool of zero or
    /// fewer.
    pub fn dice(&self) -> u32 {
        if self.total <= 0 {
            1
        } else {
            self.total as u32
        }
    }

    /// The number each die needs: 5+, or 6 for the single die of an empty
    /// pool.
    pub fn to_hit(&self) -> u8 {
        if self.total <= 0 {
            self.zero_pool_to_hit
        } else {
            self.normal_to_hit
        }
    }

    /// "2 base + 4 Action + 1 point blank − 1 cover = 6 dice".
    pub fn explanation(&self) -> String {
        let mut s = String::new();
        for (i, t) in self.terms.iter().enumerate() {
            let mag = t.value.unsigned_abs();
            if i == 0 {
                if t.value < 0 {
                    s.push('−');
                }
            } else if t.value < 0 {
                s.push_str(" − ");
            } else {
                s.push_str(" + ");
            }
            s.push_str(&format!("{mag} {}", t.label));
        }
        if self.total <= 0 {
            s.push_str(&format!(
                " = {} dice, so one die that hits only on a {} (R-14)",
                self.total, self.zero_pool_to_hit
            ));
        } else {
            s.push_str(&format!(
                " = {} {}",
                self.total,
                if self.total == 1 { "die" } else { "dice" }
            ));
        }
        s
    }
}

/// Probability that one die hits on `to_hit`+ (optionally with one re-roll
/// of a miss).
pub fn die_hit_probability(to_hit: u8, reroll_misses: bool) -> f64 {
    let p = f64::from(7u8.saturating_sub(to_hit.clamp(1, 7))) / 6.0;
    if reroll_misses {
        p + (1.0 - p) * p
    } else {
        p
    }
}

/// The exact distribution of hits from `n` dice, each hitting with
/// probability `p` (binomial).
pub fn binomial(n: u32, p: f64) -> Vec<f64> {
    // One die at a time, in place (one allocation, not one per die): after a
    // die, k hits come from k − 1 and a hit, or k and a miss. Each entry is
    // summed in the same order as ever, so the numbers are the same to the bit.
    let n = n as usize;
    let mut dist = Vec::with_capacity(n + 1);
    dist.push(1.0);
    for len in 1..=n {
        dist.push(dist[len - 1] * p);
        for k in (1..len).rev() {
            dist[k] = dist[k - 1] * p + dist[k] * (1.0 - p);
        }
        dist[0] *= 1.0 - p;
    }
    dist
}
