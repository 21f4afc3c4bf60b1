//! Battles as records over the API: set up, simulate, record, confirm, dispute, read.

use actix_web::{get, post, web, HttpResponse};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::app::battles as records;
use crate::store::battles::BattleRow;
use crate::web::auth::ApiUser;
use crate::web::error::ErrorBody;
use crate::web::state::AppState;
use crate::web::systems::battles::{
    pages_of, set_up_battle, BattleRequest, RecordAnswer, RecordEntry,
};
use crate::web::AppError;

fn battle_json(row: &BattleRow) -> Value {
    json!({
        "id": row.id, "version": row.version, "rule_system": row.rule_system, "title": row.title,
        "scenario": row.scenario, "points": row.points, "status": row.status, "method": row.method,
        "winner": row.winner, "victory_level": row.victory_level, "attacker_vp": row.attacker_vp,
        "defender_vp": row.defender_vp, "single_party": row.single_party, "dispute": row.dispute,
        "replaces_id": row.replaces_id,
        "rolls": serde_json::from_str::<Value>(&row.rolls).unwrap_or(Value::Null),
        "result": row.result.as_deref().and_then(|r| serde_json::from_str::<Value>(r).ok()),
    })
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewBattleJson {
    /// `r:<roster id>` (one of yours) or `h:<battle>:<side>:<force>` (historical).
    first: String,
    second: String,
    /// Empty for you, an email of a Muster user, or a guest's name.
    #[serde(default)]
    first_player: String,
    #[serde(default)]
    second_player: String,
    /// A scenario id; absent: rolled on the book's 2d6 table.
    #[serde(default)]
    scenario: Option<String>,
    /// Roll for the attack instead of the first force attacking.
    #[serde(default)]
    roll_roles: bool,
}

/// Set up a battle
///
/// Snapshots two forces, names the players (you, a Muster user by email, or a guest) and rolls
/// the commanders' ratings (and the scenario and roles when asked) with a recorded seed.
#[utoipa::path(tag = "battles", security(("bearer" = [])), request_body = NewBattleJson, responses(
    (status = 201, description = "The battle", body = Object),
    (status = 422, description = "Not a valid set-up", body = ErrorBody)
))]
#[post("/battles")]
pub async fn create(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    body: web::Json<NewBattleJson>,
) -> Result<HttpResponse, AppError> {
    let body = body.into_inner();
    let request = BattleRequest {
        first: body.first,
        second: body.second,
        first_player: body.first_player,
        second_player: body.second_player,
        scenario: body.scenario,
        roll_roles: body.roll_roles,
    };
    let row = set_up_battle(&state, &user, request).await?;
    Ok(HttpResponse::Created().json(battle_json(&row)))
}

/// A battle and its report
///
/// The battle with its status and, once decided, the result (the simulator's outcome with its
/// log, or the recorded report with the victory arithmetic). Players only.
#[utoipa::path(tag = "battles", security(("bearer" = [])), params(("id" = i64, Path, description = "Battle id")), responses(
    (status = 200, description = "The battle", body = Object),
    (status = 404, description = "No such battle of yours", body = ErrorBody)
))]
#[get("/battles/{id}")]
pub async fn get_one(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let row = records::load_for(&state.app, &user.actor(), id.into_inner()).await?;
    Ok(HttpResponse::Ok().json(battle_json(&row)))
}

