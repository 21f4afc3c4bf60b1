//! Notifications: the inbox rows, the outbox of mails and webhook posts (claimed with a lease so
//! two servers never send one twice), each user's e-mail preferences, password reset tokens
//! (only their hashes) and campaign webhooks. What to notify and when is `app::notifications`.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DieselError};

use super::schema::{
    campaign_webhooks, notification_prefs, notifications, outbox, password_resets,
};
use super::DbConnection;

fn now() -> NaiveDateTime {
    chrono::Utc::now().naive_utc()
}

// ---------- the inbox ----------

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = notifications)]
pub struct NotificationRow {
    pub id: i64,
    pub user_id: i64,
    pub kind: String,
    pub title: String,
    pub link: String,
    pub campaign_id: Option<i64>,
    pub battle_id: Option<i64>,
    pub created_at: NaiveDateTime,
    pub read_at: Option<NaiveDateTime>,
}

#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = notifications)]
pub struct NewNotification<'a> {
    pub user_id: i64,
    pub kind: &'a str,
    pub title: &'a str,
    pub link: &'a str,
    pub campaign_id: Option<i64>,
    pub battle_id: Option<i64>,
    pub created_at: NaiveDateTime,
}

pub fn insert(conn: &mut DbConnection, row: &NewNotification<'_>) -> QueryResult<()> {
    diesel::insert_into(notifications::table)
        .values(row)
        .execute(conn)?;
    Ok(())
}

/// Unread notices of a user (the partial index `notifications_unread` answers it).
pub fn unread_count(conn: &mut DbConnection, user: i64) -> QueryResult<i64> {
    notifications::table
        .filter(notifications::user_id.eq(user))
        .filter(notifications::read_at.is_null())
        .count()
        .get_result(conn)
}

/// A user's newest notices, at most `limit`, older than `before` when given.
pub fn list(
    conn: &mut DbConnection,
    user: i64,
    before: Option<i64>,
    limit: i64,
) -> QueryResult<Vec<NotificationRow>> {
    let mut query = notifications::table
        .filter(notifications::user_id.eq(user))
        .into_boxed();
    if let Some(before) = before {
        query = query.filter(notifications::id.lt(before));
    }
    query
        .order(notifications::id.desc())
        .limit(limit)
        .select(NotificationRow::as_select())
        .load(conn)
}

/// Marks one of the user's notices read; false when the user has no such notice.
pub fn mark_read(conn: &mut DbConnection, user: i64, id: i64) -> QueryResult<bool> {
    let found = notifications::table
        .filter(notifications::id.eq(id))
        .filter(notifications::user_id.eq(user))
        .count()
        .get_result::<i64>(conn)?;
    if found == 0 {
        return Ok(false);
    }
    diesel::update(
        notifications::table
            .filter(notifications::id.eq(id))
            .filter(notifications::user_id.eq(user))
            .filter(notifications::read_at.is_null()),
    )
    .set(notifications::read_at.eq(Some(now())))
    .execute(conn)?;
    Ok(true)
}

/// Marks the user's unread notices about one battle read (they have acted on it).
pub fn mark_read_about_battle(
    conn: &mut DbConnection,
    user: i64,
    battle: i64,
) -> QueryResult<usize> {
    diesel::update(
        notifications::table
            .filter(notifications::user_id.eq(user))
            .filter(notifications::battle_id.eq(battle))
            .filter(notifications::read_at.is_null()),
    )
    .set(notifications::read_at.eq(Some(now())))
    .execute(conn)
}

/// Marks every unread notice of the user read; answers how many.
pub fn mark_all_read(conn: &mut DbConnection, user: i64) -> QueryResult<usize> {
    diesel::update(
        notifications::table
            .filter(notifications::user_id.eq(user))
            .filter(notifications::read_at.is_null()),
    )
    .set(notifications::read_at.eq(Some(now())))
    .execute(conn)
}

// ---------- the outbox ----------

pub const PENDING: &str = "pending";
pub const SENDING: &str = "sending";
pub const SENT: &str = "sent";
pub const FAILED: &str = "failed";

