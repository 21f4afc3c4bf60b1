//! The home page: for a visitor, what Muster does; for a logged-in player, what waits for them,
//! their campaigns with their turn, and their latest battles and rosters (issue 19 item 7).

use actix_web::{web, HttpResponse};
use askama::Template;

use crate::app;
use crate::store::rosters::{ListingOrder, ListingQuery};
use crate::web::auth::SignedInUser;
use crate::web::page::{render, PageCtx};
use crate::web::pages::battles::{attention, recent, BattleLine};
use crate::web::pages::campaigns::phase_label;
use crate::web::pages::rosters::RosterSummary;
use crate::web::state::AppState;
use crate::web::AppError;

/// How many battles and rosters the home page lists before pointing to the full lists.
const RECENT: i64 = 5;

#[derive(Template)]
#[template(path = "home.html")]
struct HomePage {
    ctx: PageCtx,
    desk: Option<Desk>,
}

/// What a logged-in player's home page shows.
struct Desk {
    /// Battles waiting for this user: invitations, results to confirm, disputes.
    attention: Vec<BattleLine>,
    /// Campaigns waiting for this user: orders due, battles to fight, points to spend.
    campaign_attention: Vec<(i64, String, Vec<String>)>,
    campaigns: Vec<CampaignLine>,
    battles: Vec<BattleLine>,
    battles_total: i64,
    rosters: Vec<RosterSummary>,
    rosters_total: i64,
}

impl Desk {
    fn waiting(&self) -> bool {
        !self.attention.is_empty() || !self.campaign_attention.is_empty()
    }
}

/// A running campaign on the home page.
struct CampaignLine {
    id: i64,
    name: String,
    system: &'static str,
    /// "Turn 2 of 6 · Orders open", or the phase before the start.
    stands: String,
    organiser: bool,
}

async fn desk(state: &web::Data<AppState>, user: &SignedInUser) -> Result<Desk, AppError> {
    let actor = user.actor();
    let running = app::campaigns::running_for(&state.app, &actor).await?;
    let campaign_attention = running
        .iter()
        .filter_map(|c| {
            let items = crate::web::campaign_view::attention_beside_battles(
                c,
                crate::web::campaign_view::system_of(state, c).ok()?,
            );
            (!items.is_empty()).then(|| (c.id(), c.row.name.clone(), items))
        })
        .collect();
    let campaigns = running
        .iter()
        .map(|c| {
            let phase = phase_label(&c.row.phase);
            let mut stands = match c.state.settings() {
                Some(s) if c.row.phase != "enlisting" => {
                    format!("Turn {} of {} · {phase}", c.state.turn, s.turns)
                }
                _ => phase.to_string(),
            };
            if let Some(d) = c.state.open_deadline() {
                stands.push_str(&format!(" · orders due by {}", d.words()));
            }
            CampaignLine {
                id: c.id(),
                name: c.row.name.clone(),
                system: system_label(&c.row.rule_system),
                stands,
                organiser: c.organiser,
            }
        })
        .collect();
    let (battles, battles_total) = recent(state, user, RECENT).await?;
    let query = ListingQuery {
        order: ListingOrder::Changed,
        per_page: RECENT,
        ..ListingQuery::default()
    };
    let (roster_rows, rosters_total) = app::rosters::listing(&state.app, &actor, query).await?;
    let rosters = roster_rows
        .iter()
        .map(|r| RosterSummary::from_row(state, r))
        .collect();
    Ok(Desk {
        attention: attention(state, user).await?,
        campaign_attention,
        campaigns,
        battles,
        battles_total,
        rosters,
        rosters_total,
    })
}

fn system_label(id: &str) -> &'static str {
    crate::rules::SystemId::from_id(id).map_or("?", |s| s.label())
}

pub async fn home(state: web::Data<AppState>, ctx: PageCtx) -> Result<HttpResponse, AppError> {
    let desk = match &ctx.user {
        Some(user) => Some(desk(&state, user).await?),
        None => None,
    };
    render(&HomePage { ctx, desk })
}
