-- The roster list's default order (most recently changed first) read through an index, so a
-- page reads its own rows only, not every roster of the owner (each with its document) to sort.
CREATE INDEX rosters_owner_changed ON rosters (owner_id, updated_at, id);
