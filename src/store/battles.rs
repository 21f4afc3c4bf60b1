//! Battles: two roster snapshots in a rule system's set-up document, the players, and (once
//! decided) the result with its status. Confirmed results are never changed; a correction is a
//! new battle that replaces (and voids) the old one.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::db::MultiBackend;
use super::listing::{limit_offset, lower, search_pattern};
use super::schema::battles;
use super::DbConnection;

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = battles)]
pub struct BattleRow {
    pub id: i64,
    pub rule_system: String,
    pub created_by: i64,
    pub attacker_user_id: Option<i64>,
    pub attacker_guest: Option<String>,
    pub defender_user_id: Option<i64>,
    pub defender_guest: Option<String>,
    pub attacker_roster_id: Option<i64>,
    pub defender_roster_id: Option<i64>,
    pub title: String,
    pub scenario: String,
    pub points: i32,
    pub setup: String,
    pub rolls: String,
    pub status: String,
    pub method: Option<String>,
    pub result: Option<String>,
    pub winner: Option<String>,
    pub victory_level: Option<String>,
    pub attacker_vp: Option<i32>,
    pub defender_vp: Option<i32>,
    pub recorded_by: Option<i64>,
    pub confirmed_by: Option<i64>,
    pub single_party: bool,
    pub dispute: Option<String>,
    pub public_token: Option<String>,
    pub replaces_id: Option<i64>,
    pub version: i32,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    /// The campaign this battle belongs to, if any.
    pub campaign_id: Option<i64>,
    /// A side set up by e-mail: `<state>:<side>`, state `pending` until its player accepts,
    /// then `accepted`, or `declined`; while the address has no account,
    /// `pending:<side>:<hash of the address>` (see `app::battles::Invitation`).
    pub invitation: Option<String>,
}

impl BattleRow {
    /// Whether `user` plays in this battle (or set it up).
    pub fn involves(&self, user: i64) -> bool {
        self.created_by == user
            || self.attacker_user_id == Some(user)
            || self.defender_user_id == Some(user)
    }
}

/// A battle as lists show it: the summary columns only, never the set-up, the rolls or the
/// result, which lists do not read.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = battles)]
pub struct BattleListing {
    pub id: i64,
    pub created_by: i64,
    pub attacker_user_id: Option<i64>,
    pub defender_user_id: Option<i64>,
    pub title: String,
    pub scenario: String,
    pub status: String,
    pub winner: Option<String>,
    pub attacker_vp: Option<i32>,
    pub defender_vp: Option<i32>,
    pub recorded_by: Option<i64>,
    pub version: i32,
    pub created_at: NaiveDateTime,
    /// As in `BattleRow`.
    pub invitation: Option<String>,
}

/// How many confirmed battles had these players on each side and this `winner`: a player's
/// record, counted in the database rather than read battle by battle.
#[derive(Debug, Clone, Queryable)]
pub struct ResultCount {
    pub attacker_user_id: Option<i64>,
    pub defender_user_id: Option<i64>,
    pub winner: Option<String>,
    pub battles: i64,
}

/// The columns that say who plays each side and which side won, whichever shape of a battle
/// was loaded, so that `battle_record` reads them in one place for all of them.
pub trait PlayersAndWinner {
    fn attacker_user_id(&self) -> Option<i64>;
    fn defender_user_id(&self) -> Option<i64>;
    /// The `winner` column.
    fn winner(&self) -> Option<&str>;
}

/// The `invitation` column, of a whole battle or a list's line.
pub trait InvitationColumn: PlayersAndWinner {
    fn invitation(&self) -> Option<&str>;
}

macro_rules! players_and_winner {
    ($($shape:ty),*) => {$(
        impl PlayersAndWinner for $shape {
            fn attacker_user_id(&self) -> Option<i64> {
                self.attacker_user_id
            }
            fn defender_user_id(&self) -> Option<i64> {
                self.defender_user_id
            }
            fn winner(&self) -> Option<&str> {
                self.winner.as_deref()
            }
        }
    )*};
}
players_and_winner!(BattleRow, BattleListing, ResultCount);

