//! A player's force in a campaign: enlisting it (a roster snapshot legal at the battle size,
//! commander ratings rolled once) and spending reinforcement points on it (restore a reduced
//! element, buy an upgrade or a new element) while it stays legal. What a roster is and what a
//! purchase does to it, the campaign's rule system says ([`ForceRules`]).

use std::collections::BTreeMap;

use super::error::CampaignError;
use super::forces_api::{ForceRules, Purchase, RosterJson};
use super::state::{CampaignState, Event, Force, Phase};
use crate::rules::dice::Dice;

fn refuse(message: impl Into<String>) -> CampaignError {
    CampaignError::Refused(message.into())
}

fn invalid(message: impl Into<String>) -> CampaignError {
    CampaignError::Invalid(message.into())
}

/// Enlists a force: checks the roster at the battle size and rolls every commander's rating.
/// No allegiance warning is asked for ([`enlist_warned`] does).
pub fn enlist(
    state: &CampaignState,
    rules: &dyn ForceRules,
    user: i64,
    player: &str,
    side: u8,
    roster: &RosterJson,
    seed: u64,
) -> Result<Event, CampaignError> {
    enlist_warned(state, rules, user, player, side, roster, seed, None)
}

/// Enlists a force as [`enlist`] does, first asking the rule system whether the roster's nation
/// fought on that side (M-104) unless `accept_warning` is `None`: a warning refuses the
/// enlistment unless it is `Some(true)`, and is then kept in the log.
#[allow(clippy::too_many_arguments)]
pub fn enlist_warned(
    state: &CampaignState,
    rules: &dyn ForceRules,
    user: i64,
    player: &str,
    side: u8,
    roster: &RosterJson,
    seed: u64,
    accept_warning: Option<bool>,
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
    let warning = match accept_warning {
        Some(accept) => warned(rules, roster, &settings.war, state.side_name(side), accept)?,
        None => None,
    };
    let (roster, ratings, rolls) = checked_and_rated(settings, rules, roster, seed)?;
    Ok(Event::Enlisted {
        force: state.next_force_id(),
        user,
        player: player.to_string(),
        side,
        roster,
        ratings,
        rolls,
        warning,
    })
}

/// The allegiance warning for enlisting `roster` on `side` (M-104): refused unless the player
/// accepted it, and then kept for the log.
pub(super) fn warned(
    rules: &dyn ForceRules,
    roster: &RosterJson,
    war: &str,
    side_name: &str,
    accept_warning: bool,
) -> Result<Option<String>, CampaignError> {
    match rules.allegiance_warning(roster, war, side_name) {
        Some(w) if !accept_warning => Err(CampaignError::Field(super::error::FieldProblem::new(
            "accept_warning",
            format!("{w} Confirm that you mean it to enlist it anyway."),
        ))),
        w => Ok(w),
    }
}

/// A roster as a force holds it, its commanders' ratings, and the rolls in words.
pub(super) type Rated = (RosterJson, BTreeMap<String, u8>, Vec<String>);

/// A roster read for enlisting, checked at the battle size, with every commander's rating
/// rolled: the roster as the force holds it, the ratings, the rolls in words.
pub(super) fn checked_and_rated(
    settings: &super::state::Settings,
    rules: &dyn ForceRules,
    roster: &RosterJson,
    seed: u64,
) -> Result<Rated, CampaignError> {
    let roster = rules
        .enlistment(roster, &settings.war, settings.points)
        .map_err(invalid)?;
    let problems = rules.problems(&roster, settings.points, false);
    if !problems.is_empty() {
        return Err(invalid(format!(
            "The roster is not legal at {} {}: {}",
            settings.points,
            rules.battle_size().unit,
            problems.join(" ")
        )));
    }
    let mut dice = Dice::from_seed(seed);
    let mut ratings = BTreeMap::new();
    let mut rolls = Vec::new();
    let shape = rules.shape(&roster).map_err(invalid)?;
    for c in shape.commanders() {
        let role = if c.group.is_some() {
            "Group Commander"
        } else {
            "Force Commander"
        };
        // Every commander is recorded, so a fallen one is replaced; only rated ones roll.
        if !rules.rated_commanders() {
            ratings.insert(c.id.clone(), 0);
            continue;
        }
        // A rating the roster gives (or 0 for a post the system does not rate) is kept.
        if let Some(given) = rules.given_rating(&roster, c) {
            if given > 0 {
                rolls.push(format!(
                    "{} ({role}): rating {given} as given, {}.",
                    if c.name.is_empty() { role } else { &c.name },
                    rules.rating_words(given).unwrap_or_default()
                ));
            }
            ratings.insert(c.id.clone(), given);
            continue;
        }
        let (roll, band) = rules.rate_commander(&mut dice);
        // An unnamed commander is called by his post alone, not "Force Commander (Force Commander)".
        rolls.push(if c.name.is_empty() {
            format!("{role}: rolled {roll}, {band}.")
        } else {
            format!("{} ({role}): rolled {roll}, {band}.", c.name)
        });
        ratings.insert(c.id.clone(), roll);
    }
    Ok((roster, ratings, rolls))
}

