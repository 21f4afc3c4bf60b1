//! Battles as records over the API: set up, simulate, record, confirm, dispute, read.

use actix_web::{delete, get, post, web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::app::battles as records;
use crate::store::battles::BattleRow;
use crate::web::auth::ApiUser;
use crate::web::error::ErrorBody;
use crate::web::state::AppState;
use crate::web::systems::battles::{
    pages_of, set_up_battle, BattleRequest, RecordAnswer, RecordEntry,
};
use crate::web::AppError;

/// A battle record as the API answers it.
#[derive(Serialize, ToSchema)]
pub struct BattleJson {
    id: i64,
    /// Goes up by one with every change; send it back with an action.
    version: i32,
    /// The rule system's id, e.g. `lotf` or `lod`.
    rule_system: String,
    title: String,
    scenario: String,
    points: i32,
    status: BattleStatusJson,
    /// `simulated` or `tabletop`, once decided.
    method: Option<String>,
    /// `attacker`, `defender` or `draw`, once decided.
    winner: Option<String>,
    victory_level: Option<String>,
    attacker_vp: Option<i32>,
    defender_vp: Option<i32>,
    /// Recorded against a guest: it stands without the other player's confirmation.
    single_party: bool,
    /// What the disputing player said is wrong.
    dispute: Option<String>,
    /// The battle this one corrects.
    replaces_id: Option<i64>,
    /// The campaign the battle belongs to.
    campaign_id: Option<i64>,
    /// The rolls made at set-up (commanders' ratings, scenario, roles), each with its seed.
    rolls: Vec<Value>,
    /// The simulator's outcome with its log, or the recorded report with the victory
    /// arithmetic, in the rule system's own shape; `null` until decided.
    #[schema(value_type = Option<Object>)]
    result: Option<Value>,
    /// The public link, once a player has made the confirmed report public.
    public_url: Option<String>,
    /// For a battle set up by e-mail: the invitation on the opponent's side. It reads the same
    /// whether or not the address has an account; the battle can be fought once it is accepted.
    invitation: Option<InvitationJson>,
    /// Set up with the opponent's side open for them to attach their own roster
    /// (`POST /api/v1/battles/{id}/attach`). Answered by `GET /api/v1/battles/{id}`, set-up and
    /// the club-night actions.
    #[serde(skip_serializing_if = "Option::is_none")]
    open_side: Option<OpenSideJson>,
    /// A player's request that the engine fight this battle, waiting for the other player's
    /// answer (`POST /api/v1/battles/{id}/engine/accept` or `/decline`). Answered where
    /// `open_side` is.
    #[serde(skip_serializing_if = "Option::is_none")]
    engine_request: Option<EngineRequestJson>,
}

/// A side left open at set-up for its player's own roster.
#[derive(Serialize, ToSchema)]
pub struct OpenSideJson {
    /// True while the side waits for a roster (the battle has no set-up yet and cannot be
    /// fought or recorded); false once one is attached (its player may withdraw it).
    waiting: bool,
    /// The side waits for your roster.
    for_you: bool,
}

/// A request that the engine fight a battle between two players.
#[derive(Serialize, ToSchema)]
pub struct EngineRequestJson {
    /// You asked (you may withdraw it); otherwise the other player asked and you accept or
    /// decline.
    by_you: bool,
}

/// An invitation to play one side of a battle.
#[derive(Serialize, ToSchema)]
pub struct InvitationJson {
    state: InvitationStateJson,
    /// `attacker` or `defender`: the side the invited player plays.
    side: String,
    /// The invitation waits for your answer (`POST /api/v1/battles/{id}/accept` or `/decline`).
    for_you: bool,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum InvitationStateJson {
    /// Waiting for the invited player's answer.
    Pending,
    Accepted,
    Declined,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum BattleStatusJson {
    SetUp,
    Provisional,
    Confirmed,
    Disputed,
    Voided,
}

impl BattleStatusJson {
    fn of(id: &str) -> Self {
        match id {
            "provisional" => Self::Provisional,
            "confirmed" => Self::Confirmed,
            "disputed" => Self::Disputed,
            "voided" => Self::Voided,
            _ => Self::SetUp,
        }
    }
}

/// The battle as its players see it; `public_url` only when asked with the request (players'
/// answers), never on the public view.
fn battle_json(
    row: &BattleRow,
    viewer: Option<i64>,
    link: Option<(&AppState, &HttpRequest)>,
) -> BattleJson {
    let invitation = records::Invitation::of(row).map(|i| InvitationJson {
        state: match i.state {
            records::InvitationState::Pending => InvitationStateJson::Pending,
            records::InvitationState::Accepted => InvitationStateJson::Accepted,
            records::InvitationState::Declined => InvitationStateJson::Declined,
        },
        side: i.side.id().into(),
        for_you: viewer.is_some() && i.invitee(row) == viewer,
    });
    BattleJson {
        open_side: None,
        engine_request: None,
        invitation,
        id: row.id,
        version: row.version,
        rule_system: row.rule_system.clone(),
        title: row.title.clone(),
        scenario: row.scenario.clone(),
        points: row.points,
        status: BattleStatusJson::of(&row.status),
        method: row.method.clone(),
        winner: row.winner.clone(),
        victory_level: row.victory_level.clone(),
        attacker_vp: row.attacker_vp,
        defender_vp: row.defender_vp,
        single_party: row.single_party,
        dispute: row.dispute.clone(),
        replaces_id: row.replaces_id,
        campaign_id: row.campaign_id,
        rolls: serde_json::from_str(&row.rolls).unwrap_or_default(),
        result: row
            .result
            .as_deref()
            .and_then(|r| serde_json::from_str::<Value>(r).ok()),
        public_url: link.and_then(|(state, req)| {
            row.public_token
                .as_ref()
                .map(|t| state.absolute_url(req, &format!("/battles/public/{t}")))
        }),
    }
}

/// The battle as `battle_json` answers it, with its open side and any request for the engine.
async fn club_json(
    state: &AppState,
    row: &BattleRow,
    viewer: i64,
    req: &HttpRequest,
) -> Result<BattleJson, AppError> {
    let mut json = battle_json(row, Some(viewer), Some((state, req)));
    let open = records::club_night::open_side(&state.app, row.id).await?;
    json.open_side = open.map(|o| OpenSideJson {
        waiting: o.waiting,
        for_you: o.waiting
            && records::Invitation::of(row).and_then(|i| i.invitee(row)) == Some(viewer),
    });
    if row.status == "set_up" {
        json.engine_request = records::club_night::engine_requested_by(&state.app, row.id)
            .await?
            .map(|by| EngineRequestJson {
                by_you: by == viewer,
            });
    }
    Ok(json)
}

/// The API's answer to a set-up or report it cannot use. The shared code answers 400 for a force
/// it cannot find or a report it cannot read, as the page's form does; over the API the body
/// was read as JSON, so that is 422.
fn unusable(e: impl Into<AppError>) -> AppError {
    match e.into() {
        AppError::BadRequest { message, details } => AppError::Validation { message, details },
        other => other,
    }
}

/// Your battles
///
/// The battles you play or set up, newest first.
#[utoipa::path(tag = "battles", security(("bearer" = [])), responses(
    (status = 200, description = "Your battles", body = [BattleJson])
))]
#[get("/battles")]
pub async fn list(
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
) -> Result<HttpResponse, AppError> {
    let rows = records::list(&state.app, &user.actor()).await?;
    Ok(HttpResponse::Ok().json(
        rows.iter()
            .map(|r| battle_json(r, Some(user.id), Some((&state, &req))))
            .collect::<Vec<_>>(),
    ))
}

