//! Battles as stored records: setting one up from two forces and two players, deciding it (the
//! simulator, or a result recorded from the table), and confirming or disputing the result.
//! Pages and the API both go through here; the rules core decides everything about the game.

use actix_web::web;
use serde::{Deserialize, Serialize};

use crate::rules::lotf::record::{self, TabletopOutcome, TabletopReport};
use crate::rules::lotf::{self, BattleOutcome, BattleSetup, RosterDoc, ScenarioId, Side};
use crate::store::battles::{self, BattleRow, NewBattle, ResultChange};
use crate::store::users;
use crate::web::auth::SignedInUser;
use crate::web::error::ErrorDetail;
use crate::web::rosters::LOTF;
use crate::web::state::{with_conn, AppState};
use crate::web::AppError;

/// Statuses a battle moves through.
pub mod status {
    pub const SET_UP: &str = "set_up";
    pub const PROVISIONAL: &str = "provisional";
    pub const CONFIRMED: &str = "confirmed";
    pub const DISPUTED: &str = "disputed";
    pub const VOIDED: &str = "voided";
}

/// The stored result: what decided the battle and the outcome.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum StoredResult {
    Simulated {
        outcome: Box<BattleOutcome>,
    },
    Tabletop {
        report: TabletopReport,
        outcome: Box<TabletopOutcome>,
    },
}

/// Who plays a side: a Muster user, or a named guest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Player {
    User(i64),
    Guest(String),
}

/// Reads a player field: empty is the user themselves, an email a registered player, anything
/// else a guest's name.
pub async fn read_player(
    state: &web::Data<AppState>,
    me: &SignedInUser,
    text: &str,
    field: &str,
) -> Result<Player, AppError> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(Player::User(me.id));
    }
    if text.contains('@') {
        let email = text.to_string();
        let found = with_conn(state, move |conn| Ok(users::find_by_email(conn, &email)?)).await?;
        return found
            .filter(|u| !u.disabled)
            .map(|u| Player::User(u.id))
            .ok_or_else(|| {
                invalid(
                    field,
                    "No Muster account has that email. Leave the @ out to enter a guest by name.",
                )
            });
    }
    if text.chars().count() > 60 {
        return Err(invalid(field, "Keep a guest's name to 60 characters."));
    }
    Ok(Player::Guest(text.to_string()))
}

pub fn invalid(field: &str, message: &str) -> AppError {
    AppError::Validation {
        message: "The battle cannot be set up like that.".into(),
        details: vec![ErrorDetail {
            field: Some(field.into()),
            message: message.into(),
        }],
    }
}

/// A force for a battle: one of the user's rosters (`r:<id>`) or a historical one (`h:<battle>:<side>:<force>`).
/// Returns the roster and, for the user's own rosters, its id.
pub async fn load_force(
    state: &web::Data<AppState>,
    user: &SignedInUser,
    value: &str,
) -> Result<(RosterDoc, Option<i64>), AppError> {
    if let Some(id) = value.strip_prefix("r:") {
        let id: i64 = id
            .parse()
            .map_err(|_| AppError::bad_request("Choose a force from the list."))?;
        let loaded = crate::web::rosters::load_owned(state, user, id).await?;
        return Ok((loaded.doc, Some(id)));
    }
    if let Some(h) = value.strip_prefix("h:") {
        return crate::web::lotf::historical::force(h)
            .map(|d| (d, None))
            .ok_or_else(|| AppError::bad_request("Choose a force from the list."));
    }
    Err(AppError::bad_request("Choose a force for each side."))
}

pub struct NewBattleRequest {
    pub first: (RosterDoc, Option<i64>),
    pub second: (RosterDoc, Option<i64>),
    pub first_player: Player,
    pub second_player: Player,
    pub scenario: Option<ScenarioId>,
    pub roll_roles: bool,
}

