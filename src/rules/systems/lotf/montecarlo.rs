//! Monte Carlo odds for two forces: battle `i` is fought with the seed
//! [`battle_seed`]`(base, i)`, so the result does not depend on how the runs
//! are split between threads. A parallel driver (outside the rules core)
//! runs [`run_range`] on slices and combines the parts with
//! [`OddsSummary::merge`].

use std::collections::BTreeMap;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use super::battle::BattleSetup;
use super::catalogue::Catalogue;
use super::combat::{Side, VictoryLevel};
use super::sim::{fight_prepared, BattleCount, Prepared, SimError, StandardPolicy};

pub use crate::rules::montecarlo::{battle_seed, Estimate};

/// Counts from a set of battles; merge parts in any order.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct OddsTally {
    pub runs: u64,
    pub attacker_wins: u64,
    pub draws: u64,
    pub defender_wins: u64,
    /// `"attacker_major"`, `"defender_minor"`, `"tie"`, … → count.
    pub levels: BTreeMap<String, u64>,
    pub attacker_points_lost: u64,
    pub defender_points_lost: u64,
    /// Element id (prefixed by side) → battles in which it was lost.
    pub lost_elements: BTreeMap<String, u64>,
    /// Element id (prefixed by side) → name.
    pub element_names: BTreeMap<String, String>,
}

impl OddsTally {
    /// Add one battle's result; its losses are added by the caller, who
    /// counts them by element and names them once (see [`OddsRun::range`]).
    fn count(&mut self, b: &BattleCount) {
        self.runs += 1;
        match b.winner {
            Some(Side::Attacker) => self.attacker_wins += 1,
            Some(Side::Defender) => self.defender_wins += 1,
            None => self.draws += 1,
        }
        *self
            .levels
            .entry(level_key(b.winner, b.victory_level))
            .or_insert(0) += 1;
        self.attacker_points_lost += u64::from(b.attacker_points_lost);
        self.defender_points_lost += u64::from(b.defender_points_lost);
    }

    /// Combine two parts.
    pub fn merge(&mut self, other: &OddsTally) {
        self.runs += other.runs;
        self.attacker_wins += other.attacker_wins;
        self.draws += other.draws;
        self.defender_wins += other.defender_wins;
        for (k, v) in &other.levels {
            *self.levels.entry(k.clone()).or_insert(0) += v;
        }
        self.attacker_points_lost += other.attacker_points_lost;
        self.defender_points_lost += other.defender_points_lost;
        for (k, v) in &other.lost_elements {
            *self.lost_elements.entry(k.clone()).or_insert(0) += v;
        }
        for (k, v) in &other.element_names {
            self.element_names
                .entry(k.clone())
                .or_insert_with(|| v.clone());
        }
    }
}

/// `"attacker_major"`, `"defender_minor"`, …, or `"tie"`.
fn level_key(winner: Option<Side>, level: VictoryLevel) -> String {
    match (winner, level) {
        (None, _) | (_, VictoryLevel::Tie) => "tie".to_string(),
        (Some(s), l) => format!("{}_{}", s.id(), l.id()),
    }
}

/// An element often lost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LostElement {
    pub side: Side,
    pub id: String,
    pub name: String,
    /// Share of battles in which it was lost.
    pub p_lost: f64,
}

/// The report of a Monte Carlo run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OddsSummary {
    pub runs: u64,
    pub base_seed: u64,
    pub attacker_win: Estimate,
    pub draw: Estimate,
    pub defender_win: Estimate,
    /// Share of battles by side and level (`attacker_major`, …, `tie`).
    pub victory_levels: BTreeMap<String, f64>,
    pub avg_attacker_points_lost: f64,
    pub avg_defender_points_lost: f64,
    /// The ten elements most often lost.
    pub most_often_lost: Vec<LostElement>,
    /// The raw counts, for merging.
    pub tally: OddsTally,
}