/// A public battle report
///
/// A confirmed battle one of its players made public, by its link's token. Needs no login.
#[utoipa::path(tag = "battles", params(("token" = String, Path, description = "The token of the public link")), responses(
    (status = 200, description = "The battle", body = BattleJson),
    (status = 404, description = "No public battle has this token", body = ErrorBody)
))]
#[get("/battles/public/{token}")]
pub async fn public(
    state: web::Data<AppState>,
    token: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    let row = records::public(&state.app, token.into_inner()).await?;
    Ok(HttpResponse::Ok().json(battle_json(&row, None, None)))
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewBattleJson {
    /// `r:<roster id>` (one of yours) or `h:<battle>:<side>:<force>` (historical); `open` for
    /// one of the two leaves that side open for its player (a club-mate by e-mail) to attach
    /// their own roster.
    #[schema(pattern = "^(r:|h:|open$)")]
    first: String,
    #[schema(pattern = "^(r:|h:|open$)")]
    second: String,
    /// Empty for you, an opponent's email (an invitation: the side shows only
    /// "invited: a…@example.org" until its player accepts, whether or not the address has an
    /// account), or a guest's name.
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
/// Snapshots two forces, names the players (you, an opponent invited by email, or a guest) and
/// rolls the commanders' ratings (and the scenario and roles when asked) with a recorded seed.
/// A side set up by email waits for its player to accept (`invitation`) before the battle can
/// be fought or recorded; the answer is the same whether or not the address has an account.
#[utoipa::path(tag = "battles", security(("bearer" = [])), request_body = NewBattleJson, responses(
    (status = 201, description = "The battle", body = BattleJson),
    (status = 404, description = "A roster named is not one of yours", body = ErrorBody),
    (status = 422, description = "Not a valid set-up", body = ErrorBody)
))]
#[post("/battles")]
pub async fn create(
    req: HttpRequest,
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
    let row = set_up_battle(&state, &user, request)
        .await
        .map_err(unusable)?;
    Ok(HttpResponse::Created().json(club_json(&state, &row, user.id, &req).await?))
}

