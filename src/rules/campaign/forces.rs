//! A player's force in a campaign: enlisting it (a roster snapshot legal at the battle size,
//! commander ratings rolled once) and spending reinforcement points on it (restore a reduced
//! element, buy an upgrade or a new element) while it stays legal. Land of the Free forces;
//! another rule system adds its own functions here behind the same events.

use std::collections::BTreeMap;

use super::error::CampaignError;
use super::state::{CampaignState, Event, Force, Phase};
use crate::rules::dice::Dice;
use crate::rules::systems::lotf::catalogue::Catalogue;
use crate::rules::systems::lotf::roster::{ElementDoc, RosterDoc};
use crate::rules::systems::lotf::types::{ElementType, Size, Upgrade, War, Weapon};
use crate::rules::systems::lotf::validate::{price_roster, validate, FindingCode, Severity};

fn refuse(message: impl Into<String>) -> CampaignError {
    CampaignError::Refused(message.into())
}

fn invalid(message: impl Into<String>) -> CampaignError {
    CampaignError::Invalid(message.into())
}

/// What makes a force illegal in a campaign at the battle size, in plain words. Once casualties
/// have started, too few groups or elements per group are only warnings (campaign rules v1).
pub fn campaign_problems(
    cat: &Catalogue,
    roster: &RosterDoc,
    points: u32,
    casualties_started: bool,
) -> Vec<String> {
    let mut at_size = roster.clone();
    at_size.points_limit = Some(points);
    let report = validate(cat, &at_size);
    report
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .filter(|f| {
            !(casualties_started
                && matches!(
                    f.code,
                    FindingCode::TooFewGroups | FindingCode::TooFewElements
                ))
        })
        .map(|f| f.message.clone())
        .collect()
}

/// Enlists a force: checks the roster at the battle size and rolls every commander's rating.
#[allow(clippy::too_many_arguments)]
pub fn enlist(
    state: &CampaignState,
    cat: &Catalogue,
    user: i64,
    player: &str,
    side: u8,
    roster: &RosterDoc,
    seed: u64,
) -> Result<Event, CampaignError> {
    let settings = state
        .settings()
        .ok_or_else(|| refuse("The campaign does not exist."))?;
    if state.phase != Phase::Enlisting {
        return Err(refuse(
            "The campaign has started; ask the organiser to give you a force that is leaving.",
        ));
    }
    if usize::from(side) >= settings.sides.len() {
        return Err(invalid("Choose one of the two sides."));
    }
    if state.force_of_user(user).is_some() {
        return Err(refuse("You already have a force in this campaign."));
    }
    if roster.war.id() != settings.war {
        let war = War::from_id(&settings.war).map_or(settings.war.clone(), |w| w.label().into());
        return Err(invalid(format!(
            "This campaign is fought in the {war}; the roster is for the {}.",
            roster.war.label()
        )));
    }
    let mut roster = roster.clone();
    roster.assign_missing_ids();
    roster.points_limit = Some(settings.points);
    let problems = campaign_problems(cat, &roster, settings.points, false);
    if !problems.is_empty() {
        return Err(invalid(format!(
            "The roster is not legal at {} points: {}",
            settings.points,
            problems.join(" ")
        )));
    }
    let mut dice = Dice::from_seed(seed);
    let mut ratings = BTreeMap::new();
    let mut rolls = Vec::new();
    let commanders = roster
        .force_commander
        .iter()
        .map(|c| ("Force Commander", c))
        .chain(
            roster
                .groups
                .iter()
                .filter_map(|g| g.commander.as_ref())
                .map(|c| ("Group Commander", c)),
        );
    for (role, c) in commanders {
        let Some(id) = c.id.clone() else { continue };
        let roll = dice.d6();
        let band = cat
            .commander_rating_for_roll(roll)
            .map_or(String::new(), |r| r.name.clone());
        let name = if c.name.is_empty() { role } else { &c.name };
        rolls.push(format!("{name} ({role}): rolled {roll}, {band}."));
        ratings.insert(id, roll);
    }
    Ok(Event::Enlisted {
        force: state.next_force_id(),
        user,
        player: player.to_string(),
        side,
        roster,
        ratings,
        rolls,
    })
}