/// A battle's set-up document
///
/// The `muster.lotf.battle/1` document with the rosters as they were and the rolled ratings;
/// `muster simulate --setup` replays a simulated battle from it exactly.
#[utoipa::path(tag = "battles", security(("bearer" = [])), params(("id" = i64, Path, description = "Battle id")), responses(
    (status = 200, description = "The set-up document", body = Object),
    (status = 404, description = "No such battle of yours", body = ErrorBody)
))]
#[get("/battles/{id}/setup")]
pub async fn setup(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let row = records::load_for(&state.app, &user.actor(), id.into_inner()).await?;
    let pack = pages_of(&row)?.battle_pack(&row)?;
    Ok(HttpResponse::Ok()
        .content_type("application/json")
        .body(pack))
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct VersionJson {
    /// The battle's version the action is based on.
    version: i32,
    /// For disputes: what is wrong.
    #[serde(default)]
    comment: String,
}

/// Let the simulator fight a battle
///
/// Fights a battle that is set up; the result is final at once. Players only.
#[utoipa::path(tag = "battles", security(("bearer" = [])), params(("id" = i64, Path, description = "Battle id")), request_body = VersionJson, responses(
    (status = 200, description = "The decided battle", body = Object),
    (status = 409, description = "Already decided, or changed since that version", body = ErrorBody)
))]
#[post("/battles/{id}/simulate")]
pub async fn simulate(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
    body: web::Json<VersionJson>,
) -> Result<HttpResponse, AppError> {
    let row = records::load_for(&state.app, &user.actor(), id.into_inner()).await?;
    let row = records::simulate(&state.app, &user.actor(), &row, body.version).await?;
    Ok(HttpResponse::Ok().json(battle_json(&row)))
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RecordJson {
    version: i32,
    /// `{"turns_played", "elements": [{"side", "id", "state", "hits"}], "commanders": [...],
    /// "attacker_objectives", "defender_objectives"}`
    #[schema(value_type = Object)]
    report: Value,
}

/// Record a result from the table
///
/// Muster works out points lost and the victory level; impossible entries are refused with
/// every problem named. The result is provisional until the other player confirms it (against a
/// guest it stands at once, marked single-party).
#[utoipa::path(tag = "battles", security(("bearer" = [])), params(("id" = i64, Path, description = "Battle id")), request_body = RecordJson, responses(
    (status = 200, description = "The recorded battle", body = Object),
    (status = 422, description = "Impossible entries", body = ErrorBody),
    (status = 409, description = "Already decided, or changed since that version", body = ErrorBody)
))]
#[post("/battles/{id}/record")]
pub async fn record(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
    body: web::Json<RecordJson>,
) -> Result<HttpResponse, AppError> {
    let row = records::load_for(&state.app, &user.actor(), id.into_inner()).await?;
    let body = body.into_inner();
    let answer = pages_of(&row)?
        .record(
            &state.app,
            &user.actor(),
            &row,
            body.version,
            RecordEntry::Json(body.report),
        )
        .await?;
    match answer {
        RecordAnswer::Saved(row) => Ok(HttpResponse::Ok().json(battle_json(&row))),
        RecordAnswer::Refused(details) | RecordAnswer::Checked(Err(details)) => {
            Err(AppError::Validation {
                message: "The result cannot be right as entered.".into(),
                details,
            })
        }
        // The API only records; a check is the page's.
        RecordAnswer::Checked(Ok(_)) => Err(AppError::internal("a check answered a record")),
    }
}

/// Confirm a recorded result
///
/// The other player accepts the result; it cannot change afterwards (a correction is a new version).
#[utoipa::path(tag = "battles", security(("bearer" = [])), params(("id" = i64, Path, description = "Battle id")), request_body = VersionJson, responses(
    (status = 200, description = "Confirmed", body = Object),
    (status = 403, description = "Not the other player", body = ErrorBody),
    (status = 409, description = "Not provisional, or changed since that version", body = ErrorBody)
))]
#[post("/battles/{id}/confirm")]
pub async fn confirm(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
    body: web::Json<VersionJson>,
) -> Result<HttpResponse, AppError> {
    let row = records::load_for(&state.app, &user.actor(), id.into_inner()).await?;
    let row = records::confirm(&state.app, &user.actor(), &row, body.version).await?;
    Ok(HttpResponse::Ok().json(battle_json(&row)))
}

/// Dispute a recorded result
///
/// Either player disputes a provisional result with a comment.
#[utoipa::path(tag = "battles", security(("bearer" = [])), params(("id" = i64, Path, description = "Battle id")), request_body = VersionJson, responses(
    (status = 200, description = "Disputed", body = Object),
    (status = 409, description = "Not provisional, or changed since that version", body = ErrorBody)
))]
#[post("/battles/{id}/dispute")]
pub async fn dispute(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
    body: web::Json<VersionJson>,
) -> Result<HttpResponse, AppError> {
    let row = records::load_for(&state.app, &user.actor(), id.into_inner()).await?;
    let row =
        records::dispute(&state.app, &user.actor(), &row, body.version, &body.comment).await?;
    Ok(HttpResponse::Ok().json(battle_json(&row)))
}
