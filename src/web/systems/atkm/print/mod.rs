//! All the King's Men printouts: unit and general cards, the roster sheet and the two-sided
//! quick reference (spec section 6), A4 or US Letter. Every number is read from the catalogue.

pub mod cards;
pub mod reference;
pub mod sheet;

use actix_web::web::{self, ServiceConfig};
use actix_web::{HttpRequest, HttpResponse};
use askama::Template;
use serde::Deserialize;

use crate::app::rosters;
use crate::rules::systems::atkm::catalogue::Catalogue;
use crate::rules::systems::atkm::RosterDoc;
use crate::store::rosters::RosterRow;
use crate::web::page::{render, PageCtx};
use crate::web::pages::print::SideColour;
use crate::web::state::AppState;
use crate::web::{assets, AppError};
use cards::Printed;

/// Cards a page: four 100 × 134 mm cards fit A4 and Letter alike.
pub const CARDS_PER_PAGE: usize = 4;

/// The public quick reference, on screen and in print.
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(web::resource("/atkm/reference").get(reference_page));
}

/// The print options of the query string: `?paper=a4|letter&each=1`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct PrintQuery {
    pub paper: String,
    pub each: String,
}

impl PrintQuery {
    /// Reads the options; unknown keys are ignored, as the generic toolbar may send more.
    pub fn from_query(query: &str) -> Result<PrintQuery, AppError> {
        serde_urlencoded::from_str(query)
            .map_err(|e| AppError::bad_request(format!("The print options could not be read: {e}")))
    }

    /// `a4` or `letter`, and the stylesheet with that paper's `@page` rule.
    pub fn paper(&self) -> (&'static str, String) {
        if self.paper.eq_ignore_ascii_case("letter") {
            ("letter", assets::url("paper-letter.css"))
        } else {
            ("a4", assets::url("paper-a4.css"))
        }
    }

    pub fn one_per_unit(&self) -> bool {
        matches!(self.each.as_str(), "1" | "true" | "on" | "yes")
    }
}

/// The colour a force's cards carry: red for a British side, blue otherwise.
pub fn side_colour(doc: &RosterDoc) -> &'static str {
    match doc.side.as_deref() {
        Some("british") => SideColour::Red.class(),
        _ => SideColour::Blue.class(),
    }
}

#[derive(Template)]
#[template(path = "systems/atkm/print/cards.html")]
pub struct CardsPage {
    pub ctx: PageCtx,
    pub title: String,
    pub action: String,
    pub paper: &'static str,
    pub each: bool,
    pub side: &'static str,
    pub pages: Vec<Vec<Printed>>,
    pub total_cards: usize,
    pub per_page: usize,
    pub version: String,
    pub colours: String,
    pub general_move: u32,
    pub print_css: String,
    pub paper_css: String,
}

#[derive(Template)]
#[template(path = "systems/atkm/print/sheet.html")]
pub struct SheetPage {
    pub ctx: PageCtx,
    pub action: String,
    pub paper: &'static str,
    pub s: sheet::Sheet,
    pub print_css: String,
    pub paper_css: String,
}

#[derive(Template)]
#[template(path = "systems/atkm/reference.html")]
pub struct ReferencePage {
    pub ctx: PageCtx,
    pub paper: &'static str,
    pub r: reference::Reference,
    pub print_css: String,
    pub paper_css: String,
}

/// "green 4+, yellow 5+, red 6".
pub fn colours_text(cat: &Catalogue) -> String {
    cat.tables
        .colours
        .iter()
        .map(|c| {
            let on = if c.succeeds_on >= 6 {
                "6".to_string()
            } else {
                format!("{}+", c.succeeds_on)
            };
            format!("{} {on}", c.id.label().to_lowercase())
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Renders the cards or the sheet (`kind`) of a force; anything else is "not found".
pub fn print_force(
    cat: &Catalogue,
    ctx: PageCtx,
    doc: &RosterDoc,
    kind: &str,
    query: &PrintQuery,
    action: String,
) -> Result<HttpResponse, AppError> {
    let (paper, paper_css) = query.paper();
    match kind {
        "cards" => {
            let set = cards::build(cat, doc, query.one_per_unit(), side_colour(doc));
            render(&CardsPage {
                ctx,
                title: doc.name.clone(),
                action,
                paper,
                each: query.one_per_unit(),
                side: set.side,
                total_cards: set.total_cards,
                pages: set.pages,
                per_page: CARDS_PER_PAGE,
                version: cat.version().to_string(),
                colours: colours_text(cat),
                general_move: cat.tables.movement.general_move,
                print_css: assets::url("print.css"),
                paper_css,
            })
        }
        "sheet" => {
            let today = chrono::Utc::now().format("%Y-%m-%d").to_string();
            render(&SheetPage {
                ctx,
                action,
                paper,
                s: sheet::build(cat, doc, &today),
                print_css: assets::url("print.css"),
                paper_css,
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
    print_force(&state.app.rules.atkm, ctx, &doc, kind, &query, action)
}

/// `GET /atkm/reference`: the two-sided quick reference, public, on screen and for print.
pub async fn reference_page(
    state: web::Data<AppState>,
    ctx: PageCtx,
    req: HttpRequest,
) -> Result<HttpResponse, AppError> {
    let query = PrintQuery::from_query(req.query_string())?;
    let (paper, paper_css) = query.paper();
    render(&ReferencePage {
        ctx,
        paper,
        r: reference::build(&state.app.rules.atkm),
        print_css: assets::url("print.css"),
        paper_css,
    })
}
