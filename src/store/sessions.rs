//! Login sessions. A JWT names its session; a session row that is revoked or expired makes the
//! token worthless even though its signature is still good.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::schema::{sessions, users};
use super::users::User;
use super::DbConnection;

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = sessions)]
pub struct Session {
    pub id: String,
    pub user_id: i64,
    /// `browser` (cookie) or `api` (bearer token).
    pub kind: String,
    pub created_at: NaiveDateTime,
    pub expires_at: NaiveDateTime,
    pub revoked_at: Option<NaiveDateTime>,
}

pub fn create(conn: &mut DbConnection, session: &Session) -> QueryResult<()> {
    diesel::insert_into(sessions::table)
        .values(session)
        .execute(conn)?;
    Ok(())
}

/// The session and its user, if the session is neither revoked nor expired and the user is
/// not disabled.
pub fn find_active(
    conn: &mut DbConnection,
    id: &str,
    now: NaiveDateTime,
) -> QueryResult<Option<(Session, User)>> {
    sessions::table
        .inner_join(users::table)
        .filter(sessions::id.eq(id))
        .filter(sessions::revoked_at.is_null())
        .filter(sessions::expires_at.gt(now))
        .filter(users::disabled.eq(false))
        .select((Session::as_select(), User::as_select()))
        .first(conn)
        .optional()
}

pub fn revoke(conn: &mut DbConnection, id: &str, now: NaiveDateTime) -> QueryResult<usize> {
    diesel::update(
        sessions::table
            .find(id)
            .filter(sessions::revoked_at.is_null()),
    )
    .set(sessions::revoked_at.eq(Some(now)))
    .execute(conn)
}

pub fn revoke_all_for_user(
    conn: &mut DbConnection,
    user_id: i64,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(
        sessions::table
            .filter(sessions::user_id.eq(user_id))
            .filter(sessions::revoked_at.is_null()),
    )
    .set(sessions::revoked_at.eq(Some(now)))
    .execute(conn)
}

/// Forgets sessions that ended more than a day ago, so the table does not grow forever.
pub fn delete_stale(conn: &mut DbConnection, now: NaiveDateTime) -> QueryResult<usize> {
    let cutoff = now - chrono::Duration::days(1);
    diesel::delete(sessions::table.filter(sessions::expires_at.lt(cutoff))).execute(conn)
}