/// A battle and its report
///
/// The battle with its status and, once decided, the result (the simulator's outcome with its
/// log, or the recorded report with the victory arithmetic). Players only.
#[utoipa::path(tag = "battles", security(("bearer" = [])), params(("id" = i64, Path, description = "Battle id")), responses(
    (status = 200, description = "The battle", body = BattleJson),
    (status = 404, description = "No such battle of yours", body = ErrorBody)
))]
#[get("/battles/{id}")]
pub async fn get_one(
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let row = records::load_for(&state.app, &user.actor(), id.into_inner()).await?;
    Ok(HttpResponse::Ok().json(club_json(&state, &row, user.id, &req).await?))
}

/// A battle's set-up document
///
/// The `muster.lotf.battle/1` document with the rosters as they were and the rolled ratings;
/// `muster simulate --setup` replays a simulated battle from it exactly.
#[utoipa::path(tag = "battles", security(("bearer" = [])), params(("id" = i64, Path, description = "Battle id")), responses(
    (status = 200, description = "The set-up document (`muster.lotf.battle/1` or `muster.lod.battle/1`)", body = Object),
    (status = 404, description = "No such battle of yours", body = ErrorBody)
))]
#[get("/battles/{id}/setup")]
pub async fn setup(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let row = records::load_for(&state.app, &user.actor(), id.into_inner()).await?;
    if row.setup.is_empty() {
        return Err(AppError::Conflict(
            crate::web::pages::battles::NO_SET_UP_YET.into(),
        ));
    }
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

/// The version an action without other fields is based on.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct BasedOnJson {
    /// The battle's version the action is based on.
    version: i32,
}

