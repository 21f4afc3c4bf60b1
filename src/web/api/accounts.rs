//! Accounts over the API: tokens, registration, the caller's own account.

use actix_web::{delete, get, patch, post, put, web, HttpRequest, HttpResponse};
use chrono::NaiveDateTime;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::app::accounts::{self, PasswordForm, ProfileForm, RegisterForm, SessionKind};
use crate::store::users;
use crate::web::auth::{self, ApiUser, SignedInUser};
use crate::web::error::ErrorBody;
use crate::web::state::AppState;
use crate::web::AppError;

#[derive(Deserialize, ToSchema)]
pub struct TokenRequest {
    email: String,
    password: String,
}

#[derive(Serialize, ToSchema)]
pub struct TokenResponse {
    /// Send as `Authorization: Bearer <token>`.
    token: String,
    /// RFC 3339, UTC.
    expires_at: String,
}

#[derive(Serialize, ToSchema)]
pub struct UserJson {
    id: i64,
    email: String,
    display_name: String,
    is_admin: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    disabled: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    created_at: Option<String>,
}

fn rfc3339(t: NaiveDateTime) -> String {
    t.and_utc()
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

impl From<users::User> for UserJson {
    fn from(u: users::User) -> Self {
        Self {
            id: u.id,
            email: u.email,
            display_name: u.display_name,
            is_admin: u.is_admin,
            disabled: Some(u.disabled),
            created_at: Some(rfc3339(u.created_at)),
        }
    }
}

impl From<SignedInUser> for UserJson {
    fn from(u: SignedInUser) -> Self {
        Self {
            id: u.id,
            email: u.email,
            display_name: u.display_name,
            is_admin: u.is_admin,
            disabled: None,
            created_at: None,
        }
    }
}

/// Get an API token
///
/// Exchanges an email and password for a bearer token valid for 30 days. Attempts are
/// throttled per account and per client address; the answer never says whether the email exists.
#[utoipa::path(tag = "auth", request_body = TokenRequest, responses(
    (status = 200, description = "A new token", body = TokenResponse),
    (status = 401, description = "Email and password do not match an active account", body = ErrorBody),
    (status = 429, description = "Too many failed attempts; see Retry-After", body = ErrorBody)
))]
#[post("/auth/token")]
pub async fn create_token(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Json<TokenRequest>,
) -> Result<HttpResponse, AppError> {
    let address = auth::client_address(&req, &state);
    let user = auth::authenticate(&state, &address, &body.email, &body.password).await?;
    let issued = auth::issue_session(&state, user.id, SessionKind::Api).await?;
    Ok(HttpResponse::Ok().json(TokenResponse {
        token: issued.token,
        expires_at: rfc3339(issued.expires_at),
    }))
}

/// Revoke the token in use
///
/// Logs out: the token (or cookie session) that made this request stops working at once.
#[utoipa::path(tag = "auth", security(("bearer" = [])), responses(
    (status = 204, description = "Revoked"),
    (status = 401, description = "No valid token", body = ErrorBody)
))]
#[delete("/auth/token")]
pub async fn revoke_token(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
) -> Result<HttpResponse, AppError> {
    accounts::close_session(&state.app, user.session_id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Register an account
///
/// Creates an account from an email, an optional display name (default: the part of the email
/// before `@`) and a password of at least 10 characters.
#[utoipa::path(tag = "auth", request_body = RegisterForm, responses(
    (status = 201, description = "The new account", body = UserJson),
    (status = 422, description = "A field is not valid, or the email is taken", body = ErrorBody),
    (status = 429, description = "Too many registrations from this address; see Retry-After", body = ErrorBody)
))]
#[post("/users")]
pub async fn register(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Json<RegisterForm>,
) -> Result<HttpResponse, AppError> {
    let address = auth::client_address(&req, &state);
    if let Err(retry_after_secs) = state.throttle.register(&state.app, &address).await? {
        return Err(AppError::TooManyRequests { retry_after_secs });
    }
    let user = accounts::register(&state.app, body.into_inner()).await?;
    Ok(HttpResponse::Created().json(UserJson::from(user)))
}

