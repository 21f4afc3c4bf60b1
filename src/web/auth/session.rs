//! Session tokens and cookies. A session is a row (kept by `app::accounts`) plus a signed JWT
//! naming it. Pages carry the token in an HttpOnly, SameSite=Lax cookie; the API takes it as a
//! bearer token.

use actix_web::cookie::{time::Duration as CookieDuration, Cookie, SameSite};
use actix_web::{HttpMessage, HttpRequest};
use jsonwebtoken::{Algorithm, Header, Validation};
use serde::{Deserialize, Serialize};

use crate::app::accounts::{self, SessionKind, BROWSER_SESSION_DAYS};
use crate::store::sessions::Session;
use crate::web::state::{state_of, AppState};
use crate::web::AppError;

pub const SESSION_COOKIE: &str = "muster_session";

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

pub struct IssuedToken {
    pub token: String,
    pub expires_at: chrono::NaiveDateTime,
}

/// Signs a token naming an open session.
pub fn sign(state: &AppState, session: &Session) -> Result<IssuedToken, AppError> {
    let claims = Claims {
        sub: session.user_id.to_string(),
        sid: session.id.clone(),
        iat: session.created_at.and_utc().timestamp(),
        exp: session.expires_at.and_utc().timestamp(),
    };
    let token = jsonwebtoken::encode(
        &Header::new(Algorithm::HS256),
        &claims,
        &state.keys.jwt_encoding,
    )
    .map_err(|e| AppError::internal(format!("signing a token: {e}")))?;
    Ok(IssuedToken {
        token,
        expires_at: session.expires_at,
    })
}

/// Opens a session and signs a token for it.
pub async fn issue_session(
    state: &AppState,
    user_id: i64,
    kind: SessionKind,
) -> Result<IssuedToken, AppError> {
    let session = accounts::open_session(&state.app, user_id, kind).await?;
    sign(state, &session)
}

/// The user behind a token, if its signature, expiry and session row all hold. A browser
/// session works only as the cookie, an API token only as a bearer token.
pub async fn resolve_token(
    state: &AppState,
    token: &str,
    kind: SessionKind,
) -> Result<Option<SignedInUser>, AppError> {
    let mut validation = Validation::new(Algorithm::HS256);
    validation.leeway = 0;
    validation.set_required_spec_claims(&["exp", "sub"]);
    let claims = match jsonwebtoken::decode::<Claims>(token, &state.keys.jwt_decoding, &validation)
    {
        Ok(data) => data.claims,
        Err(_) => return Ok(None),
    };
    let found = accounts::active_session(&state.app, claims.sid, kind).await?;
    Ok(found.and_then(|(session, user)| {
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

/// The viewer of a request, cached so the session is looked up once.
#[derive(Clone)]
struct ResolvedViewer(Option<SignedInUser>);

/// The viewer already resolved for this request, if any.
pub(crate) fn cached_viewer(req: &HttpRequest) -> Option<SignedInUser> {
    req.extensions()
        .get::<ResolvedViewer>()
        .and_then(|v| v.0.clone())
}

pub(crate) fn remember_viewer(req: &HttpRequest, user: Option<SignedInUser>) {
    req.extensions_mut().insert(ResolvedViewer(user));
}

/// The signed-in user from the session cookie, if any; resolved once per request.
pub(crate) async fn viewer_from_cookie(req: HttpRequest) -> Result<Option<SignedInUser>, AppError> {
    if let Some(cached) = req.extensions().get::<ResolvedViewer>() {
        return Ok(cached.0.clone());
    }
    let state = state_of(&req)?;
    let user = match req.cookie(SESSION_COOKIE) {
        Some(cookie) if !cookie.value().is_empty() => {
            resolve_token(&state, cookie.value(), SessionKind::Browser).await?
        }
        _ => None,
    };
    remember_viewer(&req, user.clone());
    Ok(user)
}
