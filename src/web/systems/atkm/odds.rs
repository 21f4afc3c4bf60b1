//! Exact odds for All the King's Men on the web: `POST /api/v1/atkm/odds/<kind>` for each kind
//! the rules core answers (`fire`, `melee`, `command`, `leaders`; spec 4.8), and the page
//! `/atkm/odds` with a form per kind showing the distributions, the cumulative "at least" view
//! and how each pool of dice was built. The numbers are the core's enumeration over the dice
//! (`rules::systems::atkm::odds`), never sampled.

use actix_web::{post, web, HttpRequest, HttpResponse};
use askama::Template;
use serde_json::Value;

use crate::rules::systems::atkm::odds::{answer, OddsError, KINDS};
use crate::web::error::{ErrorBody, ErrorDetail};
use crate::web::page::{render, render_with_status, PageCtx};
use crate::web::state::AppState;
use crate::web::AppError;

pub fn configure(cfg: &mut actix_web::web::ServiceConfig) {
    cfg.service(web::resource("/atkm/odds").get(odds_page));
}

pub fn configure_api(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    cfg.service(odds_fire)
        .service(odds_melee)
        .service(odds_command)
        .service(odds_leaders);
}

fn problem(e: OddsError) -> AppError {
    AppError::Validation {
        message: format!("The odds cannot be worked out: {}", e.message),
        details: vec![ErrorDetail {
            field: (!e.field.is_empty()).then_some(e.field),
            message: e.message,
        }],
    }
}

async fn odds_of(
    state: web::Data<AppState>,
    kind: &str,
    body: web::Bytes,
) -> Result<HttpResponse, AppError> {
    let request: Value = serde_json::from_slice(&body).map_err(|e| AppError::BadRequest {
        message: format!("The JSON body could not be read: {e}."),
        details: vec![],
    })?;
    let odds = answer(&state.app.rules.atkm, kind, &request).map_err(problem)?;
    Ok(HttpResponse::Ok().json(odds))
}

/// Exact fire odds of All the King's Men
///
/// Attacker and defender, range and flank or rear: the pools with the terms that built them and
/// the colour steps (K-6), the casualty distribution and its "at least" form, and the chances of
/// no effect, a downgrade, disorder, collapse and a leader check, with the rulings used.
#[utoipa::path(tag = "all-the-kings-men", request_body(content = serde_json::Value, description = "The fire request"), responses(
    (status = 200, description = "The exact odds", body = serde_json::Value),
    (status = 400, description = "The body is not JSON", body = ErrorBody),
    (status = 422, description = "A field is unknown, out of range or not allowed", body = ErrorBody)
))]
#[post("/odds/fire")]
pub async fn odds_fire(
    state: web::Data<AppState>,
    body: web::Bytes,
) -> Result<HttpResponse, AppError> {
    odds_of(state, "fire", body).await
}

/// Exact melee odds of All the King's Men
///
/// Attacker and defender: who wins, ties and both collapsing (K-17), each side's losses with
/// their "at least" forms, the chance of forming square and of rallying, with the rulings used.
#[utoipa::path(tag = "all-the-kings-men", request_body(content = serde_json::Value, description = "The melee request"), responses(
    (status = 200, description = "The exact odds", body = serde_json::Value),
    (status = 400, description = "The body is not JSON", body = ErrorBody),
    (status = 422, description = "A field is unknown, out of range or not allowed", body = ErrorBody)
))]
#[post("/odds/melee")]
pub async fn odds_melee(
    state: web::Data<AppState>,
    body: web::Bytes,
) -> Result<HttpResponse, AppError> {
    odds_of(state, "melee", body).await
}

/// Command point odds of All the King's Men
///
/// A general's rating (and a unit's colour and quality): the command points rolled, advanced
/// activation, square, rally, army collapse and general casualty rolls, exactly.
#[utoipa::path(tag = "all-the-kings-men", request_body(content = serde_json::Value, description = "The command request"), responses(
    (status = 200, description = "The exact odds", body = serde_json::Value),
    (status = 400, description = "The body is not JSON", body = ErrorBody),
    (status = 422, description = "A field is unknown, out of range or not allowed", body = ErrorBody)
))]
#[post("/odds/command")]
pub async fn odds_command(
    state: web::Data<AppState>,
    body: web::Bytes,
) -> Result<HttpResponse, AppError> {
    odds_of(state, "command", body).await
}

