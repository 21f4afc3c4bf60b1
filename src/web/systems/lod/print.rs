//! Liberty or Death! printouts: unit cards, the roster sheet and the two-sided quick reference.
//! (In progress: issue 14.)

use actix_web::web::ServiceConfig;
use actix_web::HttpResponse;

use crate::store::rosters::RosterRow;
use crate::web::page::PageCtx;
use crate::web::state::AppState;
use crate::web::AppError;

pub fn configure(_cfg: &mut ServiceConfig) {}

pub fn print_roster(
    _state: &AppState,
    _ctx: PageCtx,
    _row: &RosterRow,
    _kind: &str,
    _query: &str,
    _action: String,
) -> Result<HttpResponse, AppError> {
    Err(AppError::NotFound)
}
