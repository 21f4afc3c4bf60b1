-- Campaign administration: an archived campaign is hidden from lists (its state says so too,
-- this column lets the lists filter in the database); the public read-only page's unguessable
-- token, none while the page is off.
ALTER TABLE campaigns ADD COLUMN archived BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE campaigns ADD COLUMN public_token TEXT;
CREATE UNIQUE INDEX campaigns_public_token ON campaigns (public_token);
