-- The state of a battle being played at the table (issue 19, item 8): hits, markers, commanders
-- lost, objectives and the turn, as the rule system's own JSON document. Every save names the
-- version it was based on, so two phones never overwrite each other silently.
CREATE TABLE battle_table_states (
    battle_id BIGINT PRIMARY KEY NOT NULL REFERENCES battles (id) ON DELETE CASCADE,
    state TEXT NOT NULL,
    version INTEGER NOT NULL,
    updated_by BIGINT,
    updated_at TIMESTAMP NOT NULL
);
