//! The application layer's one error. Services return it; the web layer turns it into an HTML
//! page or the JSON error shape (`web::AppError: From<app::Error>`), the CLI into a message.

use serde::Serialize;

/// One problem with a request, e.g. a field that failed validation.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema, PartialEq, Eq)]
pub struct ErrorDetail {
    /// The field or location the problem concerns, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    pub message: String,
}

impl ErrorDetail {
    pub fn field(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            field: Some(field.into()),
            message: message.into(),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The request cannot be read at all (a missing choice, an unknown format).
    #[error("{message}")]
    BadRequest {
        message: String,
        details: Vec<ErrorDetail>,
    },
    /// The request was read but some of its values are not acceptable.
    #[error("{message}")]
    Validation {
        message: String,
        details: Vec<ErrorDetail>,
    },
    #[error("That email and password do not match an active account.")]
    InvalidCredentials,
    #[error("{0}")]
    Forbidden(String),
    /// Missing, or not the actor's to see: both answer the same, so ids leak nothing.
    #[error("There is nothing at this address.")]
    NotFound,
    /// The state does not allow it now (already decided, changed since it was read).
    #[error("{0}")]
    Conflict(String),
    #[error("Too many attempts. Try again in {}.", crate::app::error::wait_in_words(*retry_after_secs))]
    TooManyRequests { retry_after_secs: u64 },
    /// The caller has as much running or asked for as it may for now (429), said in the words
    /// of what was asked.
    #[error("{message}")]
    Busy {
        message: String,
        retry_after_secs: u64,
    },
    #[error("The service is unavailable: {0}")]
    Unavailable(String),
    /// The text is logged, never shown.
    #[error("Something went wrong on our side. It has been logged; please try again.")]
    Internal(String),
}

impl Error {
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::BadRequest {
            message: message.into(),
            details: Vec::new(),
        }
    }

    pub fn internal(what: impl std::fmt::Display) -> Self {
        Self::Internal(what.to_string())
    }

    /// A validation error about one field.
    pub fn invalid(summary: &str, field: &str, message: &str) -> Self {
        Self::Validation {
            message: summary.into(),
            details: vec![ErrorDetail::field(field, message)],
        }
    }

    fn busy() -> Self {
        Self::Unavailable("the database is busy; try again in a moment".into())
    }
}

/// Every problem of a form at once, each beside its field.
impl From<Vec<crate::rules::campaign::error::FieldProblem>> for Error {
    fn from(problems: Vec<crate::rules::campaign::error::FieldProblem>) -> Self {
        Self::Validation {
            message: "Some fields need attention.".into(),
            details: problems
                .into_iter()
                .map(|p| ErrorDetail::field(p.field, p.message))
                .collect(),
        }
    }
}

impl From<diesel::result::Error> for Error {
    fn from(e: diesel::result::Error) -> Self {
        match e {
            diesel::result::Error::NotFound => Self::NotFound,
            // SQLite's busy timeout ran out: a passing overload, not a bug.
            other if other.to_string().contains("database is locked") => Self::busy(),
            // PostgreSQL cannot store a NUL. The web layer refuses them on the way in; this
            // catches any way in it missed, as a field error instead of a server error.
            other if refuses_nul(&other.to_string()) => Self::Validation {
                message: "Some text holds a NUL character, which cannot be stored.".into(),
                details: vec![ErrorDetail {
                    field: None,
                    message: crate::app::input::CONTROL_MESSAGE.into(),
                }],
            },
            other => Self::Internal(format!("database: {other}")),
        }
    }
}

/// PostgreSQL's refusals of a NUL in text (`invalid byte sequence ... 0x00`) and in JSON
/// (`unsupported Unicode escape sequence`, for `\u0000`).
fn refuses_nul(message: &str) -> bool {
    (message.contains("invalid byte sequence") && message.contains("0x00"))
        || message.contains("unsupported Unicode escape sequence")
}

impl From<crate::store::StoreError> for Error {
    fn from(e: crate::store::StoreError) -> Self {
        match e {
            crate::store::StoreError::Query(q) => q.into(),
            crate::store::StoreError::Pool(p) => {
                tracing::warn!(error = %p, "no database connection");
                Self::busy()
            }
            other => Self::Internal(other.to_string()),
        }
    }
}

impl From<diesel::r2d2::PoolError> for Error {
    fn from(e: diesel::r2d2::PoolError) -> Self {
        tracing::warn!(error = %e, "no database connection");
        Self::busy()
    }
}

impl From<crate::rules::campaign::CampaignError> for Error {
    fn from(e: crate::rules::campaign::CampaignError) -> Self {
        use crate::rules::campaign::CampaignError;
        match e {
            CampaignError::BadEntry { .. } => Self::internal(e),
            CampaignError::NotFound(_) => Self::NotFound,
            CampaignError::Refused(message) => Self::Conflict(message),
            CampaignError::Invalid(message) => Self::Validation {
                message: message.clone(),
                details: vec![ErrorDetail {
                    field: None,
                    message,
                }],
            },
            CampaignError::Field(p) => Self::Validation {
                message: "Some fields need attention.".into(),
                details: vec![ErrorDetail::field(p.field, p.message)],
            },
            other => Self::bad_request(other.to_string()),
        }
    }
}

/// A wait in the words a person reads ("about 15 minutes"), not a count of seconds (issue 18).
pub fn wait_in_words(secs: u64) -> String {
    match secs {
        0..=1 => "a moment".into(),
        2..=59 => format!("{secs} seconds"),
        60..=89 => "a minute".into(),
        90..=3_569 => format!("about {} minutes", (secs + 30) / 60),
        3_570..=5_399 => "about an hour".into(),
        _ => format!("about {} hours", (secs + 1_800) / 3_600),
    }
}

#[cfg(test)]
mod wait_tests {
    use super::wait_in_words;

    #[test]
    fn waits_read_in_minutes_and_hours() {
        assert_eq!(wait_in_words(1), "a moment");
        assert_eq!(wait_in_words(30), "30 seconds");
        assert_eq!(wait_in_words(75), "a minute");
        assert_eq!(wait_in_words(894), "about 15 minutes");
        assert_eq!(wait_in_words(3_258), "about 54 minutes");
        assert_eq!(wait_in_words(3_600), "about an hour");
        assert_eq!(wait_in_words(7_300), "about 2 hours");
    }
}
