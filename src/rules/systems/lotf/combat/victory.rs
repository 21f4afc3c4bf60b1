//! Broken groups and forces, points lost, objectives and victory levels
//!

use serde::{Deserialize, Serialize};

use super::Side;
use crate::rules::systems::lotf::catalogue::Catalogue;
use crate::rules::systems::lotf::types::DisciplineLevel;

/// Whether an element counts as broken for its group and as lost
/// for victory points: Shattered, removed, off the table, or
/// Exhausted.
pub fn element_counts_as_broken(level: DisciplineLevel, removed: bool) -> bool {
    removed
        || matches!(
            level,
            DisciplineLevel::Exhausted | DisciplineLevel::Shattered
        )
}

/// A group is broken when its broken elements outnumber the others; a tie
/// is not broken; reserves count.
pub fn group_is_broken(broken: usize, total: usize) -> bool {
    broken > total - broken.min(total)
}

/// A force is broken when its broken groups outnumber its unbroken ones; a tie is not.
pub fn force_is_broken(broken_groups: usize, groups: usize) -> bool {
    group_is_broken(broken_groups, groups)
}

/// What one count of broken groups decides (R-23, M-26).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BrokenForces {
    /// Neither force is broken: play on (after the last turn, objectives or victory points decide).
    Neither,
    /// Only this side's force is broken: it concedes and the game ends.
    Concedes(Side),
    /// Both forces are broken at the same count: the game ends, neither concedes, and victory
    /// points decide (M-26).
    Both,
}

/// The verdict of one count of broken groups, for the attacker and the defender, each given as
/// `(broken groups, groups)` (R-23, M-26). The count is made at the start of every turn from the
/// second, and once more after the last turn, as if at the start of another. The recorder and the
/// simulator both ask this one function.
pub fn broken_force_verdict(attacker: (usize, usize), defender: (usize, usize)) -> BrokenForces {
    match (
        force_is_broken(attacker.0, attacker.1),
        force_is_broken(defender.0, defender.1),
    ) {
        (false, false) => BrokenForces::Neither,
        (true, false) => BrokenForces::Concedes(Side::Attacker),
        (false, true) => BrokenForces::Concedes(Side::Defender),
        (true, true) => BrokenForces::Both,
    }
}

/// Victory levels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VictoryLevel {
    Major,
    Minor,
    Marginal,
    Tie,
}

impl VictoryLevel {
    /// The id used in the catalogue's victory table.
    pub fn id(self) -> &'static str {
        match self {
            VictoryLevel::Major => "major",
            VictoryLevel::Minor => "minor",
            VictoryLevel::Marginal => "marginal",
            VictoryLevel::Tie => "tie",
        }
    }

    fn from_id(id: &str) -> Option<VictoryLevel> {
        match id {
            "major" => Some(VictoryLevel::Major),
            "minor" => Some(VictoryLevel::Minor),
            "marginal" => Some(VictoryLevel::Marginal),
            "tie" => Some(VictoryLevel::Tie),
            _ => None,
        }
    }
}

/// What decided the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DecidedBy {
    /// A force had more broken than unbroken groups at the start of a turn.
    ForceBroken,
    Objectives,
    VictoryPoints,
}

/// The result of a game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Victory {
    /// `None` for a tie.
    pub winner: Option<Side>,
    pub level: VictoryLevel,
    pub attacker_vp: u8,
    pub defender_vp: u8,
    pub decided_by: DecidedBy,
    /// The arithmetic in words, e.g. "defender lost 60, attacker lost 25:
    /// difference 35 of 150 points = 23.3 % → Minor Victory 5:2 (R-21)".
    pub arithmetic: String,
}

fn level_vp(cat: &Catalogue, level: VictoryLevel) -> (u8, u8) {
    cat.tables()
        .victory_points
        .levels
        .iter()
        .find(|l| l.id == level.id())
        .map(|l| (l.winner, l.loser))
        .unwrap_or((3, 3))
}

fn make(
    cat: &Catalogue,
    winner: Option<Side>,
    level: VictoryLevel,
    by: DecidedBy,
    text: String,
) -> Victory {
    let (w, l) = level_vp(cat, level);
    let (a, d) = match winner {
        Some(Side::Attacker) => (w, l),
        Some(Side::Defender) => (l, w),
        None => (w, w),
    };
    Victory {
        winner,
        level,
        attacker_vp: a,
        defender_vp: d,
        decided_by: by,
        arithmetic: text,
    }
}

