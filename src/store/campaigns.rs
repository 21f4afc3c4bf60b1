//! Campaigns: one row holding the materialised state, plus the append-only log it is made
//! from. Every change appends entries and stores the new state in one transaction, guarded by
//! the row's version so two changes can never interleave. The log is never updated (a trigger
//! refuses it) and nothing here deletes from it.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::listing::{limit_offset, lower, search_pattern};
use super::schema::{campaign_log, campaign_members, campaigns};
use super::DbConnection;

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = campaigns)]
pub struct CampaignRow {
    pub id: i64,
    pub rule_system: String,
    pub name: String,
    pub organiser_id: i64,
    pub invite_code: String,
    pub state: String,
    pub phase: String,
    pub turn: i32,
    pub version: i32,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    /// Archived: hidden from lists, read-only (the state says so too).
    pub archived: bool,
    /// The public read-only page's token; none while the page is off.
    pub public_token: Option<String>,
}

#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = campaigns)]
pub struct NewCampaign {
    pub rule_system: String,
    pub name: String,
    pub organiser_id: i64,
    pub invite_code: String,
    pub state: String,
    pub phase: String,
    pub turn: i32,
    pub version: i32,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = campaign_log)]
pub struct LogRow {
    pub id: i64,
    pub campaign_id: i64,
    pub seq: i64,
    pub turn: i32,
    pub kind: String,
    pub force_id: Option<String>,
    pub actor_id: Option<i64>,
    pub seed: Option<String>,
    pub event: String,
    pub created_at: NaiveDateTime,
    /// The entry in words, made when it was written; none for entries older than that.
    pub words: Option<String>,
}

#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = campaign_log)]
pub struct NewLogRow {
    pub campaign_id: i64,
    pub seq: i64,
    pub turn: i32,
    pub kind: String,
    pub force_id: Option<String>,
    pub actor_id: Option<i64>,
    pub seed: Option<String>,
    pub event: String,
    pub created_at: NaiveDateTime,
    pub words: Option<String>,
}

/// The new state after a change.
#[derive(Debug, Clone)]
pub struct StateChange {
    pub state: String,
    pub phase: String,
    pub turn: i32,
    pub archived: bool,
}

/// Creates a campaign with its first log entries.
pub fn create(
    conn: &mut DbConnection,
    new: &NewCampaign,
    entries: Vec<NewLogRow>,
) -> QueryResult<CampaignRow> {
    crate::store::write_transaction(conn, |conn| {
        diesel::insert_into(campaigns::table)
            .values(new)
            .execute(conn)?;
        let id = super::db::last_insert_id(conn)?;
        let entries: Vec<NewLogRow> = entries
            .into_iter()
            .map(|mut e| {
                e.campaign_id = id;
                e
            })
            .collect();
        insert_entries(conn, &entries)?;
        diesel::insert_into(campaign_members::table)
            .values((
                campaign_members::campaign_id.eq(id),
                campaign_members::user_id.eq(new.organiser_id),
            ))
            .execute(conn)?;
        campaigns::table
            .find(id)
            .select(CampaignRow::as_select())
            .first(conn)
    })
}

pub fn find(conn: &mut DbConnection, id: i64) -> QueryResult<Option<CampaignRow>> {
    campaigns::table
        .find(id)
        .select(CampaignRow::as_select())
        .first(conn)
        .optional()
}

/// Inside a write transaction, makes other changes to this campaign wait until it commits, so
/// that concurrent actions take turns instead of failing on the version check. On SQLite the
/// write transaction already admits one writer at a time.
pub fn lock_for_change(conn: &mut DbConnection, id: i64) -> QueryResult<()> {
    if let DbConnection::Postgresql(pg) = conn {
        diesel::sql_query("SELECT id FROM campaigns WHERE id = $1 FOR UPDATE")
            .bind::<diesel::sql_types::BigInt, _>(id)
            .execute(pg)?;
    }
    Ok(())
}

pub fn find_by_code(conn: &mut DbConnection, code: &str) -> QueryResult<Option<CampaignRow>> {
    campaigns::table
        .filter(campaigns::invite_code.eq(code))
        .select(CampaignRow::as_select())
        .first(conn)
        .optional()
}

/// Campaigns a user organises or plays in and that are not archived, newest first.
pub fn list_for_user(conn: &mut DbConnection, user: i64) -> QueryResult<Vec<CampaignRow>> {
    of_user(user)
        .filter(campaigns::archived.eq(false))
        .order(campaigns::id.desc())
        .select(CampaignRow::as_select())
        .load(conn)
}

