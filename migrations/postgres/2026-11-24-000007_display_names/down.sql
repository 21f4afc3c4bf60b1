DROP INDEX users_display_key;
ALTER TABLE users DROP COLUMN display_key;
