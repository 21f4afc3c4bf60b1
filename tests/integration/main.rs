//! Integration tests: the real server over HTTP, the real binary, a real database.

mod accounts;
mod admin;
mod api;
mod battle_records;
mod battle_systems;
mod battles;
mod browser;
mod browser_campaigns;
mod browser_print;
mod browser_rosters;
mod campaign_systems;
mod campaigns;
mod cli;
mod conformance;
mod conformance_forces;
mod helpers;
mod layers;
mod lod_odds;
mod lotf;
mod migrations;
mod openapi;
mod purity;
mod rosters;
mod security;
mod services;
