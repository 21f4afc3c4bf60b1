DROP INDEX battles_invitation;
ALTER TABLE battles DROP COLUMN invitation;
