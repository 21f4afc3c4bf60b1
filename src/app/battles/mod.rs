//! Battles as stored records: setting one up from two forces and two players, deciding it (the
//! simulator, or a result recorded from the table), and confirming, disputing or correcting the
//! result. Pages and the API both go through here; the rules core decides everything about the
//! game. Each action is one transaction: when it decides a campaign battle, the campaign's
//! aftermath is applied in the same transaction.

use diesel::Connection;

pub mod club_night;

use crate::app::battle_record::{side_of, winner_column, RecordAction, RecordStatus, WinDrawLoss};
use crate::app::campaigns::{self, Loaded};
use crate::app::{Actor, Context, Error};
use crate::rules::campaign::state::BattleStatus;
use crate::rules::system::{BattleSide as Side, DecidedBattle, Method, RecordProblem};
use crate::rules::systems::AnyRoster;
use crate::rules::{SystemId, Systems};
use crate::store::battles::{
    self, BattleListing, BattleRow, InvitationColumn, ListingQuery, NewBattle, PlayersAndWinner,
    ResultChange,
};
use crate::store::{users, DbConnection};

/// Who plays a side: a Muster user, a named guest, or whoever an e-mail invitation goes to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Player {
    User(i64),
    Guest(String),
    /// Set up by e-mail: the account with that address if there is one (it plays the side once
    /// it accepts), shown meanwhile only as `label` ("invited: a…@example.org"); without an
    /// account, the address's hash, so that whoever registers with it later finds the
    /// invitation.
    Invited {
        user: Option<i64>,
        label: String,
        email_hash: String,
    },
}

/// Reads a player field: empty is the actor themselves, an email an invitation, anything else a
/// guest's name.
///
/// An email is always an invitation, whether or not it has an (active) account: the side is
/// shown as "invited: a…@example.org" and waits for its player to accept. So the answer to
/// setting a battle up, and the battle itself, look the same to the inviter for every address,
/// and no one can probe addresses through it.
pub async fn read_player(
    ctx: &Context,
    me: &Actor,
    text: &str,
    field: &str,
) -> Result<Player, Error> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(Player::User(me.id));
    }
    if text.contains('@') {
        let Some(label) = invitation_label(text) else {
            return Err(invalid(
                field,
                "Enter an email address like name@example.org, or leave the @ out to enter a \
                 guest by name.",
            ));
        };
        let email = text.to_string();
        let email_hash = invitation_hash(text);
        let found = ctx
            .with_conn(move |conn| Ok(users::find_by_email(conn, &email)?))
            .await?;
        return Ok(match found.filter(|u| !u.disabled) {
            // Your own address is you; nothing to accept.
            Some(user) if user.id == me.id => Player::User(me.id),
            found => Player::Invited {
                user: found.map(|u| u.id),
                label,
                email_hash,
            },
        });
    }
    if text.chars().count() > 60 {
        return Err(invalid(field, "Keep a guest's name to 60 characters."));
    }
    Ok(Player::Guest(text.to_string()))
}

/// "invited: a…@example.org" for a plausible address (one `@`, something either side, no
/// spaces); the rest of the name before `@` is hidden from everyone who sees the battle.
fn invitation_label(email: &str) -> Option<String> {
    let (local, domain) = email.split_once('@')?;
    let plausible = !local.is_empty()
        && domain.contains('.')
        && !domain.contains('@')
        && email.len() <= 254
        && !email.chars().any(char::is_whitespace);
    if !plausible {
        return None;
    }
    let first: String = local.chars().take(1).collect();
    let domain: String = domain.to_lowercase().chars().take(40).collect();
    Some(format!("invited: {first}…@{domain}"))
}

/// The address an invitation went to, as stored while it has no account: a hash of the
/// normalised address, so the database does not keep addresses of people who never signed up,
/// and a later registration with the same address can still find its invitations.
pub fn invitation_hash(email: &str) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(format!(
        "muster invitation\0{}",
        users::normalize_email(email)
    ));
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// Where an invitation on one side of a battle stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InvitationState {
    /// Waiting for the invited player's answer.
    Pending,
    Accepted,
    Declined,
}

/// The invitation on one side of a battle set up by e-mail, read from its `invitation` column
/// (`<state>:<side>`, or `pending:<side>:<hash>` while the address has no account).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Invitation {
    pub state: InvitationState,
    pub side: Side,
}

impl Invitation {
    pub fn of(row: &impl InvitationColumn) -> Option<Invitation> {
        let text = row.invitation()?;
        let mut parts = text.split(':');
        let state = match parts.next()? {
            "pending" => InvitationState::Pending,
            "accepted" => InvitationState::Accepted,
            "declined" => InvitationState::Declined,
            _ => return None,
        };
        let side = match parts.next()? {
            "attacker" => Side::Attacker,
            "defender" => Side::Defender,
            _ => return None,
        };
        Some(Invitation { state, side })
    }

