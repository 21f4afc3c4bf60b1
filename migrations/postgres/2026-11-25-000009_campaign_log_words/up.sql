-- Each log entry's words, made when it is written (told against the campaign as it stood just
-- before it), so pages show the latest entries without replaying the whole log. Entries written
-- before this column existed have none and are told by replaying the log, as before.
ALTER TABLE campaign_log ADD COLUMN words TEXT;
CREATE INDEX campaign_log_turn ON campaign_log (campaign_id, turn, seq);
-- Pages read a campaign's voiding entries (what is set aside) without scanning its log.
CREATE INDEX campaign_log_kind ON campaign_log (campaign_id, kind);
