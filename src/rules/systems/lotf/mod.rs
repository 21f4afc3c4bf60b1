//! *Land of the Free*: catalogue data, roster model, validator, pricing,
//! element profiles and the historical orders of battle.
//!
//! Everything here is pure: no I/O, deterministic, and safe on any input.

pub mod battle;
pub mod calibration;
pub mod campaign;
pub mod catalogue;
pub mod combat;
pub mod historical;
pub mod montecarlo;
pub mod odds;
pub mod profile;
pub mod record;
pub mod roster;
pub mod sim;
pub mod system;
pub mod table;
pub mod types;
pub mod validate;

pub use battle::{
    parse_battle, serialize_battle, BattleError, BattleSetup, CommanderState, ElementState,
    ForceSetup, ScenarioId, BATTLE_FORMAT, ENGINE_VERSION,
};
pub use catalogue::{Catalogue, CatalogueError};
pub use combat::Side;
pub use historical::{
    historical_battle, historical_battles, historical_battles_checked, historical_force,
    historical_ids, HistoricalBattle, HistoricalError, HistoricalSide, HistoricalSummary, Role,
};
pub use montecarlo::{
    battle_seed, merge_ranges, monte_carlo, run_range, Estimate, LostElement, OddsRun, OddsSummary,
    OddsTally,
};
pub use odds::{
    melee_odds, morale_odds, shooting_odds, MeleeOdds, MeleeRequest, MoraleOdds, MoraleRequest,
    OddsError, ShootingOdds, ShootingRequest,
};
pub use profile::{profile, ElementProfile, RangeProfile, SkillRef};
pub use roster::{
    check_roster_size, is_valid_id, parse_roster, CommanderDoc, ElementDoc, GroupDoc, RosterDoc,
    RosterParseError, RosterParseErrorKind, MAX_POINTS_LIMIT, ROSTER_FORMAT,
};
pub use sim::{
    fight_prepared, simulate, simulate_with, simulate_with_positions, BattleCount, BattleOutcome,
    ElementPosition, LogKind, LogLine, Policy, Prepared, SimError, StandardPolicy, TurnPositions,
};
pub use system::{Lotf, Outcome};
pub use types::{
    DisciplineLevel, ElementType, Formation, Mode, Nation, Size, Upgrade, War, Weapon,
};
pub use validate::{
    effective_weapon, price_element, price_roster, validate, ElementPoints, Finding, FindingCode,
    GroupPoints, Points, Report, Severity,
};

#[cfg(test)]
mod tests;
