//! Monte Carlo odds for two *Liberty or Death!* armies: battle `i` of a run is fought with the
//! seed [`battle_seed`]`(base, i)`, so the result does not depend on how the runs are split
//! between threads. A driver outside the rules core runs [`run_range`] on slices and combines
//! the parts with [`merge_ranges`].

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::rules::system::BattleSide;

use super::battle::{BattleSetup, EndReason, Outcome};
use super::catalogue::Catalogue;
use super::record::prepare;
use super::roster::{BrigadeDoc, LeaderDoc, RosterDoc, UnitDoc};
use super::sim;

pub use crate::rules::montecarlo::{battle_seed, Estimate};

/// Counts from a set of battles; parts merge in any order.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct OddsTally {
    pub runs: u64,
    pub attacker_wins: u64,
    pub draws: u64,
    pub defender_wins: u64,
    /// `attacker_major`, `defender_minor`, `draw`, … → battles.
    pub bands: BTreeMap<String, u64>,
    pub by_break_point: u64,
    pub attacker_vp: u64,
    pub defender_vp: u64,
    pub turns: u64,
    /// `side:unit id` → battles in which it was lost (BROKEN or routed off).
    pub lost_units: BTreeMap<String, u64>,
    /// `side:unit id` → name.
    pub unit_names: BTreeMap<String, String>,
}

impl OddsTally {
    pub fn add(&mut self, o: &Outcome) {
        self.runs += 1;
        match o.winner {
            Some(BattleSide::Attacker) => self.attacker_wins += 1,
            Some(BattleSide::Defender) => self.defender_wins += 1,
            None => self.draws += 1,
        }
        let key = match o.winner {
            Some(s) => format!("{}_{}", s.id(), o.band.id()),
            None => "draw".to_string(),
        };
        *self.bands.entry(key).or_insert(0) += 1;
        if o.ended_by == EndReason::BreakPoint {
            self.by_break_point += 1;
        }
        self.attacker_vp += u64::from(o.attacker.vp);
        self.defender_vp += u64::from(o.defender.vp);
        self.turns += u64::from(o.turns_played);
        for (side, result) in [("attacker", &o.attacker), ("defender", &o.defender)] {
            for u in &result.units {
                let k = format!("{side}:{}", u.unit);
                if u.end.lost() {
                    *self.lost_units.entry(k.clone()).or_insert(0) += 1;
                }
                self.unit_names.entry(k).or_insert_with(|| u.name.clone());
            }
        }
    }

    pub fn merge(&mut self, other: &OddsTally) {
        self.runs += other.runs;
        self.attacker_wins += other.attacker_wins;
        self.draws += other.draws;
        self.defender_wins += other.defender_wins;
        for (k, v) in &other.bands {
            *self.bands.entry(k.clone()).or_insert(0) += v;
        }
        self.by_break_point += other.by_break_point;
        self.attacker_vp += other.attacker_vp;
        self.defender_vp += other.defender_vp;
        self.turns += other.turns;
        for (k, v) in &other.lost_units {
            *self.lost_units.entry(k.clone()).or_insert(0) += v;
        }
        for (k, v) in &other.unit_names {
            self.unit_names
                .entry(k.clone())
                .or_insert_with(|| v.clone());
        }
    }
}

/// A unit often lost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LostUnit {
    pub side: BattleSide,
    pub id: String,
    pub name: String,
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
    /// Share of battles by winner and band (`attacker_major`, …, `draw`).
    pub bands: BTreeMap<String, f64>,
    /// Share of battles that ended at a break point.
    pub ended_by_break_point: f64,
    pub avg_attacker_vp: f64,
    pub avg_defender_vp: f64,
    pub avg_turns: f64,
    /// The ten units most often lost.
    pub most_often_lost: Vec<LostUnit>,
    pub tally: OddsTally,
}

