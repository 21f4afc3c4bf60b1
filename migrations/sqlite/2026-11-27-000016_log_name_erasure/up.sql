-- Deleting an account takes the player's name out of the campaign logs (issue 19). The log stays
-- append-only for everything else: an entry's position, kind, force, actor, seed and time never
-- change, and its event and words change only inside the transaction that erases an account,
-- which marks itself in `log_erasures` and removes the mark before it commits.
CREATE TABLE log_erasures (
    user_id BIGINT PRIMARY KEY NOT NULL
);

DROP TRIGGER campaign_log_append_only;
CREATE TRIGGER campaign_log_append_only BEFORE UPDATE ON campaign_log
WHEN NEW.id IS NOT OLD.id OR NEW.campaign_id IS NOT OLD.campaign_id OR NEW.seq IS NOT OLD.seq
  OR NEW.turn IS NOT OLD.turn OR NEW.kind IS NOT OLD.kind OR NEW.force_id IS NOT OLD.force_id
  OR NEW.actor_id IS NOT OLD.actor_id OR NEW.seed IS NOT OLD.seed
  OR NEW.created_at IS NOT OLD.created_at
  OR NOT EXISTS (SELECT 1 FROM log_erasures)
BEGIN
    SELECT RAISE(ABORT, 'the campaign log is append-only');
END;
