//! Background jobs in the database, so any server on it can run them and a restart loses none.
//! A worker claims a job with a lease it renews while it works; a job whose lease has run out
//! (its server stopped) is claimable again and is redone from the start (its parameters carry
//! the seed, so the answer is the same).

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::schema::jobs;
use super::DbConnection;

pub const QUEUED: &str = "queued";
pub const RUNNING: &str = "running";
pub const DONE: &str = "done";
pub const FAILED: &str = "failed";
pub const CANCELLED: &str = "cancelled";

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = jobs)]
pub struct JobRow {
    pub id: String,
    pub kind: String,
    pub owner_id: Option<i64>,
    pub title: String,
    pub params: String,
    pub status: String,
    pub done: i32,
    pub total: i32,
    pub result: Option<String>,
    pub error: Option<String>,
    pub claimed_by: Option<String>,
    pub lease_until: Option<NaiveDateTime>,
    pub attempts: i32,
    pub run_after: NaiveDateTime,
    pub created_at: NaiveDateTime,
    pub started_at: Option<NaiveDateTime>,
    pub finished_at: Option<NaiveDateTime>,
}

pub struct NewJob<'a> {
    pub id: &'a str,
    pub kind: &'a str,
    pub owner_id: Option<i64>,
    pub title: &'a str,
    pub params: &'a str,
    pub total: i32,
    pub run_after: NaiveDateTime,
}

pub fn now() -> NaiveDateTime {
    chrono::Utc::now().naive_utc()
}

/// Jobs of this kind waiting for a worker, across all servers (scheduled jobs of other kinds,
/// such as a turn's deadline, wait for their time and count towards no queue).
pub fn count_queued(conn: &mut DbConnection, kind: &str) -> QueryResult<i64> {
    jobs::table
        .filter(jobs::status.eq(QUEUED))
        .filter(jobs::kind.eq(kind))
        .count()
        .get_result(conn)
}

/// Adds a queued job unless `cap` jobs are already queued; false when the queue is full. The
/// count and the insert are one writing transaction, and on PostgreSQL queue inserts take one
/// advisory lock in turn, so two servers cannot both pass the count. The owner's unique-index
/// refusal (see `insert`) comes back as the error.
pub fn insert_if_room(conn: &mut DbConnection, job: &NewJob, cap: i64) -> QueryResult<bool> {
    crate::store::db::write_transaction(conn, |conn| {
        crate::store::throttles::lock_bucket(conn, "jobs queue")?;
        if count_queued(conn, job.kind)? >= cap {
            return Ok(false);
        }
        insert(conn, job)?;
        Ok(true)
    })
}

/// Adds a queued job. A second odds job of the same owner while one is queued or running
/// breaks the unique index `jobs_one_active_odds` (a unique violation for the caller).
pub fn insert(conn: &mut DbConnection, job: &NewJob) -> QueryResult<()> {
    diesel::insert_into(jobs::table)
        .values((
            jobs::id.eq(job.id),
            jobs::kind.eq(job.kind),
            jobs::owner_id.eq(job.owner_id),
            jobs::title.eq(job.title),
            jobs::params.eq(job.params),
            jobs::status.eq(QUEUED),
            jobs::done.eq(0),
            jobs::total.eq(job.total),
            jobs::attempts.eq(0),
            jobs::run_after.eq(job.run_after),
            jobs::created_at.eq(now()),
        ))
        .execute(conn)?;
    Ok(())
}

pub fn get(conn: &mut DbConnection, id: &str) -> QueryResult<Option<JobRow>> {
    jobs::table
        .find(id)
        .select(JobRow::as_select())
        .first(conn)
        .optional()
}

/// The owner's job of this kind still waiting or running, if any (an owner has at most one).
pub fn active_of_owner(
    conn: &mut DbConnection,
    owner: i64,
    kind: &str,
) -> QueryResult<Option<JobRow>> {
    jobs::table
        .filter(jobs::owner_id.eq(owner))
        .filter(jobs::kind.eq(kind))
        .filter(jobs::status.eq_any([QUEUED, RUNNING]))
        .select(JobRow::as_select())
        .first(conn)
        .optional()
}