impl OddsSummary {
    pub fn from_tally(base_seed: u64, tally: OddsTally) -> OddsSummary {
        let n = tally.runs;
        let share = |k: u64| if n == 0 { 0.0 } else { k as f64 / n as f64 };
        let mut lost: Vec<LostUnit> = tally
            .lost_units
            .iter()
            .map(|(k, &v)| {
                let (side, id) = k.split_once(':').unwrap_or(("attacker", k));
                LostUnit {
                    side: if side == "defender" {
                        BattleSide::Defender
                    } else {
                        BattleSide::Attacker
                    },
                    id: id.to_string(),
                    name: tally.unit_names.get(k).cloned().unwrap_or_default(),
                    p_lost: share(v),
                }
            })
            .collect();
        lost.sort_by(|a, b| b.p_lost.total_cmp(&a.p_lost).then(a.id.cmp(&b.id)));
        lost.truncate(10);
        OddsSummary {
            runs: n,
            base_seed,
            attacker_win: Estimate::wilson(tally.attacker_wins, n),
            draw: Estimate::wilson(tally.draws, n),
            defender_win: Estimate::wilson(tally.defender_wins, n),
            bands: tally
                .bands
                .iter()
                .map(|(k, &v)| (k.clone(), share(v)))
                .collect(),
            ended_by_break_point: share(tally.by_break_point),
            avg_attacker_vp: share(tally.attacker_vp),
            avg_defender_vp: share(tally.defender_vp),
            avg_turns: share(tally.turns),
            most_often_lost: lost,
            tally,
        }
    }
}

/// Fights battles `start..end` of a run (seeds from `setup.seed`), without narration;
/// `progress(n)` says n battles of the range are done.
pub fn run_range(
    cat: &Catalogue,
    setup: &BattleSetup,
    start: u32,
    end: u32,
    progress: &mut dyn FnMut(u32),
) -> Result<OddsTally, String> {
    sim::check(cat, setup)?;
    let mut tally = OddsTally::default();
    let mut s = setup.clone();
    for i in start..end {
        s.seed = battle_seed(setup.seed, i);
        tally.add(&sim::fight(cat, &s, false)?);
        progress(i - start + 1);
    }
    Ok(tally)
}

/// Combines the parts of [`run_range`] into a summary.
pub fn merge_ranges(
    base_seed: u64,
    parts: Vec<Result<OddsTally, String>>,
) -> Result<OddsSummary, String> {
    let mut tally = OddsTally::default();
    for p in parts {
        tally.merge(&p?);
    }
    Ok(OddsSummary::from_tally(base_seed, tally))
}

/// Runs `runs` battles on this thread.
pub fn run(cat: &Catalogue, setup: &BattleSetup, runs: u32) -> Result<OddsSummary, String> {
    let tally = run_range(cat, setup, 0, runs, &mut |_| {})?;
    Ok(OddsSummary::from_tally(setup.seed, tally))
}

/// What a calibration row checks (spec 9.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchKind {
    /// Two copies of one army: side A's share of decisive results must be 40–60 %.
    Mirror,
    /// An army against one with twice its units: the larger must win more than 85 %.
    TwoToOne,
}

/// One calibration match: side A (first) against side B, each battle set up afresh
/// (initiative and Command Points rolled) from its own seed.
#[derive(Debug, Clone)]
pub struct CalibrationMatch {
    pub name: String,
    pub kind: MatchKind,
    pub a: RosterDoc,
    pub b: RosterDoc,
}

fn mix(name: &str, list: &str, brigades: &[&[(&str, u32)]]) -> RosterDoc {
    let mut r = RosterDoc::new(name, list);
    r.brigades = brigades
        .iter()
        .enumerate()
        .map(|(i, units)| BrigadeDoc {
            id: None,
            name: format!("Brigade {}", i + 1),
            general: Some(LeaderDoc::default()),
            units: units.iter().map(|&(e, n)| UnitDoc::new(e, n)).collect(),
        })
        .collect();
    r.assign_ids();
    r
}

