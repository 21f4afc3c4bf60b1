//! Campaign administration, decided without I/O: a force withdrawn, removed or changed before
//! the start, the house rules edited before the start, promoted officers named, the campaign
//! archived (read-only) or deleted, and its public page turned on or off. Each answers the log
//! entry to append, or why not in words.

use std::collections::BTreeSet;

use super::error::CampaignError;
use super::forces::{checked_and_rated, warned};
use super::forces_api::{ForceRules, RosterJson};
use super::state::{CampaignState, Entry, Event, HouseRules, Phase, SetAside};

fn refuse(message: impl Into<String>) -> CampaignError {
    CampaignError::Refused(message.into())
}

/// What every action on an archived campaign is told (only unarchiving is not refused).
pub const ARCHIVED: &str =
    "This campaign is archived and read-only: nothing can change until the organiser unarchives it.";

/// Refuses any change to an archived campaign, in words.
pub fn require_not_archived(st: &CampaignState) -> Result<(), CampaignError> {
    if st.archived {
        Err(refuse(ARCHIVED))
    } else {
        Ok(())
    }
}

fn before_start(st: &CampaignState, what: &str) -> Result<(), CampaignError> {
    require_not_archived(st)?;
    if st.phase != Phase::Enlisting {
        return Err(refuse(format!(
            "The campaign has started: {what} only before the start."
        )));
    }
    Ok(())
}

fn force_of<'a>(
    st: &'a CampaignState,
    force: &str,
) -> Result<&'a super::state::Force, CampaignError> {
    st.forces
        .get(force)
        .ok_or_else(|| CampaignError::NotFound("There is no such force.".into()))
}

/// The player withdraws their force before the start.
pub fn withdraw(st: &CampaignState, force: &str) -> Result<Event, CampaignError> {
    before_start(st, "a force can be withdrawn")?;
    force_of(st, force)?;
    Ok(Event::ForceWithdrawn {
        force: force.to_string(),
    })
}

/// The organiser removes a player's force before the start, with a reason.
pub fn remove(st: &CampaignState, force: &str, reason: &str) -> Result<Event, CampaignError> {
    before_start(st, "a force can be removed")?;
    force_of(st, force)?;
    Ok(Event::ForceRemoved {
        force: force.to_string(),
        reason: reason.to_string(),
    })
}

/// The player enlists another roster for their force before the start: checked as an
/// enlistment is (the battle size, the allegiance warning, M-104), its ratings rolled afresh.
pub fn change_force(
    st: &CampaignState,
    rules: &dyn ForceRules,
    force: &str,
    roster: &RosterJson,
    seed: u64,
    accept_warning: bool,
) -> Result<Event, CampaignError> {
    before_start(st, "a force can be changed")?;
    let f = force_of(st, force)?;
    let settings = st
        .settings()
        .ok_or_else(|| refuse("The campaign does not exist."))?;
    let warning = warned(
        rules,
        roster,
        &settings.war,
        st.side_name(f.side),
        accept_warning,
    )?;
    let (roster, ratings, rolls) = checked_and_rated(settings, rules, roster, seed)?;
    Ok(Event::ForceChanged {
        force: force.to_string(),
        roster,
        ratings,
        rolls,
        warning,
    })
}

/// The organiser sets the house-rule switches before the start; the entry says what changed
/// in the system's own words. Switches the system hides keep their value.
pub fn change_rules(
    st: &CampaignState,
    rules: &dyn ForceRules,
    wanted: &HouseRules,
) -> Result<Event, CampaignError> {
    before_start(st, "the campaign rules can be changed")?;
    let now = st.rules();
    let mut next = now.clone();
    let mut changes = Vec::new();
    let wanted: Vec<(&str, bool)> = wanted
        .switches()
        .iter()
        .map(|(id, _, on)| (*id, *on))
        .collect();
    for (id, label, on) in now.switches() {
        let Some(label) = rules.switch_label(id, label) else {
            continue;
        };
        let want = wanted
            .iter()
            .find(|(w, _)| *w == id)
            .map_or(on, |(_, v)| *v);
        if want != on {
            next.set(id, want);
            changes.push(format!("{label}: {}", if want { "on" } else { "off" }));
        }
    }
    if changes.is_empty() {
        return Err(refuse(
            "Nothing was changed: every switch is as it was.".to_string(),
        ));
    }
    Ok(Event::HouseRulesChanged {
        rules: next,
        changes,
    })
}

