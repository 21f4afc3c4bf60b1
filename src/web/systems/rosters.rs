//! Rosters and print: what a rule system gives the generic roster pages (`/rosters/...`,
//! `/shared/...`, `/api/v1/rosters/...`). They load the stored row, find its system and hand the
//! system's part to these hooks.
//!
//! The hooks are a supertrait of `SystemPages` in their own module because they take the page
//! context and forms of `web::page`, which imports `web::systems` for the navigation.

use actix_web::HttpResponse;
use futures_util::future::LocalBoxFuture;

use crate::rules::systems::AnyRoster;
use crate::store::rosters::RosterRow;
use crate::web::error::ErrorDetail;
use crate::web::page::{FormErrors, PageCtx, SelectOption};
use crate::web::state::AppState;
use crate::web::AppError;

/// A rule system's roster pages and printouts. A form arrives as its `(name, value)` pairs, its
/// CSRF token already checked.
pub trait RosterPages {
    /// The roster list's names for a stored roster's war and nation.
    fn roster_line(&self, state: &AppState, war: &str, nation: &str) -> RosterLine;
    /// The wars the roster list can filter by (their ids are the rows' `war` column).
    fn war_choices(&self, state: &AppState) -> Vec<SelectOption>;
    /// The system's fields of the new-roster form on the roster list, as HTML.
    fn new_roster_fields(
        &self,
        state: &AppState,
        form: &[(String, String)],
        errors: &FormErrors,
    ) -> Result<String, AppError>;
    /// Makes and stores a roster from the new-roster form; a form with mistakes gets them back.
    fn create_roster<'a>(
        &'a self,
        state: &'a AppState,
        owner: i64,
        form: &'a [(String, String)],
    ) -> LocalBoxFuture<'a, Result<Result<RosterRow, FormErrors>, AppError>>;
    /// `/rosters/new`: the system's other ways to start a roster (`query` is the query string).
    fn start_page(
        &self,
        state: &AppState,
        ctx: PageCtx,
        query: &[(String, String)],
    ) -> Result<HttpResponse, AppError>;
    /// `/rosters/new/{how}` posted: starts a roster that way (an unknown way is "not found").
    fn start_roster<'a>(
        &'a self,
        state: &'a AppState,
        ctx: PageCtx,
        owner: i64,
        how: &'a str,
        form: &'a [(String, String)],
    ) -> LocalBoxFuture<'a, Result<HttpResponse, AppError>>;
    /// The roster editor: the page, or a change posted to it.
    fn editor<'a>(
        &'a self,
        state: &'a AppState,
        ctx: PageCtx,
        row: &'a RosterRow,
        request: EditRequest<'a>,
    ) -> LocalBoxFuture<'a, Result<HttpResponse, AppError>>;
    /// The system's parts of a roster's page, placed in the generic frame.
    fn roster_body(
        &self,
        state: &AppState,
        row: &RosterRow,
        updated: &str,
    ) -> Result<RosterBody, AppError>;
    /// The roster as plain text, for forums and e-mail.
    fn roster_text(&self, state: &AppState, row: &RosterRow) -> Result<String, AppError>;
    /// Reads a document (an import or an API body) as a roster of this system.
    fn read_roster(&self, text: &str) -> Result<AnyRoster, ReadProblem>;
    /// The API's `document` and `report` of a stored roster, in that order.
    fn roster_json(
        &self,
        state: &AppState,
        row: &RosterRow,
    ) -> Result<(serde_json::Value, serde_json::Value), AppError>;
    /// A printout of a roster (`kind`: `cards`, `sheet`; anything else is "not found"), with its
    /// options in `query`; `action` is the printout's own address.
    fn print_roster(
        &self,
        state: &AppState,
        ctx: PageCtx,
        row: &RosterRow,
        kind: &str,
        query: &str,
        action: String,
    ) -> Result<HttpResponse, AppError>;
}

/// A stored roster's war and nation, named for the roster list.
pub struct RosterLine {
    pub war: String,
    pub nation: String,
}

/// What the editor is asked to do.
pub enum EditRequest<'a> {
    /// Show the editor, with the element being edited (or `""`) and a notice.
    Open {
        element: &'a str,
        notice: Option<String>,
    },
    /// Apply a posted change.
    Apply(&'a [(String, String)]),
}

/// A system's parts of a roster's page, each ready HTML except the title.
pub struct RosterBody {
    pub title: String,
    /// Above the owner's actions: the name and standing.
    pub head: String,
    /// Below the actions: the force itself.
    pub body: String,
    /// In the page's footer.
    pub footer: String,
}

/// Why a text is not a roster: for the import page (message and place) and the API (its error).
pub struct ReadProblem {
    /// The text is not JSON at all (400), rather than JSON that is not a roster (422).
    pub broken_json: bool,
    /// The API error's message.
    pub summary: String,
    pub message: String,
    /// Where in the document, e.g. `groups[0].elements[1].size`.
    pub path: Option<String>,
    /// Line and column in the text; 0 when unknown.
    pub line: usize,
    pub column: usize,
}