fn spendable<'a>(state: &'a CampaignState, force: &str) -> Result<&'a Force, CampaignError> {
    open_force(
        state,
        force,
        "Reinforcements are bought while a turn's orders are open.",
    )
}

/// Force `force` when it may change between battles: only while orders are open (between a
/// battle and the next turn's orders the organiser may still void the battle, and a change
/// would stand in the way), and only while it is in the campaign. `closed` says why not.
fn open_force<'a>(
    state: &'a CampaignState,
    force: &str,
    closed: &str,
) -> Result<&'a Force, CampaignError> {
    if state.phase != Phase::Orders {
        return Err(refuse(closed));
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
fn priced(
    state: &CampaignState,
    rules: &dyn ForceRules,
    f: &Force,
    bought: super::forces_api::Bought,
) -> Result<Event, CampaignError> {
    let (Some(before), Some(after)) = (rules.points(&f.roster), rules.points(&bought.roster))
    else {
        return Err(refuse(
            "This rule system prices no forces, so nothing can be bought.",
        ));
    };
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
    let problems = rules.problems_in_campaign(
        &bought.roster,
        state.points(),
        raised(rules, f, &bought.roster),
    );
    if !problems.is_empty() {
        return Err(invalid(format!(
            "The force would not be legal: {}",
            problems.join(" ")
        )));
    }
    Ok(Event::Purchased {
        force: f.id.clone(),
        what: format!("{} ({cost} points)", bought.what),
        cost,
        roster: bought.roster,
        full_size: bought.joined,
        element: bought.element,
    })
}

/// How many elements the force has raised: those on `roster` and every one it enlisted with or
/// bought and has since lost. Its percentage caps are judged on this, so they do not shrink
/// with its losses (M-96).
fn raised(rules: &dyn ForceRules, f: &Force, roster: &RosterJson) -> usize {
    let on_roster: Vec<String> = rules
        .element_sizes(roster)
        .map(|sizes| sizes.into_iter().map(|(id, _)| id).collect())
        .unwrap_or_default();
    let lost = f
        .full_sizes
        .keys()
        .filter(|id| !on_roster.contains(id))
        .count();
    on_roster.len() + lost
}

/// A reduced element that can buy one size back, and what that costs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RestoreOption {
    pub element: String,
    pub name: String,
    /// The sizes, in words.
    pub from: String,
    pub to: String,
    /// Points from the bank: what the force's total rises by.
    pub cost: u32,
}

/// What the system makes of a purchase for force `f`, not yet priced.
fn bought(
    rules: &dyn ForceRules,
    f: &Force,
    purchase: &Purchase,
) -> Result<super::forces_api::Bought, CampaignError> {
    let full_size = match purchase {
        Purchase::Restore { element } => f.full_sizes.get(element).map(String::as_str),
        _ => None,
    };
    rules
        .buy(&f.roster, purchase, full_size, &|id| {
            f.history.contains_key(id)
        })
        .map_err(CampaignError::Field)
}

/// Force `force` and its shape, when both can be read.
fn force_and_shape<'a>(
    state: &'a CampaignState,
    rules: &dyn ForceRules,
    force: &str,
) -> Option<(&'a Force, super::forces_api::ForceShape)> {
    let f = state.forces.get(force)?;
    Some((f, rules.shape(&f.roster).ok()?))
}

