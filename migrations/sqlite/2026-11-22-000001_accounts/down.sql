DROP TABLE settings;
DROP TABLE sessions;
DROP TABLE users;
