//! Background jobs for long simulations, kept in the `jobs` table so every server on the
//! database shares them: any server's workers claim queued jobs, report progress about every
//! second and renew a lease; a job whose server stopped is claimed again when its lease runs
//! out and redone from its stored parameters (the seed makes the answer the same). One job
//! queued or running per user, a cap on the whole queue, finished jobs kept for a day.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex, Weak};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::app::odds::OddsParams;
use crate::app::{Context, Error};
use crate::rules::Systems;
use crate::store::jobs::{self as store, JobRow, NewJob};
use crate::store::DbPool;

/// A worker renews its lease this often, and writes progress with it.
const HEARTBEAT: Duration = Duration::from_secs(1);
/// A job whose server has not renewed it for this long is taken to be abandoned.
pub const LEASE_SECS: i64 = 30;
/// An idle worker looks for queued jobs this often (other servers' jobs included); after a
/// minute without work, every [`POLL_IDLE`] (a job queued on this server wakes it at once).
const POLL: Duration = Duration::from_secs(1);
const POLL_IDLE: Duration = Duration::from_secs(5);
const IDLE_AFTER_POLLS: u32 = 60;
/// Finished jobs are kept this long for their pages, then deleted.
const KEEP_FINISHED_HOURS: i64 = 24;
/// Seconds a caller is asked to wait when the queue is full.
pub const QUEUE_FULL_RETRY_AFTER_SECS: u64 = 30;

