//! The application layer: what Muster does, between the pages, the API or the command line and
//! the rules core. Services here authorise the actor, ask `rules` to decide, and store the
//! result, one action in one transaction. Nothing here knows about requests, responses or
//! templates (`tests/integration/layers.rs` keeps it so).

pub mod accounts;
pub mod battle_record;
pub mod battle_table;
pub mod battles;
pub mod campaigns;
pub mod deadlines;
pub mod dice;
pub mod error;
pub mod input;
pub mod jobs;
pub mod mail;
pub mod notifications;
pub mod notifications_campaign;
pub mod odds;
pub mod own_data;
pub mod password_reset;
pub mod rosters;
pub mod sim;
pub mod throttles;
pub mod work;

use std::sync::Arc;

pub use error::{Error, ErrorDetail};

use crate::rules::Systems;
use crate::store::{Backend, DbConnection, DbPool};

/// What every service can reach: the database, the rule systems, the background jobs.
#[derive(Clone)]
pub struct Context {
    pub pool: DbPool,
    /// The rule systems' catalogues; tests may start a server with modified ones.
    pub rules: Arc<Systems>,
    pub backend: Backend,
    /// Long simulations running in the background.
    pub jobs: Arc<jobs::Jobs>,
    /// The limits of CPU-heavy work answered within requests.
    pub work: Arc<work::WorkLimiter>,
}

impl Context {
    pub fn new(pool: DbPool, rules: Systems, backend: Backend) -> Self {
        Self {
            pool,
            rules: Arc::new(rules),
            backend,
            jobs: Arc::default(),
            work: Arc::new(work::WorkLimiter::new(work::WorkLimits::default())),
        }
    }

    /// The same context with this server's part in the job queue: `workers` threads that run
    /// queued jobs (0: leave them to other servers), and the cap on jobs waiting.
    pub fn with_jobs(mut self, queue_max: usize, workers: usize) -> Self {
        let jobs = Arc::new(jobs::Jobs::new(queue_max));
        jobs.start_workers(self.pool.clone(), self.rules.clone(), workers);
        self.jobs = jobs;
        self
    }

    /// The same context with this server's deadline scheduler running, looking for due turn
    /// deadlines every `poll` (call after [`Context::with_jobs`]).
    pub fn with_scheduler(self, poll: std::time::Duration) -> Self {
        self.jobs
            .start_scheduler(self.pool.clone(), self.rules.clone(), poll);
        self
    }

    /// The same context with other limits of direct work.
    pub fn with_work_limits(mut self, limits: work::WorkLimits) -> Self {
        self.work = Arc::new(work::WorkLimiter::new(limits));
        self
    }

    /// Whether the database answers a query (the health check).
    pub async fn ping(&self) -> Result<(), Error> {
        self.with_conn(|conn| {
            crate::store::db::ping(conn).map_err(|e| Error::Unavailable(format!("database: {e}")))
        })
        .await
        .map_err(|e| match e {
            Error::Internal(m) => Error::Unavailable(m),
            other => other,
        })
    }

    /// Runs blocking database work on the runtime's blocking threads with a pooled connection.
    pub async fn with_conn<T, F>(&self, f: F) -> Result<T, Error>
    where
        F: FnOnce(&mut DbConnection) -> Result<T, Error> + Send + 'static,
        T: Send + 'static,
    {
        let pool = self.pool.clone();
        blocking(move || {
            let mut conn = pool.get()?;
            f(&mut conn)
        })
        .await?
    }
}

/// Runs CPU-bound or blocking work off the async threads.
pub async fn blocking<T, F>(f: F) -> Result<T, Error>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| Error::internal(format!("blocking task: {e}")))
}

/// Who is acting: a signed-in user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Actor {
    pub id: i64,
    /// The display name, as other players see it.
    pub name: String,
    pub admin: bool,
}
