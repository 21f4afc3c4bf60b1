//! Land of the Free over the API: the catalogue, roster validation and the historical orders
//! of battle. No login needed: these are reference data and pure computation.

pub mod battles;

use actix_web::{get, post, web, HttpRequest, HttpResponse};
use serde::Serialize;
use utoipa::ToSchema;

use crate::app::work::{Caller, Cancel};
use crate::rules::systems::lotf;
use crate::web::auth::login::client_address;
use crate::web::error::ErrorBody;
use crate::web::state::AppState;
use crate::web::AppError;

/// The report of one roster (documents the shape of `rules::systems::lotf::Report`).
#[derive(Serialize, ToSchema)]
#[allow(dead_code)] // only describes the JSON in the OpenAPI document
pub struct ReportSchema {
    /// True when no finding is an error.
    legal: bool,
    points: PointsSchema,
    findings: Vec<FindingSchema>,
}

/// One report for one document, an array of reports for an array of documents.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
#[allow(dead_code)]
pub enum ReportsSchema {
    One(ReportSchema),
    Many(Vec<ReportSchema>),
}

#[derive(Serialize, ToSchema)]
#[allow(dead_code)]
pub struct PointsSchema {
    total: u32,
    /// The roster's points limit (absent when it has none).
    limit: Option<u32>,
    /// `[{"path": "groups[0]", "name": "...", "points": 60}]`
    by_group: Vec<serde_json::Value>,
    /// `[{"path": "groups[0].elements[1]", "name": "...", "points": 30}]`
    by_element: Vec<serde_json::Value>,
}

#[derive(Serialize, ToSchema)]
#[allow(dead_code)]
pub struct FindingSchema {
    /// Stable code, e.g. `points_over_limit`, `upgrade_cap_exceeded`.
    code: String,
    /// `error` or `warning`.
    severity: String,
    /// What it concerns, e.g. `groups[1].elements[3]`; empty for the whole force.
    path: String,
    /// Plain words naming the numbers involved.
    message: String,
}

/// The answer to `POST /api/v1/lotf/odds/shooting` (key fields of `lotf::ShootingOdds`).
#[derive(Serialize, ToSchema)]
#[allow(dead_code)]
pub struct ShootingOddsSchema {
    /// Dice rolled (one for an empty pool).
    dice: u32,
    /// The pool before the floor of one die.
    pool_total: i32,
    /// The score each die needs.
    to_hit: u8,
    /// The probability of 0, 1, 2, … hits.
    hits_distribution: Vec<f64>,
    expected_hits: f64,
    p_ragged_volley: f64,
}

/// The answer to `POST /api/v1/lotf/odds/melee` (key fields of `lotf::MeleeOdds`).
#[derive(Serialize, ToSchema)]
#[allow(dead_code)]
pub struct MeleeOddsSchema {
    attacker_win: f64,
    tie: f64,
    defender_win: f64,
    /// `[{"margin", "p"}]`: the probability of each result margin.
    #[schema(value_type = Vec<Object>)]
    margin_distribution: Vec<serde_json::Value>,
    /// Each side's pool, modifiers and hits.
    #[schema(value_type = Object)]
    attacker: serde_json::Value,
    #[schema(value_type = Object)]
    defender: serde_json::Value,
    /// The rulings that decided it.
    rulings: Vec<String>,
    notes: Vec<String>,
    /// A charge or counter-charge the rules would not allow; the odds are worked out anyway.
    warnings: Vec<String>,
}

/// The answer to `POST /api/v1/lotf/odds/morale` (key fields of `lotf::MoraleOdds`).
#[derive(Serialize, ToSchema)]
#[allow(dead_code)]
pub struct MoraleOddsSchema {
    p_pass: f64,
    p_fail: f64,
    /// The value to reach.
    target: i32,
    modifier: i32,
    need_on_2d6: i32,
    explanation: String,
    rulings: Vec<String>,
    /// Where the Morale value came from when it is not the element's own.
    notes: Vec<String>,
}

/// The answer to a simulated battle: the set-up that was fought (post it again to replay the
/// battle exactly) and the outcome with its log.
#[derive(Serialize, ToSchema)]
#[allow(dead_code)]
pub struct SimulatedBattleSchema {
    /// The `muster.lotf.battle/1` (or `muster.lod.battle/1`) set-up document.
    #[schema(value_type = Object)]
    setup: serde_json::Value,
    /// The winner, victory level, points lost, turns and (unless `"narrate": false`) the log.
    #[schema(value_type = Object)]
    outcome: serde_json::Value,
}