/// A commander's post whose holder came by field promotion (a `commander_replaced` entry that
/// stands), with the name he goes by now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromotedOfficer {
    pub force: String,
    pub commander: String,
    pub name: String,
}

/// The promoted officers of every force still in the campaign, in the order they were
/// promoted (each post once). Entries set aside by a voided battle do not count.
pub fn promoted_officers(
    entries: &[Entry],
    st: &CampaignState,
    rules: &dyn ForceRules,
) -> Vec<PromotedOfficer> {
    let aside = SetAside::of(entries);
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for e in entries {
        if aside.contains(e.seq) {
            continue;
        }
        let Event::CommanderReplaced {
            force, commander, ..
        } = &e.event
        else {
            continue;
        };
        if !seen.insert((force.clone(), commander.clone())) {
            continue;
        }
        let Some(f) = st.forces.get(force) else {
            continue;
        };
        let Ok(shape) = rules.shape(&f.roster) else {
            continue;
        };
        let name = shape
            .commanders()
            .find(|c| &c.id == commander)
            .map(|c| c.name.clone());
        if let Some(name) = name {
            out.push(PromotedOfficer {
                force: force.clone(),
                commander: commander.clone(),
                name,
            });
        }
    }
    out
}

/// The organiser names a promoted officer: 1 to 100 characters, a commander made by field
/// promotion (M-103's reminder names posts without a name; a promoted officer gets a number
/// until he is named).
pub fn rename_officer(
    entries: &[Entry],
    st: &CampaignState,
    rules: &dyn ForceRules,
    force: &str,
    commander: &str,
    name: &str,
) -> Result<Event, CampaignError> {
    require_not_archived(st)?;
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 100 {
        return Err(CampaignError::Field(super::error::FieldProblem::new(
            "name",
            "Give a name of 1 to 100 characters.",
        )));
    }
    let officer = promoted_officers(entries, st, rules)
        .into_iter()
        .find(|o| o.force == force && o.commander == commander)
        .ok_or_else(|| {
            CampaignError::NotFound(
                "That is not an officer made by field promotion in this campaign.".into(),
            )
        })?;
    if officer.name == name {
        return Err(refuse(format!("{name} already goes by that name.")));
    }
    Ok(Event::OfficerRenamed {
        force: force.to_string(),
        commander: commander.to_string(),
        from: officer.name,
        name: name.to_string(),
    })
}

/// Archives a campaign (any phase): hidden from lists, read-only.
pub fn archive(st: &CampaignState) -> Result<Event, CampaignError> {
    if st.archived {
        return Err(refuse("The campaign is already archived."));
    }
    Ok(Event::Archived)
}

pub fn unarchive(st: &CampaignState) -> Result<Event, CampaignError> {
    if !st.archived {
        return Err(refuse("The campaign is not archived."));
    }
    Ok(Event::Unarchived)
}

/// Whether the campaign may be deleted: only before the start, and not while archived.
pub fn may_delete(st: &CampaignState) -> Result<(), CampaignError> {
    require_not_archived(st)?;
    if st.phase != Phase::Enlisting {
        return Err(refuse(
            "The campaign has started, so it cannot be deleted: its log is the record of what \
             was played. Archive it instead.",
        ));
    }
    Ok(())
}

/// Turns the public read-only page on (a fresh link) or off (the old link stops working).
pub fn public_page(st: &CampaignState, on: bool) -> Result<Event, CampaignError> {
    require_not_archived(st)?;
    match (on, st.public) {
        (true, true) => Err(refuse(
            "The public page is already on; turn it off first for a new link.",
        )),
        (false, false) => Err(refuse("The public page is already off.")),
        (true, false) => Ok(Event::PublicPageOn),
        (false, true) => Ok(Event::PublicPageOff),
    }
}
