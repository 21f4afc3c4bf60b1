//! Campaigns over the API: create and join, the map, orders and turns, forces and their
//! reinforcements, standings, the log, and the organiser's tools. Other players' orders are
//! never returned before the turn closes.

use actix_web::{delete, get, post, put, web, HttpResponse};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::app::campaigns::actions::{
    self as actions, Adjustment, Arrangement, NewCampaignInput, Purchase,
};
use crate::app::campaigns::{admin, audit, load_for, log_rows, Loaded};
use crate::rules::campaign::movement::{Map, Order};
use crate::rules::campaign::presets::presets;
use crate::rules::campaign::standings::standings;
use crate::web::auth::ApiUser;
use crate::web::campaign_view::{battles_json, campaign_json, log_lines, map_json, system_of};
use crate::web::error::ErrorBody;
use crate::web::state::AppState;
use crate::web::AppError;

/// The campaign as the user now sees it: the answer to every action, from the state the
/// action stored.
fn shown(state: &AppState, c: &Loaded) -> Result<HttpResponse, AppError> {
    Ok(HttpResponse::Ok().json(campaign_json(c, system_of(state, c)?)))
}

#[derive(Deserialize, utoipa::IntoParams)]
pub struct ListArchived {
    /// `true`: only the archived campaigns; otherwise they are left out.
    #[serde(default)]
    archived: bool,
}

/// List your campaigns
///
/// Campaigns you organise or play in, newest first. Archived campaigns are left out unless
/// `archived=true` asks for them alone.
#[utoipa::path(tag = "campaigns", security(("bearer" = [])), params(ListArchived), responses(
    (status = 200, description = "Your campaigns", body = CampaignListJson)
))]
#[get("/campaigns")]
pub async fn list(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    query: web::Query<ListArchived>,
) -> Result<HttpResponse, AppError> {
    let uid = user.id;
    let rows = crate::app::campaigns::list(&state.app, &user.actor(), query.archived).await?;
    let deadlines =
        crate::app::deadlines::scheduled(&state.app, rows.iter().map(|r| r.id).collect()).await?;
    let items: Vec<Value> = rows
        .iter()
        .map(|r| {
            json!({"id": r.id, "name": r.name, "phase": r.phase, "turn": r.turn,
                   "organiser": r.organiser_id == uid, "archived": r.archived,
                   "deadline": deadlines.get(&r.id).map(|t| t.and_utc().to_rfc3339_opts(chrono::SecondsFormat::Secs, true))})
        })
        .collect();
    Ok(HttpResponse::Ok().json(json!({ "campaigns": items })))
}

/// Preset maps
///
/// The ready-made maps a campaign can start from, with their places, routes and sides.
#[utoipa::path(tag = "campaigns", responses(
    (status = 200, description = "The presets", body = PresetListJson)
))]
#[get("/campaigns/presets")]
pub async fn preset_list() -> Result<HttpResponse, AppError> {
    let items: Vec<Value> = presets()
        .into_iter()
        .map(|p| {
            json!({"id": p.id, "title": p.title, "war": p.war, "description": p.blurb,
                   "sides": p.sides.iter().map(|(n, h)| json!({"name": n, "home": h})).collect::<Vec<_>>(),
                   "map": p.map})
        })
        .collect();
    Ok(HttpResponse::Ok().json(json!({ "presets": items })))
}

/// Create a campaign
///
/// You become its organiser. The answer carries the invite code players join with.
#[utoipa::path(tag = "campaigns", security(("bearer" = [])), request_body = NewCampaignInput, responses(
    (status = 201, description = "The campaign", body = CampaignJson),
    (status = 422, description = "A field needs attention", body = ErrorBody)
))]
#[post("/campaigns")]
pub async fn create(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    body: web::Json<NewCampaignInput>,
) -> Result<HttpResponse, AppError> {
    let row = actions::create(&state.app, &user.actor(), body.into_inner()).await?;
    let c = load_for(&state.app, &user.actor(), row.id).await?;
    Ok(HttpResponse::Created().json(campaign_json(&c, system_of(&state, &c)?)))
}

/// A campaign
///
/// Its phase and turn, sides, forces, battles, how many orders are in (and your own), and what
/// needs your attention. Members only.
#[utoipa::path(tag = "campaigns", security(("bearer" = [])), params(("id" = i64, Path, description = "Campaign id")), responses(
    (status = 200, description = "The campaign", body = CampaignJson),
    (status = 404, description = "No such campaign of yours", body = ErrorBody)
))]
#[get("/campaigns/{id}")]
pub async fn get_one(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let c = load_for(&state.app, &user.actor(), id.into_inner()).await?;
    Ok(HttpResponse::Ok().json(campaign_json(&c, system_of(&state, &c)?)))
}

