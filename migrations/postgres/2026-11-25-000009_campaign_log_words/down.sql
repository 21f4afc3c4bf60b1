DROP INDEX campaign_log_kind;
DROP INDEX campaign_log_turn;
ALTER TABLE campaign_log DROP COLUMN words;
