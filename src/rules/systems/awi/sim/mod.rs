//! The AWI simulator (MILESTONE 3).

use super::battle::{BattleSetup, Outcome};
use super::Catalogue;

/// Fights a battle. Not built yet: refused in words.
pub fn fight(_cat: &Catalogue, _setup: &BattleSetup) -> Result<Outcome, String> {
    Err("The AWI simulator is not built yet.".to_string())
}
