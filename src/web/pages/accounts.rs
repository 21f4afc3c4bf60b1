//! Register, log in, log out, and the account page.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use serde::Deserialize;

use crate::app;
use crate::app::accounts::{self, PasswordForm, ProfileForm, RegisterForm, SessionKind};
use crate::web::auth::csrf::{self, CsrfForm, NoFields};
use crate::web::auth::{self, SignedIn};
use crate::web::page::{redirect, render, render_with_status, safe_next, FormErrors, PageCtx};
use crate::web::state::AppState;
use crate::web::AppError;

/// A form's field problems from a service's validation error; other errors pass.
fn form_problems(e: app::Error) -> Result<FormErrors, AppError> {
    match e {
        app::Error::Validation { details, .. } => Ok(FormErrors::from_details(&details)),
        other => Err(other.into()),
    }
}

// ---------- pages ----------

#[derive(Template)]
#[template(path = "register.html")]
struct RegisterPage {
    ctx: PageCtx,
    email: String,
    display_name: String,
    errors: FormErrors,
}

pub async fn register_page(ctx: PageCtx) -> Result<HttpResponse, AppError> {
    if ctx.user.is_some() {
        return Ok(redirect("/account"));
    }
    render(&RegisterPage {
        ctx,
        email: String::new(),
        display_name: String::new(),
        errors: FormErrors::default(),
    })
}

