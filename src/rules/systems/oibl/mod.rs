//! *One if by Land*: the catalogue (every number of its tables as data, the Combat Table cell by
//! cell), the order-of-battle roster and its check, exact odds, battles set up, fought, recorded
//! and decided by Muster's own victory rule.
//!
//! Everything here is pure: no I/O, deterministic, and safe on any input. The specification is
//! `shared/systems/one-if-by-land.md`; rulings B-n are cited where they decide something, and
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
pub mod unit;
pub mod validate;

pub use battle::{BattleSetup, Outcome};
pub use catalogue::{Catalogue, CatalogueError};
pub use roster::{parse_roster, BrigadeDoc, CommanderDoc, RosterDoc, UnitDoc, ROSTER_FORMAT};
pub use system::Oibl;
pub use types::{Formation, GunClass, Kind, Quality};
pub use validate::{validate, Report};

#[cfg(test)]
mod campaign_tests;
#[cfg(test)]
mod tests;
