//! One if by Land printouts as pages: the cards and the roster sheet of a roster, and the
//! public quick reference.

use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;

use super::cards::{self, Card};
use super::reference::{self, Reference};
use super::sheet::{self, Sheet};
use super::{ForceState, PrintQuery, CARDS_PER_PAGE};
use crate::app::rosters;
use crate::rules::system::Severity;
use crate::rules::systems::oibl::{self, RosterDoc};
use crate::store::rosters::RosterRow;
use crate::web::page::{render, PageCtx};
use crate::web::state::AppState;
use crate::web::{assets, AppError};

#[derive(Template)]
#[template(path = "systems/oibl/print/cards.html")]
pub struct CardsPage {
    pub ctx: PageCtx,
    pub title: String,
    pub action: String,
    pub paper: &'static str,
    pub each: bool,
    pub side: &'static str,
    pub pages: Vec<Vec<Card>>,
    pub total_cards: usize,
    pub per_page: usize,
    pub version: String,
    pub print_css: String,
    pub paper_css: String,
}

#[derive(Template)]
#[template(path = "systems/oibl/print/sheet.html")]
pub struct SheetPage {
    pub ctx: PageCtx,
    pub action: String,
    pub paper: &'static str,
    pub s: Sheet,
    pub print_css: String,
    pub paper_css: String,
}

#[derive(Template)]
#[template(path = "systems/oibl/reference.html")]
pub struct ReferencePage {
    pub ctx: PageCtx,
    pub paper: &'static str,
    pub r: Reference,
    pub print_css: String,
    pub paper_css: String,
}

/// The findings of a force for its sheet: (is an error, words).
pub fn sheet_findings(cat: &oibl::Catalogue, doc: &RosterDoc) -> Vec<(bool, String)> {
    oibl::validate(cat, doc)
        .findings
        .into_iter()
        .map(|f| (f.severity == Severity::Error, f.message))
        .collect()
}

/// Renders the cards or the sheet (`kind`) of a force; anything else is "not found".
pub fn print_force(
    state: &AppState,
    ctx: PageCtx,
    doc: &RosterDoc,
    force: Option<&ForceState>,
    kind: &str,
    query: &PrintQuery,
    action: String,
) -> Result<HttpResponse, AppError> {
    let cat = &state.app.rules.oibl;
    let paper = query.paper();
    match kind {
        "cards" => {
            let set = cards::build(cat, doc, force, query.one_per_unit());
            let title = match force.and_then(|f| f.label.clone()) {
                Some(label) => format!("{} ({label})", doc.name),
                None => doc.name.clone(),
            };
            render(&CardsPage {
                ctx,
                title,
                action,
                paper: paper.id(),
                each: query.one_per_unit(),
                side: set.side,
                pages: set.pages,
                total_cards: set.total_cards,
                per_page: CARDS_PER_PAGE,
                version: cat.version().to_string(),
                print_css: assets::url("print.css"),
                paper_css: paper.css_url(),
            })
        }
        "sheet" => {
            let today = chrono::Utc::now().format("%Y-%m-%d").to_string();
            render(&SheetPage {
                ctx,
                action,
                paper: paper.id(),
                s: sheet::build(cat, doc, force, sheet_findings(cat, doc), &today),
                print_css: assets::url("print.css"),
                paper_css: paper.css_url(),
            })
        }
        _ => Err(AppError::NotFound),
    }
}

/// The printout `kind` of a stored roster, with the options of the query string `query`.
pub fn print_roster(
    state: &AppState,
    ctx: PageCtx,
    row: &RosterRow,
    kind: &str,
    query: &str,
    action: String,
) -> Result<HttpResponse, AppError> {
    let query = PrintQuery::from_query(query)?;
    let doc: RosterDoc = rosters::parse_stored_as(&state.app.rules, row)?;
    print_force(state, ctx, &doc, None, kind, &query, action)
}

/// `GET /oibl/reference`: the two-sided quick reference, public, on screen and for print.
pub async fn reference_page(
    state: web::Data<AppState>,
    ctx: PageCtx,
    req: HttpRequest,
) -> Result<HttpResponse, AppError> {
    let query = PrintQuery::from_query(req.query_string())?;
    let paper = query.paper();
    render(&ReferencePage {
        ctx,
        paper: paper.id(),
        r: reference::build(&state.app.rules.oibl),
        print_css: assets::url("print.css"),
        paper_css: paper.css_url(),
    })
}