/// The campaign map
///
/// Places, routes, the sides' homes, who holds each place, where the forces stand and the
/// last turn's moves.
#[utoipa::path(tag = "campaigns", security(("bearer" = [])), params(("id" = i64, Path, description = "Campaign id")), responses(
    (status = 200, description = "The map", body = MapViewJson),
    (status = 404, description = "No such campaign of yours", body = ErrorBody)
))]
#[get("/campaigns/{id}/map")]
pub async fn get_map(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let c = load_for(&state.app, &user.actor(), id.into_inner()).await?;
    Ok(HttpResponse::Ok().json(map_json(&c.state)))
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct MapJson {
    /// `{"places": [{"id", "name", "kind", "x", "y", "value", "supply"}], "routes": [{"id", "from", "to", "kind"}]}`
    #[schema(value_type = Object)]
    map: Map,
    /// The two sides' home place ids.
    #[schema(min_items = 2, max_items = 2)]
    homes: [String; 2],
}

/// Replace the campaign map
///
/// Organiser only, before the campaign starts. The map is checked whole: every problem is
/// named.
#[utoipa::path(tag = "campaigns", security(("bearer" = [])), params(("id" = i64, Path, description = "Campaign id")), request_body = MapJson, responses(
    (status = 200, description = "The new map", body = MapViewJson),
    (status = 403, description = "Not the organiser", body = ErrorBody),
    (status = 409, description = "The campaign has started", body = ErrorBody),
    (status = 422, description = "The map has problems", body = ErrorBody)
))]
#[put("/campaigns/{id}/map")]
pub async fn put_map(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
    body: web::Json<MapJson>,
) -> Result<HttpResponse, AppError> {
    let id = id.into_inner();
    let c = load_for(&state.app, &user.actor(), id).await?;
    let body = body.into_inner();
    let c = actions::set_map(&state.app, &c, &user.actor(), body.map, body.homes).await?;
    Ok(HttpResponse::Ok().json(map_json(&c.state)))
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct JoinJson {
    /// The invite code from the organiser.
    code: String,
    /// 0 or 1.
    #[schema(minimum = 0, maximum = 1)]
    side: u8,
    /// One of your rosters, legal at the campaign's battle size.
    roster_id: i64,
    /// Enlist even though the roster's nation did not fight for that side (M-104); without
    /// it such an enlistment is refused (422, field `accept_warning`) with the warning.
    #[serde(default)]
    accept_warning: bool,
}

/// Join a campaign
///
/// Enlists one of your rosters on a side; the server rolls your commanders' ratings and logs
/// the rolls with their seed.
#[utoipa::path(tag = "campaigns", security(("bearer" = [])), params(("id" = i64, Path, description = "Campaign id")), request_body = JoinJson, responses(
    (status = 201, description = "The campaign, with your force", body = CampaignJson),
    (status = 404, description = "No campaign with that id and code", body = ErrorBody),
    (status = 409, description = "Already enlisted, or the campaign has started", body = ErrorBody),
    (status = 422, description = "The roster is not legal at the battle size", body = ErrorBody)
))]
#[post("/campaigns/{id}/join")]
pub async fn join(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
    body: web::Json<JoinJson>,
) -> Result<HttpResponse, AppError> {
    let (row, _) = crate::app::campaigns::by_code(&state.app, &body.code).await?;
    if row.id != id.into_inner() {
        return Err(AppError::NotFound);
    }
    let (cid, _) = actions::join(
        &state.app,
        &user.actor(),
        &body.code,
        body.side,
        body.roster_id,
        body.accept_warning,
    )
    .await?;
    let c = load_for(&state.app, &user.actor(), cid).await?;
    Ok(HttpResponse::Created().json(campaign_json(&c, system_of(&state, &c)?)))
}

/// Join a campaign by its invite code
///
/// As the page's "Join with a code" does: the code alone names the campaign. Enlists one of
/// your rosters on a side; the server rolls your commanders' ratings and logs the rolls with
/// their seed.
#[utoipa::path(tag = "campaigns", security(("bearer" = [])), request_body = JoinJson, responses(
    (status = 201, description = "The campaign, with your force", body = CampaignJson),
    (status = 404, description = "No campaign has that code", body = ErrorBody),
    (status = 409, description = "Already enlisted, or the campaign has started", body = ErrorBody),
    (status = 422, description = "The roster is not yours or not legal at the battle size", body = ErrorBody)
))]
#[post("/campaigns/join")]
pub async fn join_by_code(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    body: web::Json<JoinJson>,
) -> Result<HttpResponse, AppError> {
    let (cid, _) = actions::join(
        &state.app,
        &user.actor(),
        &body.code,
        body.side,
        body.roster_id,
        body.accept_warning,
    )
    .await?;
    let c = load_for(&state.app, &user.actor(), cid).await?;
    Ok(HttpResponse::Created().json(campaign_json(&c, system_of(&state, &c)?)))
}

/// Start the campaign
///
/// Organiser only: closes enlistment and opens turn 1. Each side needs a force.
#[utoipa::path(tag = "campaigns", security(("bearer" = [])), params(("id" = i64, Path, description = "Campaign id")), responses(
    (status = 200, description = "The campaign", body = CampaignJson),
    (status = 403, description = "Not the organiser", body = ErrorBody),
    (status = 409, description = "Already started, or a side has no force", body = ErrorBody)
))]
#[post("/campaigns/{id}/start")]
pub async fn start(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let id = id.into_inner();
    let c = load_for(&state.app, &user.actor(), id).await?;
    let c = actions::start(&state.app, &c, &user.actor()).await?;
    shown(&state, &c)
}