fn spendable<'a>(state: &'a CampaignState, force: &str) -> Result<&'a Force, CampaignError> {
    // Only while orders are open: between a battle and the next turn's orders the organiser may
    // still void the battle, and a purchase would stand in the way.
    if state.phase != Phase::Orders {
        return Err(refuse(
            "Reinforcements are bought while a turn's orders are open.",
        ));
    }
    let f = state
        .forces
        .get(force)
        .ok_or_else(|| refuse("There is no such force."))?;
    if !f.active() {
        return Err(refuse("This force is out of the campaign."));
    }
    Ok(f)
}

/// Prices a changed roster against the bank and checks it is still legal.
fn purchase(
    state: &CampaignState,
    cat: &Catalogue,
    f: &Force,
    new_roster: RosterDoc,
    what: String,
    full_size: Option<(String, String)>,
    element: Option<String>,
) -> Result<Event, CampaignError> {
    let before = price_roster(cat, &f.roster).total;
    let after = price_roster(cat, &new_roster).total;
    let cost = after.saturating_sub(before);
    if cost == 0 {
        return Err(invalid("That costs nothing, so there is nothing to buy."));
    }
    if cost > f.bank {
        return Err(invalid(format!(
            "That costs {cost} points; the force has {} in the bank.",
            f.bank
        )));
    }
    let problems = campaign_problems(cat, &new_roster, state.points(), true);
    if !problems.is_empty() {
        return Err(invalid(format!(
            "The force would not be legal: {}",
            problems.join(" ")
        )));
    }
    Ok(Event::Purchased {
        force: f.id.clone(),
        what: format!("{what} ({cost} points)"),
        cost,
        roster: new_roster,
        full_size,
        element,
    })
}

fn element_mut<'a>(roster: &'a mut RosterDoc, id: &str) -> Option<&'a mut ElementDoc> {
    roster
        .groups
        .iter_mut()
        .flat_map(|g| g.elements.iter_mut())
        .find(|e| e.id.as_deref() == Some(id))
}

/// A reduced element that can buy one size back, and what that costs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RestoreOption {
    pub element: String,
    pub name: String,
    pub from: Size,
    pub to: Size,
    /// Points from the bank: what the force's total rises by.
    pub cost: u32,
}

/// One size back for an element, priced as the purchase charges it, with the roster it leads
/// to; or why the element cannot be restored.
fn restore_option(
    cat: &Catalogue,
    f: &Force,
    element: &str,
) -> Result<(RestoreOption, RosterDoc), CampaignError> {
    let mut roster = f.roster.clone();
    let e = element_mut(&mut roster, element)
        .ok_or_else(|| invalid("There is no such element in the force."))?;
    let full = f
        .full_sizes
        .get(element)
        .and_then(|s| Size::from_id(s))
        .unwrap_or(e.size);
    if e.size >= full {
        return Err(invalid(format!("{} is already at full size.", e.name)));
    }
    let sizes = crate::rules::systems::lotf::validate::sizes_for(cat, e.element_type);
    let next = sizes
        .iter()
        .copied()
        .find(|s| *s > e.size)
        .ok_or_else(|| invalid("That element cannot grow."))?;
    let (name, from) = (e.name.clone(), e.size);
    e.size = next;
    let cost = price_roster(cat, &roster)
        .total
        .saturating_sub(price_roster(cat, &f.roster).total);
    let option = RestoreOption {
        element: element.to_string(),
        name,
        from,
        to: next,
        cost,
    };
    Ok((option, roster))
}