/// Victory by points lost: the difference as a percentage of
/// the game's points size; more than 25 % Major, more than 10 % Minor, above
/// 0 Marginal, none a Tie (thresholds from the catalogue).
pub fn victory_by_points(
    cat: &Catalogue,
    attacker_lost: u32,
    defender_lost: u32,
    game_size: u32,
) -> Victory {
    let diff = attacker_lost.abs_diff(defender_lost);
    let size = game_size.max(1);
    let pct = f64::from(diff) * 100.0 / f64::from(size);
    let winner = match attacker_lost.cmp(&defender_lost) {
        std::cmp::Ordering::Less => Some(Side::Attacker),
        std::cmp::Ordering::Greater => Some(Side::Defender),
        std::cmp::Ordering::Equal => None,
    };
    let level = if winner.is_none() {
        VictoryLevel::Tie
    } else {
        cat.tables()
            .victory_points
            .levels
            .iter()
            .filter_map(|l| l.above_percent.map(|a| (l, a)))
            .find(|(_, above)| pct > f64::from(*above))
            .and_then(|(l, _)| VictoryLevel::from_id(&l.id))
            .unwrap_or(VictoryLevel::Marginal)
    };
    let (w, l) = level_vp(cat, level);
    let text = format!(
        "attacker lost {attacker_lost} points, defender lost {defender_lost}: difference {diff} of {size} = {pct:.1} % → {} {w}:{l} (R-21)",
        level_name(level)
    );
    make(cat, winner, level, DecidedBy::VictoryPoints, text)
}

fn level_name(l: VictoryLevel) -> &'static str {
    match l {
        VictoryLevel::Major => "Major Victory",
        VictoryLevel::Minor => "Minor Victory",
        VictoryLevel::Marginal => "Marginal Victory",
        VictoryLevel::Tie => "Tie",
    }
}

/// Victory by objectives at the end: all of them Major; two or more
/// more than the opponent Minor; one more Marginal; equal → victory points.
pub fn victory_by_objectives(
    cat: &Catalogue,
    attacker_held: u32,
    defender_held: u32,
    total: u32,
    attacker_lost: u32,
    defender_lost: u32,
    game_size: u32,
) -> Victory {
    if attacker_held == defender_held {
        let mut v = victory_by_points(cat, attacker_lost, defender_lost, game_size);
        v.arithmetic = format!(
            "objectives {attacker_held}–{defender_held}, level, so points decide: {} (R-22)",
            v.arithmetic
        );
        return v;
    }
    let (winner, w, l) = if attacker_held > defender_held {
        (Side::Attacker, attacker_held, defender_held)
    } else {
        (Side::Defender, defender_held, attacker_held)
    };
    let level = if w >= total && total > 0 {
        VictoryLevel::Major
    } else if w - l >= 2 {
        VictoryLevel::Minor
    } else {
        VictoryLevel::Marginal
    };
    let (a, b) = level_vp(cat, level);
    let text = format!(
        "{} holds {w} of {total} objectives, the other side {l} → {} {a}:{b} (R-22)",
        winner.id(),
        level_name(level)
    );
    make(cat, Some(winner), level, DecidedBy::Objectives, text)
}

/// When a count of broken groups was made, in words: "at the start of turn 4", or for the count
/// after the last turn "at the end of turn 6, the last (M-26)".
fn count_made(cat: &Catalogue, turn: u32) -> String {
    let last = u32::from(cat.tables().game_length_turns);
    if turn > last {
        format!("at the end of turn {last}, the last (M-26)")
    } else {
        format!("at the start of turn {turn}")
    }
}

/// A broken force concedes: the opponent wins 6:2 (in objective
/// scenarios by controlling every objective). `turn` is the turn at whose
/// start the count was made; a turn after the last stands for the count made
/// after the last turn (M-26).
pub fn victory_by_broken_force(cat: &Catalogue, broken: Side, turn: u32) -> Victory {
    let (a, b) = level_vp(cat, VictoryLevel::Major);
    let text = format!(
        "the {} force had more broken groups than unbroken ones {} and concedes → Major Victory {a}:{b} (R-23)",
        broken.id(),
        count_made(cat, turn)
    );
    make(
        cat,
        Some(broken.other()),
        VictoryLevel::Major,
        DecidedBy::ForceBroken,
        text,
    )
}

/// Both forces broken at the same count (M-26): the game ends there and neither concedes. Each
/// would hand the other every objective, which leaves them level, so victory points decide
/// in every scenario, whatever objectives are held. `turn` as for
/// [`victory_by_broken_force`].
pub fn victory_with_both_forces_broken(
    cat: &Catalogue,
    turn: u32,
    attacker_lost: u32,
    defender_lost: u32,
    game_size: u32,
) -> Victory {
    let mut v = victory_by_points(cat, attacker_lost, defender_lost, game_size);
    v.arithmetic = format!(
        "both forces had more broken groups than unbroken ones {}, so neither concedes and victory points decide (M-26): {}",
        count_made(cat, turn),
        v.arithmetic
    );
    v
}

/// The result a count of broken groups decides, or `None` when neither force is broken and the
/// game goes on (or, after the last turn, objectives or victory points decide). `turn` is the
/// turn at whose start the count was made; after the last turn, the last turn + 1 (M-26).
pub fn victory_by_broken_forces(
    cat: &Catalogue,
    verdict: BrokenForces,
    turn: u32,
    attacker_lost: u32,
    defender_lost: u32,
    game_size: u32,
) -> Option<Victory> {
    match verdict {
        BrokenForces::Neither => None,
        BrokenForces::Concedes(side) => Some(victory_by_broken_force(cat, side, turn)),
        BrokenForces::Both => Some(victory_with_both_forces_broken(
            cat,
            turn,
            attacker_lost,
            defender_lost,
            game_size,
        )),
    }
}
