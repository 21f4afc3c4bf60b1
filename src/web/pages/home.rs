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
    /// Campaigns waiting for this user: orders due, battles to fight, points to spend.
    campaigns: Vec<(i64, String, Vec<String>)>,
}

/// What each running campaign of the user asks of them, read in one go.
async fn campaign_attention(
    state: &web::Data<AppState>,
    user: &crate::web::auth::SignedInUser,
) -> Result<Vec<(i64, String, Vec<String>)>, AppError> {
    let running = crate::app::campaigns::running_for(&state.app, &user.actor()).await?;
    Ok(running
        .iter()
        .filter_map(|c| {
            let items = crate::web::campaign_view::attention_beside_battles(
                c,
                crate::web::campaign_view::system_of(state, c).ok()?,
            );
            (!items.is_empty()).then(|| (c.id(), c.row.name.clone(), items))
        })
        .collect())
}

pub async fn home(state: web::Data<AppState>, ctx: PageCtx) -> Result<HttpResponse, AppError> {
    let (attention, campaigns) = match &ctx.user {
        Some(user) => (
            attention(&state, user).await?,
            campaign_attention(&state, user).await?,
        ),
        None => (Vec::new(), Vec::new()),
    };
    render(&HomePage {
        ctx,
        attention,
        campaigns,
    })
}