/// The caller's account
///
/// Returns the account the token or cookie belongs to.
#[utoipa::path(tag = "account", security(("bearer" = []), ("csrf_header" = [])), responses(
    (status = 200, description = "The account", body = UserJson),
    (status = 401, description = "Not logged in", body = ErrorBody),
    (status = 403, description = "Cookie sent without a valid X-CSRF-Token header", body = ErrorBody)
))]
#[get("/me")]
pub async fn me(ApiUser(user): ApiUser) -> HttpResponse {
    HttpResponse::Ok().json(UserJson::from(user))
}

/// Change the display name
///
/// Sets the caller's display name (1 to 60 characters).
#[utoipa::path(tag = "account", security(("bearer" = [])), request_body = ProfileForm, responses(
    (status = 200, description = "The updated account", body = UserJson),
    (status = 422, description = "The name is empty or too long", body = ErrorBody)
))]
#[patch("/me")]
pub async fn update_me(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    body: web::Json<ProfileForm>,
) -> Result<HttpResponse, AppError> {
    let updated = accounts::update_profile(&state.app, user.id, body.into_inner()).await?;
    Ok(HttpResponse::Ok().json(UserJson::from(updated)))
}

/// Change the password
///
/// Needs the current password. Every session and token of the account is revoked, including
/// the one that made this request: get a new token afterwards.
#[utoipa::path(tag = "account", security(("bearer" = [])), request_body = PasswordForm, responses(
    (status = 204, description = "Changed; all tokens revoked"),
    (status = 422, description = "The current password is wrong or the new one too short", body = ErrorBody),
    (status = 429, description = "Too many password changes for this account or from this address; see Retry-After", body = ErrorBody)
))]
#[put("/me/password")]
pub async fn change_password(
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    body: web::Json<PasswordForm>,
) -> Result<HttpResponse, AppError> {
    let address = auth::client_address(&req, &state);
    if let Err(retry_after_secs) = state
        .throttle
        .password_change(&state.app, user.id, &address)
        .await?
    {
        return Err(AppError::TooManyRequests { retry_after_secs });
    }
    accounts::change_password(&state.app, user.id, body.into_inner(), None).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Everything Muster holds about the caller
///
/// One JSON document (`format`: `muster.account-export/1`): the account, every roster with its
/// document, every battle the caller set up or played with its set-up, and every campaign they
/// take part in with the log entries they made or that concern their force.
#[utoipa::path(tag = "account", security(("bearer" = []), ("csrf_header" = [])), responses(
    (status = 200, description = "The caller's data, as a download", body = Object),
    (status = 401, description = "Not logged in", body = ErrorBody)
))]
#[get("/me/export")]
pub async fn export_me(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
) -> Result<HttpResponse, AppError> {
    let export = crate::app::own_data::export(&state.app, &user.actor()).await?;
    crate::web::pages::own_data::export_download(&export)
}

#[derive(Deserialize, ToSchema)]
pub struct DeleteAccountRequest {
    /// The account's password, to confirm.
    #[serde(default)]
    password: String,
}

/// Delete the caller's account
///
/// Needs the password. Rosters, battles nobody fought and every session and token go; battles
/// fought and campaigns keep the account under a neutral name ("Former player N"). Refused with
/// 409 while the caller organises a campaign with other players that has not ended.
#[utoipa::path(tag = "account", security(("bearer" = [])), request_body = DeleteAccountRequest, responses(
    (status = 204, description = "Deleted; every token revoked"),
    (status = 401, description = "Not logged in", body = ErrorBody),
    (status = 409, description = "The caller organises a running campaign with other players", body = ErrorBody),
    (status = 422, description = "The password is missing or wrong", body = ErrorBody),
    (status = 429, description = "Too many password attempts for this account or from this address; see Retry-After", body = ErrorBody)
))]
#[delete("/me")]
pub async fn delete_me(
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    body: web::Json<DeleteAccountRequest>,
) -> Result<HttpResponse, AppError> {
    crate::web::pages::own_data::throttle(&req, &state, user.id).await?;
    crate::app::own_data::delete_account(&state.app, &user.actor(), body.into_inner().password)
        .await?;
    Ok(HttpResponse::NoContent().finish())
}