/// The larger army of a 2:1 row: the same army with every brigade twice (L-61).
fn doubled(r: &RosterDoc) -> RosterDoc {
    let mut d = r.clone();
    d.name = format!("{} (doubled)", r.name);
    let more: Vec<BrigadeDoc> = r
        .brigades
        .iter()
        .map(|b| BrigadeDoc {
            id: None,
            name: format!("{} (second)", b.name),
            general: Some(LeaderDoc::default()),
            units: b
                .units
                .iter()
                .map(|u| UnitDoc {
                    id: None,
                    ..u.clone()
                })
                .collect(),
        })
        .collect();
    d.brigades.extend(more);
    d.assign_ids();
    d
}

/// The calibration table's matches: mirrors of several mixes and the examples, and each mix
/// against twice itself.
pub fn calibration_matches(examples: &[RosterDoc]) -> Vec<CalibrationMatch> {
    let mut mixes = vec![
        mix(
            "All infantry",
            "continental",
            &[
                &[("continental_regiment", 4); 4],
                &[("continental_regiment", 4); 4],
            ],
        ),
        mix(
            "Mixed arms",
            "british",
            &[
                &[
                    ("regular_infantry_regiment", 4),
                    ("regular_infantry_regiment", 4),
                    ("light_infantry", 4),
                    ("artillery_6pdr", 2),
                ],
                &[
                    ("highland_infantry_regiment", 4),
                    ("grenadier_infantry", 4),
                    ("legion_cavalry", 4),
                ],
            ],
        ),
    ];
    mixes.extend(examples.iter().cloned());
    let mut out = Vec::new();
    for m in &mixes {
        out.push(CalibrationMatch {
            name: format!("{} v the same", m.name),
            kind: MatchKind::Mirror,
            a: m.clone(),
            b: m.clone(),
        });
    }
    for m in &mixes {
        out.push(CalibrationMatch {
            name: format!("{} x2 v {}", m.name, m.name),
            kind: MatchKind::TwoToOne,
            a: doubled(m),
            b: m.clone(),
        });
    }
    out
}

/// Counts of one calibration row.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchTally {
    pub battles: u64,
    pub a_wins: u64,
    pub b_wins: u64,
}

impl MatchTally {
    pub fn merge(&mut self, o: &MatchTally) {
        self.battles += o.battles;
        self.a_wins += o.a_wins;
        self.b_wins += o.b_wins;
    }

    /// The share the row is judged by, and whether it is within bounds.
    pub fn judge(&self, kind: MatchKind) -> (Estimate, bool) {
        match kind {
            MatchKind::Mirror => {
                let e = Estimate::wilson(self.a_wins, self.a_wins + self.b_wins);
                (e, e.p >= 0.40 && e.p <= 0.60)
            }
            MatchKind::TwoToOne => {
                let e = Estimate::wilson(self.a_wins, self.battles);
                (e, e.p > 0.85)
            }
        }
    }
}

/// Fights battles `start..end` of a calibration match (seeds from `base`).
pub fn run_match(
    cat: &Catalogue,
    m: &CalibrationMatch,
    base: u64,
    start: u32,
    end: u32,
    progress: &mut dyn FnMut(u32),
) -> Result<MatchTally, String> {
    let mut t = MatchTally::default();
    for i in start..end {
        let seed = battle_seed(base, i);
        let p = prepare(cat, m.a.clone(), m.b.clone(), None, false, seed)?;
        let o = sim::fight(cat, &p.setup, false)?;
        t.battles += 1;
        match o.winner {
            Some(BattleSide::Attacker) => t.a_wins += 1,
            Some(BattleSide::Defender) => t.b_wins += 1,
            None => {}
        }
        progress(i - start + 1);
    }
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_brackets_the_share() {
        let e = Estimate::wilson(50, 100);
        assert!((e.p - 0.5).abs() < 1e-12);
        assert!(e.low > 0.39 && e.low < 0.41, "{e:?}");
        assert!(e.high > 0.59 && e.high < 0.61, "{e:?}");
        assert_eq!(Estimate::wilson(0, 0).high, 1.0);
    }
}