/// Orders this turn
///
/// How many orders are in, and yours. Other players' orders stay hidden until the turn closes.
#[utoipa::path(tag = "campaigns", security(("bearer" = [])), params(("id" = i64, Path, description = "Campaign id")), responses(
    (status = 200, description = "Orders in, and yours", body = OrdersJson)
))]
#[get("/campaigns/{id}/orders")]
pub async fn get_orders(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let c = load_for(&state.app, &user.actor(), id.into_inner()).await?;
    let v = campaign_json(&c, system_of(&state, &c)?);
    Ok(HttpResponse::Ok().json(json!({"turn": c.state.turn, "orders": v["orders"]})))
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct OrderJson {
    /// Your force's id.
    force: String,
    /// `{"order": "hold"}` or `{"order": "move", "route": "r3"}`.
    #[schema(value_type = OrderSchema)]
    order: Order,
    /// The turn the order is for. When given and the campaign has moved on to another turn,
    /// the order is refused (409) instead of being applied to the new turn.
    #[serde(default)]
    turn: Option<u32>,
}

/// An order's shape (documents `rules::campaign::movement::Order`).
#[derive(Serialize, utoipa::ToSchema)]
#[serde(tag = "order", rename_all = "snake_case")]
#[allow(dead_code)] // only describes the JSON in the OpenAPI document
pub enum OrderSchema {
    /// Stay where the force stands.
    Hold,
    /// March along one route from where the force stands.
    Move { route: String },
}

/// Give an order
///
/// Hold, or move along one route from where the force stands. A later order replaces an
/// earlier one. When the last order is in, the turn closes by itself.
#[utoipa::path(tag = "campaigns", security(("bearer" = [])), params(("id" = i64, Path, description = "Campaign id")), request_body = OrderJson, responses(
    (status = 200, description = "The campaign after the order", body = CampaignJson),
    (status = 403, description = "Not your force", body = ErrorBody),
    (status = 409, description = "No turn is open, the route does not start here, or the order was for an earlier turn", body = ErrorBody)
))]
#[post("/campaigns/{id}/orders")]
pub async fn give_order(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
    body: web::Json<OrderJson>,
) -> Result<HttpResponse, AppError> {
    let id = id.into_inner();
    let c = load_for(&state.app, &user.actor(), id).await?;
    let body = body.into_inner();
    let c = actions::give_order(
        &state.app,
        &c,
        &user.actor(),
        &body.force,
        body.order,
        body.turn,
    )
    .await?;
    shown(&state, &c)
}

/// Close the turn
///
/// Organiser only. Orders are revealed (no order means hold), moves are made together, and
/// every contact becomes a battle; with no battle to fight, the turn ends at once.
#[utoipa::path(tag = "campaigns", security(("bearer" = [])), params(("id" = i64, Path, description = "Campaign id")), responses(
    (status = 200, description = "The campaign after the turn", body = CampaignJson),
    (status = 403, description = "Not the organiser", body = ErrorBody),
    (status = 409, description = "No turn is open", body = ErrorBody)
))]
#[post("/campaigns/{id}/turn/close")]
pub async fn close_turn(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let id = id.into_inner();
    let c = load_for(&state.app, &user.actor(), id).await?;
    let c = actions::close(&state.app, &c, &user.actor()).await?;
    shown(&state, &c)
}

/// The campaign's battles
///
/// Every battle with its place, forces, scenario and result; `record` is the battle's id under
/// `/api/v1/battles/{id}`, where its players simulate or record it.
#[utoipa::path(tag = "campaigns", security(("bearer" = [])), params(("id" = i64, Path, description = "Campaign id")), responses(
    (status = 200, description = "The battles", body = CampaignBattlesJson)
))]
#[get("/campaigns/{id}/battles")]
pub async fn battles(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let c = load_for(&state.app, &user.actor(), id.into_inner()).await?;
    Ok(HttpResponse::Ok().json(json!({ "battles": battles_json(&c.state) })))
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct ReasonJson {
    /// Why, for the log: 1 to 500 characters.
    #[schema(min_length = 1, max_length = 500)]
    reason: String,
}

/// Void the latest battle
///
/// Organiser only. The battle's aftermath is set aside (nothing is deleted) and it is set up
/// again on a fresh battle record. Refused once orders or purchases have followed it.
#[utoipa::path(tag = "campaigns", security(("bearer" = [])), params(("id" = i64, Path, description = "Campaign id"), ("no" = u32, Path, description = "Battle number in the campaign")), request_body = ReasonJson, responses(
    (status = 200, description = "The campaign", body = CampaignJson),
    (status = 403, description = "Not the organiser", body = ErrorBody),
    (status = 409, description = "Not the latest battle, or too late", body = ErrorBody)
))]
#[post("/campaigns/{id}/battles/{no}/void")]
pub async fn void_battle(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    path: web::Path<(i64, u32)>,
    body: web::Json<ReasonJson>,
) -> Result<HttpResponse, AppError> {
    let (id, no) = path.into_inner();
    let c = load_for(&state.app, &user.actor(), id).await?;
    let c = actions::void(&state.app, &c, &user.actor(), no, &body.reason).await?;
    shown(&state, &c)
}

/// Let the simulator decide a battle
///
/// Organiser only, for a battle not yet fought whose players cannot fight or record it. The
/// organiser decides alone, without the players' consent, so the reason is required and goes
/// into the campaign's log. The result is final at once and the campaign moves on.
#[utoipa::path(tag = "campaigns", security(("bearer" = [])), params(("id" = i64, Path, description = "Campaign id"), ("no" = u32, Path, description = "Battle number in the campaign")), request_body = ReasonJson, responses(
    (status = 200, description = "The campaign", body = CampaignJson),
    (status = 403, description = "Not the organiser", body = ErrorBody),
    (status = 409, description = "Already decided or recorded", body = ErrorBody),
    (status = 422, description = "No reason given", body = ErrorBody)
))]
#[post("/campaigns/{id}/battles/{no}/simulate")]
pub async fn simulate_battle(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    path: web::Path<(i64, u32)>,
    body: web::Json<ReasonJson>,
) -> Result<HttpResponse, AppError> {
    let (id, no) = path.into_inner();
    let c = load_for(&state.app, &user.actor(), id).await?;
    let c = crate::app::battles::simulate_campaign_battle(
        &state.app,
        &c,
        &user.actor(),
        no,
        &body.reason,
    )
    .await?;
    shown(&state, &c)
}

