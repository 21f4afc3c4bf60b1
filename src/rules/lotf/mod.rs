//! *Land of the Free*: catalogue data, roster model, validator, pricing,
//! element profiles and the historical orders of battle.
//!
//! Everything here is pure: no I/O, deterministic, and safe on any input.

pub mod catalogue;
pub mod historical;
pub mod profile;
pub mod roster;
pub mod types;
pub mod validate;

pub use catalogue::{Catalogue, CatalogueError};
pub use historical::{
    historical_battle, historical_battles, historical_battles_checked, historical_ids,
    HistoricalBattle, HistoricalError, HistoricalSide, HistoricalSummary, Role,
};
pub use profile::{profile, ElementProfile, RangeProfile, SkillRef};
pub use roster::{
    parse_roster, CommanderDoc, ElementDoc, GroupDoc, RosterDoc, RosterParseError,
    RosterParseErrorKind, ROSTER_FORMAT,
};
pub use types::{
    DisciplineLevel, ElementType, Formation, Mode, Nation, Size, Upgrade, War, Weapon,
};
pub use validate::{
    effective_weapon, price_element, price_roster, validate, ElementPoints, Finding, FindingCode,
    GroupPoints, Points, Report, Severity,
};

#[cfg(test)]
mod tests;
