mod campaign_tests;
mod catalogue_tests;
mod validate_tests;