/// The campaigns a user organises or plays in, to select from (unordered, so that it can be
/// counted as well).
fn of_user(user: i64) -> campaigns::BoxedQuery<'static, crate::store::db::MultiBackend> {
    let mine = campaign_members::table
        .filter(campaign_members::user_id.eq(user))
        .select(campaign_members::campaign_id);
    campaigns::table
        .filter(campaigns::id.eq_any(mine))
        .into_boxed()
}

/// A campaign as the campaign lists show it: no state, which lists never read.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = campaigns)]
pub struct CampaignListing {
    pub id: i64,
    pub rule_system: String,
    pub name: String,
    pub organiser_id: i64,
    pub phase: String,
    pub turn: i32,
    pub created_at: NaiveDateTime,
    pub archived: bool,
}

/// The campaigns a user organises or plays in, newest first, without their state: the
/// archived ones or the others.
pub fn listing_for_user(
    conn: &mut DbConnection,
    user: i64,
    archived: bool,
) -> QueryResult<Vec<CampaignListing>> {
    of_user(user)
        .filter(campaigns::archived.eq(archived))
        .order(campaigns::id.desc())
        .select(CampaignListing::as_select())
        .load(conn)
}

/// How the list is cut (its search is on the name).
pub type ListingQuery = super::listing::ListingQuery<ListingOrder>;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ListingOrder {
    /// Most recently started first.
    #[default]
    Newest,
    /// By name, A to Z in any case.
    Name,
}

/// One page of the campaigns a user organises or plays in (the archived ones or the others),
/// and how many match in all.
pub fn listing_page_for_user(
    conn: &mut DbConnection,
    user: i64,
    q: &ListingQuery,
    archived: bool,
) -> QueryResult<(Vec<CampaignListing>, i64)> {
    let filtered = || {
        let mut query = of_user(user).filter(campaigns::archived.eq(archived));
        if let Some(pattern) = search_pattern(q.search.as_deref()) {
            query = query.filter(lower(campaigns::name).like(pattern).escape('\\'));
        }
        query
    };
    let total: i64 = filtered().count().get_result(conn)?;
    let query = filtered();
    let query = match q.order {
        ListingOrder::Newest => query.order(campaigns::id.desc()),
        ListingOrder::Name => query.order((lower(campaigns::name).asc(), campaigns::id.asc())),
    };
    let (limit, offset) = limit_offset(q.page, q.per_page);
    let rows = query
        .limit(limit)
        .offset(offset)
        .select(CampaignListing::as_select())
        .load(conn)?;
    Ok((rows, total))
}

/// Whether a user takes part in a campaign (organiser or player).
pub fn is_member(conn: &mut DbConnection, campaign: i64, user: i64) -> QueryResult<bool> {
    diesel::select(diesel::dsl::exists(
        campaign_members::table
            .filter(campaign_members::campaign_id.eq(campaign))
            .filter(campaign_members::user_id.eq(user)),
    ))
    .get_result(conn)
}

/// Records that a user takes part (joining, or replacing a player).
pub fn add_member(
    conn: &mut DbConnection,
    campaign: i64,
    user: i64,
    force: Option<&str>,
) -> QueryResult<()> {
    let existing = is_member(conn, campaign, user)?;
    if existing {
        diesel::update(
            campaign_members::table
                .filter(campaign_members::campaign_id.eq(campaign))
                .filter(campaign_members::user_id.eq(user)),
        )
        .set(campaign_members::force_id.eq(force))
        .execute(conn)?;
    } else {
        diesel::insert_into(campaign_members::table)
            .values((
                campaign_members::campaign_id.eq(campaign),
                campaign_members::user_id.eq(user),
                campaign_members::force_id.eq(force),
            ))
            .execute(conn)?;
    }
    Ok(())
}

/// Appends entries and stores the state they lead to, if the campaign is still at
/// `based_on`. Returns false (and changes nothing) when someone else changed it first.
pub fn append(
    conn: &mut DbConnection,
    id: i64,
    based_on: i32,
    change: &StateChange,
    entries: &[NewLogRow],
) -> QueryResult<bool> {
    let updated = diesel::update(
        campaigns::table
            .find(id)
            .filter(campaigns::version.eq(based_on)),
    )
    .set((
        campaigns::state.eq(&change.state),
        campaigns::phase.eq(&change.phase),
        campaigns::turn.eq(change.turn),
        campaigns::archived.eq(change.archived),
        campaigns::version.eq(based_on + 1),
        campaigns::updated_at.eq(chrono::Utc::now().naive_utc()),
    ))
    .execute(conn)?;
    if updated == 0 {
        return Ok(false);
    }
    insert_entries(conn, entries)?;
    Ok(true)
}

