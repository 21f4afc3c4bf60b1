//! AWI printouts: unit cards, the roster sheet and the two-sided quick reference (spec section
//! 6). Every number is read from the catalogue (`rules::systems::awi::catalogue`) or from the
//! validator's derived figures (figures, men, half strength and the 10 % / 20 % steps of W-3),
//! the same data the rules core reads, so a card cannot disagree with the rules.

pub mod cards;
pub mod sheet;

use actix_web::web::{self, ServiceConfig};
use actix_web::{HttpRequest, HttpResponse};
use askama::Template;
use serde::Deserialize;

use crate::app::rosters;
use crate::rules::systems::awi::catalogue::Catalogue;
use crate::rules::systems::awi::roster::RosterDoc;
use crate::rules::systems::awi::types::TroopType;
use crate::store::rosters::RosterRow;
use crate::web::page::{render, PageCtx};
use crate::web::pages::print::{SideColour, TypeIcon};
use crate::web::state::AppState;
use crate::web::{assets, AppError};

/// The public quick reference, on screen and in print.
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(web::resource("/awi/reference").get(reference_page));
}

/// The colour a force's cards and sheet carry, read from the side the player named: red for
/// the Crown, green for the German regiments, a lighter blue for France, blue otherwise.
pub fn side_colour(side: &str) -> SideColour {
    let side = side.to_lowercase();
    let any = |words: &[&str]| words.iter().any(|w| side.contains(w));
    if any(&[
        "british", "crown", "loyalist", "royal", "king", "tory", "english", "scot",
    ]) {
        SideColour::Red
    } else if any(&[
        "hessian",
        "german",
        "brunswick",
        "anspach",
        "waldeck",
        "hanau",
    ]) {
        SideColour::Green
    } else if any(&["french", "france"]) {
        SideColour::RoyalBlue
    } else if any(&["indian", "native", "iroquois", "cherokee", "mohawk"]) {
        SideColour::Ochre
    } else {
        SideColour::Blue
    }
}

/// The symbol a card's headline carries for each troop type.
pub fn type_icon(kind: TroopType) -> TypeIcon {
    match kind {
        TroopType::Infantry => TypeIcon::Infantry,
        TroopType::Skirmishers => TypeIcon::Skirmishers,
        TroopType::Cavalry => TypeIcon::Cavalry,
        TroopType::Artillery => TypeIcon::Artillery,
    }
}

/// Paper the printout is laid out for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Paper {
    A4,
    Letter,
}

impl Paper {
    pub fn id(self) -> &'static str {
        match self {
            Paper::A4 => "a4",
            Paper::Letter => "letter",
        }
    }

    /// The generic stylesheet with this paper's `@page` rule.
    pub fn css_url(self) -> String {
        assets::url(match self {
            Paper::A4 => "paper-a4.css",
            Paper::Letter => "paper-letter.css",
        })
    }
}

/// Cards a page: four 100 × 134 mm cards fit A4 and Letter alike.
pub const CARDS_PER_PAGE: usize = 4;

/// The print options of the query string: `?paper=a4|letter`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct PrintQuery {
    pub paper: String,
}

impl PrintQuery {
    /// Reads the options; unknown keys are ignored, as the generic toolbar may send more.
    pub fn from_query(query: &str) -> Result<PrintQuery, AppError> {
        serde_urlencoded::from_str(query)
            .map_err(|e| AppError::bad_request(format!("The print options could not be read: {e}")))
    }

    pub fn paper(&self) -> Paper {
        if self.paper.eq_ignore_ascii_case("letter") {
            Paper::Letter
        } else {
            Paper::A4
        }
    }
}

#[derive(Template)]
#[template(path = "systems/awi/print/cards.html")]
pub struct CardsPage {
    pub ctx: PageCtx,
    pub title: String,
    pub action: String,
    pub paper: &'static str,
    pub side: &'static str,
    pub pages: Vec<Vec<cards::Card>>,
    pub total_cards: usize,
    pub per_page: usize,
    pub version: String,
    pub print_css: String,
    pub paper_css: String,
}

