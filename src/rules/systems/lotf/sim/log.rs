//! The narrated battle log.

use serde::{Deserialize, Serialize};

use crate::rules::systems::lotf::types::DisciplineLevel;

/// What a log line is about (for filtering and for the invariant tests).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LogKind {
    Turn,
    Initiative,
    Arrival,
    Activation,
    Move,
    Shoot,
    Charge,
    Reaction,
    Melee,
    Test,
    /// A change of discipline level (`level` holds the new one).
    Discipline,
    Withdraw,
    Removed,
    Commander,
    Rally,
    Broken,
    Result,
}

/// One line of the log, in our own words.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LogLine {
    pub turn: u32,
    pub kind: LogKind,
    /// The element the line is about, if any (`side:id`, e.g. `attacker:e3`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub element: Option<String>,
    /// New discipline level for `discipline` lines.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<DisciplineLevel>,
    pub text: String,
}
