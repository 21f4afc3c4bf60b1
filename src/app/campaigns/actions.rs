//! What users do to a campaign, shared by the pages and the API. Each action checks who may do
//! it, then asks the rules core for the events and stores them through [`super::change`], in
//! one transaction, and answers the campaign as the actor now sees it.

use serde::Deserialize;

use super::change::{close_turn_events, create_record, void_events};
use super::{
    by_code, change, invite_code, phase_id, require_organiser, require_own_force, system_of,
    Loaded, Pending,
};
use crate::app::{Actor, Context, Error, ErrorDetail};
use crate::rules::campaign::aftermath::bank_after_adjustment;
use crate::rules::campaign::forces::{enlist_warned, purchase as buy, reorganise as move_element};
use crate::rules::campaign::forces_api::{self, RosterJson};
use crate::rules::campaign::movement::{Map, Order};
use crate::rules::campaign::settings::SettingsInput;
use crate::rules::campaign::state::{CampaignState, Event, HouseRules, Phase, Settings};
use crate::rules::campaign::turn::check_order;
use crate::rules::SystemId;
use crate::store::campaigns::{self as store, CampaignRow, NewCampaign, NewLogRow};
use crate::store::{battles, users};

fn invalid(field: &str, message: &str) -> Error {
    Error::Validation {
        message: "Some fields need attention.".into(),
        details: vec![ErrorDetail {
            field: Some(field.into()),
            message: message.into(),
        }],
    }
}

/// What the organiser fills in to start a campaign.
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
pub struct NewCampaignInput {
    /// The rule system the campaign is fought with (`lotf`, the default).
    #[serde(default)]
    pub system: String,
    pub name: String,
    /// A preset map id (`forks-of-the-ohio-1755`, `philadelphia-1777`, `niagara-1814`) or
    /// `blank` for two home places to build on.
    pub map: String,
    /// The war id; only read for a blank map (a preset brings its own).
    #[serde(default)]
    pub war: String,
    pub points: u32,
    #[serde(default = "default_turns")]
    pub turns: u32,
    /// The two sides' names; empty keeps the preset's.
    #[serde(default)]
    #[schema(min_items = 2, max_items = 2)]
    pub sides: [String; 2],
    #[serde(default)]
    #[schema(value_type = Object)]
    pub rules: HouseRules,
    /// A scenario id for every battle; absent: rolled on the book's table.
    #[serde(default)]
    pub scenario: Option<String>,
}

fn default_turns() -> u32 {
    8
}

pub async fn create(
    ctx: &Context,
    actor: &Actor,
    input: NewCampaignInput,
) -> Result<CampaignRow, Error> {
    let system = match input.system.as_str() {
        "" => SystemId::Lotf,
        id => SystemId::from_id(id)
            .ok_or_else(|| invalid("system", "Choose a rule system from the list."))?,
    };
    if !system.capabilities().is_some_and(|c| c.campaigns) {
        return Err(invalid(
            "system",
            &format!("Muster does not run {} campaigns yet.", system.label()),
        ));
    }
    let given = SettingsInput {
        name: input.name,
        map: input.map,
        war: input.war,
        points: input.points,
        turns: input.turns,
        sides: input.sides,
        rules: input.rules,
        scenario: input.scenario,
    };
    let forces = ctx.rules.forces(system).ok_or_else(|| {
        invalid(
            "system",
            &format!("Muster does not run {} campaigns yet.", system.label()),
        )
    })?;
    let (settings, map) = Settings::parse(&given, forces)?;
    let name = settings.name.clone();
    let event = Event::Created { settings, map };
    let mut st = CampaignState::default();
    st.apply(forces, 1, &event)?;
    let now = chrono::Utc::now().naive_utc();
    let new = NewCampaign {
        rule_system: system.id().into(),
        name,
        organiser_id: actor.id,
        invite_code: invite_code(),
        state: serde_json::to_string(&st).map_err(Error::internal)?,
        phase: phase_id(st.phase).into(),
        turn: 0,
        version: 1,
        created_at: now,
        updated_at: now,
    };
    let entry = NewLogRow {
        campaign_id: 0,
        seq: 1,
        turn: 0,
        kind: event.kind().to_string(),
        force_id: None,
        actor_id: Some(actor.id),
        seed: None,
        event: serde_json::to_string(&event).map_err(Error::internal)?,
        created_at: now,
        // The first entry is told against the campaign it made (before it there is nothing).
        words: Some(crate::rules::campaign::words::describe(forces, &st, &event)),
    };
    ctx.with_conn(move |conn| Ok(store::create(conn, &new, vec![entry])?))
        .await
}

