-- Campaigns: the materialised state (rebuilt from the log on demand) and the append-only log.
CREATE TABLE campaigns (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    rule_system TEXT NOT NULL,
    name TEXT NOT NULL,
    organiser_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    invite_code TEXT NOT NULL UNIQUE,
    state TEXT NOT NULL,
    phase TEXT NOT NULL,
    turn INTEGER NOT NULL,
    version INTEGER NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
CREATE INDEX campaigns_organiser ON campaigns (organiser_id);

-- Who takes part, for "my campaigns" lists; the force itself lives in the state.
CREATE TABLE campaign_members (
    campaign_id BIGINT NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    force_id TEXT,
    PRIMARY KEY (campaign_id, user_id)
);
CREATE INDEX campaign_members_user ON campaign_members (user_id);

CREATE TABLE campaign_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    campaign_id BIGINT NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    seq BIGINT NOT NULL,
    turn INTEGER NOT NULL,
    kind TEXT NOT NULL,
    force_id TEXT,
    actor_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
    seed TEXT,
    event TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    UNIQUE (campaign_id, seq)
);

-- Nothing in the log is ever changed.
CREATE TRIGGER campaign_log_append_only BEFORE UPDATE ON campaign_log
BEGIN
    SELECT RAISE(ABORT, 'the campaign log is append-only');
END;

ALTER TABLE battles ADD COLUMN campaign_id BIGINT REFERENCES campaigns (id) ON DELETE CASCADE;
CREATE INDEX battles_campaign ON battles (campaign_id);
