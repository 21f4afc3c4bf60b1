//! Closing a campaign turn: orders revealed, moves made together, contacts turned into battles
//! (who attacks, which scenario), and the end of the turn once its battles are fought (places
//! taken, reinforcements, the next turn or the end of the campaign). Each function returns the
//! log entries to append; nothing here touches storage.

use std::collections::{BTreeMap, VecDeque};

use super::aftermath::reinforcement_points;
use super::error::CampaignError;
use super::forces_api::ForceRules;
use super::movement::{resolve_moves, Contact, ForceAt, Order, PlaceKind};
use super::state::{BattleSite, BattleStatus, CampaignBattle, CampaignState, Event, Force, Phase};
use crate::rules::dice::Dice;

/// A battle the turn has produced, still without its battle record.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannedBattle {
    pub battle: CampaignBattle,
    pub rolls: Vec<String>,
}

/// What closing a turn produces: the entries up to the battles, and the battles to set up.
#[derive(Debug, Clone, PartialEq)]
pub struct TurnPlan {
    pub events: Vec<Event>,
    pub battles: Vec<PlannedBattle>,
}

fn refuse(message: impl Into<String>) -> CampaignError {
    CampaignError::Refused(message.into())
}

/// Checks an order a player gives for their force.
pub fn check_order(state: &CampaignState, force: &str, order: &Order) -> Result<(), CampaignError> {
    if state.phase != Phase::Orders {
        return Err(refuse("Orders can only be given while a turn is open."));
    }
    let f = state
        .forces
        .get(force)
        .ok_or_else(|| refuse("There is no such force."))?;
    if !f.active() {
        return Err(refuse("This force is out of the campaign."));
    }
    if let Order::Move { route } = order {
        if state.map.other_end(route, &f.place).is_none() {
            return Err(CampaignError::Invalid(format!(
                "That route does not leave {}.",
                state.place_name(&f.place)
            )));
        }
    }
    Ok(())
}

/// A force's points as it stands (its size when the campaign picks the force that fights).
pub fn force_points(rules: &dyn ForceRules, f: &Force) -> u32 {
    rules.points(&f.roster).unwrap_or(0)
}

