-- Club night (issue 19). A battle set up against a club-mate may leave their side open: they
-- attach one of their own rosters later. Until then the battle has no set-up document; this row
-- keeps what its set-up needs: the force of the player who set it up (a snapshot), whether it was
-- the first force (which attacks unless the roles are rolled), the scenario asked for (none:
-- rolled) and whether the roles are rolled. `waiting` is true while the side waits for a roster;
-- the row stays after a roster is attached, so the roster can be withdrawn and the side reopened.
CREATE TABLE battle_open_sides (
    battle_id BIGINT PRIMARY KEY NOT NULL REFERENCES battles (id) ON DELETE CASCADE,
    force_document TEXT NOT NULL,
    force_roster_id BIGINT REFERENCES rosters (id) ON DELETE SET NULL,
    force_first BOOLEAN NOT NULL,
    scenario TEXT,
    roll_roles BOOLEAN NOT NULL,
    waiting BOOLEAN NOT NULL,
    created_at TIMESTAMP NOT NULL
);

-- A player's request that the engine fight a battle between two players: it is fought only when
-- the other player accepts it. One request per battle at a time.
CREATE TABLE battle_engine_requests (
    battle_id BIGINT PRIMARY KEY NOT NULL REFERENCES battles (id) ON DELETE CASCADE,
    requested_by BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX battle_engine_requests_by ON battle_engine_requests (requested_by);
