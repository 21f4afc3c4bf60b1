//! Every change to a campaign: log entries appended together with the state they lead to, in
//! one transaction guarded by the campaign's version, tried again from a fresh read if someone
//! else changed the campaign in between. Battles decided elsewhere are brought in first.

use super::{parse_entry, parse_state, phase_id, system_of, Loaded};
use crate::app::battle_record::RecordStatus;
use crate::app::{Actor, Context, Error};
use crate::rules::campaign::admin::ARCHIVED;
use crate::rules::campaign::after_battle::resolve_battle;
use crate::rules::campaign::forces_api::SetupForce;
use crate::rules::campaign::state::{CampaignBattle, CampaignState, Entry, Event, Phase};
use crate::rules::campaign::turn::{close_turn, end_turn};
use crate::rules::campaign::voiding::{void_from, RecordState};
use crate::rules::campaign::ForceRules;
use crate::rules::Systems;
use crate::store::battles::{self, NewBattle};
use crate::store::campaigns::{self as store, CampaignRow, NewLogRow, StateChange};
use crate::store::DbConnection;

/// An event to append, with the seed of the dice that decided it (if any).
pub struct Pending {
    pub event: Event,
    pub seed: Option<u64>,
}

impl Pending {
    pub fn new(event: Event) -> Self {
        Self { event, seed: None }
    }
}

fn pending(events: Vec<Event>, seed: Option<u64>) -> Vec<Pending> {
    events
        .into_iter()
        .map(|event| Pending { event, seed })
        .collect()
}

/// Why a guarded change must start again, or fails.
pub enum Attempt {
    /// Someone else changed the campaign first: start again from a fresh read.
    Stale,
    Failed(Error),
}

impl From<diesel::result::Error> for Attempt {
    fn from(e: diesel::result::Error) -> Self {
        Attempt::Failed(e.into())
    }
}

impl From<Error> for Attempt {
    fn from(e: Error) -> Self {
        Attempt::Failed(e)
    }
}

impl From<crate::rules::campaign::CampaignError> for Attempt {
    fn from(e: crate::rules::campaign::CampaignError) -> Self {
        Attempt::Failed(e.into())
    }
}

/// Runs `attempt` (a whole transaction) until it is not stale, a few times at most.
pub fn retrying<T>(
    conn: &mut DbConnection,
    mut attempt: impl FnMut(&mut DbConnection) -> Result<T, Attempt>,
) -> Result<T, Error> {
    for _ in 0..6 {
        match attempt(conn) {
            Ok(done) => return Ok(done),
            Err(Attempt::Stale) => continue,
            Err(Attempt::Failed(e)) => return Err(e),
        }
    }
    Err(Error::Conflict(
        "The campaign is busy; try again in a moment.".into(),
    ))
}

/// Stores events on top of the row's state: appends them to the log and saves the new state,
/// only if nobody changed the campaign since it was read. A voided battle rebuilds the state
/// from the whole log, since the entries it sets aside must drop out.
fn store_events(
    conn: &mut DbConnection,
    system: &dyn ForceRules,
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
    // What was appended, for the notifications derived from it.
    let mut appended: Vec<(u32, Event, String)> = Vec::new();
    let mut events: std::collections::VecDeque<Pending> = events.into();
    while let Some(p) = events.pop_front() {
        seq += 1;
        let turn_before = next.turn;
        // Told against the campaign as it stands just before the entry (`rules::campaign::words`).
        let words = crate::rules::campaign::words::describe(system, &next, &p.event);
        next.apply(system, seq, &p.event)?;
        // A turn that opens gets its deadline from the default turn length, as the next entry.
        if let Some(e) = crate::rules::campaign::deadlines::default_deadline(
            &next,
            &p.event,
            crate::app::deadlines::now_secs(),
        ) {
            events.push_front(Pending::new(e));
        }
        voided |= matches!(p.event, Event::BattleVoided { .. });
        let turn = if matches!(p.event, Event::TurnBegan { .. }) {
            next.turn
        } else {
            turn_before
        };
        appended.push((turn, p.event.clone(), words.clone()));
        rows.push(NewLogRow {
            campaign_id: row.id,
            seq,
            turn: i32::try_from(turn).unwrap_or(i32::MAX),
            kind: p.event.kind().to_string(),
            force_id: p.event.force().map(str::to_string),
            actor_id: actor,
            seed: p.seed.map(|s| s.to_string()),
            event: serde_json::to_string(&p.event).map_err(Error::internal)?,
            created_at: now,
            words: Some(words),
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
                event: serde_json::from_str(&r.event).map_err(Error::internal)?,
            });
        }
        next = CampaignState::rebuild(system, &entries)?;
    }
    let change = StateChange {
        state: serde_json::to_string(&next).map_err(Error::internal)?,
        phase: phase_id(next.phase).into(),
        turn: i32::try_from(next.turn).unwrap_or(i32::MAX),
        archived: next.archived,
    };
    if store::append(conn, row.id, row.version, &change, &rows)? {
        crate::app::notifications::campaign_events(
            conn,
            &crate::app::notifications::CampaignChange {
                campaign_id: row.id,
                name: &row.name,
                organiser_id: row.organiser_id,
                actor,
                after: &next,
                entries: appended
                    .iter()
                    .map(|(t, e, w)| (*t, e, w.as_str()))
                    .collect(),
            },
        )?;
        crate::app::deadlines::sync_schedule(conn, row.id, &row.name, state, &next)?;
        Ok(next)
    } else {
        Err(Attempt::Stale)
    }
}

