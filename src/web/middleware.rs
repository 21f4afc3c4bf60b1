//! Cross-cutting behaviour of every response: the request log, security headers, the limits
//! and hygiene of every request's input, and the choice between the HTML error page and the
//! JSON error shape.

use std::time::Instant;

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderName, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::middleware::Next;
use actix_web::web::{Bytes, BytesMut};
use actix_web::{HttpMessage, HttpResponse, ResponseError};
use askama::Template;
use futures_util::StreamExt;

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

/// Every request body is at most this large: the largest legitimate one, a campaign map or a
/// roster sent as JSON, is far smaller.
pub const MAX_BODY_BYTES: usize = 2 * 1024 * 1024;
/// The roster import form: a file of up to `MAX_IMPORT_BYTES` plus its multipart framing and the
/// token field.
pub const MAX_IMPORT_BODY_BYTES: usize = crate::web::pages::rosters::MAX_IMPORT_BYTES + 64 * 1024;
/// A body over its limit is still read (and thrown away) up to this much, so that the browser
/// that sent it sees the friendly 413 page instead of a reset connection; beyond it the
/// connection is closed.
const DRAIN_BYTES: usize = 16 * 1024 * 1024;

const IMPORT_PATHS: &[&str] = &["/rosters/import", "/api/v1/rosters/import"];

/// Refuses, before any handler runs, what no handler should see:
///
/// - a body larger than its limit (413), or one that does not arrive whole within
///   `MUSTER_BODY_TIMEOUT_SECS` (408, and the connection is closed): a client that trickles a
///   body otherwise holds a connection and a file descriptor for ever;
/// - control characters other than line breaks and tabs in the path, the query string, a form
///   field, a JSON string or an upload (422 naming the field): PostgreSQL cannot store a NUL,
///   and no one means to send the others.
///
/// The body is read here once and handed on to the handler unchanged.
pub async fn guard_input(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    if let Some(problem) = path_or_query_problem(&req) {
        return Ok(req.error_response(problem).map_into_right_body());
    }
    let has_body = req.headers().contains_key(header::CONTENT_LENGTH)
        || req.headers().contains_key(header::TRANSFER_ENCODING);
    if !has_body {
        return Ok(next.call(req).await?.map_into_left_body());
    }
    let deadline = req
        .app_data::<actix_web::web::Data<crate::web::state::AppState>>()
        .map(|s| s.body_timeout)
        .unwrap_or(std::time::Duration::from_secs(
            crate::config::DEFAULT_BODY_TIMEOUT_SECS,
        ));
    let import = IMPORT_PATHS.contains(&req.path());
    let limit = if import {
        MAX_IMPORT_BODY_BYTES
    } else {
        MAX_BODY_BYTES
    };
    let mut payload = req.take_payload();
    let read = async move {
        let mut body = BytesMut::new();
        let mut seen = 0usize;
        while let Some(chunk) = payload.next().await {
            let chunk = chunk.map_err(|_| BodyProblem::Unreadable)?;
            seen += chunk.len();
            if seen > DRAIN_BYTES {
                return Err(BodyProblem::TooLarge { drained: false });
            }
            if seen <= limit {
                body.extend_from_slice(&chunk);
            }
        }
        if seen > limit {
            return Err(BodyProblem::TooLarge { drained: true });
        }
        Ok(body.freeze())
    };
    let body = match actix_web::rt::time::timeout(deadline, read).await {
        Ok(Ok(body)) => body,
        Err(_) => {
            tracing::info!(path = %redact(req.path()), "request body too slow; connection closed");
            let res = HttpResponse::RequestTimeout()
                .force_close()
                .content_type("text/plain; charset=utf-8")
                .body("The request took too long to arrive, so the connection was closed. Please try again.");
            return Ok(req.into_response(res).map_into_right_body());
        }
        Ok(Err(BodyProblem::Unreadable)) => {
            let error = AppError::bad_request("The request body could not be read.");
            return Ok(req.error_response(error).map_into_right_body());
        }
        Ok(Err(BodyProblem::TooLarge { drained })) => {
            let message = if import {
                "The file is larger than 2 MB; a roster is far smaller. Check that you chose the \
                 roster exported from Muster."
            } else {
                "The request is larger than 2 MB, more than any form or API call needs."
            };
            let mut res = req.error_response(AppError::PayloadTooLarge(message.into()));
            if !drained {
                res.response_mut()
                    .head_mut()
                    .set_connection_type(actix_web::http::ConnectionType::Close);
            }
            return Ok(res.map_into_right_body());
        }
    };
    if let Some(problem) = body_problem(&req, &body) {
        return Ok(req.error_response(problem).map_into_right_body());
    }
    req.set_payload(actix_web::dev::Payload::from(body));
    Ok(next.call(req).await?.map_into_left_body())
}