/// One of the actor's rosters, read for enlisting in the campaign `row`: refused by name when
/// it is not theirs or is of another rule system.
pub(super) async fn roster_for(
    ctx: &Context,
    actor: &Actor,
    row: &CampaignRow,
    roster_id: i64,
) -> Result<RosterJson, Error> {
    let roster = crate::app::rosters::load_owned_row(ctx, actor, roster_id)
        .await
        .map_err(|e| match e {
            Error::NotFound => invalid("roster", "Choose one of your rosters."),
            other => other,
        })?;
    // A force of another rule system cannot fight in this campaign.
    if roster.rule_system != row.rule_system {
        let label = |id: &str| SystemId::from_id(id).map_or(id.to_string(), |s| s.label().into());
        let mut message = format!(
            "This campaign is fought with {}; that roster is for {}",
            label(&row.rule_system),
            label(&roster.rule_system)
        );
        // A name that ends a sentence by itself ("Liberty or Death!") takes no full stop.
        if !message.ends_with('!') {
            message.push('.');
        }
        return Err(invalid("roster", &message));
    }
    serde_json::from_str(&roster.document)
        .map_err(|e| Error::internal(format!("roster {roster_id} does not parse: {e}")))
}

/// A player joins a side with one of their rosters, found by the invite code. A roster of a
/// nation that did not fight for the side is refused unless `accept_warning` (M-104).
pub async fn join(
    ctx: &Context,
    actor: &Actor,
    code: &str,
    side: u8,
    roster_id: i64,
    accept_warning: bool,
) -> Result<(i64, String), Error> {
    let (row, _) = by_code(ctx, code).await?;
    let document = roster_for(ctx, actor, &row, roster_id).await?;
    let (uid, player, cat, id) = (actor.id, actor.name.clone(), ctx.rules.clone(), row.id);
    let after = change(ctx, id, actor, move |conn, row, st| {
        let seed = crate::app::dice::fresh_seed();
        let event = enlist_warned(
            st,
            system_of(&cat, row)?,
            uid,
            &player,
            side,
            &document,
            seed,
            Some(accept_warning),
        )?;
        store::add_member(conn, id, uid, event.force())?;
        Ok(vec![Pending {
            event,
            seed: Some(seed),
        }])
    })
    .await?;
    let force = after
        .force
        .clone()
        .ok_or_else(|| Error::internal("the new force is missing"))?;
    Ok((id, force))
}

pub async fn start(ctx: &Context, c: &Loaded, actor: &Actor) -> Result<Loaded, Error> {
    require_organiser(c)?;
    change(ctx, c.id(), actor, |_, _, st| {
        if st.phase != Phase::Enlisting {
            return Err(Error::Conflict("The campaign has already started.".into()));
        }
        let sides = st.sides_in_field();
        if sides.len() < 2 {
            return Err(Error::Conflict(
                "Each side needs at least one force before the campaign can start.".into(),
            ));
        }
        Ok(vec![Pending {
            event: Event::Started,
            seed: None,
        }])
    })
    .await
}

/// Replaces the map (and the sides' home places) before the campaign starts.
pub async fn set_map(
    ctx: &Context,
    c: &Loaded,
    actor: &Actor,
    map: Map,
    homes: [String; 2],
) -> Result<Loaded, Error> {
    require_organiser(c)?;
    if let Err(problems) = map.check_with_homes(&homes) {
        let only_homes = problems.iter().all(|p| p.field == "homes");
        return Err(Error::Validation {
            message: if only_homes {
                "Some fields need attention.".into()
            } else {
                "The map needs attention.".into()
            },
            details: problems
                .into_iter()
                .map(|p| ErrorDetail::field(p.field, p.message))
                .collect(),
        });
    }
    change(ctx, c.id(), actor, move |_, _, st| {
        if st.phase != Phase::Enlisting {
            return Err(Error::Conflict(
                "The map can only be changed before the campaign starts.".into(),
            ));
        }
        Ok(vec![Pending {
            event: Event::MapChanged {
                map: map.clone(),
                homes: homes.clone(),
            },
            seed: None,
        }])
    })
    .await
}

