mod catalogue_tests;
mod record_tests;
mod validate_tests;
