-- One row per counted attempt (a failed login, a login in flight, a registration, a password
-- change) under a hashed bucket such as an account or a client address. Kept in the database so
-- every server on it sees the same counts; rows older than the longest window are pruned.
CREATE TABLE throttle_hits (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    bucket TEXT NOT NULL,
    at TIMESTAMP NOT NULL
);
CREATE INDEX throttle_hits_bucket_at ON throttle_hits (bucket, at);
CREATE INDEX throttle_hits_at ON throttle_hits (at);