/// Every element of the force that can be restored one size, in roster order, with its price.
/// Whether the force may buy it now (an open turn, the bank, the battle size) is for
/// [`restore`] to say.
pub fn restore_options(state: &CampaignState, cat: &Catalogue, force: &str) -> Vec<RestoreOption> {
    let Some(f) = state.forces.get(force) else {
        return Vec::new();
    };
    f.roster
        .groups
        .iter()
        .flat_map(|g| &g.elements)
        .filter_map(|e| e.id.as_deref())
        .filter_map(|id| restore_option(cat, f, id).ok())
        .map(|(option, _)| option)
        .collect()
}

/// Restores a reduced element one size, up to the size it had when it joined, at the price
/// [`restore_options`] shows.
pub fn restore(
    state: &CampaignState,
    cat: &Catalogue,
    force: &str,
    element: &str,
) -> Result<Event, CampaignError> {
    let f = spendable(state, force)?;
    let (option, roster) = restore_option(cat, f, element)?;
    let what = format!("Restored {} to {}", option.name, option.to.label());
    purchase(state, cat, f, roster, what, None, Some(element.to_string()))
}

/// Buys an upgrade for an element.
pub fn buy_upgrade(
    state: &CampaignState,
    cat: &Catalogue,
    force: &str,
    element: &str,
    upgrade: Upgrade,
) -> Result<Event, CampaignError> {
    let f = spendable(state, force)?;
    let mut roster = f.roster.clone();
    let e = element_mut(&mut roster, element)
        .ok_or_else(|| invalid("There is no such element in the force."))?;
    if e.upgrades.contains(&upgrade) {
        return Err(invalid(format!("{} already has that upgrade.", e.name)));
    }
    e.upgrades.push(upgrade);
    let name = cat
        .upgrade(upgrade)
        .map_or(upgrade.label().to_string(), |u| u.name.clone());
    let what = format!("{name} for {}", e.name);
    purchase(state, cat, f, roster, what, None, Some(element.to_string()))
}

/// Buys a new element for a group.
#[allow(clippy::too_many_arguments)]
pub fn buy_element(
    state: &CampaignState,
    cat: &Catalogue,
    force: &str,
    group: &str,
    name: &str,
    element_type: ElementType,
    size: Size,
    weapon: Option<Weapon>,
) -> Result<Event, CampaignError> {
    let f = spendable(state, force)?;
    let mut roster = f.roster.clone();
    let g = roster
        .groups
        .iter_mut()
        .find(|g| g.id.as_deref() == Some(group))
        .ok_or_else(|| invalid("There is no such group in the force."))?;
    let name = name.trim();
    let name = if name.is_empty() {
        format!("New {}", element_type.label())
    } else {
        name.chars()
            .take(crate::rules::systems::lotf::roster::MAX_TEXT_CHARS)
            .collect()
    };
    let mut e = ElementDoc::new(&name, element_type, size);
    e.weapon = weapon;
    g.elements.push(e);
    roster.assign_missing_ids();
    let id = roster
        .groups
        .iter()
        .find(|g| g.id.as_deref() == Some(group))
        .and_then(|g| g.elements.last())
        .and_then(|e| e.id.clone())
        .unwrap_or_default();
    // History ids must never be reused: an id once used by an element lost earlier gets a new one.
    let id = if f.history.contains_key(&id) {
        let fresh = (1..)
            .map(|n| format!("e{n}"))
            .find(|c| !f.history.contains_key(c) && !roster_has_id(&roster, c))
            .unwrap_or(id);
        if let Some(e) = roster
            .groups
            .iter_mut()
            .find(|g| g.id.as_deref() == Some(group))
            .and_then(|g| g.elements.last_mut())
        {
            e.id = Some(fresh.clone());
        }
        fresh
    } else {
        id
    };
    let what = format!("{name}, {} {}", size.label(), element_type.label());
    purchase(
        state,
        cat,
        f,
        roster,
        what,
        Some((id, size.id().to_string())),
        None,
    )
}

fn roster_has_id(roster: &RosterDoc, id: &str) -> bool {
    roster
        .groups
        .iter()
        .flat_map(|g| &g.elements)
        .any(|e| e.id.as_deref() == Some(id))
}
