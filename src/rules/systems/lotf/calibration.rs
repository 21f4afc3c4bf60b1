//! The simulator's calibration table: fixed match-ups fought many times in
//! every scenario, with the bounds a simulator that plays like the book
//! should meet (`docs/simulator.md`, "Calibration"). `muster calibrate
//! --system lotf` prints it.

use serde::{Deserialize, Serialize};

use super::battle::{BattleSetup, ScenarioId};
use super::catalogue::Catalogue;
use super::combat::Side;
use super::montecarlo::{battle_seed, Estimate};
use super::roster::{CommanderDoc, ElementDoc, GroupDoc, RosterDoc};
use super::sim::{fight_prepared, BattleStats, Prepared, StandardPolicy};
use super::types::{ElementType, Nation, Size, Upgrade, War};

/// What a row is judged by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchKind {
    /// Two copies of one force.
    Mirror,
    /// Side A has twice side B's points.
    TwoToOne,
    /// 150 points of cavalry (A) against 150 points of infantry.
    CavalryInfantry,
}

/// One row: side A attacks, side B defends.
#[derive(Debug, Clone)]
pub struct CalibrationMatch {
    pub name: String,
    pub scenario: ScenarioId,
    pub kind: MatchKind,
    pub a: RosterDoc,
    pub b: RosterDoc,
}

fn group(name: &str, elements: Vec<ElementDoc>) -> GroupDoc {
    GroupDoc {
        id: None,
        name: name.into(),
        commander: Some(CommanderDoc {
            id: None,
            name: format!("Colonel of the {name}"),
        }),
        elements,
    }
}

fn el(name: &str, t: ElementType, s: Size) -> ElementDoc {
    ElementDoc::new(name, t, s)
}

fn force(name: &str, nation: Nation, groups: Vec<GroupDoc>, points: u32) -> RosterDoc {
    let mut r = RosterDoc::new(name, War::AmericanRevolution, nation, Some(points));
    r.force_commander = Some(CommanderDoc {
        id: None,
        name: "General".into(),
    });
    r.groups = groups;
    r
}

/// 150 points of mixed arms: line and light infantry, cavalry and a gun.
pub fn mixed(nation: Nation) -> RosterDoc {
    let mut light = el("Light Company", ElementType::Infantry, Size::Small);
    light.upgrades = vec![Upgrade::LightInfantry];
    force(
        "Mixed arms",
        nation,
        vec![
            group(
                "Foot Brigade",
                vec![
                    el("1st Foot", ElementType::Infantry, Size::Medium),
                    el("2nd Foot", ElementType::Infantry, Size::Medium),
                    light,
                ],
            ),
            group(
                "Mixed Brigade",
                vec![
                    el("3rd Foot", ElementType::Infantry, Size::Medium),
                    el("Light Horse", ElementType::Cavalry, Size::Medium),
                    el("Battery", ElementType::Artillery, Size::Medium),
                ],
            ),
        ],
        150,
    )
}

/// 150 points of line infantry: six medium elements in two groups.
pub fn infantry(nation: Nation) -> RosterDoc {
    let foot = |k: usize| el(&format!("{k} Foot"), ElementType::Infantry, Size::Medium);
    force(
        "All infantry",
        nation,
        vec![
            group("First Brigade", (1..=3).map(foot).collect()),
            group("Second Brigade", (4..=6).map(foot).collect()),
        ],
        150,
    )
}

/// 150 points of cavalry: five medium elements in two groups.
pub fn cavalry(nation: Nation) -> RosterDoc {
    let horse = |k: usize| el(&format!("{k} Horse"), ElementType::Cavalry, Size::Medium);
    force(
        "All cavalry",
        nation,
        vec![
            group("First Cavalry Brigade", (1..=3).map(horse).collect()),
            group("Second Cavalry Brigade", (4..=5).map(horse).collect()),
        ],
        150,
    )
}

/// The same force with every group twice (twice the points).
pub fn doubled(r: &RosterDoc) -> RosterDoc {
    let mut d = r.clone();
    d.name = format!("{} (doubled)", r.name);
    let more: Vec<GroupDoc> = r
        .groups
        .iter()
        .map(|g| GroupDoc {
            name: format!("{} (second)", g.name),
            ..g.clone()
        })
        .collect();
    d.groups.extend(more);
    d.points_limit = r.points_limit.map(|p| p * 2);
    d
}

/// Every scenario, the symmetric ones first.
pub const SCENARIOS: [ScenarioId; 8] = [
    ScenarioId::TakeTheField,
    ScenarioId::Reconnoiter,
    ScenarioId::HoldTheGround,
    ScenarioId::FlankAttack,
    ScenarioId::Surrounded,
    ScenarioId::Ambush,
    ScenarioId::FrontalAssault,
    ScenarioId::MeetingEngagement,
];

/// Scenarios whose two sides have the same task and the same ground.
pub fn symmetric(s: ScenarioId) -> bool {
    matches!(
        s,
        ScenarioId::TakeTheField | ScenarioId::Reconnoiter | ScenarioId::HoldTheGround
    )
}

/// The table's rows: for each scenario a mirror match and a 2:1 match of
/// mixed forces and of all-infantry forces; and cavalry against infantry in
/// Take the Field.
pub fn calibration_matches() -> Vec<CalibrationMatch> {
    let mut out = Vec::new();
    for s in SCENARIOS {
        for (label, a, b) in [
            ("mixed", mixed(Nation::British), mixed(Nation::American)),
            (
                "infantry",
                infantry(Nation::British),
                infantry(Nation::American),
            ),
        ] {
            out.push(CalibrationMatch {
                name: format!("{label} mirror"),
                scenario: s,
                kind: MatchKind::Mirror,
                a: a.clone(),
                b: b.clone(),
            });
            out.push(CalibrationMatch {
                name: format!("{label} 2:1"),
                scenario: s,
                kind: MatchKind::TwoToOne,
                a: doubled(&a),
                b,
            });
        }
    }
    out.push(CalibrationMatch {
        name: "cavalry v infantry".into(),
        scenario: ScenarioId::TakeTheField,
        kind: MatchKind::CavalryInfantry,
        a: cavalry(Nation::British),
        b: infantry(Nation::American),
    });
    out
}

