//! Campaign pages: the list and the new-campaign form, joining by code, the campaign (map,
//! orders, battles, forces), a force as it stands and its reinforcements, standings, the log,
//! the map editor and the organiser's tools. Every action is a plain form POST.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use serde::Deserialize;

use crate::app;
use crate::app::campaigns::actions::{self as actions, Adjustment, NewCampaignInput, Purchase};
use crate::app::campaigns::{load_for, log_rows, Loaded};
use crate::rules::campaign::forces::restore_options;
use crate::rules::campaign::map_edit::PlaceInput;
use crate::rules::campaign::movement::{
    Map, Order, Place, PlaceKind, RouteKind, MAP_HEIGHT, MAP_WIDTH,
};
use crate::rules::campaign::presets::presets;
use crate::rules::campaign::standings::{standings, Standings};
use crate::rules::campaign::state::{BattleStatus, HouseRules, Phase};
use crate::rules::lotf::{ElementType, ScenarioId, Size, Upgrade, War};
use crate::store::campaigns as store;
use crate::web::auth::csrf::{CsrfForm, NoFields};
use crate::web::auth::{SignedIn, SignedInUser};
use crate::web::campaign_view::{attention, log_lines, svg_map, LogLine, SvgMap};
use crate::web::lotf::historical::ForceChoice;
use crate::web::page::{redirect, render_with_status, FormErrors, PageCtx};
use crate::web::state::{with_conn, AppState};
use crate::web::AppError;

fn choice(value: impl Into<String>, label: impl Into<String>) -> ForceChoice {
    ForceChoice {
        value: value.into(),
        label: label.into(),
    }
}

/// Turns an action's refusal into messages on the page that was submitted; other errors pass.
fn into_form_errors(e: app::Error) -> Result<(FormErrors, StatusCode), AppError> {
    let mut errors = FormErrors::default();
    let status = match e {
        app::Error::Validation { details, .. } => {
            for d in details {
                errors.general.push(d.message);
            }
            StatusCode::UNPROCESSABLE_ENTITY
        }
        app::Error::BadRequest { message, .. } => {
            errors.general.push(message);
            StatusCode::UNPROCESSABLE_ENTITY
        }
        app::Error::Conflict(m) => {
            errors.general.push(m);
            StatusCode::CONFLICT
        }
        other => return Err(other.into()),
    };
    Ok((errors, status))
}

// ---------- list, create, join ----------

pub struct CampaignLine {
    pub id: i64,
    pub name: String,
    pub phase: String,
    pub turn: i32,
    pub organiser: bool,
}

pub struct PresetView {
    pub id: &'static str,
    pub title: &'static str,
    pub blurb: &'static str,
    pub places: usize,
}

#[derive(Template)]
#[template(path = "campaigns/list.html")]
struct ListPage {
    ctx: PageCtx,
    campaigns: Vec<CampaignLine>,
    presets: Vec<PresetView>,
    wars: Vec<ForceChoice>,
    scenarios: Vec<ForceChoice>,
    switches: Vec<(&'static str, &'static str, bool)>,
    form: NewForm,
    errors: FormErrors,
}

#[derive(Debug, Deserialize)]
#[serde(default)]
pub struct NewForm {
    pub name: String,
    pub map: String,
    pub war: String,
    pub points: String,
    pub turns: String,
    pub side_a: String,
    pub side_b: String,
    pub scenario: String,
    /// Switches that are ticked (a form sends only those).
    #[serde(flatten)]
    pub ticks: std::collections::HashMap<String, String>,
}

impl Default for NewForm {
    fn default() -> Self {
        NewForm {
            name: String::new(),
            map: "philadelphia-1777".into(),
            war: "american_revolution".into(),
            points: "200".into(),
            turns: "8".into(),
            side_a: String::new(),
            side_b: String::new(),
            scenario: String::new(),
            ticks: HouseRules::default()
                .switches()
                .iter()
                .map(|(id, _, _)| (format!("rule_{id}"), "on".to_string()))
                .collect(),
        }
    }
}

impl NewForm {
    pub fn ticked(&self, id: &str) -> bool {
        self.ticks.contains_key(&format!("rule_{id}"))
    }
}

fn phase_label(p: &str) -> &'static str {
    match p {
        "enlisting" => "Enlisting",
        "orders" => "Orders open",
        "battles" => "Battles to fight",
        "ended" => "Ended",
        _ => "?",
    }
}