/// The decision of a change: reads the current state (and may create battle records) and
/// returns the events to append.
pub type Decide<'a> =
    dyn Fn(&mut DbConnection, &CampaignRow, &CampaignState) -> Result<Vec<Pending>, Error> + 'a;

/// One try of a change, inside the caller's transaction: brings in battles decided elsewhere
/// (stored first, so that every decision, a void above all, reads a log that matches the
/// state), then decides on the state they led to and stores the result.
fn change_within(
    conn: &mut DbConnection,
    rules: &Systems,
    id: i64,
    actor: Option<i64>,
    decide: &Decide,
    archived: Archived,
) -> Result<CampaignState, Attempt> {
    store::lock_for_change(conn, id)?;
    let mut row = store::find(conn, id)?.ok_or(Error::NotFound)?;
    let system = system_of(rules, &row)?;
    let mut current = parse_state(&row)?;
    // An archived campaign is read-only: every change is refused in words, before anything
    // else is decided, except the one that unarchives it (and reading brings nothing in).
    if current.archived {
        match archived {
            Archived::Refuse => return Err(Attempt::Failed(Error::Conflict(ARCHIVED.into()))),
            Archived::Allow => {
                let events = decide(conn, &row, &current)?;
                return store_events(conn, system, &row, &current, events, actor);
            }
        }
    }
    let synced = sync_events(conn, system, &current)?;
    if !synced.is_empty() {
        current = store_events(conn, system, &row, &current, synced, None)?;
        row = store::find(conn, id)?.ok_or(Error::NotFound)?;
    }
    let events = decide(conn, &row, &current)?;
    store_events(conn, system, &row, &current, events, actor)
}

/// Whether a change may be made to an archived campaign.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Archived {
    /// Refused in words (every action).
    Refuse,
    /// Decided as ever (unarchiving).
    Allow,
}

/// Runs a change to a campaign in one transaction and answers the campaign as the actor now
/// sees it. An archived campaign refuses it.
pub async fn change<F>(ctx: &Context, id: i64, actor: &Actor, decide: F) -> Result<Loaded, Error>
where
    F: Fn(&mut DbConnection, &CampaignRow, &CampaignState) -> Result<Vec<Pending>, Error>
        + Send
        + 'static,
{
    change_when(ctx, id, actor, Archived::Refuse, decide).await
}

/// [`change`], saying whether an archived campaign allows it.
pub async fn change_when<F>(
    ctx: &Context,
    id: i64,
    actor: &Actor,
    archived: Archived,
    decide: F,
) -> Result<Loaded, Error>
where
    F: Fn(&mut DbConnection, &CampaignRow, &CampaignState) -> Result<Vec<Pending>, Error>
        + Send
        + 'static,
{
    let (rules, uid) = (ctx.rules.clone(), actor.id);
    ctx.with_conn(move |conn| {
        retrying(conn, |conn| {
            crate::store::write_transaction(conn, |conn| {
                change_within(conn, &rules, id, Some(uid), &decide, archived)
            })
        })?;
        Loaded::read(conn, id, uid)
    })
    .await
}