/// Closes the open turn: reveals the orders (a force without one holds), makes the moves and
/// plans a battle for every contact. `battle_no` is the number of the first new battle.
pub fn close_turn(
    state: &CampaignState,
    system: &dyn ForceRules,
    seed: u64,
) -> Result<TurnPlan, CampaignError> {
    if state.phase != Phase::Orders {
        return Err(refuse("There is no open turn to close."));
    }
    let rules = state.rules();
    let mut dice = Dice::from_seed(seed);
    let active: Vec<&Force> = state.active_forces().collect();
    let orders: BTreeMap<String, Order> = active
        .iter()
        .map(|f| {
            (
                f.id.clone(),
                state.orders.get(&f.id).cloned().unwrap_or(Order::Hold),
            )
        })
        .collect();
    let at: Vec<ForceAt> = active
        .iter()
        .map(|f| ForceAt {
            force: f.id.clone(),
            side: f.side,
            place: f.place.clone(),
        })
        .collect();
    let resolution = resolve_moves(&state.map, &at, &orders, rules.route_battles)?;
    let mut events = vec![Event::TurnClosed {
        orders: orders.clone(),
    }];
    for m in &resolution.moves {
        // A force stopped on a route stays where it was until its battle is fought.
        if resolution.positions.get(&m.force) == Some(&m.to) {
            events.push(Event::Moved {
                force: m.force.clone(),
                from: m.from.clone(),
                to: m.to.clone(),
                route: Some(m.route.clone()),
            });
        }
    }
    let first_no = state.battles.iter().map(|b| b.no).max().unwrap_or(0) + 1;
    let mut battles = Vec::new();
    // Each side's largest force fights; the others stand by and share its fate.
    let pick = |ids: &[String]| -> (String, Vec<String>) {
        let mut sorted: Vec<&String> = ids.iter().collect();
        sorted.sort_by_key(|id| {
            (
                std::cmp::Reverse(state.forces.get(*id).map_or(0, |f| force_points(system, f))),
                force_order(id),
            )
        });
        let first = sorted.first().map(|s| (*s).clone()).unwrap_or_default();
        (first, sorted.iter().skip(1).map(|s| (*s).clone()).collect())
    };
    for (next_no, contact) in (first_no..).zip(&resolution.contacts) {
        let mut rolls = Vec::new();
        let (site, name, attacker, defender, a_support, d_support, fort) = match contact {
            Contact::OnRoute { route, forces } => {
                // The forces marching each way; the largest of each fights, the others share its
                // fate.
                let from_of = |f: &String| {
                    resolution
                        .moves
                        .iter()
                        .find(|m| &m.force == f)
                        .map(|m| m.from.clone())
                        .unwrap_or_default()
                };
                let first_from = forces.first().map(from_of).unwrap_or_default();
                let (one_way, other_way): (Vec<String>, Vec<String>) = forces
                    .iter()
                    .cloned()
                    .partition(|f| from_of(f) == first_from);
                let (a, a_rest) = pick(&one_way);
                let (b, b_rest) = pick(&other_way);
                let (att, def) =
                    roll_for_attack(state, system, &mut dice, &a, &b, &mut rolls, &rules);
                let (a_sup, d_sup) = if att == a {
                    (a_rest, b_rest)
                } else {
                    (b_rest, a_rest)
                };
                let to_of = |f: &str| {
                    resolution
                        .moves
                        .iter()
                        .find(|m| m.force == f)
                        .map(|m| m.to.clone())
                        .unwrap_or_default()
                };
                let r = state.map.routes.iter().find(|r| &r.id == route);
                let name = r.map_or_else(
                    || route.clone(),
                    |r| {
                        format!(
                            "the {} between {} and {}",
                            r.kind.id(),
                            state.place_name(&r.from),
                            state.place_name(&r.to)
                        )
                    },
                );
                (
                    BattleSite::Route {
                        route: route.clone(),
                        attacker_to: to_of(&att),
                        defender_to: to_of(&def),
                    },
                    name,
                    att,
                    def,
                    a_sup,
                    d_sup,
                    false,
                )
            }
            Contact::InPlace {
                place,
                attackers,
                defenders,
                both_moved,
            } => {
                let (a_main, a_rest) = pick(attackers);
                let (d_main, d_rest) = pick(defenders);
                let (att, def, a_sup, d_sup) = if *both_moved {
                    let (att, def) = roll_for_attack(
                        state, system, &mut dice, &a_main, &d_main, &mut rolls, &rules,
                    );
                    if att == a_main {
                        (att, def, a_rest, d_rest)
                    } else {
                        (att, def, d_rest, a_rest)
                    }
                } else {
                    (a_main, d_main, a_rest, d_rest)
                };
                let is_fort = state
                    .map
                    .places
                    .iter()
                    .any(|p| &p.id == place && p.kind == PlaceKind::Fort);
                (
                    BattleSite::Place {
                        place: place.clone(),
                    },
                    state.place_name(place).to_string(),
                    att,
                    def,
                    a_sup,
                    d_sup,
                    is_fort,
                )
            }
        };
        let fort_assault = system.fort_assault().filter(|_| fort && rules.fort_assault);
        let scenario = if let Some(assault) = fort_assault {
            rolls.push(format!(
                "Attacking a fort: {}.",
                scenario_name(system, &assault)
            ));
            assault
        } else if let Some(s) = state
            .settings()
            .and_then(|s| s.scenario.clone())
            .filter(|s| system.scenario_name(s).is_some())
        {
            s
        } else {
            let (found, words) = system.roll_scenario(&mut dice);
            rolls.push(words);
            found
        };
        battles.push(PlannedBattle {
            battle: CampaignBattle {
                no: next_no,
                turn: state.turn,
                name,
                site,
                attacker,
                defender,
                attacker_support: a_support,
                defender_support: d_support,
                scenario,
                record: 0,
                status: BattleStatus::Pending,
                result: None,
            },
            rolls,
        });
    }
    Ok(TurnPlan { events, battles })
}

/// Force ids in enlistment order (`f2` before `f10`).
pub fn force_order(id: &str) -> (usize, String) {
    (id.len(), id.to_string())
}

/// A scenario's name in the system's words, or its id if the system does not know it.
pub fn scenario_name(system: &dyn ForceRules, id: &str) -> String {
    system.scenario_name(id).unwrap_or_else(|| id.to_string())
}

