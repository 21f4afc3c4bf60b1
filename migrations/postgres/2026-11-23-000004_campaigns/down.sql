DROP INDEX battles_campaign;
ALTER TABLE battles DROP COLUMN campaign_id;
DROP TRIGGER campaign_log_append_only ON campaign_log;
DROP FUNCTION campaign_log_append_only();
DROP TABLE campaign_log;
DROP TABLE campaign_members;
DROP TABLE campaigns;
