//! Passwords, session tokens and the extractors that say who is asking.
//!
//! A session is a row in `sessions` plus a signed JWT naming it. Pages carry the token in an
//! HttpOnly, SameSite=Lax cookie; the API takes it as a bearer token, or the cookie together
//! with an `X-CSRF-Token` header. Logging out revokes the session; changing or resetting the
//! password revokes all of the user's sessions.

use std::future::Future;
use std::pin::Pin;
use std::sync::OnceLock;

use actix_web::cookie::{time::Duration as CookieDuration, Cookie, SameSite};
use actix_web::{web, FromRequest, HttpMessage, HttpRequest};
use argon2::password_hash::{
    rand_core::OsRng, PasswordHash, PasswordHasher, PasswordVerifier, SaltString,
};
use argon2::Argon2;
use chrono::{NaiveDateTime, Utc};
use jsonwebtoken::{Algorithm, Header, Validation};
use serde::{Deserialize, Serialize};

use crate::app::dice::random_token;
use crate::store::{sessions, users};
use crate::web::state::{with_conn, AppState};
use crate::web::AppError;

pub const SESSION_COOKIE: &str = "muster_session";
pub const BROWSER_SESSION_DAYS: i64 = 14;
pub const API_TOKEN_DAYS: i64 = 30;
pub const MIN_PASSWORD_CHARS: u64 = 10;

/// The signed-in user as handlers see it.
#[derive(Debug, Clone, Serialize)]
pub struct SignedInUser {
    pub id: i64,
    pub email: String,
    pub display_name: String,
    pub is_admin: bool,
    #[serde(skip)]
    pub session_id: String,
}

impl SignedInUser {
    /// The user as the application layer knows an actor.
    pub fn actor(&self) -> crate::app::Actor {
        crate::app::Actor {
            id: self.id,
            name: self.display_name.clone(),
            admin: self.is_admin,
        }
    }
}

#[derive(Debug, Serialize, Deserialize)]
struct Claims {
    /// User id.
    sub: String,
    /// Session id: the row that can be revoked.
    sid: String,
    iat: i64,
    exp: i64,
}

// ---------- passwords ----------

/// At most this many password hashes run at once (each takes ~19 MiB and a core for tens of
/// milliseconds); the rest wait, so a flood of logins or registrations cannot exhaust memory.
const MAX_PARALLEL_HASHES: usize = 4;

struct HashGate {
    running: std::sync::Mutex<usize>,
    freed: std::sync::Condvar,
}

static HASH_GATE: HashGate = HashGate {
    running: std::sync::Mutex::new(0),
    freed: std::sync::Condvar::new(),
};

/// Runs `f` when a hashing slot is free. Call from blocking threads only.
fn gated<T>(f: impl FnOnce() -> T) -> T {
    {
        let mut running = HASH_GATE.running.lock().unwrap_or_else(|p| p.into_inner());
        while *running >= MAX_PARALLEL_HASHES {
            running = HASH_GATE
                .freed
                .wait(running)
                .unwrap_or_else(|p| p.into_inner());
        }
        *running += 1;
    }
    let out = f();
    *HASH_GATE.running.lock().unwrap_or_else(|p| p.into_inner()) -= 1;
    HASH_GATE.freed.notify_one();
    out
}

pub fn hash_password(password: &str) -> Result<String, AppError> {
    gated(|| hash_password_now(password))
}

fn hash_password_now(password: &str) -> Result<String, AppError> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| AppError::internal(format!("hashing a password: {e}")))
}

pub fn verify_password(password: &str, hash: &str) -> bool {
    gated(|| verify_password_now(password, hash))
}

fn verify_password_now(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash)
        .map(|parsed| {
            Argon2::default()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok()
        })
        .unwrap_or(false)
}

/// A hash to verify against when the email is unknown, so both cases take the same time.
fn dummy_hash() -> &'static str {
    static HASH: OnceLock<String> = OnceLock::new();
    HASH.get_or_init(|| hash_password_now("muster-timing-equaliser").unwrap_or_default())
}

// ---------- sessions ----------

pub struct IssuedToken {
    pub token: String,
    pub expires_at: NaiveDateTime,
}

