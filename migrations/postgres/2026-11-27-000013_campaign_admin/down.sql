DROP INDEX campaigns_public_token;
ALTER TABLE campaigns DROP COLUMN public_token;
ALTER TABLE campaigns DROP COLUMN archived;