pub const KIND_ODDS: &str = "odds";

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct JobStatus {
    pub id: String,
    /// `queued`, `running`, `done`, `failed` or `cancelled`.
    pub status: String,
    pub done: u32,
    pub total: u32,
    pub title: String,
    /// Jobs waiting before this one, while it is queued.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub queued_ahead: Option<u32>,
    /// The odds, once done, in the rule system's own shape.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Object)]
    pub result: Option<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl JobStatus {
    fn of(row: JobRow, queued_ahead: Option<i64>) -> Self {
        Self {
            done: u32::try_from(row.done.clamp(0, row.total)).unwrap_or(0),
            total: u32::try_from(row.total).unwrap_or(0),
            result: row
                .result
                .as_deref()
                .and_then(|r| serde_json::from_str(r).ok()),
            queued_ahead: queued_ahead.and_then(|n| u32::try_from(n).ok()),
            id: row.id,
            status: row.status,
            title: row.title,
            error: row.error,
        }
    }

    /// Still to finish: queued or running.
    pub fn is_active(&self) -> bool {
        self.status == store::QUEUED || self.status == store::RUNNING
    }
}

/// This server's part in the shared queue: its name for claims, the queue cap, and a bell that
/// wakes its idle workers when a job is queued here.
pub struct Jobs {
    server_id: String,
    queue_max: usize,
    bell: (Mutex<u64>, Condvar),
}

impl Default for Jobs {
    fn default() -> Self {
        Self::new(50)
    }
}

impl Jobs {
    pub fn new(queue_max: usize) -> Self {
        Self {
            server_id: format!("server-{}", crate::app::dice::random_token(9)),
            queue_max: queue_max.max(1),
            bell: (Mutex::new(0), Condvar::new()),
        }
    }

    /// The name this server claims jobs under.
    pub fn server_id(&self) -> &str {
        &self.server_id
    }

    fn ring(&self) {
        let (count, bell) = &self.bell;
        *count.lock().unwrap_or_else(|p| p.into_inner()) += 1;
        bell.notify_all();
    }

    /// Waits up to `timeout` for a job queued on this server; true when one was.
    fn wait(&self, timeout: Duration) -> bool {
        let (count, bell) = &self.bell;
        let guard = count.lock().unwrap_or_else(|p| p.into_inner());
        let seen = *guard;
        let (guard, waited) = bell
            .wait_timeout_while(guard, timeout, |c| *c == seen)
            .unwrap_or_else(|p| p.into_inner());
        drop(guard);
        !waited.timed_out()
    }

    /// Starts `count` worker threads for this server. They stop when the `Jobs` is dropped.
    pub fn start_workers(self: &Arc<Self>, pool: DbPool, rules: Arc<Systems>, count: usize) {
        for n in 0..count {
            let (jobs, pool, rules) = (Arc::downgrade(self), pool.clone(), rules.clone());
            let started = std::thread::Builder::new()
                .name(format!("muster-job-{n}"))
                .spawn(move || {
                    // Jobs yield the cores to requests (and their simulation threads inherit it).
                    crate::app::work::lower_priority();
                    worker(jobs, pool, rules)
                });
            if let Err(e) = started {
                tracing::error!(error = %e, "could not start a job worker");
            }
        }
    }
}

// ---- The scheduler: jobs that wait for their time (turn deadlines and their reminders) ----

impl Jobs {
    /// Starts this server's scheduler thread: every `poll` it claims a due deadline job (any
    /// server's, through the same claims and leases as the odds workers, so each runs once)
    /// and runs it. It stops when the `Jobs` is dropped.
    pub fn start_scheduler(self: &Arc<Self>, pool: DbPool, rules: Arc<Systems>, poll: Duration) {
        let jobs = Arc::downgrade(self);
        let started = std::thread::Builder::new()
            .name("muster-scheduler".into())
            .spawn(move || scheduler(jobs, pool, rules, poll.max(Duration::from_millis(10))));
        if let Err(e) = started {
            tracing::error!(error = %e, "could not start the deadline scheduler");
        }
    }
}

fn scheduler(jobs: Weak<Jobs>, pool: DbPool, rules: Arc<Systems>, poll: Duration) {
    use crate::app::campaigns::deadlines::{close_turn_at_deadline, remind_of_deadline, JobEnd};
    use crate::app::deadlines::{KIND_CLOSE, KIND_REMIND};
    loop {
        let Some(here) = jobs.upgrade() else {
            return;
        };
        let server = here.server_id.clone();
        drop(here);
        let mut conn = match pool.get() {
            Ok(c) => c,
            Err(e) => {
                tracing::warn!(error = %e, "the scheduler could not reach the database");
                std::thread::sleep(poll.max(POLL_IDLE));
                continue;
            }
        };
        let claimed = store::claim_of(&mut conn, &server, lease_end(), &[KIND_CLOSE, KIND_REMIND]);
        let row = match claimed {
            Ok(Some(row)) => row,
            Ok(None) => {
                drop(conn);
                std::thread::sleep(poll);
                continue;
            }
            Err(e) => {
                tracing::warn!(error = %e, "the scheduler could not look for due jobs");
                drop(conn);
                std::thread::sleep(poll.max(POLL_IDLE));
                continue;
            }
        };
        let end = if row.kind == KIND_CLOSE {
            close_turn_at_deadline(&mut conn, &rules, &server, &row.id, &row.params)
        } else {
            remind_of_deadline(&mut conn, &server, &row.id, &row.params)
        };
        match end {
            JobEnd::Done => tracing::info!(job = %row.id, title = %row.title, "scheduled job done"),
            JobEnd::NotOurs => {
                tracing::debug!(job = %row.id, "a scheduled job was taken back; nothing done")
            }
            JobEnd::Failed(e) => {
                tracing::warn!(job = %row.id, error = %e, "a scheduled job failed");
                if let Err(e) = store::finish(&mut conn, &row.id, &server, Err(e)) {
                    tracing::warn!(error = %e, "could not store a failed job");
                }
            }
        }
    }
}

/// Queues an odds job for `owner`: refused while the owner has one queued or running (409), or
/// when the queue is full (503 with Retry-After).
pub async fn queue_odds(
    ctx: &Context,
    owner: i64,
    title: String,
    params: OddsParams,
) -> Result<JobStatus, Error> {
    let params_json = serde_json::to_string(&params).map_err(Error::internal)?;
    let queue_max = ctx.jobs.queue_max as i64;
    let total = i32::try_from(params.runs).map_err(Error::internal)?;
    let status = ctx
        .with_conn(move |conn| {
            let id = crate::app::dice::random_token(12);
            let inserted = store::insert_if_room(
                conn,
                &NewJob {
                    id: &id,
                    kind: KIND_ODDS,
                    owner_id: Some(owner),
                    title: &title,
                    params: &params_json,
                    total,
                    run_after: store::now(),
                },
                queue_max,
            );
            match inserted {
                Ok(false) => Err(Error::Unavailable(
                    "Muster has many long simulations waiting; try again in a minute.".into(),
                )),
                Err(diesel::result::Error::DatabaseError(
                    diesel::result::DatabaseErrorKind::UniqueViolation,
                    _,
                )) => Err(Error::Conflict(
                    "You already have a simulation waiting or running; wait for it to finish \
                     or cancel it."
                        .into(),
                )),
                other => other.map(|_| ()).map_err(Error::from),
            }?;
            let row = store::get(conn, &id)?.ok_or(Error::NotFound)?;
            let ahead = store::queued_ahead_of(conn, &row)?;
            Ok(JobStatus::of(row, Some(ahead)))
        })
        .await?;
    ctx.jobs.ring();
    Ok(status)
}

/// A job of the owner's still waiting or running: which one, and the rule system whose pages
/// show it.
#[derive(Debug, Clone)]
pub struct ActiveJob {
    pub id: String,
    pub system: String,
    pub title: String,
}

/// The owner's job still waiting or running, if any: a new odds run is refused until it ends,
/// so the pages point to it.
pub async fn active(ctx: &Context, owner: i64) -> Result<Option<ActiveJob>, Error> {
    ctx.with_conn(move |conn| {
        Ok(
            store::active_of_owner(conn, owner, KIND_ODDS)?.map(|row| ActiveJob {
                system: serde_json::from_str::<OddsParams>(&row.params)
                    .map(|p| p.system)
                    .unwrap_or_default(),
                id: row.id,
                title: row.title,
            }),
        )
    })
    .await
}

/// The owner's job with this id (anyone else's answers "not found").
pub async fn status(ctx: &Context, id: &str, owner: i64) -> Result<JobStatus, Error> {
    let id = id.to_string();
    ctx.with_conn(move |conn| {
        let row = store::get(conn, &id)?
            .filter(|r| r.owner_id == Some(owner))
            .ok_or(Error::NotFound)?;
        let ahead = if row.status == store::QUEUED {
            Some(store::queued_ahead_of(conn, &row)?)
        } else {
            None
        };
        Ok(JobStatus::of(row, ahead))
    })
    .await
}

/// Cancels the owner's job; the server running it stops at its next heartbeat. A job that has
/// already finished cannot be cancelled (409).
pub async fn cancel(ctx: &Context, id: &str, owner: i64) -> Result<JobStatus, Error> {
    let id = id.to_string();
    ctx.with_conn(move |conn| {
        let row = store::get(conn, &id)?
            .filter(|r| r.owner_id == Some(owner))
            .ok_or(Error::NotFound)?;
        if !store::cancel(conn, &row.id, owner)? {
            return Err(Error::Conflict(
                match row.status.as_str() {
                    store::DONE => "This simulation has already finished.",
                    store::CANCELLED => "This simulation has already been stopped.",
                    _ => "This simulation has already ended.",
                }
                .into(),
            ));
        }
        let row = store::get(conn, &id)?.ok_or(Error::NotFound)?;
        Ok(JobStatus::of(row, None))
    })
    .await
}

fn lease_end() -> chrono::NaiveDateTime {
    store::now() + chrono::Duration::seconds(LEASE_SECS)
}

fn worker(jobs: Weak<Jobs>, pool: DbPool, rules: Arc<Systems>) {
    let mut last_purge: Option<Instant> = None;
    let mut idle_polls: u32 = 0;
    loop {
        let Some(here) = jobs.upgrade() else {
            return;
        };
        if last_purge.is_none_or(|t| t.elapsed() > Duration::from_secs(600)) {
            last_purge = Some(Instant::now());
            let before = store::now() - chrono::Duration::hours(KEEP_FINISHED_HOURS);
            if let Err(e) = pool.get().map_err(|e| e.to_string()).and_then(|mut c| {
                store::delete_finished_before(&mut c, before).map_err(|e| e.to_string())
            }) {
                tracing::warn!(error = %e, "could not delete old jobs");
            }
        }
        let claimed = pool.get().map_err(|e| e.to_string()).and_then(|mut c| {
            store::claim_of(&mut c, &here.server_id, lease_end(), &[KIND_ODDS])
                .map_err(|e| e.to_string())
        });
        match claimed {
            Ok(Some(row)) => {
                idle_polls = 0;
                run_claimed(&here, &pool, &rules, row);
            }
            Ok(None) => {
                idle_polls = idle_polls.saturating_add(1);
                if here.wait(if idle_polls > IDLE_AFTER_POLLS {
                    POLL_IDLE
                } else {
                    POLL
                }) {
                    idle_polls = 0;
                }
            }
            Err(e) => {
                tracing::warn!(error = %e, "could not look for queued jobs");
                here.wait(POLL_IDLE);
            }
        }
    }
}

/// Runs one claimed job on a helper thread while this thread writes progress and renews the
/// lease every second; a heartbeat the row refuses (cancelled, or taken over) stops the work.
fn run_claimed(jobs: &Jobs, pool: &DbPool, rules: &Systems, row: JobRow) {
    let server = jobs.server_id.as_str();
    let params: Result<OddsParams, String> = if row.kind == KIND_ODDS {
        serde_json::from_str(&row.params).map_err(|e| format!("the job cannot be read: {e}"))
    } else {
        Err(format!(
            "this server cannot run jobs of kind '{}'",
            row.kind
        ))
    };
    let params = match params {
        Ok(p) => p,
        Err(e) => {
            store_end(pool, &row.id, server, Err(e));
            return;
        }
    };
    let done = AtomicU32::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel();
    let outcome = std::thread::scope(|scope| {
        let (done, stop) = (&done, &stop);
        scope.spawn(move || {
            // A panic in the rules core must not leave the job running for ever.
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                crate::app::odds::run(rules, &params, 1, done, stop)
            }))
            .unwrap_or_else(|_| Ok(Err("the simulation stopped unexpectedly".to_string())));
            let _ = tx.send(result);
        });
        loop {
            match rx.recv_timeout(HEARTBEAT) {
                Ok(result) => break Some(result),
                Err(mpsc::RecvTimeoutError::Disconnected) => break None,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    let progress = i32::try_from(done.load(Ordering::Relaxed)).unwrap_or(0);
                    let still_ours = pool.get().map_err(|e| e.to_string()).and_then(|mut c| {
                        store::heartbeat(&mut c, &row.id, server, progress, lease_end())
                            .map_err(|e| e.to_string())
                    });
                    match still_ours {
                        Ok(true) => {}
                        Ok(false) => stop.store(true, Ordering::Relaxed),
                        // The database is away for a moment: keep working; the lease is long.
                        Err(e) => tracing::warn!(error = %e, "could not record job progress"),
                    }
                }
            }
        }
    });
    match outcome {
        // Stopped on request: the row already says why.
        Some(Err(_)) | None => {}
        Some(Ok(Ok(value))) => {
            let runs = i32::try_from(done.load(Ordering::Relaxed)).unwrap_or(row.total);
            store_end(pool, &row.id, server, Ok((runs, value.to_string())));
        }
        Some(Ok(Err(e))) => store_end(pool, &row.id, server, Err(e)),
    }
}

fn store_end(pool: &DbPool, id: &str, server: &str, outcome: Result<(i32, String), String>) {
    let stored = pool
        .get()
        .map_err(|e| e.to_string())
        .and_then(|mut c| store::finish(&mut c, id, server, outcome).map_err(|e| e.to_string()));
    if let Err(e) = stored {
        // The lease runs out and another worker redoes the job.
        tracing::warn!(error = %e, "could not store a finished job");
    }
}
