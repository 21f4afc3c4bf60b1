//! The battle simulator: fights a whole battle from a set-up document on an
//! abstract battlefield, with a narrated log. See `docs/simulator.md`.

pub mod board;
pub mod engine;
pub mod log;
pub mod near;
pub mod policy;
pub mod scenario;

use serde::{Deserialize, Serialize};

pub use board::{TABLE_DEPTH, TABLE_WIDTH};
pub use engine::{Prepared, SimError};
pub use log::{LogKind, LogLine};
pub use policy::{Action, Policy, Reaction, StandardPolicy};

use super::battle::{BattleSetup, ScenarioId, ENGINE_VERSION};
use super::catalogue::Catalogue;
use super::combat::{
    element_counts_as_broken, victory::victory_by_broken_forces, victory_by_objectives,
    victory_by_points, DecidedBy, Side, Victory, VictoryLevel,
};
use super::types::DisciplineLevel;

/// Format tag of an outcome document.
pub const OUTCOME_FORMAT: &str = "muster.lotf.battle-outcome/1";

/// An element at the end of the battle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ElementFinal {
    pub id: String,
    pub name: String,
    pub side: Side,
    pub group: String,
    pub points: u32,
    pub discipline_level: DisciplineLevel,
    pub hits: u32,
    pub disorder_markers: u32,
    /// Shattered or otherwise out of play.
    pub removed: bool,
    pub left_the_field: bool,
    /// Never reached the table (reserves still waiting).
    pub never_arrived: bool,
    /// Counts toward its side's points lost.
    pub lost: bool,
}

/// A commander at the end.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CommanderFinal {
    pub id: String,
    pub name: String,
    pub side: Side,
    /// `force` or the group's name.
    pub role: String,
    pub rating: String,
    pub rating_roll: u8,
    pub killed: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub killed_turn: Option<u32>,
    /// Raised by field promotion or to Force Commander.
    pub promoted: bool,
}

/// Points lost by the end of a turn, for a chart.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TurnPoints {
    pub turn: u32,
    pub attacker_lost: u32,
    pub defender_lost: u32,
}

/// Where one element stood at the end of a turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ElementPosition {
    /// `side:id`, as in the log.
    pub element: String,
    /// Across the table, 0" (left) to 72" (right), to a tenth of an inch.
    pub x: f64,
    /// Depth, 0" (the attacker's edge) to 48", to a tenth of an inch.
    pub y: f64,
    /// +1 facing the defender's edge, −1 facing the attacker's.
    pub facing: i8,
    pub discipline_level: DisciplineLevel,
}

/// The elements on the table (arrived, not removed) at the end of a turn, for a diagram.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TurnPositions {
    pub turn: u32,
    pub elements: Vec<ElementPosition>,
}

/// Objectives at the end.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ObjectiveCount {
    pub total: u32,
    pub attacker: u32,
    pub defender: u32,
}

/// What happened in a battle, counted (for calibration and the outcome page).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleStats {
    /// Every shot: volleys, Snap Fires and Closing Fires.
    pub volleys: u32,
    pub snap_fires: u32,
    /// Charges declared, Counter-charges included.
    pub charges: u32,
    pub counter_charges: u32,
    /// Melee rounds fought.
    pub melees: u32,
    /// Shots, charges and melees into a flank.
    pub flank_attacks: u32,
    /// Elements that ended an activation with a stored order.
    pub stored_orders: u32,
    pub forced_orders: u32,
    pub command_points: u32,
    /// Activations spent closing on a commander out of reach.
    pub out_of_command: u32,
}

impl BattleStats {
    pub fn add(&mut self, o: &BattleStats) {
        self.volleys += o.volleys;
        self.snap_fires += o.snap_fires;
        self.charges += o.charges;
        self.counter_charges += o.counter_charges;
        self.melees += o.melees;
        self.flank_attacks += o.flank_attacks;
        self.stored_orders += o.stored_orders;
        self.forced_orders += o.forced_orders;
        self.command_points += o.command_points;
        self.out_of_command += o.out_of_command;
    }
}

