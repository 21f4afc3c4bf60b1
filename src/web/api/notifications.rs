//! The inbox over the API: your notices, newest first, and marking them read.

use actix_web::{get, post, web, HttpResponse};
use serde::{Deserialize, Serialize};

use crate::app::notifications::{self, Inbox};
use crate::web::auth::ApiUser;
use crate::web::error::ErrorBody;
use crate::web::state::AppState;
use crate::web::AppError;

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct InboxQuery {
    /// Only notices older than this id (the previous page's `next_before`).
    before: Option<i64>,
}

/// Your inbox
///
/// Your notices, newest first, 50 a page, with how many are unread: results waiting for your
/// confirmation, campaign turns opened and closed, campaigns ended. Each has a `link`, a path
/// on this site to what it is about.
#[utoipa::path(tag = "account", security(("bearer" = []), ("csrf_header" = [])), params(InboxQuery), responses(
    (status = 200, description = "Your notices", body = Inbox),
    (status = 401, description = "Not logged in", body = ErrorBody)
))]
#[get("/notifications")]
pub async fn list(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    query: web::Query<InboxQuery>,
) -> Result<HttpResponse, AppError> {
    let inbox = notifications::inbox(&state.app, &user.actor(), query.before).await?;
    Ok(HttpResponse::Ok().json(inbox))
}

/// Mark a notice read
///
/// Marks one of your notices read; it stays in the inbox. Someone else's notice is not found.
#[utoipa::path(tag = "account", security(("bearer" = []), ("csrf_header" = [])), params(("id" = i64, Path, description = "Notice id")), responses(
    (status = 204, description = "Marked read"),
    (status = 401, description = "Not logged in", body = ErrorBody),
    (status = 404, description = "No such notice of yours", body = ErrorBody)
))]
#[post("/notifications/{id}/read")]
pub async fn mark_read(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    notifications::mark_read(&state.app, &user.actor(), id.into_inner()).await?;
    Ok(HttpResponse::NoContent().finish())
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct Marked {
    /// How many notices were unread.
    pub marked: usize,
}

/// Mark every notice read
///
/// Marks all your unread notices read (the navigation's count goes to none); answers how many
/// there were.
#[utoipa::path(tag = "account", security(("bearer" = []), ("csrf_header" = [])), responses(
    (status = 200, description = "Everything is read", body = Marked),
    (status = 401, description = "Not logged in", body = ErrorBody)
))]
#[post("/notifications/read")]
pub async fn mark_all_read(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
) -> Result<HttpResponse, AppError> {
    let marked = notifications::mark_all_read(&state.app, &user.actor()).await?;
    Ok(HttpResponse::Ok().json(Marked { marked }))
}
