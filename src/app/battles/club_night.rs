//! Club night (issue 19): a battle against a club-mate whose side is left open until they
//! attach one of their own rosters, and the engine fighting a battle between two players only
//! when both agree (the organiser of a campaign may decide alone, saying why). Every step on a
//! campaign battle is an entry in the campaign's log, in the same transaction as the step.

use super::{
    allowed, check_set_up_limits, require_accepted, require_player, stale, system_of_row,
    Invitation, InvitationState, Player,
};
use crate::app::battle_record::{RecordAction, RecordStatus};
use crate::app::campaigns::{self, Attempt};
use crate::app::notifications::{self, Kind, Notice};
use crate::app::{Actor, Context, Error};
use crate::rules::campaign::state::{EngineStep, Event};
use crate::rules::system::BattleSide as Side;
use crate::rules::systems::AnyRoster;
use crate::rules::{SystemId, Systems};
use crate::store::battles::{self, BattleListing, BattleRow, NewBattle, OpenSideRow, SidesChange};
use crate::store::DbConnection;

// ---------- the campaign's log ----------

/// What a step on a campaign battle says in the campaign's log.
#[derive(Debug, Clone)]
enum Word {
    Consent { player: String, step: EngineStep },
    Ordered { reason: String },
}

/// An entry for the log of the campaign a battle belongs to, appended in the transaction of the
/// step it tells of.
#[derive(Debug, Clone)]
pub struct CampaignWord {
    campaign: i64,
    record: i64,
    actor: i64,
    word: Word,
}

impl CampaignWord {
    /// A player's step on asking for the engine; none outside a campaign.
    fn consent(row: &BattleRow, actor: &Actor, step: EngineStep) -> Option<CampaignWord> {
        Some(CampaignWord {
            campaign: row.campaign_id?,
            record: row.id,
            actor: actor.id,
            word: Word::Consent {
                player: actor.name.clone(),
                step,
            },
        })
    }

    /// The organiser has the engine decide a campaign battle alone.
    pub(super) fn organiser(
        row: &BattleRow,
        actor: i64,
        reason: String,
    ) -> Result<CampaignWord, Error> {
        Ok(CampaignWord {
            campaign: row
                .campaign_id
                .ok_or_else(|| Error::internal(format!("battle {} has no campaign", row.id)))?,
            record: row.id,
            actor,
            word: Word::Ordered { reason },
        })
    }

    /// Appends the entry inside the caller's transaction.
    pub(super) fn append(&self, conn: &mut DbConnection, rules: &Systems) -> Result<(), Attempt> {
        let word = self.word.clone();
        campaigns::change::log_for_battle(
            conn,
            rules,
            self.campaign,
            self.record,
            self.actor,
            &move |battle| match &word {
                Word::Consent { player, step } => Event::EngineConsent {
                    battle,
                    player: player.clone(),
                    step: *step,
                },
                Word::Ordered { reason } => Event::EngineOrdered {
                    battle,
                    reason: reason.clone(),
                },
            },
        )
    }
}

/// The organiser's reason for deciding a battle alone: required, and kept short.
pub(super) fn organiser_reason(reason: &str) -> Result<String, Error> {
    let reason = reason.trim();
    if reason.is_empty() || reason.chars().count() > 500 {
        return Err(Error::invalid(
            "The organiser says why.",
            "reason",
            "Say why you have the engine decide this battle without its players (up to 500 \
             characters): it goes into the campaign's log.",
        ));
    }
    Ok(reason.to_string())
}

// ---------- consent before the engine decides ----------

/// Whether the engine needs both players' consent: a battle between two different players
/// (against a guest, or with one player on both sides, the player alone decides).
pub fn needs_consent(row: &BattleRow) -> bool {
    !row.single_party
        && matches!(
            (row.attacker_user_id, row.defender_user_id),
            (Some(a), Some(d)) if a != d
        )
}

