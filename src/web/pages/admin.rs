//! The administrators' user list.

use actix_web::{web, HttpResponse};
use askama::Template;
use serde::Deserialize;

use crate::app::accounts;
use crate::store::users;
use crate::web::auth::csrf::{CsrfForm, NoFields};
use crate::web::auth::Admin;
use crate::web::page::{redirect, render, PageCtx};
use crate::web::state::AppState;
use crate::web::AppError;

#[derive(Template)]
#[template(path = "admin_users.html")]
struct UsersPage {
    ctx: PageCtx,
    me: i64,
    users: Vec<users::User>,
    notice: Option<String>,
}

#[derive(Deserialize)]
pub struct NoticeQuery {
    done: Option<String>,
}

pub async fn users_page(
    state: web::Data<AppState>,
    Admin(admin): Admin,
    ctx: PageCtx,
    query: web::Query<NoticeQuery>,
) -> Result<HttpResponse, AppError> {
    let list = accounts::list_users(&state.app).await?;
    let notice = match query.done.as_deref() {
        Some("disabled") => Some("The account was disabled and logged out everywhere.".to_string()),
        Some("enabled") => Some("The account was enabled.".to_string()),
        _ => None,
    };
    render(&UsersPage {
        ctx,
        me: admin.id,
        users: list,
        notice,
    })
}

pub async fn disable_user(
    state: web::Data<AppState>,
    Admin(admin): Admin,
    path: web::Path<i64>,
    CsrfForm(_): CsrfForm<NoFields>,
) -> Result<HttpResponse, AppError> {
    accounts::set_disabled(&state.app, &admin.actor(), path.into_inner(), true).await?;
    Ok(redirect("/admin/users?done=disabled"))
}

pub async fn enable_user(
    state: web::Data<AppState>,
    Admin(admin): Admin,
    path: web::Path<i64>,
    CsrfForm(_): CsrfForm<NoFields>,
) -> Result<HttpResponse, AppError> {
    accounts::set_disabled(&state.app, &admin.actor(), path.into_inner(), false).await?;
    Ok(redirect("/admin/users?done=enabled"))
}
