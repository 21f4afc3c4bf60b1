//! The All the King's Men API: the catalogue, roster validation and the random force generator
//! under `/api/v1/atkm/`. No login needed: these are reference data and pure computation.

use actix_web::{get, post, web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::app::work::{Caller, Cancel};
use crate::rules::systems::atkm::random::{generate, RandomForceRequest};
use crate::rules::systems::atkm::validate::validate as check;
use crate::rules::systems::atkm::Catalogue;
use crate::web::auth::login::client_address;
use crate::web::error::ErrorBody;
use crate::web::state::AppState;
use crate::web::AppError;

pub fn configure(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    cfg.service(catalog).service(validate).service(random_force);
}

/// The report of one army (documents the shape of `rules::systems::atkm::validate::Report`).
#[derive(Serialize, ToSchema)]
#[allow(dead_code)] // only describes the JSON in the OpenAPI document
pub struct AtkmReportSchema {
    /// True when no finding is an error.
    legal: bool,
    findings: Vec<AtkmFindingSchema>,
    /// Units on the table at the start.
    units: u32,
    /// Units arriving during the battle.
    reinforcements: u32,
    generals: u32,
    /// The army collapses when this many units or fewer remain (K-16).
    army_breaks_at: u32,
    /// The Commanding General's rating: the dice he rolls for command points.
    command_dice: u32,
}

/// One report for one army, an array of reports for an array of armies.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
#[allow(dead_code)]
pub enum AtkmReportsSchema {
    One(AtkmReportSchema),
    Many(Vec<AtkmReportSchema>),
}

#[derive(Serialize, ToSchema)]
#[allow(dead_code)]
pub struct AtkmFindingSchema {
    /// Stable code, e.g. `size_not_standard`, `rule_not_enabled`.
    code: String,
    /// `error` or `warning`.
    severity: String,
    /// What it concerns, e.g. `units[2].quality`.
    path: String,
    /// Plain words naming what is wrong.
    message: String,
}

/// Validate All the King's Men armies
///
/// Checks a `muster.atkm.roster/1` document (the neutral tag `atkm.roster/1` is read too), or
/// an array of them, and returns every finding at once with what is derived from the army:
/// units, reinforcements, generals, the army collapse point and the command dice. Broken JSON is
/// refused with its line and column; a document that is not an army is refused naming the part
/// that does not read.
#[utoipa::path(tag = "all-the-kings-men", request_body(content = serde_json::Value, description = "An army document or an array of them"), responses(
    (status = 200, description = "The report (or an array of reports)", body = AtkmReportsSchema),
    (status = 400, description = "The body is not JSON", body = ErrorBody),
    (status = 422, description = "A document is not an army", body = ErrorBody),
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
            validate_body(&rules.atkm, &body, cancel)
        })
        .await??;
    Ok(HttpResponse::Ok().json(reports))
}

fn to_json(value: impl Serialize) -> Result<serde_json::Value, AppError> {
    serde_json::to_value(value).map_err(AppError::internal)
}

fn validate_body(
    catalogue: &Catalogue,
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
            let doc = super::rosters::read_doc(&item.to_string())
                .map_err(|p| p.api_error(&format!("[{i}].")))?;
            reports.push(check(catalogue, &doc));
        }
        return to_json(reports);
    }
    let doc = super::rosters::read_doc(text).map_err(|p| p.api_error(""))?;
    to_json(check(catalogue, &doc))
}

/// The All the King's Men catalogue
///
/// Every number the rules use, as data: unit types with their make-up, break points, moves and
/// ranges, guns, the fire and melee dice, the bonus dice, the colours and what each succeeds on,
/// the random force tables (with the cells Muster restored, K-1 to K-5, marked), qualities and
/// the book's words for them, the special cards, the optional rules, the periods and the three
/// sample battles with their set-up and victory conditions.
#[utoipa::path(tag = "all-the-kings-men", responses(
    (status = 200, description = "The catalogue", body = serde_json::Value)
))]
#[get("/catalog")]
pub async fn catalog(state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok().json(&state.app.rules.atkm)
}

/// What to roll: the generator's request with the seed optional.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RandomForceBody {
    /// The seed; absent: a fresh one (the answer says which).
    #[serde(default)]
    seed: Option<u64>,
    /// Units to roll (a small game has 5 a side, a medium one 8, a large one 10 or more).
    units: u32,
    #[serde(default)]
    name: Option<String>,
    /// A period id (`awi`, `napoleonic`, …); absent: `generic`.
    #[serde(default)]
    period: Option<String>,
    /// Roll each unit's quality (turns on "elite and militia units").
    #[serde(default)]
    elite_militia: bool,
    /// Roll each battery's gun size (turns on "artillery sizes").
    #[serde(default)]
    artillery_sizes: bool,
    /// Roll the Commanding General's rating (K-4); otherwise he is rated 2.
    #[serde(default)]
    roll_general: bool,
}

/// Roll a random force
///
/// Rolls an army on the random force tables: 2d6 a unit for its type, a d6 for foot or horse
/// artillery, and with the options 2d6 for each gun's size, a d6 for each unit's quality and a
/// d6 for the general's rating. The answer is a `muster.atkm.roster/1` document holding the seed
/// and every roll; the same seed always gives the same army. Nothing is stored.
#[utoipa::path(tag = "all-the-kings-men", request_body = RandomForceBody, responses(
    (status = 200, description = "The rolled army", body = serde_json::Value),
    (status = 400, description = "The body is not the request", body = ErrorBody),
    (status = 422, description = "The request cannot be rolled (unit count, period)", body = ErrorBody)
))]
#[post("/random_force")]
pub async fn random_force(
    state: web::Data<AppState>,
    body: web::Bytes,
) -> Result<HttpResponse, AppError> {
    let body: RandomForceBody =
        serde_json::from_slice(&body).map_err(|e| AppError::BadRequest {
            message: format!("The request could not be read: {e}."),
            details: vec![],
        })?;
    let request = RandomForceRequest {
        seed: body.seed.unwrap_or_else(crate::app::dice::fresh_seed),
        units: body.units,
        name: body.name,
        period: body.period,
        elite_militia: body.elite_militia,
        artillery_sizes: body.artillery_sizes,
        roll_general: body.roll_general,
    };
    let doc =
        generate(&state.app.rules.atkm, &request).map_err(|message| AppError::Validation {
            message,
            details: vec![],
        })?;
    let report = check(&state.app.rules.atkm, &doc);
    Ok(HttpResponse::Ok().json(serde_json::json!({"document": doc, "report": report})))
}