/// Every element of the force that can be restored one size, in roster order, with its price.
/// Whether the force may buy it now (an open turn, the bank, the battle size) is for
/// [`purchase`] to say.
pub fn restore_options(
    state: &CampaignState,
    rules: &dyn ForceRules,
    force: &str,
) -> Vec<RestoreOption> {
    let Some((f, before)) = force_and_shape(state, rules, force) else {
        return Vec::new();
    };
    let points_before = rules.points(&f.roster).unwrap_or(0);
    before
        .elements()
        .filter_map(|e| {
            let restore = Purchase::Restore {
                element: e.id.clone(),
            };
            let b = bought(rules, f, &restore).ok()?;
            let to = rules
                .shape(&b.roster)
                .ok()?
                .element(&e.id)?
                .size_label
                .clone();
            Some(RestoreOption {
                element: e.id.clone(),
                name: e.name.clone(),
                from: e.size_label.clone(),
                to,
                cost: rules
                    .points(&b.roster)
                    .unwrap_or(0)
                    .saturating_sub(points_before),
            })
        })
        .collect()
}

/// What makes force `force` illegal as it stands in the campaign (M-90: losses may leave it
/// short of groups or elements), for its page to say; empty when it is legal.
pub fn force_problems(state: &CampaignState, rules: &dyn ForceRules, force: &str) -> Vec<String> {
    state.forces.get(force).map_or_else(Vec::new, |f| {
        rules.problems_in_campaign(&f.roster, state.points(), raised(rules, f, &f.roster))
    })
}

/// A purchase the force can make now, with what it is in words and its price.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PurchaseOption {
    pub purchase: Purchase,
    /// What it is, as the log will say it, with its price ("Light Infantry for 1st Foot (10
    /// points)").
    pub what: String,
    pub cost: u32,
}

/// Every upgrade of the system's menu that some element of the force can buy now (the bank,
/// the battle size and the lists allow it), in roster order: a form offers these and nothing
/// that would be refused (issue 18).
pub fn upgrade_options(
    state: &CampaignState,
    rules: &dyn ForceRules,
    force: &str,
) -> Vec<PurchaseOption> {
    let Some((_, shape)) = force_and_shape(state, rules, force) else {
        return Vec::new();
    };
    let upgrades = rules.purchase_menu().upgrades;
    shape
        .elements()
        .flat_map(|e| {
            upgrades.iter().map(move |u| Purchase::Upgrade {
                element: e.id.clone(),
                upgrade: u.value.clone(),
            })
        })
        .filter_map(|p| option_of(state, rules, force, p))
        .collect()
}

/// Every type and size of new element the force can raise now into its first group (a form
/// offers these; the group the player picks is checked when they buy).
pub fn element_options(
    state: &CampaignState,
    rules: &dyn ForceRules,
    force: &str,
) -> Vec<PurchaseOption> {
    let Some(group) = force_and_shape(state, rules, force)
        .and_then(|(_, s)| s.groups.first().map(|g| g.id.clone()))
    else {
        return Vec::new();
    };
    let menu = rules.purchase_menu();
    menu.element_types
        .iter()
        .flat_map(|t| {
            let group = group.clone();
            menu.sizes.iter().map(move |z| Purchase::Element {
                group: group.clone(),
                name: String::new(),
                element_type: t.value.clone(),
                size: z.value.clone(),
                weapon: None,
            })
        })
        .filter_map(|p| option_of(state, rules, force, p))
        .collect()
}

fn option_of(
    state: &CampaignState,
    rules: &dyn ForceRules,
    force: &str,
    purchase: Purchase,
) -> Option<PurchaseOption> {
    match purchase_event(state, rules, force, &purchase) {
        Ok(Event::Purchased { what, cost, .. }) => Some(PurchaseOption {
            purchase,
            what,
            cost,
        }),
        _ => None,
    }
}

