//! An *All the King's Men* battle as stored: the set-up (both armies as they were, who moves
//! first, the turn limit, the seed) and the outcome (each unit's figures, officer and ensign,
//! collapsed or not; generals' ratings after casualties; turns played; the result by the victory
//! rules of spec 5.4, K-14, K-16, K-39–K-41). The simulator and the tabletop record both end in
//! an [`Outcome`].

use serde::{Deserialize, Serialize};

use crate::rules::dice::Dice;
use crate::rules::system::{BattleSide, Method};

use super::catalogue::Catalogue;
use super::roster::RosterDoc;

pub const BATTLE_FORMAT: &str = "muster.atkm.battle/1";
pub const RESULT_FORMAT: &str = "muster.atkm.result/1";

/// A battle by agreement on an open table, ended by army collapse or nightfall (K-14).
pub const OPEN_BATTLE: &str = "open_battle";

/// One army as it fights.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForceSetup {
    pub roster: RosterDoc,
    /// Its side in a sample battle (`americans`, `british`), if one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
}

/// A battle ready to fight or to record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BattleSetup {
    /// `muster.atkm.battle/1`.
    pub format: String,
    /// `open_battle` or a sample battle's id.
    pub scenario: String,
    /// The last turn played (K-14: 24; Monmouth 8, North Point 3).
    pub turns: u32,
    /// The side that moves on to the enemy: the sample battle's, or the one the dice chose.
    pub attacker: ForceSetup,
    pub defender: ForceSetup,
    /// The seed the battle's own dice and deck are drawn from.
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

/// How one unit ended the battle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitResult {
    /// The unit's id in the roster.
    pub id: String,
    pub name: String,
    #[serde(rename = "type")]
    pub unit_type: String,
    pub rank_and_file_start: u32,
    pub rank_and_file_end: u32,
    /// Officer lost (officer and ensign casualties).
    #[serde(default)]
    pub officer_lost: bool,
    /// Ensign lost: its colours taken.
    #[serde(default)]
    pub ensign_lost: bool,
    /// Fell to its break point, fled the table or was routed (K-13, K-17).
    pub collapsed: bool,
    /// Marched off the table by the scenario's exit (Monmouth's north edge); not a loss.
    #[serde(default)]
    pub left_table: bool,
    /// Artillery: its gun destroyed (a collapsed battery loses its gun).
    #[serde(default)]
    pub gun_lost: bool,
    /// Arrived during the battle (or never did: `arrived` false).
    #[serde(default = "yes")]
    pub arrived: bool,
}

fn yes() -> bool {
    true
}

/// A general at the end of the battle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeneralResult {
    pub id: String,
    pub name: String,
    pub rating_start: u32,
    /// After general casualties (never below 1).
    pub rating_end: u32,
}

/// One side's result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideResult {
    pub name: String,
    /// Units that counted at the start (K-15, K-16; Monmouth's Americans 42 once Washington is
    /// up, K-39).
    pub starting_units: u32,
    /// Units still standing at the end (those that marched off count as standing).
    pub remaining_units: u32,
    /// The army collapsed (remaining ≤ half the start, K-16).
    pub army_collapsed: bool,
    pub units: Vec<UnitResult>,
    pub generals: Vec<GeneralResult>,
}

/// A decided battle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Outcome {
    /// `muster.atkm.result/1`.
    pub format: String,
    pub method: Method,
    pub scenario: String,
    /// `None`: a draw.
    pub winner: Option<BattleSide>,
    /// `major`, `victory`, `minor` or `draw`.
    pub level: String,
    /// Why the battle ended, in Muster's words.
    pub reason: String,
    pub turns_played: u32,
    pub attacker: SideResult,
    pub defender: SideResult,
    /// The story of the battle (simulator), one line per event.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub log: Vec<String>,
    /// The rulings the result was decided by.
    #[serde(default)]
    pub rulings: Vec<String>,
}