/// A player orders their force. When the last order is in, the turn closes by itself.
/// `for_turn`, when given, is the turn the player chose the order in: an order from a form
/// of a turn that has since closed is refused, since a route means a different march from
/// where the force stands now.
pub async fn give_order(
    ctx: &Context,
    c: &Loaded,
    actor: &Actor,
    force: &str,
    order: Order,
    for_turn: Option<u32>,
) -> Result<Loaded, Error> {
    require_own_force(c, force)?;
    let (force, cat, uid) = (force.to_string(), ctx.rules.clone(), actor.id);
    change(ctx, c.id(), actor, move |conn, row, st| {
        // Checked again on the state being changed: the force may have changed hands since.
        if st.forces.get(&force).map(|f| f.user) != Some(uid) {
            return Err(Error::Forbidden(
                "Only the player of a force may order it.".into(),
            ));
        }
        if let Some(t) = for_turn.filter(|&t| t != st.turn) {
            return Err(Error::Conflict(format!(
                "That order was chosen for turn {t}, and the campaign is now on turn {}. Nothing was \
                 changed: choose this turn's order below.",
                st.turn
            )));
        }
        check_order(st, &force, &order)?;
        let event = Event::OrderGiven {
            force: force.clone(),
            order: order.clone(),
        };
        let mut work = st.clone();
        work.apply(system_of(&cat, row)?, 0, &event)?;
        let mut out = vec![Pending { event, seed: None }];
        let (given, all) = work.orders_in();
        if given == all {
            out.extend(close_turn_events(conn, &cat, row, &work)?);
        }
        Ok(out)
    })
    .await
}

/// The organiser closes the turn; forces without orders hold.
pub async fn close(ctx: &Context, c: &Loaded, actor: &Actor) -> Result<Loaded, Error> {
    require_organiser(c)?;
    let cat = ctx.rules.clone();
    change(ctx, c.id(), actor, move |conn, row, st| {
        close_turn_events(conn, &cat, row, st)
    })
    .await
}

/// What a player buys with reinforcement points.
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
#[serde(tag = "buy", rename_all = "snake_case")]
pub enum Purchase {
    /// One size back for a reduced element.
    Restore {
        element: String,
    },
    Upgrade {
        element: String,
        upgrade: String,
    },
    Element {
        group: String,
        #[serde(default)]
        name: String,
        #[serde(rename = "type")]
        element_type: String,
        size: String,
        #[serde(default)]
        weapon: Option<String>,
    },
}

pub async fn purchase(
    ctx: &Context,
    c: &Loaded,
    actor: &Actor,
    force: &str,
    what: Purchase,
    expect_bank: Option<u32>,
) -> Result<Loaded, Error> {
    require_own_force(c, force)?;
    let what = match what {
        Purchase::Restore { element } => forces_api::Purchase::Restore { element },
        Purchase::Upgrade { element, upgrade } => {
            forces_api::Purchase::Upgrade { element, upgrade }
        }
        Purchase::Element {
            group,
            name,
            element_type,
            size,
            weapon,
        } => forces_api::Purchase::Element {
            group,
            name,
            element_type,
            size,
            weapon,
        },
    };
    let (force, cat, uid) = (force.to_string(), ctx.rules.clone(), actor.id);
    change(ctx, c.id(), actor, move |_, row, st| {
        if st.forces.get(&force).map(|f| f.user) != Some(uid) {
            return Err(Error::Forbidden(
                "Only the player of a force may spend its points.".into(),
            ));
        }
        // The bank the player saw when choosing: a purchase sent twice (a
        // double click, a form sent again from the history) finds it changed
        // and buys nothing the second time.
        let bank = st.forces.get(&force).map_or(0, |f| f.bank);
        if let Some(seen) = expect_bank.filter(|&seen| seen != bank) {
            return Err(Error::Conflict(format!(
                "The bank held {seen} points when you chose this and now holds {bank}: \
                 something was bought or added since. Nothing was bought; check the force \
                 and choose again."
            )));
        }
        let event = buy(st, system_of(&cat, row)?, &force, &what)?;
        Ok(vec![Pending { event, seed: None }])
    })
    .await
}

