//! Turn deadlines as campaign changes: the organiser sets or clears the open turn's deadline
//! and the default turn length; at the deadline the scheduler closes the turn (forces without
//! orders hold) and, before it, reminds players whose orders are missing. What is decided is in
//! `rules::campaign::deadlines`; the scheduled jobs are `app::deadlines`.

use serde::Deserialize;

use super::change::{change_unprompted, close_turn_events, Pending};
use super::{change, require_organiser, Loaded};
use crate::app::deadlines::{deliver_reminders, now_secs, DeadlineJob, Reminder};
use crate::app::{Actor, Context, Error};
use crate::rules::campaign::deadlines::{close_is_due, organiser_change, to_remind};
use crate::rules::campaign::state::Event;
use crate::rules::Systems;
use crate::store::campaigns as campaigns_store;
use crate::store::jobs as jobs_store;
use crate::store::DbConnection;

/// What the organiser asks for: the open turn's deadline (none: no deadline) and the default
/// turn length in hours (none: new turns have no deadline). Both are the whole wish: what
/// already stands is not logged again.
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
pub struct DeadlineInput {
    /// When the open turn closes by itself, as RFC 3339 (`2026-11-27T18:00:00Z`); none or
    /// null for no deadline.
    #[serde(default)]
    #[schema(value_type = Option<String>, example = "2026-11-27T18:00:00Z")]
    pub deadline: Option<chrono::DateTime<chrono::Utc>>,
    /// Each new turn's deadline this many hours after it begins (1 to 1440); none or null for
    /// none.
    #[serde(default)]
    pub turn_length_hours: Option<u32>,
}

/// The organiser sets, changes or clears the open turn's deadline and the default turn length.
/// Each change is a log entry; the deadline's jobs are rescheduled in the same transaction.
pub async fn set(
    ctx: &Context,
    c: &Loaded,
    actor: &Actor,
    input: DeadlineInput,
) -> Result<Loaded, Error> {
    require_organiser(c)?;
    let at = input.deadline.map(|t| t.timestamp());
    let minutes = match input.turn_length_hours {
        Some(h) => Some(h.checked_mul(60).ok_or_else(|| {
            Error::from(crate::rules::campaign::CampaignError::Field(
                crate::rules::campaign::error::FieldProblem::new(
                    "turn_length",
                    "A turn length must be between one hour and 60 days.",
                ),
            ))
        })?),
        None => None,
    };
    change(ctx, c.id(), actor, move |_, _, st| {
        Ok(organiser_change(st, at, minutes, now_secs())?
            .into_iter()
            .map(Pending::new)
            .collect())
    })
    .await
}

/// Why a scheduled job ended without doing its work.
pub enum JobEnd {
    /// Done (or moot: the turn closed or the deadline moved); the job row says so.
    Done,
    /// The job is no longer this server's (taken back by a reschedule, or claimed by another
    /// server after this one's lease ran out): nothing was changed.
    NotOurs,
    Failed(String),
}

fn parse(params: &str) -> Result<DeadlineJob, JobEnd> {
    serde_json::from_str(params).map_err(|e| JobEnd::Failed(format!("the job cannot be read: {e}")))
}

/// Closes the turn a claimed deadline job is for, if it is still open with that deadline: in
/// one transaction with the job's end, so a retried job, or a second server, finds the job
/// done or the turn closed, and changes nothing. The log says the deadline closed it.
pub fn close_turn_at_deadline(
    conn: &mut DbConnection,
    rules: &Systems,
    server: &str,
    job_id: &str,
    params: &str,
) -> JobEnd {
    let job = match parse(params) {
        Ok(j) => j,
        Err(e) => return e,
    };
    let decide = |conn: &mut DbConnection,
                  row: &campaigns_store::CampaignRow,
                  st: &crate::rules::campaign::CampaignState|
     -> Result<Vec<Pending>, Error> {
        // The job ends first, so the close that follows (which takes the deadline's jobs away)
        // finds it finished; and if it is no longer ours, nothing is stored.
        if !jobs_store::finish(conn, job_id, server, Ok((1, "null".into())))? {
            return Err(Error::Conflict("the deadline job is no longer ours".into()));
        }
        if !close_is_due(st, job.turn, job.at, now_secs()) {
            return Ok(Vec::new());
        }
        let mut out = vec![Pending::new(Event::DeadlinePassed {
            turn: job.turn,
            at: job.at,
        })];
        out.extend(close_turn_events(conn, rules, row, st)?);
        Ok(out)
    };
    match change_unprompted(conn, rules, job.campaign, &decide) {
        Ok(_) => JobEnd::Done,
        Err(Error::Conflict(_)) => JobEnd::NotOurs,
        Err(Error::NotFound) => JobEnd::Failed("the campaign no longer exists".into()),
        Err(e) => JobEnd::Failed(e.to_string()),
    }
}

/// Reminds the players whose orders are missing, if the turn is still open with that
/// deadline, in one transaction with the job's end (so a reminder goes out once).
pub fn remind_of_deadline(
    conn: &mut DbConnection,
    server: &str,
    job_id: &str,
    params: &str,
) -> JobEnd {
    let job = match parse(params) {
        Ok(j) => j,
        Err(e) => return e,
    };
    let outcome = crate::store::write_transaction(conn, |conn| -> Result<bool, Error> {
        if !jobs_store::finish(conn, job_id, server, Ok((1, "null".into())))? {
            return Ok(false);
        }
        let Some(row) = campaigns_store::find(conn, job.campaign)? else {
            return Ok(true);
        };
        let st = super::parse_state(&row)?;
        let reminders: Vec<Reminder> = to_remind(&st, job.turn, job.at)
            .into_iter()
            .map(|(force, user_id)| Reminder {
                user_id,
                force,
                campaign_id: row.id,
                campaign: row.name.clone(),
                turn: job.turn,
                at: job.at,
            })
            .collect();
        deliver_reminders(conn, &reminders)?;
        Ok(true)
    });
    match outcome {
        Ok(true) => JobEnd::Done,
        Ok(false) => JobEnd::NotOurs,
        Err(e) => JobEnd::Failed(e.to_string()),
    }
}
