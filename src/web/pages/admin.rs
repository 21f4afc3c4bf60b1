//! The administrators' user list.

use actix_web::{web, HttpResponse};
use askama::Template;
use chrono::Utc;
use serde::Deserialize;

use crate::store::{sessions, users};
use crate::web::auth::Admin;
use crate::web::csrf::{CsrfForm, NoFields};
use crate::web::page::{redirect, render, PageCtx};
use crate::web::state::{with_conn, AppState};
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
    let list = with_conn(&state, |conn| Ok(users::list_all(conn)?)).await?;
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

/// Disables or enables an account; disabling also ends all of its sessions.
pub async fn set_user_disabled(
    state: &web::Data<AppState>,
    admin_id: i64,
    user_id: i64,
    disabled: bool,
) -> Result<users::User, AppError> {
    if admin_id == user_id && disabled {
        return Err(AppError::Conflict(
            "You cannot disable your own account.".into(),
        ));
    }
    with_conn(state, move |conn| {
        use diesel::Connection;
        conn.transaction(|conn| {
            if users::set_disabled(conn, user_id, disabled)? == 0 {
                return Ok(None);
            }
            if disabled {
                sessions::revoke_all_for_user(conn, user_id, Utc::now().naive_utc())?;
            }
            users::find_by_id(conn, user_id)
        })?
        .ok_or(AppError::NotFound)
    })
    .await
}

pub async fn disable_user(
    state: web::Data<AppState>,
    Admin(admin): Admin,
    path: web::Path<i64>,
    CsrfForm(_): CsrfForm<NoFields>,
) -> Result<HttpResponse, AppError> {
    set_user_disabled(&state, admin.id, path.into_inner(), true).await?;
    Ok(redirect("/admin/users?done=disabled"))
}

pub async fn enable_user(
    state: web::Data<AppState>,
    Admin(admin): Admin,
    path: web::Path<i64>,
    CsrfForm(_): CsrfForm<NoFields>,
) -> Result<HttpResponse, AppError> {
    set_user_disabled(&state, admin.id, path.into_inner(), false).await?;
    Ok(redirect("/admin/users?done=enabled"))
}
