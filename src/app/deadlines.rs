//! Turn deadlines in the job queue. A campaign whose open turn has a deadline holds two
//! scheduled jobs in the shared `jobs` table, under ids made from the campaign's id: one that
//! closes the turn at the deadline and one that reminds players whose orders are missing. They
//! are put in place (or taken away) in the same transaction as the campaign change that set,
//! moved or ended the deadline, so the scheduler's state lives in the database and any server
//! may run it. The decisions (when, whom) are `rules::campaign::deadlines`; closing the turn is
//! `app::campaigns::deadlines`; the scheduler's loop is `app::jobs`.

use chrono::NaiveDateTime;
use serde::{Deserialize, Serialize};

use crate::app::{Context, Error};
use crate::rules::campaign::deadlines::{schedule, when, Schedule};
use crate::rules::campaign::CampaignState;
use crate::store::jobs as store;
use crate::store::DbConnection;

/// Closes a campaign's turn at its deadline.
pub const KIND_CLOSE: &str = "turn_deadline";
/// Reminds players whose orders are missing before the deadline.
pub const KIND_REMIND: &str = "deadline_reminder";

/// What a scheduled deadline job is for: turn `turn` of campaign `campaign`, whose deadline is
/// `at` (seconds since 1970, UTC). A job whose turn or deadline no longer stands does nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeadlineJob {
    pub campaign: i64,
    pub turn: u32,
    pub at: i64,
}

pub fn close_job_id(campaign: i64) -> String {
    format!("deadline-close-{campaign}")
}

pub fn remind_job_id(campaign: i64) -> String {
    format!("deadline-remind-{campaign}")
}

/// Seconds since 1970 as the database's UTC timestamp.
pub fn naive(secs: i64) -> NaiveDateTime {
    chrono::DateTime::from_timestamp(secs, 0)
        .unwrap_or_default()
        .naive_utc()
}

/// The time now, in seconds since 1970 (UTC), for the rules.
pub fn now_secs() -> i64 {
    chrono::Utc::now().timestamp()
}

/// Puts the campaign's deadline jobs in line with its state after a change (`before` is the
/// state the change started from): inside the change's transaction, only when the open turn's
/// deadline changed.
pub fn sync_schedule(
    conn: &mut DbConnection,
    campaign: i64,
    name: &str,
    before: &CampaignState,
    after: &CampaignState,
) -> Result<(), Error> {
    let wanted = schedule(after);
    if schedule(before) == wanted {
        return Ok(());
    }
    let (close, remind) = (close_job_id(campaign), remind_job_id(campaign));
    let Some(Schedule {
        turn,
        at,
        remind_at,
    }) = wanted
    else {
        store::unschedule(conn, &close)?;
        store::unschedule(conn, &remind)?;
        return Ok(());
    };
    let params =
        serde_json::to_string(&DeadlineJob { campaign, turn, at }).map_err(Error::internal)?;
    store::schedule(
        conn,
        &close,
        KIND_CLOSE,
        &format!("Close turn {turn} of {name} at {}", when(at)),
        &params,
        naive(at),
    )?;
    match remind_at {
        Some(r) => store::schedule(
            conn,
            &remind,
            KIND_REMIND,
            &format!("Remind players of {name} of turn {turn}'s deadline"),
            &params,
            naive(r),
        )?,
        None => store::unschedule(conn, &remind)?,
    }
    Ok(())
}

/// The deadlines of these campaigns' open turns as scheduled, by campaign id (the campaign
/// lists, which do not read the campaigns' state).
pub async fn scheduled(
    ctx: &Context,
    campaigns: Vec<i64>,
) -> Result<std::collections::BTreeMap<i64, NaiveDateTime>, Error> {
    ctx.with_conn(move |conn| {
        let ids: Vec<String> = campaigns.iter().map(|&c| close_job_id(c)).collect();
        let times = store::scheduled_times(conn, &ids)?;
        Ok(campaigns
            .iter()
            .filter_map(|&c| {
                let id = close_job_id(c);
                times.iter().find(|(j, _)| *j == id).map(|(_, t)| (c, *t))
            })
            .collect())
    })
    .await
}

/// A reminder for one player: their force of the campaign has no order for turn `turn`, due
/// by `at`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reminder {
    pub user_id: i64,
    pub force: String,
    pub campaign_id: i64,
    pub campaign: String,
    pub turn: u32,
    pub at: i64,
}

impl Reminder {
    pub fn title(&self) -> String {
        format!(
            "{}: your orders for turn {} are due by {}",
            self.campaign,
            self.turn,
            when(self.at)
        )
    }

    pub fn link(&self) -> String {
        format!("/campaigns/{}", self.campaign_id)
    }
}

/// Delivers reminders of a deadline to the players chosen by
/// `rules::campaign::deadlines::to_remind`, inside the transaction that ends the reminder job:
/// each gets a notice in their inbox (and a mail, if the server sends mail and they want it).
pub fn deliver_reminders(conn: &mut DbConnection, reminders: &[Reminder]) -> Result<(), Error> {
    let notices: Vec<crate::app::notifications::Notice> = reminders
        .iter()
        .map(|r| crate::app::notifications::Notice {
            user_id: r.user_id,
            kind: crate::app::notifications::Kind::DeadlineNear,
            title: r.title(),
            link: r.link(),
            campaign_id: Some(r.campaign_id),
            battle_id: None,
        })
        .collect();
    crate::app::notifications::notify(conn, &notices)
}
