//! Cross-cutting behaviour of every response: the request log, security headers, and the
//! choice between the HTML error page and the JSON error shape.

use std::time::Instant;

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderName, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::middleware::Next;
use actix_web::{HttpResponse, ResponseError};
use askama::Template;

use crate::web::page::PageCtx;
use crate::web::AppError;

/// Logs method, path, status and duration of every request (never query strings or bodies,
/// which may hold tokens or passwords).
pub async fn log_request(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let started = Instant::now();
    let method = req.method().to_string();
    let path = redact(req.path());
    let res = next.call(req).await;
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    match &res {
        Ok(r) => {
            tracing::info!(%method, %path, status = r.status().as_u16(), ms = format_args!("{ms:.1}"), "request")
        }
        Err(e) => {
            tracing::warn!(%method, %path, error = %e, ms = format_args!("{ms:.1}"), "request failed")
        }
    }
    res
}

/// Paths whose next segment is a capability (share links, job ids) are logged without it. Each
/// rule system adds its own (`SystemPages::secret_prefixes`).
const SECRET_SEGMENTS: &[&str] = &["/shared/", "/api/v1/jobs/"];

fn redact(path: &str) -> String {
    let systems = crate::web::systems::secret_prefixes();
    for prefix in SECRET_SEGMENTS.iter().copied().chain(systems) {
        if let Some(rest) = path.strip_prefix(prefix) {
            let tail = rest.find('/').map(|i| &rest[i..]).unwrap_or("");
            return format!("{prefix}…{tail}");
        }
    }
    path.to_string()
}

pub const CONTENT_SECURITY_POLICY: &str =
    "default-src 'self'; script-src 'self'; style-src 'self'; \
img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; \
form-action 'self'; frame-ancestors 'none'";

