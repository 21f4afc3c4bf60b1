mod catalogue_tests;
mod validate_tests;