/// The result of one battle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BattleOutcome {
    pub format: String,
    pub engine_version: String,
    pub scenario: ScenarioId,
    pub seed: u64,
    pub points_size: u32,
    pub turns_played: u32,
    /// `None` for a tie.
    pub winner: Option<Side>,
    pub victory_level: VictoryLevel,
    pub attacker_vp: u8,
    pub defender_vp: u8,
    pub decided_by: DecidedBy,
    /// The victory arithmetic in words.
    pub arithmetic: String,
    pub attacker_points_lost: u32,
    pub defender_points_lost: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub objectives: Option<ObjectiveCount>,
    pub elements: Vec<ElementFinal>,
    pub commanders: Vec<CommanderFinal>,
    pub turns: Vec<TurnPoints>,
    /// Counts of what happened (absent from outcomes stored before it existed).
    #[serde(default)]
    pub stats: BattleStats,
    /// Empty when narration is off.
    pub log: Vec<LogLine>,
    /// Where the elements stood at the end of each turn played, kept only when asked for
    /// ([`simulate_with_positions`]); empty, and left out of the document, otherwise and in
    /// outcomes stored before it existed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub positions: Vec<TurnPositions>,
}

/// Fight the battle with the standard policy.
pub fn simulate(
    cat: &Catalogue,
    setup: &BattleSetup,
    narrate: bool,
) -> Result<BattleOutcome, SimError> {
    let mut p = StandardPolicy::new();
    simulate_with(cat, setup, narrate, &mut p)
}

/// Fight the battle narrated with the standard policy, keeping where the elements stood at
/// the end of each turn (for the report's diagrams). The battle is the one [`simulate`] fights:
/// the positions are only read, and only here, so odds runs stay as fast as they were.
pub fn simulate_with_positions(
    cat: &Catalogue,
    setup: &BattleSetup,
) -> Result<BattleOutcome, SimError> {
    let mut p = StandardPolicy::new();
    fight(cat, setup, true, true, &mut p)
}

/// Fight the battle with a given policy.
pub fn simulate_with(
    cat: &Catalogue,
    setup: &BattleSetup,
    narrate: bool,
    policy: &mut dyn Policy,
) -> Result<BattleOutcome, SimError> {
    fight(cat, setup, narrate, false, policy)
}

fn fight(
    cat: &Catalogue,
    setup: &BattleSetup,
    narrate: bool,
    keep_positions: bool,
    policy: &mut dyn Policy,
) -> Result<BattleOutcome, SimError> {
    let prepared = Prepared::new(cat, setup)?;
    let mut eng = engine::Engine::start(cat, &prepared, setup.seed, narrate, policy)?;
    if keep_positions {
        eng.positions = Some(Vec::new());
    }
    if narrate {
        eng.log.push(LogLine {
            turn: 0,
            kind: LogKind::Turn,
            element: None,
            level: None,
            text: format!(
                "{} against {} in {} (seed {}).",
                name_or(&setup.attacker.roster.name, "The attacker"),
                name_or(&setup.defender.roster.name, "the defender"),
                cat.tables()
                    .scenarios
                    .iter()
                    .find(|s| s.id == setup.scenario.id())
                    .map_or(setup.scenario.id(), |s| s.name.as_str()),
                setup.seed
            ),
        });
    }
    eng.run();
    let size = prepared.points_size();
    let ended = Ended::of(cat, &eng, size);
    let victory = ended.victory;
    let mut log = std::mem::take(&mut eng.log);
    if narrate {
        log.push(LogLine {
            turn: eng.v.turn,
            kind: LogKind::Result,
            element: None,
            level: None,
            text: match victory.winner {
                Some(w) => format!("The {} wins: {}.", w.id(), victory.arithmetic),
                None => format!("Neither side wins: {}.", victory.arithmetic),
            },
        });
    }
    let v = &eng.v;
    Ok(BattleOutcome {
        format: OUTCOME_FORMAT.to_string(),
        engine_version: ENGINE_VERSION.to_string(),
        scenario: setup.scenario,
        seed: setup.seed,
        points_size: size,
        turns_played: v.turn,
        winner: victory.winner,
        victory_level: victory.level,
        attacker_vp: victory.attacker_vp,
        defender_vp: victory.defender_vp,
        decided_by: victory.decided_by,
        arithmetic: victory.arithmetic,
        attacker_points_lost: ended.attacker_points_lost,
        defender_points_lost: ended.defender_points_lost,
        objectives: ended.objectives,
        elements: v
            .units
            .iter()
            .map(|u| ElementFinal {
                id: u.id.to_string(),
                name: u.name.to_string(),
                side: u.side,
                group: v.groups[u.group].name.to_string(),
                points: u.points,
                discipline_level: u.level,
                hits: u.hits,
                disorder_markers: u.dm,
                removed: u.removed,
                left_the_field: u.left_field,
                never_arrived: !u.on_table && !u.removed,
                lost: element_counts_as_broken(u.level, u.removed),
            })
            .collect(),
        commanders: v
            .cmds
            .iter()
            .map(|c| CommanderFinal {
                id: c.id.to_string(),
                name: c.name.to_string(),
                side: c.side,
                role: match c.group {
                    Some(g) => v.groups[g].name.to_string(),
                    None => "force".to_string(),
                },
                rating: c.rating.name.clone(),
                rating_roll: c.rating.roll,
                killed: !c.alive,
                killed_turn: c.killed_turn,
                promoted: c.promoted,
            })
            .collect(),
        turns: eng
            .turn_points
            .iter()
            .map(|&(turn, a, d)| TurnPoints {
                turn,
                attacker_lost: a,
                defender_lost: d,
            })
            .collect(),
        stats: eng.stats,
        log,
        positions: eng.positions.take().unwrap_or_default(),
    })
}