/// Sets a battle up: snapshots both rosters, rolls what is to be rolled with a recorded seed.
pub async fn create(
    state: &web::Data<AppState>,
    me: &SignedInUser,
    req: NewBattleRequest,
) -> Result<BattleRow, AppError> {
    if req.first_player != Player::User(me.id) && req.second_player != Player::User(me.id) {
        return Err(invalid(
            "players",
            "You must play one of the sides of a battle you set up.",
        ));
    }
    if req.first_player == req.second_player {
        return Err(invalid("players", "The two sides need different players."));
    }
    let seed = crate::app::dice::fresh_seed();
    let prepared = record::prepare_battle(
        &state.app.rules.lotf,
        req.first.0.clone(),
        req.second.0.clone(),
        req.scenario,
        req.roll_roles,
        seed,
    );
    prepared
        .setup
        .check()
        .map_err(|e| AppError::bad_request(e.to_string()))?;
    // The roll for the attack may have swapped the forces: players and roster ids go with them.
    let ((att_roster, att_player), (def_roster, def_player)) = if prepared.swapped {
        (
            (req.second.1, req.second_player),
            (req.first.1, req.first_player),
        )
    } else {
        (
            (req.first.1, req.first_player),
            (req.second.1, req.second_player),
        )
    };
    let (au, ag) = split_player(att_player);
    let (du, dg) = split_player(def_player);
    let single_party = ag.is_some() || dg.is_some();
    let now = chrono::Utc::now().naive_utc();
    let new = NewBattle {
        rule_system: LOTF.into(),
        created_by: me.id,
        attacker_user_id: au,
        attacker_guest: ag,
        defender_user_id: du,
        defender_guest: dg,
        attacker_roster_id: att_roster,
        defender_roster_id: def_roster,
        title: format!(
            "{} against {}",
            prepared.setup.attacker.roster.name, prepared.setup.defender.roster.name
        ),
        scenario: prepared.setup.scenario.id().into(),
        points: i32::try_from(prepared.setup.points_size(&state.app.rules.lotf)).unwrap_or(i32::MAX),
        setup: lotf::serialize_battle(&prepared.setup),
        rolls: serde_json::to_string(&prepared.rolls).unwrap_or_else(|_| "[]".into()),
        status: status::SET_UP.into(),
        replaces_id: None,
        single_party,
        version: 1,
        created_at: now,
        updated_at: now,
        campaign_id: None,
    };
    with_conn(state, move |conn| Ok(battles::create(conn, &new)?)).await
}

fn split_player(p: Player) -> (Option<i64>, Option<String>) {
    match p {
        Player::User(id) => (Some(id), None),
        Player::Guest(name) => (None, Some(name)),
    }
}

/// Which side a user plays in a battle.
pub fn side_of(row: &BattleRow, user: i64) -> Option<Side> {
    if row.attacker_user_id == Some(user) {
        Some(Side::Attacker)
    } else if row.defender_user_id == Some(user) {
        Some(Side::Defender)
    } else {
        None
    }
}

/// The battle if the user plays in it (or set it up); others get "not found".
pub async fn load_for(
    state: &web::Data<AppState>,
    user: &SignedInUser,
    id: i64,
) -> Result<BattleRow, AppError> {
    let row = with_conn(state, move |conn| Ok(battles::find(conn, id)?)).await?;
    row.filter(|r| r.involves(user.id))
        .ok_or(AppError::NotFound)
}

pub fn setup_of(row: &BattleRow) -> Result<BattleSetup, AppError> {
    lotf::parse_battle(&row.setup)
        .map_err(|e| AppError::internal(format!("stored battle {} does not parse: {e}", row.id)))
}

pub fn result_of(row: &BattleRow) -> Option<StoredResult> {
    row.result
        .as_deref()
        .and_then(|r| serde_json::from_str(r).ok())
}

fn require_player(row: &BattleRow, user: &SignedInUser) -> Result<Side, AppError> {
    side_of(row, user.id)
        .ok_or_else(|| AppError::Forbidden("Only the battle's two players may do that.".into()))
}

fn stale() -> AppError {
    AppError::Conflict("The battle changed since you opened it; reload it and try again.".into())
}

fn winner_id(winner: Option<Side>) -> String {
    match winner {
        Some(Side::Attacker) => "attacker".into(),
        Some(Side::Defender) => "defender".into(),
        None => "tie".into(),
    }
}

async fn store_result(
    state: &web::Data<AppState>,
    row: &BattleRow,
    based_on: i32,
    change: ResultChange,
) -> Result<BattleRow, AppError> {
    let id = row.id;
    let (changed, now) = with_conn(state, move |conn| {
        Ok(battles::record_result(conn, id, based_on, &change)?)
    })
    .await?;
    match (changed, now) {
        (true, Some(row)) => Ok(row),
        (_, None) => Err(AppError::NotFound),
        (false, Some(_)) => Err(stale()),
    }
}

/// Lets the simulator fight a battle that was set up; the server's result needs no confirming.
pub async fn simulate(
    state: &web::Data<AppState>,
    user: &SignedInUser,
    row: &BattleRow,
    based_on: i32,
) -> Result<BattleRow, AppError> {
    require_player(row, user)?;
    simulate_unchecked(state, user.id, row, based_on).await
}

