//! An AWI battle as stored: the set-up (both orders of battle with every brigadier's ability
//! settled, who is side A first, the seed) and the outcome (each unit's end state, generals
//! killed, guns lost, Muster's victory points and result, W-31). The simulator and the
//! tabletop record both end in an [`Outcome`] scored by [`score`], so the victory rules live in
//! one place.

use serde::{Deserialize, Serialize};

use crate::rules::dice::Dice;
use crate::rules::system::{BattleSide, Method};

use super::catalogue::Catalogue;
use super::roster::RosterDoc;
use super::types::TroopType;
use super::validate::break_threshold;

pub const BATTLE_FORMAT: &str = "muster.awi.battle/1";
pub const RESULT_FORMAT: &str = "muster.awi.result/1";

/// The only scenario Muster has for these rules: an open field, 6 turns, deployment zones 12"
/// deep and 24" apart (W-32).
pub const OPEN_FIELD: &str = "open_field";

/// A brigadier's ability rolled at set-up (W-4), for the record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RolledAbility {
    /// The brigade's index in the roster.
    pub brigade: usize,
    pub brigadier: String,
    pub roll: u32,
    pub ability: u32,
}

/// One side as it fights: its roster with every ability settled, and what was rolled.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForceSetup {
    pub roster: RosterDoc,
    #[serde(default)]
    pub rolled: Vec<RolledAbility>,
}

/// A battle ready to fight or to record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BattleSetup {
    /// `muster.awi.battle/1`.
    pub format: String,
    pub scenario: String,
    /// Turns (two moves each) before the battle ends without a break (W-32: 6).
    pub turns: u32,
    pub attacker: ForceSetup,
    pub defender: ForceSetup,
    /// Side A of the first move: the winner of the D6 roll-off (W-1).
    pub first_side_a: BattleSide,
    /// The roll-off dice (attacker, defender), re-rolled on ties.
    pub roll_off: (u32, u32),
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

/// Rolls the ability of every brigadier who has none (D6+2, W-4), in roster order; each
/// rolled value is written into the roster and listed.
pub fn settle_abilities(
    cat: &Catalogue,
    roster: &mut RosterDoc,
    dice: &mut Dice,
) -> Vec<RolledAbility> {
    let roll = cat.command.ability_roll;
    let mut out = Vec::new();
    for (b, brigade) in roster.brigades.iter_mut().enumerate() {
        let Some(g) = &mut brigade.brigadier else {
            continue;
        };
        if g.ability_value().is_some() {
            continue;
        }
        let mut total = roll.plus;
        for _ in 0..roll.dice {
            total += dice.below(roll.sides) + 1;
        }
        g.ability = Some(serde_json::Value::from(total));
        out.push(RolledAbility {
            brigade: b,
            brigadier: g.name.clone(),
            roll: total - roll.plus,
            ability: total,
        });
    }
    out
}

/// How a unit ended a battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndState {
    /// Still on the table and not routing (perhaps disordered or reduced).
    Fighting,
    /// Routing when the battle ended.
    Routing,
    /// Routed off the table, or left it.
    LeftTable,
    /// No figures left (for a gun: no gunners, or taken): lost.
    Destroyed,
}

impl EndState {
    pub const ALL: &'static [EndState] = &[
        EndState::Fighting,
        EndState::Routing,
        EndState::LeftTable,
        EndState::Destroyed,
    ];

    pub fn id(self) -> &'static str {
        match self {
            EndState::Fighting => "fighting",
            EndState::Routing => "routing",
            EndState::LeftTable => "left_table",
            EndState::Destroyed => "destroyed",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            EndState::Fighting => "Still fighting",
            EndState::Routing => "Routing",
            EndState::LeftTable => "Routed off or left the table",
            EndState::Destroyed => "Destroyed (a gun: lost)",
        }
    }

    pub fn from_id(s: &str) -> Option<EndState> {
        EndState::ALL.iter().copied().find(|e| e.id() == s)
    }

    /// Counts toward the army's break (W-31): routed, destroyed or departed.
    pub fn gone(self) -> bool {
        self != EndState::Fighting
    }
}

/// One unit's end of the battle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UnitResult {
    pub id: String,
    pub name: String,
    pub brigade: usize,
    pub troop_type: TroopType,
    /// Bases at the start (a gun: its gunners, W-3).
    pub start_bases: u32,
    pub start_figures: u32,
    pub figures_lost: u32,
    pub state: EndState,
    /// Bases in action ≤ start / 2 (W-3).
    pub at_or_below_half: bool,
}

impl UnitResult {
    pub fn is_gun(&self) -> bool {
        self.troop_type == TroopType::Artillery
    }
}

/// The result band (W-31).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    Draw,
    Minor,
    Major,
}

impl Level {
    pub fn id(self) -> &'static str {
        match self {
            Level::Draw => "draw",
            Level::Minor => "minor",
            Level::Major => "major",
        }
    }
    pub fn label(self) -> &'static str {
        match self {
            Level::Draw => "Draw",
            Level::Minor => "Minor victory",
            Level::Major => "Major victory",
        }
    }
}

