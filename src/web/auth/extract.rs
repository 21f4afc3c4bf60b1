//! The extractors that say who is asking: a page's viewer from the session cookie, a page or
//! API caller that must be signed in, and administrators.

use std::future::Future;
use std::pin::Pin;

use actix_web::{FromRequest, HttpRequest};

use super::session::{
    remember_viewer, resolve_token, viewer_from_cookie, SignedInUser, SESSION_COOKIE,
};
use crate::app::accounts::SessionKind;
use crate::web::state::state_of;
use crate::web::AppError;

/// The signed-in user from the session cookie, if any (pages).
pub struct Viewer(pub Option<SignedInUser>);

type LocalFuture<T> = Pin<Box<dyn Future<Output = Result<T, AppError>>>>;

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
                let user = resolve_token(&state, &token, SessionKind::Api)
                    .await?
                    .ok_or(AppError::LoginRequired)?;
                remember_viewer(&req, Some(user.clone()));
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
                    .is_some_and(|token| super::csrf::token_matches(&req, &state, token));
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
