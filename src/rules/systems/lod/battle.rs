//! A *Liberty or Death!* battle as stored: the set-up (both armies as they were, everything
//! rolled before the first turn, the seed) and the outcome (each unit's end state, Generals
//! killed, VPs and the result band). The simulator and the tabletop record both end in an
//! [`Outcome`] scored by [`score`], so the victory rules (4.7, L-47) live in one place.

use serde::{Deserialize, Serialize};

use crate::rules::system::{BattleSide, Method};

use super::catalogue::Catalogue;
use super::roster::RosterDoc;
use super::types::{ArmyList, Band, HitState};

pub const BATTLE_FORMAT: &str = "muster.lod.battle/1";
pub const RESULT_FORMAT: &str = "muster.lod.result/1";

/// The only scenario Muster has for this system: an open field, 8 turns, deployment zones 12"
/// deep with 24" between them (L-48).
pub const OPEN_FIELD: &str = "open_field";

/// One army as it fights: its roster and its Command Points (brigades + D3, rolled at set-up,
/// L-42).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForceSetup {
    pub roster: RosterDoc,
    pub command_points: u32,
    /// The D3 rolled for the C-in-C.
    pub c_in_c_roll: u32,
}

/// A battle ready to fight or to record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BattleSetup {
    /// `muster.lod.battle/1`.
    pub format: String,
    pub scenario: String,
    /// Turns before the game ends without a break (L-48: 8).
    pub turns: u32,
    pub attacker: ForceSetup,
    pub defender: ForceSetup,
    /// Who has the initiative and plays first every turn (L-1).
    pub initiative: BattleSide,
    /// The initiative dice (attacker, defender), re-rolled on ties.
    pub initiative_rolls: (u32, u32),
    /// The seed the battle's own dice are drawn from.
    pub seed: u64,
}

impl BattleSetup {
    pub fn force(&self, side: BattleSide) -> &ForceSetup {
        match side {
            BattleSide::Attacker => &self.attacker,
            BattleSide::Defender => &self.defender,
        }
    }
}

/// How a unit ended a battle (7: the tabletop record's choices).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndState {
    Steady,
    Worn,
    Shaken,
    Broken,
    /// Routed off the table: BROKEN (L-38, L-47).
    RoutedOff,
}

impl EndState {
    pub const ALL: &'static [EndState] = &[
        EndState::Steady,
        EndState::Worn,
        EndState::Shaken,
        EndState::Broken,
        EndState::RoutedOff,
    ];

    pub fn id(self) -> &'static str {
        match self {
            EndState::Steady => "steady",
            EndState::Worn => "worn",
            EndState::Shaken => "shaken",
            EndState::Broken => "broken",
            EndState::RoutedOff => "routed_off",
        }
    }

    pub fn from_id(id: &str) -> Option<EndState> {
        EndState::ALL.iter().copied().find(|s| s.id() == id)
    }

    pub fn label(self) -> &'static str {
        match self {
            EndState::Steady => "STEADY",
            EndState::Worn => "WORN",
            EndState::Shaken => "SHAKEN",
            EndState::Broken => "BROKEN",
            EndState::RoutedOff => "routed off the table",
        }
    }

    /// The hit-state it scores as (L-47: routed off is BROKEN).
    pub fn scores_as(self) -> HitState {
        match self {
            EndState::Steady => HitState::Steady,
            EndState::Worn => HitState::Worn,
            EndState::Shaken => HitState::Shaken,
            EndState::Broken | EndState::RoutedOff => HitState::Broken,
        }
    }

    pub fn lost(self) -> bool {
        self.scores_as() == HitState::Broken
    }
}

/// One unit at the end of a battle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitEnd {
    /// The unit's id in its roster.
    pub unit: String,
    pub name: String,
    pub end: EndState,
    /// Hits it carried at the end, when the simulator knows them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hits: Option<u32>,
}

/// One army at the end of a battle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideResult {
    pub army_list: String,
    pub units: Vec<UnitEnd>,
    /// Ids of the Generals killed.
    pub generals_killed: Vec<String>,
    pub lost_units: u32,
    /// ⌈units / 2⌉ (4.7).
    pub break_point: u32,
    pub reached_break_point: bool,
    /// VPs this side scored on the enemy.
    pub vp: u32,
}

/// Why the battle ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// An army reached its break point (the game ends at once, L-47).
    BreakPoint,
    /// The last turn was played (L-48).
    TurnLimit,
    /// Recorded from the table.
    Recorded,
}