/// One side at the end.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SideResult {
    pub name: String,
    pub units: Vec<UnitResult>,
    /// Names of the generals killed (CinC or brigadiers).
    pub generals_killed: Vec<String>,
    /// Their ids in the order of battle, for a campaign's replacements (W-29).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub generals_killed_ids: Vec<String>,
    /// Its army broke (W-31).
    pub broke: bool,
    /// Victory points it scored on the enemy (W-31).
    pub vp: u32,
    /// The lines of its score, in words.
    pub vp_lines: Vec<String>,
}

impl SideResult {
    pub fn guns_lost(&self) -> u32 {
        self.units
            .iter()
            .filter(|u| u.is_gun() && u.state == EndState::Destroyed)
            .count() as u32
    }
}

/// How the battle ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// An army broke (W-31).
    ArmyBreak,
    /// The game length ran out (W-32).
    GameLength,
    /// Recorded from the table.
    Recorded,
}

/// A decided battle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// `muster.awi.result/1`.
    pub format: String,
    pub method: Method,
    pub ending: Ending,
    /// Moves played (a turn is two moves, W-1).
    pub moves: u32,
    pub winner: Option<BattleSide>,
    pub level: Level,
    pub attacker: SideResult,
    pub defender: SideResult,
    /// The result in words, marked as Muster's rule (W-31).
    pub verdict: String,
    /// The narrated log (simulated battles).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub log: Vec<String>,
}

/// Whether a side's army is broken: routed, destroyed and departed units (guns not counted)
/// at least half its starting units, rounded up (W-31).
pub fn is_broken(units: &[UnitResult]) -> bool {
    let counted: Vec<&UnitResult> = units.iter().filter(|u| !u.is_gun()).collect();
    if counted.is_empty() {
        return false;
    }
    let gone = counted.iter().filter(|u| u.state.gone()).count() as u32;
    gone >= break_threshold(counted.len() as u32)
}

/// The points a side scores on the enemy's units (W-31). Guns score only as guns lost (W-39).
pub fn points_on(cat: &Catalogue, enemy: &[UnitResult], enemy_broke: bool) -> (u32, Vec<String>) {
    let v = &cat.victory;
    let mut lines = Vec::new();
    let mut total = 0;
    let mut add = |n: u32, each: u32, words: &str| {
        if n > 0 {
            total += n * each;
            lines.push(format!("{words}: {n} × {each} = {}", n * each));
        }
    };
    let units = || enemy.iter().filter(|u| !u.is_gun());
    add(
        units()
            .filter(|u| matches!(u.state, EndState::Destroyed | EndState::LeftTable))
            .count() as u32,
        v.destroyed_or_routed_off,
        "Enemy units destroyed or routed off the table",
    );
    add(
        units().filter(|u| u.state == EndState::Routing).count() as u32,
        v.routing_at_end,
        "Enemy units routing at the end",
    );
    add(
        units()
            .filter(|u| u.state == EndState::Fighting && u.at_or_below_half)
            .count() as u32,
        v.at_or_below_half,
        "Enemy units at or below half strength",
    );
    add(
        enemy
            .iter()
            .filter(|u| u.is_gun() && u.state == EndState::Destroyed)
            .count() as u32,
        v.gun_lost,
        "Enemy guns lost",
    );
    if enemy_broke {
        add(1, v.enemy_broke, "The enemy army broke");
    }
    (total, lines)
}

/// Scores both sides and decides the result (W-31): a difference of 0–2 is a draw, 3–5 a minor
/// victory, 6 or more a major one; an army that breaks while the other does not suffers a major
/// defeat whatever the points; both broken: the points decide.
pub fn score(
    cat: &Catalogue,
    attacker: &mut SideResult,
    defender: &mut SideResult,
) -> (Option<BattleSide>, Level, String) {
    attacker.broke = is_broken(&attacker.units);
    defender.broke = is_broken(&defender.units);
    let (a, al) = points_on(cat, &defender.units, defender.broke);
    let (d, dl) = points_on(cat, &attacker.units, attacker.broke);
    attacker.vp = a;
    attacker.vp_lines = al;
    defender.vp = d;
    defender.vp_lines = dl;
    let name = |s: BattleSide| match s {
        BattleSide::Attacker => attacker.name.clone(),
        BattleSide::Defender => defender.name.clone(),
    };
    let v = &cat.victory;
    let (winner, level) = match (attacker.broke, defender.broke) {
        (true, false) => (Some(BattleSide::Defender), Level::Major),
        (false, true) => (Some(BattleSide::Attacker), Level::Major),
        _ => {
            let diff = a.abs_diff(d);
            let lead = if a > d {
                BattleSide::Attacker
            } else {
                BattleSide::Defender
            };
            if diff <= v.draw_max {
                (None, Level::Draw)
            } else if diff <= v.minor_max {
                (Some(lead), Level::Minor)
            } else {
                (Some(lead), Level::Major)
            }
        }
    };
    let verdict = match winner {
        None => format!(
            "Draw by Muster's victory rule (W-31): {a} points to {d}, a difference of {} or less.",
            v.draw_max
        ),
        Some(w) => {
            let why = match (attacker.broke, defender.broke) {
                (true, false) | (false, true) => "the other army broke".to_string(),
                _ => format!("{a} points to {d}"),
            };
            format!(
                "{} for {} by Muster's victory rule (W-31): {why}.",
                level.label(),
                name(w)
            )
        }
    };
    (winner, level, verdict)
}
