//! What every page template needs (who is signed in, the CSRF token), form errors, and
//! rendering.

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;

use actix_web::http::StatusCode;
use actix_web::{FromRequest, HttpRequest, HttpResponse};
use askama::Template;

use crate::web::auth::csrf;
use crate::web::auth::session::cached_viewer;
use crate::web::auth::{SignedInUser, Viewer};
use crate::web::state::state_of;
use crate::web::{assets, AppError};

/// A page of a system's own, for the navigation.
pub struct Tool {
    /// The system's name, which the navigation groups its tools under.
    pub system: &'static str,
    /// What kind of tool it is, the same word in every system: `odds`, `reference`, `fight`.
    pub kind: &'static str,
    pub label: &'static str,
    pub href: &'static str,
    /// Shown only to signed-in users.
    pub signed_in: bool,
}

/// The rule systems' tools, in navigation order. The server hands them to the pages (as app
/// data) so that the page layer needs nothing from the systems.
pub struct NavTools(pub Vec<&'static Tool>);

fn nav_tools(req: &HttpRequest) -> Vec<&'static Tool> {
    req.app_data::<actix_web::web::Data<NavTools>>()
        .map(|t| t.0.clone())
        .unwrap_or_default()
}

/// The context of the base layout.
pub struct PageCtx {
    pub user: Option<SignedInUser>,
    pub csrf_token: String,
    nav: Vec<&'static Tool>,
    /// The signed-in user's unread notices, for the navigation's badge.
    pub unread: i64,
}

impl PageCtx {
    pub fn css_url(&self) -> String {
        assets::url("muster.css")
    }
    pub fn js_url(&self) -> String {
        assets::url("muster.js")
    }
    pub fn icon_url(&self) -> String {
        assets::url("favicon.svg")
    }
    pub fn version(&self) -> &'static str {
        env!("CARGO_PKG_VERSION")
    }

    /// The inbox link's accessible name: "Inbox, 3 unread".
    pub fn inbox_label(&self) -> String {
        match self.unread {
            0 => "Inbox, nothing unread".to_string(),
            n => format!("Inbox, {n} unread"),
        }
    }

    /// Every system's tool of one kind (`odds`, `reference`, `fight`), in navigation order.
    pub fn tools_of(&self, kind: &str) -> Vec<&'static Tool> {
        self.nav
            .iter()
            .copied()
            .filter(|t| t.kind == kind)
            .collect()
    }

    /// The rule systems' own tools for the navigation: those for everyone, or those for
    /// signed-in users.
    /// The tools a visitor sees (the signed-in ones too when signed in), grouped by system in
    /// navigation order, so that each system's "Odds" reads as its own.
    pub fn tool_groups(&self) -> Vec<(&'static str, Vec<&'static Tool>)> {
        let mut groups: Vec<(&'static str, Vec<&'static Tool>)> = Vec::new();
        for tool in self.nav.iter().copied() {
            if tool.signed_in && self.user.is_none() {
                continue;
            }
            match groups.iter_mut().find(|(system, _)| *system == tool.system) {
                Some((_, tools)) => tools.push(tool),
                None => groups.push((tool.system, vec![tool])),
            }
        }
        groups
    }

    /// For error pages: uses only what the request already resolved, never the database.
    pub fn for_error(req: &HttpRequest) -> Self {
        let csrf_token = state_of(req)
            .map(|s| csrf::current_token(req, &s))
            .unwrap_or_default();
        Self {
            user: cached_viewer(req),
            csrf_token,
            nav: nav_tools(req),
            unread: 0,
        }
    }
}

impl FromRequest for PageCtx {
    type Error = AppError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, AppError>>>>;
    fn from_request(req: &HttpRequest, payload: &mut actix_web::dev::Payload) -> Self::Future {
        let viewer = Viewer::from_request(req, payload);
        let req = req.clone();
        Box::pin(async move {
            let Viewer(user) = viewer.await?;
            let state = state_of(&req)?;
            // One indexed count per page for a signed-in user; a failure costs only the badge.
            let unread = match &user {
                Some(u) => crate::app::notifications::unread_count(&state.app, u.id)
                    .await
                    .unwrap_or_else(|e| {
                        tracing::warn!(error = ?e, "could not count unread notices");
                        0
                    }),
                None => 0,
            };
            Ok(PageCtx {
                user,
                csrf_token: csrf::current_token(&req, &state),
                nav: nav_tools(&req),
                unread,
            })
        })
    }
}