/// The simulator fights a battle for whoever the caller has authorised: one of its players, or
/// a campaign's organiser when a player cannot play.
pub async fn simulate_unchecked(
    state: &web::Data<AppState>,
    by: i64,
    row: &BattleRow,
    based_on: i32,
) -> Result<BattleRow, AppError> {
    if row.status != status::SET_UP {
        return Err(AppError::Conflict(
            "This battle has already been decided.".into(),
        ));
    }
    if row.replaces_id.is_some() {
        return Err(AppError::Conflict(
            "A correction records the game that was played; it cannot be handed to the simulator."
                .into(),
        ));
    }
    // The battle's dice are drawn now, not at set-up, so nobody can try the seed beforehand.
    let mut setup = setup_of(row)?;
    setup.seed = crate::app::dice::fresh_seed();
    let stored_setup = lotf::serialize_battle(&setup);
    let rules = state.app.rules.clone();
    let outcome = web::block(move || lotf::simulate(&rules.lotf, &setup, true))
        .await?
        .map_err(|e| AppError::bad_request(e.to_string()))?;
    let change = ResultChange {
        setup: Some(stored_setup),
        status: status::CONFIRMED.into(),
        method: Some("simulated".into()),
        winner: Some(winner_id(outcome.winner)),
        victory_level: Some(outcome.victory_level.id().into()),
        attacker_vp: Some(i32::from(outcome.attacker_vp)),
        defender_vp: Some(i32::from(outcome.defender_vp)),
        result: serde_json::to_string(&StoredResult::Simulated {
            outcome: Box::new(outcome),
        })
        .ok(),
        recorded_by: Some(by),
        confirmed_by: None,
        single_party: row.single_party,
    };
    let saved = store_result(state, row, based_on, change).await?;
    campaign_follows(state, &saved).await?;
    Ok(saved)
}

/// A campaign battle's decided result moves its campaign on (aftermath, end of turn). The
/// battle itself is already saved: should the campaign fail to follow now, it catches up the
/// next time anyone opens it, so the player's answer is not spoiled by it.
async fn campaign_follows(state: &web::Data<AppState>, row: &BattleRow) -> Result<(), AppError> {
    if let (Some(campaign), status::CONFIRMED) = (row.campaign_id, row.status.as_str()) {
        if let Err(e) = crate::web::campaigns::battle_decided(state, campaign).await {
            tracing::error!(campaign, battle = row.id, error = %e, "campaign did not follow its battle");
        }
    }
    Ok(())
}

/// Records a result from the table. It stays provisional until the other player confirms it;
/// against a guest the recording player's word stands (single-party).
pub async fn record_result(
    state: &web::Data<AppState>,
    user: &SignedInUser,
    row: &BattleRow,
    based_on: i32,
    report: TabletopReport,
) -> Result<Result<BattleRow, Vec<record::RecordProblem>>, AppError> {
    require_player(row, user)?;
    if row.status != status::SET_UP {
        return Err(AppError::Conflict(
            "This battle already has a result; a correction starts a new version.".into(),
        ));
    }
    let setup = setup_of(row)?;
    let outcome: TabletopOutcome = match record::assess(&state.app.rules.lotf, &setup, &report) {
        Ok(o) => o,
        Err(problems) => return Ok(Err(problems)),
    };
    let against_guest = row.attacker_guest.is_some() || row.defender_guest.is_some();
    let change = ResultChange {
        setup: None,
        status: if against_guest {
            status::CONFIRMED.into()
        } else {
            status::PROVISIONAL.into()
        },
        method: Some("tabletop".into()),
        winner: Some(winner_id(outcome.victory.winner)),
        victory_level: Some(outcome.victory.level.id().into()),
        attacker_vp: Some(i32::from(outcome.victory.attacker_vp)),
        defender_vp: Some(i32::from(outcome.victory.defender_vp)),
        result: serde_json::to_string(&StoredResult::Tabletop {
            report,
            outcome: Box::new(outcome.clone()),
        })
        .ok(),
        recorded_by: Some(user.id),
        confirmed_by: if against_guest { Some(user.id) } else { None },
        single_party: against_guest,
    };
    let saved = store_result(state, row, based_on, change).await?;
    if saved.status == status::CONFIRMED {
        void_replaced(state, &saved).await?;
    }
    Ok(Ok(saved))
}

/// Once a correction is confirmed, the version it replaces is void (it stays visible).
async fn void_replaced(state: &web::Data<AppState>, row: &BattleRow) -> Result<(), AppError> {
    if let Some(old) = row.replaces_id {
        with_conn(state, move |conn| {
            battles::void(conn, old)?;
            Ok(())
        })
        .await?;
    }
    Ok(())
}

