//! At the table (issue 19, item 8): a set-up battle's hits, markers, commanders lost,
//! objectives and turn, saved tap by tap while it is played. Only the battle's two players may
//! see or change it. Every save names the version it was based on; a save based on an older
//! version is refused (someone else saved first), so two phones never overwrite each other
//! silently. The rule system decides what the state holds and which taps make sense.

use crate::app::battle_record::{side_of, RecordStatus};
use crate::app::battles::{load_for, Invitation};
use crate::app::{Actor, Context, Error};
use crate::rules::table::TableAction;
use crate::rules::SystemId;
use crate::store::battle_tables;
use crate::store::battles::BattleRow;

/// A battle's table as stored (or, before the first tap, as it starts: version 0).
#[derive(Debug, Clone)]
pub struct Table {
    pub battle: BattleRow,
    /// The rule system's state document.
    pub state: String,
    pub version: i32,
    /// Whether taps are taken: the battle is set up, not yet decided, and any invitation on it
    /// accepted.
    pub open: bool,
}

/// What became of a tap.
#[derive(Debug)]
pub enum Tapped {
    Saved(Table),
    /// Someone saved a newer version first: nothing was saved; the table as it now stands.
    Stale(Table),
    /// The tap makes no sense here (a count past its range): nothing was saved, and why.
    Refused(Table, String),
}

fn system_of(row: &BattleRow) -> Result<SystemId, Error> {
    SystemId::from_id(&row.rule_system).ok_or_else(|| {
        Error::Conflict(format!(
            "This battle is played by the rule system '{}', which this version of Muster does \
             not know.",
            row.rule_system
        ))
    })
}

/// The battle if the actor is one of its two players; anyone else (the other players of a
/// campaign, a visitor) gets "not found", as for the battle itself.
async fn load_as_player(ctx: &Context, actor: &Actor, id: i64) -> Result<BattleRow, Error> {
    let row = load_for(ctx, actor, id).await?;
    if side_of(&row, actor.id).is_none() {
        return Err(Error::NotFound);
    }
    Ok(row)
}

fn is_open(row: &BattleRow) -> bool {
    row.status == RecordStatus::SetUp.id() && Invitation::of(row).is_none_or(|i| i.settled())
}

fn table_of(
    ctx: &Context,
    row: BattleRow,
    stored: Option<battle_tables::TableStateRow>,
) -> Result<Table, Error> {
    let (state, version) = match stored {
        Some(s) => (s.state, s.version),
        None => (
            ctx.rules
                .table_start(system_of(&row)?, &row.setup)
                .map_err(|e| Error::internal(format!("stored battle {}: {e}", row.id)))?,
            0,
        ),
    };
    Ok(Table {
        open: is_open(&row),
        battle: row,
        state,
        version,
    })
}

/// The battle's table for one of its players. Reading never writes: before the first tap the
/// table is made from the set-up, version 0.
pub async fn open(ctx: &Context, actor: &Actor, id: i64) -> Result<Table, Error> {
    let row = load_as_player(ctx, actor, id).await?;
    let stored = ctx
        .with_conn(move |conn| Ok(battle_tables::find(conn, id)?))
        .await?;
    table_of(ctx, row, stored)
}

/// One tap by one of the players, based on the version they saw. Refused with a conflict when
/// the battle is no longer being played (it has a result, or waits for an invitation).
pub async fn tap(
    ctx: &Context,
    actor: &Actor,
    id: i64,
    based_on: i32,
    action: TableAction,
) -> Result<Tapped, Error> {
    let row = load_as_player(ctx, actor, id).await?;
    if !is_open(&row) {
        return Err(Error::Conflict(
            "This battle is not being played any more (it has a result, or waits for an \
             invitation's answer), so the table takes no more taps."
                .into(),
        ));
    }
    let system = system_of(&row)?;
    let (rules, setup, by) = (ctx.rules.clone(), row.setup.clone(), actor.id);
    let now = chrono::Utc::now().naive_utc();
    // What the tap came to; the table is read again afterwards, outside the transaction (on
    // PostgreSQL a refused first insert has ended the transaction).
    enum Outcome {
        Saved,
        Stale,
        Refused(String),
    }
    let outcome = ctx
        .with_conn(move |conn| {
            crate::store::write_transaction(conn, |conn| {
                let stored = battle_tables::find(conn, id)?;
                if stored.as_ref().map_or(0, |s| s.version) != based_on {
                    return Ok(Outcome::Stale);
                }
                let next = rules
                    .table_apply(
                        system,
                        &setup,
                        stored.as_ref().map(|s| s.state.as_str()),
                        &action,
                    )
                    .map_err(|e| Error::internal(format!("stored battle {id}: {e}")))?;
                match next {
                    Err(why) => Ok(Outcome::Refused(why)),
                    Ok(next) if battle_tables::save(conn, id, based_on, &next, by, now)? => {
                        Ok(Outcome::Saved)
                    }
                    Ok(_) => Ok(Outcome::Stale),
                }
            })
        })
        .await?;
    let stored = ctx
        .with_conn(move |conn| Ok(battle_tables::find(conn, id)?))
        .await?;
    let table = table_of(ctx, row, stored)?;
    Ok(match outcome {
        Outcome::Saved => Tapped::Saved(table),
        Outcome::Stale => Tapped::Stale(table),
        Outcome::Refused(why) => Tapped::Refused(table, why),
    })
}
