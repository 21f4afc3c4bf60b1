//! A player's own data (issue 19): downloading it as JSON and deleting the account.

use actix_web::http::header::{CACHE_CONTROL, CONTENT_DISPOSITION};
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use serde::Deserialize;

use crate::app;
use crate::app::own_data;
use crate::web::auth::csrf::{self, CsrfForm};
use crate::web::auth::{self, SignedIn};
use crate::web::page::{render, render_with_status, FormErrors, PageCtx};
use crate::web::state::AppState;
use crate::web::AppError;

/// Confirming with the password counts as a password attempt: the password-change throttle
/// (per account and per address) bounds guessing through this form too.
pub async fn throttle(req: &HttpRequest, state: &AppState, user: i64) -> Result<(), AppError> {
    let address = auth::client_address(req, state);
    match state
        .throttle
        .password_change(&state.app, user, &address)
        .await?
    {
        Ok(()) => Ok(()),
        Err(retry_after_secs) => Err(AppError::TooManyRequests { retry_after_secs }),
    }
}

/// The JSON document as a download named after the day.
pub fn export_download(export: &own_data::Export) -> Result<HttpResponse, AppError> {
    let body = serde_json::to_string_pretty(export).map_err(AppError::internal)?;
    let day = chrono::Utc::now().format("%Y-%m-%d");
    Ok(HttpResponse::Ok()
        .content_type("application/json")
        .insert_header((
            CONTENT_DISPOSITION,
            format!("attachment; filename=\"muster-my-data-{day}.json\""),
        ))
        .insert_header((CACHE_CONTROL, "no-store"))
        .body(body))
}

pub async fn export(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
) -> Result<HttpResponse, AppError> {
    export_download(&own_data::export(&state.app, &user.actor()).await?)
}

#[derive(Template)]
#[template(path = "account/delete.html")]
struct DeletePage {
    ctx: PageCtx,
    errors: FormErrors,
}

#[derive(Template)]
#[template(path = "account/deleted.html")]
struct DeletedPage {
    ctx: PageCtx,
    deleted: own_data::Deleted,
}

pub async fn delete_page(SignedIn(_): SignedIn, ctx: PageCtx) -> Result<HttpResponse, AppError> {
    render(&DeletePage {
        ctx,
        errors: FormErrors::default(),
    })
}

#[derive(Deserialize)]
pub struct DeleteForm {
    #[serde(default)]
    password: String,
}

pub async fn delete(
    req: HttpRequest,
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    mut ctx: PageCtx,
    CsrfForm(form): CsrfForm<DeleteForm>,
) -> Result<HttpResponse, AppError> {
    throttle(&req, &state, user.id).await?;
    match own_data::delete_account(&state.app, &user.actor(), form.password).await {
        Ok(deleted) => {
            // The page says goodbye to a visitor: the session ended with the account.
            ctx.user = None;
            let body = DeletedPage { ctx, deleted }.render()?;
            Ok(HttpResponse::Ok()
                .content_type("text/html; charset=utf-8")
                .cookie(auth::clear_session_cookie(&state))
                .cookie(csrf::fresh_nonce_cookie(&state))
                .body(body))
        }
        Err(app::Error::Validation { details, .. }) => render_with_status(
            &DeletePage {
                ctx,
                errors: FormErrors::from_details(&details),
            },
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        Err(app::Error::Conflict(message)) => {
            let mut errors = FormErrors::default();
            errors.general.push(message);
            render_with_status(&DeletePage { ctx, errors }, StatusCode::CONFLICT)
        }
        Err(e) => Err(e.into()),
    }
}