impl InvitationColumn for BattleRow {
    fn invitation(&self) -> Option<&str> {
        self.invitation.as_deref()
    }
}

impl InvitationColumn for BattleListing {
    fn invitation(&self) -> Option<&str> {
        self.invitation.as_deref()
    }
}

#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = battles)]
pub struct NewBattle {
    pub rule_system: String,
    pub created_by: i64,
    pub attacker_user_id: Option<i64>,
    pub attacker_guest: Option<String>,
    pub defender_user_id: Option<i64>,
    pub defender_guest: Option<String>,
    pub attacker_roster_id: Option<i64>,
    pub defender_roster_id: Option<i64>,
    pub title: String,
    pub scenario: String,
    pub points: i32,
    pub setup: String,
    pub rolls: String,
    pub status: String,
    pub replaces_id: Option<i64>,
    pub single_party: bool,
    pub version: i32,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    pub campaign_id: Option<i64>,
    pub invitation: Option<String>,
}

/// A decided result, stored with its summary columns.
#[derive(Debug, Clone, AsChangeset)]
#[diesel(table_name = battles)]
pub struct ResultChange {
    /// The set-up as fought (a simulation draws its own seed when it runs); `None` keeps it.
    pub setup: Option<String>,
    pub status: String,
    pub method: Option<String>,
    pub result: Option<String>,
    pub winner: Option<String>,
    pub victory_level: Option<String>,
    pub attacker_vp: Option<i32>,
    pub defender_vp: Option<i32>,
    pub recorded_by: Option<i64>,
    pub confirmed_by: Option<i64>,
    pub single_party: bool,
}

pub fn create(conn: &mut DbConnection, new: &NewBattle) -> QueryResult<BattleRow> {
    crate::store::write_transaction(conn, |conn| {
        diesel::insert_into(battles::table)
            .values(new)
            .execute(conn)?;
        let id = super::db::last_insert_id(conn)?;
        battles::table
            .find(id)
            .select(BattleRow::as_select())
            .first(conn)
    })
}

pub fn find(conn: &mut DbConnection, id: i64) -> QueryResult<Option<BattleRow>> {
    battles::table
        .find(id)
        .select(BattleRow::as_select())
        .first(conn)
        .optional()
}

pub fn find_by_public_token(
    conn: &mut DbConnection,
    token: &str,
) -> QueryResult<Option<BattleRow>> {
    battles::table
        .filter(battles::public_token.eq(token))
        .select(BattleRow::as_select())
        .first(conn)
        .optional()
}

/// When the user set up each of their battles since `since` (outside campaigns), oldest first:
/// the throttle on setting battles up.
pub fn created_times_since(
    conn: &mut DbConnection,
    user: i64,
    since: chrono::NaiveDateTime,
) -> QueryResult<Vec<chrono::NaiveDateTime>> {
    battles::table
        .filter(battles::created_by.eq(user))
        .filter(battles::campaign_id.is_null())
        .filter(battles::created_at.ge(since))
        .order(battles::created_at.asc())
        .select(battles::created_at)
        .load(conn)
}

/// How many battles the user set up by invitation that are not fought yet (in `status`) and
/// not declined: the cap on battles pushed onto other players. Counted by the invitation, not by
/// whether the address had an account, so the cap says nothing about who has one.
pub fn open_against_others(conn: &mut DbConnection, user: i64, status: &str) -> QueryResult<i64> {
    battles::table
        .filter(battles::created_by.eq(user))
        .filter(battles::campaign_id.is_null())
        .filter(battles::status.eq(status))
        .filter(
            battles::invitation
                .like("pending:%")
                .or(battles::invitation.like("accepted:%")),
        )
        .count()
        .get_result(conn)
}

