//! Liberty or Death! rosters on the web: the list line, the new-roster fields, starting points,
//! the editor, the roster page, text export and reading imports. (In progress: issue 14.)

use actix_web::HttpResponse;

use crate::rules::systems::AnyRoster;
use crate::store::rosters::RosterRow;
use crate::web::page::{FormErrors, PageCtx, SelectOption};
use crate::web::state::AppState;
use crate::web::systems::{ReadProblem, RosterBody, RosterLine};
use crate::web::AppError;

pub fn roster_line(_state: &AppState, row: &RosterRow) -> RosterLine {
    RosterLine {
        war: row.war.clone(),
        nation: row.nation.clone(),
    }
}

pub fn war_choices(_state: &AppState) -> Vec<SelectOption> {
    Vec::new()
}

pub fn new_roster_fields(
    _state: &AppState,
    _form: &[(String, String)],
    _errors: &FormErrors,
) -> Result<String, AppError> {
    Ok(String::new())
}

pub async fn create_roster(
    _state: &AppState,
    _owner: i64,
    _form: &[(String, String)],
) -> Result<Result<RosterRow, FormErrors>, AppError> {
    Err(AppError::NotFound)
}

pub fn start_page(
    _state: &AppState,
    _ctx: PageCtx,
    _query: &[(String, String)],
) -> Result<HttpResponse, AppError> {
    Err(AppError::NotFound)
}

pub async fn start_roster(
    _state: &AppState,
    _ctx: PageCtx,
    _owner: i64,
    _how: &str,
    _form: &[(String, String)],
) -> Result<HttpResponse, AppError> {
    Err(AppError::NotFound)
}

pub fn open_editor(
    _state: &AppState,
    _ctx: PageCtx,
    _row: &RosterRow,
    _unit: &str,
    _notice: Option<String>,
) -> Result<HttpResponse, AppError> {
    Err(AppError::NotFound)
}

pub async fn apply_edit(
    _state: &AppState,
    _ctx: PageCtx,
    _row: &RosterRow,
    _fields: &[(String, String)],
) -> Result<HttpResponse, AppError> {
    Err(AppError::NotFound)
}

pub fn roster_body(
    _state: &AppState,
    _row: &RosterRow,
    _updated: &str,
) -> Result<RosterBody, AppError> {
    Err(AppError::NotFound)
}

pub fn roster_text(_state: &AppState, _row: &RosterRow) -> Result<String, AppError> {
    Err(AppError::NotFound)
}

pub fn read_roster(_text: &str) -> Result<AnyRoster, ReadProblem> {
    Err(ReadProblem {
        broken_json: false,
        summary: "Not yet.".into(),
        message: "Not yet.".into(),
        path: None,
        line: 0,
        column: 0,
    })
}

pub fn roster_json(
    _state: &AppState,
    _row: &RosterRow,
) -> Result<(serde_json::Value, serde_json::Value), AppError> {
    Err(AppError::NotFound)
}
