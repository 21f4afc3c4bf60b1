//! Monte Carlo odds for *One if by Land*: many battles of one set-up, battle i with the seed
//! derived from the set-up's and i (so splitting the runs between threads changes nothing),
//! shares with Wilson 95 % intervals; and the policy's calibration rows (issue item 6: a mirror
//! match, and a force against twice its figures of the same mix).

use serde::Serialize;

use crate::rules::montecarlo::{battle_seed, Estimate};
use crate::rules::system::BattleSide;

use super::battle::{BattleSetup, Level};
use super::catalogue::Catalogue;
use super::record::prepare;
use super::roster::{BrigadeDoc, CommanderDoc, RosterDoc, UnitDoc};
use super::sim::{fight_with, StandardPolicy};

/// Results of a range of battles.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    pub runs: u32,
    pub attacker_wins: u32,
    pub defender_wins: u32,
    pub draws: u32,
    /// Wins by army morale (B-34) rather than on time (B-35).
    pub decisive: u32,
    pub turns: u64,
}

impl Tally {
    pub fn merge(&mut self, o: &Tally) {
        self.runs += o.runs;
        self.attacker_wins += o.attacker_wins;
        self.defender_wins += o.defender_wins;
        self.draws += o.draws;
        self.decisive += o.decisive;
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
    pub decisive: u32,
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
        t.turns += u64::from(o.turns);
        if o.level == Level::Decisive {
            t.decisive += 1;
        }
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
        decisive: t.decisive,
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

/// An ordinary force of `copies` brigades, each two regular line battalions of six stands, a
/// regular rifle company, a troop of regular cavalry and a light gun, under a commander rated 1
/// (B-8's default): the calibration's standard mix (B-55).
pub fn ordinary_army(name: &str, copies: usize) -> RosterDoc {
    let mut doc = RosterDoc::new(name, "british");
    doc.brigades.clear();
    let mut n = 0;
    for b in 0..copies {
        let mut units = Vec::new();
        for (class, stands) in [
            ("british_line", 6),
            ("british_line", 6),
            ("loyalist_rifle", 4),
            ("cavalry", 4),
            ("artillery", 1),
        ] {
            n += 1;
            let mut u = UnitDoc::new(&format!("{class} {n}"), class, stands, "regular");
            u.id = Some(format!("u{n}"));
            if class == "artillery" {
                u.gun = Some("light".into());
            }
            units.push(u);
        }
        doc.brigades.push(BrigadeDoc {
            id: Some(format!("b{}", b + 1)),
            name: format!("Brigade {}", b + 1),
            commander: Some(CommanderDoc {
                id: Some(format!("c{}", b + 1)),
                name: format!("Commander {}", b + 1),
                rating: Some(1),
                wound: None,
            }),
            units,
        });
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

/// One calibration match: its name, the brigades of each side and the battle (open field).
#[derive(Debug, Clone)]
pub struct CalibrationMatch {
    pub name: &'static str,
    pub a: usize,
    pub d: usize,
    pub setup: BattleSetup,
}

/// The calibration's matches: mirror matches of one and two brigades, and two brigades against
/// one from either side; every battle on the open field.
pub fn calibration_matches(cat: &Catalogue) -> Result<Vec<CalibrationMatch>, String> {
    let matches = [
        ("mirror, 1 v 1 brigade", 1usize, 1usize),
        ("mirror, 2 v 2 brigades", 2, 2),
        ("2 brigades attacking 1", 2, 1),
        ("1 brigade attacking 2", 1, 2),
    ];
    matches
        .iter()
        .enumerate()
        .map(|(k, &(name, a, d))| {
            let base = battle_seed(0x0001_F1B1, k as u32);
            let p = prepare(
                cat,
                ordinary_army("A", a),
                ordinary_army("B", d),
                Some("open_field"),
                false,
                base,
            )?;
            Ok(CalibrationMatch {
                name,
                a,
                d,
                setup: p.setup,
            })
        })
        .collect()
}

/// The calibration table on one thread: mirror matches (side A's share of the decisive
/// results within 40–60 %), and twice the figures against the same mix from either side (the
/// larger wins over 85 %, draws counting as not won).
pub fn calibrate(cat: &Catalogue, battles: u32) -> Result<Vec<CalibrationRow>, String> {
    calibration_matches(cat)?
        .iter()
        .map(|m| {
            let t = run_range(cat, &m.setup, 0, battles, &mut |_| {})?;
            Ok(row(m.name, battles, m.a, m.d, &t))
        })
        .collect()
}

/// A calibration row from its tally.
pub fn row(name: &str, battles: u32, a: usize, d: usize, t: &Tally) -> CalibrationRow {
    if a == d {
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
            measure: "the larger force's wins (draws not won)".into(),
            ok: share.p > 0.85,
            share,
            bound: "> 85 %".into(),
            draws: t.draws,
        }
    }
}