/// Both forces moved: roll off, +1 for the one with more Scout elements; re-roll ties.
fn roll_for_attack(
    state: &CampaignState,
    system: &dyn ForceRules,
    dice: &mut Dice,
    a: &str,
    b: &str,
    rolls: &mut Vec<String>,
    rules: &super::state::HouseRules,
) -> (String, String) {
    let scouts_of = |id: &str| state.forces.get(id).map_or(0, |f| system.scouts(&f.roster));
    let (sa, sb) = if rules.scout_bonus {
        (scouts_of(a), scouts_of(b))
    } else {
        (0, 0)
    };
    let name = |id: &str| {
        state
            .forces
            .get(id)
            .map_or(id.to_string(), |f| f.roster.name().to_string())
    };
    loop {
        let (ra, rb) = (dice.d6() + u8::from(sa > sb), dice.d6() + u8::from(sb > sa));
        if ra == rb {
            rolls.push(format!(
                "Roll for the attack: {} {ra}, {} {rb}; tied, rolled again.",
                name(a),
                name(b)
            ));
            continue;
        }
        let (w, l, rw, rl) = if ra > rb {
            (a, b, ra, rb)
        } else {
            (b, a, rb, ra)
        };
        rolls.push(format!(
            "Roll for the attack: {} {rw} beats {} {rl} and attacks.",
            name(w),
            name(l)
        ));
        return (w.to_string(), l.to_string());
    }
}

/// The end of a turn once every battle is fought: places change hands, forces are reinforced,
/// and the next turn begins or the campaign ends.
pub fn end_turn(state: &CampaignState, system: &dyn ForceRules) -> Vec<Event> {
    let mut events = Vec::new();
    let mut holders = state.holders.clone();
    // A side takes a place when one of its forces ends the turn there with no enemy present.
    let mut by_place: BTreeMap<&str, Vec<&Force>> = BTreeMap::new();
    let mut in_order: Vec<&Force> = state.active_forces().collect();
    in_order.sort_by_key(|f| force_order(&f.id));
    for f in in_order {
        by_place.entry(f.place.as_str()).or_default().push(f);
    }
    for (place, here) in by_place {
        let side = here[0].side;
        if here.iter().any(|f| f.side != side) {
            continue;
        }
        if holders.get(place).is_some_and(|h| h.side == side) {
            continue;
        }
        // Credit the force that moved in this turn, or else the first one there.
        let taker = here
            .iter()
            .find(|f| {
                state
                    .last_moves
                    .iter()
                    .any(|m| m.force == f.id && m.to == place)
            })
            .unwrap_or(&here[0]);
        events.push(Event::PlaceTaken {
            place: place.to_string(),
            side,
            force: Some(taker.id.clone()),
        });
        holders.insert(
            place.to_string(),
            super::state::Holder {
                side,
                taken_by: Some(taker.id.clone()),
            },
        );
    }
    let last = state.settings().map_or(0, |s| s.turns);
    let ending = ending_reason(state).is_some() || state.turn >= last;
    // No reinforcements after the last turn: there is no turn left to spend them in (M-97).
    if state.rules().reinforcements && !ending {
        // A system that prices no forces has nothing to buy with reinforcement points.
        for f in state
            .active_forces()
            .filter(|f| system.points(&f.roster).is_some())
        {
            let supply = state
                .map
                .places
                .iter()
                .filter(|p| p.supply && holders.get(&p.id).is_some_and(|h| h.side == f.side))
                .count() as u32;
            let (gained, bank) = reinforcement_points(f.bank, supply);
            events.push(Event::Reinforced {
                force: f.id.clone(),
                gained,
                bank,
            });
        }
    }
    if let Some(reason) = ending_reason(state) {
        events.push(the_end(state, system, reason));
    } else if state.turn >= last {
        events.push(the_end(
            state,
            system,
            format!("The last turn ({last}) is over."),
        ));
    } else {
        events.push(Event::TurnBegan {
            turn: state.turn + 1,
        });
    }
    events
}

/// Whether the campaign's forces gain reinforcement points: the switch is on and the rule system
/// prices its forces.
fn reinforced(state: &CampaignState, system: &dyn ForceRules) -> bool {
    state.rules().reinforcements
        && state
            .forces
            .values()
            .any(|f| system.points(&f.roster).is_some())
}

/// The campaign's end, and what it means for reinforcement points (M-97): none come after it,
/// and points left in a bank go unused.
pub fn the_end(state: &CampaignState, system: &dyn ForceRules, reason: String) -> Event {
    let reason = if reinforced(state, system) {
        format!(
            "{reason} The end brings no reinforcement points, and points left unspent go unused."
        )
    } else {
        reason
    };
    Event::Ended { reason }
}

