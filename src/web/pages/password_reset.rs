//! "Forgot your password?": ask for a reset link by e-mail, then choose a new password on the
//! link's page. Only when the server sends mail; otherwise the pages say to ask the
//! administrator.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use serde::Deserialize;

use crate::app;
use crate::app::password_reset;
use crate::web::auth::{self, csrf::CsrfForm};
use crate::web::page::{redirect, render, render_with_status, FormErrors, PageCtx};
use crate::web::state::AppState;
use crate::web::AppError;

#[derive(Template)]
#[template(path = "password_forgot.html")]
struct ForgotPage {
    ctx: PageCtx,
    mail: bool,
    email: String,
    sent: bool,
}

pub async fn forgot_page(
    state: web::Data<AppState>,
    ctx: PageCtx,
) -> Result<HttpResponse, AppError> {
    render(&ForgotPage {
        ctx,
        mail: state.outbox.mail_enabled(),
        email: String::new(),
        sent: false,
    })
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ForgotForm {
    email: String,
}

/// Always the same answer, whether or not the address has an account.
pub async fn forgot(
    req: HttpRequest,
    state: web::Data<AppState>,
    ctx: PageCtx,
    CsrfForm(form): CsrfForm<ForgotForm>,
) -> Result<HttpResponse, AppError> {
    if !state.outbox.mail_enabled() {
        return render_with_status(
            &ForgotPage {
                ctx,
                mail: false,
                email: form.email,
                sent: false,
            },
            StatusCode::CONFLICT,
        );
    }
    let address = auth::client_address(&req, &state);
    if let Err(retry_after_secs) = state
        .throttle
        .password_reset(&state.app, &form.email, &address)
        .await?
    {
        return Err(AppError::TooManyRequests { retry_after_secs });
    }
    password_reset::request(&state.app, &form.email).await?;
    render(&ForgotPage {
        ctx,
        mail: true,
        email: form.email.trim().to_string(),
        sent: true,
    })
}

#[derive(Template)]
#[template(path = "password_reset.html")]
struct ResetPage {
    ctx: PageCtx,
    action: String,
    /// Why the link cannot be used, instead of the form.
    gone: Option<String>,
    errors: FormErrors,
}

pub async fn reset_page(
    state: web::Data<AppState>,
    ctx: PageCtx,
    token: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    let token = token.into_inner();
    let action = password_reset::link_path(&token);
    match password_reset::check(&state.app, token).await {
        Ok(()) => render(&ResetPage {
            ctx,
            action,
            gone: None,
            errors: FormErrors::default(),
        }),
        Err(app::Error::Conflict(m)) => render_with_status(
            &ResetPage {
                ctx,
                action,
                gone: Some(m),
                errors: FormErrors::default(),
            },
            StatusCode::GONE,
        ),
        Err(e) => Err(e.into()),
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ResetForm {
    new_password: String,
    confirm_password: String,
}

pub async fn reset(
    state: web::Data<AppState>,
    ctx: PageCtx,
    token: web::Path<String>,
    CsrfForm(form): CsrfForm<ResetForm>,
) -> Result<HttpResponse, AppError> {
    let token = token.into_inner();
    let action = password_reset::link_path(&token);
    match password_reset::complete(&state.app, token, form.new_password, form.confirm_password)
        .await
    {
        Ok(()) => Ok(redirect("/login?done=reset")),
        Err(app::Error::Validation { details, .. }) => render_with_status(
            &ResetPage {
                ctx,
                action,
                gone: None,
                errors: FormErrors::from_details(&details),
            },
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        Err(app::Error::Conflict(m)) => render_with_status(
            &ResetPage {
                ctx,
                action,
                gone: Some(m),
                errors: FormErrors::default(),
            },
            StatusCode::GONE,
        ),
        Err(e) => Err(e.into()),
    }
}