/// Runs a change nobody asked for in a request (the turn deadline's), in one transaction of
/// its own, tried again from a fresh read when someone else changed the campaign first; the
/// log names no actor.
pub fn change_unprompted(
    conn: &mut DbConnection,
    rules: &Systems,
    id: i64,
    decide: &Decide,
) -> Result<CampaignState, Error> {
    retrying(conn, |conn| {
        crate::store::write_transaction(conn, |conn| {
            change_within(conn, rules, id, None, decide, Archived::Refuse)
        })
    })
}

/// Brings a campaign up to date with its decided battles (aftermath, end of turn), inside the
/// caller's transaction: the battles service calls it when it decides a campaign battle, so
/// the result and its aftermath are stored together.
pub fn bring_in_decided_battles(
    conn: &mut DbConnection,
    rules: &Systems,
    campaign: i64,
) -> Result<(), Attempt> {
    change_within(
        conn,
        rules,
        campaign,
        None,
        &|_, _, _| Ok(Vec::new()),
        Archived::Refuse,
    )?;
    Ok(())
}

/// Appends an entry about the campaign battle fought on `record` to the campaign's log inside
/// the caller's transaction (battles decided elsewhere are brought in first): the battles
/// service logs a player's or the organiser's word on a campaign battle together with the change
/// it leads to. `event` makes the entry from the battle's number.
pub fn log_for_battle(
    conn: &mut DbConnection,
    rules: &Systems,
    campaign: i64,
    record: i64,
    actor: i64,
    event: &(dyn Fn(u32) -> Event + Sync),
) -> Result<(), Attempt> {
    change_within(
        conn,
        rules,
        campaign,
        Some(actor),
        &|_, _, st| {
            let battle = st
                .battles
                .iter()
                .find(|b| b.record == record)
                .map(|b| b.no)
                .ok_or_else(|| {
                    Error::Conflict(
                        "This battle is no longer one of the campaign's battles.".into(),
                    )
                })?;
            Ok(vec![Pending::new(event(battle))])
        },
        Archived::Refuse,
    )?;
    Ok(())
}

/// Entries for every pending battle whose record has been decided (simulated, or recorded and
/// confirmed), in battle order.
fn sync_events(
    conn: &mut DbConnection,
    system: &dyn ForceRules,
    current: &CampaignState,
) -> Result<Vec<Pending>, Error> {
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
        if record.status != RecordStatus::Confirmed.id() {
            continue;
        }
        let Some(stored) = record.result.as_deref() else {
            continue;
        };
        let report = system
            .battle_report(stored)
            .map_err(|e| Error::internal(format!("battle record {}: {e}", record.id)))?;
        let seed = crate::app::dice::fresh_seed();
        let events = resolve_battle(&work, system, b.no, &report, seed)?;
        for e in &events {
            work.apply(system, 0, e)?;
        }
        out.extend(pending(events, Some(seed)));
    }
    Ok(out)
}

/// Closes the open turn: the events up to the battles, a battle record for each contact, and
/// the end of the turn at once when there was no contact.
pub fn close_turn_events(
    conn: &mut DbConnection,
    rules: &Systems,
    row: &CampaignRow,
    st: &CampaignState,
) -> Result<Vec<Pending>, Error> {
    let system = system_of(rules, row)?;
    let seed = crate::app::dice::fresh_seed();
    let plan = close_turn(st, system, seed)?;
    let mut work = st.clone();
    let mut out = Vec::new();
    for e in plan.events {
        work.apply(system, 0, &e)?;
        out.push(Pending {
            event: e,
            seed: Some(seed),
        });
    }
    let had_battles = !plan.battles.is_empty();
    for mut planned in plan.battles {
        planned.battle.record =
            create_record(conn, system, row, &work, &planned.battle, &planned.rolls)?;
        let e = Event::BattleSet {
            battle: planned.battle,
            rolls: planned.rolls,
        };
        work.apply(system, 0, &e)?;
        out.push(Pending {
            event: e,
            seed: Some(seed),
        });
    }
    if !had_battles {
        out.extend(pending(end_turn(&work, system), None));
    }
    Ok(out)
}