/// Who asked for the engine to fight this battle, if anyone has.
pub async fn engine_requested_by(ctx: &Context, battle: i64) -> Result<Option<i64>, Error> {
    ctx.with_conn(move |conn| Ok(battles::engine_request(conn, battle)?))
        .await
}

/// Refuses to ask for the engine where it cannot fight.
fn require_engine_possible(row: &BattleRow) -> Result<(), Error> {
    allowed(row, RecordAction::Simulate)?;
    require_accepted(row)?;
    if row.replaces_id.is_some() {
        return Err(Error::Conflict(
            "A correction records the game that was played; it cannot be handed to the simulator."
                .into(),
        ));
    }
    Ok(())
}

/// A player asks for the engine to fight the battle. Against a guest it fights at once; between
/// two players it waits for the other player's answer (and if the other player asked first,
/// asking too is accepting).
pub async fn ask_engine(
    ctx: &Context,
    actor: &Actor,
    row: &BattleRow,
    based_on: i32,
) -> Result<BattleRow, Error> {
    require_player(row, actor)?;
    if !needs_consent(row) {
        return super::simulate_unchecked(ctx, actor.id, row, based_on, None).await;
    }
    require_engine_possible(row)?;
    match engine_requested_by(ctx, row.id).await? {
        Some(by) if by == actor.id => {
            return Err(Error::Conflict(
                "You have asked for the engine already: it fights the battle once the other \
                 player accepts."
                    .into(),
            ))
        }
        Some(_) => return accept_engine(ctx, actor, row, based_on).await,
        None => {}
    }
    let word = CampaignWord::consent(row, actor, EngineStep::Asked);
    let (id, uid) = (row.id, actor.id);
    let notice = other_player(row, uid).map(|other| {
        (
            other,
            Kind::EngineRequested,
            format!(
                "{} asks for Muster to fight {}: accept or decline",
                actor.name, row.title
            ),
        )
    });
    engine_step(ctx, word, notice, move |conn| {
        Ok(battles::ask_engine(conn, id, based_on, uid)?)
    })
    .await
}

/// The other player accepts the request: the engine fights the battle now, in the same
/// transaction path as every decision (`decide_in_one_transaction`).
pub async fn accept_engine(
    ctx: &Context,
    actor: &Actor,
    row: &BattleRow,
    based_on: i32,
) -> Result<BattleRow, Error> {
    require_player(row, actor)?;
    let by = requested(ctx, row).await?;
    if by == actor.id {
        return Err(Error::Forbidden(
            "You asked for the engine: the other player accepts or declines.".into(),
        ));
    }
    require_engine_possible(row)?;
    let word = CampaignWord::consent(row, actor, EngineStep::Accepted);
    super::simulate_unchecked(ctx, actor.id, row, based_on, word).await
}

/// The other player declines the request: the battle is to be fought or recorded from the table.
pub async fn decline_engine(
    ctx: &Context,
    actor: &Actor,
    row: &BattleRow,
    based_on: i32,
) -> Result<BattleRow, Error> {
    require_player(row, actor)?;
    let by = requested(ctx, row).await?;
    if by == actor.id {
        return Err(Error::Forbidden(
            "You asked for the engine: withdraw your request instead.".into(),
        ));
    }
    let word = CampaignWord::consent(row, actor, EngineStep::Declined);
    let id = row.id;
    let notice = Some((
        by,
        Kind::EngineRequested,
        format!(
            "{} declined to let Muster fight {}: fight it or record it from the table",
            actor.name, row.title
        ),
    ));
    engine_step(ctx, word, notice, move |conn| {
        Ok(battles::end_engine_request(conn, id, based_on, by)?)
    })
    .await
}

