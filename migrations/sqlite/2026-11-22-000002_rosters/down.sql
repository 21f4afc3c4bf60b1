DROP TABLE rosters;
