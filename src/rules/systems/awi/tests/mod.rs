mod campaign_tests;
mod catalogue_tests;
mod record_tests;
mod validate_tests;
