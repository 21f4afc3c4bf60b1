//! Campaign administration as services: a force withdrawn, removed or changed before the start,
//! the house rules edited, promoted officers named, archiving (read-only) and deleting, and the
//! public read-only page. Each authorises the actor, asks `rules::campaign::admin` for the log
//! entry and stores it through [`super::change`] (the campaign's version guards it).

use super::actions::{reason_of, roster_for};
use super::change::{change_when, Archived};
use super::{
    change, parse_entry, parse_state, require_organiser, require_own_force, system_of, Loaded,
    Pending,
};
use crate::app::{Actor, Context, Error};
use crate::rules::campaign::admin::{self as rules_admin, PromotedOfficer};
use crate::rules::campaign::state::{Entry, HouseRules};
use crate::store::campaigns as store;

fn one(event: crate::rules::campaign::state::Event) -> Vec<Pending> {
    vec![Pending::new(event)]
}

/// The player withdraws their own force before the start; they stay a member and may enlist
/// again with the invite code.
pub async fn withdraw(
    ctx: &Context,
    c: &Loaded,
    actor: &Actor,
    force: &str,
) -> Result<Loaded, Error> {
    require_own_force(c, force)?;
    let (force, uid, id) = (force.to_string(), actor.id, c.id());
    change(ctx, id, actor, move |conn, _, st| {
        if st.forces.get(&force).map(|f| f.user) != Some(uid) {
            return Err(Error::Forbidden(
                "Only the player of a force may withdraw it.".into(),
            ));
        }
        let event = rules_admin::withdraw(st, &force)?;
        store::add_member(conn, id, uid, None)?;
        Ok(one(event))
    })
    .await
}

/// The organiser removes a player's force before the start, with a reason.
pub async fn remove_force(
    ctx: &Context,
    c: &Loaded,
    actor: &Actor,
    force: &str,
    reason: &str,
) -> Result<Loaded, Error> {
    require_organiser(c)?;
    let reason = reason_of(reason)?;
    let (force, id) = (force.to_string(), c.id());
    change(ctx, id, actor, move |conn, _, st| {
        let event = rules_admin::remove(st, &force, &reason)?;
        if let Some(f) = st.forces.get(&force) {
            store::add_member(conn, id, f.user, None)?;
        }
        Ok(one(event))
    })
    .await
}

/// The player enlists another of their rosters for their force before the start. A roster of
/// a nation that did not fight for the side is refused unless `accept_warning` (M-104).
pub async fn change_force(
    ctx: &Context,
    c: &Loaded,
    actor: &Actor,
    force: &str,
    roster_id: i64,
    accept_warning: bool,
) -> Result<Loaded, Error> {
    require_own_force(c, force)?;
    let document = roster_for(ctx, actor, &c.row, roster_id).await?;
    let (force, uid, cat) = (force.to_string(), actor.id, ctx.rules.clone());
    change(ctx, c.id(), actor, move |_, row, st| {
        if st.forces.get(&force).map(|f| f.user) != Some(uid) {
            return Err(Error::Forbidden(
                "Only the player of a force may change it.".into(),
            ));
        }
        let seed = crate::app::dice::fresh_seed();
        let event = rules_admin::change_force(
            st,
            system_of(&cat, row)?,
            &force,
            &document,
            seed,
            accept_warning,
        )?;
        Ok(vec![Pending {
            event,
            seed: Some(seed),
        }])
    })
    .await
}

/// The organiser sets the house-rule switches before the start.
pub async fn set_rules(
    ctx: &Context,
    c: &Loaded,
    actor: &Actor,
    rules: HouseRules,
) -> Result<Loaded, Error> {
    require_organiser(c)?;
    let cat = ctx.rules.clone();
    change(ctx, c.id(), actor, move |_, row, st| {
        Ok(one(rules_admin::change_rules(
            st,
            system_of(&cat, row)?,
            &rules,
        )?))
    })
    .await
}

fn log_entries(conn: &mut crate::store::DbConnection, id: i64) -> Result<Vec<Entry>, Error> {
    store::log(conn, id)?.iter().map(parse_entry).collect()
}

