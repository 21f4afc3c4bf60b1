//! The rules core: pure and deterministic. No I/O, no web, no database; dice come from a
//! seeded generator passed in. Rule systems live in their own modules (`lotf` for Land of the
//! Free); web and storage only carry what this module decides.