    /// The stored text for a new invitation of `side`.
    fn stored(side: Side, email_hash: Option<&str>) -> String {
        match email_hash {
            Some(hash) => format!("pending:{}:{hash}", side.id()),
            None => format!("pending:{}", side.id()),
        }
    }

    /// The account invited, while the invitation waits for its answer (none while the address
    /// has no account).
    pub fn invitee(&self, row: &impl PlayersAndWinner) -> Option<i64> {
        if self.state != InvitationState::Pending {
            return None;
        }
        match self.side {
            Side::Attacker => row.attacker_user_id(),
            Side::Defender => row.defender_user_id(),
        }
    }

    /// Whether the battle may be fought or recorded.
    pub fn settled(&self) -> bool {
        self.state == InvitationState::Accepted
    }
}

/// Refuses to fight or record a battle whose invitation is not accepted.
fn require_accepted(row: &BattleRow) -> Result<(), Error> {
    match Invitation::of(row).map(|i| i.state) {
        Some(InvitationState::Pending) => Err(Error::Conflict(
            "The other player has not accepted the invitation yet: the battle can be fought \
             or recorded once they do."
                .into(),
        )),
        Some(InvitationState::Declined) => Err(Error::Conflict(
            "The other player declined the invitation, so this battle will not be fought. \
             Withdraw it, or set up another one."
                .into(),
        )),
        _ => Ok(()),
    }
}

/// The invited player accepts: they play the side under their own name from now on.
pub async fn accept(
    ctx: &Context,
    actor: &Actor,
    row: &BattleRow,
    based_on: i32,
) -> Result<BattleRow, Error> {
    let invitation = invitation_for(row, actor)?;
    if club_night::side_waits(ctx, row.id).await? {
        return Err(Error::Conflict(
            "Your side of this battle is open: attach one of your own rosters to it, and that \
             accepts the invitation."
                .into(),
        ));
    }
    let (id, attacker) = (row.id, invitation.side == Side::Attacker);
    let answer = ctx
        .with_conn(move |conn| Ok(battles::accept_invitation(conn, id, based_on, attacker)?))
        .await?;
    match answer {
        (true, Some(r)) => Ok(r),
        (_, None) => Err(Error::NotFound),
        _ => Err(stale()),
    }
}

/// The invited player declines: the side is left with the masked address and no player, and
/// the battle cannot be fought; the inviter may withdraw it.
pub async fn decline(
    ctx: &Context,
    actor: &Actor,
    row: &BattleRow,
    based_on: i32,
) -> Result<BattleRow, Error> {
    let invitation = invitation_for(row, actor)?;
    let (id, attacker) = (row.id, invitation.side == Side::Attacker);
    let answer = ctx
        .with_conn(move |conn| Ok(battles::decline_invitation(conn, id, based_on, attacker)?))
        .await?;
    match answer {
        (true, Some(r)) => Ok(r),
        (_, None) => Err(Error::NotFound),
        _ => Err(stale()),
    }
}

/// The invitation waiting for the actor's answer on this battle.
fn invitation_for(row: &BattleRow, actor: &Actor) -> Result<Invitation, Error> {
    let invitation = Invitation::of(row)
        .filter(|i| i.state == InvitationState::Pending)
        .ok_or_else(|| {
            Error::Conflict("This battle has no invitation waiting for an answer.".into())
        })?;
    if invitation.invitee(row) != Some(actor.id) {
        return Err(Error::Forbidden(
            "Only the invited player can answer this invitation.".into(),
        ));
    }
    Ok(invitation)
}

/// Whoever set the battle up withdraws an invitation that is not accepted (waiting, or
/// declined): the battle is deleted.
pub async fn withdraw(ctx: &Context, actor: &Actor, row: &BattleRow) -> Result<(), Error> {
    if row.created_by != actor.id {
        return Err(Error::Forbidden(
            "Only the player who set the battle up can withdraw it.".into(),
        ));
    }
    if club_night::open_side(ctx, row.id).await?.is_some() {
        // Set up with an open side: its player may withdraw it until it is fought, whether or
        // not a roster was attached.
        return club_night::withdraw_battle(ctx, row).await;
    }
    match Invitation::of(row).map(|i| i.state) {
        Some(InvitationState::Pending | InvitationState::Declined) => {}
        // A battle against a guest involves nobody else: its player may delete it until it is
        // fought or recorded (a battle set up twice by mistake).
        None if guest_battle_not_fought(row) => {}
        _ => {
            return Err(Error::Conflict(
                "Only a battle not yet fought, against a guest or with an invitation that is \
                 not accepted, can be withdrawn."
                    .into(),
            ))
        }
    }
    let id = row.id;
    let deleted = ctx
        .with_conn(move |conn| Ok(battles::delete_withdrawable(conn, id)?))
        .await?;
    if deleted {
        Ok(())
    } else {
        Err(Error::Conflict(
            "The invitation was accepted meanwhile; reload the battle.".into(),
        ))
    }
}