impl OddsSummary {
    /// The report of a tally.
    pub fn from_tally(base_seed: u64, tally: OddsTally) -> OddsSummary {
        let n = tally.runs;
        let nf = n.max(1) as f64;
        let mut lost: Vec<LostElement> = tally
            .lost_elements
            .iter()
            .map(|(k, c)| {
                let (side, id) = k.split_once(':').unwrap_or(("attacker", k));
                LostElement {
                    side: if side == "defender" {
                        Side::Defender
                    } else {
                        Side::Attacker
                    },
                    id: id.to_string(),
                    name: tally.element_names.get(k).cloned().unwrap_or_default(),
                    p_lost: *c as f64 / nf,
                }
            })
            .collect();
        lost.sort_by(|a, b| {
            b.p_lost
                .partial_cmp(&a.p_lost)
                .unwrap_or(std::cmp::Ordering::Equal)
                .then_with(|| a.id.cmp(&b.id))
        });
        lost.truncate(10);
        OddsSummary {
            runs: n,
            base_seed,
            attacker_win: Estimate::wilson(tally.attacker_wins, n),
            draw: Estimate::wilson(tally.draws, n),
            defender_win: Estimate::wilson(tally.defender_wins, n),
            victory_levels: tally
                .levels
                .iter()
                .map(|(k, v)| (k.clone(), *v as f64 / nf))
                .collect(),
            avg_attacker_points_lost: tally.attacker_points_lost as f64 / nf,
            avg_defender_points_lost: tally.defender_points_lost as f64 / nf,
            most_often_lost: lost,
            tally,
        }
    }

    /// Combine the summaries of two slices of the same run.
    pub fn merge(&self, other: &OddsSummary) -> OddsSummary {
        let mut t = self.tally.clone();
        t.merge(&other.tally);
        OddsSummary::from_tally(self.base_seed, t)
    }
}

/// One odds request: the set-up read once ([`Prepared`]) and the policies
/// whose memo of melee odds outlives a range. The driver may fight ranges on
/// several threads at once; each range borrows a policy of its own, and a
/// memo only remembers what the same exact-odds function would answer, so no
/// battle depends on which policy fought it.
pub struct OddsRun<'c> {
    cat: &'c Catalogue,
    prepared: Prepared,
    base_seed: u64,
    policies: Mutex<Vec<StandardPolicy>>,
}

impl<'c> OddsRun<'c> {
    /// Check and read the set-up.
    pub fn new(cat: &'c Catalogue, setup: &BattleSetup) -> Result<OddsRun<'c>, SimError> {
        Ok(OddsRun {
            cat,
            prepared: Prepared::new(cat, setup)?,
            base_seed: setup.seed,
            policies: Mutex::new(Vec::new()),
        })
    }

    /// Fight battles `start..end` (seed of battle `i` = `battle_seed(setup.seed, i)`),
    /// without narration.
    pub fn range(
        &self,
        start: u32,
        end: u32,
        progress: &mut dyn FnMut(u32),
    ) -> Result<OddsTally, SimError> {
        // A poisoned lock only means another range panicked; the memos are still sound.
        let lock = || self.policies.lock().unwrap_or_else(|e| e.into_inner());
        let mut policy = lock().pop().unwrap_or_default();
        let mut tally = OddsTally::default();
        // Losses are counted by element and named once at the end.
        let mut lost = vec![0u64; self.prepared.units().len()];
        for i in start..end {
            let seed = battle_seed(self.base_seed, i);
            let b = fight_prepared(self.cat, &self.prepared, seed, &mut policy)?;
            tally.count(&b);
            for (n, &l) in lost.iter_mut().zip(&b.lost) {
                *n += u64::from(l);
            }
            progress(i - start + 1);
        }
        lock().push(policy);
        for (u, &n) in self.prepared.units().iter().zip(&lost) {
            let k = format!("{}:{}", u.side.id(), u.id);
            if n > 0 {
                *tally.lost_elements.entry(k.clone()).or_insert(0) += n;
            }
            tally
                .element_names
                .entry(k)
                .or_insert_with(|| u.name.to_string());
        }
        Ok(tally)
    }
}

/// Fight battles `start..end` of a run on their own (an [`OddsRun`] of one range).
pub fn run_range(
    cat: &Catalogue,
    setup: &BattleSetup,
    start: u32,
    end: u32,
    progress: &mut dyn FnMut(u32),
) -> Result<OddsTally, SimError> {
    OddsRun::new(cat, setup)?.range(start, end, progress)
}

/// Fight `runs` battles in sequence and report the odds. `progress` is
/// called after each battle with the number done.
pub fn monte_carlo(
    cat: &Catalogue,
    setup: &BattleSetup,
    runs: u32,
    progress: &mut dyn FnMut(u32),
) -> Result<OddsSummary, SimError> {
    let tally = run_range(cat, setup, 0, runs, progress)?;
    Ok(OddsSummary::from_tally(setup.seed, tally))
}

/// The odds of battles fought in ranges (on several threads, say), merged in range order; the
/// same battles give the same odds however they were split.
pub fn merge_ranges(
    seed: u64,
    ranges: Vec<Result<OddsTally, SimError>>,
) -> Result<OddsSummary, SimError> {
    let mut tally = OddsTally::default();
    for part in ranges {
        tally.merge(&part?);
    }
    Ok(OddsSummary::from_tally(seed, tally))
}