async fn list_page(
    state: &web::Data<AppState>,
    user: &SignedInUser,
    ctx: PageCtx,
    form: NewForm,
    errors: FormErrors,
    status: StatusCode,
) -> Result<HttpResponse, AppError> {
    let uid = user.id;
    let rows = with_conn(state, move |conn| Ok(store::list_for_user(conn, uid)?)).await?;
    let mut scenarios = vec![choice("", "Roll on the book's 2d6 table for each battle")];
    scenarios.extend(ScenarioId::ALL.iter().map(|s| {
        choice(
            s.id(),
            crate::rules::campaign::turn::scenario_name(&state.app.rules.lotf, *s),
        )
    }));
    render_with_status(
        &ListPage {
            ctx,
            campaigns: rows
                .iter()
                .map(|r| CampaignLine {
                    id: r.id,
                    name: r.name.clone(),
                    phase: phase_label(&r.phase).into(),
                    turn: r.turn,
                    organiser: r.organiser_id == uid,
                })
                .collect(),
            presets: presets()
                .into_iter()
                .map(|p| PresetView {
                    id: p.id,
                    title: p.title,
                    blurb: p.blurb,
                    places: p.map.places.len(),
                })
                .collect(),
            wars: War::ALL.iter().map(|w| choice(w.id(), w.label())).collect(),
            scenarios,
            switches: HouseRules::default().switches().to_vec(),
            form,
            errors,
        },
        status,
    )
}

pub async fn list(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
) -> Result<HttpResponse, AppError> {
    list_page(
        &state,
        &user,
        ctx,
        NewForm::default(),
        FormErrors::default(),
        StatusCode::OK,
    )
    .await
}

pub async fn create(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    CsrfForm(form): CsrfForm<NewForm>,
) -> Result<HttpResponse, AppError> {
    let mut rules = HouseRules::default();
    for (id, _, _) in HouseRules::default().switches() {
        rules.set(id, form.ticked(id));
    }
    let number = |s: &str| s.trim().parse::<u32>().unwrap_or(0);
    let input = NewCampaignInput {
        name: form.name.clone(),
        map: form.map.clone(),
        war: form.war.clone(),
        points: number(&form.points),
        turns: number(&form.turns),
        sides: [form.side_a.clone(), form.side_b.clone()],
        rules,
        scenario: Some(form.scenario.clone()),
    };
    match actions::create(&state.app, &user.actor(), input).await {
        Ok(row) => Ok(redirect(&format!("/campaigns/{}", row.id))),
        Err(e) => {
            let (errors, status) = into_form_errors(e)?;
            list_page(&state, &user, ctx, form, errors, status).await
        }
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct CodeForm {
    pub code: String,
}

/// The "join with a code" box sends the code here; the join page lives at its own address.
pub async fn join_code(
    SignedIn(_user): SignedIn,
    CsrfForm(form): CsrfForm<CodeForm>,
) -> Result<HttpResponse, AppError> {
    let code: String = form
        .code
        .trim()
        .to_uppercase()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect();
    Ok(redirect(&format!("/campaigns/join/{code}")))
}

#[derive(Template)]
#[template(path = "campaigns/join.html")]
struct JoinPage {
    ctx: PageCtx,
    code: String,
    id: i64,
    name: String,
    war: String,
    points: u32,
    turns: u32,
    sides: Vec<ForceChoice>,
    rosters: Vec<ForceChoice>,
    already: bool,
    open: bool,
    over: bool,
    errors: FormErrors,
}

async fn join_page(
    state: &web::Data<AppState>,
    user: &SignedInUser,
    ctx: PageCtx,
    code: &str,
    errors: FormErrors,
    status: StatusCode,
) -> Result<HttpResponse, AppError> {
    let (row, st) = crate::app::campaigns::by_code(&state.app, code).await?;
    let settings = st.settings().ok_or(AppError::NotFound)?.clone();
    let (uid, war) = (user.id, settings.war.clone());
    let rosters = with_conn(state, move |conn| {
        Ok(crate::store::rosters::list_for_owner(
            conn,
            uid,
            Some(&war),
        )?)
    })
    .await?;
    render_with_status(
        &JoinPage {
            ctx,
            code: row.invite_code.clone(),
            id: row.id,
            name: row.name.clone(),
            war: War::from_id(&settings.war).map_or(settings.war.clone(), |w| w.label().into()),
            points: settings.points,
            turns: settings.turns,
            sides: settings
                .sides
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    let n = st
                        .forces
                        .values()
                        .filter(|f| usize::from(f.side) == i)
                        .count();
                    let players = match n {
                        0 => "no one yet".to_string(),
                        1 => "1 player so far".to_string(),
                        n => format!("{n} players so far"),
                    };
                    choice(i.to_string(), format!("{} ({players})", s.name))
                })
                .collect(),
            rosters: rosters
                .iter()
                .map(|r| {
                    choice(
                        r.id.to_string(),
                        format!(
                            "{} ({} points{})",
                            r.name,
                            r.points,
                            if r.legal { "" } else { ", not legal yet" }
                        ),
                    )
                })
                .collect(),
            already: st.force_of_user(uid).is_some(),
            open: st.phase == Phase::Enlisting,
            over: st.phase == Phase::Ended,
            errors,
        },
        status,
    )
}