/// A battle against a guest (no other account), outside any campaign, still waiting to be
/// fought or recorded.
pub fn guest_battle_not_fought(row: &BattleRow) -> bool {
    row.single_party
        && row.campaign_id.is_none()
        && row.invitation.is_none()
        && row.status == RecordStatus::SetUp.id()
}

/// At most this many battles set up per hour by one player (outside campaigns).
pub const BATTLES_PER_HOUR: usize = 60;
/// At most this many battles against other registered players not fought yet.
pub const OPEN_BATTLES_WITH_OTHERS: i64 = 20;

/// The throttle and the cap on setting battles up, checked before anything is rolled.
async fn check_set_up_limits(
    ctx: &Context,
    me: &Actor,
    with_another_player: bool,
) -> Result<(), Error> {
    let user = me.id;
    let now = chrono::Utc::now().naive_utc();
    let hour = chrono::Duration::hours(1);
    let (times, open) = ctx
        .with_conn(move |conn| {
            let times = battles::created_times_since(conn, user, now - hour)?;
            let open = if with_another_player {
                battles::open_against_others(conn, user, RecordStatus::SetUp.id())?
            } else {
                0
            };
            Ok((times, open))
        })
        .await?;
    if times.len() >= BATTLES_PER_HOUR {
        let oldest = times.first().copied().unwrap_or(now);
        let wait = (oldest + hour - now).num_seconds().max(1);
        let retry_after_secs = u64::try_from(wait).unwrap_or(60);
        return Err(Error::Busy {
            message: format!(
                "You have set up {BATTLES_PER_HOUR} battles in the last hour; you can set up the \
                 next in {} minutes.",
                retry_after_secs.div_ceil(60)
            ),
            retry_after_secs,
        });
    }
    if open >= OPEN_BATTLES_WITH_OTHERS {
        return Err(invalid(
            "players",
            "You have 20 battles with other players that are not fought yet. Fight, record or \
             finish some of them before setting up more.",
        ));
    }
    Ok(())
}

pub fn invalid(field: &str, message: &str) -> Error {
    Error::invalid("The battle cannot be set up like that.", field, message)
}

/// A force for a battle of system `system`: one of the actor's rosters (`r:<id>`) or a
/// historical one (`h:<battle>:<side>:<force>`). Returns the roster and, for the actor's own
/// rosters, its id.
pub async fn load_force(
    ctx: &Context,
    actor: &Actor,
    system: SystemId,
    value: &str,
) -> Result<(AnyRoster, Option<i64>), Error> {
    if let Some(id) = value.strip_prefix("r:") {
        let id: i64 = id
            .parse()
            .map_err(|_| Error::bad_request("Choose a force from the list."))?;
        let row = crate::app::rosters::load_owned_row(ctx, actor, id).await?;
        if row.rule_system != system.id() {
            return Err(Error::bad_request("Choose a force from the list."));
        }
        let roster = crate::app::rosters::parse_stored(&ctx.rules, &row)?;
        return Ok((roster, Some(id)));
    }
    if let Some(h) = value.strip_prefix("h:") {
        return ctx
            .rules
            .historical_force(system, h)
            .map(|d| (d, None))
            .ok_or_else(|| Error::bad_request("Choose a force from the list."));
    }
    Err(Error::bad_request("Choose a force for each side."))
}

/// The rule system a force chosen for a battle plays by, read before the force itself: one of
/// the actor's rosters (`r:<id>`, by its `rule_system`) or a historical force (`h:...`, Land of
/// the Free's orders of battle).
pub async fn system_of_force(ctx: &Context, actor: &Actor, value: &str) -> Result<SystemId, Error> {
    if let Some(id) = value.strip_prefix("r:") {
        let id: i64 = id
            .parse()
            .map_err(|_| Error::bad_request("Choose a force from the list."))?;
        let row = crate::app::rosters::load_owned_row(ctx, actor, id).await?;
        return SystemId::from_id(&row.rule_system).ok_or_else(|| {
            Error::bad_request(format!(
                "The roster '{}' belongs to the rule system '{}', which this version of Muster \
                 does not know.",
                row.name, row.rule_system
            ))
        });
    }
    if let Some(h) = value.strip_prefix("h:") {
        return ctx
            .rules
            .historical_system(h)
            .ok_or_else(|| Error::bad_request("Choose a force from the list."));
    }
    Err(Error::bad_request("Choose a force for each side."))
}

