//! Muster: army rosters, printouts, odds and simulated battles for horse-and-musket
//! wargames in North America, 1754–1815.
//!
//! Layers point one way: `web → store → rules` and `web → rules`. `rules` is pure.

pub mod battle_runner;
pub mod cli;
pub mod config;
pub mod rules;
pub mod store;
pub mod telemetry;
pub mod web;