/// A new account takes up the open invitations sent to its address before it existed: each
/// stored as `pending:<side>:<hash>` becomes `pending:<side>` with the account on that side.
pub fn claim_invitations(
    conn: &mut DbConnection,
    user: i64,
    email_hash: &str,
) -> QueryResult<usize> {
    let a = diesel::update(
        battles::table
            .filter(battles::invitation.eq(format!("pending:attacker:{email_hash}")))
            .filter(battles::attacker_user_id.is_null()),
    )
    .set((
        battles::attacker_user_id.eq(user),
        battles::invitation.eq("pending:attacker"),
    ))
    .execute(conn)?;
    let d = diesel::update(
        battles::table
            .filter(battles::invitation.eq(format!("pending:defender:{email_hash}")))
            .filter(battles::defender_user_id.is_null()),
    )
    .set((
        battles::defender_user_id.eq(user),
        battles::invitation.eq("pending:defender"),
    ))
    .execute(conn)?;
    Ok(a + d)
}

/// Applies an answer to an invitation still waiting (`pending:<side>`) on a battle still at
/// `based_on`. The version does not move: the battle to be fought is the same, so a form or
/// client holding it can go on to fight or record.
fn answer<C>(
    conn: &mut DbConnection,
    id: i64,
    based_on: i32,
    waiting: &str,
    change: C,
) -> QueryResult<(bool, Option<BattleRow>)>
where
    C: AsChangeset<Target = battles::table>,
    C::Changeset: diesel::query_builder::QueryFragment<super::db::MultiBackend>,
{
    let waiting = waiting.to_string();
    crate::store::write_transaction(conn, |conn| {
        let changed = diesel::update(
            battles::table
                .find(id)
                .filter(battles::version.eq(based_on))
                .filter(battles::invitation.eq(&waiting)),
        )
        .set(change)
        .execute(conn)?;
        Ok((changed > 0, find(conn, id)?))
    })
}

/// The invited player accepts: their side shows their name from now on.
pub fn accept_invitation(
    conn: &mut DbConnection,
    id: i64,
    based_on: i32,
    attacker: bool,
) -> QueryResult<(bool, Option<BattleRow>)> {
    let now = chrono::Utc::now().naive_utc();
    if attacker {
        let change = (
            battles::invitation.eq("accepted:attacker"),
            battles::attacker_guest.eq(None::<String>),
            battles::updated_at.eq(now),
        );
        answer(conn, id, based_on, "pending:attacker", change)
    } else {
        let change = (
            battles::invitation.eq("accepted:defender"),
            battles::defender_guest.eq(None::<String>),
            battles::updated_at.eq(now),
        );
        answer(conn, id, based_on, "pending:defender", change)
    }
}

/// The invited player declines: the side keeps only the masked address and no player.
pub fn decline_invitation(
    conn: &mut DbConnection,
    id: i64,
    based_on: i32,
    attacker: bool,
) -> QueryResult<(bool, Option<BattleRow>)> {
    let now = chrono::Utc::now().naive_utc();
    if attacker {
        let change = (
            battles::invitation.eq("declined:attacker"),
            battles::attacker_user_id.eq(None::<i64>),
            battles::updated_at.eq(now),
        );
        answer(conn, id, based_on, "pending:attacker", change)
    } else {
        let change = (
            battles::invitation.eq("declined:defender"),
            battles::defender_user_id.eq(None::<i64>),
            battles::updated_at.eq(now),
        );
        answer(conn, id, based_on, "pending:defender", change)
    }
}

/// Deletes a battle not yet fought whose invitation is not accepted (waiting or declined), or
/// one against a guest outside any campaign; false if it was accepted (or fought) first.
pub fn delete_withdrawable(conn: &mut DbConnection, id: i64) -> QueryResult<bool> {
    let n = diesel::delete(
        battles::table
            .find(id)
            .filter(battles::status.eq("set_up"))
            .filter(
                battles::invitation
                    .like("pending:%")
                    .or(battles::invitation.like("declined:%"))
                    .or(battles::single_party
                        .eq(true)
                        .and(battles::invitation.is_null())
                        .and(battles::campaign_id.is_null())),
            ),
    )
    .execute(conn)?;
    Ok(n > 0)
}

/// Battles the user set up or plays in, newest first.
pub fn list_for_user(conn: &mut DbConnection, user: i64) -> QueryResult<Vec<BattleRow>> {
    of_user(user)
        .order(battles::id.desc())
        .select(BattleRow::as_select())
        .load(conn)
}