/// The one rule system two forces chosen for a battle share. Forces of two different systems
/// cannot meet, and are refused before either is read.
pub async fn system_of_forces(
    ctx: &Context,
    actor: &Actor,
    first: &str,
    second: &str,
) -> Result<SystemId, Error> {
    let a = system_of_force(ctx, actor, first).await?;
    let b = system_of_force(ctx, actor, second).await?;
    if a != b {
        return Err(invalid(
            "second",
            &format!(
                "The two forces play by different rule systems: the first by {}, the second by \
                 {}. Choose two forces of the same rule system.",
                a.label(),
                b.label()
            ),
        ));
    }
    Ok(a)
}

/// A battle to set up, as the page's form and the API both give it.
pub struct NewBattleRequest {
    pub system: SystemId,
    pub first: (AnyRoster, Option<i64>),
    pub second: (AnyRoster, Option<i64>),
    pub first_player: Player,
    pub second_player: Player,
    /// A scenario id; none: rolled.
    pub scenario: Option<String>,
    pub roll_roles: bool,
}

/// Sets a battle up: snapshots both rosters, rolls what is to be rolled with a recorded seed.
pub async fn create(ctx: &Context, me: &Actor, req: NewBattleRequest) -> Result<BattleRow, Error> {
    if req.first_player != Player::User(me.id) && req.second_player != Player::User(me.id) {
        return Err(invalid(
            "players",
            "You must play one of the sides of a battle you set up.",
        ));
    }
    if req.first_player == req.second_player {
        return Err(invalid("players", "The two sides need different players."));
    }
    if req.first.0.system() != req.system || req.second.0.system() != req.system {
        return Err(invalid(
            "second",
            "Both forces must play by the battle's rule system.",
        ));
    }
    // Every invitation counts, whether or not its address has an account, so that reaching
    // the cap tells nothing about anyone's account.
    let with_another_player = [&req.first_player, &req.second_player].iter().any(|p| {
        matches!(p, Player::Invited { .. }) || matches!(p, Player::User(id) if *id != me.id)
    });
    check_set_up_limits(ctx, me, with_another_player).await?;
    let seed = crate::app::dice::fresh_seed();
    let prepared = ctx
        .rules
        .prepare_battle(
            req.first.0,
            req.second.0,
            req.scenario.as_deref(),
            req.roll_roles,
            seed,
        )
        .map_err(Error::bad_request)?;
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
    let single_party = [&att_player, &def_player]
        .iter()
        .any(|p| matches!(p, Player::Guest(_)));
    let invitation = match (&att_player, &def_player) {
        (
            Player::Invited {
                user, email_hash, ..
            },
            _,
        ) => Some(Invitation::stored(
            Side::Attacker,
            user.is_none().then_some(email_hash.as_str()),
        )),
        (
            _,
            Player::Invited {
                user, email_hash, ..
            },
        ) => Some(Invitation::stored(
            Side::Defender,
            user.is_none().then_some(email_hash.as_str()),
        )),
        _ => None,
    };
    let (au, ag) = split_player(att_player);
    let (du, dg) = split_player(def_player);
    let now = chrono::Utc::now().naive_utc();
    let new = NewBattle {
        rule_system: req.system.id().into(),
        created_by: me.id,
        attacker_user_id: au,
        attacker_guest: ag,
        defender_user_id: du,
        defender_guest: dg,
        attacker_roster_id: att_roster,
        defender_roster_id: def_roster,
        title: format!(
            "{} against {}",
            prepared.facts.attacker, prepared.facts.defender
        ),
        scenario: prepared.facts.scenario.clone(),
        points: i32::try_from(prepared.facts.points).unwrap_or(i32::MAX),
        setup: prepared.setup,
        rolls: serde_json::to_string(&prepared.rolls).unwrap_or_else(|_| "[]".into()),
        status: RecordStatus::SetUp.id().into(),
        replaces_id: None,
        single_party,
        version: 1,
        created_at: now,
        updated_at: now,
        campaign_id: None,
        invitation,
    };
    ctx.with_conn(move |conn| Ok(battles::create(conn, &new)?))
        .await
}

/// The rule system a stored battle is fought with.
fn system_of_row(row: &BattleRow) -> Result<SystemId, Error> {
    SystemId::from_id(&row.rule_system).ok_or_else(|| {
        Error::internal(format!(
            "battle {} names an unknown rule system {:?}",
            row.id, row.rule_system
        ))
    })
}