impl ReadProblem {
    /// Where the problem is, in words ("path (line 3, column 7)").
    pub fn location(&self) -> String {
        let position = if self.line > 0 {
            format!("line {}, column {}", self.line, self.column)
        } else {
            String::new()
        };
        match (&self.path, position.is_empty()) {
            (Some(path), false) => format!("{path} ({position})"),
            (Some(path), true) => path.clone(),
            (None, _) => position,
        }
    }

    /// The API's error: 400 with the position for broken JSON, 422 naming the field for JSON
    /// that is not a roster. `prefix` is where the document sits in the body (`document.`).
    pub fn api_error(self, prefix: &str) -> AppError {
        let field = self
            .path
            .map(|p| format!("{prefix}{p}"))
            .or_else(|| (!prefix.is_empty()).then(|| prefix.to_string()));
        if self.broken_json {
            AppError::BadRequest {
                message: self.summary,
                details: vec![ErrorDetail {
                    field,
                    message: self.message,
                }],
            }
        } else {
            AppError::Validation {
                message: self.summary,
                details: vec![ErrorDetail {
                    field,
                    message: format!(
                        "{} (line {}, column {})",
                        self.message, self.line, self.column
                    ),
                }],
            }
        }
    }
}

/// The roster hooks of a system whose web folder has a `rosters` module with the usual handlers
/// (`roster_line`, `war_choices`, `new_roster_fields`, `create_roster`, `start_page`,
/// `start_roster`, `open_editor`, `apply_edit`, `roster_body`, `roster_text`, `read_roster`,
/// `roster_json`) and `print::print_roster`: one line in the system's `mod.rs` instead of the
/// same hundred lines of hand-over in each. Expanded where the names it uses are imported.
macro_rules! roster_pages_by_modules {
    ($pages:ty) => {
        impl RosterPages for $pages {
            fn roster_line(&self, state: &AppState, war: &str, nation: &str) -> RosterLine {
                rosters::roster_line(state, war, nation)
            }

            fn war_choices(&self, state: &AppState) -> Vec<SelectOption> {
                rosters::war_choices(state)
            }

            fn new_roster_fields(
                &self,
                state: &AppState,
                form: &[(String, String)],
                errors: &FormErrors,
            ) -> Result<String, AppError> {
                rosters::new_roster_fields(state, form, errors)
            }

            fn create_roster<'a>(
                &'a self,
                state: &'a AppState,
                owner: i64,
                form: &'a [(String, String)],
            ) -> LocalBoxFuture<'a, Result<Result<RosterRow, FormErrors>, AppError>> {
                Box::pin(rosters::create_roster(state, owner, form))
            }

            fn start_page(
                &self,
                state: &AppState,
                ctx: PageCtx,
                query: &[(String, String)],
            ) -> Result<HttpResponse, AppError> {
                rosters::start_page(state, ctx, query)
            }

            fn start_roster<'a>(
                &'a self,
                state: &'a AppState,
                ctx: PageCtx,
                owner: i64,
                how: &'a str,
                form: &'a [(String, String)],
            ) -> LocalBoxFuture<'a, Result<HttpResponse, AppError>> {
                Box::pin(rosters::start_roster(state, ctx, owner, how, form))
            }

            fn editor<'a>(
                &'a self,
                state: &'a AppState,
                ctx: PageCtx,
                row: &'a RosterRow,
                request: EditRequest<'a>,
            ) -> LocalBoxFuture<'a, Result<HttpResponse, AppError>> {
                match request {
                    EditRequest::Open { element, notice } => Box::pin(std::future::ready(
                        rosters::open_editor(state, ctx, row, element, notice),
                    )),
                    EditRequest::Apply(form) => {
                        Box::pin(rosters::apply_edit(state, ctx, row, form))
                    }
                }
            }

            fn roster_body(
                &self,
                state: &AppState,
                row: &RosterRow,
                updated: &str,
            ) -> Result<RosterBody, AppError> {
                rosters::roster_body(state, row, updated)
            }

            fn roster_text(&self, state: &AppState, row: &RosterRow) -> Result<String, AppError> {
                rosters::roster_text(state, row)
            }

            fn read_roster(&self, text: &str) -> Result<AnyRoster, ReadProblem> {
                rosters::read_roster(text)
            }

            fn roster_json(
                &self,
                state: &AppState,
                row: &RosterRow,
            ) -> Result<(serde_json::Value, serde_json::Value), AppError> {
                rosters::roster_json(state, row)
            }

            fn print_roster(
                &self,
                state: &AppState,
                ctx: PageCtx,
                row: &RosterRow,
                kind: &str,
                query: &str,
                action: String,
            ) -> Result<HttpResponse, AppError> {
                print::print_roster(state, ctx, row, kind, query, action)
            }
        }
    };
}
pub(crate) use roster_pages_by_modules;
