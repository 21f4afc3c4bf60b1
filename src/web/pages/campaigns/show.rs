//! The campaign page (map, orders, battles, forces) and the actions taken from it.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use serde::Deserialize;

use crate::app;
use crate::app::campaigns::actions::{self as actions};
use crate::app::campaigns::{load_for, log_rows, Loaded};
use crate::rules::campaign::movement::Order;
use crate::rules::campaign::standings::standings;
use crate::rules::campaign::state::{BattleStatus, Phase};
use crate::web::auth::csrf::{CsrfForm, NoFields};
use crate::web::auth::{SignedIn, SignedInUser};
use crate::web::campaign_view::{
    attention, log_lines, set_aside_of, stored_lines, svg_map, LogLine, SvgMap,
};

/// How many of the latest log entries the campaign page shows.
const RECENT_ENTRIES: i64 = 12;
use crate::web::page::{redirect, render_with_status, FormErrors, PageCtx};
use crate::web::state::AppState;
use crate::web::AppError;

use super::list::phase_label;
use super::standings::outcome_line;
use super::{into_form_errors, notice_for};

pub struct RouteChoice {
    pub route: String,
    /// The place it leads to.
    pub to: String,
    pub label: String,
    pub chosen: bool,
}

pub struct BattleRow {
    pub no: u32,
    pub turn: u32,
    pub name: String,
    pub attacker: String,
    pub defender: String,
    pub scenario: String,
    pub record: i64,
    pub status: String,
    /// Not fought or recorded yet.
    pub to_fight: bool,
    pub mine: bool,
}

pub struct ForceRow {
    pub id: String,
    pub player: String,
    pub name: String,
    pub side: u8,
    pub side_name: String,
    pub place: String,
    pub elements: usize,
    pub out: String,
    pub mine: bool,
}

#[derive(Template)]
#[template(path = "campaigns/show.html")]
struct ShowPage {
    ctx: PageCtx,
    c: Loaded,
    phase: &'static str,
    phase_id: &'static str,
    legend: (String, String),
    turns: u32,
    /// The battle size in the system's measure, in words.
    size: String,
    sides: Vec<String>,
    map: SvgMap,
    attention: Vec<String>,
    routes: Vec<RouteChoice>,
    hold_chosen: bool,
    /// Why the place asked for by `?move_to` is not among the marches, if it is not.
    unreachable: String,
    my_place: String,
    orders: (usize, usize),
    battles: Vec<BattleRow>,
    forces: Vec<ForceRow>,
    recent: Vec<LogLine>,
    invite_url: String,
    ended: String,
    notice: &'static str,
    errors: FormErrors,
}

pub(super) fn force_name(c: &Loaded, id: &str) -> String {
    c.state.forces.get(id).map_or(id.to_string(), |f| {
        format!("{} ({})", f.roster.name(), f.player)
    })
}