/// Queued jobs of its kind created before this one: its place in the queue.
pub fn queued_ahead_of(conn: &mut DbConnection, job: &JobRow) -> QueryResult<i64> {
    jobs::table
        .filter(jobs::status.eq(QUEUED))
        .filter(jobs::kind.eq(&job.kind))
        .filter(jobs::created_at.lt(job.created_at))
        .count()
        .get_result(conn)
}

/// Claims the next job of one of `kinds` for `server` with a lease until `lease_until`: the
/// oldest queued job that is due, or a running job whose lease has run out. PostgreSQL skips rows another server
/// is claiming at the same moment (`FOR UPDATE SKIP LOCKED`); SQLite has one writer, and the
/// conditional update below refuses a job someone else took in between on both.
pub fn claim_of(
    conn: &mut DbConnection,
    server: &str,
    lease_until: NaiveDateTime,
    kinds: &[&str],
) -> QueryResult<Option<JobRow>> {
    let at = now();
    let claimable = || {
        jobs::kind.eq_any(kinds.to_vec()).and(
            jobs::status
                .eq(QUEUED)
                .and(jobs::run_after.le(at))
                .or(jobs::status
                    .eq(RUNNING)
                    .and(jobs::lease_until.lt(at).assume_not_null())),
        )
    };
    // A read then a write: on SQLite it must be a writer from the start (`write_transaction`).
    crate::store::db::write_transaction(conn, |conn| {
        let candidate: Option<String> = match conn {
            DbConnection::Postgresql(pg) => jobs::table
                .filter(claimable())
                .order((jobs::run_after, jobs::created_at))
                .select(jobs::id)
                .for_update()
                .skip_locked()
                .first(pg)
                .optional()?,
            DbConnection::Sqlite(lite) => jobs::table
                .filter(claimable())
                .order((jobs::run_after, jobs::created_at))
                .select(jobs::id)
                .first(lite)
                .optional()?,
        };
        let Some(id) = candidate else {
            return Ok(None);
        };
        let taken = diesel::update(jobs::table.find(&id).filter(claimable()))
            .set((
                jobs::status.eq(RUNNING),
                jobs::claimed_by.eq(server),
                jobs::lease_until.eq(lease_until),
                jobs::done.eq(0),
                jobs::attempts.eq(jobs::attempts + 1),
                jobs::started_at.eq(at),
            ))
            .execute(conn)?;
        if taken == 0 {
            return Ok(None);
        }
        get(conn, &id)
    })
}

/// Claims the next job of any kind (see [`claim_of`]).
pub fn claim(
    conn: &mut DbConnection,
    server: &str,
    lease_until: NaiveDateTime,
) -> QueryResult<Option<JobRow>> {
    let kinds: Vec<String> = jobs::table.select(jobs::kind).distinct().load(conn)?;
    let kinds: Vec<&str> = kinds.iter().map(String::as_str).collect();
    claim_of(conn, server, lease_until, &kinds)
}

/// Records progress and renews the lease. False when the job is no longer this server's to
/// run (cancelled by its owner, or claimed by another server after the lease ran out).
pub fn heartbeat(
    conn: &mut DbConnection,
    id: &str,
    server: &str,
    done: i32,
    lease_until: NaiveDateTime,
) -> QueryResult<bool> {
    let n = diesel::update(
        jobs::table
            .find(id)
            .filter(jobs::status.eq(RUNNING))
            .filter(jobs::claimed_by.eq(server)),
    )
    .set((jobs::done.eq(done), jobs::lease_until.eq(lease_until)))
    .execute(conn)?;
    Ok(n == 1)
}

