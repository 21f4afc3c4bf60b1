//! Register, log in, log out, and the account page.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use chrono::Utc;
use serde::Deserialize;
use validator::Validate;

use crate::store::{sessions, users};
use crate::web::auth::{self, SignedIn};
use crate::web::csrf::{self, CsrfForm, NoFields};
use crate::web::page::{redirect, render, render_with_status, safe_next, FormErrors, PageCtx};
use crate::web::state::{with_conn, AppState};
use crate::web::AppError;

// ---------- forms (shared with the API) ----------

#[derive(Debug, Default, Deserialize, Validate, utoipa::ToSchema)]
pub struct RegisterForm {
    #[serde(default)]
    #[validate(email(message = "Enter an email address like name@example.org."))]
    pub email: String,
    /// Shown to other players; defaults to the part of the email before `@`.
    #[serde(default)]
    #[validate(length(max = 60, message = "Keep the display name to 60 characters or fewer."))]
    pub display_name: String,
    #[serde(default)]
    #[validate(length(
        min = 10,
        max = 256,
        message = "Use a password of at least 10 characters (at most 256)."
    ))]
    pub password: String,
}

impl RegisterForm {
    pub fn normalised(mut self) -> Self {
        self.email = self.email.trim().to_string();
        self.display_name = self.display_name.trim().to_string();
        if self.display_name.is_empty() {
            self.display_name = default_display_name(&self.email);
        }
        self
    }
}

/// The part of an email before `@`, the default display name.
pub fn default_display_name(email: &str) -> String {
    email
        .split('@')
        .next()
        .unwrap_or("")
        .trim()
        .chars()
        .take(60)
        .collect()
}

#[derive(Debug, Default, Deserialize, Validate, utoipa::ToSchema)]
pub struct ProfileForm {
    #[serde(default)]
    #[validate(length(
        min = 1,
        max = 60,
        message = "Give a display name of 1 to 60 characters."
    ))]
    pub display_name: String,
}

#[derive(Debug, Default, Deserialize, Validate, utoipa::ToSchema)]
pub struct PasswordForm {
    #[serde(default)]
    pub current_password: String,
    #[serde(default)]
    #[validate(length(
        min = 10,
        max = 256,
        message = "Use a new password of at least 10 characters (at most 256)."
    ))]
    pub new_password: String,
    /// Pages ask for the new password twice; the API may leave this out.
    #[serde(default)]
    pub confirm_password: Option<String>,
}

/// Creates the account; the email-taken case is a field error.
pub async fn create_account(
    state: &web::Data<AppState>,
    address: &str,
    form: RegisterForm,
) -> Result<Result<users::User, FormErrors>, AppError> {
    if let Err(retry_after_secs) = state.throttle.register(address) {
        return Err(AppError::TooManyRequests { retry_after_secs });
    }
    let form = form.normalised();
    if let Err(e) = form.validate() {
        return Ok(Err(FormErrors::from_validation(&e)));
    }
    let hash = web::block(move || auth::hash_password(&form.password).map(|h| (form, h))).await??;
    let (form, hash) = hash;
    with_conn(state, move |conn| {
        match users::create(conn, users::NewUser { email: &form.email, display_name: &form.display_name, password_hash: &hash, is_admin: false }) {
            Ok(user) => Ok(Ok(user)),
            Err(users::CreateUserError::EmailTaken) => {
                let mut errors = FormErrors::default();
                errors.add("email", "An account with this email already exists. Log in instead, or ask an administrator to reset its password.");
                Ok(Err(errors))
            }
            Err(users::CreateUserError::Db(e)) => Err(e.into()),
        }
    })
    .await
}