/// One option of a `<select>`: what the form sends and what the user reads.
pub struct SelectOption {
    pub value: String,
    pub label: String,
}

impl SelectOption {
    pub fn selected(&self, current: &str) -> bool {
        self.value == current
    }
}

/// Field messages of a form, shown next to their inputs.
#[derive(Debug, Default)]
pub struct FormErrors {
    fields: BTreeMap<String, Vec<String>>,
    /// Messages about the form as a whole.
    pub general: Vec<String>,
}

impl FormErrors {
    pub fn from_validation(errors: &validator::ValidationErrors) -> Self {
        let mut out = Self::default();
        for detail in crate::web::error::details_from_validation(errors) {
            out.add(detail.field.as_deref().unwrap_or(""), detail.message);
        }
        out
    }
    /// The details of a service's validation error, each beside its field.
    pub fn from_details(details: &[crate::app::ErrorDetail]) -> Self {
        let mut out = Self::default();
        for d in details {
            out.add(d.field.as_deref().unwrap_or(""), d.message.clone());
        }
        out
    }
    pub fn add(&mut self, field: &str, message: impl Into<String>) {
        self.fields
            .entry(field.to_string())
            .or_default()
            .push(message.into());
    }
    pub fn has(&self, field: &str) -> bool {
        self.fields.contains_key(field)
    }
    /// All messages for a field, joined; empty when there are none.
    pub fn of(&self, field: &str) -> String {
        self.fields
            .get(field)
            .map(|m| m.join(" "))
            .unwrap_or_default()
    }
    pub fn is_empty(&self) -> bool {
        self.fields.is_empty() && self.general.is_empty()
    }
}

pub fn render<T: Template>(page: &T) -> Result<HttpResponse, AppError> {
    render_with_status(page, StatusCode::OK)
}

pub fn render_with_status<T: Template>(
    page: &T,
    status: StatusCode,
) -> Result<HttpResponse, AppError> {
    let body = page.render()?;
    Ok(HttpResponse::build(status)
        .content_type("text/html; charset=utf-8")
        .body(body))
}

/// A whole-number form field: empty means `default`; anything else must lie in `range`, and
/// the message says the range (keep it the same as the input's `min` and `max`).
pub fn number_field(
    v: &str,
    default: u32,
    range: std::ops::RangeInclusive<u32>,
    what: &str,
) -> Result<u32, String> {
    match v.trim() {
        "" => Ok(default),
        t => t
            .parse::<u32>()
            .ok()
            .filter(|n| range.contains(n))
            .ok_or_else(|| {
                format!(
                    "{what} must be a whole number from {} to {}.",
                    range.start(),
                    range.end()
                )
            }),
    }
}

/// Text the rules core words to follow a colon ("the defender force had …"), made to stand
/// as a sentence of its own: its first letter in capitals.
pub fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// 303 See Other: where a successful form post sends the browser.
pub fn redirect(to: &str) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header((actix_web::http::header::LOCATION, to))
        .finish()
}

/// Only paths on this site may be a `next` target: `/` followed by anything but a second slash
/// or backslash, with no whitespace or control characters (browsers drop tabs and newlines, so
/// `/\t/evil.example` would become `//evil.example`).
pub fn safe_next(next: Option<&str>) -> String {
    match next {
        Some(n)
            if n.starts_with('/')
                && !n[1..].starts_with(['/', '\\'])
                && !n
                    .chars()
                    .any(|c| c.is_control() || c.is_whitespace() || c == '\\')
                && n.len() <= 2000 =>
        {
            n.to_string()
        }
        _ => "/".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::safe_next;

    #[test]
    fn next_stays_on_this_site() {
        assert_eq!(
            safe_next(Some("/rosters/3/edit?x=1")),
            "/rosters/3/edit?x=1"
        );
        for evil in [
            "//evil.example",
            "/\\evil.example",
            "/\t/evil.example",
            "/ /evil",
            "https://evil.example",
            "evil",
            "/\n/x",
        ] {
            assert_eq!(safe_next(Some(evil)), "/", "{evil:?}");
        }
        assert_eq!(safe_next(None), "/");
    }
}