/// Officer and ensign loss odds of All the King's Men
///
/// One die, or two for marksmen (K-8): the chances of losing the ensign, the officer, both or
/// neither.
#[utoipa::path(tag = "all-the-kings-men", request_body(content = serde_json::Value, description = "The leaders request"), responses(
    (status = 200, description = "The exact odds", body = serde_json::Value),
    (status = 400, description = "The body is not JSON", body = ErrorBody),
    (status = 422, description = "A field is unknown, out of range or not allowed", body = ErrorBody)
))]
#[post("/odds/leaders")]
pub async fn odds_leaders(
    state: web::Data<AppState>,
    body: web::Bytes,
) -> Result<HttpResponse, AppError> {
    odds_of(state, "leaders", body).await
}

/// A request ready to try, for each kind (the book's own examples where it has them).
pub fn example(kind: &str) -> &'static str {
    match kind {
        "fire" => {
            r#"{"attacker": {"type": "infantry", "formation": "line", "figures": 12, "colour": "green"},
 "defender": {"type": "infantry", "figures": 8, "colour": "yellow"},
 "range_inches": 10}"#
        }
        "melee" => {
            r#"{"attacker": {"type": "cavalry", "figures": 5},
 "defender": {"type": "infantry", "figures": 7, "colour": "yellow", "general_rating": 2}}"#
        }
        "command" => r#"{"rating": 2, "unit_colour": "yellow", "quality": "regular"}"#,
        _ => r#"{"marksmen": true}"#,
    }
}

pub struct Cell {
    pub n: usize,
    pub exactly: String,
    pub at_least: String,
    /// Bar width in per cent of the largest probability.
    pub bar: u32,
}

pub struct Distribution {
    pub title: String,
    pub cells: Vec<Cell>,
}

pub struct PoolView {
    pub title: String,
    pub dice: String,
    pub colour: String,
    pub terms: Vec<String>,
    pub steps: Vec<String>,
}

pub struct Chance {
    pub label: String,
    pub value: String,
}

#[derive(Default)]
pub struct Answer {
    pub pools: Vec<PoolView>,
    pub chances: Vec<Chance>,
    pub distributions: Vec<Distribution>,
    pub rulings: Vec<String>,
}

pub struct KindForm {
    pub kind: &'static str,
    pub title: &'static str,
    pub request: String,
}

#[derive(Template)]
#[template(path = "systems/atkm/odds.html")]
struct OddsPage {
    ctx: PageCtx,
    forms: Vec<KindForm>,
    kind: String,
    answer: Option<Answer>,
    error: Option<String>,
}

fn percent(p: f64) -> String {
    format!("{:.2} %", p * 100.0)
}

fn words(key: &str) -> String {
    key.trim_start_matches("p_").replace('_', " ")
}

fn pool(title: String, v: &Value) -> Option<PoolView> {
    let dice = v.get("dice")?.as_u64()?;
    let colour = v.get("colour")?.as_str()?.to_string();
    let on = v.get("succeeds_on").and_then(Value::as_u64).unwrap_or(0);
    let list = |key: &str, f: &dyn Fn(&Value) -> Option<String>| -> Vec<String> {
        v.get(key)
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(f).collect())
            .unwrap_or_default()
    };
    Some(PoolView {
        title,
        dice: dice.to_string(),
        colour: format!(
            "{colour} (succeeds on {on}{})",
            if on < 6 { "+" } else { "" }
        ),
        terms: list("terms", &|t| {
            Some(format!(
                "{}: {} dice",
                t.get("what")?.as_str()?,
                t.get("dice")?.as_u64()?
            ))
        }),
        steps: list("colour_steps", &|s| s.as_str().map(str::to_string)),
    })
}

fn distribution(title: String, exactly: &[Value], at_least: Option<&Vec<Value>>) -> Distribution {
    let p: Vec<f64> = exactly.iter().map(|x| x.as_f64().unwrap_or(0.0)).collect();
    let most = p.iter().copied().fold(0.0, f64::max);
    let cells = p
        .iter()
        .enumerate()
        .map(|(n, x)| {
            let tail: f64 = match at_least.and_then(|a| a.get(n)).and_then(Value::as_f64) {
                Some(t) => t,
                None => p[n..].iter().sum(),
            };
            Cell {
                n,
                exactly: percent(*x),
                at_least: percent(tail),
                bar: if most > 0.0 {
                    (x / most * 100.0).round() as u32
                } else {
                    0
                },
            }
        })
        .collect();
    Distribution { title, cells }
}