/// Stores the end of a job this server runs: `done` with its result, or `failed` with why.
pub fn finish(
    conn: &mut DbConnection,
    id: &str,
    server: &str,
    outcome: Result<(i32, String), String>,
) -> QueryResult<bool> {
    let target = jobs::table
        .find(id)
        .filter(jobs::status.eq(RUNNING))
        .filter(jobs::claimed_by.eq(server));
    let n = match outcome {
        Ok((done, result)) => diesel::update(target)
            .set((
                jobs::status.eq(DONE),
                jobs::done.eq(done),
                jobs::result.eq(Some(result)),
                jobs::lease_until.eq(None::<NaiveDateTime>),
                jobs::finished_at.eq(now()),
            ))
            .execute(conn)?,
        Err(error) => diesel::update(target)
            .set((
                jobs::status.eq(FAILED),
                jobs::error.eq(Some(error)),
                jobs::lease_until.eq(None::<NaiveDateTime>),
                jobs::finished_at.eq(now()),
            ))
            .execute(conn)?,
    };
    Ok(n == 1)
}

/// Cancels the owner's job if it has not finished; the worker running it notices at its next
/// heartbeat. Answers whether it was cancelled now.
pub fn cancel(conn: &mut DbConnection, id: &str, owner: i64) -> QueryResult<bool> {
    let n = diesel::update(
        jobs::table
            .find(id)
            .filter(jobs::owner_id.eq(owner))
            .filter(jobs::status.eq_any([QUEUED, RUNNING])),
    )
    .set((
        jobs::status.eq(CANCELLED),
        jobs::lease_until.eq(None::<NaiveDateTime>),
        jobs::finished_at.eq(now()),
    ))
    .execute(conn)?;
    Ok(n == 1)
}

/// Forgets jobs that finished before `before`.
pub fn delete_finished_before(
    conn: &mut DbConnection,
    before: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::delete(jobs::table.filter(jobs::finished_at.lt(before))).execute(conn)
}

// ---- Scheduled jobs (turn deadlines): one row per purpose, under an id the caller derives ----

/// Puts a scheduled job in place under `id`: queued to run at `run_after` with these
/// parameters. An existing row (queued, running elsewhere, or finished) is taken back and
/// queued again with the new time, so a server running it finds it no longer its own and its
/// work (guarded in the same transaction as its end) is rolled back.
pub fn schedule(
    conn: &mut DbConnection,
    id: &str,
    kind: &str,
    title: &str,
    params: &str,
    run_after: NaiveDateTime,
) -> QueryResult<()> {
    let updated = diesel::update(jobs::table.find(id))
        .set((
            jobs::kind.eq(kind),
            jobs::title.eq(title),
            jobs::params.eq(params),
            jobs::status.eq(QUEUED),
            jobs::done.eq(0),
            jobs::result.eq(None::<String>),
            jobs::error.eq(None::<String>),
            jobs::claimed_by.eq(None::<String>),
            jobs::lease_until.eq(None::<NaiveDateTime>),
            jobs::run_after.eq(run_after),
            jobs::started_at.eq(None::<NaiveDateTime>),
            jobs::finished_at.eq(None::<NaiveDateTime>),
        ))
        .execute(conn)?;
    if updated == 0 {
        insert(
            conn,
            &NewJob {
                id,
                kind,
                owner_id: None,
                title,
                params,
                total: 1,
                run_after,
            },
        )?;
    }
    Ok(())
}

/// Removes a scheduled job that has not finished (queued, or running elsewhere: that server's
/// end then finds nothing and its work is rolled back).
pub fn unschedule(conn: &mut DbConnection, id: &str) -> QueryResult<()> {
    diesel::delete(
        jobs::table
            .find(id)
            .filter(jobs::status.eq_any([QUEUED, RUNNING])),
    )
    .execute(conn)?;
    Ok(())
}

/// The run times of the scheduled jobs among `ids` still to run, by id.
pub fn scheduled_times(
    conn: &mut DbConnection,
    ids: &[String],
) -> QueryResult<Vec<(String, NaiveDateTime)>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    jobs::table
        .filter(jobs::id.eq_any(ids))
        .filter(jobs::status.eq_any([QUEUED, RUNNING]))
        .select((jobs::id, jobs::run_after))
        .load(conn)
}
