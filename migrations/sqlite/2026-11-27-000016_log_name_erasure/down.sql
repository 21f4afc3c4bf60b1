DROP TRIGGER campaign_log_append_only;
CREATE TRIGGER campaign_log_append_only BEFORE UPDATE ON campaign_log
BEGIN
    SELECT RAISE(ABORT, 'the campaign log is append-only');
END;
DROP TABLE log_erasures;