/// Arrange a battle before it is fought
///
/// Organiser only: which of a side's forces in the place fights (the others stand by and share
/// its retreat), and the scenario. The battle is set up again on a fresh record.
#[utoipa::path(tag = "campaigns", security(("bearer" = [])), params(("id" = i64, Path, description = "Campaign id"), ("no" = u32, Path, description = "Battle number in the campaign")), request_body = Arrangement, responses(
    (status = 200, description = "The campaign", body = CampaignJson),
    (status = 403, description = "Not the organiser", body = ErrorBody),
    (status = 409, description = "Already fought or recorded", body = ErrorBody),
    (status = 422, description = "That force is not in the place, or nothing changes", body = ErrorBody)
))]
#[post("/campaigns/{id}/battles/{no}/arrange")]
pub async fn arrange_battle(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    path: web::Path<(i64, u32)>,
    body: web::Json<Arrangement>,
) -> Result<HttpResponse, AppError> {
    let (id, no) = path.into_inner();
    let c = load_for(&state.app, &user.actor(), id).await?;
    let c = actions::rearrange(&state.app, &c, &user.actor(), no, body.into_inner()).await?;
    shown(&state, &c)
}

/// A force as it stands
///
/// Its roster now (casualties and purchases applied), commander ratings, bank, and each
/// element's and commander's history.
#[utoipa::path(tag = "campaigns", security(("bearer" = [])), params(("id" = i64, Path, description = "Campaign id"), ("force" = String, Path, description = "Force id")), responses(
    (status = 200, description = "The force", body = ForceJson),
    (status = 404, description = "No such force", body = ErrorBody)
))]
#[get("/campaigns/{id}/forces/{force}")]
pub async fn force_detail(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    path: web::Path<(i64, String)>,
) -> Result<HttpResponse, AppError> {
    let (id, force) = path.into_inner();
    let c = load_for(&state.app, &user.actor(), id).await?;
    let f = c.state.forces.get(&force).ok_or(AppError::NotFound)?;
    let total = crate::rules::campaign::turn::force_points(system_of(&state, &c)?, f);
    Ok(HttpResponse::Ok().json(json!({
        "id": f.id, "player": f.player, "side": f.side, "place": f.place, "bank": f.bank,
        "points": total, "out": f.out, "roster": f.roster, "ratings": f.ratings,
        "full_sizes": f.full_sizes, "history": f.history, "adjustment": f.adjustment,
    })))
}

/// Spend reinforcement points
///
/// Your force only: `{"buy": "restore", "element"}`, `{"buy": "upgrade", "element", "upgrade"}`
/// or `{"buy": "element", "group", "name", "type", "size", "weapon"}`. The force must stay legal
/// at the battle size and the bank must cover the cost. With `"bank"`, the purchase is made only
/// while the bank still holds that many points, so a request sent twice buys once.
#[utoipa::path(tag = "campaigns", security(("bearer" = [])), params(("id" = i64, Path, description = "Campaign id"), ("force" = String, Path, description = "Force id")), request_body = PurchaseJson, responses(
    (status = 200, description = "The campaign", body = CampaignJson),
    (status = 403, description = "Not your force", body = ErrorBody),
    (status = 409, description = "Too dear, the force would not be legal, or the bank is not what was expected", body = ErrorBody)
))]
#[post("/campaigns/{id}/forces/{force}/purchases")]
pub async fn purchase(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    path: web::Path<(i64, String)>,
    body: web::Json<PurchaseJson>,
) -> Result<HttpResponse, AppError> {
    let (id, force) = path.into_inner();
    let c = load_for(&state.app, &user.actor(), id).await?;
    let PurchaseJson { what, bank } = body.into_inner();
    let c = actions::purchase(&state.app, &c, &user.actor(), &force, what, bank).await?;
    shown(&state, &c)
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct PurchaseJson {
    #[serde(flatten)]
    what: Purchase,
    /// The points you expect the bank to hold. When given and it holds another amount, nothing
    /// is bought (409).
    #[serde(default)]
    bank: Option<u32>,
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct MoveJson {
    /// The element's id (as `GET …/forces/{force}` shows it).
    element: String,
    /// The id of the group it joins.
    group: String,
}

/// Reorganise a force
///
/// Your force only, while a turn's orders are open: moves one element into another of its groups
/// (ruling M-102). Refused when the force would be illegal in a way it was not before.
#[utoipa::path(tag = "campaigns", security(("bearer" = [])), params(("id" = i64, Path, description = "Campaign id"), ("force" = String, Path, description = "Force id")), request_body = MoveJson, responses(
    (status = 200, description = "The campaign", body = CampaignJson),
    (status = 403, description = "Not your force", body = ErrorBody),
    (status = 409, description = "Orders are not open", body = ErrorBody),
    (status = 422, description = "No such element or group, or the force would not be legal", body = ErrorBody)
))]
#[post("/campaigns/{id}/forces/{force}/moves")]
pub async fn reorganise(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    path: web::Path<(i64, String)>,
    body: web::Json<MoveJson>,
) -> Result<HttpResponse, AppError> {
    let (id, force) = path.into_inner();
    let c = load_for(&state.app, &user.actor(), id).await?;
    let MoveJson { element, group } = body.into_inner();
    let c = actions::reorganise(&state.app, &c, &user.actor(), &force, element, group).await?;
    shown(&state, &c)
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct ReplaceJson {
    /// The email of the Muster account that takes the force over.
    email: String,
}

/// Replace a player
///
/// Organiser only: hands a force to another registered player, including its open battles.
#[utoipa::path(tag = "campaigns", security(("bearer" = [])), params(("id" = i64, Path, description = "Campaign id"), ("force" = String, Path, description = "Force id")), request_body = ReplaceJson, responses(
    (status = 200, description = "The campaign", body = CampaignJson),
    (status = 403, description = "Not the organiser", body = ErrorBody),
    (status = 422, description = "No such account, or already playing", body = ErrorBody)
))]
#[post("/campaigns/{id}/forces/{force}/replace")]
pub async fn replace_player(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    path: web::Path<(i64, String)>,
    body: web::Json<ReplaceJson>,
) -> Result<HttpResponse, AppError> {
    let (id, force) = path.into_inner();
    let c = load_for(&state.app, &user.actor(), id).await?;
    let c = actions::replace_player(&state.app, &c, &user.actor(), &force, &body.email).await?;
    shown(&state, &c)
}

