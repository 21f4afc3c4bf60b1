//! One if by Land battles on the web. Until the rules core's simulator and result assessment
//! exist (its milestone 3), a battle of this system is refused in plain words: the set-up form
//! offers none of its forces, and any address that reaches a battle of this system says what is
//! missing rather than pretending.

use actix_web::{web, HttpRequest, HttpResponse};

use crate::app::{self, Actor};
use crate::store::battles::BattleRow;
use crate::web::auth::SignedInUser;
use crate::web::state::AppState;
use crate::web::systems::battles::{
    BattleChoices, BattleRequest, BattleView, Players, RecordAnswer, RecordEntry,
};
use crate::web::systems::table::{BattlePack, TableView};
use crate::web::AppError;

/// What a user is told wherever a One if by Land battle would be needed.
pub const NOT_YET: &str = "Muster cannot set up, fight or record One if by Land battles yet: \
                           its rosters, cards, quick reference and checks work, its battles do not.";

fn refused() -> AppError {
    AppError::Conflict(NOT_YET.to_string())
}

/// No forces are offered: a battle could not be set up with them.
pub async fn choices(
    _state: &web::Data<AppState>,
    _user: &SignedInUser,
) -> Result<BattleChoices, AppError> {
    Ok(BattleChoices::default())
}

pub async fn set_up(
    _ctx: &app::Context,
    _actor: &Actor,
    _request: BattleRequest,
) -> Result<BattleRow, app::Error> {
    Err(app::Error::Conflict(NOT_YET.to_string()))
}

pub fn view(
    _state: &AppState,
    _row: &BattleRow,
    _players: &Players,
    _printable: bool,
) -> Result<BattleView, AppError> {
    Err(refused())
}

pub fn record_form(
    _state: &AppState,
    _row: &BattleRow,
    _fields: &[(String, String)],
) -> Result<String, AppError> {
    Err(refused())
}

pub async fn record(
    _ctx: &app::Context,
    _actor: &Actor,
    _row: &BattleRow,
    _version: i32,
    _entry: RecordEntry<'_>,
) -> Result<RecordAnswer, app::Error> {
    Err(app::Error::Conflict(NOT_YET.to_string()))
}

pub fn pack(_row: &BattleRow) -> Result<String, AppError> {
    Err(refused())
}

pub async fn at_the_table(
    _req: &HttpRequest,
    _row: &BattleRow,
    _side: &str,
    _kind: &str,
) -> Result<HttpResponse, AppError> {
    Err(refused())
}

pub fn table_view(
    _state: &AppState,
    _row: &BattleRow,
    _table: &str,
) -> Result<TableView, AppError> {
    Err(refused())
}

pub fn table_record_fields(
    _state: &AppState,
    _row: &BattleRow,
    _table: &str,
) -> Result<Vec<(String, String)>, AppError> {
    Err(refused())
}

pub fn battle_pack_print(
    _state: &AppState,
    _row: &BattleRow,
    _players: &Players,
) -> Result<BattlePack, AppError> {
    Err(refused())
}
