//! Throttle counts, shared by every server on the database: one row per counted attempt under a
//! bucket (a hash of "what is limited": an account, a client address, a user's password
//! changes). The rules (limits, windows, delays) live in `app::throttles`.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use sha2::{Digest, Sha256};

use super::schema::throttle_hits;
use super::DbConnection;

/// The stored name of a bucket: a hash, so the table holds no emails or addresses.
pub fn bucket(key: &str) -> String {
    let digest = Sha256::digest(key.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// What a bucket holds since a moment: how many hits, the oldest and the newest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Tally {
    pub count: i64,
    pub oldest: Option<NaiveDateTime>,
    pub newest: Option<NaiveDateTime>,
}

pub fn tally(conn: &mut DbConnection, bucket: &str, since: NaiveDateTime) -> QueryResult<Tally> {
    use diesel::dsl::{count_star, max, min};
    let (count, oldest, newest) = throttle_hits::table
        .filter(throttle_hits::bucket.eq(bucket))
        .filter(throttle_hits::at.gt(since))
        .select((count_star(), min(throttle_hits::at), max(throttle_hits::at)))
        .first::<(i64, Option<NaiveDateTime>, Option<NaiveDateTime>)>(conn)?;
    Ok(Tally {
        count,
        oldest,
        newest,
    })
}

/// Counts one hit; answers its id (so an attempt that turns out well can be taken back).
pub fn hit(conn: &mut DbConnection, bucket: &str, at: NaiveDateTime) -> QueryResult<i64> {
    diesel::insert_into(throttle_hits::table)
        .values((throttle_hits::bucket.eq(bucket), throttle_hits::at.eq(at)))
        .execute(conn)?;
    super::db::last_insert_id(conn)
}

/// Takes hits back (a login that succeeded does not count).
pub fn forget(conn: &mut DbConnection, ids: &[i64]) -> QueryResult<usize> {
    diesel::delete(throttle_hits::table.filter(throttle_hits::id.eq_any(ids))).execute(conn)
}

/// Removes hits older than every window.
pub fn prune(conn: &mut DbConnection, before: NaiveDateTime) -> QueryResult<usize> {
    diesel::delete(throttle_hits::table.filter(throttle_hits::at.lt(before))).execute(conn)
}

/// Within a write transaction, makes other servers checking the same bucket wait until this
/// one commits, so that parallel attempts cannot all read the same count. On SQLite the write
/// transaction already admits one writer at a time.
pub fn lock_bucket(conn: &mut DbConnection, bucket: &str) -> QueryResult<()> {
    if let DbConnection::Postgresql(pg) = conn {
        diesel::sql_query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))")
            .bind::<diesel::sql_types::Text, _>(bucket)
            .execute(pg)?;
    }
    Ok(())
}