/// The officers made by field promotion, for the organiser to name.
pub async fn promoted_officers(ctx: &Context, c: &Loaded) -> Result<Vec<PromotedOfficer>, Error> {
    let id = c.id();
    let entries = ctx.with_conn(move |conn| log_entries(conn, id)).await?;
    let system = system_of(&ctx.rules, &c.row)?;
    Ok(rules_admin::promoted_officers(&entries, &c.state, system))
}

/// The organiser names an officer made by field promotion.
pub async fn rename_officer(
    ctx: &Context,
    c: &Loaded,
    actor: &Actor,
    force: &str,
    commander: &str,
    name: &str,
) -> Result<Loaded, Error> {
    require_organiser(c)?;
    let (force, commander, name) = (force.to_string(), commander.to_string(), name.to_string());
    let cat = ctx.rules.clone();
    change(ctx, c.id(), actor, move |conn, row, st| {
        let entries = log_entries(conn, row.id)?;
        Ok(one(rules_admin::rename_officer(
            &entries,
            st,
            system_of(&cat, row)?,
            &force,
            &commander,
            &name,
        )?))
    })
    .await
}

/// The organiser archives the campaign: hidden from lists, every action refused.
pub async fn archive(ctx: &Context, c: &Loaded, actor: &Actor) -> Result<Loaded, Error> {
    require_organiser(c)?;
    change(ctx, c.id(), actor, |_, _, st| {
        Ok(one(rules_admin::archive(st)?))
    })
    .await
}

/// The organiser unarchives the campaign: the one change an archived campaign takes.
pub async fn unarchive(ctx: &Context, c: &Loaded, actor: &Actor) -> Result<Loaded, Error> {
    require_organiser(c)?;
    change_when(ctx, c.id(), actor, Archived::Allow, |_, _, st| {
        Ok(one(rules_admin::unarchive(st)?))
    })
    .await
}

/// The organiser deletes a campaign that has not started, with its log, members and battle
/// records. Refused once it has started (archive it instead) and while it is archived.
pub async fn delete(ctx: &Context, c: &Loaded, actor: &Actor) -> Result<(), Error> {
    require_organiser(c)?;
    let id = c.id();
    let _ = actor;
    ctx.with_conn(move |conn| {
        crate::store::write_transaction(conn, |conn| {
            store::lock_for_change(conn, id)?;
            let row = store::find(conn, id)?.ok_or(Error::NotFound)?;
            let st = parse_state(&row)?;
            rules_admin::may_delete(&st)?;
            if !store::delete_if(conn, id, row.version)? {
                return Err(Error::Conflict(
                    "The campaign changed just now; look again and retry.".into(),
                ));
            }
            Ok(())
        })
    })
    .await
}

/// The organiser turns the public read-only page on: a fresh unguessable link.
pub async fn public_on(ctx: &Context, c: &Loaded, actor: &Actor) -> Result<Loaded, Error> {
    require_organiser(c)?;
    change(ctx, c.id(), actor, |conn, row, st| {
        let event = rules_admin::public_page(st, true)?;
        let token = crate::app::dice::random_token(24);
        store::set_public_token(conn, row.id, Some(&token))?;
        Ok(one(event))
    })
    .await
}

/// The organiser turns the public page off: its link answers 404 from now on.
pub async fn public_off(ctx: &Context, c: &Loaded, actor: &Actor) -> Result<Loaded, Error> {
    require_organiser(c)?;
    change(ctx, c.id(), actor, |conn, row, st| {
        let event = rules_admin::public_page(st, false)?;
        store::set_public_token(conn, row.id, None)?;
        Ok(one(event))
    })
    .await
}

/// A campaign as its public page shows it to anyone with the link: read as nobody (no force,
/// not the organiser), so nothing hidden from non-members is in it. Unknown or revoked
/// links are not found.
pub async fn public_view(ctx: &Context, token: String) -> Result<Loaded, Error> {
    if token.len() < 16 {
        return Err(Error::NotFound);
    }
    ctx.with_conn(move |conn| {
        let row = store::find_by_public_token(conn, &token)?.ok_or(Error::NotFound)?;
        let c = Loaded::read(conn, row.id, 0)?;
        if !c.state.public {
            return Err(Error::NotFound);
        }
        Ok(c)
    })
    .await
}
