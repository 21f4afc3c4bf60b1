//! A battle's state at the table (issue 19, item 8): the rule system's JSON document, one row
//! per battle, with a version that every save is checked against, so two phones never overwrite
//! each other silently. What the document holds is the rules core's business.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::schema::battle_table_states;
use super::DbConnection;

#[derive(Debug, Clone, PartialEq, Queryable, Selectable)]
#[diesel(table_name = battle_table_states)]
pub struct TableStateRow {
    pub battle_id: i64,
    pub state: String,
    pub version: i32,
    pub updated_by: Option<i64>,
    pub updated_at: NaiveDateTime,
}

/// The stored state of battle `battle_id`, if anyone has saved one.
pub fn find(conn: &mut DbConnection, battle_id: i64) -> QueryResult<Option<TableStateRow>> {
    battle_table_states::table
        .find(battle_id)
        .select(TableStateRow::as_select())
        .first(conn)
        .optional()
}

/// Saves `state` as the version after `based_on` (0: nothing saved yet). False when the stored
/// version is not `based_on` any more (someone saved first); nothing is written then.
pub fn save(
    conn: &mut DbConnection,
    battle_id: i64,
    based_on: i32,
    state: &str,
    by: i64,
    at: NaiveDateTime,
) -> QueryResult<bool> {
    if based_on == 0 {
        // In a savepoint of its own: a refused insert leaves the caller's transaction usable
        // (PostgreSQL would otherwise end it).
        let inserted = conn.transaction(|conn| {
            diesel::insert_into(battle_table_states::table)
                .values((
                    battle_table_states::battle_id.eq(battle_id),
                    battle_table_states::state.eq(state),
                    battle_table_states::version.eq(1),
                    battle_table_states::updated_by.eq(Some(by)),
                    battle_table_states::updated_at.eq(at),
                ))
                .execute(conn)
        });
        return match inserted {
            Ok(n) => Ok(n == 1),
            // Another phone saved the first version meanwhile.
            Err(diesel::result::Error::DatabaseError(
                diesel::result::DatabaseErrorKind::UniqueViolation,
                _,
            )) => Ok(false),
            Err(e) => Err(e),
        };
    }
    let n = diesel::update(
        battle_table_states::table
            .filter(battle_table_states::battle_id.eq(battle_id))
            .filter(battle_table_states::version.eq(based_on)),
    )
    .set((
        battle_table_states::state.eq(state),
        battle_table_states::version.eq(based_on + 1),
        battle_table_states::updated_by.eq(Some(by)),
        battle_table_states::updated_at.eq(at),
    ))
    .execute(conn)?;
    Ok(n == 1)
}