enum BodyProblem {
    Unreadable,
    /// `drained`: the whole body was read, so the connection can stay open.
    TooLarge {
        drained: bool,
    },
}

fn control_error(field: &str) -> AppError {
    AppError::Validation {
        message: "Some fields hold characters Muster does not accept.".into(),
        details: vec![crate::app::ErrorDetail::field(
            field,
            crate::app::input::CONTROL_MESSAGE,
        )],
    }
}

/// Path segments may hold no control character at all; query values are checked like form
/// fields (a tab in `next=` is the login page's to make harmless).
fn path_or_query_problem(req: &ServiceRequest) -> Option<AppError> {
    let decoded = percent_decode(req.path());
    if String::from_utf8_lossy(&decoded)
        .chars()
        .any(char::is_control)
    {
        return Some(control_error("path"));
    }
    let query = req.query_string();
    if query.is_empty() {
        return None;
    }
    // A query that does not parse is the handler's to refuse.
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query).ok()?;
    pairs
        .iter()
        .find(|(k, v)| {
            crate::app::input::has_forbidden_control(k)
                || crate::app::input::has_forbidden_control(v)
        })
        .map(|(k, _)| control_error(k))
}

/// Form fields, JSON strings and uploads may hold line breaks and tabs, no other control
/// character. A body that does not parse is the handler's to refuse.
fn body_problem(req: &ServiceRequest, body: &Bytes) -> Option<AppError> {
    use crate::app::input::{has_forbidden_control, json_control_path};
    let content_type = req.content_type().to_ascii_lowercase();
    if content_type == "application/x-www-form-urlencoded" {
        let pairs: Vec<(String, String)> = serde_urlencoded::from_bytes(body).ok()?;
        return pairs
            .iter()
            .find(|(k, v)| has_forbidden_control(k) || has_forbidden_control(v))
            .map(|(k, _)| control_error(k));
    }
    if content_type == "multipart/form-data" {
        // Uploads are roster documents, which are text: the multipart framing itself uses only
        // CR LF, so any other control byte is in a field. (A JSON document's escaped `\u0000`
        // is caught where the import reads the document.)
        let bad_byte = body
            .iter()
            .any(|&b| (b < 0x20 && !matches!(b, b'\n' | b'\r' | b'\t')) || b == 0x7f);
        return bad_byte.then(|| control_error("file"));
    }
    // JSON (whatever the client called it: the roster import takes a bare body), then text.
    if let Ok(value) = serde_json::from_slice::<serde_json::Value>(body) {
        return json_control_path(&value).map(|path| control_error(&path));
    }
    match std::str::from_utf8(body) {
        Ok(text) if has_forbidden_control(text) => Some(control_error("body")),
        _ => None,
    }
}

fn percent_decode(text: &str) -> Vec<u8> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(hi), Some(lo)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((hi * 16 + lo) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    out
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
        let mut new = app_error.error_response();
        // A 405 names the methods the address does take.
        if let Some(allow) = res.headers().get(header::ALLOW).cloned() {
            new.headers_mut().insert(header::ALLOW, allow);
        }
        return Ok(res.into_response(new));
    }
    if matches!(app_error, AppError::LoginRequired) {
        let next_path = after_login(res.request());
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
        AppError::Busy {
            message,
            retry_after_secs,
        } => AppError::Busy {
            message: message.clone(),
            retry_after_secs: *retry_after_secs,
        },
        AppError::Unavailable(m) => AppError::Unavailable(m.clone()),
        AppError::PayloadTooLarge(m) => AppError::PayloadTooLarge(m.clone()),
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
        413 => AppError::PayloadTooLarge("The request is too large.".into()),
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

/// Where a visitor who must log in first goes afterwards: the page asked for, or, for a form
/// sent while logged out (which cannot be sent again by a redirect), the page the form was on,
/// as the browser names it, else the address one step up (`/battles/5/confirm` → `/battles/5`).
fn after_login(req: &actix_web::HttpRequest) -> String {
    use actix_web::http::Method;
    if matches!(*req.method(), Method::GET | Method::HEAD) {
        return match req.query_string() {
            "" => req.path().to_string(),
            q => format!("{}?{}", req.path(), q),
        };
    }
    let from_referer = req
        .headers()
        .get(header::REFERER)
        .and_then(|r| r.to_str().ok())
        .and_then(|r| {
            // The path of an absolute address of this site (another site's is not followed).
            let rest = r.split_once("://").map_or(r, |(_, rest)| rest);
            let (host, path) = rest.split_once('/')?;
            (host == req.connection_info().host()).then(|| format!("/{path}"))
        });
    from_referer.unwrap_or_else(|| match req.path().trim_end_matches('/').rsplit_once('/') {
        Some((up, _)) if !up.is_empty() => up.to_string(),
        _ => "/".to_string(),
    })
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
