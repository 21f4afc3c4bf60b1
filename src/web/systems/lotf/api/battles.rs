//! Exact odds, simulated battles and battle odds over the API.

use actix_web::{post, web, HttpResponse};
use serde::Serialize;
use serde_json::Value;

use crate::app::jobs::JobStatus;
use crate::app::work::{self, Caller};
use crate::rules::systems::lotf::{self, OddsError};
use crate::web::auth::ApiUser;
use crate::web::error::{ErrorBody, ErrorDetail};
use crate::web::state::AppState;
use crate::web::systems::lotf::battle_request::{self as battles, DIRECT_RUNS_MAX};
use crate::web::AppError;

fn odds_error(e: OddsError) -> AppError {
    let field = match &e {
        OddsError::NoSuchElement { field, .. }
        | OddsError::WeaponNotAllowed { field, .. }
        | OddsError::TooManySupporters { field, .. }
        | OddsError::OutOfRange { field, .. }
        | OddsError::CommanderRating { field, .. } => Some(field.clone()),
        OddsError::Shot(_) => None,
    };
    AppError::Validation {
        message: "The odds cannot be worked out for that situation.".into(),
        details: vec![ErrorDetail {
            field,
            message: e.to_string(),
        }],
    }
}

/// Exact shooting odds
///
/// The probability of each number of hits for one shooting action, expected hits, ragged and
/// punishing volleys, Disorder Markers, and the chance the target must take and fails a
/// Discipline Test. Exact (enumeration), with the rulings that decided it and how the pool was
/// built ("2 base + 4 Action + 1 point blank − 1 cover = 6 dice").
#[utoipa::path(tag = "land-of-the-free", request_body(content = Object, description = "`{\"shooter\": {...}, \"target\": {...}, \"range_inches\", \"flank\", \"ammunition\", \"concentrated_volley\"}`. A target with `commander_attached` must name his `commander_rating` (`incompetent`, `competent`, `skilled`, `highly_skilled`): his Morale replaces the target's for its Discipline Test (R-33); without it the answer is 422 naming `target.commander_rating`."), responses(
    (status = 200, description = "The odds", body = super::ShootingOddsSchema),
    (status = 422, description = "An impossible situation (e.g. out of range)", body = ErrorBody)
))]
#[post("/odds/shooting")]
pub async fn shooting(
    state: web::Data<AppState>,
    body: web::Json<lotf::ShootingRequest>,
) -> Result<HttpResponse, AppError> {
    let result = lotf::shooting_odds(&state.app.rules.lotf, &body).map_err(odds_error)?;
    Ok(HttpResponse::Ok().json(result))
}

/// Exact melee odds
///
/// Attacker win, tie and defender win, and the probability of each result margin, for two
/// elements with their situations and up to three supporters each.
#[utoipa::path(tag = "land-of-the-free", request_body(content = Object, description = "`{\"attacker\": side, \"defender\": side}`"), responses(
    (status = 200, description = "The odds", body = super::MeleeOddsSchema),
    (status = 422, description = "An impossible situation", body = ErrorBody)
))]
#[post("/odds/melee")]
pub async fn melee(
    state: web::Data<AppState>,
    body: web::Json<lotf::MeleeRequest>,
) -> Result<HttpResponse, AppError> {
    let result = lotf::melee_odds(&state.app.rules.lotf, &body).map_err(odds_error)?;
    Ok(HttpResponse::Ok().json(result))
}

/// Exact morale-test odds
///
/// The probability of passing a Morale, Disorder or Discipline Test with the given modifiers. An
/// attached commander's Morale, from his rating, replaces the element's.
#[utoipa::path(tag = "land-of-the-free", request_body(content = Object, description = "`{\"element\", \"morale\", \"commander_rating\", \"kind\", \"situation\", ...}`. `commander_rating` (`incompetent`, `competent`, `skilled`, `highly_skilled`) is required when `situation.commander_attached` is true: his Morale replaces the element's (R-33), with +1 for him (R-20); without it the answer is 422 naming `commander_rating`. A rating without attachment is a special order that does not attach him (a Forced Order): his Morale, no +1."), responses(
    (status = 200, description = "The odds", body = super::MoraleOddsSchema),
    (status = 422, description = "An impossible situation", body = ErrorBody)
))]
#[post("/odds/morale")]
pub async fn morale(
    state: web::Data<AppState>,
    body: web::Json<lotf::MoraleRequest>,
) -> Result<HttpResponse, AppError> {
    let result = lotf::morale_odds(&state.app.rules.lotf, &body).map_err(odds_error)?;
    Ok(HttpResponse::Ok().json(result))
}