pub const MAIL: &str = "mail";
pub const WEBHOOK: &str = "webhook";

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = outbox)]
pub struct OutboxRow {
    pub id: i64,
    pub channel: String,
    pub target: String,
    pub subject: String,
    pub body: String,
    pub unsubscribe_url: Option<String>,
    pub status: String,
    pub attempts: i32,
    pub run_after: NaiveDateTime,
    pub claimed_by: Option<String>,
    pub lease_until: Option<NaiveDateTime>,
    pub last_error: Option<String>,
    pub created_at: NaiveDateTime,
    pub sent_at: Option<NaiveDateTime>,
}

pub struct NewMessage<'a> {
    pub channel: &'a str,
    pub target: &'a str,
    pub subject: &'a str,
    pub body: &'a str,
    pub unsubscribe_url: Option<&'a str>,
}

pub fn enqueue(conn: &mut DbConnection, m: &NewMessage<'_>) -> QueryResult<()> {
    let at = now();
    diesel::insert_into(outbox::table)
        .values((
            outbox::channel.eq(m.channel),
            outbox::target.eq(m.target),
            outbox::subject.eq(m.subject),
            outbox::body.eq(m.body),
            outbox::unsubscribe_url.eq(m.unsubscribe_url),
            outbox::status.eq(PENDING),
            outbox::attempts.eq(0),
            outbox::run_after.eq(at),
            outbox::created_at.eq(at),
        ))
        .execute(conn)?;
    Ok(())
}

/// Claims the next message that is due on one of `channels`: a pending one whose time has
/// come, or one being sent by a server whose lease ran out. As `store::jobs::claim`:
/// PostgreSQL skips rows another server is claiming, and the conditional update refuses a
/// row someone else took in between on both backends.
pub fn claim(
    conn: &mut DbConnection,
    channels: &[&str],
    server: &str,
    lease_until: NaiveDateTime,
) -> QueryResult<Option<OutboxRow>> {
    let at = now();
    let channels: Vec<String> = channels.iter().map(|c| c.to_string()).collect();
    let claimable = outbox::status
        .eq(PENDING)
        .and(outbox::run_after.le(at))
        .or(outbox::status
            .eq(SENDING)
            .and(outbox::lease_until.lt(at).assume_not_null()));
    // A plain read first, so an idle sender does not take SQLite's write lock every second.
    let due: i64 = outbox::table
        .filter(claimable)
        .filter(outbox::channel.eq_any(&channels))
        .count()
        .get_result(conn)?;
    if due == 0 {
        return Ok(None);
    }
    crate::store::db::write_transaction(conn, |conn| {
        let candidate: Option<i64> = match conn {
            DbConnection::Postgresql(pg) => outbox::table
                .filter(claimable)
                .filter(outbox::channel.eq_any(&channels))
                .order((outbox::run_after, outbox::id))
                .select(outbox::id)
                .for_update()
                .skip_locked()
                .first(pg)
                .optional()?,
            DbConnection::Sqlite(lite) => outbox::table
                .filter(claimable)
                .filter(outbox::channel.eq_any(&channels))
                .order((outbox::run_after, outbox::id))
                .select(outbox::id)
                .first(lite)
                .optional()?,
        };
        let Some(id) = candidate else {
            return Ok(None);
        };
        let taken = diesel::update(outbox::table.find(id).filter(claimable))
            .set((
                outbox::status.eq(SENDING),
                outbox::claimed_by.eq(server),
                outbox::lease_until.eq(lease_until),
                outbox::attempts.eq(outbox::attempts + 1),
            ))
            .execute(conn)?;
        if taken == 0 {
            return Ok(None);
        }
        outbox::table
            .find(id)
            .select(OutboxRow::as_select())
            .first(conn)
            .optional()
    })
}