/// Make a manual adjustment
///
/// Organiser only: campaign points for a force or a side, or reinforcement points for a force,
/// with a reason. It is a log entry like everything else. Reinforcement points are refused once
/// the campaign has ended, since nothing can be bought with them (M-97).
#[utoipa::path(tag = "campaigns", security(("bearer" = [])), params(("id" = i64, Path, description = "Campaign id")), request_body = Adjustment, responses(
    (status = 200, description = "The campaign", body = CampaignJson),
    (status = 403, description = "Not the organiser", body = ErrorBody),
    (status = 409, description = "The campaign has not started, or it has ended and reinforcement points were given", body = ErrorBody),
    (status = 422, description = "A field needs attention", body = ErrorBody)
))]
#[post("/campaigns/{id}/adjustments")]
pub async fn adjust(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
    body: web::Json<Adjustment>,
) -> Result<HttpResponse, AppError> {
    let id = id.into_inner();
    let c = load_for(&state.app, &user.actor(), id).await?;
    let c = actions::adjust(&state.app, &c, &user.actor(), body.into_inner()).await?;
    shown(&state, &c)
}

/// Standings
///
/// Campaign points per side and per player: battle victory points, the value of places held,
/// adjustments; battles won, drawn and lost; places held.
#[utoipa::path(tag = "campaigns", security(("bearer" = [])), params(("id" = i64, Path, description = "Campaign id")), responses(
    (status = 200, description = "The standings", body = StandingsJson)
))]
#[get("/campaigns/{id}/standings")]
pub async fn get_standings(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let c = load_for(&state.app, &user.actor(), id.into_inner()).await?;
    let s = standings(&c.state);
    Ok(HttpResponse::Ok().json(json!({
        "final": c.state.ended.is_some(), "sides": s.sides, "players": s.players,
    })))
}

#[derive(Deserialize, utoipa::IntoParams)]
pub struct LogQuery {
    /// Only this campaign turn.
    turn: Option<i32>,
    /// Only entries about this force.
    force: Option<String>,
}

/// The campaign log
///
/// Every entry in order, with its seed where dice decided it. Entries set aside by a voided
/// battle are marked. Another player's order this turn shows only that it was given.
#[utoipa::path(tag = "campaigns", security(("bearer" = [])), params(("id" = i64, Path, description = "Campaign id"), LogQuery), responses(
    (status = 200, description = "The log", body = LogJson)
))]
#[get("/campaigns/{id}/log")]
pub async fn get_log(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
    query: web::Query<LogQuery>,
) -> Result<HttpResponse, AppError> {
    let id = id.into_inner();
    let c = load_for(&state.app, &user.actor(), id).await?;
    let rows = log_rows(&state.app, id).await?;
    let lines = log_lines(
        system_of(&state, &c)?,
        &c,
        &rows,
        query.turn,
        query.force.as_deref(),
    )?;
    Ok(HttpResponse::Ok().json(json!({ "entries": lines })))
}

/// Check the log against the state
///
/// Rebuilds the campaign by applying its log from the start and says whether that gives the
/// stored state.
#[utoipa::path(tag = "campaigns", security(("bearer" = [])), params(("id" = i64, Path, description = "Campaign id")), responses(
    (status = 200, description = "Whether the rebuilt state matches", body = AuditJson)
))]
#[get("/campaigns/{id}/audit")]
pub async fn get_audit(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let id = id.into_inner();
    load_for(&state.app, &user.actor(), id).await?;
    let (matches, entries) = audit(&state.app, id).await?;
    Ok(HttpResponse::Ok().json(json!({ "rebuilt_matches": matches, "entries": entries })))
}

// The answers' shapes, for the OpenAPI document. The answers are built as JSON from the campaign
// state (`web::campaign_view`); these name their key fields, and the integration tests check
// the answers against them.

#[derive(Serialize, utoipa::ToSchema)]
#[allow(dead_code)] // only describes the JSON in the OpenAPI document
pub struct CampaignListJson {
    campaigns: Vec<CampaignSummaryJson>,
}

#[derive(Serialize, utoipa::ToSchema)]
#[allow(dead_code)]
pub struct CampaignSummaryJson {
    id: i64,
    name: String,
    /// `enlisting`, `orders`, `battles` or `ended`.
    phase: String,
    turn: i32,
    /// Whether you organise it.
    organiser: bool,
    /// When the open turn's orders are due (RFC 3339, UTC), if it has a deadline.
    deadline: Option<String>,
}

#[derive(Serialize, utoipa::ToSchema)]
#[allow(dead_code)]
pub struct PresetListJson {
    presets: Vec<PresetJson>,
}

#[derive(Serialize, utoipa::ToSchema)]
#[allow(dead_code)]
pub struct PresetJson {
    id: String,
    title: String,
    war: String,
    description: String,
    sides: Vec<PresetSideJson>,
    /// `{"places": [...], "routes": [...]}`
    #[schema(value_type = Object)]
    map: Value,
}

#[derive(Serialize, utoipa::ToSchema)]
#[allow(dead_code)]
pub struct PresetSideJson {
    name: String,
    /// The side's home place id.
    home: String,
}

/// The open turn's deadline, as the campaign answers carry it.
#[derive(Serialize, utoipa::ToSchema)]
#[allow(dead_code)] // only describes the JSON in the OpenAPI document
pub struct DeadlineJson {
    /// The turn whose orders are due.
    turn: u32,
    /// When the turn closes by itself, RFC 3339 in UTC.
    at: String,
    /// The same in words, the zone named.
    words: String,
}

