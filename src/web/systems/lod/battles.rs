//! Liberty or Death! battles on the web: set-up choices, the battle page's parts, recording a
//! result from the table, the battle pack, fighting with the simulator. (In progress: issue 14.)

use actix_web::web::{self, ServiceConfig};
use actix_web::{HttpRequest, HttpResponse};

use crate::app::{self, Actor};
use crate::store::battles::BattleRow;
use crate::web::auth::SignedInUser;
use crate::web::state::AppState;
use crate::web::systems::battles::{
    BattleChoices, BattleRequest, BattleView, Players, RecordAnswer, RecordEntry,
};
use crate::web::AppError;

/// Path prefixes whose next segment is a job's id (a capability), logged without it.
pub const SECRET_PREFIXES: &[&str] = &[];

pub fn configure(_cfg: &mut ServiceConfig) {}

pub fn configure_api(_cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {}

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
    Err(app::Error::internal("not yet".to_string()))
}

pub fn view(
    _state: &AppState,
    _row: &BattleRow,
    _players: &Players,
    _printable: bool,
) -> Result<BattleView, AppError> {
    Err(AppError::NotFound)
}

pub fn record_form(
    _state: &AppState,
    _row: &BattleRow,
    _fields: &[(String, String)],
) -> Result<String, AppError> {
    Err(AppError::NotFound)
}

pub async fn record(
    _ctx: &app::Context,
    _actor: &Actor,
    _row: &BattleRow,
    _version: i32,
    _entry: RecordEntry<'_>,
) -> Result<RecordAnswer, app::Error> {
    Err(app::Error::internal("not yet".to_string()))
}

pub fn pack(_row: &BattleRow) -> Result<String, AppError> {
    Err(AppError::NotFound)
}

pub async fn at_the_table(
    _req: &HttpRequest,
    _row: &BattleRow,
    _side: &str,
    _kind: &str,
) -> Result<HttpResponse, AppError> {
    Err(AppError::NotFound)
}
