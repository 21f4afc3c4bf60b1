-- The in-app inbox: one row per notice to one user, newest first; read_at is set when read.
CREATE TABLE notifications (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- A stable id of what it is about (result_to_confirm, orders_open, ...).
    kind TEXT NOT NULL,
    title TEXT NOT NULL,
    -- A path on this site.
    link TEXT NOT NULL,
    campaign_id BIGINT REFERENCES campaigns (id) ON DELETE CASCADE,
    battle_id BIGINT REFERENCES battles (id) ON DELETE CASCADE,
    created_at TIMESTAMP NOT NULL,
    read_at TIMESTAMP
);
CREATE INDEX notifications_user ON notifications (user_id, id);
-- The navigation's badge counts these on every page.
CREATE INDEX notifications_unread ON notifications (user_id) WHERE read_at IS NULL;

-- Mail and webhook posts waiting to be sent after the transaction that made them committed.
-- A sender claims a row with a lease, so two servers never send one twice.
CREATE TABLE outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    -- mail or webhook.
    channel TEXT NOT NULL,
    -- An e-mail address or a webhook URL.
    target TEXT NOT NULL,
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    -- The one-click unsubscribe link of a notification mail.
    unsubscribe_url TEXT,
    -- pending, sending, sent or failed.
    status TEXT NOT NULL,
    attempts INTEGER NOT NULL,
    run_after TIMESTAMP NOT NULL,
    claimed_by TEXT,
    lease_until TIMESTAMP,
    last_error TEXT,
    created_at TIMESTAMP NOT NULL,
    sent_at TIMESTAMP
);
CREATE INDEX outbox_due ON outbox (status, run_after);

-- Which kinds of notice a user does not want by e-mail, and the token of their unsubscribe links.
CREATE TABLE notification_prefs (
    user_id BIGINT PRIMARY KEY NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- Comma-separated kind ids not sent by e-mail.
    mail_off TEXT NOT NULL,
    unsubscribe_token TEXT NOT NULL UNIQUE,
    updated_at TIMESTAMP NOT NULL
);

-- Password reset links: only the token's hash is kept; single use, expiring.
CREATE TABLE password_resets (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token_hash TEXT NOT NULL UNIQUE,
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL,
    used_at TIMESTAMP
);
CREATE INDEX password_resets_user ON password_resets (user_id);

-- A campaign's optional webhook (Discord-compatible), set by its organiser.
CREATE TABLE campaign_webhooks (
    campaign_id BIGINT PRIMARY KEY NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    url TEXT NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