/// The stored columns of a decided battle.
fn result_change(
    decided: DecidedBattle,
    status: RecordStatus,
    recorded_by: Option<i64>,
    confirmed_by: Option<i64>,
    single_party: bool,
) -> ResultChange {
    let s = &decided.summary;
    let vp = |v: Option<u32>| v.map(|v| i32::try_from(v).unwrap_or(i32::MAX));
    ResultChange {
        setup: decided.setup,
        status: status.id().into(),
        method: Some(
            match s.method {
                Method::Simulated => "simulated",
                Method::Tabletop => "tabletop",
            }
            .into(),
        ),
        winner: Some(winner_column(s.winner)),
        victory_level: s.level.clone(),
        attacker_vp: vp(s.score.map(|(a, _)| a)),
        defender_vp: vp(s.score.map(|(_, d)| d)),
        result: Some(decided.result),
        recorded_by,
        confirmed_by,
        single_party,
    }
}

/// The user and guest columns of a side. An invited side keeps the masked address in the guest
/// column until it is accepted, so it reads the same whether or not the address has an account.
fn split_player(p: Player) -> (Option<i64>, Option<String>) {
    match p {
        Player::User(id) => (Some(id), None),
        Player::Guest(name) => (None, Some(name)),
        Player::Invited { user, label, .. } => (user, Some(label)),
    }
}

/// The battle if the actor plays in it (or set it up); others get "not found".
pub async fn load_for(ctx: &Context, actor: &Actor, id: i64) -> Result<BattleRow, Error> {
    let row = ctx
        .with_conn(move |conn| Ok(battles::find(conn, id)?))
        .await?;
    row.filter(|r| r.involves(actor.id)).ok_or(Error::NotFound)
}

fn require_player(row: &BattleRow, actor: &Actor) -> Result<Side, Error> {
    side_of(row, actor.id)
        .ok_or_else(|| Error::Forbidden("Only the battle's two players may do that.".into()))
}

fn stale() -> Error {
    Error::Conflict("The battle changed since you opened it; reload it and try again.".into())
}

/// Checks that `action` may happen to the record now.
fn allowed(row: &BattleRow, action: RecordAction) -> Result<RecordStatus, Error> {
    RecordStatus::of(row)?
        .after(action)
        .map_err(|m| Error::Conflict(m.into()))
}

/// Stores a change to one record, guarded by its version, and what follows from it, in one
/// transaction: a confirmed correction voids the version it replaces, and a decided campaign
/// battle moves its campaign on. `change` returns false when the record is not at `based_on`.
/// Tried again from the start when the campaign was changed by someone else meanwhile.
fn decide_in_one_transaction<F>(
    conn: &mut DbConnection,
    rules: &Systems,
    id: i64,
    log: Option<&club_night::CampaignWord>,
    change: F,
) -> Result<BattleRow, Error>
where
    F: Fn(&mut DbConnection) -> Result<(bool, Option<BattleRow>), Error>,
{
    campaigns::retrying(conn, |conn| {
        crate::store::write_transaction(conn, |conn| {
            // A player's or the organiser's word that leads to the decision goes into the
            // campaign's log first, so the log reads in the order things happened.
            if let Some(word) = log {
                word.append(conn, rules)?;
            }
            let row = match change(conn)? {
                (true, Some(row)) => row,
                (_, None) => return Err(Error::NotFound.into()),
                (false, Some(_)) => return Err(stale().into()),
            };
            // A decided battle needs no engine any more: a request for it is over.
            battles::clear_engine_request(conn, id)?;
            if row.status == RecordStatus::Confirmed.id() {
                if let Some(old) = row.replaces_id {
                    battles::void(conn, old)?;
                }
                if let Some(campaign) = row.campaign_id {
                    campaigns::bring_in_decided_battles(conn, rules, campaign)?;
                }
            }
            Ok(battles::find(conn, id)?.unwrap_or(row))
        })
    })
}

/// Lets the simulator fight a battle that was set up; the server's result needs no confirming.
pub async fn simulate(
    ctx: &Context,
    actor: &Actor,
    row: &BattleRow,
    based_on: i32,
) -> Result<BattleRow, Error> {
    require_player(row, actor)?;
    // An invitation not accepted (or a side waiting for its roster) says so first.
    require_accepted(row)?;
    if club_night::needs_consent(row) {
        return Err(Error::Conflict(
            "This battle is between two players, so the engine fights it only when both agree: \
             ask for the engine, and it fights the battle once the other player accepts."
                .into(),
        ));
    }
    simulate_unchecked(ctx, actor.id, row, based_on, None).await
}