/// Moves an element of the player's own force into another of its groups while a turn's
/// orders are open (M-102).
pub async fn reorganise(
    ctx: &Context,
    c: &Loaded,
    actor: &Actor,
    force: &str,
    element: String,
    group: String,
) -> Result<Loaded, Error> {
    require_own_force(c, force)?;
    let (force, cat, uid) = (force.to_string(), ctx.rules.clone(), actor.id);
    change(ctx, c.id(), actor, move |_, row, st| {
        if st.forces.get(&force).map(|f| f.user) != Some(uid) {
            return Err(Error::Forbidden(
                "Only the player of a force may reorganise it.".into(),
            ));
        }
        let event = move_element(st, system_of(&cat, row)?, &force, &element, &group)?;
        Ok(vec![Pending { event, seed: None }])
    })
    .await
}

pub(super) fn reason_of(reason: &str) -> Result<String, Error> {
    let r = reason.trim();
    if r.is_empty() || r.chars().count() > 500 {
        return Err(invalid("reason", "Give a reason of 1 to 500 characters."));
    }
    Ok(r.to_string())
}

pub async fn void(
    ctx: &Context,
    c: &Loaded,
    actor: &Actor,
    battle: u32,
    reason: &str,
) -> Result<Loaded, Error> {
    require_organiser(c)?;
    let reason = reason_of(reason)?;
    let cat = ctx.rules.clone();
    change(ctx, c.id(), actor, move |conn, row, st| {
        void_events(conn, &cat, row, st, battle, &reason)
    })
    .await
}

/// The organiser's choices for a battle before it is fought.
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
pub struct Arrangement {
    /// The force that attacks, one of the attacking side's forces in the place.
    #[serde(default)]
    pub attacker: Option<String>,
    #[serde(default)]
    pub defender: Option<String>,
    /// A scenario id.
    #[serde(default)]
    pub scenario: Option<String>,
}

pub async fn rearrange(
    ctx: &Context,
    c: &Loaded,
    actor: &Actor,
    battle: u32,
    a: Arrangement,
) -> Result<Loaded, Error> {
    require_organiser(c)?;
    let scenario = a.scenario.clone().filter(|s| !s.is_empty());
    let system = system_of(&ctx.rules, &c.row)?;
    if scenario
        .as_deref()
        .is_some_and(|s| system.scenario_name(s).is_none())
    {
        return Err(invalid("scenario", "Choose a scenario from the list."));
    }
    let cat = ctx.rules.clone();
    change(ctx, c.id(), actor, move |conn, row, st| {
        let system = system_of(&cat, row)?;
        let (mut new, what) = crate::rules::campaign::turn::rearrange(
            st,
            system,
            battle,
            a.attacker.as_deref().filter(|s| !s.is_empty()),
            a.defender.as_deref().filter(|s| !s.is_empty()),
            scenario.as_deref(),
        )?;
        let old = battles::find(conn, new.record)?;
        let set_up = crate::app::battle_record::RecordStatus::SetUp.id();
        let voided = match &old {
            Some(r) => battles::void_if(conn, r.id, set_up, r.version)?,
            None => true,
        };
        if !voided {
            return Err(Error::Conflict(
                "This battle already has a result; void it instead.".into(),
            ));
        }
        let rolls: Vec<String> = old
            .as_ref()
            .and_then(|r| serde_json::from_str(&r.rolls).ok())
            .unwrap_or_default();
        new.record = create_record(conn, system, row, st, &new, &rolls)?;
        Ok(vec![Pending {
            event: Event::BattleRearranged { battle: new, what },
            seed: None,
        }])
    })
    .await
}

