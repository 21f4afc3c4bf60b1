DROP INDEX rosters_owner_changed;