pub async fn register(
    req: HttpRequest,
    state: web::Data<AppState>,
    ctx: PageCtx,
    CsrfForm(form): CsrfForm<RegisterForm>,
) -> Result<HttpResponse, AppError> {
    let (email, display_name) = (form.email.clone(), form.display_name.clone());
    let address = auth::client_address(&req, &state);
    if let Err(retry_after_secs) = state.throttle.register(&state.app, &address).await? {
        return Err(AppError::TooManyRequests { retry_after_secs });
    }
    match accounts::register(&state.app, form)
        .await
        .map_err(form_problems)
    {
        Ok(user) => {
            let issued = auth::issue_session(&state, user.id, SessionKind::Browser).await?;
            Ok(HttpResponse::SeeOther()
                .insert_header((actix_web::http::header::LOCATION, "/account?done=welcome"))
                .cookie(auth::session_cookie(&state, &issued.token))
                .cookie(csrf::fresh_nonce_cookie(&state))
                .finish())
        }
        Err(errors) => render_with_status(
            &RegisterPage {
                errors: errors?,
                ctx,
                email,
                display_name,
            },
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
    }
}

#[derive(Template)]
#[template(path = "login.html")]
struct LoginPage {
    ctx: PageCtx,
    email: String,
    next: String,
    error: Option<String>,
    notice: Option<&'static str>,
    /// The server sends mail: offer a reset link instead of "ask the administrator".
    mail: bool,
}

#[derive(Deserialize)]
pub struct LoginQuery {
    next: Option<String>,
    done: Option<String>,
}

pub async fn login_page(
    state: web::Data<AppState>,
    ctx: PageCtx,
    query: web::Query<LoginQuery>,
) -> Result<HttpResponse, AppError> {
    let next = safe_next(query.next.as_deref());
    if ctx.user.is_some() {
        return Ok(redirect(&next));
    }
    let notice = match query.done.as_deref() {
        Some("logged_out") => Some("You are logged out."),
        Some("password") => Some("Your password was changed. Log in with the new one."),
        Some("reset") => Some(
            "Your new password is set and every device was logged out. Log in with the new one.",
        ),
        _ => None,
    };
    render(&LoginPage {
        ctx,
        email: String::new(),
        next,
        error: None,
        notice,
        mail: state.outbox.mail_enabled(),
    })
}

#[derive(Deserialize)]
pub struct LoginForm {
    #[serde(default)]
    email: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    next: String,
}

pub async fn login(
    req: HttpRequest,
    state: web::Data<AppState>,
    ctx: PageCtx,
    CsrfForm(form): CsrfForm<LoginForm>,
) -> Result<HttpResponse, AppError> {
    let next = safe_next(Some(&form.next));
    let address = auth::client_address(&req, &state);
    let failure = match auth::authenticate(&state, &address, &form.email, &form.password).await {
        Ok(user) => {
            let issued = auth::issue_session(&state, user.id, SessionKind::Browser).await?;
            return Ok(HttpResponse::SeeOther()
                .insert_header((actix_web::http::header::LOCATION, next))
                .cookie(auth::session_cookie(&state, &issued.token))
                .cookie(csrf::fresh_nonce_cookie(&state))
                .finish());
        }
        Err(e @ (AppError::InvalidCredentials | AppError::TooManyRequests { .. })) => e,
        Err(other) => return Err(other),
    };
    let page = LoginPage {
        ctx,
        email: form.email.trim().to_string(),
        next,
        error: Some(failure.to_string()),
        notice: None,
        mail: state.outbox.mail_enabled(),
    };
    let mut res = render_with_status(&page, actix_web::ResponseError::status_code(&failure))?;
    if let AppError::TooManyRequests { retry_after_secs } = failure {
        res.headers_mut().insert(
            actix_web::http::header::RETRY_AFTER,
            actix_web::http::header::HeaderValue::from(retry_after_secs),
        );
    }
    Ok(res)
}

pub async fn logout(
    state: web::Data<AppState>,
    ctx: PageCtx,
    CsrfForm(_): CsrfForm<NoFields>,
) -> Result<HttpResponse, AppError> {
    if let Some(user) = ctx.user {
        accounts::close_session(&state.app, user.session_id).await?;
    }
    Ok(HttpResponse::SeeOther()
        .insert_header((actix_web::http::header::LOCATION, "/login?done=logged_out"))
        .cookie(auth::clear_session_cookie(&state))
        .cookie(csrf::fresh_nonce_cookie(&state))
        .finish())
}

#[derive(Template)]
#[template(path = "account.html")]
struct AccountPage {
    ctx: PageCtx,
    email: String,
    display_name: String,
    notice: Option<&'static str>,
    profile_errors: FormErrors,
    password_errors: FormErrors,
    /// Whether the server sends e-mail, and which notices the user gets by e-mail.
    mail: bool,
    mail_kinds: Vec<MailKind>,
}

/// One line of the notification preferences: `mail_<id>` is the checkbox.
pub struct MailKind {
    pub id: &'static str,
    pub label: &'static str,
    pub on: bool,
}

async fn mail_kinds(
    state: &AppState,
    user: &auth::SignedInUser,
) -> Result<(bool, Vec<MailKind>), AppError> {
    let prefs = crate::app::notifications::preferences(&state.app, &user.actor()).await?;
    Ok((
        prefs.mail_enabled && state.outbox.mail_enabled(),
        prefs
            .kinds
            .into_iter()
            .map(|(k, on)| MailKind {
                id: k.id(),
                label: k.label(),
                on,
            })
            .collect(),
    ))
}

#[derive(Deserialize)]
pub struct DoneQuery {
    done: Option<String>,
}

pub async fn account_page(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    query: web::Query<DoneQuery>,
) -> Result<HttpResponse, AppError> {
    let notice = match query.done.as_deref() {
        Some("welcome") => Some("Welcome to Muster. Your account is ready."),
        Some("profile") => Some("Your display name was saved."),
        Some("password") => {
            Some("Your password was changed. Every other device has been logged out.")
        }
        Some("notifications") => Some("Your e-mail choices were saved."),
        _ => None,
    };
    let (mail, mail_kinds) = mail_kinds(&state, &user).await?;
    render(&AccountPage {
        mail,
        mail_kinds,
        ctx,
        email: user.email,
        display_name: user.display_name,
        notice,
        profile_errors: FormErrors::default(),
        password_errors: FormErrors::default(),
    })
}

pub async fn update_profile(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    CsrfForm(form): CsrfForm<ProfileForm>,
) -> Result<HttpResponse, AppError> {
    let display_name = form.display_name.trim().to_string();
    match accounts::update_profile(&state.app, user.id, form).await {
        Ok(_) => Ok(redirect("/account?done=profile")),
        Err(e) => render_with_status(
            &AccountPage {
                mail: mail_kinds(&state, &user).await?.0,
                mail_kinds: mail_kinds(&state, &user).await?.1,
                ctx,
                email: user.email,
                display_name,
                notice: None,
                profile_errors: form_problems(e)?,
                password_errors: FormErrors::default(),
            },
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
    }
}

pub async fn update_password(
    req: HttpRequest,
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    CsrfForm(form): CsrfForm<PasswordForm>,
) -> Result<HttpResponse, AppError> {
    let address = auth::client_address(&req, &state);
    if let Err(retry_after_secs) = state
        .throttle
        .password_change(&state.app, user.id, &address)
        .await?
    {
        return Err(AppError::TooManyRequests { retry_after_secs });
    }
    let form = PasswordForm {
        confirm_password: Some(form.confirm_password.unwrap_or_default()),
        ..form
    };
    match accounts::change_password(&state.app, user.id, form, Some(SessionKind::Browser)).await {
        Ok(kept) => {
            // Every session was revoked; this browser got a new one so its user stays in.
            let session =
                kept.ok_or_else(|| AppError::internal("no session kept after a password change"))?;
            let issued = auth::session::sign(&state, &session)?;
            Ok(HttpResponse::SeeOther()
                .insert_header((actix_web::http::header::LOCATION, "/account?done=password"))
                .cookie(auth::session_cookie(&state, &issued.token))
                .cookie(csrf::fresh_nonce_cookie(&state))
                .finish())
        }
        Err(errors) => render_with_status(
            &AccountPage {
                mail: mail_kinds(&state, &user).await?.0,
                mail_kinds: mail_kinds(&state, &user).await?.1,
                ctx,
                email: user.email,
                display_name: user.display_name,
                notice: None,
                profile_errors: FormErrors::default(),
                password_errors: form_problems(errors)?,
            },
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
    }
}

/// Saves which notices come by e-mail: every `mail_<kind>` checkbox ticked is on, the rest off.
pub async fn update_notifications(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    CsrfForm(form): CsrfForm<std::collections::HashMap<String, String>>,
) -> Result<HttpResponse, AppError> {
    let on: Vec<crate::app::notifications::Kind> = crate::app::notifications::Kind::ALL
        .into_iter()
        .filter(|k| form.contains_key(&format!("mail_{}", k.id())))
        .collect();
    crate::app::notifications::set_preferences(&state.app, &user.actor(), on).await?;
    Ok(redirect("/account?done=notifications#notifications"))
}
