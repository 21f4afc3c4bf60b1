//! The AWI wargames rules API: the catalogue and order-of-battle validation under
//! `/api/v1/awi/`. No login needed: these are reference data and pure computation.

use actix_web::{get, post, web, HttpRequest, HttpResponse};
use serde::Serialize;
use utoipa::ToSchema;

use crate::app::work::{Caller, Cancel};
use crate::rules::systems::awi::catalogue::Catalogue;
use crate::rules::systems::awi::odds as exact;
use crate::rules::systems::awi::validate as check;
use crate::web::auth::login::client_address;
use crate::web::error::{ErrorBody, ErrorDetail};
use crate::web::state::AppState;
use crate::web::AppError;

pub fn configure(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    cfg.service(catalog).service(validate).service(odds);
}

/// The report of one order of battle (documents the shape of
/// `rules::systems::awi::validate::Report`).
#[derive(Serialize, ToSchema)]
#[allow(dead_code)] // only describes the JSON in the OpenAPI document
pub struct AwiReportSchema {
    /// True when no finding is an error.
    legal: bool,
    findings: Vec<AwiFindingSchema>,
    /// Each unit read in the game's terms: path, name, figures, men, a description, the
    /// half-strength mark and the 10 % / 20 % steps per base lost (W-3).
    units: Vec<serde_json::Value>,
    /// Each brigade's brigadier, ability and totals.
    brigades: Vec<serde_json::Value>,
    /// Units, guns not counted.
    army_units: u32,
    guns: u32,
    bases: u32,
    men: u32,
    /// Routed, destroyed and departed units that break the army: half the units, guns not
    /// counted, rounded up (Muster's rule W-31).
    break_threshold: u32,
}

/// One report for one order of battle, an array of reports for an array.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
#[allow(dead_code)]
pub enum AwiReportsSchema {
    One(AwiReportSchema),
    Many(Vec<AwiReportSchema>),
}

#[derive(Serialize, ToSchema)]
#[allow(dead_code)]
pub struct AwiFindingSchema {
    /// Stable code, e.g. `missing_cinc`, `gunners_out_of_range`.
    code: String,
    /// `error`, `warning` or `info`.
    severity: String,
    /// What it concerns, e.g. `brigades[0].units[2].gunners`.
    path: String,
    /// Plain words naming what is wrong.
    message: String,
}

/// Validate AWI orders of battle
///
/// Checks a `muster.awi.oob/1` document (the neutral tag `awi.oob/1` is read too), or an array
/// of them, and returns every finding at once with the derived figures: men and bases per
/// unit, brigade and army, the half-strength marks, the 10 % / 20 % steps and the army's break
/// threshold. Broken JSON is refused with its line and column; a document that is not an order
/// of battle is refused naming the part that does not read.
#[utoipa::path(tag = "awi-wargames-rules", request_body(content = serde_json::Value, description = "An order of battle or an array of them"), responses(
    (status = 200, description = "The report (or an array of reports)", body = AwiReportsSchema),
    (status = 400, description = "The body is not JSON", body = ErrorBody),
    (status = 422, description = "A document is not an order of battle", body = ErrorBody),
    (status = 429, description = "Too much work is waiting; try again after Retry-After seconds", body = ErrorBody)
))]
#[post("/validate")]
pub async fn validate(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Bytes,
) -> Result<HttpResponse, AppError> {
    let caller = Caller::Address(client_address(&req, &state));
    let rules = state.app.rules.clone();
    let reports = state
        .app
        .work
        .run(&caller, move |cancel| {
            validate_body(&rules.awi, &body, cancel)
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
            reports.push(check::validate(catalogue, &doc));
        }
        return to_json(reports);
    }
    let doc = super::rosters::read_doc(text).map_err(|p| p.api_error(""))?;
    to_json(check::validate(catalogue, &doc))
}

/// The AWI wargames rules catalogue
///
/// Every number the rules use, as data: troop types (figures and men per base, close or open
/// order, who fires and with what), grades and every place a grade changes a number, movement,
/// weapons and gun ranges by band, gun dice by gunners, the firing, melee, morale
/// (reconstructed, W-7), uncontrolled, entering-melee and losers modifiers with their result
/// bands, brigadier ratings, draws, and Muster's own victory rules (W-31, W-32).
#[utoipa::path(tag = "awi-wargames-rules", responses(
    (status = 200, description = "The catalogue", body = serde_json::Value)
))]
#[get("/catalog")]
pub async fn catalog(state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok().json(&state.app.rules.awi)
}

/// Exact odds of the AWI wargames rules
///
/// `kind` is `firing`, `melee` or `test`; the body is the situation, with the field names of
/// `docs/systems/awi.md` (spec 4.7). The answer is worked out by enumerating the dice (no
/// sampling): the score needed and its terms, the distributions with their "at least" view, and
/// the rulings used. A situation the rules do not allow (out of range, an unknown grade) is
/// refused naming the field.
#[utoipa::path(tag = "awi-wargames-rules", params(("kind" = String, Path, description = "firing, melee or test")), request_body(content = serde_json::Value, description = "The situation"), responses(
    (status = 200, description = "The exact odds", body = serde_json::Value),
    (status = 400, description = "The body is not JSON", body = ErrorBody),
    (status = 422, description = "The situation is not one the rules allow", body = ErrorBody),
    (status = 429, description = "Too much work is waiting; try again after Retry-After seconds", body = ErrorBody)
))]
#[post("/odds/{kind}")]
pub async fn odds(
    req: HttpRequest,
    state: web::Data<AppState>,
    kind: web::Path<String>,
    body: web::Bytes,
) -> Result<HttpResponse, AppError> {
    let situation: serde_json::Value =
        serde_json::from_slice(&body).map_err(|e| AppError::BadRequest {
            message: format!("The JSON body could not be read: {e}."),
            details: vec![],
        })?;
    let caller = Caller::Address(client_address(&req, &state));
    let rules = state.app.rules.clone();
    let kind = kind.into_inner();
    let answer = state
        .app
        .work
        .run(&caller, move |_cancel| {
            exact::answer(&rules.awi, &kind, &situation).map_err(|e| AppError::Validation {
                message: e.message.clone(),
                details: vec![ErrorDetail {
                    field: Some(e.field),
                    message: e.message,
                }],
            })
        })
        .await??;
    Ok(HttpResponse::Ok().json(answer))
}