/// [`purchase`] without the open-turn check: what buying would come to.
fn purchase_event(
    state: &CampaignState,
    rules: &dyn ForceRules,
    force: &str,
    what: &Purchase,
) -> Result<Event, CampaignError> {
    let f = state
        .forces
        .get(force)
        .ok_or_else(|| refuse("There is no such force."))?;
    let b = bought(rules, f, what)?;
    priced(state, rules, f, b)
}

/// Buys something for a force from its bank: a size back for a reduced element (up to the
/// size it joined at), an upgrade, or a new element.
pub fn purchase(
    state: &CampaignState,
    rules: &dyn ForceRules,
    force: &str,
    what: &Purchase,
) -> Result<Event, CampaignError> {
    let f = spendable(state, force)?;
    let b = bought(rules, f, what)?;
    priced(state, rules, f, b)
}

/// An element as the reorganisation form and the log name it: its name, or its size and type
/// when it has none.
pub fn element_words(e: &super::forces_api::ElementRef) -> String {
    if e.name.trim().is_empty() {
        format!("{} {}", e.size_label, e.kind.to_lowercase())
    } else {
        e.name.clone()
    }
}

/// A group as pages and the log name it: its own name, or the system's word and its number
/// ("Group 2", "Brigade 3") when it has none, as the roster editor numbers them.
pub fn group_label(
    rules: &dyn ForceRules,
    group: &super::forces_api::GroupRef,
    n: usize,
) -> String {
    if group.name.is_empty() {
        format!("{} {}", rules.words().group, n + 1)
    } else {
        group.name.clone()
    }
}

/// Moves element `element` of force `force` into group `group` between battles (M-102): while a
/// turn's orders are open, like a purchase, and only when the force is no less legal after it
/// than before (a move may mend a group that losses left short, never break a full one).
pub fn reorganise(
    state: &CampaignState,
    rules: &dyn ForceRules,
    force: &str,
    element: &str,
    group: &str,
) -> Result<Event, CampaignError> {
    let f = open_force(
        state,
        force,
        "A force is reorganised while a turn's orders are open.",
    )?;
    let shape = rules.shape(&f.roster).map_err(refuse)?;
    let element_name = shape.element(element).map(element_words).ok_or_else(|| {
        CampaignError::Field(super::error::FieldProblem::new(
            "element",
            format!(
                "There is no such {} in the force.",
                rules.words().element.to_lowercase()
            ),
        ))
    })?;
    let label_of = |id: &str| {
        shape
            .groups
            .iter()
            .enumerate()
            .find(|(_, g)| g.id == id)
            .map(|(n, g)| group_label(rules, g, n))
    };
    let from = shape
        .groups
        .iter()
        .find(|g| g.elements.iter().any(|e| e.id == element))
        .and_then(|g| label_of(&g.id))
        .unwrap_or_default();
    let to = label_of(group).unwrap_or_default();
    let roster = rules
        .move_element(&f.roster, element, group)
        .map_err(CampaignError::Field)?;
    let before = rules.problems_in_campaign(&f.roster, state.points(), raised(rules, f, &f.roster));
    let after = rules.problems_in_campaign(&roster, state.points(), raised(rules, f, &roster));
    let new: Vec<&String> = after.iter().filter(|p| !before.contains(p)).collect();
    if !new.is_empty() {
        let words: Vec<&str> = new.iter().map(|p| p.as_str()).collect();
        return Err(invalid(format!(
            "The force would not be legal after that move: {}",
            words.join(" ")
        )));
    }
    // Losses may leave a group short (M-90), and a campaign force stays legal so; a move may
    // not make one short. Judged by the book's own minimums: a move may fold a short group's
    // last element into another, but never leave more groups short than there were.
    let strict_before = rules.problems(&f.roster, state.points(), false);
    let strict_after = rules.problems(&roster, state.points(), false);
    if strict_after.len() > strict_before.len() {
        let words: Vec<&str> = strict_after
            .iter()
            .filter(|p| !strict_before.contains(p))
            .map(String::as_str)
            .collect();
        return Err(invalid(format!(
            "That move would leave the force short: {}",
            words.join(" ")
        )));
    }
    Ok(Event::Reorganised {
        force: f.id.clone(),
        element: element.to_string(),
        what: format!("{element_name} from {from} to {to}"),
        roster,
    })
}
