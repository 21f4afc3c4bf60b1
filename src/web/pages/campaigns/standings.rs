//! Standings and the filterable log.

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use serde::Deserialize;

use crate::app::campaigns::{load_for, log_rows};
use crate::rules::campaign::standings::{standings, Standings};
use crate::rules::campaign::state::Phase;
use crate::store::campaigns::LogQuery;
use crate::web::auth::SignedIn;
use crate::web::campaign_view::{log_lines, set_aside_of, stored_lines, LogLine};
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
    page: i64,
    /// Links to the pages of newer and older entries.
    newer: Option<String>,
    older: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct LogFilter {
    pub turn: String,
    pub force: String,
    /// From 1.
    pub page: String,
}

/// Log entries on one page of the log.
const LOG_PER_PAGE: i64 = 100;

pub async fn log_page(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
    filter: web::Query<LogFilter>,
) -> Result<HttpResponse, AppError> {
    let c = load_for(&state.app, &user.actor(), id.into_inner()).await?;
    let turn = filter.turn.parse::<i32>().ok();
    let force = Some(filter.force.as_str()).filter(|f| !f.is_empty());
    let page = filter
        .page
        .parse::<i64>()
        .ok()
        .filter(|&p| p >= 1)
        .unwrap_or(1);
    // A page read from the database with its stored words; a campaign with entries older than
    // stored words is told by replaying its whole log, then cut to the page.
    let slice = crate::app::campaigns::log_page(
        &state.app,
        c.id(),
        LogQuery {
            turn,
            force: force.map(str::to_string),
            page: page - 1,
            per_page: LOG_PER_PAGE,
        },
    )
    .await?;
    let (lines, more) = if slice.told() {
        let aside = set_aside_of(&slice.voiding)?;
        (
            stored_lines(&c, &slice.rows, &aside, turn, force)?,
            slice.more,
        )
    } else {
        let rows = log_rows(&state.app, c.id()).await?;
        let mut all = log_lines(
            crate::web::campaign_view::system_of(&state, &c)?,
            &c,
            &rows,
            turn,
            force,
        )?;
        all.reverse();
        let start = usize::try_from((page - 1) * LOG_PER_PAGE).unwrap_or(usize::MAX);
        let more = all.len() > start.saturating_add(LOG_PER_PAGE as usize);
        let lines = all
            .into_iter()
            .skip(start)
            .take(LOG_PER_PAGE as usize)
            .collect();
        (lines, more)
    };
    let href = |p: i64| {
        let mut q = Vec::new();
        if let Some(t) = turn {
            q.push(format!("turn={t}"));
        }
        if let Some(f) = force {
            q.push(format!(
                "force={}",
                f.chars()
                    .filter(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
                    .collect::<String>()
            ));
        }
        if p > 1 {
            q.push(format!("page={p}"));
        }
        let base = format!("/campaigns/{}/log", c.id());
        if q.is_empty() {
            base
        } else {
            format!("{base}?{}", q.join("&"))
        }
    };
    let newer = (page > 1).then(|| href(page - 1));
    let older = more.then(|| href(page + 1));
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
            page,
            newer,
            older,
            ctx,
        },
        StatusCode::OK,
    )
}
