//! Monte Carlo odds for *All the King's Men*: many battles of one set-up, battle i with the
//! seed derived from the set-up's and i (so splitting the runs between threads changes
//! nothing), shares with Wilson 95 % intervals; and the policy's calibration rows (issue item
//! 6: a mirror match, and a force against twice its units of the same mix).

use serde::Serialize;

use crate::rules::montecarlo::{battle_seed, Estimate};
use crate::rules::system::BattleSide;

use super::battle::{prepare, BattleSetup};
use super::catalogue::Catalogue;
use super::roster::{RosterDoc, UnitDoc};
use super::sim::{fight_with, StandardPolicy};

/// Results of a range of battles.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    pub runs: u32,
    pub attacker_wins: u32,
    pub defender_wins: u32,
    pub draws: u32,
    pub turns: u64,
}

impl Tally {
    pub fn merge(&mut self, o: &Tally) {
        self.runs += o.runs;
        self.attacker_wins += o.attacker_wins;
        self.defender_wins += o.defender_wins;
        self.draws += o.draws;
        self.turns += o.turns;
    }
}

/// The odds of a set-up.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    pub seed: u64,
    pub runs: u32,
    pub attacker_wins: u32,
    pub defender_wins: u32,
    pub draws: u32,
    pub attacker: Estimate,
    pub defender: Estimate,
    pub draw: Estimate,
    pub mean_turns: f64,
}

/// Fights battles `start..end` of `setup` (no narration), calling `progress` with each count.
pub fn run_range(
    cat: &Catalogue,
    setup: &BattleSetup,
    start: u32,
    end: u32,
    progress: &mut dyn FnMut(u32),
) -> Result<Tally, String> {
    let mut t = Tally::default();
    let mut s = setup.clone();
    for i in start..end {
        s.seed = battle_seed(setup.seed, i);
        let o = fight_with(cat, &s, &StandardPolicy, false)?;
        t.runs += 1;
        t.turns += u64::from(o.turns_played);
        match o.winner {
            Some(BattleSide::Attacker) => t.attacker_wins += 1,
            Some(BattleSide::Defender) => t.defender_wins += 1,
            None => t.draws += 1,
        }
        progress(i + 1 - start);
    }
    Ok(t)
}

/// Merges the ranges' tallies into the summary.
pub fn merge_ranges(seed: u64, parts: Vec<Result<Tally, String>>) -> Result<Summary, String> {
    let mut t = Tally::default();
    for p in parts {
        t.merge(&p?);
    }
    let n = u64::from(t.runs);
    Ok(Summary {
        seed,
        runs: t.runs,
        attacker_wins: t.attacker_wins,
        defender_wins: t.defender_wins,
        draws: t.draws,
        attacker: Estimate::wilson(u64::from(t.attacker_wins), n),
        defender: Estimate::wilson(u64::from(t.defender_wins), n),
        draw: Estimate::wilson(u64::from(t.draws), n),
        mean_turns: if n == 0 {
            0.0
        } else {
            t.turns as f64 / n as f64
        },
    })
}

/// An ordinary army of `copies` × (2 infantry, cavalry, skirmishers, foot artillery), all
/// regular under one general rated 2: the calibration's standard mix.
pub fn ordinary_army(name: &str, copies: usize) -> RosterDoc {
    let mut doc = RosterDoc::new(name);
    let mix = [
        "infantry",
        "infantry",
        "cavalry",
        "skirmishers",
        "foot_artillery",
    ];
    let mut n = 0;
    for _ in 0..copies {
        for t in mix {
            n += 1;
            doc.units.push(UnitDoc {
                id: Some(format!("u{n}")),
                name: format!("{t} {n}"),
                unit_type: t.into(),
                general: Some("g1".into()),
                rank_and_file: None,
                break_point: None,
                officer: true,
                ensign: true,
                quality: None,
                label: None,
                gun: None,
                group: None,
                variations: Default::default(),
                random_roll: None,
                arrives: "start".into(),
            });
        }
    }
    doc
}

/// One calibration row's verdict.
#[derive(Debug, Clone, Serialize)]
pub struct CalibrationRow {
    pub name: String,
    pub battles: u32,
    /// What is measured, in words.
    pub measure: String,
    pub share: Estimate,
    pub bound: String,
    pub ok: bool,
    pub draws: u32,
}

/// The calibration table: a mirror match (side A's share of the decisive results within 40–60
/// %), and twice the units against the same mix from either side (the larger wins over 85 %,
/// draws counting as not won).
pub fn calibrate(cat: &Catalogue, battles: u32) -> Result<Vec<CalibrationRow>, String> {
    let mut rows = Vec::new();
    let matches = [
        ("mirror, 5 v 5 units", 1usize, 1usize),
        ("mirror, 10 v 10 units", 2, 2),
        ("10 units attacking 5", 2, 1),
        ("5 units attacking 10", 1, 2),
    ];
    for (k, (name, a, d)) in matches.iter().enumerate() {
        let base = battle_seed(0x00A7_C0DE, k as u32);
        let p = prepare(
            cat,
            ordinary_army("A", *a),
            ordinary_army("B", *d),
            None,
            false,
            base,
        )?;
        let t = run_range(cat, &p.setup, 0, battles, &mut |_| {})?;
        let row = if a == d {
            let decisive = u64::from(t.attacker_wins + t.defender_wins);
            let share = Estimate::wilson(u64::from(t.attacker_wins), decisive);
            CalibrationRow {
                name: name.to_string(),
                battles,
                measure: "side A's share of decisive results".into(),
                ok: (0.40..=0.60).contains(&share.p),
                share,
                bound: "40–60 %".into(),
                draws: t.draws,
            }
        } else {
            let big_wins = if a > d {
                t.attacker_wins
            } else {
                t.defender_wins
            };
            let share = Estimate::wilson(u64::from(big_wins), u64::from(t.runs));
            CalibrationRow {
                name: name.to_string(),
                battles,
                measure: "the larger army's wins (draws not won)".into(),
                ok: share.p > 0.85,
                share,
                bound: "> 85 %".into(),
                draws: t.draws,
            }
        };
        rows.push(row);
    }
    Ok(rows)
}