/// Let the simulator fight a battle
///
/// Fights a battle that is set up against a guest; the result is final at once. A battle
/// between two players is refused (409): ask for the engine instead
/// (`POST /api/v1/battles/{id}/engine/ask`), and it fights once the other player accepts.
/// Players only.
#[utoipa::path(tag = "battles", security(("bearer" = [])), params(("id" = i64, Path, description = "Battle id")), request_body = VersionJson, responses(
    (status = 200, description = "The decided battle", body = BattleJson),
    (status = 409, description = "Already decided, or changed since that version", body = ErrorBody)
))]
#[post("/battles/{id}/simulate")]
pub async fn simulate(
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
    body: web::Json<VersionJson>,
) -> Result<HttpResponse, AppError> {
    let row = records::load_for(&state.app, &user.actor(), id.into_inner()).await?;
    let row = records::simulate(&state.app, &user.actor(), &row, body.version).await?;
    Ok(HttpResponse::Ok().json(battle_json(&row, Some(user.id), Some((&state, &req)))))
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
    (status = 200, description = "The recorded battle", body = BattleJson),
    (status = 422, description = "Impossible entries", body = ErrorBody),
    (status = 409, description = "Already decided, or changed since that version", body = ErrorBody)
))]
#[post("/battles/{id}/record")]
pub async fn record(
    req: HttpRequest,
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
        .await
        .map_err(unusable)?;
    match answer {
        RecordAnswer::Saved(row) => {
            Ok(HttpResponse::Ok().json(battle_json(&row, Some(user.id), Some((&state, &req)))))
        }
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
    (status = 200, description = "Confirmed", body = BattleJson),
    (status = 403, description = "Not the other player", body = ErrorBody),
    (status = 409, description = "Not provisional, or changed since that version", body = ErrorBody)
))]
#[post("/battles/{id}/confirm")]
pub async fn confirm(
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
    body: web::Json<VersionJson>,
) -> Result<HttpResponse, AppError> {
    let row = records::load_for(&state.app, &user.actor(), id.into_inner()).await?;
    let row = records::confirm(&state.app, &user.actor(), &row, body.version).await?;
    Ok(HttpResponse::Ok().json(battle_json(&row, Some(user.id), Some((&state, &req)))))
}

/// Dispute a recorded result
///
/// Either player disputes a provisional result with a comment.
#[utoipa::path(tag = "battles", security(("bearer" = [])), params(("id" = i64, Path, description = "Battle id")), request_body = VersionJson, responses(
    (status = 200, description = "Disputed", body = BattleJson),
    (status = 409, description = "Not provisional, or changed since that version", body = ErrorBody)
))]
#[post("/battles/{id}/dispute")]
pub async fn dispute(
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
    body: web::Json<VersionJson>,
) -> Result<HttpResponse, AppError> {
    let row = records::load_for(&state.app, &user.actor(), id.into_inner()).await?;
    let row =
        records::dispute(&state.app, &user.actor(), &row, body.version, &body.comment).await?;
    Ok(HttpResponse::Ok().json(battle_json(&row, Some(user.id), Some((&state, &req)))))
}

/// Correct a recorded result
///
/// Starts a correction of a confirmed or disputed tabletop result: a new battle with the same
/// set-up and rolls, ready to be recorded again at `POST /api/v1/battles/{new id}/record`. The
/// old result stands until the correction is confirmed. Players only; a campaign battle is
/// corrected by its organiser instead.
#[utoipa::path(tag = "battles", security(("bearer" = [])), params(("id" = i64, Path, description = "Battle id")), request_body = BasedOnJson, responses(
    (status = 201, description = "The correction, set up to be recorded", body = BattleJson),
    (status = 403, description = "Not a player of this battle", body = ErrorBody),
    (status = 409, description = "Not a recorded result that can be corrected, a correction is under way, or changed since that version", body = ErrorBody)
))]
#[post("/battles/{id}/correct")]
pub async fn correct(
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
    body: web::Json<BasedOnJson>,
) -> Result<HttpResponse, AppError> {
    let row = records::load_for(&state.app, &user.actor(), id.into_inner()).await?;
    let new = records::correct(&state.app, &user.actor(), &row, body.version).await?;
    Ok(HttpResponse::Created().json(battle_json(&new, Some(user.id), Some((&state, &req)))))
}