// One statement per entry: batch inserts are not available over both backends at once.
fn insert_entries(conn: &mut DbConnection, entries: &[NewLogRow]) -> QueryResult<()> {
    for e in entries {
        diesel::insert_into(campaign_log::table)
            .values(e)
            .execute(conn)?;
    }
    Ok(())
}

/// The whole log in order.
pub fn log(conn: &mut DbConnection, campaign: i64) -> QueryResult<Vec<LogRow>> {
    campaign_log::table
        .filter(campaign_log::campaign_id.eq(campaign))
        .order(campaign_log::seq.asc())
        .select(LogRow::as_select())
        .load(conn)
}

/// The latest `n` entries, newest first.
pub fn recent_log(conn: &mut DbConnection, campaign: i64, n: i64) -> QueryResult<Vec<LogRow>> {
    campaign_log::table
        .filter(campaign_log::campaign_id.eq(campaign))
        .order(campaign_log::seq.desc())
        .limit(n)
        .select(LogRow::as_select())
        .load(conn)
}

/// The entries that void a battle (each sets aside the entries since the battle's result).
pub fn voiding_entries(conn: &mut DbConnection, campaign: i64) -> QueryResult<Vec<LogRow>> {
    // Sorted here, not by the database: ordering by `seq` would lead SQLite to walk the
    // campaign's whole log through the (campaign, seq) index instead of the (campaign, kind) one.
    let mut rows: Vec<LogRow> = campaign_log::table
        .filter(campaign_log::campaign_id.eq(campaign))
        .filter(campaign_log::kind.eq("battle_voided"))
        .select(LogRow::as_select())
        .load(conn)?;
    rows.sort_by_key(|r| r.seq);
    Ok(rows)
}

/// Which entries a page of the log reads: of one turn, and those a force made or that name no
/// force (battles, turns: the caller keeps the ones about that force), newest first.
#[derive(Debug, Clone, Default)]
pub struct LogQuery {
    pub turn: Option<i32>,
    pub force: Option<String>,
    /// From 0.
    pub page: i64,
    pub per_page: i64,
}

/// One page of the log, and whether older entries follow it. There is no count of every
/// match: counting would read the whole log, and a page's cost must not grow with it.
pub fn log_page(
    conn: &mut DbConnection,
    campaign: i64,
    q: &LogQuery,
) -> QueryResult<(Vec<LogRow>, bool)> {
    let mut query = campaign_log::table
        .filter(campaign_log::campaign_id.eq(campaign))
        .into_boxed();
    if let Some(t) = q.turn {
        query = query.filter(campaign_log::turn.eq(t));
    }
    if let Some(f) = &q.force {
        query = query.filter(
            campaign_log::force_id
                .eq(f.clone())
                .or(campaign_log::force_id.is_null()),
        );
    }
    let per = q.per_page.max(1);
    let mut rows = query
        .order(campaign_log::seq.desc())
        .limit(per + 1)
        .offset(q.page.max(0) * per)
        .select(LogRow::as_select())
        .load(conn)?;
    let more = rows.len() as i64 > per;
    rows.truncate(usize::try_from(per).unwrap_or(usize::MAX));
    Ok((rows, more))
}

/// The highest sequence number so far (0 for none).
pub fn last_seq(conn: &mut DbConnection, campaign: i64) -> QueryResult<i64> {
    let max: Option<i64> = campaign_log::table
        .filter(campaign_log::campaign_id.eq(campaign))
        .select(diesel::dsl::max(campaign_log::seq))
        .first(conn)?;
    Ok(max.unwrap_or(0))
}

/// Sets or clears the public page's token (inside the change's transaction).
pub fn set_public_token(conn: &mut DbConnection, id: i64, token: Option<&str>) -> QueryResult<()> {
    diesel::update(campaigns::table.find(id))
        .set(campaigns::public_token.eq(token))
        .execute(conn)?;
    Ok(())
}

/// The campaign whose public page has this token, while the page is on.
pub fn find_by_public_token(
    conn: &mut DbConnection,
    token: &str,
) -> QueryResult<Option<CampaignRow>> {
    campaigns::table
        .filter(campaigns::public_token.eq(token))
        .select(CampaignRow::as_select())
        .first(conn)
        .optional()
}

/// Deletes a campaign that is still at `based_on`, with its members, log and battle records
/// (the tables cascade). False when it changed since it was read.
pub fn delete_if(conn: &mut DbConnection, id: i64, based_on: i32) -> QueryResult<bool> {
    let n = diesel::delete(
        campaigns::table
            .find(id)
            .filter(campaigns::version.eq(based_on)),
    )
    .execute(conn)?;
    Ok(n > 0)
}
