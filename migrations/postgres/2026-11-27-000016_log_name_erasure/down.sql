CREATE OR REPLACE FUNCTION campaign_log_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'the campaign log is append-only';
END;
$$ LANGUAGE plpgsql;
DROP TABLE log_erasures;
