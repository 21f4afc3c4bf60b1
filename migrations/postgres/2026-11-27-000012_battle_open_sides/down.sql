DROP INDEX battle_engine_requests_by;
DROP TABLE battle_engine_requests;
DROP TABLE battle_open_sides;
