//! *All the King's Men* (2nd edition): the catalogue (every number of its tables as data), the
//! roster model and its check, the random force generator and the three sample battles, how
//! battles are set up and decided.
//!
//! Everything here is pure: no I/O, deterministic, and safe on any input. The specification is
//! `shared/systems/all-the-kings-men.md`; rulings K-n are cited where they decide something, and
//! `docs/rulings.md` holds the ones Muster added or amended.

pub mod battle;
pub mod campaign;
pub mod catalogue;
pub mod montecarlo;
pub mod odds;
pub mod random;
pub mod record;
pub mod roster;
pub mod sim;
pub mod system;
pub mod table;
pub mod types;
pub mod validate;

pub use battle::{BattleSetup, Outcome};
pub use catalogue::{Catalogue, CatalogueError};
pub use random::{generate, RandomForceRequest};
pub use roster::{parse_roster, GeneralDoc, RosterDoc, UnitDoc, ROSTER_FORMAT};
pub use system::Atkm;
pub use types::{AdvancedRule, Colour, Formation, Gun, Quality, UnitType};
pub use validate::{validate, Report, UnitProfile};

#[cfg(test)]
mod campaign_tests;
#[cfg(test)]
mod odds_tests;
#[cfg(test)]
mod sim_tests;
#[cfg(test)]
mod tests;
