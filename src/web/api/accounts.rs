//! Accounts over the API: tokens, registration, the caller's own account.

use actix_web::{delete, get, patch, post, put, web, HttpRequest, HttpResponse};
use chrono::{NaiveDateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use validator::Validate;

use crate::store::{sessions, users};
use crate::web::auth::{self, ApiUser, SignedInUser};
use crate::web::error::{details_from_validation, ErrorBody, ErrorDetail};
use crate::web::page::FormErrors;
use crate::web::pages::accounts::{self as forms, PasswordForm, ProfileForm, RegisterForm};
use crate::web::state::{with_conn, AppState};
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

fn validation_error(errors: FormErrors, fields: &[&str]) -> AppError {
    let details = fields
        .iter()
        .filter(|f| errors.has(f))
        .map(|f| ErrorDetail {
            field: Some(f.to_string()),
            message: errors.of(f),
        })
        .collect();
    AppError::Validation {
        message: "Some fields need attention.".into(),
        details,
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
    let issued = auth::issue_session(&state, user.id, "api").await?;
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
    with_conn(&state, move |conn| {
        sessions::revoke(conn, &user.session_id, Utc::now().naive_utc())?;
        Ok(())
    })
    .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Register an account
///
/// Creates an account from an email, an optional display name (default: the part of the email
/// before `@`) and a password of at least 10 characters.
#[utoipa::path(tag = "auth", request_body = RegisterForm, responses(
    (status = 201, description = "The new account", body = UserJson),
    (status = 422, description = "A field is not valid, or the email is taken", body = ErrorBody)
))]
#[post("/users")]
pub async fn register(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Json<RegisterForm>,
) -> Result<HttpResponse, AppError> {
    let address = auth::client_address(&req, &state);
    match forms::create_account(&state, &address, body.into_inner()).await? {
        Ok(user) => Ok(HttpResponse::Created().json(UserJson::from(user))),
        Err(errors) => Err(validation_error(
            errors,
            &["email", "display_name", "password"],
        )),
    }
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
    let form = ProfileForm {
        display_name: body.display_name.trim().to_string(),
    };
    form.validate().map_err(|e| AppError::Validation {
        message: "Some fields need attention.".into(),
        details: details_from_validation(&e),
    })?;
    let updated = with_conn(&state, move |conn| {
        users::set_display_name(conn, user.id, &form.display_name)?;
        users::find_by_id(conn, user.id)?.ok_or(AppError::NotFound)
    })
    .await?;
    Ok(HttpResponse::Ok().json(UserJson::from(updated)))
}

/// Change the password
///
/// Needs the current password. Every session and token of the account is revoked, including
/// the one that made this request: get a new token afterwards.
#[utoipa::path(tag = "account", security(("bearer" = [])), request_body = PasswordForm, responses(
    (status = 204, description = "Changed; all tokens revoked"),
    (status = 422, description = "The current password is wrong or the new one too short", body = ErrorBody)
))]
#[put("/me/password")]
pub async fn change_password(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    body: web::Json<PasswordForm>,
) -> Result<HttpResponse, AppError> {
    match forms::change_password(&state, user.id, body.into_inner()).await? {
        Ok(()) => Ok(HttpResponse::NoContent().finish()),
        Err(errors) => Err(validation_error(
            errors,
            &["current_password", "new_password", "confirm_password"],
        )),
    }
}
