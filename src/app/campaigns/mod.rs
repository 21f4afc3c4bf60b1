//! Campaigns as a service for the pages and the API: who may see and do what, reading a
//! campaign as a player sees it, and every change through [`change::change`]. The game itself
//! (moves, battles' aftermath, purchases) is decided in `rules::campaign`.

pub mod actions;
pub mod admin;
pub mod change;
pub mod deadlines;

use std::collections::BTreeMap;

pub use change::{
    bring_in_decided_battles, change, change_when, retrying, Archived, Attempt, Pending,
};

use crate::app::{Actor, Context, Error};
use crate::rules::campaign::state::{CampaignState, Entry, Event, Phase};
use crate::rules::campaign::ForceRules;
use crate::rules::{SystemId, Systems};
use crate::store::campaigns::{self as store, CampaignRow, LogRow};
use crate::store::{battles, DbConnection};

/// A campaign as a user sees it: the row, the state, and their part in it.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub row: CampaignRow,
    pub state: CampaignState,
    pub organiser: bool,
    /// The user's own force, if they play.
    pub force: Option<String>,
    /// The user's id.
    pub user: i64,
    /// Each battle record's status and who recorded its result, by record id.
    pub records: BTreeMap<i64, (String, Option<i64>)>,
}

impl Loaded {
    /// Where a campaign battle's record stands: `set_up`, `provisional`, `disputed`, …
    pub fn record_status(&self, record: i64) -> &str {
        self.records.get(&record).map_or("", |(s, _)| s.as_str())
    }

    pub fn recorded_by(&self, record: i64) -> Option<i64> {
        self.records.get(&record).and_then(|(_, r)| *r)
    }
}

impl Loaded {
    pub fn id(&self) -> i64 {
        self.row.id
    }

    /// Reads a campaign as user `uid` sees it, without checking that they take part.
    pub(crate) fn read(conn: &mut DbConnection, id: i64, uid: i64) -> Result<Self, Error> {
        let row = store::find(conn, id)?.ok_or(Error::NotFound)?;
        let records = battles::list_for_campaign(conn, id)?
            .into_iter()
            .map(|b| (b.id, (b.status, b.recorded_by)))
            .collect();
        Self::from_parts(row, records, uid)
    }

    fn from_parts(
        row: CampaignRow,
        records: BTreeMap<i64, (String, Option<i64>)>,
        uid: i64,
    ) -> Result<Self, Error> {
        let state = parse_state(&row)?;
        Ok(Loaded {
            organiser: row.organiser_id == uid,
            force: state.force_of_user(uid).map(|f| f.id.clone()),
            row,
            state,
            user: uid,
            records,
        })
    }
}

/// Loads a campaign for an actor who takes part in it (organiser or player). Reading never
/// writes: battles decided elsewhere were brought in when they were decided.
pub async fn load_for(ctx: &Context, actor: &Actor, id: i64) -> Result<Loaded, Error> {
    let uid = actor.id;
    ctx.with_conn(move |conn| {
        let row = store::find(conn, id)?.ok_or(Error::NotFound)?;
        if row.organiser_id != uid && !store::is_member(conn, id, uid)? {
            return Err(Error::NotFound);
        }
        Loaded::read(conn, id, uid)
    })
    .await
}

/// Every campaign the actor takes part in that has not ended, read in one go (the home page's
/// attention list).
pub async fn running_for(ctx: &Context, actor: &Actor) -> Result<Vec<Loaded>, Error> {
    let uid = actor.id;
    ctx.with_conn(move |conn| {
        let rows: Vec<CampaignRow> = store::list_for_user(conn, uid)?
            .into_iter()
            .filter(|r| r.phase != "ended")
            .collect();
        let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
        let mut records: BTreeMap<i64, BTreeMap<i64, (String, Option<i64>)>> = BTreeMap::new();
        for b in battles::list_for_campaigns(conn, &ids)? {
            if let Some(c) = b.campaign_id {
                records
                    .entry(c)
                    .or_default()
                    .insert(b.id, (b.status, b.recorded_by));
            }
        }
        rows.into_iter()
            .map(|row| {
                let r = records.remove(&row.id).unwrap_or_default();
                Loaded::from_parts(row, r, uid)
            })
            .collect()
    })
    .await
}

/// The campaigns the actor organises or plays in, newest first (summary columns only): the
/// archived ones, or the others.
pub async fn list(
    ctx: &Context,
    actor: &Actor,
    archived: bool,
) -> Result<Vec<store::CampaignListing>, Error> {
    let uid = actor.id;
    ctx.with_conn(move |conn| Ok(store::listing_for_user(conn, uid, archived)?))
        .await
}

/// One page of the campaigns the actor organises or plays in (summary columns only; the
/// archived ones, or the others), and how many match in all.
pub async fn listing(
    ctx: &Context,
    actor: &Actor,
    query: store::ListingQuery,
    archived: bool,
) -> Result<(Vec<store::CampaignListing>, i64), Error> {
    let uid = actor.id;
    ctx.with_conn(move |conn| Ok(store::listing_page_for_user(conn, uid, &query, archived)?))
        .await
}

/// The campaign an invite code opens, for the join page (no membership needed).
pub async fn by_code(ctx: &Context, code: &str) -> Result<(CampaignRow, CampaignState), Error> {
    let code = code.trim().to_uppercase();
    let row = ctx
        .with_conn(move |conn| Ok(store::find_by_code(conn, &code)?))
        .await?
        .ok_or(Error::NotFound)?;
    let st = parse_state(&row)?;
    Ok((row, st))
}

