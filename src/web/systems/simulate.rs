//! What every system's "Fight" page and simulate API share, whatever the rules: the form (two
//! forces, a seed, the battles for the odds), the set-up file download, stopping a background
//! job, and the odds answer of the API (at once when the work is small, otherwise a background
//! job with a `status_url`). The battles themselves are the system's (`Systems::odds`, run by
//! `app::odds::run`); the report and the job page are the system's own.

use std::sync::atomic::AtomicU32;

use actix_web::http::header;
use actix_web::{web, HttpResponse};
use serde::Deserialize;
use serde_json::Value;

use crate::app::jobs;
use crate::app::odds::{self as app_odds, OddsParams, RUNS_MAX};
use crate::app::rosters as roster_store;
use crate::app::work::{self, Caller};
use crate::rules::montecarlo::Estimate;
use crate::rules::systems::AnyRoster;
use crate::rules::SystemId;
use crate::web::auth::SignedInUser;
use crate::web::page::{redirect, SelectOption};
use crate::web::state::AppState;
use crate::web::AppError;

/// The fight page's form: the two forces (as the page's select values), the seed (empty for
/// fresh dice) and the battles to fight for the odds.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct FightForm {
    pub attacker: String,
    pub defender: String,
    pub seed: String,
    pub runs: String,
}

impl FightForm {
    /// The address's query of the battle this form and `seed` give (no token in it).
    pub fn query(&self, seed: u64) -> String {
        serde_urlencoded::to_string([
            ("attacker", self.attacker.as_str()),
            ("defender", self.defender.as_str()),
            ("seed", seed.to_string().as_str()),
        ])
        .unwrap_or_default()
    }

    /// The seed given, or fresh dice when none is.
    pub fn seed(&self) -> Result<u64, AppError> {
        match self.seed.trim() {
            "" => Ok(crate::app::dice::fresh_seed()),
            s => s.parse().map_err(|_| {
                AppError::bad_request("The seed is a whole number from 0 up (or leave it empty).")
            }),
        }
    }

    /// The battles asked for the odds (2 000 when the field is empty or out of range).
    pub fn runs(&self) -> u32 {
        self.runs
            .trim()
            .parse()
            .ok()
            .filter(|r| (1..=RUNS_MAX).contains(r))
            .unwrap_or(2000)
    }
}

/// A set-up document as a file to download: `<system>-battle-<seed>.json`.
pub fn setup_download(system: &str, seed: u64, document: String) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/json")
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"{system}-battle-{seed}.json\""),
        ))
        .body(document)
}

/// Stops a background job of the player's and goes back to its page under `fight` (the
/// system's fight page).
pub async fn cancel_job(
    state: &AppState,
    user: &SignedInUser,
    id: &str,
    fight: &str,
) -> Result<HttpResponse, AppError> {
    jobs::cancel(&state.app, id, user.id).await?;
    Ok(redirect(&format!("{fight}/jobs/{id}")))
}

/// The `runs` of an API odds request: 1 to [`RUNS_MAX`].
pub fn api_runs(body: &Value) -> Result<u32, AppError> {
    body.get("runs")
        .and_then(Value::as_u64)
        .and_then(|r| u32::try_from(r).ok())
        .filter(|r| (1..=RUNS_MAX).contains(r))
        .ok_or_else(|| AppError::Validation {
            message: format!("runs must be from 1 to {RUNS_MAX}"),
            details: vec![],
        })
}

/// The API's answer to an odds request: up to `direct_max` battles of small enough work
/// (`size` units on the table) are fought at once (200 with the system's summary); more start a
/// background job (202 with its status and a `status_url` to poll).
pub async fn odds_answer(
    state: &web::Data<AppState>,
    owner: i64,
    title: String,
    params: OddsParams,
    size: u64,
    direct_max: u32,
) -> Result<HttpResponse, AppError> {
    if params.runs <= direct_max && state.app.work.is_direct(size, params.runs) {
        let rules = state.app.rules.clone();
        let summary = state
            .app
            .work
            .run(&Caller::User(owner), move |cancel| {
                app_odds::run(&rules, &params, 1, &AtomicU32::new(0), cancel.flag())
            })
            .await?
            .map_err(|_| work::cancelled())?
            .map_err(|message| AppError::Validation {
                message,
                details: vec![],
            })?;
        return Ok(HttpResponse::Ok().json(summary));
    }
    let job = jobs::queue_odds(&state.app, owner, title, params).await?;
    let mut status = serde_json::to_value(&job).unwrap_or_default();
    if let Value::Object(map) = &mut status {
        map.insert(
            "status_url".into(),
            Value::String(format!("/api/v1/jobs/{}", job.id)),
        );
    }
    Ok(HttpResponse::Accepted().json(status))
}

/// The player's own rosters of `system` as a fight page offers them: `r:<id>`, by name.
pub async fn own_force_choices(
    state: &web::Data<AppState>,
    user: &SignedInUser,
    system: SystemId,
) -> Result<Vec<SelectOption>, AppError> {
    let rows = roster_store::list(&state.app, &user.actor(), None).await?;
    Ok(rows
        .iter()
        .filter(|r| r.rule_system == system.id())
        .map(|r| SelectOption {
            value: format!("r:{}", r.id),
            label: r.name.clone(),
        })
        .collect())
}

/// The player's own roster `id` (the part after `r:`) as its system's document; not found
/// when the id is not a number or the roster is not theirs.
pub async fn load_own_force<R: TryFrom<AnyRoster>>(
    state: &web::Data<AppState>,
    user: &SignedInUser,
    id: &str,
) -> Result<R, AppError> {
    let id: i64 = id.parse().map_err(|_| AppError::NotFound)?;
    Ok(roster_store::load_owned::<R>(&state.app, &user.actor(), id)
        .await?
        .doc)
}

/// The rows of an odds table: each result, its share and its 95 % (Wilson) interval.
pub fn estimate_rows(rows: &[(String, &Estimate)]) -> Vec<(String, String, String)> {
    let pct = |p: f64| format!("{:.1} %", p * 100.0);
    rows.iter()
        .map(|(label, e)| {
            (
                label.clone(),
                pct(e.p),
                format!("{} – {}", pct(e.low), pct(e.high)),
            )
        })
        .collect()
}