/// Checks the current password, stores the new one and revokes every session of the user.
pub async fn change_password(
    state: &web::Data<AppState>,
    user_id: i64,
    form: PasswordForm,
) -> Result<Result<(), FormErrors>, AppError> {
    let mut errors = match form.validate() {
        Ok(()) => FormErrors::default(),
        Err(e) => FormErrors::from_validation(&e),
    };
    if form
        .confirm_password
        .as_deref()
        .is_some_and(|c| c != form.new_password)
    {
        errors.add("confirm_password", "The two new passwords differ.");
    }
    if form.current_password.is_empty() {
        errors.add("current_password", "Enter your current password.");
    }
    if !errors.is_empty() {
        return Ok(Err(errors));
    }
    let user = with_conn(state, move |conn| {
        users::find_by_id(conn, user_id)?.ok_or(AppError::LoginRequired)
    })
    .await?;
    // Hashing happens off the connection pool.
    let checked = web::block(move || -> Result<Option<String>, AppError> {
        if !auth::verify_password(&form.current_password, &user.password_hash) {
            return Ok(None);
        }
        auth::hash_password(&form.new_password).map(Some)
    })
    .await??;
    let Some(hash) = checked else {
        let mut errors = FormErrors::default();
        errors.add("current_password", "That is not your current password.");
        return Ok(Err(errors));
    };
    with_conn(state, move |conn| {
        use diesel::Connection;
        conn.transaction(|conn| {
            users::set_password_hash(conn, user_id, &hash)?;
            sessions::revoke_all_for_user(conn, user_id, Utc::now().naive_utc())
        })?;
        Ok(Ok(()))
    })
    .await
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
    match create_account(&state, &address, form).await? {
        Ok(user) => {
            let issued = auth::issue_session(&state, user.id, "browser").await?;
            Ok(HttpResponse::SeeOther()
                .insert_header((actix_web::http::header::LOCATION, "/account?done=welcome"))
                .cookie(auth::session_cookie(&state, &issued.token))
                .cookie(csrf::fresh_nonce_cookie(&state))
                .finish())
        }
        Err(errors) => render_with_status(
            &RegisterPage {
                ctx,
                email,
                display_name,
                errors,
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
}

#[derive(Deserialize)]
pub struct LoginQuery {
    next: Option<String>,
    done: Option<String>,
}

pub async fn login_page(
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
        _ => None,
    };
    render(&LoginPage {
        ctx,
        email: String::new(),
        next,
        error: None,
        notice,
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
            let issued = auth::issue_session(&state, user.id, "browser").await?;
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
        with_conn(&state, move |conn| {
            sessions::revoke(conn, &user.session_id, Utc::now().naive_utc())?;
            Ok(())
        })
        .await?;
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
}

#[derive(Deserialize)]
pub struct DoneQuery {
    done: Option<String>,
}

pub async fn account_page(
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
        _ => None,
    };
    render(&AccountPage {
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
    let form = ProfileForm {
        display_name: form.display_name.trim().to_string(),
    };
    if let Err(e) = form.validate() {
        return render_with_status(
            &AccountPage {
                ctx,
                email: user.email,
                display_name: form.display_name,
                notice: None,
                profile_errors: FormErrors::from_validation(&e),
                password_errors: FormErrors::default(),
            },
            StatusCode::UNPROCESSABLE_ENTITY,
        );
    }
    with_conn(&state, move |conn| {
        users::set_display_name(conn, user.id, &form.display_name)?;
        Ok(())
    })
    .await?;
    Ok(redirect("/account?done=profile"))
}

pub async fn update_password(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    CsrfForm(form): CsrfForm<PasswordForm>,
) -> Result<HttpResponse, AppError> {
    let form = PasswordForm {
        confirm_password: Some(form.confirm_password.unwrap_or_default()),
        ..form
    };
    match change_password(&state, user.id, form).await? {
        Ok(()) => {
            // Every session was revoked; this browser gets a new one so its user stays in.
            let issued = auth::issue_session(&state, user.id, "browser").await?;
            Ok(HttpResponse::SeeOther()
                .insert_header((actix_web::http::header::LOCATION, "/account?done=password"))
                .cookie(auth::session_cookie(&state, &issued.token))
                .cookie(csrf::fresh_nonce_cookie(&state))
                .finish())
        }
        Err(errors) => render_with_status(
            &AccountPage {
                ctx,
                email: user.email,
                display_name: user.display_name,
                notice: None,
                profile_errors: FormErrors::default(),
                password_errors: errors,
            },
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
    }
}