/// A campaign as a member sees it.
#[derive(Serialize, utoipa::ToSchema)]
#[allow(dead_code)]
pub struct CampaignJson {
    id: i64,
    name: String,
    /// The rule system's id, e.g. `lotf`.
    rule_system: String,
    version: i32,
    /// `enlisting`, `orders`, `battles` or `ended`.
    phase: String,
    /// The current turn (0 while enlisting).
    turn: u32,
    turns: Option<u32>,
    points: Option<u32>,
    war: Option<String>,
    scenario: Option<String>,
    /// `[{"name", "home"}]`
    #[schema(value_type = Option<Vec<Object>>)]
    sides: Value,
    /// The house rules.
    #[schema(value_type = Option<Object>)]
    rules: Value,
    /// Whether you organise it.
    organiser: bool,
    /// The code players join with; only the organiser sees it.
    invite_code: Option<String>,
    /// Your force's id, when you play in it.
    my_force: Option<String>,
    /// `{"in", "of", "mine"}`: how many orders are in, of how many, and your own.
    #[schema(value_type = Object)]
    orders: Value,
    /// `[{"id", "player", "side", "place", "name", "elements", "out"}]`
    #[schema(value_type = Vec<Object>)]
    forces: Value,
    /// As `GET /api/v1/campaigns/{id}/battles` lists them.
    #[schema(value_type = Vec<Object>)]
    battles: Value,
    /// Why the campaign ended, once it has.
    ended: Option<String>,
    /// What needs your attention, in words.
    attention: Vec<String>,
    /// Archived: read-only, left out of lists.
    archived: bool,
    /// The public read-only page's address while it is on (the organiser only).
    public_path: Option<String>,
    /// The open turn's deadline, if it has one.
    deadline: Option<DeadlineJson>,
    /// The default turn length in hours: each new turn's deadline that long after it begins.
    turn_length_hours: Option<u32>,
}

/// The map as it stands.
#[derive(Serialize, utoipa::ToSchema)]
#[allow(dead_code)]
pub struct MapViewJson {
    /// `[{"id", "name", "kind", "x", "y", "value", "supply"}]`
    #[schema(value_type = Vec<Object>)]
    places: Value,
    /// `[{"id", "from", "to", "kind"}]`
    #[schema(value_type = Vec<Object>)]
    routes: Value,
    /// The two sides' home place ids.
    homes: Option<[String; 2]>,
    /// Who holds each place, by place id.
    #[schema(value_type = Object)]
    holders: Value,
    /// `[{"id", "side", "place"}]`
    #[schema(value_type = Vec<Object>)]
    forces: Value,
    /// The last turn's moves.
    #[schema(value_type = Vec<Object>)]
    last_moves: Value,
}

#[derive(Serialize, utoipa::ToSchema)]
#[allow(dead_code)]
pub struct OrdersJson {
    turn: u32,
    /// `{"in", "of", "mine"}`
    #[schema(value_type = Object)]
    orders: Value,
}

#[derive(Serialize, utoipa::ToSchema)]
#[allow(dead_code)]
pub struct CampaignBattlesJson {
    /// `[{"no", "turn", "name", "attacker", "defender", "scenario", "record", "status", "result", "at"}]`
    #[schema(value_type = Vec<Object>)]
    battles: Value,
}

#[derive(Serialize, utoipa::ToSchema)]
#[allow(dead_code)]
pub struct StandingsJson {
    /// Whether the campaign has ended and these are final.
    #[serde(rename = "final")]
    is_final: bool,
    #[schema(value_type = Vec<Object>)]
    sides: Value,
    #[schema(value_type = Vec<Object>)]
    players: Value,
}

#[derive(Serialize, utoipa::ToSchema)]
#[allow(dead_code)]
pub struct LogJson {
    /// In order, each with its turn, its words and its seed where dice decided it.
    #[schema(value_type = Vec<Object>)]
    entries: Value,
}

#[derive(Serialize, utoipa::ToSchema)]
#[allow(dead_code)]
pub struct AuditJson {
    /// Whether replaying the log from the start gives the stored state.
    rebuilt_matches: bool,
    /// How many log entries were replayed.
    entries: u64,
}

/// A force as it stands.
#[derive(Serialize, utoipa::ToSchema)]
#[allow(dead_code)]
pub struct ForceJson {
    id: String,
    player: String,
    side: u8,
    place: String,
    /// Reinforcement points in hand.
    bank: u32,
    points: u32,
    /// Why the force is out of the campaign, once it is.
    out: Option<String>,
    /// Its roster document now, in its rule system's format.
    #[schema(value_type = Object)]
    roster: Value,
    /// Commander id to rating.
    #[schema(value_type = Object)]
    ratings: Value,
    /// Element id to the size it started at.
    #[schema(value_type = Object)]
    full_sizes: Value,
    /// Element or commander id to what happened to it, in words.
    #[schema(value_type = Object)]
    history: Value,
    /// Campaign points the organiser added or took away.
    adjustment: i32,
}

// Campaign administration (issue 19): withdraw, change or remove a force before the start,
// the house rules, promoted officers' names, archive, delete, the public page.

/// Withdraw your force
///
/// The force's player only, before the start. You stay a member and may enlist again.
#[utoipa::path(tag = "campaigns", security(("bearer" = [])), params(("id" = i64, Path, description = "Campaign id"), ("force" = String, Path, description = "Force id")), responses(
    (status = 200, description = "The campaign", body = CampaignJson),
    (status = 403, description = "Not your force", body = ErrorBody),
    (status = 409, description = "The campaign has started, or is archived", body = ErrorBody)
))]
#[post("/campaigns/{id}/forces/{force}/withdraw")]
pub async fn withdraw_force(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    path: web::Path<(i64, String)>,
) -> Result<HttpResponse, AppError> {
    let (id, force) = path.into_inner();
    let c = load_for(&state.app, &user.actor(), id).await?;
    let c = admin::withdraw(&state.app, &c, &user.actor(), &force).await?;
    shown(&state, &c)
}

