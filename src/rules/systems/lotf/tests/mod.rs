//! Tests of the Land of the Free rules core. They live beside the code so
//! they travel with it into the application.

mod support;

mod campaign_settings_tests;
mod campaign_tests;
mod campaign_voiding_tests;
mod catalogue_tests;
mod combat_tests;
mod historical_tests;
mod odds_tests;
mod profile_tests;
mod proptests;
mod record_tests;
mod roster_tests;
mod sim_rules_tests;
mod sim_tests;
mod validate_tests;

// Purity of the rules core is checked by tests/integration/purity.rs, which scans every file.