/// Lays out any kind's answer: pools (objects with dice and terms), probabilities (numbers),
/// distributions (arrays of probabilities with their `_at_least` twins), nested cases.
fn read_answer(prefix: &str, v: &Value, out: &mut Answer) {
    let Some(map) = v.as_object() else {
        return;
    };
    for (key, value) in map {
        let label = if prefix.is_empty() {
            words(key)
        } else {
            format!("{prefix}: {}", words(key))
        };
        match value {
            Value::Number(n) if key != "dice" => {
                let x = n.as_f64().unwrap_or(0.0);
                let is_probability = key.starts_with("p_")
                    || (0.0..=1.0).contains(&x) && !key.starts_with("expected");
                out.chances.push(Chance {
                    label,
                    value: if is_probability && n.is_f64() {
                        percent(x)
                    } else {
                        format!("{x}")
                    },
                });
            }
            Value::String(s) => out.chances.push(Chance {
                label,
                value: s.clone(),
            }),
            Value::Array(items) if key == "rulings" => {
                out.rulings
                    .extend(items.iter().filter_map(|r| r.as_str().map(str::to_string)));
            }
            Value::Array(items) if key.ends_with("_at_least") => {
                let _ = items;
            }
            Value::Array(items) if items.iter().all(Value::is_number) && !items.is_empty() => {
                let twin = map
                    .get(&format!("{key}_at_least"))
                    .and_then(Value::as_array);
                out.distributions.push(distribution(label, items, twin));
            }
            Value::Object(_) if value.get("terms").is_some() => {
                if let Some(p) = pool(label, value) {
                    out.pools.push(p);
                }
            }
            Value::Object(_) => read_answer(&label, value, out),
            _ => {}
        }
    }
}

fn title(kind: &str) -> &'static str {
    match kind {
        "fire" => "Fire",
        "melee" => "Melee",
        "command" => "Command points and the advanced rolls",
        _ => "Officer and ensign losses",
    }
}

/// `GET /atkm/odds?kind=fire&request={…}`: the forms, and the answer to the one asked.
pub async fn odds_page(
    state: web::Data<AppState>,
    ctx: PageCtx,
    req: HttpRequest,
) -> Result<HttpResponse, AppError> {
    let query: Vec<(String, String)> = serde_urlencoded::from_str(req.query_string())
        .map_err(|_| AppError::bad_request("The address could not be read."))?;
    let get = |k: &str| {
        query
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    let kind = get("kind");
    let asked = get("request");
    let forms = KINDS
        .iter()
        .map(|k| KindForm {
            kind: k,
            title: title(k),
            request: if *k == kind && !asked.is_empty() {
                asked.clone()
            } else {
                example(k).to_string()
            },
        })
        .collect();
    let mut page = OddsPage {
        ctx,
        forms,
        kind: kind.clone(),
        answer: None,
        error: None,
    };
    if kind.is_empty() {
        return render(&page);
    }
    if !KINDS.contains(&kind.as_str()) {
        page.error = Some("Choose fire, melee, command or leaders.".into());
        return render_with_status(&page, actix_web::http::StatusCode::UNPROCESSABLE_ENTITY);
    }
    let result = serde_json::from_str::<Value>(&asked)
        .map_err(|e| format!("The request is not JSON: {e}."))
        .and_then(|request| {
            answer(&state.app.rules.atkm, &kind, &request).map_err(|e| {
                if e.field.is_empty() {
                    e.message
                } else {
                    format!("{}: {}", e.field, e.message)
                }
            })
        });
    match result {
        Ok(value) => {
            let mut a = Answer::default();
            read_answer("", &value, &mut a);
            page.answer = Some(a);
            render(&page)
        }
        Err(message) => {
            page.error = Some(message);
            render_with_status(&page, actix_web::http::StatusCode::UNPROCESSABLE_ENTITY)
        }
    }
}