/// Remove a player's force
///
/// Organiser only, before the start, with a reason for the log.
#[utoipa::path(tag = "campaigns", security(("bearer" = [])), params(("id" = i64, Path, description = "Campaign id"), ("force" = String, Path, description = "Force id")), request_body = ReasonJson, responses(
    (status = 200, description = "The campaign", body = CampaignJson),
    (status = 403, description = "Not the organiser", body = ErrorBody),
    (status = 409, description = "The campaign has started, or is archived", body = ErrorBody),
    (status = 422, description = "No reason given", body = ErrorBody)
))]
#[post("/campaigns/{id}/forces/{force}/remove")]
pub async fn remove_force(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    path: web::Path<(i64, String)>,
    body: web::Json<ReasonJson>,
) -> Result<HttpResponse, AppError> {
    let (id, force) = path.into_inner();
    let c = load_for(&state.app, &user.actor(), id).await?;
    let c = admin::remove_force(&state.app, &c, &user.actor(), &force, &body.reason).await?;
    shown(&state, &c)
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct ChangeForceJson {
    /// Another of your rosters, legal at the campaign's battle size.
    roster_id: i64,
    /// Enlist it even though its nation did not fight for your side (M-104).
    #[serde(default)]
    accept_warning: bool,
}

/// Change your force
///
/// The force's player only, before the start: enlists another of your rosters instead, on the
/// same side. Commanders' ratings are rolled afresh.
#[utoipa::path(tag = "campaigns", security(("bearer" = [])), params(("id" = i64, Path, description = "Campaign id"), ("force" = String, Path, description = "Force id")), request_body = ChangeForceJson, responses(
    (status = 200, description = "The campaign", body = CampaignJson),
    (status = 403, description = "Not your force", body = ErrorBody),
    (status = 409, description = "The campaign has started, or is archived", body = ErrorBody),
    (status = 422, description = "Not your roster, not legal, or the allegiance warning", body = ErrorBody)
))]
#[put("/campaigns/{id}/forces/{force}/roster")]
pub async fn change_force(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    path: web::Path<(i64, String)>,
    body: web::Json<ChangeForceJson>,
) -> Result<HttpResponse, AppError> {
    let (id, force) = path.into_inner();
    let c = load_for(&state.app, &user.actor(), id).await?;
    let c = admin::change_force(
        &state.app,
        &c,
        &user.actor(),
        &force,
        body.roster_id,
        body.accept_warning,
    )
    .await?;
    shown(&state, &c)
}

/// Edit the house rules
///
/// Organiser only, before the start. Every switch (`route_battles`, `persistent_casualties`,
/// `field_promotion`, `experience`, `reinforcements`, `surrender`, `place_scoring`,
/// `fort_assault`, `scout_bonus`) as it should be; one left out is on.
#[utoipa::path(tag = "campaigns", security(("bearer" = [])), params(("id" = i64, Path, description = "Campaign id")), request_body(content = Object, description = "The switches, each true or false"), responses(
    (status = 200, description = "The campaign", body = CampaignJson),
    (status = 403, description = "Not the organiser", body = ErrorBody),
    (status = 409, description = "Started, archived, or nothing changed", body = ErrorBody)
))]
#[put("/campaigns/{id}/rules")]
pub async fn put_rules(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
    body: web::Json<crate::rules::campaign::state::HouseRules>,
) -> Result<HttpResponse, AppError> {
    let c = load_for(&state.app, &user.actor(), id.into_inner()).await?;
    let c = admin::set_rules(&state.app, &c, &user.actor(), body.into_inner()).await?;
    shown(&state, &c)
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct OfficerJson {
    force: String,
    commander: String,
    /// The name he goes by now.
    name: String,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct OfficersJson {
    officers: Vec<OfficerJson>,
}

/// Promoted officers
///
/// The commanders made by field promotion, whom the organiser may name. Members only.
#[utoipa::path(tag = "campaigns", security(("bearer" = [])), params(("id" = i64, Path, description = "Campaign id")), responses(
    (status = 200, description = "The officers", body = OfficersJson),
    (status = 404, description = "No such campaign of yours", body = ErrorBody)
))]
#[get("/campaigns/{id}/officers")]
pub async fn officers(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let c = load_for(&state.app, &user.actor(), id.into_inner()).await?;
    let officers = admin::promoted_officers(&state.app, &c)
        .await?
        .into_iter()
        .map(|o| OfficerJson {
            force: o.force,
            commander: o.commander,
            name: o.name,
        })
        .collect();
    Ok(HttpResponse::Ok().json(OfficersJson { officers }))
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct NameJson {
    /// 1 to 100 characters.
    #[schema(min_length = 1, max_length = 100)]
    name: String,
}

/// Name a promoted officer
///
/// Organiser only: a commander made by field promotion gets a name of the club's choosing.
#[utoipa::path(tag = "campaigns", security(("bearer" = [])), params(("id" = i64, Path, description = "Campaign id"), ("force" = String, Path, description = "Force id"), ("commander" = String, Path, description = "Commander id")), request_body = NameJson, responses(
    (status = 200, description = "The campaign", body = CampaignJson),
    (status = 403, description = "Not the organiser", body = ErrorBody),
    (status = 404, description = "No such promoted officer", body = ErrorBody),
    (status = 422, description = "The name is empty or too long", body = ErrorBody)
))]
#[put("/campaigns/{id}/forces/{force}/commanders/{commander}/name")]
pub async fn rename_officer(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    path: web::Path<(i64, String, String)>,
    body: web::Json<NameJson>,
) -> Result<HttpResponse, AppError> {
    let (id, force, commander) = path.into_inner();
    let c = load_for(&state.app, &user.actor(), id).await?;
    let c = admin::rename_officer(
        &state.app,
        &c,
        &user.actor(),
        &force,
        &commander,
        &body.name,
    )
    .await?;
    shown(&state, &c)
}