/// The simulator fights a battle for whoever the caller has authorised: one of its players
/// (alone against a guest, or with the other player's consent), or a campaign's organiser.
/// `log`: what goes into the campaign's log with it.
async fn simulate_unchecked(
    ctx: &Context,
    by: i64,
    row: &BattleRow,
    based_on: i32,
    log: Option<club_night::CampaignWord>,
) -> Result<BattleRow, Error> {
    let status = allowed(row, RecordAction::Simulate)?;
    require_accepted(row)?;
    if row.replaces_id.is_some() {
        return Err(Error::Conflict(
            "A correction records the game that was played; it cannot be handed to the simulator."
                .into(),
        ));
    }
    let system = system_of_row(row)?;
    // The battle's dice are drawn now, not at set-up, so nobody can try the seed beforehand.
    let seed = crate::app::dice::fresh_seed();
    let (rules, setup) = (ctx.rules.clone(), row.setup.clone());
    let decided = ctx
        .work
        .run(&crate::app::work::Caller::User(by), move |_| {
            rules.fight(system, &setup, seed)
        })
        .await?
        .map_err(Error::bad_request)?;
    let change = result_change(decided, status, Some(by), None, row.single_party);
    let (id, rules) = (row.id, ctx.rules.clone());
    ctx.with_conn(move |conn| {
        decide_in_one_transaction(conn, &rules, id, log.as_ref(), |conn| {
            Ok(battles::record_result(conn, id, based_on, &change)?)
        })
    })
    .await
}

/// The organiser lets the simulator decide a campaign battle its players cannot fight or
/// record. The campaign then moves on as after any decided battle, in the same transaction.
///
/// The organiser decides alone, so they say why: `reason` goes into the campaign's log with the
/// decision.
pub async fn simulate_campaign_battle(
    ctx: &Context,
    c: &Loaded,
    actor: &Actor,
    battle: u32,
    reason: &str,
) -> Result<Loaded, Error> {
    campaigns::require_organiser(c)?;
    let reason = club_night::organiser_reason(reason)?;
    let b = c.state.battle(battle).ok_or(Error::NotFound)?;
    if b.status != BattleStatus::Pending {
        return Err(Error::Conflict("This battle has been decided.".into()));
    }
    let record = b.record;
    let row = ctx
        .with_conn(move |conn| Ok(battles::find(conn, record)?))
        .await?
        .ok_or(Error::NotFound)?;
    if row.status == RecordStatus::Confirmed.id() {
        // Decided already, but its aftermath is not in the campaign (a result confirmed before
        // deciding and applying became one transaction): apply it now instead of refusing.
        return campaigns::change(ctx, c.id(), actor, |_, _, _| Ok(Vec::new())).await;
    }
    let word = club_night::CampaignWord::organiser(&row, actor.id, reason)?;
    simulate_unchecked(ctx, actor.id, &row, row.version, Some(word)).await?;
    campaigns::load_for(ctx, actor, c.id()).await
}

/// Records a result from the table. It stays provisional until the other player confirms it;
/// against a guest the recording player's word stands (single-party).
pub async fn record_result(
    ctx: &Context,
    actor: &Actor,
    row: &BattleRow,
    based_on: i32,
    report: &serde_json::Value,
) -> Result<Result<BattleRow, Vec<RecordProblem>>, Error> {
    require_player(row, actor)?;
    require_accepted(row)?;
    let against_guest = row.attacker_guest.is_some() || row.defender_guest.is_some();
    let status = allowed(row, RecordAction::Record { against_guest })?;
    let decided = match ctx
        .rules
        .assess_record(system_of_row(row)?, &row.setup, report)
        .map_err(|e| Error::internal(format!("stored battle {}: {e}", row.id)))?
    {
        Ok(d) => d,
        Err(problems) => return Ok(Err(problems)),
    };
    let change = result_change(
        decided,
        status,
        Some(actor.id),
        against_guest.then_some(actor.id),
        against_guest,
    );
    let (id, rules, uid) = (row.id, ctx.rules.clone(), actor.id);
    let saved = ctx
        .with_conn(move |conn| {
            decide_in_one_transaction(conn, &rules, id, None, |conn| {
                let (stored, now) = battles::record_result(conn, id, based_on, &change)?;
                // A provisional result waits for the other player: tell them.
                if let (true, Some(r)) = (stored, &now) {
                    if r.status == RecordStatus::Provisional.id() {
                        crate::app::notifications::result_recorded(
                            conn,
                            r.id,
                            &r.title,
                            uid,
                            [r.attacker_user_id, r.defender_user_id],
                        )?;
                    }
                }
                Ok((stored, now))
            })
        })
        .await?;
    Ok(Ok(saved))
}