/// Turns a roster that cannot be read into the API's error: 400 with the position for broken
/// JSON, 422 naming the field for JSON that is not a roster.
pub fn parse_error(e: lotf::RosterParseError, prefix: &str) -> AppError {
    super::rosters::read_problem(e).api_error(prefix)
}

/// Validate rosters
///
/// Checks a `muster.lotf.roster/1` document, or an array of them, against Land of the Free and
/// returns every finding at once with the points breakdown (one report, or an array of reports
/// in the same order). Broken JSON is refused with its line and column; a document that is not
/// a roster is refused naming the field.
#[utoipa::path(tag = "land-of-the-free", request_body(content = serde_json::Value, description = "A roster document or an array of them"), responses(
    (status = 200, description = "The report (or an array of reports)", body = ReportsSchema),
    (status = 400, description = "The body is not JSON", body = ErrorBody),
    (status = 422, description = "A document is not a roster", body = ErrorBody),
    (status = 429, description = "Too much work is waiting; try again after Retry-After seconds", body = ErrorBody)
))]
#[post("/validate")]
pub async fn validate(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Bytes,
) -> Result<HttpResponse, AppError> {
    // Reading and checking many documents is CPU work: off the request threads, under the
    // work limits of the caller's address (no login needed here).
    let caller = Caller::Address(client_address(&req, &state));
    let rules = state.app.rules.clone();
    let reports = state
        .app
        .work
        .run(&caller, move |cancel| {
            validate_body(&rules.lotf, &body, cancel)
        })
        .await??;
    Ok(HttpResponse::Ok().json(reports))
}

fn to_json(value: impl Serialize) -> Result<serde_json::Value, AppError> {
    serde_json::to_value(value).map_err(AppError::internal)
}

fn validate_body(
    catalogue: &lotf::Catalogue,
    body: &[u8],
    cancel: &Cancel,
) -> Result<serde_json::Value, AppError> {
    let text = std::str::from_utf8(body)
        .map_err(|_| AppError::bad_request("The body is not UTF-8 text."))?;
    if text.trim_start().starts_with('[') {
        let items: Vec<serde_json::Value> =
            serde_json::from_str(text).map_err(|e| AppError::BadRequest {
                message: format!("The JSON body could not be read: {e}."),
                details: vec![],
            })?;
        let mut reports = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            if cancel.is_cancelled() {
                return Err(crate::app::work::cancelled().into());
            }
            let doc = lotf::parse_roster(&item.to_string())
                .map_err(|e| parse_error(e, &format!("[{i}].")))?;
            reports.push(lotf::validate(catalogue, &doc));
        }
        return to_json(reports);
    }
    let doc = lotf::parse_roster(text).map_err(|e| parse_error(e, ""))?;
    to_json(lotf::validate(catalogue, &doc))
}

/// The Land of the Free catalogue
///
/// Element statistics and points, weapons, upgrades with their restrictions, skills, commander
/// ratings, the game's tables and the historical element lists, with the catalogue version that
/// rosters record.
#[utoipa::path(tag = "land-of-the-free", responses(
    (status = 200, description = "The catalogue", body = serde_json::Value)
))]
#[get("/catalog")]
pub async fn catalog(state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok().json(&state.app.rules.lotf)
}

/// Historical orders of battle
///
/// The book's refights: id, name, date, war, scenario, attacker, defender and how many forces
/// and elements each has.
#[utoipa::path(tag = "land-of-the-free", responses(
    (status = 200, description = "The refights", body = [serde_json::Value])
))]
#[get("/historical")]
pub async fn historical_list() -> HttpResponse {
    HttpResponse::Ok().json(lotf::historical_battles())
}

/// One historical order of battle
///
/// A refight with both sides, each as one or more historical-mode roster documents ready to be
/// validated or imported.
#[utoipa::path(tag = "land-of-the-free", params(("id" = String, Path, description = "Refight id, e.g. `brandywine`")), responses(
    (status = 200, description = "The refight", body = serde_json::Value),
    (status = 404, description = "No refight has this id", body = ErrorBody)
))]
#[get("/historical/{id}")]
pub async fn historical_one(id: web::Path<String>) -> Result<HttpResponse, AppError> {
    let battle = lotf::historical_battle(&id).ok_or(AppError::NotFound)?;
    Ok(HttpResponse::Ok().json(battle))
}