/// The player who asked for the engine withdraws the request.
pub async fn withdraw_engine(
    ctx: &Context,
    actor: &Actor,
    row: &BattleRow,
    based_on: i32,
) -> Result<BattleRow, Error> {
    require_player(row, actor)?;
    let by = requested(ctx, row).await?;
    if by != actor.id {
        return Err(Error::Forbidden(
            "Only the player who asked for the engine can withdraw the request; you may \
             accept or decline it."
                .into(),
        ));
    }
    let word = CampaignWord::consent(row, actor, EngineStep::Withdrawn);
    let (id, uid) = (row.id, actor.id);
    engine_step(ctx, word, None, move |conn| {
        Ok(battles::end_engine_request(conn, id, based_on, uid)?)
    })
    .await
}

/// Who asked for the engine, or a refusal when nobody has.
async fn requested(ctx: &Context, row: &BattleRow) -> Result<i64, Error> {
    if row.status != RecordStatus::SetUp.id() {
        return Err(Error::Conflict(
            "This battle has been decided: there is no request for the engine to answer.".into(),
        ));
    }
    engine_requested_by(ctx, row.id).await?.ok_or_else(|| {
        Error::Conflict("Nobody has asked for the engine to fight this battle.".into())
    })
}

/// A step on a request for the engine that decides nothing: the change to the battle, for a
/// campaign battle its log entry, and the notice to the other player, in one transaction.
async fn engine_step<F>(
    ctx: &Context,
    word: Option<CampaignWord>,
    notice: Option<(i64, Kind, String)>,
    change: F,
) -> Result<BattleRow, Error>
where
    F: Fn(&mut DbConnection) -> Result<(bool, Option<BattleRow>), Error> + Send + 'static,
{
    let rules = ctx.rules.clone();
    ctx.with_conn(move |conn| {
        campaigns::retrying(conn, |conn| {
            crate::store::write_transaction(conn, |conn| {
                if let Some(word) = &word {
                    word.append(conn, &rules)?;
                }
                match change(conn)? {
                    (true, Some(row)) => {
                        if let Some((user, kind, title)) = &notice {
                            tell(conn, *user, *kind, title.clone(), &row)?;
                        }
                        Ok(row)
                    }
                    (_, None) => Err(Error::NotFound.into()),
                    (false, Some(_)) => Err(stale().into()),
                }
            })
        })
    })
    .await
}

// ---------- bring your own roster ----------

/// The open side of a battle, if it was set up with one (waiting for a roster or not).
pub async fn open_side(ctx: &Context, battle: i64) -> Result<Option<OpenSideRow>, Error> {
    ctx.with_conn(move |conn| Ok(battles::open_side(conn, battle)?))
        .await
}

/// Whether the battle has a side waiting for its player's roster.
pub async fn side_waits(ctx: &Context, battle: i64) -> Result<bool, Error> {
    Ok(open_side(ctx, battle).await?.is_some_and(|o| o.waiting))
}

/// A battle to set up with the other player's side left open.
pub struct OpenBattleRequest {
    pub system: SystemId,
    /// The set-up player's force (and its roster id when it is one of theirs).
    pub mine: (AnyRoster, Option<i64>),
    /// The set-up player's force is the first one (it attacks unless the roles are rolled).
    pub mine_first: bool,
    /// The player of each force as the form named them.
    pub my_player: Player,
    pub their_player: Player,
    pub scenario: Option<String>,
    pub roll_roles: bool,
}

