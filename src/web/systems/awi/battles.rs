//! AWI battles on the generic battle pages. Until the rules core fights and assesses AWI
//! battles, the set-up form lists the player's orders of battle and setting a battle up is
//! refused with a plain reason; no AWI battle record can exist, so the hooks that read one
//! refuse too. (The capabilities say the same: no simulator, no tabletop record.)

use actix_web::web;
use actix_web::{HttpRequest, HttpResponse};

use crate::app::rosters as roster_store;
use crate::app::{self, Actor};
use crate::rules::SystemId;
use crate::store::battles::BattleRow;
use crate::web::auth::SignedInUser;
use crate::web::page::SelectOption;
use crate::web::state::AppState;
use crate::web::systems::battles::{
    BattleChoices, BattleRequest, BattleView, Players, RecordAnswer, RecordEntry,
};
use crate::web::AppError;

const NOT_YET: &str = "Muster cannot set up battles under the AWI wargames rules yet: build \
                       and print orders of battle for now.";

pub async fn choices(
    state: &web::Data<AppState>,
    user: &SignedInUser,
) -> Result<BattleChoices, AppError> {
    let rows = roster_store::list(&state.app, &user.actor(), None).await?;
    let mine = rows
        .iter()
        .filter(|r| r.rule_system == SystemId::Awi.id())
        .map(|r| SelectOption {
            value: format!("r:{}", r.id),
            label: r.name.clone(),
        })
        .collect();
    Ok(BattleChoices {
        mine,
        ..BattleChoices::default()
    })
}

pub async fn set_up(
    _ctx: &app::Context,
    _actor: &Actor,
    _request: BattleRequest,
) -> Result<BattleRow, app::Error> {
    Err(app::Error::Conflict(NOT_YET.into()))
}

fn no_battles() -> AppError {
    AppError::Conflict(NOT_YET.into())
}

pub fn view(
    _state: &AppState,
    _row: &BattleRow,
    _players: &Players,
    _printable: bool,
) -> Result<BattleView, AppError> {
    Err(no_battles())
}

pub fn record_form(
    _state: &AppState,
    _row: &BattleRow,
    _fields: &[(String, String)],
) -> Result<String, AppError> {
    Err(no_battles())
}

pub async fn record(
    _ctx: &app::Context,
    _actor: &Actor,
    _row: &BattleRow,
    _version: i32,
    _entry: RecordEntry<'_>,
) -> Result<RecordAnswer, app::Error> {
    Err(app::Error::Conflict(NOT_YET.into()))
}

pub fn pack(_row: &BattleRow) -> Result<String, AppError> {
    Err(no_battles())
}

pub async fn at_the_table(
    _req: &HttpRequest,
    _row: &BattleRow,
    _side: &str,
    _kind: &str,
) -> Result<HttpResponse, AppError> {
    Err(no_battles())
}