/// Archive the campaign
///
/// Organiser only: it is left out of lists and read-only (every action is refused) until it
/// is unarchived.
#[utoipa::path(tag = "campaigns", security(("bearer" = [])), params(("id" = i64, Path, description = "Campaign id")), responses(
    (status = 200, description = "The campaign", body = CampaignJson),
    (status = 403, description = "Not the organiser", body = ErrorBody),
    (status = 409, description = "Already archived", body = ErrorBody)
))]
#[post("/campaigns/{id}/archive")]
pub async fn archive(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let c = load_for(&state.app, &user.actor(), id.into_inner()).await?;
    let c = admin::archive(&state.app, &c, &user.actor()).await?;
    shown(&state, &c)
}

/// Unarchive the campaign
///
/// Organiser only.
#[utoipa::path(tag = "campaigns", security(("bearer" = [])), params(("id" = i64, Path, description = "Campaign id")), responses(
    (status = 200, description = "The campaign", body = CampaignJson),
    (status = 403, description = "Not the organiser", body = ErrorBody),
    (status = 409, description = "Not archived", body = ErrorBody)
))]
#[post("/campaigns/{id}/unarchive")]
pub async fn unarchive(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let c = load_for(&state.app, &user.actor(), id.into_inner()).await?;
    let c = admin::unarchive(&state.app, &c, &user.actor()).await?;
    shown(&state, &c)
}

/// Delete the campaign
///
/// Organiser only, before the start: the campaign, its members and its log are gone. Refused
/// once it has started (archive it instead) and while it is archived.
#[utoipa::path(tag = "campaigns", security(("bearer" = [])), params(("id" = i64, Path, description = "Campaign id")), responses(
    (status = 204, description = "Deleted"),
    (status = 403, description = "Not the organiser", body = ErrorBody),
    (status = 409, description = "Started, or archived", body = ErrorBody)
))]
#[delete("/campaigns/{id}")]
pub async fn delete_campaign(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let c = load_for(&state.app, &user.actor(), id.into_inner()).await?;
    admin::delete(&state.app, &c, &user.actor()).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Turn the public page on
///
/// Organiser only: a read-only page of the standings, the map and the finished battles, at an
/// unguessable address (`public_path` in the answer), for anyone with the link.
#[utoipa::path(tag = "campaigns", security(("bearer" = [])), params(("id" = i64, Path, description = "Campaign id")), responses(
    (status = 200, description = "The campaign, with public_path", body = CampaignJson),
    (status = 403, description = "Not the organiser", body = ErrorBody),
    (status = 409, description = "Already on, or archived", body = ErrorBody)
))]
#[post("/campaigns/{id}/public")]
pub async fn public_on(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let c = load_for(&state.app, &user.actor(), id.into_inner()).await?;
    let c = admin::public_on(&state.app, &c, &user.actor()).await?;
    shown(&state, &c)
}

/// Turn the public page off
///
/// Organiser only: the link answers 404 from now on; turning it on again makes a new one.
#[utoipa::path(tag = "campaigns", security(("bearer" = [])), params(("id" = i64, Path, description = "Campaign id")), responses(
    (status = 200, description = "The campaign", body = CampaignJson),
    (status = 403, description = "Not the organiser", body = ErrorBody),
    (status = 409, description = "Already off, or archived", body = ErrorBody)
))]
#[delete("/campaigns/{id}/public")]
pub async fn public_off(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let c = load_for(&state.app, &user.actor(), id.into_inner()).await?;
    let c = admin::public_off(&state.app, &c, &user.actor()).await?;
    shown(&state, &c)
}

/// A campaign's public page
///
/// No login: the standings, the map (who holds what, where the forces stand) and the finished
/// battles of a campaign whose organiser turned its public page on. No orders, rosters or
/// log. An unknown or revoked token is 404.
#[utoipa::path(tag = "campaigns", params(("token" = String, Path, description = "The public page's token")), responses(
    (status = 200, description = "The campaign as the public sees it", body = PublicCampaignJson),
    (status = 404, description = "No such public page", body = ErrorBody)
))]
#[get("/public/campaigns/{token}")]
pub async fn public_campaign(
    state: web::Data<AppState>,
    token: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    let c = admin::public_view(&state.app, token.into_inner()).await?;
    Ok(HttpResponse::Ok().json(crate::web::campaign_view::public_json(&c)))
}

/// A campaign as its public page shows it.
#[derive(Serialize, utoipa::ToSchema)]
#[allow(dead_code)]
pub struct PublicCampaignJson {
    name: String,
    /// `enlisting`, `orders`, `battles` or `ended`.
    phase: String,
    turn: u32,
    turns: Option<u32>,
    /// `[{"name"}]`
    #[schema(value_type = Vec<Object>)]
    sides: Value,
    /// As `GET /api/v1/campaigns/{id}/standings` gives them.
    #[schema(value_type = Object)]
    standings: Value,
    /// Places, routes, holders, forces (id, name, player, side, place).
    #[schema(value_type = Object)]
    map: Value,
    /// The finished battles: `[{"no", "turn", "name", "attacker", "defender", "result"}]`.
    #[schema(value_type = Vec<Object>)]
    battles: Value,
    ended: Option<String>,
}