/// Sets a battle up against a club-mate (invited by e-mail) who brings their own roster: the
/// set-up player's force is snapshotted now; the set-up itself (commanders rolled, the scenario
/// and roles if asked) is made when the other roster is attached.
pub async fn create_open(
    ctx: &Context,
    me: &Actor,
    req: OpenBattleRequest,
) -> Result<BattleRow, Error> {
    let (my_field, their_field) = if req.mine_first {
        ("first_player", "second_player")
    } else {
        ("second_player", "first_player")
    };
    if req.my_player != Player::User(me.id) {
        return Err(super::invalid(
            my_field,
            "You play the force you chose; the open side is for the other player. Leave your \
             side's player empty.",
        ));
    }
    let Player::Invited {
        user, email_hash, ..
    } = &req.their_player
    else {
        return Err(super::invalid(
            their_field,
            "Leave a side open only for a club-mate who brings their own roster: enter their \
             Muster e-mail address as that side's player.",
        ));
    };
    if req.mine.0.system() != req.system {
        return Err(super::invalid(
            "second",
            "Your force must play by the battle's rule system.",
        ));
    }
    check_set_up_limits(ctx, me, true).await?;
    // The set-up is made when the other roster comes; checked now against a copy of this force
    // so that a scenario or force the system refuses is refused while the form is still open.
    ctx.rules
        .prepare_battle(
            req.mine.0.clone(),
            req.mine.0.clone(),
            req.scenario.as_deref(),
            req.roll_roles,
            crate::app::dice::fresh_seed(),
        )
        .map_err(Error::bad_request)?;
    let open = if req.mine_first {
        Side::Defender
    } else {
        Side::Attacker
    };
    let invitation = Invitation::stored(open, user.is_none().then_some(email_hash.as_str()));
    let (me_side, them) = (
        (Some(me.id), None::<String>, req.mine.1),
        super::split_player(req.their_player.clone()),
    );
    let ((au, ag, ar), (du, dg, dr)) = if req.mine_first {
        (me_side, (them.0, them.1, None))
    } else {
        ((them.0, them.1, None), me_side)
    };
    let now = chrono::Utc::now().naive_utc();
    let new = NewBattle {
        rule_system: req.system.id().into(),
        created_by: me.id,
        attacker_user_id: au,
        attacker_guest: ag,
        defender_user_id: du,
        defender_guest: dg,
        attacker_roster_id: ar,
        defender_roster_id: dr,
        title: open_title(&req.mine.0),
        scenario: req.scenario.clone().unwrap_or_default(),
        points: 0,
        setup: String::new(),
        rolls: "[]".into(),
        status: RecordStatus::SetUp.id().into(),
        replaces_id: None,
        single_party: false,
        version: 1,
        created_at: now,
        updated_at: now,
        campaign_id: None,
        invitation: Some(invitation),
    };
    let open_row = move |battle_id| OpenSideRow {
        battle_id,
        force_document: req.mine.0.to_json(),
        force_roster_id: req.mine.1,
        force_first: req.mine_first,
        scenario: req.scenario,
        roll_roles: req.roll_roles,
        waiting: true,
        created_at: now,
    };
    let (invited, inviter) = (*user, me.name.clone());
    ctx.with_conn(move |conn| {
        crate::store::write_transaction(conn, |conn| {
            let row = battles::create_with_open_side(conn, &new, open_row)?;
            // An address without an account yet finds the battle when it registers.
            if let Some(user) = invited {
                tell(
                    conn,
                    user,
                    Kind::RosterToAttach,
                    format!("{inviter} asks you to bring your own roster to a battle"),
                    &row,
                )?;
            }
            Ok(row)
        })
    })
    .await
}

/// One notice about battle `row` to `user`, inside the caller's transaction.
fn tell(
    conn: &mut DbConnection,
    user: i64,
    kind: Kind,
    title: String,
    row: &BattleRow,
) -> Result<(), Error> {
    notifications::notify(
        conn,
        &[Notice {
            user_id: user,
            kind,
            title,
            link: format!("/battles/{}", row.id),
            campaign_id: row.campaign_id,
            battle_id: Some(row.id),
        }],
    )
}

/// The battle's other player, seen from `user`.
fn other_player(row: &BattleRow, user: i64) -> Option<i64> {
    if row.attacker_user_id == Some(user) {
        row.defender_user_id
    } else {
        row.attacker_user_id
    }
}

fn open_title(mine: &AnyRoster) -> String {
    format!("{} against an open side", mine.name())
}

fn attach_refused(message: &str) -> Error {
    Error::invalid("The roster cannot be attached.", "roster", message)
}

