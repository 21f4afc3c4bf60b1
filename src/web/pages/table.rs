//! At the table and the printed battle pack (issue 19, items 8 and 10), at generic addresses;
//! the battle's rule system fills in what only it knows (`SystemPages::table_view`,
//! `table_record_fields`, `print_battle_pack`).
//!
//! - `GET /battles/{id}/table`: a phone page for a set-up battle being played, for its two
//!   players only. Every tap is a form post (`POST /battles/{id}/table`) carrying the version
//!   it was based on; with JavaScript it is sent in the background and the page updated in
//!   place. A tap based on an older version is refused (409) and the page shows the table as
//!   it now stands, saying so.
//! - `GET /battles/{id}/table/finish`: the record form, filled in from the table.
//! - `GET /battles/{id}/print/pack`: both sides' roster sheets, the briefing and the quick
//!   reference as one printout, for whoever may see the battle.

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use serde::Deserialize;

use crate::app::battle_table::{self, Table, Tapped};
use crate::app::battles as records;
use crate::rules::table::TableAction;
use crate::store::battles::BattleRow;
use crate::web::assets;
use crate::web::auth::csrf::CsrfForm;
use crate::web::auth::SignedIn;
use crate::web::page::{redirect, render, render_with_status, PageCtx};
use crate::web::state::AppState;
use crate::web::systems::battles::{pages_of, size_words, Players};
use crate::web::systems::table::{BattlePack, TableView};
use crate::web::AppError;

#[derive(Template)]
#[template(path = "battles/table.html")]
struct TablePage {
    ctx: PageCtx,
    row: BattleRow,
    scenario: String,
    /// The battle's size in its system's measure.
    size: String,
    version: i32,
    open: bool,
    view: TableView,
    /// Why the last tap was not saved (a newer version, or a tap that makes no sense).
    problem: String,
}

fn table_page(
    state: &AppState,
    ctx: PageCtx,
    table: Table,
    problem: String,
) -> Result<TablePage, AppError> {
    let pages = pages_of(&table.battle)?;
    let view = pages.table_view(state, &table.battle, &table.state)?;
    let scenario = state.app.rules.scenario_name(&table.battle.scenario);
    Ok(TablePage {
        ctx,
        scenario,
        size: size_words(state, &table.battle),
        version: table.version,
        open: table.open,
        view,
        problem,
        row: table.battle,
    })
}

/// `GET /battles/{id}/table`.
pub async fn show(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let table = battle_table::open(&state.app, &user.actor(), id.into_inner()).await?;
    render(&table_page(&state, ctx, table, String::new())?)
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct TapForm {
    /// The version of the table the tap was made on.
    pub version: i32,
    pub what: String,
    pub target: String,
    pub value: i32,
}

/// `POST /battles/{id}/table`: one tap. Saved: back to the table (303). Refused: the table as
/// it now stands with why (409 for a newer version or a battle no longer played, 422 for a tap
/// that makes no sense).
pub async fn tap(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
    CsrfForm(form): CsrfForm<TapForm>,
) -> Result<HttpResponse, AppError> {
    let id = id.into_inner();
    let actor = user.actor();
    let action = TableAction {
        what: form.what,
        target: form.target,
        value: form.value,
    };
    let (table, problem, status) =
        match battle_table::tap(&state.app, &actor, id, form.version, action).await {
            Ok(Tapped::Saved(_)) => return Ok(redirect(&format!("/battles/{id}/table"))),
            Ok(Tapped::Stale(table)) => (
                table,
                "Someone else changed the table first, so your tap was not saved. This is the \
                 table as it now stands: check it, then tap again if it still needs it."
                    .to_string(),
                StatusCode::CONFLICT,
            ),
            Ok(Tapped::Refused(table, why)) => (
                table,
                format!("That tap was not saved: {why}"),
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            Err(crate::app::Error::Conflict(message)) => (
                battle_table::open(&state.app, &actor, id).await?,
                message,
                StatusCode::CONFLICT,
            ),
            Err(e) => return Err(e.into()),
        };
    render_with_status(&table_page(&state, ctx, table, problem)?, status)
}

/// The generic record form (`templates/battles/record.html`), filled in from the table.
#[derive(Template)]
#[template(path = "battles/record.html")]
struct FinishPage {
    ctx: PageCtx,
    row: BattleRow,
    fields: String,
    problems: Vec<String>,
    preview: Option<String>,
}

/// `GET /battles/{id}/table/finish`: the record form as the table fills it in; nothing is saved
/// until the player saves the form. A battle no longer being played goes back to its page.
pub async fn finish(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let table = battle_table::open(&state.app, &user.actor(), id.into_inner()).await?;
    if !table.open {
        return Ok(redirect(&format!("/battles/{}", table.battle.id)));
    }
    let pages = pages_of(&table.battle)?;
    let fields = pages.table_record_fields(&state, &table.battle, &table.state)?;
    let html = pages.record_form(&state, &table.battle, &fields)?;
    render(&FinishPage {
        ctx,
        fields: html,
        problems: Vec::new(),
        preview: Some("Filled in from the table as it stood when you pressed Finish.".to_string()),
        row: table.battle,
    })
}

#[derive(Template)]
#[template(path = "battles/pack.html")]
struct PackPage {
    ctx: PageCtx,
    row: BattleRow,
    system: &'static str,
    /// The battle's size in its system's measure.
    size: String,
    players: Players,
    pack: BattlePack,
    paper: &'static str,
    action: String,
    print_css: String,
    paper_css: String,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct PackQuery {
    /// `a4` (the default) or `letter`.
    pub paper: String,
}

/// `GET /battles/{id}/print/pack`: whoever may see the battle (its players, and whoever set it
/// up).
pub async fn pack(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
    query: web::Query<PackQuery>,
) -> Result<HttpResponse, AppError> {
    let row = records::load_for(&state.app, &user.actor(), id.into_inner()).await?;
    let pages = pages_of(&row)?;
    let (attacker, defender) = records::player_names(&state.app, &row).await?;
    let players = Players { attacker, defender };
    let paper = if query.paper.eq_ignore_ascii_case("letter") {
        "letter"
    } else {
        "a4"
    };
    let pack = pages.print_battle_pack(&state, &row, &players, paper)?;
    render(&PackPage {
        ctx,
        system: pages.id().label(),
        size: size_words(&state, &row),
        action: format!("/battles/{}/print/pack", row.id),
        players,
        pack,
        paper,
        print_css: assets::url("print.css"),
        paper_css: assets::url(if paper == "letter" {
            "paper-letter.css"
        } else {
            "paper-a4.css"
        }),
        row,
    })
}