/// Security headers on every response.
pub async fn security_headers(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    // Behind HTTPS (MUSTER_PUBLIC_URL is https://), browsers are told to stay on it.
    let https = req
        .app_data::<actix_web::web::Data<crate::web::state::AppState>>()
        .is_some_and(|s| s.secure_cookies);
    let mut res = next.call(req).await?;
    let headers = res.headers_mut();
    if https {
        headers.insert(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static("max-age=31536000"),
        );
    }
    let set = [
        (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::REFERRER_POLICY, "same-origin"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (
            HeaderName::from_static("cross-origin-opener-policy"),
            "same-origin",
        ),
        (
            HeaderName::from_static("permissions-policy"),
            "camera=(), microphone=(), geolocation=()",
        ),
    ];
    for (name, value) in set {
        headers.insert(name, HeaderValue::from_static(value));
    }
    // Pages show personal data; they must not be cached by shared caches.
    if !headers.contains_key(header::CACHE_CONTROL) {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    Ok(res)
}

#[derive(Template)]
#[template(path = "error.html")]
struct ErrorPage<'a> {
    ctx: PageCtx,
    status: u16,
    title: &'a str,
    message: String,
    details: Vec<String>,
}

/// Gives errors their final form: JSON under `/api/` and `/healthz`, an HTML page elsewhere
/// (or a redirect to the login page when a page needs a signed-in user).
pub async fn render_errors(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let wants_json = req.path().starts_with("/api/") || req.path() == "/healthz";
    let res = next.call(req).await?.map_into_boxed_body();
    let status = res.status();
    if !status.is_client_error() && !status.is_server_error() {
        return Ok(res);
    }
    let app_error = match res.response().error() {
        Some(err) => match err.as_error::<AppError>() {
            Some(_) if wants_json => return Ok(res), // already the JSON shape
            Some(app) => Some(clone_for_render(app)),
            None => Some(from_framework(status, &err.to_string())),
        },
        // A bare status from actix itself, e.g. 405 on a known path.
        None if res.response().body().size().is_eof()
            || status == StatusCode::METHOD_NOT_ALLOWED =>
        {
            Some(from_framework(
                status,
                status.canonical_reason().unwrap_or("Error"),
            ))
        }
        None => None,
    };
    let Some(app_error) = app_error else {
        return Ok(res);
    };
    if wants_json {
        let new = app_error.error_response();
        return Ok(res.into_response(new));
    }
    if matches!(app_error, AppError::LoginRequired) {
        let next_path = match res.request().query_string() {
            "" => res.request().path().to_string(),
            q => format!("{}?{}", res.request().path(), q),
        };
        let location = format!("/login?next={}", urlencode(&next_path));
        let new = HttpResponse::SeeOther()
            .insert_header((header::LOCATION, location))
            .finish();
        return Ok(res.into_response(new));
    }
    // The error page shows the same menu as every other page, so resolve who is asking (not for
    // server errors, which may be the database failing).
    if app_error.status_code().is_client_error() {
        let _ = crate::web::auth::session::viewer_from_cookie(res.request().clone()).await;
    }
    let page = ErrorPage {
        ctx: PageCtx::for_error(res.request()),
        status: app_error.status_code().as_u16(),
        title: app_error.title(),
        message: app_error.to_string(),
        details: app_error
            .details()
            .iter()
            .map(|d| match &d.field {
                Some(f) => format!("{f}: {}", d.message),
                None => d.message.clone(),
            })
            .collect(),
    };
    let mut builder = HttpResponse::build(app_error.status_code());
    if let Some(secs) = app_error.retry_after() {
        builder.insert_header((header::RETRY_AFTER, secs.to_string()));
    }
    let new = match page.render() {
        Ok(html) => builder.content_type("text/html; charset=utf-8").body(html),
        Err(e) => {
            tracing::error!(error = %e, "rendering the error page failed");
            builder
                .content_type("text/plain; charset=utf-8")
                .body(app_error.to_string())
        }
    };
    Ok(res.into_response(new))
}

fn clone_for_render(e: &AppError) -> AppError {
    match e {
        AppError::BadRequest { message, details } => AppError::BadRequest {
            message: message.clone(),
            details: details.clone(),
        },
        AppError::Validation { message, details } => AppError::Validation {
            message: message.clone(),
            details: details.clone(),
        },
        AppError::LoginRequired => AppError::LoginRequired,
        AppError::InvalidCredentials => AppError::InvalidCredentials,
        AppError::Forbidden(m) => AppError::Forbidden(m.clone()),
        AppError::CsrfRejected => AppError::CsrfRejected,
        AppError::NotFound => AppError::NotFound,
        AppError::MethodNotAllowed => AppError::MethodNotAllowed,
        AppError::Conflict(m) => AppError::Conflict(m.clone()),
        AppError::TooManyRequests { retry_after_secs } => AppError::TooManyRequests {
            retry_after_secs: *retry_after_secs,
        },
        AppError::Unavailable(m) => AppError::Unavailable(m.clone()),
        // Already logged when it was first turned into a response.
        AppError::Internal(_) => AppError::Internal(String::new()),
    }
}

/// Errors raised by actix itself (bad paths, payload limits, wrong methods).
fn from_framework(status: StatusCode, message: &str) -> AppError {
    match status.as_u16() {
        404 => AppError::NotFound,
        401 => AppError::LoginRequired,
        403 => AppError::Forbidden(message.to_string()),
        405 => AppError::MethodNotAllowed,
        413 => AppError::bad_request("The request is too large."),
        400..=499 => AppError::bad_request(message.to_string()),
        _ => AppError::Internal(message.to_string()),
    }
}

fn urlencode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b'/' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn capability_segments_are_not_logged() {
        assert_eq!(
            super::redact("/shared/abcDEF123/print/cards"),
            "/shared/…/print/cards"
        );
        assert_eq!(super::redact("/api/v1/jobs/xyz"), "/api/v1/jobs/…");
        for prefix in crate::web::systems::secret_prefixes() {
            assert_eq!(
                super::redact(&format!("{prefix}xyz")),
                format!("{prefix}…"),
                "a system's own secret paths"
            );
        }
        assert_eq!(super::redact("/rosters/3/edit"), "/rosters/3/edit");
    }
}
