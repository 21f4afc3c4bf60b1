-- Display names are unique without case. `display_key` is the name as compared (the server
-- recomputes it at start-up with full Unicode rules; lower() here covers ASCII).
ALTER TABLE users ADD COLUMN display_key TEXT NOT NULL DEFAULT '';

-- A name that an earlier account already has gets the account's number appended.
UPDATE users SET display_name = trim(display_name) || ' (' || id || ')'
WHERE EXISTS (
    SELECT 1 FROM users AS earlier
    WHERE lower(trim(earlier.display_name)) = lower(trim(users.display_name))
      AND earlier.id < users.id
);

UPDATE users SET display_key = lower(trim(display_name));

CREATE UNIQUE INDEX users_display_key ON users (display_key);