/// Accept an invitation to a battle
///
/// You were invited by e-mail to play one side: accept it and the battle can be fought or
/// recorded, with your name on your side. The invited player only.
#[utoipa::path(tag = "battles", security(("bearer" = [])), params(("id" = i64, Path, description = "Battle id")), request_body = BasedOnJson, responses(
    (status = 200, description = "Accepted", body = BattleJson),
    (status = 403, description = "Not the invited player", body = ErrorBody),
    (status = 404, description = "No such battle of yours", body = ErrorBody),
    (status = 409, description = "No invitation waiting for an answer, or changed since that version", body = ErrorBody)
))]
#[post("/battles/{id}/accept")]
pub async fn accept(
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
    body: web::Json<BasedOnJson>,
) -> Result<HttpResponse, AppError> {
    let row = records::load_for(&state.app, &user.actor(), id.into_inner()).await?;
    let row = records::accept(&state.app, &user.actor(), &row, body.version).await?;
    Ok(HttpResponse::Ok().json(battle_json(&row, Some(user.id), Some((&state, &req)))))
}

/// Decline an invitation to a battle
///
/// You were invited by e-mail to play one side and do not want to: the battle will not be
/// fought, and you no longer see it. The player who invited you sees that you declined. The
/// invited player only.
#[utoipa::path(tag = "battles", security(("bearer" = [])), params(("id" = i64, Path, description = "Battle id")), request_body = BasedOnJson, responses(
    (status = 200, description = "Declined", body = BattleJson),
    (status = 403, description = "Not the invited player", body = ErrorBody),
    (status = 404, description = "No such battle of yours", body = ErrorBody),
    (status = 409, description = "No invitation waiting for an answer, or changed since that version", body = ErrorBody)
))]
#[post("/battles/{id}/decline")]
pub async fn decline(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
    body: web::Json<BasedOnJson>,
) -> Result<HttpResponse, AppError> {
    let row = records::load_for(&state.app, &user.actor(), id.into_inner()).await?;
    let row = records::decline(&state.app, &user.actor(), &row, body.version).await?;
    Ok(HttpResponse::Ok().json(battle_json(&row, Some(user.id), None)))
}

/// Withdraw an invitation
///
/// Deletes a battle you set up by e-mail whose invitation is not accepted (still waiting, or
/// declined), or one against a guest that is not fought or recorded yet. Only the player who
/// set it up.
#[utoipa::path(tag = "battles", security(("bearer" = [])), params(("id" = i64, Path, description = "Battle id")), responses(
    (status = 204, description = "Withdrawn: the battle is deleted"),
    (status = 403, description = "Not the player who set it up", body = ErrorBody),
    (status = 404, description = "No such battle of yours", body = ErrorBody),
    (status = 409, description = "Fought, recorded, accepted, or a campaign's battle", body = ErrorBody)
))]
#[delete("/battles/{id}")]
pub async fn withdraw(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let row = records::load_for(&state.app, &user.actor(), id.into_inner()).await?;
    records::withdraw(&state.app, &user.actor(), &row).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Make a battle report public
///
/// Gives a confirmed battle a public link that anyone can open without logging in (the
/// answer's `public_url`; `GET /api/v1/battles/public/{token}` reads it as JSON). Publishing
/// again makes a new link; the old one stops working. Players only.
#[utoipa::path(tag = "battles", security(("bearer" = [])), params(("id" = i64, Path, description = "Battle id")), responses(
    (status = 200, description = "The battle, with its `public_url`", body = BattleJson),
    (status = 409, description = "Not confirmed yet", body = ErrorBody)
))]
#[post("/battles/{id}/publish")]
pub async fn publish(
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let row = records::load_for(&state.app, &user.actor(), id.into_inner()).await?;
    records::publish(&state.app, &user.actor(), &row).await?;
    let row = records::load_for(&state.app, &user.actor(), row.id).await?;
    Ok(HttpResponse::Ok().json(battle_json(&row, Some(user.id), Some((&state, &req)))))
}

