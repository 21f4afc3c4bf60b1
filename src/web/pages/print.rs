//! Print pages of a roster (its owner's, or anyone's with its share link): the roster's system
//! lays them out.

use actix_web::{web, HttpRequest, HttpResponse};

use crate::app::rosters;
use crate::web::auth::SignedIn;
use crate::web::page::PageCtx;
use crate::web::state::AppState;
use crate::web::systems::pages_for_stored;
use crate::web::AppError;

/// `/rosters/{id}/print/{cards|sheet}`: the owner's roster.
pub async fn roster_print(
    req: HttpRequest,
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    path: web::Path<(i64, String)>,
) -> Result<HttpResponse, AppError> {
    let (id, kind) = path.into_inner();
    let row = rosters::load_owned_row(&state.app, &user.actor(), id).await?;
    let action = format!("/rosters/{id}/print/{kind}");
    pages_for_stored(&row.rule_system)?.print_roster(
        &state,
        ctx,
        &row,
        &kind,
        req.query_string(),
        action,
    )
}

/// `/shared/{token}/print/{cards|sheet}`: anyone with the share link.
pub async fn shared_print(
    req: HttpRequest,
    state: web::Data<AppState>,
    ctx: PageCtx,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, AppError> {
    let (token, kind) = path.into_inner();
    let action = format!("/shared/{token}/print/{kind}");
    let row = rosters::load_shared_row(&state.app, token).await?;
    pages_for_stored(&row.rule_system)?.print_roster(
        &state,
        ctx,
        &row,
        &kind,
        req.query_string(),
        action,
    )
}
