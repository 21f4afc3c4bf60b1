//! The *AWI wargames rules*: the catalogue (every number of the spec's tables as data), the
//! order-of-battle roster `muster.awi.oob/1` and its check, exact odds, the simulator, battles
//! set up, recorded and scored by Muster's victory rule (W-31), and the campaign rules.
//!
//! Everything here is pure: no I/O, deterministic, and safe on any input. The specification is
//! `shared/systems/awi.md`; rulings W-n are cited where they decide something, and
//! `docs/rulings.md` holds the ones Muster added or amended.

pub mod battle;
pub mod campaign;
pub mod catalogue;
pub mod montecarlo;
pub mod odds;
pub mod record;
pub mod roster;
pub mod sim;
pub mod system;
pub mod table;
pub mod types;
pub mod validate;

pub use battle::{BattleSetup, EndState, Outcome};
pub use catalogue::{Catalogue, CatalogueError};
pub use roster::{
    parse_roster, BrigadeDoc, BrigadierDoc, LeaderDoc, RosterDoc, UnitDoc, ROSTER_FORMAT,
};
pub use system::Awi;
pub use types::{Arms, Grade, GunClass, RangeBand, TroopType};
pub use validate::{validate, Report};

#[cfg(test)]
mod tests;
