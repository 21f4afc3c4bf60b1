//! Small server-wide values kept in the database (e.g. the generated signing secret).

use diesel::prelude::*;

use super::schema::settings;
use super::DbConnection;

pub fn get(conn: &mut DbConnection, key: &str) -> QueryResult<Option<String>> {
    settings::table
        .find(key)
        .select(settings::value)
        .first(conn)
        .optional()
}

/// Stores `value` unless the key already has one, and returns the value that is stored.
/// Two servers starting at once on one database agree on the first value written.
pub fn get_or_insert(conn: &mut DbConnection, key: &str, value: &str) -> QueryResult<String> {
    if let Some(existing) = get(conn, key)? {
        return Ok(existing);
    }
    let inserted = diesel::insert_into(settings::table)
        .values((settings::key.eq(key), settings::value.eq(value)))
        .execute(conn);
    match inserted {
        Ok(_) => Ok(value.to_string()),
        Err(diesel::result::Error::DatabaseError(
            diesel::result::DatabaseErrorKind::UniqueViolation,
            _,
        )) => get(conn, key)?.ok_or(diesel::result::Error::NotFound),
        Err(e) => Err(e),
    }
}
