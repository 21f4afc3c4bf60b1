use actix_web::{web, HttpResponse};
use askama::Template;

use crate::web::page::{render, PageCtx};
use crate::web::pages::battles::{attention, BattleLine};
use crate::web::state::AppState;
use crate::web::AppError;

#[derive(Template)]
#[template(path = "home.html")]
struct HomePage {
    ctx: PageCtx,
    /// Battles waiting for this user: results to confirm, disputes.
    attention: Vec<BattleLine>,
}

pub async fn home(state: web::Data<AppState>, ctx: PageCtx) -> Result<HttpResponse, AppError> {
    let attention = match &ctx.user {
        Some(user) => attention(&state, user).await?,
        None => Vec::new(),
    };
    render(&HomePage { ctx, attention })
}