#[derive(Template)]
#[template(path = "systems/awi/print/sheet.html")]
pub struct SheetPage {
    pub ctx: PageCtx,
    pub action: String,
    pub paper: &'static str,
    pub s: sheet::Sheet,
    pub print_css: String,
    pub paper_css: String,
}

#[derive(Template)]
#[template(path = "systems/awi/reference.html")]
pub struct ReferencePage<'a> {
    pub ctx: PageCtx,
    pub paper: &'static str,
    pub r: Reference<'a>,
    pub print_css: String,
    pub paper_css: String,
}

/// Renders the cards or the sheet (`kind`) of an order of battle; anything else is "not found".
pub fn print_doc(
    state: &AppState,
    ctx: PageCtx,
    doc: &RosterDoc,
    kind: &str,
    query: &PrintQuery,
    action: String,
) -> Result<HttpResponse, AppError> {
    let cat = &state.app.rules.awi;
    let paper = query.paper();
    let side = side_colour(doc.side.as_deref().unwrap_or("")).class();
    match kind {
        "cards" => {
            let all = cards::build(cat, doc);
            let total_cards = all.len();
            render(&CardsPage {
                ctx,
                title: doc.name.clone(),
                action,
                paper: paper.id(),
                side,
                pages: all
                    .chunks(CARDS_PER_PAGE)
                    .map(<[cards::Card]>::to_vec)
                    .collect(),
                total_cards,
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
                s: sheet::build(cat, doc, side, &today),
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
    print_doc(state, ctx, &doc, kind, &query, action)
}

/// What the quick reference reads: the catalogue itself, and a few lines worked out from it.
pub struct Reference<'a> {
    pub c: &'a Catalogue,
    pub version: String,
    /// "1–2 gunners: 1D10; 3–4 gunners: 2D10".
    pub gun_dice: String,
    /// Per weapon or gun: name and its bands "canister 0–2", close 2–8"…".
    pub ranges: Vec<(String, String)>,
    /// Terrain by name: "open woods", and its effect.
    pub terrain: Vec<(String, String)>,
}

impl<'a> Reference<'a> {
    pub fn new(c: &'a Catalogue) -> Self {
        let gun_dice = c
            .gun_dice
            .iter()
            .map(|g| format!("{}–{} gunners: {}D10", g.gunners_min, g.gunners_max, g.dice))
            .collect::<Vec<_>>()
            .join("; ");
        let mut ranges: Vec<(String, String)> = c
            .weapons
            .iter()
            .map(|w| (w.id.label().to_string(), cards::bands_text(&w.bands)))
            .collect();
        ranges.extend(
            c.guns
                .iter()
                .map(|g| (g.id.label().to_string(), cards::bands_text(&g.bands))),
        );
        let terrain = c
            .terrain
            .iter()
            .map(|t| (t.id.replace('_', " "), t.effect.clone()))
            .collect();
        Reference {
            c,
            terrain,
            version: c.version().to_string(),
            gun_dice,
            ranges,
        }
    }

    /// A modifier value with its sign: "+1", "−2", "0".
    pub fn signed(&self, v: &i32) -> String {
        cards::signed(*v)
    }
}

/// `GET /awi/reference`: the two-sided quick reference, public, on screen and for print.
pub async fn reference_page(
    state: web::Data<AppState>,
    ctx: PageCtx,
    req: HttpRequest,
) -> Result<HttpResponse, AppError> {
    let query = PrintQuery::from_query(req.query_string())?;
    let cat = &state.app.rules.awi;
    let paper = query.paper();
    render(&ReferencePage {
        ctx,
        paper: paper.id(),
        r: Reference::new(cat),
        print_css: assets::url("print.css"),
        paper_css: paper.css_url(),
    })
}
