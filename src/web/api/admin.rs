//! Administration over the API.

use actix_web::{get, post, web, HttpResponse};

use crate::app::accounts;
use crate::web::api::accounts::UserJson;
use crate::web::auth::ApiAdmin;
use crate::web::error::ErrorBody;
use crate::web::state::AppState;
use crate::web::AppError;

/// List accounts
///
/// Every account, oldest first. Administrators only.
#[utoipa::path(tag = "admin", security(("bearer" = [])), responses(
    (status = 200, description = "All accounts", body = [UserJson]),
    (status = 403, description = "The caller is not an administrator", body = ErrorBody)
))]
#[get("/admin/users")]
pub async fn list_users(
    state: web::Data<AppState>,
    _admin: ApiAdmin,
) -> Result<HttpResponse, AppError> {
    let list = accounts::list_users(&state.app).await?;
    Ok(HttpResponse::Ok().json(list.into_iter().map(UserJson::from).collect::<Vec<_>>()))
}

/// Disable an account
///
/// The account can no longer log in and all its sessions end. Administrators only; nobody can
/// disable their own account.
#[utoipa::path(tag = "admin", security(("bearer" = [])), params(("id" = i64, Path, description = "Account id")), responses(
    (status = 200, description = "The disabled account", body = UserJson),
    (status = 404, description = "No such account", body = ErrorBody),
    (status = 409, description = "Tried to disable oneself", body = ErrorBody)
))]
#[post("/admin/users/{id}/disable")]
pub async fn disable_user(
    state: web::Data<AppState>,
    ApiAdmin(admin): ApiAdmin,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let user = accounts::set_disabled(&state.app, &admin.actor(), id.into_inner(), true).await?;
    Ok(HttpResponse::Ok().json(UserJson::from(user)))
}

/// Enable an account
///
/// Lets a disabled account log in again. Administrators only.
#[utoipa::path(tag = "admin", security(("bearer" = [])), params(("id" = i64, Path, description = "Account id")), responses(
    (status = 200, description = "The enabled account", body = UserJson),
    (status = 404, description = "No such account", body = ErrorBody)
))]
#[post("/admin/users/{id}/enable")]
pub async fn enable_user(
    state: web::Data<AppState>,
    ApiAdmin(admin): ApiAdmin,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let user = accounts::set_disabled(&state.app, &admin.actor(), id.into_inner(), false).await?;
    Ok(HttpResponse::Ok().json(UserJson::from(user)))
}