/// The battles a user set up or plays in, to select from.
fn of_user(user: i64) -> battles::BoxedQuery<'static, MultiBackend> {
    battles::table
        .filter(
            battles::created_by
                .eq(user)
                .or(battles::attacker_user_id.eq(user))
                .or(battles::defender_user_id.eq(user)),
        )
        .into_boxed()
}

/// How the list is cut (its search is on the title).
pub type ListingQuery = super::listing::ListingQuery<ListingOrder>;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ListingOrder {
    /// Most recently set up first.
    #[default]
    Newest,
    /// By title, A to Z in any case.
    Title,
}

/// One page of the battles a user set up or plays in, and how many match in all.
pub fn listing_for_user(
    conn: &mut DbConnection,
    user: i64,
    q: &ListingQuery,
) -> QueryResult<(Vec<BattleListing>, i64)> {
    let filtered = || {
        let mut query = of_user(user);
        if let Some(pattern) = search_pattern(q.search.as_deref()) {
            query = query.filter(lower(battles::title).like(pattern).escape('\\'));
        }
        query
    };
    let total: i64 = filtered().count().get_result(conn)?;
    let query = filtered();
    let query = match q.order {
        ListingOrder::Newest => query.order(battles::id.desc()),
        ListingOrder::Title => query.order((lower(battles::title).asc(), battles::id.asc())),
    };
    let (limit, offset) = limit_offset(q.page, q.per_page);
    let rows = query
        .limit(limit)
        .offset(offset)
        .select(BattleListing::as_select())
        .load(conn)?;
    Ok((rows, total))
}

/// The battles whose invitation waits for the user's answer (`pending:<side>` with the user
/// on that side), newest first, whatever page of the list is shown.
pub fn invitations_waiting_for(
    conn: &mut DbConnection,
    user: i64,
) -> QueryResult<Vec<BattleListing>> {
    battles::table
        .filter(
            battles::invitation
                .eq("pending:attacker")
                .and(battles::attacker_user_id.eq(user))
                .or(battles::invitation
                    .eq("pending:defender")
                    .and(battles::defender_user_id.eq(user))),
        )
        .order(battles::id.desc())
        .select(BattleListing::as_select())
        .load(conn)
}

/// The battles the user plays a side of that have one of `statuses`, newest first.
pub fn listing_with_status(
    conn: &mut DbConnection,
    user: i64,
    statuses: &[&str],
) -> QueryResult<Vec<BattleListing>> {
    battles::table
        .filter(
            battles::attacker_user_id
                .eq(user)
                .or(battles::defender_user_id.eq(user)),
        )
        .filter(battles::status.eq_any(statuses))
        .order(battles::id.desc())
        .select(BattleListing::as_select())
        .load(conn)
}

/// The battles with `status` (confirmed) that the user plays a side of, counted by the
/// players on each side and the winner: a handful of rows however many battles there are.
pub fn result_counts(
    conn: &mut DbConnection,
    user: i64,
    status: &str,
) -> QueryResult<Vec<ResultCount>> {
    battles::table
        .filter(battles::status.eq(status))
        .filter(
            battles::attacker_user_id
                .eq(user)
                .or(battles::defender_user_id.eq(user)),
        )
        .group_by((
            battles::attacker_user_id,
            battles::defender_user_id,
            battles::winner,
        ))
        .select((
            battles::attacker_user_id,
            battles::defender_user_id,
            battles::winner,
            diesel::dsl::count_star(),
        ))
        .load(conn)
}

/// Battles fought with a roster on either side, newest first.
pub fn list_for_roster(conn: &mut DbConnection, roster: i64) -> QueryResult<Vec<BattleListing>> {
    battles::table
        .filter(
            battles::attacker_roster_id
                .eq(roster)
                .or(battles::defender_roster_id.eq(roster)),
        )
        .order(battles::id.desc())
        .select(BattleListing::as_select())
        .load(conn)
}