impl Outcome {
    pub fn side(&self, side: BattleSide) -> &SideResult {
        match side {
            BattleSide::Attacker => &self.attacker,
            BattleSide::Defender => &self.defender,
        }
    }
}

/// An army collapses when the units left fall to half its start or fewer, rounded down (K-16:
/// 9 units → at 4, 10 → at 5).
pub fn army_collapsed(starting: u32, remaining: u32) -> bool {
    starting > 0 && remaining <= starting / 2
}

/// What the dice decided before the battle, in words.
pub struct PreparedSetup {
    pub setup: BattleSetup,
    pub rolls: Vec<String>,
    pub swapped: bool,
}

/// Sets a battle up between two rosters. A sample battle (chosen, or named by both rosters on
/// opposite sides) fixes who attacks and how long it lasts; an open battle lasts 24 turns (K-14)
/// and, with `roll_roles`, a d6 each (re-rolled on ties) says who attacks.
pub fn prepare(
    cat: &Catalogue,
    first: RosterDoc,
    second: RosterDoc,
    scenario: Option<&str>,
    roll_roles: bool,
    seed: u64,
) -> Result<PreparedSetup, String> {
    let mut dice = Dice::from_seed(seed);
    let mut rolls = Vec::new();
    let chosen = match scenario {
        Some(s) if s == OPEN_BATTLE || s.is_empty() => None,
        Some(s) => Some(
            cat.scenario(s)
                .ok_or_else(|| format!("'{s}' is not one of the sample battles."))?,
        ),
        None => match (&first.scenario, &second.scenario) {
            (Some(a), Some(b)) if a == b && first.side != second.side => cat.scenario(a),
            _ => None,
        },
    };
    if let Some(sc) = chosen {
        // The sample battle's attacking side moves first; a roster naming the other side of
        // the battle (or none) takes the remaining one.
        let first_is_attacker = match (&first.side, &second.side) {
            (Some(a), _) if sc.sides.contains_key(a) => *a == sc.first_side,
            (_, Some(b)) if sc.sides.contains_key(b) => *b != sc.first_side,
            _ => true,
        };
        let other_side = sc
            .sides
            .keys()
            .find(|k| **k != sc.first_side)
            .cloned()
            .unwrap_or_default();
        let (att, def) = if first_is_attacker {
            (first, second)
        } else {
            (second, first)
        };
        rolls.push(format!(
            "{}: the {} attack, as in the book; the battle ends after turn {} at the latest.",
            sc.name, sc.first_side, sc.turn_limit
        ));
        return Ok(PreparedSetup {
            setup: BattleSetup {
                format: BATTLE_FORMAT.into(),
                scenario: sc.id.clone(),
                turns: sc.turn_limit,
                attacker: ForceSetup {
                    roster: att,
                    side: Some(sc.first_side.clone()),
                },
                defender: ForceSetup {
                    roster: def,
                    side: Some(other_side),
                },
                seed,
            },
            rolls,
            swapped: !first_is_attacker,
        });
    }
    let mut swapped = false;
    if roll_roles {
        loop {
            let (a, b) = (dice.d6(), dice.d6());
            rolls.push(format!(
                "Who attacks: {} rolled {a}, {} rolled {b}{}.",
                first.name,
                second.name,
                if a == b { ", a tie, rolled again" } else { "" }
            ));
            if a != b {
                swapped = b > a;
                break;
            }
        }
    }
    rolls.push(format!(
        "An open battle: it ends when an army collapses, or as a draw at nightfall after turn {} (K-14).",
        cat.tables.army.turn_limit
    ));
    let (att, def) = if swapped {
        (second, first)
    } else {
        (first, second)
    };
    Ok(PreparedSetup {
        setup: BattleSetup {
            format: BATTLE_FORMAT.into(),
            scenario: OPEN_BATTLE.into(),
            turns: cat.tables.army.turn_limit,
            attacker: ForceSetup {
                roster: att,
                side: None,
            },
            defender: ForceSetup {
                roster: def,
                side: None,
            },
            seed,
        },
        rolls,
        swapped,
    })
}
