//! The one application error of the web layer. Handlers return it; the `render_errors`
//! middleware turns it into the HTML error page for pages or the JSON error shape for `/api/`.

use actix_web::http::{header, StatusCode};
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;
use utoipa::ToSchema;

pub use crate::app::ErrorDetail;

/// `Retry-After` of a 503: a busy server usually has room again within seconds.
pub const UNAVAILABLE_RETRY_AFTER_SECS: u64 = 5;

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("{message}")]
    BadRequest {
        message: String,
        details: Vec<ErrorDetail>,
    },
    #[error("{message}")]
    Validation {
        message: String,
        details: Vec<ErrorDetail>,
    },
    #[error("You need to log in to see this page.")]
    LoginRequired,
    #[error("That email and password do not match an active account.")]
    InvalidCredentials,
    #[error("{0}")]
    Forbidden(String),
    #[error("This form has expired or did not come from Muster. Go back, reload the page and try again.")]
    CsrfRejected,
    #[error("There is nothing at this address.")]
    NotFound,
    #[error("This address does not accept that method.")]
    MethodNotAllowed,
    #[error("{0}")]
    Conflict(String),
    #[error("Too many attempts. Try again in {}.", crate::app::error::wait_in_words(*retry_after_secs))]
    TooManyRequests { retry_after_secs: u64 },
    /// 429 in the words of what was asked (a simulation already running, many battles set up).
    #[error("{message}")]
    Busy {
        message: String,
        retry_after_secs: u64,
    },
    #[error("The service is unavailable: {0}")]
    Unavailable(String),
    /// A request body over its limit (413).
    #[error("{0}")]
    PayloadTooLarge(String),
    /// The text is logged, never shown.
    #[error("Something went wrong on our side. It has been logged; please try again.")]
    Internal(String),
}

impl AppError {
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::BadRequest {
            message: message.into(),
            details: Vec::new(),
        }
    }

    pub fn internal(what: impl std::fmt::Display) -> Self {
        Self::Internal(what.to_string())
    }

    /// Stable, machine-readable code of the JSON error shape.
    pub fn code(&self) -> &'static str {
        match self {
            Self::BadRequest { .. } => "bad_request",
            Self::Validation { .. } => "validation_failed",
            Self::LoginRequired => "unauthenticated",
            Self::InvalidCredentials => "invalid_credentials",
            Self::Forbidden(_) => "forbidden",
            Self::CsrfRejected => "csrf_rejected",
            Self::NotFound => "not_found",
            Self::MethodNotAllowed => "method_not_allowed",
            Self::Conflict(_) => "conflict",
            Self::TooManyRequests { .. } | Self::Busy { .. } => "too_many_requests",
            Self::Unavailable(_) => "unavailable",
            Self::PayloadTooLarge(_) => "payload_too_large",
            Self::Internal(_) => "internal",
        }
    }

    /// Seconds to wait before trying again, sent as `Retry-After` (API and pages): a caller
    /// over its limit, or a server too busy for more work now.
    pub fn retry_after(&self) -> Option<u64> {
        match self {
            Self::TooManyRequests { retry_after_secs }
            | Self::Busy {
                retry_after_secs, ..
            } => Some(*retry_after_secs),
            Self::Unavailable(_) => Some(UNAVAILABLE_RETRY_AFTER_SECS),
            _ => None,
        }
    }

    pub fn details(&self) -> &[ErrorDetail] {
        match self {
            Self::BadRequest { details, .. } | Self::Validation { details, .. } => details,
            _ => &[],
        }
    }

    /// The page title of the HTML error page.
    pub fn title(&self) -> &'static str {
        match self.status_code().as_u16() {
            400 | 422 => "That request was not understood",
            401 => "Please log in",
            403 => "Not allowed",
            404 => "Page not found",
            405 => "Not allowed here",
            409 => "Conflict",
            413 => "Too large",
            429 => "Slow down",
            503 => "Unavailable",
            _ => "Something went wrong",
        }
    }

    pub fn json_body(&self) -> ErrorBody {
        ErrorBody {
            error: ErrorPayload {
                code: self.code().to_string(),
                message: self.to_string(),
                details: self.details().to_vec(),
            },
        }
    }
}

/// `{"error": {"code": "...", "message": "...", "details": [...]}}`: every API error.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    pub error: ErrorPayload,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorPayload {
    /// Stable code, e.g. `validation_failed`, `not_found`, `csrf_rejected`.
    pub code: String,
    /// A sentence for people.
    pub message: String,
    pub details: Vec<ErrorDetail>,
}

impl ResponseError for AppError {
    fn status_code(&self) -> StatusCode {
        match self {
            Self::BadRequest { .. } => StatusCode::BAD_REQUEST,
            Self::Validation { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            Self::LoginRequired | Self::InvalidCredentials => StatusCode::UNAUTHORIZED,
            Self::Forbidden(_) | Self::CsrfRejected => StatusCode::FORBIDDEN,
            Self::NotFound => StatusCode::NOT_FOUND,
            Self::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            Self::Conflict(_) => StatusCode::CONFLICT,
            Self::TooManyRequests { .. } | Self::Busy { .. } => StatusCode::TOO_MANY_REQUESTS,
            Self::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            Self::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The JSON shape; `render_errors` swaps in the HTML page for non-API requests.
    fn error_response(&self) -> HttpResponse {
        if let Self::Internal(detail) = self {
            tracing::error!(error = %detail, "internal error");
        }
        let mut res = HttpResponse::build(self.status_code());
        if let Some(secs) = self.retry_after() {
            res.insert_header((header::RETRY_AFTER, secs.to_string()));
        }
        res.json(self.json_body())
    }
}

impl From<crate::app::Error> for AppError {
    fn from(e: crate::app::Error) -> Self {
        use crate::app::Error as E;
        match e {
            E::BadRequest { message, details } => Self::BadRequest { message, details },
            E::Validation { message, details } => Self::Validation { message, details },
            E::InvalidCredentials => Self::InvalidCredentials,
            E::Forbidden(m) => Self::Forbidden(m),
            E::NotFound => Self::NotFound,
            E::Conflict(m) => Self::Conflict(m),
            E::TooManyRequests { retry_after_secs } => Self::TooManyRequests { retry_after_secs },
            E::Busy {
                message,
                retry_after_secs,
            } => Self::Busy {
                message,
                retry_after_secs,
            },
            E::Unavailable(m) => Self::Unavailable(m),
            E::Internal(m) => Self::Internal(m),
        }
    }
}

impl From<actix_web::error::BlockingError> for AppError {
    fn from(e: actix_web::error::BlockingError) -> Self {
        Self::Internal(format!("blocking task: {e}"))
    }
}

impl From<askama::Error> for AppError {
    fn from(e: askama::Error) -> Self {
        Self::Internal(format!("template: {e}"))
    }
}

/// Turns `validator` errors into details, field by field, in a stable order.
pub fn details_from_validation(errors: &validator::ValidationErrors) -> Vec<ErrorDetail> {
    let mut details: Vec<ErrorDetail> = errors
        .field_errors()
        .iter()
        .flat_map(|(field, errs)| {
            errs.iter().map(move |e| ErrorDetail {
                field: Some(field.to_string()),
                message: e
                    .message
                    .as_ref()
                    .map(|m| m.to_string())
                    .unwrap_or_else(|| format!("{field} is not valid")),
            })
        })
        .collect();
    details.sort_by(|a, b| a.field.cmp(&b.field));
    details
}
