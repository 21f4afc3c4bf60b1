-- Deleting an account takes the player's name out of the campaign logs (issue 19). The log stays
-- append-only for everything else: an entry's position, kind, force, actor, seed and time never
-- change, and its event and words change only inside the transaction that erases an account,
-- which marks itself in `log_erasures` and removes the mark before it commits.
CREATE TABLE log_erasures (
    user_id BIGINT PRIMARY KEY NOT NULL
);

CREATE OR REPLACE FUNCTION campaign_log_append_only() RETURNS trigger AS $$
BEGIN
    IF NEW.id IS DISTINCT FROM OLD.id OR NEW.campaign_id IS DISTINCT FROM OLD.campaign_id
       OR NEW.seq IS DISTINCT FROM OLD.seq OR NEW.turn IS DISTINCT FROM OLD.turn
       OR NEW.kind IS DISTINCT FROM OLD.kind OR NEW.force_id IS DISTINCT FROM OLD.force_id
       OR NEW.actor_id IS DISTINCT FROM OLD.actor_id OR NEW.seed IS DISTINCT FROM OLD.seed
       OR NEW.created_at IS DISTINCT FROM OLD.created_at
       OR NOT EXISTS (SELECT 1 FROM log_erasures) THEN
        RAISE EXCEPTION 'the campaign log is append-only';
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