/// Voids a battle the rules let the organiser void (M-94, `rules::campaign::voiding`): the
/// latest decided battle has its aftermath set aside and is fought again on a fresh record; a
/// pending battle whose recorded result waits or is disputed simply gets a fresh record.
pub fn void_events(
    conn: &mut DbConnection,
    rules: &Systems,
    row: &CampaignRow,
    st: &CampaignState,
    no: u32,
    reason: &str,
) -> Result<Vec<Pending>, Error> {
    let b = st.battle(no).ok_or(Error::NotFound)?.clone();
    let log: Vec<Entry> = store::log(conn, row.id)?
        .iter()
        .map(parse_entry)
        .collect::<Result<_, _>>()?;
    let old = battles::find(conn, b.record)?;
    let record = old.as_ref().map_or(RecordState::NotFought, |r| {
        RecordState::from_status(&r.status)
    });
    let from_seq = void_from(&log, st, no, record)?;
    if let Some(r) = &old {
        if !battles::void_if(conn, r.id, &r.status, r.version)? {
            return Err(Error::Conflict(
                "The battle's record changed just now; look again and retry.".into(),
            ));
        }
    }
    let rolls: Vec<String> = old
        .as_ref()
        .and_then(|r| serde_json::from_str(&r.rolls).ok())
        .unwrap_or_default();
    // The battle is fought again from the forces as they stood when it was set.
    let system = system_of(rules, row)?;
    let before = CampaignState::rebuild(
        system,
        &log.iter()
            .filter(|e| e.seq < from_seq)
            .cloned()
            .collect::<Vec<_>>(),
    )?;
    let record = create_record(conn, system, row, &before, &b, &rolls)?;
    Ok(vec![Pending::new(Event::BattleVoided {
        battle: no,
        from_seq,
        record,
        reason: reason.to_string(),
    })])
}

/// Creates the battle record that fights a campaign battle: both forces as they stand, with
/// their rolled ratings, set up by the campaign's rule system.
pub fn create_record(
    conn: &mut DbConnection,
    system: &dyn ForceRules,
    row: &CampaignRow,
    st: &CampaignState,
    b: &CampaignBattle,
    rolls: &[String],
) -> Result<i64, Error> {
    let force = |id: &str| {
        st.forces
            .get(id)
            .ok_or_else(|| Error::internal(format!("battle {} names no force {id}", b.no)))
    };
    let (attacker, defender) = (force(&b.attacker)?, force(&b.defender)?);
    fn side(f: &crate::rules::campaign::state::Force) -> SetupForce<'_> {
        SetupForce {
            roster: &f.roster,
            ratings: &f.ratings,
        }
    }
    let doc = system
        .battle_setup(
            side(attacker),
            side(defender),
            &b.scenario,
            st.points(),
            crate::app::dice::fresh_seed(),
        )
        .map_err(|e| Error::internal(format!("campaign battle set-up: {e}")))?;
    let now = chrono::Utc::now().naive_utc();
    let new = NewBattle {
        rule_system: row.rule_system.clone(),
        created_by: row.organiser_id,
        attacker_user_id: Some(attacker.user),
        attacker_guest: None,
        defender_user_id: Some(defender.user),
        defender_guest: None,
        attacker_roster_id: None,
        defender_roster_id: None,
        title: format!(
            "{}, turn {}: {} against {} at {}",
            row.name,
            b.turn,
            attacker.roster.name(),
            defender.roster.name(),
            b.name
        ),
        scenario: b.scenario.clone(),
        points: i32::try_from(st.points()).unwrap_or(i32::MAX),
        setup: doc.setup,
        rolls: serde_json::to_string(rolls).unwrap_or_else(|_| "[]".into()),
        status: RecordStatus::SetUp.id().into(),
        replaces_id: None,
        single_party: false,
        version: 1,
        created_at: now,
        updated_at: now,
        campaign_id: Some(row.id),
        // Campaign battles are between enlisted players: no invitation.
        invitation: None,
    };
    Ok(battles::create(conn, &new)?.id)
}