/// Applies a change only if the battle is still at `based_on`; returns the battle as it now is
/// and whether the change was made.
fn guarded<C>(
    conn: &mut DbConnection,
    id: i64,
    based_on: i32,
    change: C,
) -> QueryResult<(bool, Option<BattleRow>)>
where
    C: AsChangeset<Target = battles::table>,
    C::Changeset: diesel::query_builder::QueryFragment<super::db::MultiBackend>,
{
    crate::store::write_transaction(conn, |conn| {
        let changed = diesel::update(
            battles::table
                .find(id)
                .filter(battles::version.eq(based_on)),
        )
        .set(change)
        .execute(conn)?;
        if changed > 0 {
            diesel::update(battles::table.find(id))
                .set((
                    battles::version.eq(based_on + 1),
                    battles::updated_at.eq(chrono::Utc::now().naive_utc()),
                ))
                .execute(conn)?;
        }
        Ok((changed > 0, find(conn, id)?))
    })
}

pub fn record_result(
    conn: &mut DbConnection,
    id: i64,
    based_on: i32,
    change: &ResultChange,
) -> QueryResult<(bool, Option<BattleRow>)> {
    guarded(conn, id, based_on, change)
}

pub fn set_status(
    conn: &mut DbConnection,
    id: i64,
    based_on: i32,
    status: &str,
    confirmed_by: Option<i64>,
    dispute: Option<String>,
) -> QueryResult<(bool, Option<BattleRow>)> {
    guarded(
        conn,
        id,
        based_on,
        (
            battles::status.eq(status),
            battles::confirmed_by.eq(confirmed_by),
            battles::dispute.eq(dispute),
        ),
    )
}

/// The newer version of a battle that is still open (not voided), if someone started one.
pub fn open_replacement(conn: &mut DbConnection, id: i64) -> QueryResult<Option<BattleRow>> {
    battles::table
        .filter(battles::replaces_id.eq(id))
        .filter(battles::status.ne("voided"))
        .select(BattleRow::as_select())
        .first(conn)
        .optional()
}

/// Marks a battle voided, whatever its version (a confirmed correction replaced it).
pub fn void(conn: &mut DbConnection, id: i64) -> QueryResult<usize> {
    diesel::update(battles::table.find(id))
        .set((
            battles::status.eq("voided"),
            battles::updated_at.eq(chrono::Utc::now().naive_utc()),
        ))
        .execute(conn)
}

pub fn set_public_token(
    conn: &mut DbConnection,
    id: i64,
    token: Option<&str>,
) -> QueryResult<usize> {
    diesel::update(battles::table.find(id))
        .set(battles::public_token.eq(token))
        .execute(conn)
}

/// Hands a battle that is not yet decided to a new player (a campaign player was replaced).
pub fn reassign_open(
    conn: &mut DbConnection,
    campaign: i64,
    from_user: i64,
    to_user: i64,
) -> QueryResult<usize> {
    let open = battles::campaign_id
        .eq(campaign)
        .and(battles::status.eq_any(["set_up", "provisional", "disputed"]));
    let a = diesel::update(
        battles::table
            .filter(open)
            .filter(battles::attacker_user_id.eq(from_user)),
    )
    .set(battles::attacker_user_id.eq(to_user))
    .execute(conn)?;
    let open = battles::campaign_id
        .eq(campaign)
        .and(battles::status.eq_any(["set_up", "provisional", "disputed"]));
    let d = diesel::update(
        battles::table
            .filter(open)
            .filter(battles::defender_user_id.eq(from_user)),
    )
    .set(battles::defender_user_id.eq(to_user))
    .execute(conn)?;
    // A result the leaving player recorded counts as the new player's, so that he cannot
    // confirm it himself.
    let open = battles::campaign_id
        .eq(campaign)
        .and(battles::status.eq_any(["provisional", "disputed"]));
    diesel::update(
        battles::table
            .filter(open)
            .filter(battles::recorded_by.eq(from_user)),
    )
    .set(battles::recorded_by.eq(to_user))
    .execute(conn)?;
    Ok(a + d)
}

/// Voids a battle only if it still has the status and version it was read with, moving its
/// version on so that a player acting on the old version is refused. False: it changed first.
pub fn void_if(conn: &mut DbConnection, id: i64, status: &str, version: i32) -> QueryResult<bool> {
    let n = diesel::update(
        battles::table
            .find(id)
            .filter(battles::status.eq(status))
            .filter(battles::version.eq(version)),
    )
    .set((
        battles::status.eq("voided"),
        battles::version.eq(version + 1),
        battles::updated_at.eq(chrono::Utc::now().naive_utc()),
    ))
    .execute(conn)?;
    Ok(n > 0)
}

