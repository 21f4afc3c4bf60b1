-- Background jobs (long battle-odds runs now; the campaign deadline scheduler later), claimed
-- by any server on this database. A job whose lease ran out (its server died) is claimed again.
CREATE TABLE jobs (
    id TEXT PRIMARY KEY NOT NULL,
    kind TEXT NOT NULL,
    owner_id BIGINT REFERENCES users (id) ON DELETE CASCADE,
    title TEXT NOT NULL,
    -- Everything needed to redo the work (JSON).
    params TEXT NOT NULL,
    -- queued, running, done, failed or cancelled.
    status TEXT NOT NULL,
    done INTEGER NOT NULL,
    total INTEGER NOT NULL,
    result TEXT,
    error TEXT,
    claimed_by TEXT,
    lease_until TIMESTAMP,
    attempts INTEGER NOT NULL,
    -- Not claimed before this time (delayed jobs).
    run_after TIMESTAMP NOT NULL,
    created_at TIMESTAMP NOT NULL,
    started_at TIMESTAMP,
    finished_at TIMESTAMP
);
CREATE INDEX jobs_claimable ON jobs (status, run_after);
CREATE INDEX jobs_finished ON jobs (finished_at);
-- One odds job queued or running per user at a time.
CREATE UNIQUE INDEX jobs_one_active_odds ON jobs (owner_id)
    WHERE kind = 'odds' AND status IN ('queued', 'running');