#[allow(clippy::too_many_arguments)]
async fn show_page(
    state: &web::Data<AppState>,
    req: &HttpRequest,
    ctx: PageCtx,
    c: Loaded,
    errors: FormErrors,
    status: StatusCode,
    notice: &'static str,
    move_to: Option<&str>,
) -> Result<HttpResponse, AppError> {
    let st = &c.state;
    let settings = st.settings().ok_or(AppError::NotFound)?;
    let mine = c.force.as_ref().and_then(|f| st.forces.get(f));
    let my_order = mine.and_then(|f| st.orders.get(&f.id));
    let mut routes: Vec<RouteChoice> = mine
        .filter(|f| f.active())
        .map(|f| {
            st.map
                .routes
                .iter()
                .filter_map(|r| {
                    let to = st.map.other_end(&r.id, &f.place)?;
                    Some(RouteChoice {
                        route: r.id.clone(),
                        to: to.to_string(),
                        label: format!("March to {} by {}", st.place_name(to), r.kind.id()),
                        chosen: my_order
                            == Some(&Order::Move {
                                route: r.id.clone(),
                            }),
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    // A place picked on the map (`?move_to=`, the link without JavaScript) chooses the first
    // march there in place of the order given so far; the order is still only given by the
    // form, and checked like any other.
    let mut hold_chosen = my_order == Some(&Order::Hold);
    let mut unreachable = String::new();
    if let (Some(place), Some(f)) = (move_to.filter(|p| !p.is_empty()), mine) {
        if let Some(pick) = routes.iter().position(|r| r.to == place) {
            // The order already given, in words, so the page never passes the pick off as it.
            let given = if hold_chosen {
                Some("hold".to_string())
            } else {
                routes
                    .iter()
                    .find(|r| r.chosen)
                    .map(|r| r.label.to_lowercase())
            };
            if let Some(given) = given.filter(|_| !routes[pick].chosen) {
                unreachable = format!(
                    "Picked on the map, not given yet: your order stands as {given} until you \
                     give this one."
                );
            }
            for (i, r) in routes.iter_mut().enumerate() {
                r.chosen = i == pick;
            }
            hold_chosen = false;
        } else if st.map.place(place).is_some() && st.phase == Phase::Orders && f.active() {
            unreachable = format!(
                "{} is not one march from {}: choose one of these.",
                st.place_name(place),
                st.place_name(&f.place)
            );
        }
    }
    // The latest entries, told from their stored words; a campaign whose recent entries
    // predate stored words is told by replaying its whole log.
    let slice = crate::app::campaigns::recent_log(&state.app, c.id(), RECENT_ENTRIES).await?;
    let recent = if slice.told() {
        let aside = set_aside_of(&slice.voiding)?;
        stored_lines(&c, &slice.rows, &aside, None, None)?
    } else {
        let rows = log_rows(&state.app, c.id()).await?;
        let mut all = log_lines(
            crate::web::campaign_view::system_of(state, &c)?,
            &c,
            &rows,
            None,
            None,
        )?;
        all.reverse();
        all.truncate(RECENT_ENTRIES as usize);
        all
    };
    let battles = st
        .battles
        .iter()
        .rev()
        .map(|b| BattleRow {
            no: b.no,
            turn: b.turn,
            name: b.name.clone(),
            attacker: force_name(&c, &b.attacker),
            defender: force_name(&c, &b.defender),
            scenario: state.app.rules.scenario_name(&b.scenario),
            record: b.record,
            status: crate::web::campaign_view::battle_words(&c, b),
            to_fight: b.status == BattleStatus::Pending && c.record_status(b.record) == "set_up",
            mine: c
                .force
                .as_ref()
                .is_some_and(|f| *f == b.attacker || *f == b.defender),
        })
        .collect();
    let system = crate::web::campaign_view::system_of(state, &c)?;
    let forces = st
        .forces
        .values()
        .map(|f| ForceRow {
            id: f.id.clone(),
            player: f.player.clone(),
            name: f.roster.name().to_string(),
            side: f.side,
            side_name: st.side_name(f.side).to_string(),
            place: st.place_name(&f.place).to_string(),
            elements: system.shape(&f.roster).map_or(0, |s| s.elements().count()),
            out: f.out.clone().unwrap_or_default(),
            mine: c.force.as_deref() == Some(f.id.as_str()),
        })
        .collect();
    let page = ShowPage {
        phase: phase_label(crate::app::campaigns::phase_id(st.phase)),
        phase_id: crate::app::campaigns::phase_id(st.phase),
        legend: (
            settings.sides[0].name.clone(),
            settings.sides[1].name.clone(),
        ),
        turns: settings.turns,
        size: system.battle_size().battles(settings.points),
        sides: settings.sides.iter().map(|s| s.name.clone()).collect(),
        map: svg_map(&c),
        attention: attention(&c, system),
        routes,
        hold_chosen,
        unreachable,
        my_place: mine
            .map(|f| st.place_name(&f.place).to_string())
            .unwrap_or_default(),
        orders: st.orders_in(),
        battles,
        forces,
        recent,
        invite_url: state.absolute_url(req, &format!("/campaigns/join/{}", c.row.invite_code)),
        ended: st
            .ended
            .clone()
            .map(|e| format!("{e} {}", outcome_line(&standings(st), true)))
            .unwrap_or_default(),
        notice,
        errors,
        ctx,
        c,
    };
    render_with_status(&page, status)
}

pub async fn show(
    state: web::Data<AppState>,
    req: HttpRequest,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
    query: web::Query<ShowQuery>,
) -> Result<HttpResponse, AppError> {
    let c = load_for(&state.app, &user.actor(), id.into_inner()).await?;
    let notice = notice_for(&query.done);
    show_page(
        &state,
        &req,
        ctx,
        c,
        FormErrors::default(),
        StatusCode::OK,
        notice,
        Some(&query.move_to),
    )
    .await
}

/// The campaign page's query: what was just done, and a place picked on the map to march to.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ShowQuery {
    pub done: String,
    pub move_to: String,
}

/// Runs an action from the campaign page: back to it on success, or the page with the refusal.
async fn on_campaign<F, Fut>(
    state: &web::Data<AppState>,
    req: &HttpRequest,
    user: &SignedInUser,
    ctx: PageCtx,
    id: i64,
    back: impl FnOnce(&Loaded) -> String,
    act: F,
) -> Result<HttpResponse, AppError>
where
    F: FnOnce(Loaded) -> Fut,
    Fut: std::future::Future<Output = Result<Loaded, app::Error>>,
{
    let c = load_for(&state.app, &user.actor(), id).await?;
    match act(c).await {
        Ok(after) => Ok(redirect(&back(&after))),
        Err(e) => {
            let (errors, status) = into_form_errors(e)?;
            let c = load_for(&state.app, &user.actor(), id).await?;
            show_page(state, req, ctx, c, errors, status, "", None).await
        }
    }
}

pub async fn start(
    state: web::Data<AppState>,
    req: HttpRequest,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
    CsrfForm(_): CsrfForm<NoFields>,
) -> Result<HttpResponse, AppError> {
    let id = id.into_inner();
    let back = |_: &Loaded| format!("/campaigns/{id}?done=started");
    let (st, actor) = (state.clone(), user.actor());
    on_campaign(&state, &req, &user, ctx, id, back, |c| async move {
        actions::start(&st.app, &c, &actor).await
    })
    .await
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct OrderForm {
    /// `hold` or a route id.
    pub order: String,
    /// The turn the form was shown for (an order from an older page is refused).
    pub turn: Option<u32>,
}

pub async fn give_order(
    state: web::Data<AppState>,
    req: HttpRequest,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
    CsrfForm(form): CsrfForm<OrderForm>,
) -> Result<HttpResponse, AppError> {
    let id = id.into_inner();
    // The last order in closes the turn at once: say so rather than that it may still change.
    let turn = form.turn;
    let back = move |after: &Loaded| {
        let still_open =
            after.state.phase == Phase::Orders && turn.is_none_or(|t| t == after.state.turn);
        let done = if still_open { "order" } else { "last_order" };
        format!("/campaigns/{id}?done={done}")
    };
    let (st, actor) = (state.clone(), user.actor());
    on_campaign(&state, &req, &user, ctx, id, back, |c| async move {
        let force = c
            .force
            .clone()
            .ok_or_else(|| app::Error::Forbidden("You have no force in this campaign.".into()))?;
        let order = match form.order.as_str() {
            "hold" => Order::Hold,
            "" => return Err(app::Error::bad_request("Choose an order.")),
            route => Order::Move {
                route: route.to_string(),
            },
        };
        actions::give_order(&st.app, &c, &actor, &force, order, form.turn).await
    })
    .await
}

pub async fn close_turn(
    state: web::Data<AppState>,
    req: HttpRequest,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
    CsrfForm(_): CsrfForm<NoFields>,
) -> Result<HttpResponse, AppError> {
    let id = id.into_inner();
    let back = |_: &Loaded| format!("/campaigns/{id}?done=closed");
    let (st, actor) = (state.clone(), user.actor());
    on_campaign(&state, &req, &user, ctx, id, back, |c| async move {
        actions::close(&st.app, &c, &actor).await
    })
    .await
}