/// Creates a session row and signs a token for it.
pub async fn issue_session(
    state: &web::Data<AppState>,
    user_id: i64,
    kind: &'static str,
) -> Result<IssuedToken, AppError> {
    let now = Utc::now().naive_utc();
    let days = if kind == "api" {
        API_TOKEN_DAYS
    } else {
        BROWSER_SESSION_DAYS
    };
    let expires_at = now + chrono::Duration::days(days);
    let session = sessions::Session {
        id: random_token(18),
        user_id,
        kind: kind.to_string(),
        created_at: now,
        expires_at,
        revoked_at: None,
    };
    let claims = Claims {
        sub: user_id.to_string(),
        sid: session.id.clone(),
        iat: now.and_utc().timestamp(),
        exp: expires_at.and_utc().timestamp(),
    };
    let token = jsonwebtoken::encode(
        &Header::new(Algorithm::HS256),
        &claims,
        &state.keys.jwt_encoding,
    )
    .map_err(|e| AppError::internal(format!("signing a token: {e}")))?;
    with_conn(state, move |conn| {
        sessions::delete_stale(conn, now)?;
        sessions::create(conn, &session)?;
        Ok(())
    })
    .await?;
    Ok(IssuedToken { token, expires_at })
}

/// The user behind a token, if its signature, expiry and session row all hold.
pub async fn resolve_token(
    state: &web::Data<AppState>,
    token: &str,
    kind: &'static str,
) -> Result<Option<SignedInUser>, AppError> {
    let mut validation = Validation::new(Algorithm::HS256);
    validation.leeway = 0;
    validation.set_required_spec_claims(&["exp", "sub"]);
    let claims = match jsonwebtoken::decode::<Claims>(token, &state.keys.jwt_decoding, &validation)
    {
        Ok(data) => data.claims,
        Err(_) => return Ok(None),
    };
    let sid = claims.sid;
    let found = with_conn(state, move |conn| {
        Ok(sessions::find_active(conn, &sid, Utc::now().naive_utc())?)
    })
    .await?;
    // A browser session works only as the cookie, an API token only as a bearer token.
    Ok(found
        .filter(|(session, _)| session.kind == kind)
        .and_then(|(session, user)| {
            (user.id.to_string() == claims.sub).then_some(SignedInUser {
                id: user.id,
                email: user.email,
                display_name: user.display_name,
                is_admin: user.is_admin,
                session_id: session.id,
            })
        }))
}

pub fn session_cookie(state: &AppState, token: &str) -> Cookie<'static> {
    Cookie::build(SESSION_COOKIE, token.to_string())
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(state.secure_cookies)
        .max_age(CookieDuration::days(BROWSER_SESSION_DAYS))
        .finish()
}

pub fn clear_session_cookie(state: &AppState) -> Cookie<'static> {
    let mut c = Cookie::build(SESSION_COOKIE, "")
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(state.secure_cookies)
        .finish();
    c.make_removal();
    c
}

// ---------- login ----------

/// The address to throttle by: the peer, or the last `X-Forwarded-For` hop when the peer is
/// the trusted proxy.
pub fn client_address(req: &HttpRequest, state: &AppState) -> String {
    let peer = req.peer_addr().map(|a| a.ip());
    if let (Some(peer), Some(proxy)) = (peer, state.trusted_proxy) {
        if peer == proxy {
            if let Some(forwarded) = req
                .headers()
                .get("x-forwarded-for")
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.rsplit(',').next())
                .and_then(|ip| ip.trim().parse::<std::net::IpAddr>().ok())
            {
                return forwarded.to_string();
            }
        }
    }
    peer.map(|p| p.to_string())
        .unwrap_or_else(|| "unknown".into())
}

/// Checks an email and password, with throttling. Every failure gives the same answer,
/// whether or not the email exists or the account is disabled.
pub async fn authenticate(
    state: &web::Data<AppState>,
    address: &str,
    email: &str,
    password: &str,
) -> Result<users::User, AppError> {
    if email.len() > 254 || password.len() > 1024 {
        return Err(AppError::InvalidCredentials);
    }
    if let Err(retry_after_secs) = state.throttle.attempt(email, address) {
        return Err(AppError::TooManyRequests { retry_after_secs });
    }
    let email_owned = email.to_string();
    let found = with_conn(state, move |conn| {
        Ok(users::find_by_email(conn, &email_owned)?)
    })
    .await?;
    // The hash is checked after the connection went back to the pool.
    let password_owned = password.to_string();
    let user = web::block(move || {
        let hash = found
            .as_ref()
            .map(|u| u.password_hash.as_str())
            .unwrap_or(dummy_hash());
        let ok = verify_password(&password_owned, hash);
        found.filter(|u| ok && !u.disabled)
    })
    .await?;
    match user {
        Some(user) => {
            state.throttle.record_success(email);
            Ok(user)
        }
        // The failure was counted when the attempt was reserved.
        None => Err(AppError::InvalidCredentials),
    }
}

// ---------- extractors ----------

/// Cached per request so the session is looked up once.
#[derive(Clone)]
struct ResolvedViewer(Option<SignedInUser>);

/// The signed-in user from the session cookie, if any (pages).
pub struct Viewer(pub Option<SignedInUser>);

