//! Background jobs for long simulations: one at a time per user, progress readable while they
//! run, kept in memory for an hour after they finish. A restart forgets them (the request can
//! simply be made again: the same seed gives the same odds).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::app::Error;

const KEEP_FINISHED: Duration = Duration::from_secs(3600);
/// Background jobs running at once across all users; more get "busy, try again".
pub const MAX_RUNNING_JOBS: usize = 2;
/// Odds answered within the request, running at once across all users.
pub const MAX_DIRECT_RUNS: usize = 2;

/// A place among the simulations answered directly; dropped when the work is done.
pub struct DirectSlot<'a>(&'a std::sync::atomic::AtomicUsize);

impl Drop for DirectSlot<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

pub struct Job {
    pub id: String,
    pub owner: i64,
    pub total: u32,
    pub done: AtomicU32,
    /// What was asked, for the progress page ("1st force vs 2nd force, take the field").
    pub title: String,
    /// The result as the system's JSON (a rule system's odds), or why it failed.
    outcome: Mutex<Option<Result<serde_json::Value, String>>>,
    finished_at: Mutex<Option<Instant>>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct JobStatus {
    pub id: String,
    /// `running`, `done` or `failed`.
    pub status: &'static str,
    pub done: u32,
    pub total: u32,
    pub title: String,
    /// The odds, once done, in the rule system's own shape.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Object)]
    pub result: Option<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl Job {
    pub fn status(&self) -> JobStatus {
        let outcome = self
            .outcome
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        let (status, result, error) = match outcome {
            None => ("running", None, None),
            Some(Ok(summary)) => ("done", Some(summary), None),
            Some(Err(e)) => ("failed", None, Some(e)),
        };
        JobStatus {
            id: self.id.clone(),
            status,
            done: self.done.load(Ordering::Relaxed).min(self.total),
            total: self.total,
            title: self.title.clone(),
            result,
            error,
        }
    }

    fn running(&self) -> bool {
        self.outcome
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .is_none()
    }
}

#[derive(Default)]
pub struct Jobs {
    jobs: Mutex<HashMap<String, Arc<Job>>>,
    direct: std::sync::atomic::AtomicUsize,
}

impl Jobs {
    /// Claims a place for odds answered directly, or says the server is busy.
    pub fn direct_slot(&self) -> Result<DirectSlot<'_>, Error> {
        let before = self.direct.fetch_add(1, Ordering::SeqCst);
        let slot = DirectSlot(&self.direct);
        if before >= MAX_DIRECT_RUNS {
            return Err(Error::Unavailable(
                "Muster is busy with other simulations; try again in a few seconds.".into(),
            ));
        }
        Ok(slot)
    }

    /// Starts `work` on its own thread unless the owner already has a job running.
    pub fn start<F>(
        &self,
        owner: i64,
        total: u32,
        title: String,
        work: F,
    ) -> Result<Arc<Job>, Error>
    where
        F: FnOnce(&AtomicU32) -> Result<serde_json::Value, String> + Send + 'static,
    {
        let mut jobs = self.jobs.lock().unwrap_or_else(|p| p.into_inner());
        jobs.retain(|_, j| {
            j.finished_at
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .is_none_or(|t| t.elapsed() < KEEP_FINISHED)
        });
        if jobs.values().filter(|j| j.running()).count() >= MAX_RUNNING_JOBS {
            return Err(Error::Unavailable(
                "Muster is busy with other long simulations; try again in a minute.".into(),
            ));
        }
        if let Some(running) = jobs.values().find(|j| j.owner == owner && j.running()) {
            return Err(Error::Conflict(format!(
                "You already have a simulation running ({} of {} battles); wait for it to finish.",
                running.done.load(Ordering::Relaxed),
                running.total
            )));
        }
        let job = Arc::new(Job {
            id: crate::app::dice::random_token(12),
            owner,
            total,
            done: AtomicU32::new(0),
            title,
            outcome: Mutex::new(None),
            finished_at: Mutex::new(None),
        });
        jobs.insert(job.id.clone(), job.clone());
        let worker = job.clone();
        std::thread::Builder::new()
            .name("muster-odds".into())
            .spawn(move || {
                // A panic in the rules core must not leave the job "running" for ever.
                let result =
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(&worker.done)))
                        .unwrap_or_else(|_| Err("the simulation stopped unexpectedly".to_string()));
                *worker.outcome.lock().unwrap_or_else(|p| p.into_inner()) = Some(result);
                *worker.finished_at.lock().unwrap_or_else(|p| p.into_inner()) =
                    Some(Instant::now());
            })
            .map_err(|e| Error::internal(format!("starting a job: {e}")))?;
        Ok(job)
    }

    /// The owner's job with this id.
    pub fn get(&self, id: &str, owner: i64) -> Option<Arc<Job>> {
        let jobs = self.jobs.lock().unwrap_or_else(|p| p.into_inner());
        jobs.get(id).filter(|j| j.owner == owner).cloned()
    }
}