/// A manual adjustment: campaign points for a player's force or a side, or reinforcement
/// points for a force.
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
pub struct Adjustment {
    #[serde(default)]
    pub force: Option<String>,
    #[serde(default)]
    #[schema(minimum = 0, maximum = 1)]
    pub side: Option<u8>,
    /// Campaign points to add (or take away): at most 100 either way.
    #[serde(default)]
    #[schema(minimum = -100, maximum = 100)]
    pub points: i32,
    /// Reinforcement points for a force: at most 100 either way; none once the campaign has
    /// ended.
    #[serde(default)]
    #[schema(minimum = -100, maximum = 100)]
    pub bank: i32,
    /// Why, for the log: 1 to 500 characters.
    #[schema(min_length = 1, max_length = 500)]
    pub reason: String,
}

pub async fn adjust(
    ctx: &Context,
    c: &Loaded,
    actor: &Actor,
    a: Adjustment,
) -> Result<Loaded, Error> {
    require_organiser(c)?;
    let reason = reason_of(&a.reason)?;
    if a.points == 0 && a.bank == 0 {
        return Err(invalid("points", "Give the points to add or take away."));
    }
    if !(-100..=100).contains(&a.points) || !(-100..=100).contains(&a.bank) {
        return Err(invalid(
            "points",
            "An adjustment is at most 100 points either way.",
        ));
    }
    match (&a.force, a.side) {
        (Some(f), None) if c.state.forces.contains_key(f) => {}
        (None, Some(s)) if s < 2 && a.bank == 0 => {}
        (None, Some(_)) => {
            return Err(invalid(
                "bank",
                "Reinforcement points go to a force, not a side.",
            ))
        }
        _ => return Err(invalid("force", "Choose one force or one side.")),
    }
    change(ctx, c.id(), actor, move |_, _, st| {
        if st.phase == Phase::Enlisting {
            return Err(Error::Conflict(
                "Adjustments are made once the campaign has started.".into(),
            ));
        }
        // M-97: nothing can be bought once the campaign is over.
        if st.phase == Phase::Ended && a.bank != 0 {
            return Err(Error::Conflict(
                "The campaign is over: reinforcement points could never be spent. Campaign points may still be adjusted."
                    .into(),
            ));
        }
        Ok(vec![Pending {
            event: Event::Adjusted {
                force: a.force.clone(),
                side: a.side,
                points: a.points,
                bank: a.bank,
                bank_after: a
                    .force
                    .as_ref()
                    .and_then(|f| st.forces.get(f))
                    .map(|f| bank_after_adjustment(f.bank, a.bank)),
                reason: reason.clone(),
            },
            seed: None,
        }])
    })
    .await
}

/// Hands a force to another registered player (someone leaves the club).
pub async fn replace_player(
    ctx: &Context,
    c: &Loaded,
    actor: &Actor,
    force: &str,
    email: &str,
) -> Result<Loaded, Error> {
    require_organiser(c)?;
    c.state.forces.get(force).ok_or(Error::NotFound)?;
    let email = email.trim().to_lowercase();
    let user = ctx
        .with_conn(move |conn| Ok(users::find_by_email(conn, &email)?))
        .await?
        .filter(|u| !u.disabled)
        .ok_or_else(|| invalid("email", "No active Muster account has that email."))?;
    if c.state.force_of_user(user.id).is_some() {
        return Err(invalid(
            "email",
            "That player already has a force in this campaign.",
        ));
    }
    let (force, campaign) = (force.to_string(), c.id());
    let (new_user, name) = (user.id, user.display_name.clone());
    change(ctx, campaign, actor, move |conn, _, st| {
        if st.phase == Phase::Ended {
            return Err(Error::Conflict("The campaign is over.".into()));
        }
        if st.force_of_user(new_user).is_some() {
            return Err(invalid(
                "email",
                "That player already has a force in this campaign.",
            ));
        }
        let old = st.forces.get(&force).ok_or(Error::NotFound)?.user;
        store::add_member(conn, campaign, new_user, Some(&force))?;
        store::add_member(conn, campaign, old, None)?;
        battles::reassign_open(conn, campaign, old, new_user)?;
        Ok(vec![Pending {
            event: Event::PlayerReplaced {
                force: force.clone(),
                user: new_user,
                player: name.clone(),
            },
            seed: None,
        }])
    })
    .await
}