pub(crate) fn cached_viewer(req: &HttpRequest) -> Option<SignedInUser> {
    req.extensions()
        .get::<ResolvedViewer>()
        .and_then(|v| v.0.clone())
}

type LocalFuture<T> = Pin<Box<dyn Future<Output = Result<T, AppError>>>>;

pub(crate) fn state_of(req: &HttpRequest) -> Result<web::Data<AppState>, AppError> {
    req.app_data::<web::Data<AppState>>()
        .cloned()
        .ok_or_else(|| AppError::internal("application state missing"))
}

pub(crate) async fn viewer_from_cookie(req: HttpRequest) -> Result<Option<SignedInUser>, AppError> {
    if let Some(cached) = req.extensions().get::<ResolvedViewer>() {
        return Ok(cached.0.clone());
    }
    let state = state_of(&req)?;
    let user = match req.cookie(SESSION_COOKIE) {
        Some(cookie) if !cookie.value().is_empty() => {
            resolve_token(&state, cookie.value(), "browser").await?
        }
        _ => None,
    };
    req.extensions_mut().insert(ResolvedViewer(user.clone()));
    Ok(user)
}

impl FromRequest for Viewer {
    type Error = AppError;
    type Future = LocalFuture<Self>;
    fn from_request(req: &HttpRequest, _: &mut actix_web::dev::Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move { Ok(Viewer(viewer_from_cookie(req).await?)) })
    }
}

/// A page that needs a signed-in user; anonymous visitors are sent to the login page.
pub struct SignedIn(pub SignedInUser);

impl FromRequest for SignedIn {
    type Error = AppError;
    type Future = LocalFuture<Self>;
    fn from_request(req: &HttpRequest, _: &mut actix_web::dev::Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move {
            viewer_from_cookie(req)
                .await?
                .map(SignedIn)
                .ok_or(AppError::LoginRequired)
        })
    }
}

/// A page for administrators only.
pub struct Admin(pub SignedInUser);

impl FromRequest for Admin {
    type Error = AppError;
    type Future = LocalFuture<Self>;
    fn from_request(req: &HttpRequest, _: &mut actix_web::dev::Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move {
            let user = viewer_from_cookie(req)
                .await?
                .ok_or(AppError::LoginRequired)?;
            if user.is_admin {
                Ok(Admin(user))
            } else {
                Err(AppError::Forbidden(
                    "This page is for administrators.".into(),
                ))
            }
        })
    }
}

/// An API caller: a bearer token, or the session cookie with a valid `X-CSRF-Token` header.
pub struct ApiUser(pub SignedInUser);

impl FromRequest for ApiUser {
    type Error = AppError;
    type Future = LocalFuture<Self>;
    fn from_request(req: &HttpRequest, _: &mut actix_web::dev::Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move {
            let state = state_of(&req)?;
            let bearer = req
                .headers()
                .get(actix_web::http::header::AUTHORIZATION)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| {
                    v.strip_prefix("Bearer ")
                        .or_else(|| v.strip_prefix("bearer "))
                })
                .map(|t| t.trim().to_string());
            if let Some(token) = bearer {
                let user = resolve_token(&state, &token, "api")
                    .await?
                    .ok_or(AppError::LoginRequired)?;
                req.extensions_mut()
                    .insert(ResolvedViewer(Some(user.clone())));
                return Ok(ApiUser(user));
            }
            if req
                .cookie(SESSION_COOKIE)
                .is_some_and(|c| !c.value().is_empty())
            {
                // The token is bound to the session: resolve it before checking the header.
                let viewer = viewer_from_cookie(req.clone()).await?;
                let header_ok = req
                    .headers()
                    .get("x-csrf-token")
                    .and_then(|v| v.to_str().ok())
                    .is_some_and(|token| crate::web::csrf::token_matches(&req, &state, token));
                if !header_ok {
                    return Err(AppError::CsrfRejected);
                }
                return viewer.map(ApiUser).ok_or(AppError::LoginRequired);
            }
            Err(AppError::LoginRequired)
        })
    }
}

/// An API caller with the admin role.
pub struct ApiAdmin(pub SignedInUser);

impl FromRequest for ApiAdmin {
    type Error = AppError;
    type Future = LocalFuture<Self>;
    fn from_request(req: &HttpRequest, payload: &mut actix_web::dev::Payload) -> Self::Future {
        let fut = ApiUser::from_request(req, payload);
        Box::pin(async move {
            let ApiUser(user) = fut.await?;
            if user.is_admin {
                Ok(ApiAdmin(user))
            } else {
                Err(AppError::Forbidden("This needs an administrator.".into()))
            }
        })
    }
}
