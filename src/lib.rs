//! Muster: army rosters, printouts, odds and simulated battles for horse-and-musket
//! wargames in North America, 1754–1815.
//!
//! Layers point one way: `web → app → store → rules` (and `app → rules`, `cli → app`).
//! `rules` is pure; `app` knows no HTTP. See `docs/architecture.md`.

pub mod app;
pub mod cli;
pub mod config;
pub mod rules;
pub mod store;
pub mod telemetry;
pub mod web;