/// The other player confirms a provisional result; it is final from then on. A campaign
/// battle's aftermath is applied in the same transaction.
pub async fn confirm(
    ctx: &Context,
    actor: &Actor,
    row: &BattleRow,
    based_on: i32,
) -> Result<BattleRow, Error> {
    require_player(row, actor)?;
    let status = allowed(row, RecordAction::Confirm)?;
    if row.recorded_by == Some(actor.id) {
        return Err(Error::Forbidden(
            "The other player confirms the result you recorded.".into(),
        ));
    }
    let (id, uid, rules) = (row.id, actor.id, ctx.rules.clone());
    ctx.with_conn(move |conn| {
        decide_in_one_transaction(conn, &rules, id, None, |conn| {
            let changed = battles::set_status(conn, id, based_on, status.id(), Some(uid), None)?;
            if changed.0 {
                crate::app::notifications::acted_on_battle(conn, uid, id)?;
            }
            Ok(changed)
        })
    })
    .await
}

/// Either player disputes a provisional result, saying why.
pub async fn dispute(
    ctx: &Context,
    actor: &Actor,
    row: &BattleRow,
    based_on: i32,
    comment: &str,
) -> Result<BattleRow, Error> {
    require_player(row, actor)?;
    let status = allowed(row, RecordAction::Dispute)?;
    let comment = comment.trim();
    if comment.is_empty() || comment.chars().count() > 1000 {
        return Err(Error::invalid(
            "A dispute needs a reason.",
            "comment",
            "Nothing was disputed: say what is wrong with the result (up to 1000 characters).",
        ));
    }
    let (id, uid, text) = (row.id, actor.id, format!("{}: {comment}", actor.name));
    let (changed, now) = ctx
        .with_conn(move |conn| {
            crate::store::write_transaction(conn, |conn| {
                let changed =
                    battles::set_status(conn, id, based_on, status.id(), None, Some(text))?;
                if changed.0 {
                    crate::app::notifications::acted_on_battle(conn, uid, id)?;
                }
                Ok::<_, Error>(changed)
            })
        })
        .await?;
    match (changed, now) {
        (true, Some(r)) => Ok(r),
        (_, None) => Err(Error::NotFound),
        _ => Err(stale()),
    }
}