/// One line of a fought battle's narrated log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LogLine {
    pub turn: u32,
    /// `command`, `shooting`, `melee`, `setup` or `end`.
    pub phase: String,
    /// The side whose turn it is, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<BattleSide>,
    pub text: String,
}

/// Where one unit stood at the end of a turn, and how it stood.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitPosition {
    pub side: BattleSide,
    /// The unit's id in its roster.
    pub unit: String,
    /// 0 the left, 1 the centre, 2 the right sector, as the attacker sees the table.
    pub sector: u8,
    /// Depth, 0" (the attacker's edge) to 48", to a tenth of an inch.
    pub depth: f64,
    /// `steady`, `worn` or `shaken` (a unit BROKEN is off the table and not listed).
    pub state: EndState,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub routing: bool,
    pub hits: u32,
}

/// The units still on the table at the end of a turn, for a diagram.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TurnPositions {
    pub turn: u32,
    pub units: Vec<UnitPosition>,
}

/// A decided battle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Outcome {
    /// `muster.lod.result/1`.
    pub format: String,
    pub method: Method,
    /// The seed fought with (simulated battles).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    pub turns_played: u32,
    pub ended_by: EndReason,
    pub attacker: SideResult,
    pub defender: SideResult,
    /// `None`: a draw (a VP difference of 5 or less).
    pub winner: Option<BattleSide>,
    pub band: Band,
    /// The VP difference.
    pub difference: u32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub log: Vec<LogLine>,
    /// Where the units stood at the end of each turn played, kept only when asked for
    /// (`sim::fight_with_positions`); absent from other outcomes and from those stored before
    /// it existed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub positions: Vec<TurnPositions>,
}

/// What one side's units ended as and which of its Generals fell, as the record or the
/// simulator found it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SideEnd {
    pub army_list: ArmyList,
    pub units: Vec<UnitEnd>,
    pub generals_killed: Vec<String>,
}

/// How a battle ended, apart from the armies' states.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ending {
    pub method: Method,
    pub seed: Option<u64>,
    pub turns_played: u32,
    pub ended_by: EndReason,
    pub log: Vec<LogLine>,
}

/// Scores a battle by the victory rules (4.7, L-47): each side's VPs on the enemy's units by
/// their end states, +10 when the enemy reached its break point, the band by the difference.
pub fn score(cat: &Catalogue, ending: Ending, attacker: SideEnd, defender: SideEnd) -> Outcome {
    let Ending {
        method,
        seed,
        turns_played,
        ended_by,
        log,
    } = ending;
    let v = &cat.tables.victory;
    let standing = |side: &SideEnd| {
        let lost = side.units.iter().filter(|u| u.end.lost()).count() as u32;
        let break_point = break_point(side.units.len() as u32);
        (
            lost,
            break_point,
            !side.units.is_empty() && lost >= break_point,
        )
    };
    let vp_on = |enemy: &SideEnd, enemy_broke: bool| {
        enemy
            .units
            .iter()
            .map(|u| v.vp_for(u.end.scores_as()))
            .sum::<u32>()
            + if enemy_broke { v.vp.enemy_broke } else { 0 }
    };
    let (a_lost, a_bp, a_broke) = standing(&attacker);
    let (d_lost, d_bp, d_broke) = standing(&defender);
    let a_vp = vp_on(&defender, d_broke);
    let d_vp = vp_on(&attacker, a_broke);
    let difference = a_vp.abs_diff(d_vp);
    let band = v.band(difference);
    let winner = match (band, a_vp.cmp(&d_vp)) {
        (Band::Draw, _) | (_, std::cmp::Ordering::Equal) => None,
        (_, std::cmp::Ordering::Greater) => Some(BattleSide::Attacker),
        (_, std::cmp::Ordering::Less) => Some(BattleSide::Defender),
    };
    let side = |s: SideEnd, lost, bp, broke, vp| SideResult {
        army_list: s.army_list.id().to_string(),
        units: s.units,
        generals_killed: s.generals_killed,
        lost_units: lost,
        break_point: bp,
        reached_break_point: broke,
        vp,
    };
    Outcome {
        format: RESULT_FORMAT.to_string(),
        method,
        seed,
        turns_played,
        ended_by,
        attacker: side(attacker, a_lost, a_bp, a_broke, a_vp),
        defender: side(defender, d_lost, d_bp, d_broke, d_vp),
        winner,
        band: if winner.is_none() { Band::Draw } else { band },
        difference,
        log,
        positions: Vec::new(),
    }
}

/// An army's break point: half its units, rounded up (4.7).
pub fn break_point(units: u32) -> u32 {
    units.div_ceil(2)
}
