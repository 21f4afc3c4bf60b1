//! The Liberty or Death! API: the catalogue and roster validation under `/api/v1/lod/`. No
//! login needed: these are reference data and pure computation.

use actix_web::{get, post, web, HttpRequest, HttpResponse};
use serde::Serialize;
use utoipa::ToSchema;

use crate::app::work::{Caller, Cancel};
use crate::rules::systems::lod::{self, Setting};
use crate::web::auth::login::client_address;
use crate::web::error::ErrorBody;
use crate::web::state::AppState;
use crate::web::AppError;

pub fn configure(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    cfg.service(catalog).service(validate);
}

/// The report of one army (documents the shape of `rules::systems::lod::Report`).
#[derive(Serialize, ToSchema)]
#[allow(dead_code)] // only describes the JSON in the OpenAPI document
pub struct LodReportSchema {
    /// True when no finding is an error.
    legal: bool,
    findings: Vec<LodFindingSchema>,
    /// Units in the army.
    units: u32,
    brigades: u32,
    /// Units that must be broken for the army to break: half the units, rounded up.
    break_point: u32,
    /// Command Points before the C-in-C's D3 is rolled: one per brigade.
    command_points_before_d3: u32,
}

/// One report for one army, an array of reports for an array of armies.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
#[allow(dead_code)]
pub enum LodReportsSchema {
    One(LodReportSchema),
    Many(Vec<LodReportSchema>),
}

#[derive(Serialize, ToSchema)]
#[allow(dead_code)]
pub struct LodFindingSchema {
    /// Stable code, e.g. `size_not_allowed`, `allied_list_entry`.
    code: String,
    /// `error` or `warning`.
    severity: String,
    /// What it concerns, e.g. `brigades[0].units[2].bases`.
    path: String,
    /// Plain words naming what is wrong.
    message: String,
}

/// Validate Liberty or Death! armies
///
/// Checks a `muster.lod.roster/1` document (the neutral tag `lod.roster/1` is read too), or an
/// array of them, and returns every finding at once with the derived figures: units, break
/// point and Command Points before the D3. Broken JSON is refused with its line and column; a
/// document that is not an army is refused naming the part that does not read.
#[utoipa::path(tag = "liberty-or-death", request_body(content = serde_json::Value, description = "An army document or an array of them"), responses(
    (status = 200, description = "The report (or an array of reports)", body = LodReportsSchema),
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
            validate_body(&rules.lod, &body, cancel)
        })
        .await??;
    Ok(HttpResponse::Ok().json(reports))
}

fn to_json(value: impl Serialize) -> Result<serde_json::Value, AppError> {
    serde_json::to_value(value).map_err(AppError::internal)
}

fn validate_body(
    catalogue: &lod::Catalogue,
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
            reports.push(lod::validate(catalogue, &doc, Setting::Standalone));
        }
        return to_json(reports);
    }
    let doc = super::rosters::read_doc(text).map_err(|p| p.api_error(""))?;
    to_json(lod::validate(catalogue, &doc, Setting::Standalone))
}

/// The Liberty or Death! catalogue
///
/// Every number the rules use, as data: unit kinds with their bases, sizes (WORN / SHAKEN /
/// AUTO BROKEN) and combat dice, the General, movement, qualities, weapons and their ranges,
/// the sixteen special rules, the three army lists with their entries and allies, and the
/// tables of orders, morale, modifiers, saves, Command Actions and victory, with the catalogue
/// version rosters record.
#[utoipa::path(tag = "liberty-or-death", responses(
    (status = 200, description = "The catalogue", body = serde_json::Value)
))]
#[get("/catalog")]
pub async fn catalog(state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok().json(&state.app.rules.lod)
}