/// Counts of one row.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct MatchTally {
    pub battles: u64,
    pub a_wins: u64,
    pub b_wins: u64,
    pub stats: BattleStats,
}

impl MatchTally {
    pub fn merge(&mut self, o: &MatchTally) {
        self.battles += o.battles;
        self.a_wins += o.a_wins;
        self.b_wins += o.b_wins;
        self.stats.add(&o.stats);
    }

    pub fn draws(&self) -> u64 {
        self.battles - self.a_wins - self.b_wins
    }

    /// Side A's share of the decisive results.
    pub fn decisive_share(&self) -> Estimate {
        Estimate::wilson(self.a_wins, self.a_wins + self.b_wins)
    }

    /// Side A's wins over all battles (draws count as not won).
    pub fn a_share(&self) -> Estimate {
        Estimate::wilson(self.a_wins, self.battles)
    }

    /// Side B's wins over all battles.
    pub fn b_share(&self) -> Estimate {
        Estimate::wilson(self.b_wins, self.battles)
    }

    /// Per battle.
    pub fn mean(&self, count: u32) -> f64 {
        if self.battles == 0 {
            0.0
        } else {
            f64::from(count) / self.battles as f64
        }
    }

    /// The bound the row is held to, in words, and whether it holds.
    pub fn judge(&self, m: &CalibrationMatch) -> (&'static str, bool) {
        let (bound, ok) = match m.kind {
            MatchKind::Mirror if symmetric(m.scenario) => {
                let p = self.decisive_share().p;
                (
                    "A takes 40–60 % of decisive results",
                    (0.40..=0.60).contains(&p),
                )
            }
            MatchKind::Mirror => (
                "neither side wins over 75 %",
                self.a_share().p <= 0.75 && self.b_share().p <= 0.75,
            ),
            MatchKind::TwoToOne if symmetric(m.scenario) => {
                ("the larger side wins over 85 %", self.a_share().p > 0.85)
            }
            MatchKind::TwoToOne => ("(reported, no bound)", true),
            // M-101: issue 16 asked for 25–75 %; by the book's rules foot outshoots horse
            // and a beaten horse falls back twice as far, so the bound is 15–75 %.
            MatchKind::CavalryInfantry => {
                let p = self.a_share().p;
                ("cavalry wins 15–75 % (M-101)", (0.15..=0.75).contains(&p))
            }
        };
        (bound, ok)
    }
}

/// Fights battles `start..end` of a row (seeds from `base`).
pub fn run_match(
    cat: &Catalogue,
    m: &CalibrationMatch,
    base: u64,
    start: u32,
    end: u32,
    progress: &mut dyn FnMut(u32),
) -> Result<MatchTally, String> {
    let mut t = MatchTally::default();
    let mut policy = StandardPolicy::new();
    // Only the seed changes from battle to battle: the forces are read once.
    let setup = BattleSetup::new(m.a.clone(), m.b.clone(), m.scenario, base);
    let prepared = Prepared::new(cat, &setup).map_err(|e| e.to_string())?;
    for i in start..end {
        let o = fight_prepared(cat, &prepared, battle_seed(base, i), &mut policy)
            .map_err(|e| e.to_string())?;
        t.battles += 1;
        match o.winner {
            Some(Side::Attacker) => t.a_wins += 1,
            Some(Side::Defender) => t.b_wins += 1,
            None => {}
        }
        t.stats.add(&o.stats);
        progress(i - start + 1);
    }
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::systems::lotf::validate::price_roster;

    #[test]
    fn calibration_forces_are_150_points_and_the_doubled_ones_300() {
        let cat = Catalogue::builtin().expect("catalogue");
        for r in [
            mixed(Nation::British),
            infantry(Nation::British),
            cavalry(Nation::British),
        ] {
            assert_eq!(price_roster(&cat, &r).total, 150, "{}", r.name);
            assert_eq!(price_roster(&cat, &doubled(&r)).total, 300, "{}", r.name);
        }
    }

    /// Issue 16's melee rate over the whole table (12 battles a row here;
    /// the documented table fights 2 000): at least one melee for every ten
    /// volleys. Engine 2.1's lines, which stopped at 9" to volley, made one
    /// in fourteen.
    #[test]
    fn the_table_has_a_melee_for_every_ten_volleys() {
        let cat = Catalogue::builtin().expect("catalogue");
        let mut all = BattleStats::default();
        for m in calibration_matches() {
            let t = run_match(&cat, &m, 7, 0, 12, &mut |_| {}).expect("the row is fought");
            all.add(&t.stats);
        }
        let rate = f64::from(all.melees) / f64::from(all.volleys);
        assert!(rate >= 0.10, "{rate:.3} melees a volley: {all:?}");
    }

    #[test]
    fn the_table_has_four_rows_a_scenario_and_cavalry_against_infantry() {
        let m = calibration_matches();
        assert_eq!(m.len(), 8 * 4 + 1);
        assert!(m.iter().any(
            |r| r.kind == MatchKind::CavalryInfantry && r.scenario == ScenarioId::TakeTheField
        ));
    }
}
