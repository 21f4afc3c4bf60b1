//! Standings and the filterable log.

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use serde::Deserialize;

use crate::app::campaigns::{load_for, log_rows};
use crate::rules::campaign::standings::{standings, Standings};
use crate::rules::campaign::state::Phase;
use crate::web::auth::SignedIn;
use crate::web::campaign_view::{log_lines, LogLine};
use crate::web::page::SelectOption;
use crate::web::page::{render_with_status, PageCtx};
use crate::web::state::AppState;
use crate::web::AppError;

use super::choice;

/// Who won the campaign, or who leads it, in one line.
pub fn outcome_line(s: &Standings, ended: bool) -> String {
    let (a, b) = (&s.sides[0], &s.sides[1]);
    let (lead, trail) = if a.total >= b.total { (a, b) } else { (b, a) };
    match (lead.total == trail.total, ended) {
        (true, true) => format!("The campaign is drawn, {} points each.", lead.total),
        (true, false) => format!("The sides are level, {} points each.", lead.total),
        (false, true) => format!(
            "{} win the campaign, {} points to {}.",
            lead.name, lead.total, trail.total
        ),
        (false, false) => format!(
            "{} lead, {} points to {}.",
            lead.name, lead.total, trail.total
        ),
    }
}

#[derive(Template)]
#[template(path = "campaigns/standings.html")]
struct StandingsPage {
    ctx: PageCtx,
    id: i64,
    name: String,
    turn: u32,
    turns: u32,
    ended: String,
    is_final: bool,
    outcome: String,
    s: Standings,
}

pub async fn standings_page(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let c = load_for(&state.app, &user.actor(), id.into_inner()).await?;
    let st = &c.state;
    let table = standings(st);
    render_with_status(
        &StandingsPage {
            id: c.id(),
            name: c.row.name.clone(),
            turn: st.turn,
            turns: st.settings().map_or(0, |s| s.turns),
            ended: st.ended.clone().unwrap_or_default(),
            is_final: st.phase == Phase::Ended,
            outcome: outcome_line(&table, st.phase == Phase::Ended),
            s: table,
            ctx,
        },
        StatusCode::OK,
    )
}

#[derive(Template)]
#[template(path = "campaigns/log.html")]
struct LogPage {
    ctx: PageCtx,
    id: i64,
    name: String,
    lines: Vec<LogLine>,
    turns: Vec<SelectOption>,
    forces: Vec<SelectOption>,
    turn: String,
    force: String,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct LogFilter {
    pub turn: String,
    pub force: String,
}

pub async fn log_page(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
    filter: web::Query<LogFilter>,
) -> Result<HttpResponse, AppError> {
    let c = load_for(&state.app, &user.actor(), id.into_inner()).await?;
    let rows = log_rows(&state.app, c.id()).await?;
    let turn = filter.turn.parse::<i32>().ok();
    let force = Some(filter.force.as_str()).filter(|f| !f.is_empty());
    let lines = log_lines(
        crate::web::campaign_view::system_of(&state, &c)?,
        &c,
        &rows,
        turn,
        force,
    )?;
    let mut turns = vec![choice("", "Every turn")];
    turns.extend((0..=c.state.turn).map(|t| {
        choice(
            t.to_string(),
            if t == 0 {
                "Before turn 1".to_string()
            } else {
                format!("Turn {t}")
            },
        )
    }));
    let mut forces = vec![choice("", "Every force")];
    forces.extend(
        c.state
            .forces
            .values()
            .map(|f| choice(f.id.clone(), format!("{} ({})", f.roster.name(), f.player))),
    );
    render_with_status(
        &LogPage {
            id: c.id(),
            name: c.row.name.clone(),
            lines,
            turns,
            forces,
            turn: filter.turn.clone(),
            force: filter.force.clone(),
            ctx,
        },
        StatusCode::OK,
    )
}