/// Battles of a campaign.
pub fn list_for_campaign(conn: &mut DbConnection, campaign: i64) -> QueryResult<Vec<BattleRow>> {
    battles::table
        .filter(battles::campaign_id.eq(campaign))
        .order(battles::id.asc())
        .select(BattleRow::as_select())
        .load(conn)
}

/// Battles of several campaigns at once.
pub fn list_for_campaigns(
    conn: &mut DbConnection,
    campaigns: &[i64],
) -> QueryResult<Vec<BattleRow>> {
    if campaigns.is_empty() {
        return Ok(Vec::new());
    }
    battles::table
        .filter(battles::campaign_id.eq_any(campaigns))
        .order(battles::id.asc())
        .select(BattleRow::as_select())
        .load(conn)
}

// ---------- open sides and engine requests (issue 19) ----------

use super::schema::{battle_engine_requests, battle_open_sides};

/// What a battle with an open side keeps until its set-up can be made: the force of the player
/// who set it up (a roster document, snapshotted then) and how the set-up was asked for.
#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = battle_open_sides)]
pub struct OpenSideRow {
    pub battle_id: i64,
    pub force_document: String,
    pub force_roster_id: Option<i64>,
    /// The set-up player's force was the first one (it attacks unless the roles are rolled).
    pub force_first: bool,
    /// The scenario asked for; none: rolled.
    pub scenario: Option<String>,
    pub roll_roles: bool,
    /// True while the side waits for a roster.
    pub waiting: bool,
    pub created_at: NaiveDateTime,
}

/// Who plays which side with which force, and the set-up made from them: written when a roster
/// is attached to an open side (and cleared again when it is withdrawn). Every column is
/// written, `None` included.
#[derive(Debug, Clone, AsChangeset)]
#[diesel(table_name = battles, treat_none_as_null = true)]
pub struct SidesChange {
    pub attacker_user_id: Option<i64>,
    pub attacker_guest: Option<String>,
    pub defender_user_id: Option<i64>,
    pub defender_guest: Option<String>,
    pub attacker_roster_id: Option<i64>,
    pub defender_roster_id: Option<i64>,
    pub title: String,
    pub scenario: String,
    pub points: i32,
    pub setup: String,
    pub rolls: String,
    pub invitation: Option<String>,
}

/// Creates a battle whose other side is open, with what its set-up needs later.
pub fn create_with_open_side(
    conn: &mut DbConnection,
    new: &NewBattle,
    open: impl FnOnce(i64) -> OpenSideRow,
) -> QueryResult<BattleRow> {
    crate::store::write_transaction(conn, |conn| {
        let row = create(conn, new)?;
        diesel::insert_into(battle_open_sides::table)
            .values(&open(row.id))
            .execute(conn)?;
        Ok(row)
    })
}

pub fn open_side(conn: &mut DbConnection, battle: i64) -> QueryResult<Option<OpenSideRow>> {
    battle_open_sides::table
        .find(battle)
        .select(OpenSideRow::as_select())
        .first(conn)
        .optional()
}

/// Of these battles, those whose side waits for a roster.
pub fn waiting_open_sides(conn: &mut DbConnection, ids: &[i64]) -> QueryResult<Vec<i64>> {
    battle_open_sides::table
        .filter(battle_open_sides::battle_id.eq_any(ids))
        .filter(battle_open_sides::waiting.eq(true))
        .select(battle_open_sides::battle_id)
        .load(conn)
}