/// What an odds run counts of one battle: the result and which elements were
/// lost (indexed as [`Prepared::units`]), without the outcome document.
#[derive(Debug, Clone, PartialEq)]
pub struct BattleCount {
    pub winner: Option<Side>,
    pub victory_level: VictoryLevel,
    pub attacker_points_lost: u32,
    pub defender_points_lost: u32,
    pub lost: Vec<bool>,
    pub stats: BattleStats,
}

/// Fight one battle of a prepared set-up, unnarrated: the battle
/// [`simulate_with`] fights from the same set-up with this seed.
pub fn fight_prepared(
    cat: &Catalogue,
    prepared: &Prepared,
    seed: u64,
    policy: &mut dyn Policy,
) -> Result<BattleCount, SimError> {
    let mut eng = engine::Engine::start(cat, prepared, seed, false, policy)?;
    eng.run();
    let ended = Ended::of(cat, &eng, prepared.points_size());
    Ok(BattleCount {
        winner: ended.victory.winner,
        victory_level: ended.victory.level,
        attacker_points_lost: ended.attacker_points_lost,
        defender_points_lost: ended.defender_points_lost,
        lost: eng
            .v
            .units
            .iter()
            .map(|u| element_counts_as_broken(u.level, u.removed))
            .collect(),
        stats: eng.stats,
    })
}

/// How a fought battle ended.
struct Ended {
    victory: Victory,
    objectives: Option<ObjectiveCount>,
    attacker_points_lost: u32,
    defender_points_lost: u32,
}

impl Ended {
    fn of(cat: &Catalogue, eng: &engine::Engine<'_>, size: u32) -> Ended {
        let v = &eng.v;
        let a_lost = v.points_lost(Side::Attacker);
        let d_lost = v.points_lost(Side::Defender);
        let objectives = if v.scenario.uses_objectives() {
            Some(ObjectiveCount {
                total: v.objectives.len() as u32,
                attacker: v.objectives_held(cat, Side::Attacker),
                defender: v.objectives_held(cat, Side::Defender),
            })
        } else {
            None
        };
        let by_break = eng.ended_by_break.and_then(|(verdict, turn)| {
            victory_by_broken_forces(cat, verdict, turn, a_lost, d_lost, size)
        });
        let victory = match (by_break, objectives) {
            (Some(v), _) => v,
            (None, Some(o)) => {
                victory_by_objectives(cat, o.attacker, o.defender, o.total, a_lost, d_lost, size)
            }
            (None, None) => victory_by_points(cat, a_lost, d_lost, size),
        };
        Ended {
            victory,
            objectives,
            attacker_points_lost: a_lost,
            defender_points_lost: d_lost,
        }
    }
}

fn name_or<'a>(s: &'a str, d: &'a str) -> &'a str {
    if s.trim().is_empty() {
        d
    } else {
        s
    }
}
