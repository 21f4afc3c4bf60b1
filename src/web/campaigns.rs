//! Campaigns as a service for the pages and the API: who may do what, and every change as log
//! entries appended together with the state they lead to, in one guarded transaction. The
//! game itself (moves, battles' aftermath, purchases) is decided in `rules::campaign`; this
//! module loads, authorises, creates battle records and stores.

use std::collections::BTreeMap;

use actix_web::web;
use diesel::Connection;

use crate::rules::campaign::after_battle::{resolve_battle, BattleReport, ElementEnd};
use crate::rules::campaign::aftermath::EndState;
use crate::rules::campaign::movement::CampaignError;
use crate::rules::campaign::state::{
    BattleResult, BattleStatus, CampaignBattle, CampaignState, Entry, Event, Phase,
};
use crate::rules::campaign::turn::{close_turn, end_turn};
use crate::rules::lotf::record::{CommanderFate, FinalState};
use crate::rules::lotf::{self, BattleSetup, ScenarioId, Side};
use crate::store::battles::{self, NewBattle};
use crate::store::campaigns::{self as store, CampaignRow, LogRow, NewLogRow, StateChange};
use crate::store::DbConnection;
use crate::web::auth::SignedInUser;
use crate::web::battle_records::{result_of, status, StoredResult};
use crate::web::state::{with_conn, AppState};
use crate::web::AppError;

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
}