/// The message was sent. Its body is emptied (it may hold a password reset link).
pub fn mark_sent(conn: &mut DbConnection, id: i64, server: &str) -> QueryResult<bool> {
    let n = diesel::update(
        outbox::table
            .find(id)
            .filter(outbox::status.eq(SENDING))
            .filter(outbox::claimed_by.eq(server)),
    )
    .set((
        outbox::status.eq(SENT),
        outbox::body.eq(""),
        outbox::lease_until.eq(None::<NaiveDateTime>),
        outbox::last_error.eq(None::<String>),
        outbox::sent_at.eq(Some(now())),
    ))
    .execute(conn)?;
    Ok(n == 1)
}

/// Sending failed: try again after `retry_at`, or give up (`None`).
pub fn mark_failed(
    conn: &mut DbConnection,
    id: i64,
    server: &str,
    error: &str,
    retry_at: Option<NaiveDateTime>,
) -> QueryResult<bool> {
    let target = outbox::table
        .find(id)
        .filter(outbox::status.eq(SENDING))
        .filter(outbox::claimed_by.eq(server));
    let n = match retry_at {
        Some(at) => diesel::update(target)
            .set((
                outbox::status.eq(PENDING),
                outbox::run_after.eq(at),
                outbox::lease_until.eq(None::<NaiveDateTime>),
                outbox::last_error.eq(Some(error)),
            ))
            .execute(conn)?,
        None => diesel::update(target)
            .set((
                outbox::status.eq(FAILED),
                outbox::body.eq(""),
                outbox::lease_until.eq(None::<NaiveDateTime>),
                outbox::last_error.eq(Some(error)),
            ))
            .execute(conn)?,
    };
    Ok(n == 1)
}

/// Forgets sent and failed messages older than `before`.
pub fn prune(conn: &mut DbConnection, before: NaiveDateTime) -> QueryResult<usize> {
    diesel::delete(
        outbox::table
            .filter(outbox::status.eq_any([SENT, FAILED]))
            .filter(outbox::created_at.lt(before)),
    )
    .execute(conn)
}

/// Every message in the outbox, oldest first (for tests and the command line).
pub fn all_messages(conn: &mut DbConnection) -> QueryResult<Vec<OutboxRow>> {
    outbox::table
        .order(outbox::id)
        .select(OutboxRow::as_select())
        .load(conn)
}

// ---------- preferences ----------

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = notification_prefs)]
pub struct PrefsRow {
    pub user_id: i64,
    pub mail_off: String,
    pub unsubscribe_token: String,
    pub updated_at: NaiveDateTime,
}

pub fn prefs(conn: &mut DbConnection, user: i64) -> QueryResult<Option<PrefsRow>> {
    notification_prefs::table
        .find(user)
        .select(PrefsRow::as_select())
        .first(conn)
        .optional()
}

pub fn prefs_by_token(conn: &mut DbConnection, token: &str) -> QueryResult<Option<PrefsRow>> {
    notification_prefs::table
        .filter(notification_prefs::unsubscribe_token.eq(token))
        .select(PrefsRow::as_select())
        .first(conn)
        .optional()
}

/// The user's preferences, made (everything by e-mail, a fresh token) when they have none.
pub fn prefs_or_default(
    conn: &mut DbConnection,
    user: i64,
    fresh_token: &str,
) -> QueryResult<PrefsRow> {
    if let Some(found) = prefs(conn, user)? {
        return Ok(found);
    }
    // In a savepoint: on PostgreSQL a refused insert would otherwise spoil the caller's
    // whole transaction.
    let inserted = conn.transaction(|conn| {
        diesel::insert_into(notification_prefs::table)
            .values((
                notification_prefs::user_id.eq(user),
                notification_prefs::mail_off.eq(""),
                notification_prefs::unsubscribe_token.eq(fresh_token),
                notification_prefs::updated_at.eq(now()),
            ))
            .execute(conn)
    });
    match inserted {
        // Made meanwhile by another request: that one stands.
        Ok(_) | Err(DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _)) => {
            prefs(conn, user)?.ok_or(DieselError::NotFound)
        }
        Err(e) => Err(e),
    }
}

