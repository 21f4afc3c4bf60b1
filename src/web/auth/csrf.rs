//! CSRF protection. Every visitor gets a random nonce in an HttpOnly cookie; the token that
//! forms carry (and the API's `X-CSRF-Token` header) is an HMAC of that nonce under a server
//! key. Logging in or out gives a fresh nonce, so each session has its own token. A site that
//! cannot read our pages cannot learn the token.

use std::future::Future;
use std::pin::Pin;

use actix_web::body::MessageBody;
use actix_web::cookie::{Cookie, SameSite};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::{web, FromRequest, HttpMessage, HttpRequest};
use base64::Engine;
use hmac::Mac;
use serde::de::DeserializeOwned;

use crate::app::dice::random_token;
use crate::web::state::state_of;
use crate::web::state::AppState;
use crate::web::AppError;

pub const CSRF_COOKIE: &str = "muster_csrf";
pub const CSRF_FIELD: &str = "csrf_token";

#[derive(Clone)]
struct CsrfNonce(String);

fn looks_like_nonce(value: &str) -> bool {
    (32..=64).contains(&value.len())
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

pub fn nonce_cookie(state: &AppState, nonce: String) -> Cookie<'static> {
    Cookie::build(CSRF_COOKIE, nonce)
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(state.secure_cookies)
        .finish()
}

/// A new nonce cookie, set on login and logout.
pub fn fresh_nonce_cookie(state: &AppState) -> Cookie<'static> {
    nonce_cookie(state, random_token(32))
}

/// Middleware: makes sure the request has a nonce and the browser keeps it.
pub async fn ensure_nonce(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    if req.path().starts_with("/static/") {
        return Ok(next.call(req).await?.map_into_left_body());
    }
    let existing = req
        .cookie(CSRF_COOKIE)
        .map(|c| c.value().to_string())
        .filter(|v| looks_like_nonce(v));
    let (nonce, is_new) = match existing {
        Some(n) => (n, false),
        None => (random_token(32), true),
    };
    req.extensions_mut().insert(CsrfNonce(nonce.clone()));
    let state = req.app_data::<web::Data<AppState>>().cloned();
    let mut res = next.call(req).await?;
    if is_new {
        if let Some(state) = state {
            let _ = res.response_mut().add_cookie(&nonce_cookie(&state, nonce));
        }
    }
    Ok(res.map_into_right_body())
}

/// The token binds the browser's nonce to its login session (if any), so a token planted by
/// someone who can set cookies for the site is worthless once the victim is logged in.
fn mac_for(state: &AppState, nonce: &str, session: &str) -> hmac::Hmac<sha2::Sha256> {
    let mut mac = state.keys.csrf_mac();
    mac.update(nonce.as_bytes());
    mac.update(b"|");
    mac.update(session.as_bytes());
    mac
}

fn session_of(req: &HttpRequest) -> String {
    super::session::cached_viewer(req)
        .map(|u| u.session_id)
        .unwrap_or_default()
}

fn token_for(state: &AppState, nonce: &str, session: &str) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD
        .encode(mac_for(state, nonce, session).finalize().into_bytes())
}

/// The token to put into this request's forms. The viewer must have been resolved already
/// (the `PageCtx` extractor does that).
pub fn current_token(req: &HttpRequest, state: &AppState) -> String {
    let nonce = req.extensions().get::<CsrfNonce>().cloned();
    match nonce {
        Some(nonce) => token_for(state, &nonce.0, &session_of(req)),
        None => String::new(),
    }
}

/// Compares in constant time.
pub fn token_matches(req: &HttpRequest, state: &AppState, token: &str) -> bool {
    let Some(nonce) = req.extensions().get::<CsrfNonce>().cloned() else {
        return false;
    };
    let Ok(given) = base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(token.trim()) else {
        return false;
    };
    mac_for(state, &nonce.0, &session_of(req))
        .verify_slice(&given)
        .is_ok()
}

/// A url-encoded form whose `csrf_token` field has been checked. Any form that changes state
/// is read through this extractor; a missing or wrong token is a 403.
pub struct CsrfForm<T>(pub T);

impl<T: DeserializeOwned + 'static> FromRequest for CsrfForm<T> {
    type Error = AppError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, AppError>>>>;

    fn from_request(req: &HttpRequest, payload: &mut actix_web::dev::Payload) -> Self::Future {
        let body = web::Bytes::from_request(req, payload);
        let req = req.clone();
        Box::pin(async move {
            // The token depends on the login session, so find out who is asking first.
            super::session::viewer_from_cookie(req.clone()).await?;
            let bytes = body
                .await
                .map_err(|e| AppError::bad_request(format!("The form could not be read: {e}")))?;
            let pairs: Vec<(String, String)> = serde_urlencoded::from_bytes(&bytes)
                .map_err(|_| AppError::bad_request("The form could not be read."))?;
            let token = pairs
                .iter()
                .find(|(k, _)| k == CSRF_FIELD)
                .map(|(_, v)| v.as_str())
                .unwrap_or("");
            let state = state_of(&req)?;
            if !token_matches(&req, &state, token) {
                return Err(AppError::CsrfRejected);
            }
            serde_urlencoded::from_bytes::<T>(&bytes)
                .map(CsrfForm)
                .map_err(|e| AppError::bad_request(format!("The form could not be read: {e}")))
        })
    }
}

/// For forms that carry nothing but the token (log out, disable a user).
#[derive(serde::Deserialize)]
pub struct NoFields {}