/// A correction: a new version of the battle with the same set-up and rolls, ready to be
/// recorded again. The old result stands until the correction is confirmed (by the other
/// player, or at once against a guest); then it is voided and stays visible.
pub async fn correct(
    ctx: &Context,
    actor: &Actor,
    row: &BattleRow,
    based_on: i32,
) -> Result<BattleRow, Error> {
    require_player(row, actor)?;
    if row.campaign_id.is_some() {
        return Err(Error::Conflict(
            "A campaign battle is corrected by the organiser, who can void it and have it \
             fought again."
                .into(),
        ));
    }
    if row.method.as_deref() != Some("tabletop") {
        return Err(Error::Conflict(
            "Only a recorded result that is confirmed or disputed can be corrected.".into(),
        ));
    }
    allowed(row, RecordAction::Correct)?;
    let (old, uid) = (row.clone(), actor.id);
    let now = chrono::Utc::now().naive_utc();
    ctx.with_conn(move |conn| {
        conn.transaction::<_, Error, _>(|conn| {
            // Claims the old version (its row is updated, guarded by the version), so two
            // corrections started at once cannot both be created.
            let (claimed, _) = battles::set_status(
                conn,
                old.id,
                based_on,
                &old.status,
                old.confirmed_by,
                old.dispute.clone(),
            )?;
            if !claimed {
                return Err(stale());
            }
            if let Some(open) = battles::open_replacement(conn, old.id)? {
                return Err(Error::Conflict(format!(
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
                status: RecordStatus::SetUp.id().into(),
                replaces_id: Some(old.id),
                single_party: old.single_party,
                version: 1,
                created_at: now,
                updated_at: now,
                campaign_id: old.campaign_id,
                // A correction is of a battle that was fought, so any invitation was accepted.
                invitation: old.invitation.clone(),
            };
            Ok(battles::create(conn, &new)?)
        })
    })
    .await
}

/// The actor's battles (those they play or set up), newest first, whole: the API's list, which
/// answers each battle's rolls and result.
pub async fn list(ctx: &Context, actor: &Actor) -> Result<Vec<BattleRow>, Error> {
    let uid = actor.id;
    ctx.with_conn(move |conn| Ok(battles::list_for_user(conn, uid)?))
        .await
}

/// What the battle list page shows, each part read with its own light query: one page of the
/// actor's battles, the invitations and the record whatever that page is.
pub struct BattleList {
    /// The page asked for.
    pub battles: Vec<BattleListing>,
    /// How many battles match the search, on every page.
    pub total: i64,
    /// Invitations waiting for the actor's answer, newest first.
    pub invitations: Vec<BattleListing>,
    /// Over all the actor's confirmed battles.
    pub record: WinDrawLoss,
}

/// One page of the actor's battle list (summary columns only), with the invitations waiting
/// for them and their record over every confirmed battle.
pub async fn listing(
    ctx: &Context,
    actor: &Actor,
    query: ListingQuery,
) -> Result<BattleList, Error> {
    let uid = actor.id;
    ctx.with_conn(move |conn| {
        let (battles, total) = battles::listing_for_user(conn, uid, &query)?;
        let invitations = invitations_waiting(conn, uid)?;
        let counts = battles::result_counts(conn, uid, RecordStatus::Confirmed.id())?;
        Ok(BattleList {
            battles,
            total,
            invitations,
            record: WinDrawLoss::of(&counts, uid),
        })
    })
    .await
}

/// The invitations waiting for `user`'s answer, as `Invitation` reads them.
fn invitations_waiting(conn: &mut DbConnection, user: i64) -> Result<Vec<BattleListing>, Error> {
    Ok(battles::invitations_waiting_for(conn, user)?
        .into_iter()
        .filter(|row| Invitation::of(row).and_then(|i| i.invitee(row)) == Some(user))
        .collect())
}

/// What waits for the actor on their battles (the home page): invitations to answer, results
/// the other player recorded for them to confirm, and disputed results, newest first.
pub async fn needing_attention(
    ctx: &Context,
    actor: &Actor,
) -> Result<(Vec<BattleListing>, Vec<BattleListing>), Error> {
    let uid = actor.id;
    ctx.with_conn(move |conn| {
        let invitations = invitations_waiting(conn, uid)?;
        let statuses = [RecordStatus::Provisional.id(), RecordStatus::Disputed.id()];
        let results = battles::listing_with_status(conn, uid, &statuses)?
            .into_iter()
            .filter(|r| r.status == RecordStatus::Disputed.id() || r.recorded_by != Some(uid))
            .collect();
        Ok((invitations, results))
    })
    .await
}

/// The battles fought with one of the actor's rosters.
pub async fn list_for_roster(
    ctx: &Context,
    roster: &crate::app::rosters::LoadedRoster,
) -> Result<Vec<BattleListing>, Error> {
    let id = roster.row.id;
    ctx.with_conn(move |conn| Ok(battles::list_for_roster(conn, id)?))
        .await
}

/// A confirmed battle made public by one of its players, by its unguessable link.
pub async fn public(ctx: &Context, token: String) -> Result<BattleRow, Error> {
    if token.len() < 16 {
        return Err(Error::NotFound);
    }
    let row = ctx
        .with_conn(move |conn| Ok(battles::find_by_public_token(conn, &token)?))
        .await?
        .ok_or(Error::NotFound)?;
    if row.status != RecordStatus::Confirmed.id() {
        return Err(Error::NotFound);
    }
    Ok(row)
}

/// A player makes a confirmed report public: it gets an unguessable link.
pub async fn publish(ctx: &Context, actor: &Actor, row: &BattleRow) -> Result<String, Error> {
    if side_of(row, actor.id).is_none() || row.status != RecordStatus::Confirmed.id() {
        return Err(Error::Conflict(
            "Only a player can make a confirmed report public.".into(),
        ));
    }
    let token = crate::app::dice::random_token(24);
    let (id, stored) = (row.id, token.clone());
    ctx.with_conn(move |conn| {
        battles::set_public_token(conn, id, Some(&stored))?;
        Ok(())
    })
    .await?;
    Ok(token)
}

/// The names of a battle's two players as its viewers see them. A side with an invitation not
/// yet accepted shows only the masked address ("invited: a…@example.org"), whether or not the
/// address has an account.
pub async fn player_names(ctx: &Context, row: &BattleRow) -> Result<(String, String), Error> {
    let open = Invitation::of(row).filter(|i| !i.settled()).map(|i| i.side);
    let name = |side: Side, user: Option<i64>, guest: Option<String>| async move {
        match (open == Some(side), guest) {
            (true, Some(label)) => Ok(label),
            (_, guest) => player_name(ctx, user, guest).await,
        }
    };
    Ok((
        name(
            Side::Attacker,
            row.attacker_user_id,
            row.attacker_guest.clone(),
        )
        .await?,
        name(
            Side::Defender,
            row.defender_user_id,
            row.defender_guest.clone(),
        )
        .await?,
    ))
}

/// A player's name as others see it: a guest's name, or the user's display name.
pub async fn player_name(
    ctx: &Context,
    user: Option<i64>,
    guest: Option<String>,
) -> Result<String, Error> {
    if let Some(g) = guest {
        return Ok(format!("{g} (guest)"));
    }
    let Some(id) = user else {
        return Ok("—".into());
    };
    let found = ctx
        .with_conn(move |conn| Ok(users::find_by_id(conn, id)?))
        .await?;
    Ok(found
        .map(|u| u.display_name)
        .unwrap_or_else(|| "a former member".into()))
}
