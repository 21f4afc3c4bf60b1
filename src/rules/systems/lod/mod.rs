//! *Liberty or Death!*: the catalogue (every number of its tables as data), the roster model
//! and its check, how dice pools are built, battles set up, recorded and scored.
//!
//! Everything here is pure: no I/O, deterministic, and safe on any input. The specification is
//! `shared/systems/liberty-or-death.md`; rulings L-n are cited where they decide something, and
//! `docs/rulings.md` holds the ones Muster added or amended.

pub mod battle;
pub mod campaign;
pub mod catalogue;
pub mod mechanics;
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
pub use catalogue::{Catalogue, CatalogueError, Entry, Profile};
pub use roster::{parse_roster, BrigadeDoc, LeaderDoc, RosterDoc, UnitDoc, ROSTER_FORMAT};
pub use system::Lod;
pub use types::{ArmyList, HitState, Kind, Quality, SpecialRule, Weapon};
pub use validate::{validate, Report, Setting};

#[cfg(test)]
mod tests;
