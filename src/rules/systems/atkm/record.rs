//! A battle recorded from the table (issue item 7): per unit the rank and file left, officer and
//! ensign lost (colours taken), collapsed or not, marched off by the scenario's exit; generals'
//! ratings after casualties; turns played and the scenario's own facts. Muster works out the
//! result by the victory rules (spec 5.4, K-14, K-16, K-39–K-41).

use serde::{Deserialize, Serialize};

use crate::rules::system::{BattleSide, Method, RecordProblem};

use super::battle::{army_collapsed, BattleSetup, Outcome};
use super::catalogue::Catalogue;
use super::sim::{army_count, outcome, start};
use super::types::UnitType;

/// One unit as it ended on the table; units not named ended untouched.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitReport {
    pub id: String,
    #[serde(default)]
    pub rank_and_file_end: Option<u32>,
    #[serde(default)]
    pub officer_lost: bool,
    #[serde(default)]
    pub ensign_lost: bool,
    #[serde(default)]
    pub collapsed: bool,
    #[serde(default)]
    pub left_table: bool,
    /// A reinforcement that never arrived.
    #[serde(default)]
    pub not_arrived: bool,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeneralReport {
    pub id: String,
    pub rating_end: u32,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideReport {
    #[serde(default)]
    pub units: Vec<UnitReport>,
    #[serde(default)]
    pub generals: Vec<GeneralReport>,
}

/// The result as the players enter it.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TabletopReport {
    pub turns_played: u32,
    #[serde(default)]
    pub attacker: SideReport,
    #[serde(default)]
    pub defender: SideReport,
    /// North Point: a British infantry figure reached the American edge in turns 1–3 (K-40).
    #[serde(default)]
    pub edge_reached: bool,
    /// Monmouth: the turn the Main Army arrived, if it did (K-39).
    #[serde(default)]
    pub reinforcements_arrived_turn: Option<u32>,
}

fn problem(field: String, message: String) -> RecordProblem {
    RecordProblem { field, message }
}

