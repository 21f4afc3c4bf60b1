//! Monte Carlo odds for two AWI forces: battle `i` of a run is fought with the seed
//! [`battle_seed`]`(base, i)`, so the result does not depend on how the runs are split between
//! threads. A driver outside the rules core runs [`run_range`] on slices and combines the parts
//! with [`merge_ranges`]. Also the calibration matches of `muster calibrate --system awi`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::rules::system::BattleSide;

use super::battle::{BattleSetup, Ending, Outcome};
use super::catalogue::Catalogue;
use super::record::prepare;
use super::roster::{BrigadeDoc, BrigadierDoc, LeaderDoc, RosterDoc, UnitDoc};
use super::sim::{self, Standard};
use super::types::{Grade, TroopType};

pub use crate::rules::montecarlo::{battle_seed, Estimate};

/// Counts from a set of battles; parts merge in any order.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct OddsTally {
    pub runs: u64,
    pub attacker_wins: u64,
    pub draws: u64,
    pub defender_wins: u64,
    /// `attacker_major`, `defender_minor`, `draw`, … → battles.
    pub levels: BTreeMap<String, u64>,
    pub by_army_break: u64,
    pub attacker_vp: u64,
    pub defender_vp: u64,
    pub moves: u64,
    /// `side:unit id` → battles in which it was lost (destroyed, routing or gone).
    pub lost_units: BTreeMap<String, u64>,
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
            Some(s) => format!("{}_{}", s.id(), o.level.id()),
            None => "draw".to_string(),
        };
        *self.levels.entry(key).or_insert(0) += 1;
        if o.ending == Ending::ArmyBreak {
            self.by_army_break += 1;
        }
        self.attacker_vp += u64::from(o.attacker.vp);
        self.defender_vp += u64::from(o.defender.vp);
        self.moves += u64::from(o.moves);
        for (side, result) in [("attacker", &o.attacker), ("defender", &o.defender)] {
            for u in &result.units {
                let k = format!("{side}:{}", u.id);
                if u.state.gone() {
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
        for (k, v) in &other.levels {
            *self.levels.entry(k.clone()).or_insert(0) += v;
        }
        self.by_army_break += other.by_army_break;
        self.attacker_vp += other.attacker_vp;
        self.defender_vp += other.defender_vp;
        self.moves += other.moves;
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

/// A unit's chance of being lost (routing, routed off or destroyed at the end).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LostUnit {
    pub side: BattleSide,
    pub id: String,
    pub name: String,
    pub p_lost: f64,
}

/// The odds of many battles, with Wilson 95 % intervals.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OddsSummary {
    pub runs: u64,
    pub base_seed: u64,
    pub attacker_win: Estimate,
    pub draw: Estimate,
    pub defender_win: Estimate,
    pub levels: BTreeMap<String, f64>,
    pub ended_by_army_break: f64,
    pub avg_attacker_vp: f64,
    pub avg_defender_vp: f64,
    pub avg_moves: f64,
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
            levels: tally
                .levels
                .iter()
                .map(|(k, &v)| (k.clone(), share(v)))
                .collect(),
            ended_by_army_break: share(tally.by_army_break),
            avg_attacker_vp: share(tally.attacker_vp),
            avg_defender_vp: share(tally.defender_vp),
            avg_moves: share(tally.moves),
            most_often_lost: lost,
            tally,
        }
    }
}

/// Fights battles `start..end` of a set-up (seeds derived from the set-up's), unnarrated.
pub fn run_range(
    cat: &Catalogue,
    setup: &BattleSetup,
    start: u32,
    end: u32,
    progress: &mut dyn FnMut(u32),
) -> Result<OddsTally, String> {
    let mut tally = OddsTally::default();
    let mut s = setup.clone();
    for i in start..end {
        s.seed = battle_seed(setup.seed, i);
        tally.add(&sim::fight_with(cat, &s, &Standard, false)?);
        progress(i - start + 1);
    }
    Ok(tally)
}

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

pub fn run(cat: &Catalogue, setup: &BattleSetup, runs: u32) -> Result<OddsSummary, String> {
    let tally = run_range(cat, setup, 0, runs, &mut |_| {})?;
    Ok(OddsSummary::from_tally(setup.seed, tally))
}

/// A calibration row: a mirror match, or a force against one with twice its bases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchKind {
    Mirror,
    TwoToOne,
}

#[derive(Debug, Clone)]
pub struct CalibrationMatch {
    pub name: String,
    pub kind: MatchKind,
    pub a: RosterDoc,
    pub b: RosterDoc,
}

fn unit(t: TroopType, g: Grade, bases: u32) -> UnitDoc {
    UnitDoc::new(t, g, bases)
}

/// An order of battle of `brigades`, each a list of units; brigadiers of ability 5.
pub fn mix(name: &str, brigades: &[Vec<UnitDoc>]) -> RosterDoc {
    let mut r = RosterDoc::new(name);
    r.cinc = Some(LeaderDoc {
        name: "CinC".into(),
        ..LeaderDoc::default()
    });
    r.brigades = brigades
        .iter()
        .enumerate()
        .map(|(i, units)| BrigadeDoc {
            name: format!("Brigade {}", i + 1),
            brigadier: Some(BrigadierDoc {
                name: format!("Brigadier {}", i + 1),
                ability: Some(serde_json::Value::from(5)),
                ..BrigadierDoc::default()
            }),
            units: units.clone(),
            ..BrigadeDoc::default()
        })
        .collect();
    r.assign_ids();
    r
}

/// The same mix with twice the bases: every unit at double its bases (a gun gets a second gun).
pub fn doubled(r: &RosterDoc) -> RosterDoc {
    let mut d = r.clone();
    d.name = format!("{} (twice the bases)", r.name);
    for b in &mut d.brigades {
        let mut more = Vec::new();
        for u in &mut b.units {
            if u.troop() == Some(TroopType::Artillery) {
                more.push(UnitDoc {
                    id: None,
                    ..u.clone()
                });
            } else if let Some(n) = super::roster::whole(u.bases.as_ref()) {
                u.bases = Some(serde_json::Value::from(n * 2));
            }
        }
        b.units.extend(more);
    }
    d.assign_ids();
    d
}

/// The calibration rows: mirror matches and two-to-one matches of a few mixes and the examples.
pub fn calibration_matches(examples: &[RosterDoc]) -> Vec<CalibrationMatch> {
    use Grade::*;
    use TroopType::*;
    let mut mixes = vec![
        mix(
            "All infantry",
            &[
                vec![unit(Infantry, Trained, 6); 3],
                vec![unit(Infantry, Trained, 6); 3],
            ],
        ),
        mix(
            "Mixed arms",
            &[
                vec![
                    unit(Infantry, Trained, 6),
                    unit(Infantry, Trained, 6),
                    unit(Skirmishers, Elite, 2),
                    unit(Artillery, Trained, 1),
                ],
                vec![
                    unit(Infantry, Raw, 6),
                    unit(Infantry, Militia, 8),
                    unit(Cavalry, Trained, 4),
                ],
            ],
        ),
    ];
    mixes.extend(examples.iter().filter(|r| r.unit_count() > 0).cloned());
    let mut out = Vec::new();
    for m in &mixes {
        out.push(CalibrationMatch {
            name: format!("{} mirror", m.name),
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

    /// The share the row is judged by, and whether it is within bounds: a mirror's side A takes
    /// 40–60 % of the decisive results; the larger force wins over 85 % (draws not won).
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
        let o = sim::fight_with(cat, &p.setup, &Standard, false)?;
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
