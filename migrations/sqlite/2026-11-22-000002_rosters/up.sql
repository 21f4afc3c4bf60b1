CREATE TABLE rosters (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    owner_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    rule_system TEXT NOT NULL,
    name TEXT NOT NULL,
    war TEXT NOT NULL,
    nation TEXT NOT NULL,
    points INTEGER NOT NULL,
    points_limit INTEGER,
    legal BOOLEAN NOT NULL,
    error_count INTEGER NOT NULL,
    warning_count INTEGER NOT NULL,
    catalogue_version TEXT NOT NULL,
    document TEXT NOT NULL,
    version INTEGER NOT NULL,
    share_token TEXT UNIQUE,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
CREATE INDEX rosters_owner_id ON rosters (owner_id);