#[derive(Serialize)]
struct SimulateResponse {
    /// The set-up that was fought; post it again to replay the battle exactly.
    setup: lotf::BattleSetup,
    outcome: lotf::BattleOutcome,
}

/// Fight a battle
///
/// Fights one battle with the rules core: a `muster.lotf.battle/1` set-up document, or the
/// short form `{"attacker": roster, "defender": roster, "scenario", "seed"}` (roles as given;
/// without a seed one is drawn and reported). Returns the set-up and the outcome with the
/// narrated log (`"narrate": false` leaves the log out). The same set-up always gives the same
/// battle. Logged-in users only.
#[utoipa::path(tag = "battles", security(("bearer" = [])), request_body(content = Object, description = "A set-up document or the short form"), responses(
    (status = 200, description = "The set-up and the outcome", body = super::SimulatedBattleSchema),
    (status = 401, description = "Not logged in", body = ErrorBody),
    (status = 429, description = "Too much work is waiting; try again after Retry-After seconds", body = ErrorBody),
    (status = 422, description = "Not a valid set-up", body = ErrorBody)
))]
#[post("/battles/simulate")]
pub async fn simulate(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    body: web::Json<Value>,
) -> Result<HttpResponse, AppError> {
    let setup = battles::read_setup(&body)?;
    let narrate = body.get("narrate").and_then(Value::as_bool).unwrap_or(true);
    let rules = state.app.rules.clone();
    let fought = setup.clone();
    let outcome = state
        .app
        .work
        .run(&Caller::User(user.id), move |_| {
            lotf::simulate(&rules.lotf, &fought, narrate)
        })
        .await?
        .map_err(|e| AppError::Validation {
            message: e.to_string(),
            details: vec![],
        })?;
    Ok(HttpResponse::Ok().json(SimulateResponse { setup, outcome }))
}

/// Battle odds
///
/// Fights the same set-up many times, battle i with a seed derived from (seed, i), and reports
/// attacker win / draw / defender win with 95 % intervals, the victory levels, average points
/// lost and the elements most often lost. Logged-in users only. Up to 10 000 runs are answered
/// directly; up to 100 000 run as a background job (202 with a `status_url` to poll), one per
/// user at a time.
#[utoipa::path(tag = "battles", security(("bearer" = [])), request_body(content = Object, description = "A set-up or the short form, plus `runs`"), responses(
    (status = 200, description = "The odds", body = Object),
    (status = 202, description = "Started as a background job", body = JobStatus),
    (status = 401, description = "Not logged in", body = ErrorBody),
    (status = 429, description = "Too much work is waiting; try again after Retry-After seconds", body = ErrorBody),
    (status = 409, description = "A job of yours is still running", body = ErrorBody),
    (status = 422, description = "Not a valid request", body = ErrorBody)
))]
#[post("/battles/odds")]
pub async fn battle_odds(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    body: web::Json<Value>,
) -> Result<HttpResponse, AppError> {
    let setup = battles::read_setup(&body)?;
    let runs = battles::read_runs(&body)?;
    let rules = state.app.rules.clone();
    if runs <= DIRECT_RUNS_MAX && state.app.work.is_direct(battles::size(&setup), runs) {
        let summary = state
            .app
            .work
            .run(&Caller::User(user.id), move |cancel| {
                battles::odds(&rules.lotf, &setup, runs, cancel.flag())
            })
            .await?
            .ok_or_else(work::cancelled)?
            .map_err(|e| AppError::Validation {
                message: e,
                details: vec![],
            })?;
        return Ok(HttpResponse::Ok().json(summary));
    }
    let title = format!(
        "{} against {}",
        setup.attacker.roster.name, setup.defender.roster.name
    );
    let job =
        crate::web::systems::lotf::fight::queue_odds(&state, user.id, title, &setup, runs).await?;
    let mut status = serde_json::to_value(&job).unwrap_or_default();
    if let Value::Object(map) = &mut status {
        map.insert(
            "status_url".into(),
            Value::String(format!("/api/v1/jobs/{}", job.id)),
        );
    }
    Ok(HttpResponse::Accepted().json(status))
}
