//! The One if by Land API: the catalogue and roster validation under `/api/v1/oibl/`. No login
//! needed: these are reference data and pure computation.

use actix_web::{get, post, web, HttpRequest, HttpResponse};
use serde::Serialize;
use utoipa::ToSchema;

use crate::app::work::{Caller, Cancel};
use crate::rules::systems::oibl;
use crate::web::auth::login::client_address;
use crate::web::error::ErrorBody;
use crate::web::state::AppState;
use crate::web::AppError;

pub fn configure(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    cfg.service(catalog).service(validate);
}

/// The report of one order of battle (documents the shape of `rules::systems::oibl::Report`).
#[derive(Serialize, ToSchema)]
#[allow(dead_code)] // only describes the JSON in the OpenAPI document
pub struct OiblReportSchema {
    /// True when no finding is an error.
    legal: bool,
    findings: Vec<OiblFindingSchema>,
    brigades: u32,
    units: u32,
    /// Figures of every readable unit (artillery: its crew).
    figures: u32,
    guns: u32,
    /// Brigade cards in the deck: brigades with units (B-29).
    cards: u32,
}

/// One report for one document, an array of reports for an array of documents.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
#[allow(dead_code)]
pub enum OiblReportsSchema {
    One(OiblReportSchema),
    Many(Vec<OiblReportSchema>),
}

#[derive(Serialize, ToSchema)]
#[allow(dead_code)]
pub struct OiblFindingSchema {
    /// Stable code, e.g. `bayonets_not_allowed`, `scenario_authorization`.
    code: String,
    /// `error` or `warning`.
    severity: String,
    /// What it concerns, e.g. `brigades[0].units[2].quality`.
    path: String,
    /// Plain words naming what is wrong.
    message: String,
}

/// Validate One if by Land orders of battle
///
/// Checks a `muster.oibl.roster/1` document (the neutral tag `oibl.roster/1` is read too), or an
/// array of them, and returns every finding at once (code, severity, path, words) with the
/// derived counts: brigades, units, figures, guns and brigade cards. Broken JSON is refused with
/// its line and column; a document that is not an order of battle is refused naming the part.
#[utoipa::path(tag = "one-if-by-land", request_body(content = serde_json::Value, description = "An order of battle or an array of them"), responses(
    (status = 200, description = "The report (or an array of reports)", body = OiblReportsSchema),
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
    // Reading and checking many documents is CPU work: off the request threads, under the
    // work limits of the caller's address (no login needed here).
    let caller = Caller::Address(client_address(&req, &state));
    let rules = state.app.rules.clone();
    let reports = state
        .app
        .work
        .run(&caller, move |cancel| {
            validate_body(&rules.oibl, &body, cancel)
        })
        .await??;
    Ok(HttpResponse::Ok().json(reports))
}

fn to_json(value: impl Serialize) -> Result<serde_json::Value, AppError> {
    serde_json::to_value(value).map_err(AppError::internal)
}

fn validate_body(
    catalogue: &oibl::Catalogue,
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
            reports.push(oibl::validate(catalogue, &doc));
        }
        return to_json(reports);
    }
    let doc = super::rosters::read_doc(text).map_err(|p| p.api_error(""))?;
    to_json(oibl::validate(catalogue, &doc))
}

/// The One if by Land catalogue
///
/// Every number the rules use, as data: the Combat Table cell by cell, qualities with their
/// Morale Numbers and firing modifiers, the modifiers of fire, melee and morale, movement rates
/// and bonuses, weapons and ranges, guns with their figure values and crews, cannon range bands,
/// counter-battery, loss bands, commander ratings, the risk to generals, Muster's victory rule,
/// basings and troop classes, with the catalogue version rosters record.
#[utoipa::path(tag = "one-if-by-land", responses(
    (status = 200, description = "The catalogue", body = serde_json::Value)
))]
#[get("/catalog")]
pub async fn catalog(state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok().json(&state.app.rules.oibl)
}
