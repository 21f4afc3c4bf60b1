DROP TABLE battle_table_states;
