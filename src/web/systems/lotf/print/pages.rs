//! Land of the Free's printouts as pages: unit cards and the roster sheet of a roster, fresh or
//! as it stands after battles.

use actix_web::HttpResponse;
use askama::Template;

use super::cards::{self, Card, SkillLine};
use super::sheet::{self, Sheet};
use super::{CardSize, ForceState, PrintQuery};
use crate::app::rosters;
use crate::rules::systems::lotf::RosterDoc;
use crate::store::rosters::RosterRow;
use crate::web::page::{render, PageCtx};
use crate::web::state::AppState;
use crate::web::{assets, AppError};

#[derive(Template)]
#[template(path = "systems/lotf/print/cards.html")]
pub struct CardsPage {
    pub ctx: PageCtx,
    pub title: String,
    pub action: String,
    pub paper: &'static str,
    pub size: &'static str,
    pub each: bool,
    pub large: bool,
    /// The side's colour class.
    pub side: &'static str,
    pub pages: Vec<Vec<Card>>,
    pub glossary: Vec<SkillLine>,
    pub total_cards: usize,
    pub version: String,
    pub print_css: String,
    pub paper_css: String,
}

impl CardsPage {
    /// Cards of a roster, optionally as it stands after battles.
    pub fn new(
        state: &AppState,
        ctx: PageCtx,
        doc: &RosterDoc,
        force: Option<&ForceState>,
        query: &PrintQuery,
        action: String,
    ) -> Self {
        let cat = &state.app.rules.lotf;
        let (paper, size) = (query.paper(), query.card_size());
        let set = cards::build(cat, doc, force, size, paper, query.one_per_element());
        let title = match force.and_then(|f| f.label.clone()) {
            Some(label) => format!("{} ({label})", doc.name),
            None => doc.name.clone(),
        };
        CardsPage {
            ctx,
            title,
            action,
            paper: paper.id(),
            size: size.id(),
            each: query.one_per_element(),
            large: size == CardSize::Large,
            side: set.side,
            pages: set.pages,
            glossary: set.glossary,
            total_cards: set.total_cards,
            version: cat.version().to_string(),
            print_css: assets::url("print.css"),
            paper_css: paper.css_url(),
        }
    }
}

#[derive(Template)]
#[template(path = "systems/lotf/print/sheet.html")]
pub struct SheetPage {
    pub ctx: PageCtx,
    pub action: String,
    pub paper: &'static str,
    pub s: Sheet,
    pub print_css: String,
    pub paper_css: String,
}

impl SheetPage {
    pub fn new(
        state: &AppState,
        ctx: PageCtx,
        doc: &RosterDoc,
        force: Option<&ForceState>,
        query: &PrintQuery,
        action: String,
    ) -> Self {
        let today = chrono::Utc::now().format("%Y-%m-%d").to_string();
        let paper = query.paper();
        SheetPage {
            ctx,
            action,
            paper: paper.id(),
            s: sheet::build(&state.app.rules.lotf, doc, force, &today),
            print_css: assets::url("print.css"),
            paper_css: paper.css_url(),
        }
    }
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
    match kind {
        "cards" => render(&CardsPage::new(state, ctx, doc, force, query, action)),
        "sheet" => render(&SheetPage::new(state, ctx, doc, force, query, action)),
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
    let query: PrintQuery = serde_urlencoded::from_str(query)
        .map_err(|e| AppError::bad_request(format!("The print options could not be read: {e}")))?;
    let doc: RosterDoc = rosters::parse_stored_as(&state.app.rules, row)?;
    print_force(state, ctx, &doc, None, kind, &query, action)
}
