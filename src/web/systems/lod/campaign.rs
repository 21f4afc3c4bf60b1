//! Liberty or Death! campaign printouts. (In progress: issue 14.)

use actix_web::HttpResponse;

use crate::app::campaigns::Loaded;
use crate::web::page::PageCtx;
use crate::web::state::AppState;
use crate::web::AppError;

pub fn print_force(
    _state: &AppState,
    _ctx: PageCtx,
    _campaign: &Loaded,
    _force: &str,
    _kind: &str,
    _query: &str,
) -> Result<HttpResponse, AppError> {
    Err(AppError::NotFound)
}