/// Assesses a tabletop result: every problem at once, or the decided outcome.
pub fn assess(
    cat: &Catalogue,
    setup: &BattleSetup,
    report: &TabletopReport,
) -> Result<Outcome, Vec<RecordProblem>> {
    let mut st = start(cat, setup).map_err(|e| vec![problem("setup".into(), e)])?;
    st.narrate = false;
    let mut problems = Vec::new();
    // Reinforcements reported as never arriving, and those reported as having fought.
    let mut held_back: Vec<String> = Vec::new();
    let mut fought: Vec<String> = Vec::new();
    if let Some(t) = report.reinforcements_arrived_turn {
        if t == 0 || t > report.turns_played {
            problems.push(problem(
                "reinforcements_arrived_turn".into(),
                format!(
                    "The Main Army arrives during the battle: on a turn from 1 to the {} played.",
                    report.turns_played
                ),
            ));
        }
    }
    if report.turns_played == 0 || report.turns_played > setup.turns {
        problems.push(problem(
            "turns_played".into(),
            format!("Turns played run from 1 to {}.", setup.turns),
        ));
    }
    for (side, sr, key) in [
        (BattleSide::Attacker, &report.attacker, "attacker"),
        (BattleSide::Defender, &report.defender, "defender"),
    ] {
        for (k, ur) in sr.units.iter().enumerate() {
            let field = format!("{key}.units[{k}]");
            let Some(u) = st
                .units
                .iter_mut()
                .find(|u| u.side == side && u.id == ur.id)
            else {
                problems.push(problem(
                    field,
                    format!("There is no unit '{}' in this army.", ur.id),
                ));
                continue;
            };
            if let Some(n) = ur.rank_and_file_end {
                if n > u.start {
                    problems.push(problem(
                        format!("{field}.rank_and_file_end"),
                        format!(
                            "{} started with {} and cannot end with {n}.",
                            u.name, u.start
                        ),
                    ));
                    continue;
                }
                u.figures = n;
            }
            // A unit that started without its officer or ensign cannot get one back here.
            u.officer = u.officer && !ur.officer_lost;
            u.ensign = u.ensign && !ur.ensign_lost;
            u.collapsed = ur.collapsed || u.figures <= u.break_point;
            u.gun_lost = u.collapsed && u.t.is_artillery();
            u.left_table = ur.left_table && !u.collapsed;
            if u.reinforcement {
                if ur.not_arrived {
                    held_back.push(u.id.clone());
                } else {
                    fought.push(u.id.clone());
                }
            }
        }
        for (k, gr) in sr.generals.iter().enumerate() {
            let field = format!("{key}.generals[{k}]");
            let Some(g) = st.generals[usize::from(side == BattleSide::Defender)]
                .iter_mut()
                .find(|g| g.id == gr.id)
            else {
                problems.push(problem(field, format!("There is no general '{}'.", gr.id)));
                continue;
            };
            if gr.rating_end == 0 || gr.rating_end > g.start_rating {
                problems.push(problem(
                    format!("{field}.rating_end"),
                    format!(
                        "{}'s rating can only fall, from {} to no less than 1.",
                        g.name, g.start_rating
                    ),
                ));
                continue;
            }
            g.rating = gr.rating_end;
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    // Reinforcements count once they came (K-39): when the turn they arrived is given, or one
    // of them is reported as having fought; units marked not arrived stay out.
    let arrived = report.reinforcements_arrived_turn.is_some() || !fought.is_empty();
    for u in st.units.iter_mut().filter(|u| u.reinforcement) {
        u.arrived = arrived && !held_back.contains(&u.id);
    }
    let (as_, al) = army_count(&st, BattleSide::Attacker);
    let (ds, dl) = army_count(&st, BattleSide::Defender);
    let a = army_collapsed(as_, al);
    let d = army_collapsed(ds, dl);
    let left_off = st
        .units
        .iter()
        .filter(|u| {
            u.side == BattleSide::Attacker
                && u.left_table
                && (u.t == UnitType::Infantry || u.t.is_artillery())
        })
        .count();
    let inf_lost = st
        .units
        .iter()
        .filter(|u| u.side == BattleSide::Defender && u.t == UnitType::Infantry && u.collapsed)
        .count();
    let (winner, level, reason): (Option<BattleSide>, &str, String) = match setup.scenario.as_str()
    {
        "monmouth_1778" if left_off >= 7 && report.turns_played <= 4 => (
            Some(BattleSide::Attacker),
            "major",
            "7 or more British units marched off the north edge by turn 4 (K-39)".into(),
        ),
        "monmouth_1778" if d && !arrived => (
            Some(BattleSide::Attacker),
            "victory",
            "the Advance Corps collapsed before the Main Army arrived (K-39)".into(),
        ),
        "north_point_1814" if report.edge_reached && !a => (
            Some(BattleSide::Attacker),
            "victory",
            "British infantry reached the American edge (K-40)".into(),
        ),
        _ => match (a, d) {
            (true, true) => (None, "draw", "both armies collapsed (K-16)".into()),
            (true, false) => (
                Some(BattleSide::Defender),
                if setup.scenario == "north_point_1814" && inf_lost >= 3 {
                    "minor"
                } else {
                    "victory"
                },
                "the attacking army collapsed (K-16)".into(),
            ),
            (false, true) => (
                Some(BattleSide::Attacker),
                "victory",
                "the defending army collapsed (K-16)".into(),
            ),
            (false, false) => match setup.scenario.as_str() {
                "north_point_1814" if report.turns_played >= 3 => (
                    Some(BattleSide::Defender),
                    if inf_lost >= 3 { "minor" } else { "victory" },
                    "the British were kept off the American edge to the end of turn 3 (K-40)"
                        .into(),
                ),
                "monmouth_1778" => (
                    None,
                    "draw",
                    "the British got away without a decision (K-39)".into(),
                ),
                _ => (
                    None,
                    "draw",
                    "no army collapsed: a draw (K-14, K-16)".into(),
                ),
            },
        },
    };
    Ok(outcome(
        setup,
        &st,
        winner,
        level,
        &reason,
        report.turns_played,
        Method::Tabletop,
    ))
}
