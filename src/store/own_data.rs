//! The queries that erase one account (issue 19): its rosters and its battles nobody fought go,
//! the account row stays as a tombstone under a neutral name so that the battles and campaigns
//! it took part in keep their other players' history, and its name leaves the campaign logs.
//! The caller runs them in one transaction.

use diesel::prelude::*;

use super::schema::{
    battles, campaign_log, campaigns, jobs, log_erasures, notification_prefs, notifications,
    outbox, password_resets, rosters, users,
};
use super::DbConnection;

/// Deletes every roster of `owner`; battles that were set up from one keep their snapshot (the
/// roster column becomes empty by its foreign key).
pub fn delete_rosters_of(conn: &mut DbConnection, owner: i64) -> QueryResult<usize> {
    diesel::delete(rosters::table.filter(rosters::owner_id.eq(owner))).execute(conn)
}

/// Deletes the battles outside campaigns that `user` set up or plays in and that nobody has
/// fought or recorded yet: there is nothing in them to keep.
pub fn delete_unfought_battles_of(conn: &mut DbConnection, user: i64) -> QueryResult<usize> {
    diesel::delete(
        battles::table
            .filter(battles::campaign_id.is_null())
            .filter(battles::status.eq("set_up"))
            .filter(
                battles::created_by
                    .eq(user)
                    .or(battles::attacker_user_id.eq(user))
                    .or(battles::defender_user_id.eq(user)),
            ),
    )
    .execute(conn)
}

/// Deletes the account's background jobs (odds runs), whatever their state.
pub fn delete_jobs_of(conn: &mut DbConnection, owner: i64) -> QueryResult<usize> {
    diesel::delete(jobs::table.filter(jobs::owner_id.eq(owner))).execute(conn)
}

/// Deletes the account's notices, e-mail preferences (with its unsubscribe token), password
/// reset tokens and every mail still waiting to go to its address.
pub fn delete_notices_of(conn: &mut DbConnection, user: i64, email: &str) -> QueryResult<usize> {
    let mut n = diesel::delete(notifications::table.filter(notifications::user_id.eq(user)))
        .execute(conn)?;
    n += diesel::delete(notification_prefs::table.filter(notification_prefs::user_id.eq(user)))
        .execute(conn)?;
    n += diesel::delete(password_resets::table.filter(password_resets::user_id.eq(user)))
        .execute(conn)?;
    n += diesel::delete(
        outbox::table
            .filter(outbox::channel.eq("mail"))
            .filter(outbox::target.eq(email)),
    )
    .execute(conn)?;
    Ok(n)
}

/// Replaces the account's address, name and password hash, disables it and takes away
/// administration: nothing that identified the person remains, and nobody can log in as it.
pub fn make_tombstone(
    conn: &mut DbConnection,
    id: i64,
    email: &str,
    name: &str,
    key: &str,
) -> QueryResult<usize> {
    diesel::update(users::table.find(id))
        .set((
            users::email.eq(email),
            users::display_name.eq(name),
            users::display_key.eq(key),
            // Not a PHC string: no password can ever verify against it.
            users::password_hash.eq("!deleted"),
            users::disabled.eq(true),
            users::is_admin.eq(false),
            users::updated_at.eq(chrono::Utc::now().naive_utc()),
        ))
        .execute(conn)
}

/// Opens (`true`) or closes the one window in which the campaign log's triggers let an entry's
/// event and words be rewritten: only the erasing transaction ever sees it open.
pub fn erasing(conn: &mut DbConnection, user: i64, open: bool) -> QueryResult<usize> {
    if open {
        diesel::insert_into(log_erasures::table)
            .values(log_erasures::user_id.eq(user))
            .execute(conn)
    } else {
        diesel::delete(log_erasures::table.filter(log_erasures::user_id.eq(user))).execute(conn)
    }
}

/// Rewrites one log entry's event and words in place (only for erasing a name, between
/// `erasing(…, true)` and `erasing(…, false)`).
pub fn rewrite_log_entry(
    conn: &mut DbConnection,
    id: i64,
    event: &str,
    words: Option<&str>,
) -> QueryResult<usize> {
    diesel::update(campaign_log::table.find(id))
        .set((campaign_log::event.eq(event), campaign_log::words.eq(words)))
        .execute(conn)
}

/// Rewrites a campaign's stored state in place and moves its version on, so that a change
/// prepared from the old state is tried again from the new one.
pub fn rewrite_campaign_state(conn: &mut DbConnection, id: i64, state: &str) -> QueryResult<usize> {
    diesel::update(campaigns::table.find(id))
        .set((
            campaigns::state.eq(state),
            campaigns::version.eq(campaigns::version + 1),
        ))
        .execute(conn)
}