impl From<CampaignError> for AppError {
    fn from(e: CampaignError) -> Self {
        match e {
            CampaignError::BadEntry { .. } => AppError::internal(e),
            CampaignError::Refused(message) => AppError::Conflict(message),
            CampaignError::Invalid(message) => AppError::Validation {
                message: message.clone(),
                details: vec![crate::web::error::ErrorDetail {
                    field: None,
                    message,
                }],
            },
            other => AppError::bad_request(other.to_string()),
        }
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

/// The kind tag of an event, as stored in the log's `kind` column.
pub fn event_kind(e: &Event) -> String {
    serde_json::to_value(e)
        .ok()
        .and_then(|v| v.get("kind").and_then(|k| k.as_str()).map(str::to_string))
        .unwrap_or_default()
}

/// The force an entry concerns, for filtering the log.
pub fn event_force(e: &Event) -> Option<String> {
    match e {
        Event::Enlisted { force, .. }
        | Event::OrderGiven { force, .. }
        | Event::Moved { force, .. }
        | Event::Retreated { force, .. }
        | Event::Surrendered { force, .. }
        | Event::Destroyed { force }
        | Event::ElementReduced { force, .. }
        | Event::ElementLost { force, .. }
        | Event::CommanderReplaced { force, .. }
        | Event::Experience { force, .. }
        | Event::Reinforced { force, .. }
        | Event::Purchased { force, .. }
        | Event::PlayerReplaced { force, .. } => Some(force.clone()),
        Event::PlaceTaken { force, .. } | Event::Adjusted { force, .. } => force.clone(),
        _ => None,
    }
}

fn parse_state(row: &CampaignRow) -> Result<CampaignState, AppError> {
    serde_json::from_str(&row.state)
        .map_err(|e| AppError::internal(format!("campaign {} state does not parse: {e}", row.id)))
}

pub fn parse_entry(row: &LogRow) -> Result<Entry, AppError> {
    let event: Event = serde_json::from_str(&row.event).map_err(|e| {
        AppError::internal(format!(
            "campaign {} log entry {} does not parse: {e}",
            row.campaign_id, row.seq
        ))
    })?;
    Ok(Entry {
        seq: row.seq,
        event,
    })
}

/// An event to append, with the seed of the dice that decided it (if any).
pub struct Pending {
    pub event: Event,
    pub seed: Option<u64>,
}

fn pending(events: Vec<Event>, seed: Option<u64>) -> Vec<Pending> {
    events
        .into_iter()
        .map(|event| Pending { event, seed })
        .collect()
}

/// Why a guarded change must start again.
enum Attempt {
    /// Someone else changed the campaign first.
    Stale,
    Failed(AppError),
}

impl From<diesel::result::Error> for Attempt {
    fn from(e: diesel::result::Error) -> Self {
        Attempt::Failed(e.into())
    }
}

impl From<AppError> for Attempt {
    fn from(e: AppError) -> Self {
        Attempt::Failed(e)
    }
}

/// Stores events on top of the row's state: appends them to the log and saves the new state,
/// only if nobody changed the campaign since it was read. A voided battle rebuilds the state
/// from the whole log, since the entries it sets aside must drop out.
fn store_events(
    conn: &mut DbConnection,
    row: &CampaignRow,
    state: &CampaignState,
    events: Vec<Pending>,
    actor: Option<i64>,
) -> Result<CampaignState, Attempt> {
    if events.is_empty() {
        return Ok(state.clone());
    }
    let mut next = state.clone();
    let mut seq = store::last_seq(conn, row.id)?;
    let now = chrono::Utc::now().naive_utc();
    let mut rows = Vec::new();
    let mut voided = false;
    for p in events {
        seq += 1;
        let turn_before = next.turn;
        next.apply(seq, &p.event).map_err(AppError::from)?;
        voided |= matches!(p.event, Event::BattleVoided { .. });
        let turn = if matches!(p.event, Event::TurnBegan { .. }) {
            next.turn
        } else {
            turn_before
        };
        rows.push(NewLogRow {
            campaign_id: row.id,
            seq,
            turn: i32::try_from(turn).unwrap_or(i32::MAX),
            kind: event_kind(&p.event),
            force_id: event_force(&p.event),
            actor_id: actor,
            seed: p.seed.map(|s| s.to_string()),
            event: serde_json::to_string(&p.event).map_err(AppError::internal)?,
            created_at: now,
        });
    }
    if voided {
        let mut entries: Vec<Entry> = store::log(conn, row.id)?
            .iter()
            .map(parse_entry)
            .collect::<Result<_, _>>()?;
        for r in &rows {
            entries.push(Entry {
                seq: r.seq,
                event: serde_json::from_str(&r.event).map_err(AppError::internal)?,
            });
        }
        next = CampaignState::rebuild(&entries).map_err(AppError::from)?;
    }
    let change = StateChange {
        state: serde_json::to_string(&next).map_err(AppError::internal)?,
        phase: phase_id(next.phase).into(),
        turn: i32::try_from(next.turn).unwrap_or(i32::MAX),
    };
    if store::append(conn, row.id, row.version, &change, &rows)? {
        Ok(next)
    } else {
        Err(Attempt::Stale)
    }
}

/// Runs a change to a campaign: `decide` reads the current state (and may create battle
/// records) and returns the events; they are stored with the state they lead to. Tried again
/// from a fresh read if someone else changed the campaign in between.
pub async fn change<F>(
    state: &web::Data<AppState>,
    id: i64,
    actor: Option<i64>,
    decide: F,
) -> Result<CampaignState, AppError>
where
    F: Fn(&mut DbConnection, &CampaignRow, &CampaignState) -> Result<Vec<Pending>, AppError>
        + Send
        + 'static,
{
    let rules = state.app.rules.clone();
    with_conn(state, move |conn| {
        for _ in 0..6 {
            let attempt = conn.transaction::<_, Attempt, _>(|conn| {
                let row = store::find(conn, id)?.ok_or(AppError::NotFound)?;
                let current = parse_state(&row)?;
                // Battles decided elsewhere are brought in first and stored on their own, so
                // that every decision (a void above all) reads a log that matches the state.
                let synced = sync_events(conn, &rules.lotf, &current)?;
                if !synced.is_empty() {
                    store_events(conn, &row, &current, synced, None)?;
                    return Ok(None);
                }
                let events = decide(conn, &row, &current)?;
                store_events(conn, &row, &current, events, actor).map(Some)
            });
            match attempt {
                Ok(Some(s)) => return Ok(s),
                // Kept the battles brought in; decide again on the state they led to.
                Ok(None) | Err(Attempt::Stale) => continue,
                Err(Attempt::Failed(e)) => return Err(e),
            }
        }
        Err(AppError::Conflict(
            "The campaign is busy; try again in a moment.".into(),
        ))
    })
    .await
}

/// Loads a campaign for a user who takes part in it (organiser or player), bringing in the
/// outcome of any battle decided since it was last changed.
pub async fn load_for(
    state: &web::Data<AppState>,
    user: &SignedInUser,
    id: i64,
) -> Result<Loaded, AppError> {
    let uid = user.id;
    let row = with_conn(state, move |conn| {
        let row = store::find(conn, id)?.ok_or(AppError::NotFound)?;
        if row.organiser_id != uid && !store::is_member(conn, id, uid)? {
            return Err(AppError::NotFound);
        }
        Ok(row)
    })
    .await?;
    let mut current = parse_state(&row)?;
    if current.phase == Phase::Battles && current.pending_battles().next().is_some() {
        // Bring in battles decided since; should that fail, show the campaign as stored.
        match change(state, id, None, |_, _, _| Ok(Vec::new())).await {
            Ok(now) => current = now,
            Err(e) => {
                tracing::error!(campaign = id, error = %e, "could not bring in decided battles")
            }
        }
    }
    let (row, records) = with_conn(state, move |conn| {
        let row = store::find(conn, id)?.ok_or(AppError::NotFound)?;
        let records = battles::list_for_campaign(conn, id)?
            .into_iter()
            .map(|b| (b.id, (b.status, b.recorded_by)))
            .collect();
        Ok((row, records))
    })
    .await?;
    let force = current.force_of_user(uid).map(|f| f.id.clone());
    Ok(Loaded {
        organiser: row.organiser_id == uid,
        row,
        state: current,
        force,
        user: uid,
        records,
    })
}

pub fn require_organiser(c: &Loaded) -> Result<(), AppError> {
    if c.organiser {
        Ok(())
    } else {
        Err(AppError::Forbidden(
            "Only the campaign's organiser may do that.".into(),
        ))
    }
}

/// The force a user may manage: their own.
pub fn require_own_force(c: &Loaded, force: &str) -> Result<(), AppError> {
    if c.force.as_deref() == Some(force) {
        Ok(())
    } else if c.state.forces.contains_key(force) {
        Err(AppError::Forbidden(
            "Only the player of a force may manage it.".into(),
        ))
    } else {
        Err(AppError::NotFound)
    }
}

// ---------- battles ----------

fn end_of(level: lotf::DisciplineLevel) -> EndState {
    match level {
        lotf::DisciplineLevel::Fit => EndState::Fit,
        lotf::DisciplineLevel::Shaken => EndState::Shaken,
        lotf::DisciplineLevel::Exhausted => EndState::Exhausted,
        lotf::DisciplineLevel::Shattered => EndState::Shattered,
    }
}

/// What a decided battle record means for the campaign.
pub fn report_of(stored: &StoredResult) -> BattleReport {
    match stored {
        StoredResult::Simulated { outcome } => BattleReport {
            result: BattleResult {
                winner: outcome.winner.map(side_id),
                level: outcome.victory_level.id().into(),
                attacker_vp: outcome.attacker_vp,
                defender_vp: outcome.defender_vp,
                method: "simulated".into(),
                engine: Some(outcome.engine_version.clone()),
            },
            elements: outcome
                .elements
                .iter()
                .map(|e| ElementEnd {
                    side: e.side,
                    id: e.id.clone(),
                    end: if e.never_arrived {
                        EndState::Fit
                    } else if e.left_the_field || e.removed {
                        EndState::LeftTheField
                    } else {
                        end_of(e.discipline_level)
                    },
                })
                .collect(),
            killed: outcome
                .commanders
                .iter()
                .filter(|c| c.killed)
                .map(|c| (c.side, c.id.clone()))
                .collect(),
        },
        StoredResult::Tabletop { report, outcome } => BattleReport {
            result: BattleResult {
                winner: outcome.victory.winner.map(side_id),
                level: outcome.victory.level.id().into(),
                attacker_vp: outcome.victory.attacker_vp,
                defender_vp: outcome.victory.defender_vp,
                method: "tabletop".into(),
                engine: None,
            },
            elements: report
                .elements
                .iter()
                .map(|e| ElementEnd {
                    side: e.side,
                    id: e.id.clone(),
                    end: match e.state {
                        FinalState::Fit => EndState::Fit,
                        FinalState::Shaken => EndState::Shaken,
                        FinalState::Exhausted => EndState::Exhausted,
                        FinalState::Shattered => EndState::Shattered,
                        FinalState::LeftTheField => EndState::LeftTheField,
                    },
                })
                .collect(),
            killed: report
                .commanders
                .iter()
                .filter(|c| matches!(c.fate, CommanderFate::Killed | CommanderFate::Captured))
                .map(|c| (c.side, c.id.clone()))
                .collect(),
        },
    }
}

fn side_id(s: Side) -> String {
    match s {
        Side::Attacker => "attacker".into(),
        Side::Defender => "defender".into(),
    }
}

/// Entries for every pending battle whose record has been decided (simulated, or recorded and
/// confirmed), in battle order.
fn sync_events(
    conn: &mut DbConnection,
    cat: &lotf::Catalogue,
    current: &CampaignState,
) -> Result<Vec<Pending>, AppError> {
    let mut out = Vec::new();
    if current.phase == Phase::Ended {
        return Ok(out);
    }
    let mut work = current.clone();
    let open: Vec<CampaignBattle> = current.pending_battles().cloned().collect();
    for b in open {
        let Some(record) = battles::find(conn, b.record)? else {
            continue;
        };
        if record.status != status::CONFIRMED {
            continue;
        }
        let Some(stored) = result_of(&record) else {
            continue;
        };
        let seed = crate::app::dice::fresh_seed();
        let events = resolve_battle(&work, cat, b.no, &report_of(&stored), seed)?;
        for e in &events {
            work.apply(0, e)?;
        }
        out.extend(pending(events, Some(seed)));
    }
    Ok(out)
}

/// Brings a campaign up to date after one of its battles was decided.
pub async fn battle_decided(state: &web::Data<AppState>, campaign: i64) -> Result<(), AppError> {
    change(state, campaign, None, |_, _, _| Ok(Vec::new())).await?;
    Ok(())
}

/// The set-up of a campaign battle: both forces as they stand, with their rolled ratings.
fn battle_setup(
    st: &CampaignState,
    b: &CampaignBattle,
    seed: u64,
) -> Result<BattleSetup, AppError> {
    let force = |id: &str| {
        st.forces
            .get(id)
            .ok_or_else(|| AppError::internal(format!("battle {} names no force {id}", b.no)))
    };
    let (a, d) = (force(&b.attacker)?, force(&b.defender)?);
    let scenario = ScenarioId::from_id(&b.scenario).unwrap_or(ScenarioId::TakeTheField);
    let mut setup = BattleSetup::new(a.roster.clone(), d.roster.clone(), scenario, seed);
    setup.points = Some(st.points());
    for (side, f) in [(&mut setup.attacker, a), (&mut setup.defender, d)] {
        side.commanders = f
            .ratings
            .iter()
            .map(|(id, r)| (id.clone(), lotf::battle::CommanderState { rating_roll: *r }))
            .collect::<BTreeMap<_, _>>();
    }
    setup
        .check()
        .map_err(|e| AppError::internal(format!("campaign battle set-up: {e}")))?;
    Ok(setup)
}

/// Creates the battle record that fights a campaign battle.
pub fn create_record(
    conn: &mut DbConnection,
    row: &CampaignRow,
    st: &CampaignState,
    b: &CampaignBattle,
    rolls: &[String],
) -> Result<i64, AppError> {
    let setup = battle_setup(st, b, crate::app::dice::fresh_seed())?;
    let user = |id: &str| st.forces.get(id).map(|f| f.user);
    let now = chrono::Utc::now().naive_utc();
    let new = NewBattle {
        rule_system: row.rule_system.clone(),
        created_by: row.organiser_id,
        attacker_user_id: user(&b.attacker),
        attacker_guest: None,
        defender_user_id: user(&b.defender),
        defender_guest: None,
        attacker_roster_id: None,
        defender_roster_id: None,
        title: format!(
            "{}, turn {}: {} against {} at {}",
            row.name, b.turn, setup.attacker.roster.name, setup.defender.roster.name, b.name
        ),
        scenario: b.scenario.clone(),
        points: i32::try_from(st.points()).unwrap_or(i32::MAX),
        setup: lotf::serialize_battle(&setup),
        rolls: serde_json::to_string(rolls).unwrap_or_else(|_| "[]".into()),
        status: status::SET_UP.into(),
        replaces_id: None,
        single_party: false,
        version: 1,
        created_at: now,
        updated_at: now,
        campaign_id: Some(row.id),
    };
    Ok(battles::create(conn, &new)?.id)
}

/// Closes the open turn: the events up to the battles, a battle record for each contact, and
/// the end of the turn at once when there was no contact.
pub fn close_turn_events(
    conn: &mut DbConnection,
    cat: &lotf::Catalogue,
    row: &CampaignRow,
    st: &CampaignState,
) -> Result<Vec<Pending>, AppError> {
    let seed = crate::app::dice::fresh_seed();
    let plan = close_turn(st, cat, seed)?;
    let mut work = st.clone();
    let mut out = Vec::new();
    for e in plan.events {
        work.apply(0, &e)?;
        out.push(Pending {
            event: e,
            seed: Some(seed),
        });
    }
    let had_battles = !plan.battles.is_empty();
    for mut planned in plan.battles {
        planned.battle.record = create_record(conn, row, &work, &planned.battle, &planned.rolls)?;
        let e = Event::BattleSet {
            battle: planned.battle,
            rolls: planned.rolls,
        };
        work.apply(0, &e)?;
        out.push(Pending {
            event: e,
            seed: Some(seed),
        });
    }
    if !had_battles {
        out.extend(pending(end_turn(&work), None));
    }
    Ok(out)
}

/// Whether every force still in the field has an order in.
pub fn orders_in(st: &CampaignState) -> (usize, usize) {
    let active: Vec<&String> = st.active_forces().map(|f| &f.id).collect();
    let given = active
        .iter()
        .filter(|f| st.orders.contains_key(**f))
        .count();
    (given, active.len())
}

/// Voids the latest battle: its aftermath is set aside and it is fought again on a fresh
/// record. A pending battle whose record is disputed is simply given a fresh record.
pub fn void_events(
    conn: &mut DbConnection,
    row: &CampaignRow,
    st: &CampaignState,
    no: u32,
    reason: &str,
) -> Result<Vec<Pending>, AppError> {
    let b = st.battle(no).ok_or(AppError::NotFound)?.clone();
    let log: Vec<Entry> = store::log(conn, row.id)?
        .iter()
        .map(parse_entry)
        .collect::<Result<_, _>>()?;
    let next_seq = log.last().map_or(1, |e| e.seq + 1);
    let from_seq = match b.status {
        BattleStatus::Pending => next_seq,
        BattleStatus::Resolved => {
            let voided_from: Vec<i64> = log
                .iter()
                .filter_map(|e| match &e.event {
                    Event::BattleVoided { from_seq, .. } => Some(*from_seq),
                    _ => None,
                })
                .collect();
            let fought = log
                .iter()
                .rev()
                .find(|e| {
                    matches!(e.event, Event::BattleFought { .. }) && !voided_from.contains(&e.seq)
                })
                .ok_or_else(|| AppError::Conflict("No battle has been fought yet.".into()))?;
            if !matches!(&fought.event, Event::BattleFought { battle, .. } if *battle == no) {
                return Err(AppError::Conflict(
                    "Only the latest battle can be voided.".into(),
                ));
            }
            let automatic = |e: &Event| {
                matches!(
                    e,
                    Event::Moved { .. }
                        | Event::Retreated { .. }
                        | Event::Surrendered { .. }
                        | Event::Destroyed { .. }
                        | Event::ElementReduced { .. }
                        | Event::ElementLost { .. }
                        | Event::CommanderReplaced { .. }
                        | Event::Experience { .. }
                        | Event::PlaceTaken { .. }
                        | Event::Reinforced { .. }
                        | Event::TurnBegan { .. }
                        | Event::Ended { .. }
                        | Event::BattleFought { .. }
                )
            };
            if log
                .iter()
                .filter(|e| e.seq > fought.seq)
                .any(|e| !automatic(&e.event))
            {
                return Err(AppError::Conflict(
                    "Orders, purchases or other changes have been made since that battle, so it \
                     can no longer be voided; make a manual adjustment instead."
                        .into(),
                ));
            }
            fought.seq
        }
    };
    let old = battles::find(conn, b.record)?;
    if let Some(r) = &old {
        if b.status == BattleStatus::Pending && r.status == status::SET_UP {
            return Err(AppError::Conflict(
                "This battle has not been fought yet; there is nothing to void.".into(),
            ));
        }
        if !battles::void_if(conn, r.id, &r.status, r.version)? {
            return Err(AppError::Conflict(
                "The battle's record changed just now; look again and retry.".into(),
            ));
        }
    }
    let rolls: Vec<String> = old
        .as_ref()
        .and_then(|r| serde_json::from_str(&r.rolls).ok())
        .unwrap_or_default();
    // The battle is fought again from the forces as they stood when it was set.
    let before = CampaignState::rebuild(
        &log.iter()
            .filter(|e| e.seq < from_seq)
            .cloned()
            .collect::<Vec<_>>(),
    )?;
    let record = create_record(conn, row, &before, &b, &rolls)?;
    Ok(vec![Pending {
        event: Event::BattleVoided {
            battle: no,
            from_seq,
            record,
            reason: reason.to_string(),
        },
        seed: None,
    }])
}

/// The whole log, parsed.
pub async fn log_rows(state: &web::Data<AppState>, id: i64) -> Result<Vec<LogRow>, AppError> {
    with_conn(state, move |conn| Ok(store::log(conn, id)?)).await
}

/// Rebuilds the state from the log and says whether it matches the stored one.
pub async fn audit(state: &web::Data<AppState>, id: i64) -> Result<(bool, usize), AppError> {
    let (row, rows) = with_conn(state, move |conn| {
        Ok((
            store::find(conn, id)?.ok_or(AppError::NotFound)?,
            store::log(conn, id)?,
        ))
    })
    .await?;
    let entries: Vec<Entry> = rows.iter().map(parse_entry).collect::<Result<_, _>>()?;
    let rebuilt = CampaignState::rebuild(&entries)?;
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