pub fn require_organiser(c: &Loaded) -> Result<(), Error> {
    if c.organiser {
        Ok(())
    } else {
        Err(Error::Forbidden(
            "Only the campaign's organiser may do that.".into(),
        ))
    }
}

/// The force a user may manage: their own.
pub fn require_own_force(c: &Loaded, force: &str) -> Result<(), Error> {
    if c.force.as_deref() == Some(force) {
        Ok(())
    } else if c.state.forces.contains_key(force) {
        Err(Error::Forbidden(
            "Only the player of a force may manage it.".into(),
        ))
    } else {
        Err(Error::NotFound)
    }
}

pub fn phase_id(p: Phase) -> &'static str {
    match p {
        Phase::Enlisting => "enlisting",
        Phase::Orders => "orders",
        Phase::Battles => "battles",
        Phase::Ended => "ended",
    }
}

/// The rule system a campaign is fought with, as the campaign engine asks it.
pub fn system_of<'a>(rules: &'a Systems, row: &CampaignRow) -> Result<&'a dyn ForceRules, Error> {
    SystemId::from_id(&row.rule_system)
        .and_then(|id| rules.forces(id))
        .ok_or_else(|| {
            Error::internal(format!(
                "campaign {} is fought with rule system {:?}, which this build does not serve",
                row.id, row.rule_system
            ))
        })
}

pub(crate) fn parse_state(row: &CampaignRow) -> Result<CampaignState, Error> {
    serde_json::from_str(&row.state)
        .map_err(|e| Error::internal(format!("campaign {} state does not parse: {e}", row.id)))
}

pub fn parse_entry(row: &LogRow) -> Result<Entry, Error> {
    let event: Event = serde_json::from_str(&row.event).map_err(|e| {
        Error::internal(format!(
            "campaign {} log entry {} does not parse: {e}",
            row.campaign_id, row.seq
        ))
    })?;
    Ok(Entry {
        seq: row.seq,
        event,
    })
}

/// The battles the organiser may void now, newest first: the same rule the void action applies
/// (M-94), so the organiser is never offered a battle the action then refuses.
pub async fn voidable_battles(ctx: &Context, c: &Loaded) -> Result<Vec<u32>, Error> {
    let entries = entries(ctx, c.id()).await?;
    Ok(crate::rules::campaign::voiding::voidable(
        &entries,
        &c.state,
        |record| crate::rules::campaign::voiding::RecordState::from_status(c.record_status(record)),
    ))
}

/// The whole log, parsed.
pub async fn entries(ctx: &Context, id: i64) -> Result<Vec<Entry>, Error> {
    let rows = log_rows(ctx, id).await?;
    rows.iter().map(parse_entry).collect()
}

/// The whole log.
pub async fn log_rows(ctx: &Context, id: i64) -> Result<Vec<LogRow>, Error> {
    ctx.with_conn(move |conn| Ok(store::log(conn, id)?)).await
}

/// A run of log entries read without the rest of the log: the entries (newest first), every
/// voiding entry of the campaign (for what is set aside) and whether older entries follow.
#[derive(Debug, Clone)]
pub struct LogSlice {
    pub rows: Vec<LogRow>,
    pub voiding: Vec<LogRow>,
    pub more: bool,
}

impl LogSlice {
    /// Whether every entry carries its words, so it can be shown without a replay.
    pub fn told(&self) -> bool {
        self.rows.iter().all(|r| r.words.is_some())
    }
}

/// One page of the log (newest first), filtered in the database.
pub async fn log_page(ctx: &Context, id: i64, q: store::LogQuery) -> Result<LogSlice, Error> {
    ctx.with_conn(move |conn| {
        let (rows, more) = store::log_page(conn, id, &q)?;
        Ok(LogSlice {
            rows,
            voiding: store::voiding_entries(conn, id)?,
            more,
        })
    })
    .await
}

/// The latest `n` entries (newest first).
pub async fn recent_log(ctx: &Context, id: i64, n: i64) -> Result<LogSlice, Error> {
    ctx.with_conn(move |conn| {
        Ok(LogSlice {
            rows: store::recent_log(conn, id, n)?,
            voiding: store::voiding_entries(conn, id)?,
            more: false,
        })
    })
    .await
}

/// Rebuilds the state from the log and says whether it matches the stored one.
pub async fn audit(ctx: &Context, id: i64) -> Result<(bool, usize), Error> {
    let (row, rows) = ctx
        .with_conn(move |conn| {
            Ok((
                store::find(conn, id)?.ok_or(Error::NotFound)?,
                store::log(conn, id)?,
            ))
        })
        .await?;
    let entries: Vec<Entry> = rows.iter().map(parse_entry).collect::<Result<_, _>>()?;
    let rebuilt = CampaignState::rebuild(system_of(&ctx.rules, &row)?, &entries)?;
    Ok((rebuilt == parse_state(&row)?, entries.len()))
}

/// A fresh invite code: 10 letters and digits, easy to read out.
pub fn invite_code() -> String {
    use rand::Rng;
    const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut rng = rand::rng();
    (0..10)
        .map(|_| char::from(ALPHABET[rng.random_range(0..ALPHABET.len())]))
        .collect()
}