// ---------- bring your own roster ----------

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AttachJson {
    /// The battle's version the action is based on.
    version: i32,
    /// One of your rosters of the battle's rule system: `r:<roster id>` or the id alone.
    roster: String,
}

/// Attach your roster to an open side
///
/// The battle was set up against you with your side open: attach one of your own rosters of
/// the battle's rule system. It is snapshotted now and the battle set up (commanders rolled
/// with a recorded seed, and the scenario and roles if they were to be rolled); attaching
/// accepts the invitation. Refused in words: another player's roster, a roster of another rule
/// system, one the set-up refuses. The invited player only.
#[utoipa::path(tag = "battles", security(("bearer" = [])), params(("id" = i64, Path, description = "Battle id")), request_body = AttachJson, responses(
    (status = 200, description = "The battle, set up", body = BattleJson),
    (status = 403, description = "Not the invited player", body = ErrorBody),
    (status = 404, description = "No such battle of yours", body = ErrorBody),
    (status = 409, description = "No side waiting for a roster, or changed since that version", body = ErrorBody),
    (status = 422, description = "A roster that cannot be attached", body = ErrorBody)
))]
#[post("/battles/{id}/attach")]
pub async fn attach(
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
    body: web::Json<AttachJson>,
) -> Result<HttpResponse, AppError> {
    let row = records::load_for(&state.app, &user.actor(), id.into_inner()).await?;
    let row =
        records::club_night::attach(&state.app, &user.actor(), &row, body.version, &body.roster)
            .await?;
    Ok(HttpResponse::Ok().json(club_json(&state, &row, user.id, &req).await?))
}

/// Withdraw your roster from an open side
///
/// Before the battle is fought, the player who attached a roster to the open side takes it
/// back: the side is open again and the set-up and its rolls are set aside. (The player who set
/// the battle up withdraws the whole battle with `DELETE /api/v1/battles/{id}`.)
#[utoipa::path(tag = "battles", security(("bearer" = [])), params(("id" = i64, Path, description = "Battle id")), request_body = BasedOnJson, responses(
    (status = 200, description = "The battle, its side open again", body = BattleJson),
    (status = 403, description = "Not the player who attached the roster", body = ErrorBody),
    (status = 404, description = "No such battle of yours", body = ErrorBody),
    (status = 409, description = "No roster attached, fought already, or changed since that version", body = ErrorBody)
))]
#[post("/battles/{id}/withdraw-roster")]
pub async fn withdraw_roster(
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
    body: web::Json<BasedOnJson>,
) -> Result<HttpResponse, AppError> {
    let row = records::load_for(&state.app, &user.actor(), id.into_inner()).await?;
    let row =
        records::club_night::withdraw_roster(&state.app, &user.actor(), &row, body.version).await?;
    Ok(HttpResponse::Ok().json(club_json(&state, &row, user.id, &req).await?))
}

// ---------- consent before the engine decides ----------

/// Ask for the engine to fight a battle
///
/// Between two players the engine fights only when both agree: this asks, and the other player
/// accepts or declines (if they asked first, asking too accepts). Against a guest the engine
/// fights at once. A campaign battle's request is an entry in the campaign's log. Players only.
#[utoipa::path(tag = "battles", security(("bearer" = [])), params(("id" = i64, Path, description = "Battle id")), request_body = BasedOnJson, responses(
    (status = 200, description = "The battle: its request waiting, or decided", body = BattleJson),
    (status = 403, description = "Not a player of this battle", body = ErrorBody),
    (status = 404, description = "No such battle of yours", body = ErrorBody),
    (status = 409, description = "Asked already, decided, not accepted or open, or changed since that version", body = ErrorBody)
))]
#[post("/battles/{id}/engine/ask")]
pub async fn engine_ask(
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
    body: web::Json<BasedOnJson>,
) -> Result<HttpResponse, AppError> {
    let row = records::load_for(&state.app, &user.actor(), id.into_inner()).await?;
    let row =
        records::club_night::ask_engine(&state.app, &user.actor(), &row, body.version).await?;
    Ok(HttpResponse::Ok().json(club_json(&state, &row, user.id, &req).await?))
}