/// The invited player attaches one of their own rosters of the battle's rule system to the open
/// side: it is snapshotted now and the battle set up (commanders rolled with a recorded seed,
/// and the scenario and roles if they were to be rolled). Attaching accepts the invitation.
pub async fn attach(
    ctx: &Context,
    actor: &Actor,
    row: &BattleRow,
    based_on: i32,
    roster: &str,
) -> Result<BattleRow, Error> {
    let open = open_side(ctx, row.id).await?.ok_or_else(|| {
        Error::Conflict("This battle has no open side: both of its forces are in it.".into())
    })?;
    if !open.waiting {
        return Err(Error::Conflict(
            "A roster is attached to this battle's open side already.".into(),
        ));
    }
    let invitation = Invitation::of(row).filter(|i| i.state == InvitationState::Pending);
    if invitation.and_then(|i| i.invitee(row)) != Some(actor.id) {
        return Err(Error::Forbidden(
            "Only the player invited to the open side attaches a roster to it.".into(),
        ));
    }
    let text = roster.trim();
    let roster_id: i64 = text
        .strip_prefix("r:")
        .unwrap_or(text)
        .parse()
        .map_err(|_| attach_refused("Choose one of your rosters."))?;
    let found = crate::app::rosters::load_owned_row(ctx, actor, roster_id)
        .await
        .map_err(|e| match e {
            Error::NotFound => {
                attach_refused("That roster is not one of yours: attach one of your own rosters.")
            }
            other => other,
        })?;
    let system = system_of_row(row)?;
    if found.rule_system != system.id() {
        let theirs = SystemId::from_id(&found.rule_system)
            .map_or(found.rule_system.clone(), |s| s.label().to_string());
        return Err(attach_refused(&format!(
            "'{}' is a {theirs} roster, but this battle is played by {}: attach one of your {} \
             rosters.",
            found.name,
            system.label(),
            system.label()
        )));
    }
    let theirs = crate::app::rosters::parse_stored(&ctx.rules, &found)?;
    let mine = ctx
        .rules
        .parse_roster(system, &open.force_document)
        .map_err(|e| Error::internal(format!("battle {}: its open side's force: {e}", row.id)))?;
    let (mine, theirs) = (
        (mine, open.force_roster_id, row.created_by),
        (theirs, Some(roster_id), actor.id),
    );
    let (first, second) = if open.force_first {
        (mine, theirs)
    } else {
        (theirs, mine)
    };
    let prepared = ctx
        .rules
        .prepare_battle(
            first.0,
            second.0,
            open.scenario.as_deref(),
            open.roll_roles,
            crate::app::dice::fresh_seed(),
        )
        .map_err(|e| attach_refused(&e))?;
    let ((ar, au), (dr, du)) = if prepared.swapped {
        ((second.1, second.2), (first.1, first.2))
    } else {
        ((first.1, first.2), (second.1, second.2))
    };
    let their_side = if du == actor.id {
        Side::Defender
    } else {
        Side::Attacker
    };
    let change = SidesChange {
        attacker_user_id: Some(au),
        attacker_guest: None,
        defender_user_id: Some(du),
        defender_guest: None,
        attacker_roster_id: ar,
        defender_roster_id: dr,
        title: format!(
            "{} against {}",
            prepared.facts.attacker, prepared.facts.defender
        ),
        scenario: prepared.facts.scenario.clone(),
        points: i32::try_from(prepared.facts.points).unwrap_or(i32::MAX),
        setup: prepared.setup,
        rolls: serde_json::to_string(&prepared.rolls).unwrap_or_else(|_| "[]".into()),
        invitation: Some(format!("accepted:{}", their_side.id())),
    };
    let id = row.id;
    let answer = ctx
        .with_conn(move |conn| Ok(battles::set_open_side(conn, id, based_on, false, &change)?))
        .await?;
    match answer {
        (true, Some(r)) => Ok(r),
        (_, None) => Err(Error::NotFound),
        _ => Err(stale()),
    }
}

