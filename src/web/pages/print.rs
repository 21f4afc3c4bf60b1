//! Print pages: unit cards and roster sheets of a roster (its owner, or anyone with its share
//! link) and the public quick-reference sheet.

use actix_web::{web, HttpResponse};
use askama::Template;

use crate::app::rosters;
use crate::rules::systems::lotf::RosterDoc;
use crate::web::auth::SignedIn;
use crate::web::page::{render, PageCtx};
use crate::web::state::AppState;
use crate::web::systems::lotf::print::cards::{self, Card, SkillLine};
use crate::web::systems::lotf::print::sheet::{self, Sheet};
use crate::web::systems::lotf::print::{CardSize, ForceState, PrintQuery};
use crate::web::{assets, AppError};

#[derive(Template)]
#[template(path = "print/cards.html")]
pub struct CardsPage {
    pub ctx: PageCtx,
    pub title: String,
    pub action: String,
    pub paper: &'static str,
    pub size: &'static str,
    pub each: bool,
    pub large: bool,
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
#[template(path = "print/sheet.html")]
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

/// `/rosters/{id}/print/{cards|sheet}`: the owner's roster.
pub async fn roster_print(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    path: web::Path<(i64, String)>,
    query: web::Query<PrintQuery>,
) -> Result<HttpResponse, AppError> {
    let (id, kind) = path.into_inner();
    let loaded = rosters::load_owned(&state.app, &user.actor(), id).await?;
    let action = format!("/rosters/{id}/print/{kind}");
    print_force(&state, ctx, &loaded.doc, None, &kind, &query, action)
}

/// `/shared/{token}/print/{cards|sheet}`: anyone with the share link.
pub async fn shared_print(
    state: web::Data<AppState>,
    ctx: PageCtx,
    path: web::Path<(String, String)>,
    query: web::Query<PrintQuery>,
) -> Result<HttpResponse, AppError> {
    let (token, kind) = path.into_inner();
    let action = format!("/shared/{token}/print/{kind}");
    let loaded = rosters::load_shared(&state.app, token).await?;
    print_force(&state, ctx, &loaded.doc, None, &kind, &query, action)
}