/// Accept the request for the engine
///
/// The other player asked for the engine to fight the battle: accept, and it fights now (the
/// result is final at once; a campaign battle's aftermath is applied with it). Players only,
/// and not the one who asked.
#[utoipa::path(tag = "battles", security(("bearer" = [])), params(("id" = i64, Path, description = "Battle id")), request_body = BasedOnJson, responses(
    (status = 200, description = "The decided battle", body = BattleJson),
    (status = 403, description = "Not the other player", body = ErrorBody),
    (status = 404, description = "No such battle of yours", body = ErrorBody),
    (status = 409, description = "No request waiting, or changed since that version", body = ErrorBody)
))]
#[post("/battles/{id}/engine/accept")]
pub async fn engine_accept(
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
    body: web::Json<BasedOnJson>,
) -> Result<HttpResponse, AppError> {
    let row = records::load_for(&state.app, &user.actor(), id.into_inner()).await?;
    let row =
        records::club_night::accept_engine(&state.app, &user.actor(), &row, body.version).await?;
    Ok(HttpResponse::Ok().json(club_json(&state, &row, user.id, &req).await?))
}

/// Decline the request for the engine
///
/// The other player asked for the engine; decline, and the battle is to be fought or recorded
/// from the table. Players only, and not the one who asked.
#[utoipa::path(tag = "battles", security(("bearer" = [])), params(("id" = i64, Path, description = "Battle id")), request_body = BasedOnJson, responses(
    (status = 200, description = "The battle, without a request", body = BattleJson),
    (status = 403, description = "Not the other player", body = ErrorBody),
    (status = 404, description = "No such battle of yours", body = ErrorBody),
    (status = 409, description = "No request waiting, or changed since that version", body = ErrorBody)
))]
#[post("/battles/{id}/engine/decline")]
pub async fn engine_decline(
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
    body: web::Json<BasedOnJson>,
) -> Result<HttpResponse, AppError> {
    let row = records::load_for(&state.app, &user.actor(), id.into_inner()).await?;
    let row =
        records::club_night::decline_engine(&state.app, &user.actor(), &row, body.version).await?;
    Ok(HttpResponse::Ok().json(club_json(&state, &row, user.id, &req).await?))
}

/// Withdraw your request for the engine
///
/// The player who asked for the engine takes the request back. That player only.
#[utoipa::path(tag = "battles", security(("bearer" = [])), params(("id" = i64, Path, description = "Battle id")), request_body = BasedOnJson, responses(
    (status = 200, description = "The battle, without a request", body = BattleJson),
    (status = 403, description = "Not the player who asked", body = ErrorBody),
    (status = 404, description = "No such battle of yours", body = ErrorBody),
    (status = 409, description = "No request waiting, or changed since that version", body = ErrorBody)
))]
#[post("/battles/{id}/engine/withdraw")]
pub async fn engine_withdraw(
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
    body: web::Json<BasedOnJson>,
) -> Result<HttpResponse, AppError> {
    let row = records::load_for(&state.app, &user.actor(), id.into_inner()).await?;
    let row =
        records::club_night::withdraw_engine(&state.app, &user.actor(), &row, body.version).await?;
    Ok(HttpResponse::Ok().json(club_json(&state, &row, user.id, &req).await?))
}