/// The other player confirms a provisional result; it is final from then on.
pub async fn confirm(
    state: &web::Data<AppState>,
    user: &SignedInUser,
    row: &BattleRow,
    based_on: i32,
) -> Result<BattleRow, AppError> {
    require_player(row, user)?;
    if row.status != status::PROVISIONAL {
        return Err(AppError::Conflict(
            "Only a provisional result can be confirmed.".into(),
        ));
    }
    if row.recorded_by == Some(user.id) {
        return Err(AppError::Forbidden(
            "The other player confirms the result you recorded.".into(),
        ));
    }
    let (id, uid) = (row.id, user.id);
    let (changed, now) = with_conn(state, move |conn| {
        Ok(battles::set_status(
            conn,
            id,
            based_on,
            status::CONFIRMED,
            Some(uid),
            None,
        )?)
    })
    .await?;
    match (changed, now) {
        (true, Some(r)) => {
            void_replaced(state, &r).await?;
            campaign_follows(state, &r).await?;
            Ok(r)
        }
        (_, None) => Err(AppError::NotFound),
        _ => Err(stale()),
    }
}

/// Either player disputes a provisional result, saying why.
pub async fn dispute(
    state: &web::Data<AppState>,
    user: &SignedInUser,
    row: &BattleRow,
    based_on: i32,
    comment: &str,
) -> Result<BattleRow, AppError> {
    require_player(row, user)?;
    if row.status != status::PROVISIONAL {
        return Err(AppError::Conflict(
            "Only a provisional result can be disputed.".into(),
        ));
    }
    let comment = comment.trim();
    if comment.is_empty() || comment.chars().count() > 1000 {
        return Err(invalid(
            "comment",
            "Say what is wrong with the result (up to 1000 characters).",
        ));
    }
    let (id, text) = (row.id, format!("{}: {comment}", user.display_name));
    let (changed, now) = with_conn(state, move |conn| {
        Ok(battles::set_status(
            conn,
            id,
            based_on,
            status::DISPUTED,
            None,
            Some(text),
        )?)
    })
    .await?;
    match (changed, now) {
        (true, Some(r)) => Ok(r),
        (_, None) => Err(AppError::NotFound),
        _ => Err(stale()),
    }
}

/// A correction: a new version of the battle with the same set-up and rolls, ready to be
/// recorded again. The old result stands until the correction is confirmed (by the other
/// player, or at once against a guest); then it is voided and stays visible.
pub async fn correct(
    state: &web::Data<AppState>,
    user: &SignedInUser,
    row: &BattleRow,
    based_on: i32,
) -> Result<BattleRow, AppError> {
    require_player(row, user)?;
    if row.campaign_id.is_some() {
        return Err(AppError::Conflict(
            "A campaign battle is corrected by the organiser, who can void it and have it \
             fought again."
                .into(),
        ));
    }
    if row.method.as_deref() != Some("tabletop")
        || !(row.status == status::CONFIRMED || row.status == status::DISPUTED)
    {
        return Err(AppError::Conflict(
            "Only a recorded result that is confirmed or disputed can be corrected.".into(),
        ));
    }
    let (old, uid) = (row.clone(), user.id);
    let now = chrono::Utc::now().naive_utc();
    with_conn(state, move |conn| {
        use diesel::Connection;
        conn.transaction::<_, AppError, _>(|conn| {
            if old.version != based_on {
                return Err(stale());
            }
            if let Some(open) = battles::open_replacement(conn, old.id)? {
                return Err(AppError::Conflict(format!(
                    "A correction of this battle is already under way (battle {}).",
                    open.id
                )));
            }
            let new = NewBattle {
                rule_system: old.rule_system.clone(),
                created_by: uid,
                attacker_user_id: old.attacker_user_id,
                attacker_guest: old.attacker_guest.clone(),
                defender_user_id: old.defender_user_id,
                defender_guest: old.defender_guest.clone(),
                attacker_roster_id: old.attacker_roster_id,
                defender_roster_id: old.defender_roster_id,
                title: old.title.clone(),
                scenario: old.scenario.clone(),
                points: old.points,
                setup: old.setup.clone(),
                rolls: old.rolls.clone(),
                status: status::SET_UP.into(),
                replaces_id: Some(old.id),
                single_party: old.single_party,
                version: 1,
                created_at: now,
                updated_at: now,
                campaign_id: old.campaign_id,
            };
            Ok(battles::create(conn, &new)?)
        })
    })
    .await
}