pub fn set_mail_off(conn: &mut DbConnection, user: i64, mail_off: &str) -> QueryResult<usize> {
    diesel::update(notification_prefs::table.find(user))
        .set((
            notification_prefs::mail_off.eq(mail_off),
            notification_prefs::updated_at.eq(now()),
        ))
        .execute(conn)
}

// ---------- password resets ----------

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = password_resets)]
pub struct ResetRow {
    pub id: i64,
    pub user_id: i64,
    pub token_hash: String,
    pub created_at: NaiveDateTime,
    pub expires_at: NaiveDateTime,
    pub used_at: Option<NaiveDateTime>,
}

pub fn insert_reset(
    conn: &mut DbConnection,
    user: i64,
    token_hash: &str,
    expires_at: NaiveDateTime,
) -> QueryResult<()> {
    diesel::insert_into(password_resets::table)
        .values((
            password_resets::user_id.eq(user),
            password_resets::token_hash.eq(token_hash),
            password_resets::created_at.eq(now()),
            password_resets::expires_at.eq(expires_at),
        ))
        .execute(conn)?;
    Ok(())
}

/// An unused, unexpired reset with this token hash.
pub fn usable_reset(
    conn: &mut DbConnection,
    token_hash: &str,
    at: NaiveDateTime,
) -> QueryResult<Option<ResetRow>> {
    password_resets::table
        .filter(password_resets::token_hash.eq(token_hash))
        .filter(password_resets::used_at.is_null())
        .filter(password_resets::expires_at.gt(at))
        .select(ResetRow::as_select())
        .first(conn)
        .optional()
}

/// Uses a reset once: false when it was used (or expired) meanwhile. Every other open reset
/// of the user is used up with it.
pub fn use_reset(
    conn: &mut DbConnection,
    id: i64,
    user: i64,
    at: NaiveDateTime,
) -> QueryResult<bool> {
    let n = diesel::update(
        password_resets::table
            .find(id)
            .filter(password_resets::used_at.is_null())
            .filter(password_resets::expires_at.gt(at)),
    )
    .set(password_resets::used_at.eq(Some(at)))
    .execute(conn)?;
    if n == 1 {
        diesel::update(
            password_resets::table
                .filter(password_resets::user_id.eq(user))
                .filter(password_resets::used_at.is_null()),
        )
        .set(password_resets::used_at.eq(Some(at)))
        .execute(conn)?;
    }
    Ok(n == 1)
}

/// Forgets resets that expired before `before`.
pub fn prune_resets(conn: &mut DbConnection, before: NaiveDateTime) -> QueryResult<usize> {
    diesel::delete(password_resets::table.filter(password_resets::expires_at.lt(before)))
        .execute(conn)
}

// ---------- campaign webhooks ----------

pub fn webhook(conn: &mut DbConnection, campaign: i64) -> QueryResult<Option<String>> {
    campaign_webhooks::table
        .find(campaign)
        .select(campaign_webhooks::url)
        .first(conn)
        .optional()
}

/// Sets (or with `None` removes) a campaign's webhook.
pub fn set_webhook(conn: &mut DbConnection, campaign: i64, url: Option<&str>) -> QueryResult<()> {
    diesel::delete(campaign_webhooks::table.find(campaign)).execute(conn)?;
    if let Some(url) = url {
        diesel::insert_into(campaign_webhooks::table)
            .values((
                campaign_webhooks::campaign_id.eq(campaign),
                campaign_webhooks::url.eq(url),
                campaign_webhooks::updated_at.eq(now()),
            ))
            .execute(conn)?;
    }
    Ok(())
}

// ---------- server-wide switches ----------

/// Sets a value in `settings`, replacing any (unlike `settings::get_or_insert`).
pub fn put_setting(conn: &mut DbConnection, key: &str, value: &str) -> QueryResult<()> {
    use super::schema::settings;
    crate::store::db::write_transaction(conn, |conn| {
        diesel::delete(settings::table.find(key)).execute(conn)?;
        diesel::insert_into(settings::table)
            .values((settings::key.eq(key), settings::value.eq(value)))
            .execute(conn)?;
        Ok(())
    })
}
