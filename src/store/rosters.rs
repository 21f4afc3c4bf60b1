//! Rosters: each stored as its rule system's document (JSON text) plus summary columns that
//! lists and filters need. Storage never interprets the document; the rules core does.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::listing::{limit_offset, lower, search_pattern};
use super::schema::rosters;
use super::DbConnection;

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = rosters)]
pub struct RosterRow {
    pub id: i64,
    pub owner_id: i64,
    pub rule_system: String,
    pub name: String,
    pub war: String,
    pub nation: String,
    pub points: i32,
    pub points_limit: Option<i32>,
    pub legal: bool,
    pub error_count: i32,
    pub warning_count: i32,
    pub catalogue_version: String,
    pub document: String,
    pub version: i32,
    pub share_token: Option<String>,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

/// What a rule system reports about a document, stored beside it.
#[derive(Debug, Clone, AsChangeset, Insertable)]
#[diesel(table_name = rosters)]
pub struct RosterContent {
    pub rule_system: String,
    pub name: String,
    pub war: String,
    pub nation: String,
    pub points: i32,
    pub points_limit: Option<i32>,
    pub legal: bool,
    pub error_count: i32,
    pub warning_count: i32,
    pub catalogue_version: String,
    pub document: String,
}

#[derive(Insertable)]
#[diesel(table_name = rosters)]
struct NewRosterRow {
    owner_id: i64,
    #[diesel(embed)]
    content: RosterContent,
    version: i32,
    created_at: NaiveDateTime,
    updated_at: NaiveDateTime,
}

fn now() -> NaiveDateTime {
    chrono::Utc::now().naive_utc()
}

/// Inserts a roster at version 1 and returns it.
pub fn create(
    conn: &mut DbConnection,
    owner_id: i64,
    content: &RosterContent,
) -> QueryResult<RosterRow> {
    let at = now();
    crate::store::write_transaction(conn, |conn| {
        diesel::insert_into(rosters::table)
            .values(&NewRosterRow {
                owner_id,
                content: content.clone(),
                version: 1,
                created_at: at,
                updated_at: at,
            })
            .execute(conn)?;
        let id = super::db::last_insert_id(conn)?;
        rosters::table
            .find(id)
            .select(RosterRow::as_select())
            .first(conn)
    })
}

pub fn find(conn: &mut DbConnection, id: i64) -> QueryResult<Option<RosterRow>> {
    rosters::table
        .find(id)
        .select(RosterRow::as_select())
        .first(conn)
        .optional()
}

pub fn find_by_share_token(conn: &mut DbConnection, token: &str) -> QueryResult<Option<RosterRow>> {
    rosters::table
        .filter(rosters::share_token.eq(token))
        .select(RosterRow::as_select())
        .first(conn)
        .optional()
}

/// The owner's rosters, most recently changed first, optionally of one war.
pub fn list_for_owner(
    conn: &mut DbConnection,
    owner_id: i64,
    war: Option<&str>,
) -> QueryResult<Vec<RosterRow>> {
    let mut query = rosters::table
        .filter(rosters::owner_id.eq(owner_id))
        .into_boxed();
    if let Some(war) = war {
        query = query.filter(rosters::war.eq(war.to_string()));
    }
    query
        .order((rosters::updated_at.desc(), rosters::id.desc()))
        .select(RosterRow::as_select())
        .load(conn)
}

/// A roster as the roster list shows it: the summary columns only, never the document.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = rosters)]
pub struct RosterListing {
    pub id: i64,
    pub rule_system: String,
    pub name: String,
    pub war: String,
    pub nation: String,
    pub points: i32,
    pub points_limit: Option<i32>,
    pub legal: bool,
    pub error_count: i32,
    pub warning_count: i32,
    pub updated_at: NaiveDateTime,
}

/// How the roster list is cut: filters, a search on the name, an order and a page.
#[derive(Debug, Clone, Default)]
pub struct ListingQuery {
    pub war: Option<String>,
    pub rule_system: Option<String>,
    /// Part of the name, any case.
    pub search: Option<String>,
    pub order: ListingOrder,
    /// From 0.
    pub page: i64,
    pub per_page: i64,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ListingOrder {
    /// Most recently changed first.
    #[default]
    Changed,
    Name,
    /// Most points first.
    Points,
}

/// One page of the owner's roster list and how many rosters match in all.
pub fn listing_for_owner(
    conn: &mut DbConnection,
    owner_id: i64,
    q: &ListingQuery,
) -> QueryResult<(Vec<RosterListing>, i64)> {
    let filtered = || {
        let mut query = rosters::table
            .filter(rosters::owner_id.eq(owner_id))
            .into_boxed();
        if let Some(war) = &q.war {
            query = query.filter(rosters::war.eq(war.clone()));
        }
        if let Some(system) = &q.rule_system {
            query = query.filter(rosters::rule_system.eq(system.clone()));
        }
        if let Some(pattern) = search_pattern(q.search.as_deref()) {
            query = query.filter(lower(rosters::name).like(pattern).escape('\\'));
        }
        query
    };
    let total: i64 = filtered().count().get_result(conn)?;
    let query = filtered();
    let query = match q.order {
        ListingOrder::Changed => query.order((rosters::updated_at.desc(), rosters::id.desc())),
        ListingOrder::Name => query.order((rosters::name.asc(), rosters::id.asc())),
        ListingOrder::Points => query.order((rosters::points.desc(), rosters::id.desc())),
    };
    let (limit, offset) = limit_offset(q.page, q.per_page);
    let rows = query
        .limit(limit)
        .offset(offset)
        .select(RosterListing::as_select())
        .load(conn)?;
    Ok((rows, total))
}

pub enum UpdateOutcome {
    Updated(RosterRow),
    /// Someone saved first: the stored roster is newer than the version the edit was based on.
    Stale(RosterRow),
    NotFound,
}

/// Saves new content only if the stored version is still `based_on`; the version goes up by one.
pub fn update(
    conn: &mut DbConnection,
    id: i64,
    based_on: i32,
    content: &RosterContent,
) -> QueryResult<UpdateOutcome> {
    crate::store::write_transaction(conn, |conn| {
        let changed = diesel::update(
            rosters::table
                .find(id)
                .filter(rosters::version.eq(based_on)),
        )
        .set((
            content,
            rosters::version.eq(based_on + 1),
            rosters::updated_at.eq(now()),
        ))
        .execute(conn)?;
        let row = find(conn, id)?;
        Ok(match (changed, row) {
            (_, None) => UpdateOutcome::NotFound,
            (0, Some(current)) => UpdateOutcome::Stale(current),
            (_, Some(updated)) => UpdateOutcome::Updated(updated),
        })
    })
}

pub fn delete(conn: &mut DbConnection, id: i64) -> QueryResult<usize> {
    diesel::delete(rosters::table.find(id)).execute(conn)
}

pub fn set_share_token(
    conn: &mut DbConnection,
    id: i64,
    token: Option<&str>,
) -> QueryResult<usize> {
    diesel::update(rosters::table.find(id))
        .set(rosters::share_token.eq(token))
        .execute(conn)
}