/// The player who attached a roster withdraws it before the battle is fought: the side is open
/// again (the set-up and its rolls are set aside; attaching again rolls afresh).
pub async fn withdraw_roster(
    ctx: &Context,
    actor: &Actor,
    row: &BattleRow,
    based_on: i32,
) -> Result<BattleRow, Error> {
    let open = open_side(ctx, row.id).await?.ok_or_else(|| {
        Error::Conflict("This battle has no open side: both forces were chosen at set-up.".into())
    })?;
    if open.waiting {
        return Err(Error::Conflict(
            "No roster is attached to the open side yet.".into(),
        ));
    }
    let attached_by = Invitation::of(row)
        .filter(|i| i.state == InvitationState::Accepted)
        .and_then(|i| match i.side {
            Side::Attacker => row.attacker_user_id,
            Side::Defender => row.defender_user_id,
        });
    if attached_by != Some(actor.id) {
        return Err(Error::Forbidden(
            "Only the player who attached the roster can withdraw it; the player who set the \
             battle up may withdraw the whole battle."
                .into(),
        ));
    }
    if row.status != RecordStatus::SetUp.id() {
        return Err(Error::Conflict(
            "The battle has been fought or recorded, so its rosters stay as they were.".into(),
        ));
    }
    let system = system_of_row(row)?;
    let mine = ctx
        .rules
        .parse_roster(system, &open.force_document)
        .map_err(|e| Error::internal(format!("battle {}: its open side's force: {e}", row.id)))?;
    let me_side = (Some(row.created_by), open.force_roster_id);
    let them = (Some(actor.id), None);
    let ((au, ar), (du, dr)) = if open.force_first {
        (me_side, them)
    } else {
        (them, me_side)
    };
    let open_at = if open.force_first {
        Side::Defender
    } else {
        Side::Attacker
    };
    let change = SidesChange {
        attacker_user_id: au,
        attacker_guest: None,
        defender_user_id: du,
        defender_guest: None,
        attacker_roster_id: ar,
        defender_roster_id: dr,
        title: open_title(&mine),
        scenario: open.scenario.clone().unwrap_or_default(),
        points: 0,
        setup: String::new(),
        rolls: "[]".into(),
        invitation: Some(format!("pending:{}", open_at.id())),
    };
    let id = row.id;
    let answer = ctx
        .with_conn(move |conn| {
            crate::store::write_transaction(conn, |conn| {
                let answer = battles::set_open_side(conn, id, based_on, true, &change)?;
                if answer.0 {
                    battles::clear_engine_request(conn, id)?;
                }
                Ok::<_, Error>(answer)
            })
        })
        .await?;
    match answer {
        (true, Some(r)) => Ok(r),
        (_, None) => Err(Error::NotFound),
        _ => Err(stale()),
    }
}

/// The player who set a battle up with an open side withdraws it before it is fought: it is
/// deleted.
pub(super) async fn withdraw_battle(ctx: &Context, row: &BattleRow) -> Result<(), Error> {
    let id = row.id;
    let deleted = ctx
        .with_conn(move |conn| Ok(battles::delete_open_side_battle(conn, id)?))
        .await?;
    if deleted {
        Ok(())
    } else {
        Err(Error::Conflict(
            "The battle has been fought or recorded, so it can no longer be withdrawn.".into(),
        ))
    }
}

// ---------- what waits for a player ----------

/// What waits for a player from club night: of their invitations, those whose side waits for
/// their roster; and battles whose other player asked for the engine.
pub struct Waiting {
    pub open_sides: Vec<i64>,
    pub engine_requests: Vec<BattleListing>,
}

pub async fn waiting(
    ctx: &Context,
    actor: &Actor,
    invitations: &[BattleListing],
) -> Result<Waiting, Error> {
    let (uid, ids): (i64, Vec<i64>) = (actor.id, invitations.iter().map(|i| i.id).collect());
    ctx.with_conn(move |conn| {
        Ok(Waiting {
            open_sides: battles::waiting_open_sides(conn, &ids)?,
            engine_requests: battles::engine_requests_for(conn, uid)?,
        })
    })
    .await
}