pub async fn join_show(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    code: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    join_page(
        &state,
        &user,
        ctx,
        &code,
        FormErrors::default(),
        StatusCode::OK,
    )
    .await
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct JoinForm {
    pub side: String,
    pub roster: String,
}

pub async fn join(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    code: web::Path<String>,
    CsrfForm(form): CsrfForm<JoinForm>,
) -> Result<HttpResponse, AppError> {
    let side = form.side.parse::<u8>().unwrap_or(9);
    let roster = form.roster.parse::<i64>().unwrap_or(0);
    match actions::join(&state.app, &user.actor(), &code, side, roster).await {
        Ok((id, _)) => Ok(redirect(&format!("/campaigns/{id}"))),
        Err(e) => {
            let (errors, status) = into_form_errors(e)?;
            join_page(&state, &user, ctx, &code, errors, status).await
        }
    }
}

// ---------- the campaign ----------

pub struct RouteChoice {
    pub route: String,
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
    points: u32,
    sides: Vec<String>,
    map: SvgMap,
    attention: Vec<String>,
    routes: Vec<RouteChoice>,
    hold_chosen: bool,
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

/// What a successful action says on the page it returns to.
fn notice_for(done: &str) -> &'static str {
    match done {
        "order" => "Your order is in. Nobody else sees it until the turn closes; you may change it until then.",
        "started" => "The campaign has begun: orders for turn 1 are open.",
        "closed" => "The turn is closed: the orders are revealed and the moves made.",
        "bought" => "Bought: the force and its bank are updated, and the purchase is in the log.",
        "map" => "The map is saved.",
        _ => "",
    }
}

fn force_name(c: &Loaded, id: &str) -> String {
    c.state.forces.get(id).map_or(id.to_string(), |f| {
        format!("{} ({})", f.roster.name, f.player)
    })
}

async fn show_page(
    state: &web::Data<AppState>,
    req: &HttpRequest,
    ctx: PageCtx,
    c: Loaded,
    errors: FormErrors,
    status: StatusCode,
    notice: &'static str,
) -> Result<HttpResponse, AppError> {
    let st = &c.state;
    let settings = st.settings().ok_or(AppError::NotFound)?;
    let mine = c.force.as_ref().and_then(|f| st.forces.get(f));
    let my_order = mine.and_then(|f| st.orders.get(&f.id));
    let routes = mine
        .filter(|f| f.active())
        .map(|f| {
            st.map
                .routes
                .iter()
                .filter_map(|r| {
                    let to = st.map.other_end(&r.id, &f.place)?;
                    Some(RouteChoice {
                        route: r.id.clone(),
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
    let rows = log_rows(&state.app, c.id()).await?;
    let mut recent = log_lines(&c, &rows, None, None)?;
    recent.reverse();
    recent.truncate(12);
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
            scenario: b.scenario.replace('_', " "),
            record: b.record,
            status: crate::web::campaign_view::battle_words(&c, b),
            to_fight: b.status == BattleStatus::Pending && c.record_status(b.record) == "set_up",
            mine: c
                .force
                .as_ref()
                .is_some_and(|f| *f == b.attacker || *f == b.defender),
        })
        .collect();
    let forces = st
        .forces
        .values()
        .map(|f| ForceRow {
            id: f.id.clone(),
            player: f.player.clone(),
            name: f.roster.name.clone(),
            side: f.side,
            side_name: st.side_name(f.side).to_string(),
            place: st.place_name(&f.place).to_string(),
            elements: f.roster.element_count(),
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
        points: settings.points,
        sides: settings.sides.iter().map(|s| s.name.clone()).collect(),
        map: svg_map(&c),
        attention: attention(&c, &state.app.rules.lotf),
        routes,
        hold_chosen: my_order == Some(&Order::Hold),
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

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Done {
    pub done: String,
}

pub async fn show(
    state: web::Data<AppState>,
    req: HttpRequest,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
    done: web::Query<Done>,
) -> Result<HttpResponse, AppError> {
    let c = load_for(&state.app, &user.actor(), id.into_inner()).await?;
    let notice = notice_for(&done.done);
    show_page(
        &state,
        &req,
        ctx,
        c,
        FormErrors::default(),
        StatusCode::OK,
        notice,
    )
    .await
}

/// Runs an action from the campaign page: back to it on success, or the page with the refusal.
async fn on_campaign<F, Fut>(
    state: &web::Data<AppState>,
    req: &HttpRequest,
    user: &SignedInUser,
    ctx: PageCtx,
    id: i64,
    back: &str,
    act: F,
) -> Result<HttpResponse, AppError>
where
    F: FnOnce(Loaded) -> Fut,
    Fut: std::future::Future<Output = Result<Loaded, app::Error>>,
{
    let c = load_for(&state.app, &user.actor(), id).await?;
    match act(c).await {
        Ok(_) => Ok(redirect(back)),
        Err(e) => {
            let (errors, status) = into_form_errors(e)?;
            let c = load_for(&state.app, &user.actor(), id).await?;
            show_page(state, req, ctx, c, errors, status, "").await
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
    let back = format!("/campaigns/{id}?done=started");
    let (st, actor) = (state.clone(), user.actor());
    on_campaign(&state, &req, &user, ctx, id, &back, |c| async move {
        actions::start(&st.app, &c, &actor).await
    })
    .await
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct OrderForm {
    /// `hold` or a route id.
    pub order: String,
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
    let back = format!("/campaigns/{id}?done=order");
    let (st, actor) = (state.clone(), user.actor());
    on_campaign(&state, &req, &user, ctx, id, &back, |c| async move {
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
        actions::give_order(&st.app, &c, &actor, &force, order).await
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
    let back = format!("/campaigns/{id}?done=closed");
    let (st, actor) = (state.clone(), user.actor());
    on_campaign(&state, &req, &user, ctx, id, &back, |c| async move {
        actions::close(&st.app, &c, &actor).await
    })
    .await
}

// ---------- a force ----------

pub struct ElementLine {
    pub id: String,
    pub name: String,
    pub kind: String,
    pub size: String,
    pub full: String,
    pub reduced: bool,
    pub upgrades: String,
    pub points: u32,
    pub history: Vec<String>,
}

pub struct GroupView {
    pub id: String,
    pub name: String,
    pub commander: String,
    pub rating: String,
    pub commander_history: Vec<String>,
    pub elements: Vec<ElementLine>,
}

pub struct LostLine {
    pub history: Vec<String>,
}

#[derive(Template)]
#[template(path = "campaigns/force.html")]
struct ForcePage {
    ctx: PageCtx,
    campaign_id: i64,
    campaign_name: String,
    force_id: String,
    name: String,
    player: String,
    side: String,
    place: String,
    bank: u32,
    points: u32,
    limit: u32,
    room: u32,
    out: String,
    fc_name: String,
    fc_rating: String,
    fc_history: Vec<String>,
    notice: &'static str,
    groups: Vec<GroupView>,
    lost: Vec<LostLine>,
    mine: bool,
    running: bool,
    element_choices: Vec<ForceChoice>,
    reduced_choices: Vec<ForceChoice>,
    group_choices: Vec<ForceChoice>,
    upgrade_choices: Vec<ForceChoice>,
    type_choices: Vec<ForceChoice>,
    size_choices: Vec<ForceChoice>,
    errors: FormErrors,
}

fn rating_words(cat: &crate::rules::lotf::Catalogue, roll: Option<&u8>) -> String {
    roll.and_then(|r| {
        cat.commander_rating_for_roll(*r)
            .map(|x| format!("{} (rolled {r})", x.name))
    })
    .unwrap_or_else(|| "not rolled".into())
}

async fn force_page(
    state: &web::Data<AppState>,
    ctx: PageCtx,
    c: Loaded,
    force: &str,
    errors: FormErrors,
    status: StatusCode,
    notice: &'static str,
) -> Result<HttpResponse, AppError> {
    let cat = &state.app.rules.lotf;
    let st = &c.state;
    let f = st.forces.get(force).ok_or(AppError::NotFound)?;
    let history = |id: &Option<String>| {
        id.as_ref()
            .and_then(|i| f.history.get(i))
            .cloned()
            .unwrap_or_default()
    };
    let mut on_roster = std::collections::BTreeSet::new();
    let groups: Vec<GroupView> = f
        .roster
        .groups
        .iter()
        .map(|g| GroupView {
            id: g.id.clone().unwrap_or_default(),
            name: if g.name.is_empty() {
                "Group".into()
            } else {
                g.name.clone()
            },
            commander: g
                .commander
                .as_ref()
                .map(|c| c.name.clone())
                .unwrap_or_default(),
            rating: rating_words(
                cat,
                g.commander
                    .as_ref()
                    .and_then(|c| c.id.as_ref())
                    .and_then(|id| f.ratings.get(id)),
            ),
            commander_history: history(&g.commander.as_ref().and_then(|c| c.id.clone())),
            elements: g
                .elements
                .iter()
                .map(|e| {
                    let id = e.id.clone().unwrap_or_default();
                    on_roster.insert(id.clone());
                    let full = f
                        .full_sizes
                        .get(&id)
                        .cloned()
                        .unwrap_or_else(|| e.size.id().into());
                    ElementLine {
                        reduced: full != e.size.id(),
                        full: Size::from_id(&full).map_or(full.clone(), |s| s.label().into()),
                        id: id.clone(),
                        name: e.name.clone(),
                        kind: e.element_type.label().into(),
                        size: e.size.label().into(),
                        upgrades: e
                            .upgrades
                            .iter()
                            .map(|u| u.label())
                            .collect::<Vec<_>>()
                            .join(", "),
                        points: crate::rules::lotf::price_element(cat, e),
                        history: f.history.get(&id).cloned().unwrap_or_default(),
                    }
                })
                .collect(),
        })
        .collect();
    let commander_ids: std::collections::BTreeSet<String> = f.ratings.keys().cloned().collect();
    let lost = f
        .history
        .iter()
        .filter(|(id, _)| !on_roster.contains(*id) && !commander_ids.contains(*id))
        .map(|(_, h)| LostLine { history: h.clone() })
        .collect();
    let elements: Vec<(&str, String)> = f
        .roster
        .groups
        .iter()
        .flat_map(|g| &g.elements)
        .map(|e| (e.id.as_deref().unwrap_or(""), e.name.clone()))
        .collect();
    let fc = f.roster.force_commander.as_ref();
    let page = ForcePage {
        campaign_id: c.id(),
        campaign_name: c.row.name.clone(),
        force_id: f.id.clone(),
        name: f.roster.name.clone(),
        player: f.player.clone(),
        side: st.side_name(f.side).into(),
        place: st.place_name(&f.place).into(),
        bank: f.bank,
        points: crate::rules::campaign::turn::force_points(cat, f),
        limit: st.points(),
        room: st
            .points()
            .saturating_sub(crate::rules::campaign::turn::force_points(cat, f)),
        out: f.out.clone().unwrap_or_default(),
        fc_name: fc.map(|c| c.name.clone()).unwrap_or_default(),
        fc_rating: rating_words(
            cat,
            fc.and_then(|c| c.id.as_ref())
                .and_then(|id| f.ratings.get(id)),
        ),
        fc_history: history(&fc.and_then(|c| c.id.clone())),
        notice,
        lost,
        mine: c.force.as_deref() == Some(force),
        running: st.phase == Phase::Orders && f.active(),
        element_choices: elements
            .iter()
            .map(|(id, n)| choice(*id, n.clone()))
            .collect(),
        reduced_choices: restore_options(st, cat, force)
            .into_iter()
            .map(|o| {
                choice(
                    o.element,
                    format!(
                        "{}: {} to {} for {} points",
                        o.name,
                        o.from.label(),
                        o.to.label(),
                        o.cost
                    ),
                )
            })
            .collect(),
        group_choices: groups
            .iter()
            .map(|g| choice(g.id.clone(), g.name.clone()))
            .collect(),
        upgrade_choices: Upgrade::ALL
            .iter()
            .map(|u| {
                choice(
                    u.id(),
                    cat.upgrade(*u).map_or(u.label().to_string(), |d| {
                        format!("{} ({:+} points)", d.name, d.points)
                    }),
                )
            })
            .collect(),
        type_choices: ElementType::ALL
            .iter()
            .map(|t| choice(t.id(), t.label()))
            .collect(),
        size_choices: Size::ALL
            .iter()
            .map(|s| choice(s.id(), s.label()))
            .collect(),
        groups,
        errors,
        ctx,
    };
    render_with_status(&page, status)
}

pub async fn force(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    path: web::Path<(i64, String)>,
    done: web::Query<Done>,
) -> Result<HttpResponse, AppError> {
    let (id, force) = path.into_inner();
    let c = load_for(&state.app, &user.actor(), id).await?;
    let notice = notice_for(&done.done);
    force_page(
        &state,
        ctx,
        c,
        &force,
        FormErrors::default(),
        StatusCode::OK,
        notice,
    )
    .await
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct BuyForm {
    /// `restore`, `upgrade` or `element`.
    pub buy: String,
    pub element: String,
    pub upgrade: String,
    pub group: String,
    pub name: String,
    #[serde(rename = "type")]
    pub element_type: String,
    pub size: String,
}

pub async fn buy(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    path: web::Path<(i64, String)>,
    CsrfForm(form): CsrfForm<BuyForm>,
) -> Result<HttpResponse, AppError> {
    let (id, force) = path.into_inner();
    let c = load_for(&state.app, &user.actor(), id).await?;
    let what = match form.buy.as_str() {
        "restore" => Purchase::Restore {
            element: form.element.clone(),
        },
        "upgrade" => Purchase::Upgrade {
            element: form.element.clone(),
            upgrade: form.upgrade.clone(),
        },
        "element" => Purchase::Element {
            group: form.group.clone(),
            name: form.name.clone(),
            element_type: form.element_type.clone(),
            size: form.size.clone(),
            weapon: None,
        },
        _ => return Err(AppError::bad_request("Say what to buy.")),
    };
    match actions::purchase(&state.app, &c, &user.actor(), &force, what).await {
        Ok(_) => Ok(redirect(&format!(
            "/campaigns/{id}/forces/{force}?done=bought"
        ))),
        Err(e) => {
            let (errors, status) = into_form_errors(e)?;
            let c = load_for(&state.app, &user.actor(), id).await?;
            force_page(&state, ctx, c, &force, errors, status, "").await
        }
    }
}

/// Cards or the roster sheet of a force as it stands, with its history and rated commanders.
pub async fn force_print(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    path: web::Path<(i64, String, String)>,
    query: web::Query<crate::web::print::PrintQuery>,
) -> Result<HttpResponse, AppError> {
    let (id, force, kind) = path.into_inner();
    let c = load_for(&state.app, &user.actor(), id).await?;
    let f = c.state.forces.get(&force).ok_or(AppError::NotFound)?;
    let cat = &state.app.rules.lotf;
    let mut fs = crate::web::print::ForceState {
        label: Some(format!("{}, turn {}", c.row.name, c.state.turn)),
        ..Default::default()
    };
    for (eid, h) in &f.history {
        if f.ratings.contains_key(eid) {
            continue;
        }
        fs.elements.insert(
            eid.clone(),
            crate::web::print::ElementState {
                size: None,
                removed: false,
                history: h.clone(),
            },
        );
    }
    for (cid, roll) in &f.ratings {
        let history = f.history.get(cid).cloned().unwrap_or_default();
        if let Some(state) = crate::web::print::CommanderState::rolled(cat, *roll, history) {
            fs.commanders.insert(cid.clone(), state);
        }
    }
    let action = format!("/campaigns/{id}/forces/{force}/print/{kind}");
    crate::web::pages::print::print_force(&state, ctx, &f.roster, Some(&fs), &kind, &query, action)
}

// ---------- standings and log ----------

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
    turns: Vec<ForceChoice>,
    forces: Vec<ForceChoice>,
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
    let lines = log_lines(&c, &rows, turn, force)?;
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
            .map(|f| choice(f.id.clone(), format!("{} ({})", f.roster.name, f.player))),
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

// ---------- the map editor ----------

#[derive(Template)]
#[template(path = "campaigns/map_edit.html")]
struct MapEditPage {
    ctx: PageCtx,
    id: i64,
    name: String,
    map: SvgMap,
    legend: (String, String),
    places: Vec<Place>,
    routes: Vec<(String, String, String, &'static str)>,
    place_choices: Vec<ForceChoice>,
    kinds: Vec<ForceChoice>,
    route_kinds: Vec<ForceChoice>,
    homes: Vec<String>,
    side_names: Vec<String>,
    width: u16,
    height: u16,
    notice: &'static str,
    errors: FormErrors,
}

async fn map_page(
    ctx: PageCtx,
    c: Loaded,
    errors: FormErrors,
    status: StatusCode,
    notice: &'static str,
) -> Result<HttpResponse, AppError> {
    let st = &c.state;
    let settings = st.settings().ok_or(AppError::NotFound)?;
    render_with_status(
        &MapEditPage {
            id: c.id(),
            name: c.row.name.clone(),
            map: svg_map(&c),
            legend: (
                settings.sides[0].name.clone(),
                settings.sides[1].name.clone(),
            ),
            places: st.map.places.clone(),
            routes: st
                .map
                .routes
                .iter()
                .map(|r| {
                    (
                        r.id.clone(),
                        st.place_name(&r.from).to_string(),
                        st.place_name(&r.to).to_string(),
                        r.kind.id(),
                    )
                })
                .collect(),
            place_choices: st
                .map
                .places
                .iter()
                .map(|p| choice(p.id.clone(), p.name.clone()))
                .collect(),
            kinds: PlaceKind::ALL
                .iter()
                .map(|k| choice(k.id(), k.id()))
                .collect(),
            route_kinds: RouteKind::ALL
                .iter()
                .map(|k| choice(k.id(), k.id()))
                .collect(),
            homes: settings.sides.iter().map(|s| s.home.clone()).collect(),
            side_names: settings.sides.iter().map(|s| s.name.clone()).collect(),
            width: MAP_WIDTH,
            height: MAP_HEIGHT,
            notice,
            errors,
            ctx,
        },
        status,
    )
}

pub async fn map_edit(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
    done: web::Query<Done>,
) -> Result<HttpResponse, AppError> {
    let c = load_for(&state.app, &user.actor(), id.into_inner()).await?;
    crate::app::campaigns::require_organiser(&c)?;
    map_page(
        ctx,
        c,
        FormErrors::default(),
        StatusCode::OK,
        notice_for(&done.done),
    )
    .await
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct MapForm {
    /// `add_place`, `update_place`, `remove_place`, `add_route`, `remove_route`, `homes`.
    pub op: String,
    pub place: String,
    pub name: String,
    pub kind: String,
    pub x: String,
    pub y: String,
    pub value: String,
    pub supply: String,
    pub route: String,
    pub from: String,
    pub to: String,
    pub home_a: String,
    pub home_b: String,
}

/// A place id from a name: lower-case letters and digits joined by underscores, unique.
/// The map and homes after one change from the editor's form; the rules check each change
/// (`rules::campaign::map_edit`), the whole map is checked again when it is saved.
fn edited_map(c: &Loaded, form: &MapForm) -> Result<(Map, [String; 2]), app::Error> {
    let st = &c.state;
    let mut map = st.map.clone();
    let mut homes = st
        .settings()
        .map(|s| [s.sides[0].home.clone(), s.sides[1].home.clone()])
        .unwrap_or_default();
    let place = PlaceInput {
        name: &form.name,
        kind: &form.kind,
        x: &form.x,
        y: &form.y,
        value: &form.value,
        supply: form.supply == "on",
    };
    match form.op.as_str() {
        "add_place" => map.add_place(&place).map(|_| ())?,
        "update_place" => map.update_place(&form.place, &place)?,
        "remove_place" => map.remove_place(&form.place, &homes)?,
        "add_route" => map
            .add_route(&form.from, &form.to, &form.kind)
            .map(|_| ())?,
        "remove_route" => map.remove_route(&form.route),
        "homes" => homes = [form.home_a.clone(), form.home_b.clone()],
        _ => return Err(app::Error::bad_request("Unknown map change.")),
    }
    Ok((map, homes))
}

pub async fn map_change(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
    CsrfForm(form): CsrfForm<MapForm>,
) -> Result<HttpResponse, AppError> {
    let id = id.into_inner();
    let c = load_for(&state.app, &user.actor(), id).await?;
    crate::app::campaigns::require_organiser(&c)?;
    let done = match edited_map(&c, &form) {
        Ok((map, homes)) => actions::set_map(&state.app, &c, &user.actor(), map, homes).await,
        Err(e) => Err(e),
    };
    match done {
        Ok(_) => Ok(redirect(&format!("/campaigns/{id}/map?done=map"))),
        Err(e) => {
            let (errors, status) = into_form_errors(e)?;
            let c = load_for(&state.app, &user.actor(), id).await?;
            map_page(ctx, c, errors, status, "").await
        }
    }
}

// ---------- organiser tools ----------

pub struct ArrangeView {
    pub no: u32,
    pub label: String,
    pub attackers: Vec<ForceChoice>,
    pub attacker: String,
    pub defenders: Vec<ForceChoice>,
    pub defender: String,
    pub scenario: String,
}

#[derive(Template)]
#[template(path = "campaigns/organiser.html")]
struct OrganiserPage {
    ctx: PageCtx,
    id: i64,
    name: String,
    pending: Vec<ArrangeView>,
    scenarios: Vec<ForceChoice>,
    battles: Vec<ForceChoice>,
    forces: Vec<ForceChoice>,
    sides: Vec<ForceChoice>,
    rules: Vec<(&'static str, &'static str, bool)>,
    errors: FormErrors,
    done: String,
}

async fn organiser_page(
    state: &web::Data<AppState>,
    ctx: PageCtx,
    c: Loaded,
    errors: FormErrors,
    status: StatusCode,
    done: String,
) -> Result<HttpResponse, AppError> {
    let voidable = crate::app::campaigns::voidable_battles(&state.app, &c).await?;
    let st = &c.state;
    let label = |f: &String| choice(f.clone(), force_name(&c, f));
    render_with_status(
        &OrganiserPage {
            id: c.id(),
            name: c.row.name.clone(),
            pending: st
                .pending_battles()
                .map(|b| ArrangeView {
                    no: b.no,
                    label: format!("Battle {} at {}", b.no, b.name),
                    attackers: std::iter::once(&b.attacker)
                        .chain(&b.attacker_support)
                        .map(label)
                        .collect(),
                    attacker: b.attacker.clone(),
                    defenders: std::iter::once(&b.defender)
                        .chain(&b.defender_support)
                        .map(label)
                        .collect(),
                    defender: b.defender.clone(),
                    scenario: b.scenario.clone(),
                })
                .collect(),
            scenarios: ScenarioId::ALL
                .iter()
                .map(|s| {
                    choice(
                        s.id(),
                        crate::rules::campaign::turn::scenario_name(&state.app.rules.lotf, *s),
                    )
                })
                .collect(),
            // Only what the void action accepts (M-94).
            battles: voidable
                .iter()
                .filter_map(|no| st.battle(*no))
                .map(|b| {
                    choice(
                        b.no.to_string(),
                        format!(
                            "Battle {} at {} (turn {}, {})",
                            b.no,
                            b.name,
                            b.turn,
                            crate::web::campaign_view::battle_words(&c, b).to_lowercase()
                        ),
                    )
                })
                .collect(),
            forces: st
                .forces
                .values()
                .map(|f| choice(f.id.clone(), format!("{} ({})", f.roster.name, f.player)))
                .collect(),
            sides: (0..2u8)
                .map(|s| choice(s.to_string(), st.side_name(s)))
                .collect(),
            rules: st.rules().switches().to_vec(),
            errors,
            done,
            ctx,
        },
        status,
    )
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct DoneQuery {
    pub done: String,
}

pub async fn organiser(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
    query: web::Query<DoneQuery>,
) -> Result<HttpResponse, AppError> {
    let c = load_for(&state.app, &user.actor(), id.into_inner()).await?;
    crate::app::campaigns::require_organiser(&c)?;
    let done = match query.done.as_str() {
        "void" => "The battle is void and set up again; its players fight or record it anew.",
        "adjust" => "The adjustment is made and logged.",
        "replace" => "The force has its new player.",
        "arrange" => "The battle is set up again as you chose.",
        "simulate" => "The simulator has fought the battle; its result is in the log.",
        _ => "",
    };
    organiser_page(
        &state,
        ctx,
        c,
        FormErrors::default(),
        StatusCode::OK,
        done.into(),
    )
    .await
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ToolForm {
    /// `void`, `adjust` or `replace`.
    pub tool: String,
    pub battle: String,
    pub reason: String,
    /// `f:<force>` or `s:<side>` for an adjustment; a force id to replace.
    pub target: String,
    pub points: String,
    pub bank: String,
    pub email: String,
    pub attacker: String,
    pub defender: String,
    pub scenario: String,
}

pub async fn organiser_action(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
    CsrfForm(form): CsrfForm<ToolForm>,
) -> Result<HttpResponse, AppError> {
    let id = id.into_inner();
    let c = load_for(&state.app, &user.actor(), id).await?;
    crate::app::campaigns::require_organiser(&c)?;
    let int = |s: &str| s.trim().parse::<i32>().unwrap_or(0);
    let done = match form.tool.as_str() {
        "void" => {
            let no = form.battle.parse::<u32>().unwrap_or(0);
            actions::void(&state.app, &c, &user.actor(), no, &form.reason)
                .await
                .map(|_| "void")
        }
        "adjust" => {
            let (force, side) = match form.target.split_once(':') {
                Some(("f", f)) => (Some(f.to_string()), None),
                Some(("s", s)) => (None, s.parse::<u8>().ok()),
                _ => (None, None),
            };
            actions::adjust(
                &state.app,
                &c,
                &user.actor(),
                Adjustment {
                    force,
                    side,
                    points: int(&form.points),
                    bank: int(&form.bank),
                    reason: form.reason.clone(),
                },
            )
            .await
            .map(|_| "adjust")
        }
        "simulate" => {
            let no = form.battle.parse::<u32>().unwrap_or(0);
            app::battles::simulate_campaign_battle(&state.app, &c, &user.actor(), no)
                .await
                .map(|_| "simulate")
        }
        "arrange" => {
            let no = form.battle.parse::<u32>().unwrap_or(0);
            actions::rearrange(
                &state.app,
                &c,
                &user.actor(),
                no,
                actions::Arrangement {
                    attacker: Some(form.attacker.clone()),
                    defender: Some(form.defender.clone()),
                    scenario: Some(form.scenario.clone()),
                },
            )
            .await
            .map(|_| "arrange")
        }
        "replace" => {
            actions::replace_player(&state.app, &c, &user.actor(), &form.target, &form.email)
                .await
                .map(|_| "replace")
        }
        _ => Err(app::Error::bad_request("Choose a tool.")),
    };
    match done {
        Ok(key) => Ok(redirect(&format!("/campaigns/{id}/organiser?done={key}"))),
        Err(e) => {
            let (errors, status) = into_form_errors(e)?;
            let c = load_for(&state.app, &user.actor(), id).await?;
            organiser_page(&state, ctx, c, errors, status, String::new()).await
        }
    }
}