/// Attaches a roster to (`waiting` false) or withdraws it from (`waiting` true) an open side:
/// the battle's sides and set-up change, guarded by the battle's version and by the side's
/// state, in one transaction.
pub fn set_open_side(
    conn: &mut DbConnection,
    id: i64,
    based_on: i32,
    waiting: bool,
    change: &SidesChange,
) -> QueryResult<(bool, Option<BattleRow>)> {
    crate::store::write_transaction(conn, |conn| {
        let flipped = diesel::update(
            battle_open_sides::table
                .find(id)
                .filter(battle_open_sides::waiting.eq(!waiting)),
        )
        .set(battle_open_sides::waiting.eq(waiting))
        .execute(conn)?;
        if flipped == 0 {
            return Ok((false, find(conn, id)?));
        }
        let (changed, row) = guarded(conn, id, based_on, change)?;
        if !changed {
            // Nothing may stay half done: undo the side's flip.
            diesel::update(battle_open_sides::table.find(id))
                .set(battle_open_sides::waiting.eq(!waiting))
                .execute(conn)?;
        }
        Ok((changed, row))
    })
}

/// Deletes a battle set up with an open side that is not fought yet (attached or not).
pub fn delete_open_side_battle(conn: &mut DbConnection, id: i64) -> QueryResult<bool> {
    crate::store::write_transaction(conn, |conn| {
        let has_open_side = battle_open_sides::table
            .find(id)
            .count()
            .get_result::<i64>(conn)?
            > 0;
        if !has_open_side {
            return Ok(false);
        }
        let n = diesel::delete(battles::table.find(id).filter(battles::status.eq("set_up")))
            .execute(conn)?;
        Ok(n > 0)
    })
}

/// Who asked for the engine to fight this battle, if anyone has.
pub fn engine_request(conn: &mut DbConnection, battle: i64) -> QueryResult<Option<i64>> {
    battle_engine_requests::table
        .find(battle)
        .select(battle_engine_requests::requested_by)
        .first(conn)
        .optional()
}

/// Asks for the engine, guarded by the battle's version (its version moves on, so a page left
/// open elsewhere sees the request before acting). False: the battle changed, or it has a
/// request already.
pub fn ask_engine(
    conn: &mut DbConnection,
    id: i64,
    based_on: i32,
    by: i64,
) -> QueryResult<(bool, Option<BattleRow>)> {
    crate::store::write_transaction(conn, |conn| {
        if engine_request(conn, id)?.is_some() {
            return Ok((false, find(conn, id)?));
        }
        let (changed, row) = guarded(conn, id, based_on, battles::status.eq("set_up"))?;
        if changed {
            diesel::insert_into(battle_engine_requests::table)
                .values((
                    battle_engine_requests::battle_id.eq(id),
                    battle_engine_requests::requested_by.eq(by),
                    battle_engine_requests::created_at.eq(chrono::Utc::now().naive_utc()),
                ))
                .execute(conn)?;
        }
        Ok((changed, row))
    })
}

/// Ends the request for the engine made by `by` (declined or withdrawn), guarded by the
/// battle's version. False: the battle changed, or there is no such request.
pub fn end_engine_request(
    conn: &mut DbConnection,
    id: i64,
    based_on: i32,
    by: i64,
) -> QueryResult<(bool, Option<BattleRow>)> {
    crate::store::write_transaction(conn, |conn| {
        if engine_request(conn, id)? != Some(by) {
            return Ok((false, find(conn, id)?));
        }
        let (changed, row) = guarded(conn, id, based_on, battles::status.eq("set_up"))?;
        if changed {
            diesel::delete(battle_engine_requests::table.find(id)).execute(conn)?;
        }
        Ok((changed, row))
    })
}

/// Removes whatever request for the engine a battle has (it was fought, recorded or set aside).
pub fn clear_engine_request(conn: &mut DbConnection, id: i64) -> QueryResult<usize> {
    diesel::delete(battle_engine_requests::table.find(id)).execute(conn)
}

/// Battles not yet fought in which `user` plays and the other player asked for the engine:
/// waiting for `user`'s answer.
pub fn engine_requests_for(conn: &mut DbConnection, user: i64) -> QueryResult<Vec<BattleListing>> {
    battles::table
        .inner_join(battle_engine_requests::table)
        .filter(battle_engine_requests::requested_by.ne(user))
        .filter(battles::status.eq("set_up"))
        .filter(
            battles::attacker_user_id
                .eq(user)
                .or(battles::defender_user_id.eq(user)),
        )
        .order(battles::id.desc())
        .select(BattleListing::as_select())
        .load(conn)
}