/// What a force's player should know about its reinforcement points as the campaign ends
/// (M-97): in the last turn, that points not spent now go unused; once it is over, how many
/// were left. `None` at other times, or for a campaign without reinforcement points.
pub fn reinforcement_notice(
    state: &CampaignState,
    system: &dyn ForceRules,
    force: &Force,
) -> Option<String> {
    if !reinforced(state, system) || system.points(&force.roster).is_none() {
        return None;
    }
    let last = state.settings().map_or(0, |s| s.turns);
    match state.phase {
        Phase::Orders if state.turn >= last && force.active() => Some(
            "This is the campaign's last turn: no reinforcement points come after it, and points not spent now go unused."
                .into(),
        ),
        Phase::Ended if force.bank > 0 => Some(format!(
            "The campaign is over: the {} points left in the bank go unused.",
            force.bank
        )),
        _ => None,
    }
}

/// Why the campaign ends now, if a side has no forces left in the field.
pub fn ending_reason(state: &CampaignState) -> Option<String> {
    if state.forces.is_empty() {
        return None;
    }
    let in_field = state.sides_in_field();
    (0..2u8)
        .find(|s| !in_field.contains(s))
        .map(|s| format!("{} has no forces left in the field.", state.side_name(s)))
}

/// Where a beaten force falls back: an adjacent place with no enemy force, the nearest to its
/// home (by number of routes; ties by place id). None: nowhere to go.
pub fn retreat_place(
    state: &CampaignState,
    force: &Force,
    from: &str,
    exclude: &[&str],
) -> Option<String> {
    let home = state
        .settings()
        .and_then(|s| s.sides.get(usize::from(force.side)))
        .map(|s| s.home.clone())?;
    let distance = distances_from(state, &home);
    let enemy_at = |place: &str| {
        state
            .active_forces()
            .any(|f| f.side != force.side && f.place == place && !exclude.contains(&f.id.as_str()))
    };
    let mut options: Vec<&str> = state
        .map
        .neighbours(from)
        .into_iter()
        .filter(|p| !enemy_at(p))
        .collect();
    options.sort_by_key(|p| (distance.get(*p).copied().unwrap_or(u32::MAX), p.to_string()));
    options.first().map(|p| p.to_string())
}

fn distances_from(state: &CampaignState, start: &str) -> BTreeMap<String, u32> {
    let mut dist = BTreeMap::new();
    let mut queue = VecDeque::new();
    dist.insert(start.to_string(), 0u32);
    queue.push_back(start.to_string());
    while let Some(p) = queue.pop_front() {
        let d = dist[&p];
        for n in state.map.neighbours(&p) {
            if !dist.contains_key(n) {
                dist.insert(n.to_string(), d + 1);
                queue.push_back(n.to_string());
            }
        }
    }
    dist
}

/// The organiser's choices for a battle not yet fought: which force of each side fights (one
/// of those in the place) and the scenario. Returns the battle as rearranged and what changed,
/// in words.
pub fn rearrange(
    state: &CampaignState,
    system: &dyn ForceRules,
    no: u32,
    attacker: Option<&str>,
    defender: Option<&str>,
    scenario: Option<&str>,
) -> Result<(CampaignBattle, String), CampaignError> {
    let b = state
        .battle(no)
        .ok_or_else(|| refuse("There is no such battle in this campaign."))?;
    if b.status != BattleStatus::Pending {
        return Err(refuse("This battle has been decided; void it first."));
    }
    let mut new = b.clone();
    let mut what = Vec::new();
    let swap = |main: &mut String, support: &mut Vec<String>, to: &str, what: &mut Vec<String>| {
        if to == main.as_str() {
            return Ok(());
        }
        let i = support.iter().position(|f| f == to).ok_or_else(|| {
            CampaignError::Invalid("That force is not in the place to fight.".into())
        })?;
        let old = std::mem::replace(main, support.remove(i));
        support.push(old);
        what.push(format!(
            "{} fights instead",
            state
                .forces
                .get(to)
                .map_or(to.to_string(), |f| f.roster.name().to_string())
        ));
        Ok(())
    };
    if let Some(a) = attacker {
        swap(&mut new.attacker, &mut new.attacker_support, a, &mut what)?;
    }
    if let Some(d) = defender {
        swap(&mut new.defender, &mut new.defender_support, d, &mut what)?;
    }
    if let Some(s) = scenario {
        if system.scenario_name(s).is_none() {
            return Err(CampaignError::Invalid(
                "Choose a scenario from the list.".into(),
            ));
        }
        if s != new.scenario {
            new.scenario = s.to_string();
            what.push(format!("scenario {}", scenario_name(system, s)));
        }
    }
    if what.is_empty() {
        return Err(CampaignError::Invalid("Nothing would change.".into()));
    }
    Ok((new, what.join("; ")))
}
