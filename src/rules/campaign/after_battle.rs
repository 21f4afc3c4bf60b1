//! What follows a campaign battle, as log entries: the result, the loser's retreat or
//! surrender, casualty rolls, field promotions, experience, and — when it was the turn's
//! last battle — the end of the turn.

use std::collections::BTreeMap;

use super::aftermath::{casualty_roll, promotion_rating, Casualty};
use super::error::CampaignError;
pub use super::forces_api::{BattleReport, ElementEnd};
use super::forces_api::{Carried, ForceRules, ForceShape};
use super::state::{BattleSite, BattleStatus, CampaignState, Event, Force, Phase};
use super::turn::{end_turn, ending_reason, retreat_place, the_end};
use crate::rules::dice::Dice;
use crate::rules::system::BattleSide as Side;

fn refuse(message: impl Into<String>) -> CampaignError {
    CampaignError::Refused(message.into())
}

fn shape_of(rules: &dyn ForceRules, f: &Force) -> Result<ForceShape, CampaignError> {
    rules
        .shape(&f.roster)
        .map_err(|e| CampaignError::Invalid(format!("force {}: {e}", f.id)))
}

/// The entries that follow battle `no`, and the end of the turn if it was the last battle.
pub fn resolve_battle(
    state: &CampaignState,
    rules_of_system: &dyn ForceRules,
    no: u32,
    report: &BattleReport,
    seed: u64,
) -> Result<Vec<Event>, CampaignError> {
    let battle = state
        .battle(no)
        .ok_or_else(|| refuse("There is no such battle in this campaign."))?
        .clone();
    if battle.status != BattleStatus::Pending {
        return Err(refuse("This battle has already been resolved."));
    }
    let rules = state.rules();
    let mut dice = Dice::from_seed(seed);
    let mut events = vec![Event::BattleFought {
        battle: no,
        result: report.result.clone(),
    }];
    let mut work = state.clone();
    work.apply(rules_of_system, 0, &events[0])?;
    let force_of = |side: Side| match side {
        Side::Attacker => battle.attacker.clone(),
        Side::Defender => battle.defender.clone(),
    };
    let battle_name = match &battle.site {
        BattleSite::Place { .. } => format!("the battle at {}", battle.name),
        BattleSite::Route { .. } => format!("the fight on {}", battle.name),
    };
    let push = |work: &mut CampaignState, events: &mut Vec<Event>, e: Event| {
        let r = work.apply(rules_of_system, 0, &e);
        events.push(e);
        r
    };

    // Movement: the loser falls back (on a tie, the attacker does — M-80); the winner of a
    // battle on a route goes on to its destination.
    let loser_side = match report.result.winner.as_deref() {
        Some("attacker") => Side::Defender,
        Some("defender") => Side::Attacker,
        _ => Side::Attacker,
    };
    let winner_side = match loser_side {
        Side::Attacker => Side::Defender,
        Side::Defender => Side::Attacker,
    };
    let tie = report.result.winner.is_none();
    let side_forces = |side: Side| {
        let mut ids = vec![force_of(side)];
        ids.extend(match side {
            Side::Attacker => battle.attacker_support.clone(),
            Side::Defender => battle.defender_support.clone(),
        });
        ids
    };
    let losers: Vec<String> = match &battle.site {
        // On a route: a tie sends both back where they started (they are there already).
        BattleSite::Route { .. } if tie => Vec::new(),
        // The winners go on to their destination, which is where the losers started: the
        // losers are driven back there and must fall back from it in turn (M-91).
        BattleSite::Route {
            attacker_to,
            defender_to,
            ..
        } => {
            let to = match winner_side {
                Side::Attacker => attacker_to,
                Side::Defender => defender_to,
            };
            for w in side_forces(winner_side) {
                if let Some(from) = work
                    .forces
                    .get(&w)
                    .filter(|f| f.active())
                    .map(|f| f.place.clone())
                {
                    push(
                        &mut work,
                        &mut events,
                        Event::Moved {
                            force: w,
                            from,
                            to: to.clone(),
                            route: None,
                        },
                    )?;
                }
            }
            side_forces(loser_side)
        }
        BattleSite::Place { .. } => side_forces(loser_side),
    };
    let leaving: Vec<&str> = losers.iter().map(String::as_str).collect();
    for id in &losers {
        let Some(f) = work.forces.get(id).filter(|f| f.active()).cloned() else {
            continue;
        };
        let from = f.place.clone();
        // With surrender switched off, a trapped force falls back further, to the nearest place
        // with no enemy in it (M-81); with none anywhere it still surrenders.
        let to = retreat_place(&work, &f, &from, &leaving).or_else(|| {
            if rules.surrender {
                None
            } else {
                nearest_free_place(&work, &f, &from, &leaving)
            }
        });
        let e = match to {
            Some(to) => Event::Retreated {
                force: id.clone(),
                from,
                to,
            },
            None => Event::Surrendered {
                force: id.clone(),
                at: from,
            },
        };
        push(&mut work, &mut events, e)?;
    }

    // Casualties: surrendered forces are gone anyway.
    if rules.persistent_casualties {
        for el in &report.elements {
            let force_id = force_of(el.side);
            let Some(f) = work.forces.get(&force_id).filter(|f| f.active()) else {
                continue;
            };
            let shape = shape_of(rules_of_system, f)?;
            let Some(e) = shape.element(&el.id) else {
                continue;
            };
            // A system whose losses carry over as they stood says what is left: no roll.
            let (outcome, roll) = match &el.carried {
                Some(Carried::Lost) => (Casualty::Lost, 0),
                Some(Carried::Size(size)) if *size != e.size => {
                    let bank = f.bank;
                    push(
                        &mut work,
                        &mut events,
                        Event::ElementReduced {
                            force: force_id.clone(),
                            element: el.id.clone(),
                            size: size.clone(),
                            roll: 0,
                            battle: battle_name.clone(),
                            dropped: Vec::new(),
                            refund: 0,
                            bank,
                        },
                    )?;
                    continue;
                }
                Some(Carried::Size(_)) => continue,
                // Otherwise the system's own rule when it has one (a recovery of lost figures,
                // say), else the campaign's casualty roll.
                None => rules_of_system
                    .casualty(&f.roster, el, &mut dice)
                    .unwrap_or_else(|| casualty_roll(&mut dice, el.end, e.rank, 0)),
            };
            match outcome {
                Casualty::Unchanged => {}
                Casualty::Lost => push(
                    &mut work,
                    &mut events,
                    Event::ElementLost {
                        force: force_id.clone(),
                        element: el.id.clone(),
                        roll,
                        battle: battle_name.clone(),
                    },
                )?,
                Casualty::Reduced { size } => {
                    let r = rules_of_system
                        .reduce(&f.roster, &el.id, size)
                        .ok_or_else(|| {
                            CampaignError::Invalid(format!("{} has no smaller size", e.name))
                        })?;
                    let bank = (f.bank + r.refund).min(super::aftermath::BANK_CAP);
                    push(
                        &mut work,
                        &mut events,
                        Event::ElementReduced {
                            force: force_id.clone(),
                            element: el.id.clone(),
                            size: r.size,
                            roll,
                            battle: battle_name.clone(),
                            dropped: r.dropped,
                            refund: r.refund,
                            bank,
                        },
                    )?
                }
            }
        }
    }

    // Killed commanders: field promotion. A Group Commander who steps up to lead his
    // force moves to the Force Commander's post; `moved_up` remembers it by force (his old post
    // to his new one), so that experience follows the man and not the post he left (M-95).
    let mut moved_up: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for (side, id) in &report.killed {
        let force_id = force_of(*side);
        let Some(f) = work.forces.get(&force_id).filter(|f| f.active()).cloned() else {
            continue;
        };
        // Only the force's own commanders matter: an officer the battle itself promoted (and
        // who fell later in it) holds no post in the force.
        if !f.ratings.contains_key(id) {
            continue;
        }
        let fallen: Vec<&str> = report
            .killed
            .iter()
            .filter(|(s, _)| s == side)
            .map(|(_, c)| c.as_str())
            .collect();
        let field_promotion = rules.field_promotion;
        let roll_new = |dice: &mut Dice| {
            if rules_of_system.rated_commanders() {
                rules_of_system.replacement_rating(dice, field_promotion)
            } else {
                (0, "a new man takes the post (no rating to roll)".into())
            }
        };
        for e in replace_commander_by(
            &f,
            &shape_of(rules_of_system, &f)?,
            id,
            &fallen,
            &mut dice,
            &roll_new,
            &battle_name,
        ) {
            if let Event::CommanderReplaced {
                commander,
                stepped_up: true,
                ..
            } = &e
            {
                moved_up
                    .entry(force_id.clone())
                    .or_default()
                    .insert(commander.clone(), id.clone());
            }
            push(&mut work, &mut events, e)?;
        }
    }

    // The system's own experience for elements (ladders), rolled for each side's force.
    if rules.experience {
        for side in [Side::Attacker, Side::Defender] {
            let id = force_of(side);
            let Some(f) = work.forces.get(&id).filter(|f| f.active()).cloned() else {
                continue;
            };
            for p in rules_of_system.unit_experience(&f.roster, report, side, &mut dice) {
                if let Some(to) = p.to {
                    push(
                        &mut work,
                        &mut events,
                        Event::ElementPromoted {
                            force: id.clone(),
                            element: p.element,
                            to,
                            roll: p.roll,
                            battle: battle_name.clone(),
                        },
                    )?;
                }
            }
        }
    }

    // Experience of rated commanders after a major result, for the men who fought (M-95): the
    // commanders the force had when the battle began, less those killed or captured. One who
    // stepped up to lead the force rolls in the post he now holds; an officer promoted after
    // the battle did not fight it and does not roll.
    if rules.experience
        && rules_of_system.rated_commanders()
        && report.result.level == "major"
        && !tie
    {
        let fell = |side: Side, post: &str| {
            report
                .killed
                .iter()
                .any(|(s, c)| *s == side && c.as_str() == post)
        };
        let winner = force_of(winner_side);
        let fought: Vec<String> = state
            .forces
            .get(&winner)
            .map(|f| f.ratings.keys().cloned().collect())
            .unwrap_or_default();
        if let Some(f) = work.forces.get(&winner).filter(|f| f.active()).cloned() {
            let moved = moved_up.get(&winner);
            for post in fought.iter().filter(|p| !fell(winner_side, p)) {
                let now = moved.and_then(|m| m.get(post)).unwrap_or(post);
                let Some(rating) = f.ratings.get(now).copied() else {
                    continue;
                };
                let Some((rating_roll, roll)) = rules_of_system.experience(rating, true, &mut dice)
                else {
                    continue;
                };
                push(
                    &mut work,
                    &mut events,
                    Event::Experience {
                        force: winner.clone(),
                        commander: now.clone(),
                        roll,
                        rating_roll,
                        battle: battle_name.clone(),
                    },
                )?;
            }
        }
        // The Force Commander who lost: the one who led the force into the battle. If he fell
        // or was taken, nobody rolls; his successor did not lose the battle as its commander.
        // A system may have every commander of the beaten force roll (all its brigadiers, say).
        let loser = force_of(loser_side);
        let lost_it: Vec<String> = match state.forces.get(&loser) {
            Some(f) if rules_of_system.defeat_tests_every_commander() => {
                f.ratings.keys().cloned().collect()
            }
            Some(f) => shape_of(rules_of_system, f)?
                .commander
                .map(|c| c.id)
                .into_iter()
                .collect(),
            None => Vec::new(),
        };
        if let Some(f) = work.forces.get(&loser).filter(|f| f.active()).cloned() {
            for (cmd, rating) in lost_it
                .into_iter()
                .filter(|id| !fell(loser_side, id))
                .filter_map(|id| f.ratings.get(&id).map(|r| (id, *r)))
            {
                let Some((rating_roll, roll)) =
                    rules_of_system.experience(rating, false, &mut dice)
                else {
                    continue;
                };
                push(
                    &mut work,
                    &mut events,
                    Event::Experience {
                        force: loser.clone(),
                        commander: cmd,
                        roll,
                        rating_roll,
                        battle: battle_name.clone(),
                    },
                )?;
            }
        }
    }

    // A force with no elements left is out.
    for id in [&battle.attacker, &battle.defender] {
        if let Some(f) = work.forces.get(id).filter(|f| f.active()) {
            if shape_of(rules_of_system, f)?.elements().next().is_none() {
                push(
                    &mut work,
                    &mut events,
                    Event::Destroyed { force: id.clone() },
                )?;
            }
        }
    }

    if let Some(reason) = ending_reason(&work) {
        let end = the_end(&work, rules_of_system, reason);
        push(&mut work, &mut events, end)?;
    } else if work.phase == Phase::Battles && work.pending_battles().next().is_none() {
        for e in end_turn(&work, rules_of_system) {
            push(&mut work, &mut events, e)?;
        }
    }
    Ok(events)
}

/// The nearest place (by routes) other than `from` with no enemy force in it; ties by id.
fn nearest_free_place(
    state: &CampaignState,
    force: &Force,
    from: &str,
    leaving: &[&str],
) -> Option<String> {
    let enemy_at = |place: &str| {
        state
            .active_forces()
            .any(|f| f.side != force.side && f.place == place && !leaving.contains(&f.id.as_str()))
    };
    let mut seen = std::collections::BTreeSet::from([from.to_string()]);
    let mut frontier = vec![from.to_string()];
    while !frontier.is_empty() {
        let mut next: Vec<String> = Vec::new();
        for p in &frontier {
            for n in state.map.neighbours(p) {
                if seen.insert(n.to_string()) {
                    next.push(n.to_string());
                }
            }
        }
        next.sort();
        if let Some(free) = next.iter().find(|p| !enemy_at(p)) {
            return Some(free.clone());
        }
        frontier = next;
    }
    None
}

/// The entries for a commander killed in battle. R-12: a Group Commander is replaced at −1 on
/// his rating roll (a 1 stays a 1); a Force Commander is replaced by the best-rated Group
/// Commander, who keeps his rating, and that group gets a new commander by field promotion.
/// Commanders who fell in the same battle (`fallen`) are not candidates (M-83); the entry for
/// the post the promoted Group Commander left is marked `stepped_up`, since he did not fall.
/// With the house rule off, the replacement rolls in full.
#[allow(clippy::too_many_arguments)]
pub fn replace_commander(
    f: &Force,
    shape: &ForceShape,
    id: &str,
    fallen: &[&str],
    dice: &mut Dice,
    field_promotion: bool,
    rated: bool,
    battle: &str,
) -> Vec<Event> {
    let roll_new = |dice: &mut Dice| -> (u8, String) {
        if !rated {
            (0, "a new man takes the post (no rating to roll)".into())
        } else if field_promotion {
            let r = promotion_rating(dice);
            (r, format!("field promotion: rating roll {r} (d6 −1, R-12)"))
        } else {
            let r = dice.d6();
            (r, format!("rating roll {r}"))
        }
    };
    replace_commander_by(f, shape, id, fallen, dice, &roll_new, battle)
}

/// [`replace_commander`] with the successor's rating rolled by `roll_new` (the system's own
/// rule, [`super::forces_api::ForceRules::replacement_rating`]).
pub fn replace_commander_by(
    f: &Force,
    shape: &ForceShape,
    id: &str,
    fallen: &[&str],
    dice: &mut Dice,
    roll_new: &dyn Fn(&mut Dice) -> (u8, String),
    battle: &str,
) -> Vec<Event> {
    let mut events = Vec::new();
    let is_force_commander = shape.commander.as_ref().is_some_and(|c| c.id == id);
    // An unnamed commander is called by his post (in the middle of a log line, so lower case).
    let name_of = |cid: &str| -> String {
        let c = shape.commanders().find(|c| c.id == cid);
        match c {
            Some(c) if !c.name.is_empty() => c.name.clone(),
            Some(c) if c.group.is_some() => {
                let (n, g) = shape
                    .groups
                    .iter()
                    .enumerate()
                    .find(|(_, g)| g.commander.as_ref().is_some_and(|gc| gc.id == cid))
                    .map_or((0, ""), |(n, g)| (n + 1, g.name.as_str()));
                if g.is_empty() {
                    format!("the commander of group {n}")
                } else {
                    format!("the commander of {g}")
                }
            }
            _ => "the force's commander".into(),
        }
    };
    if is_force_commander {
        // The best Group Commander of a group that still has elements steps up.
        let best = shape
            .groups
            .iter()
            .filter(|g| !g.elements.is_empty())
            .filter_map(|g| {
                let cid = g.commander.as_ref()?.id.clone();
                if fallen.contains(&cid.as_str()) {
                    return None;
                }
                Some((
                    f.ratings.get(&cid).copied().unwrap_or(0),
                    cid,
                    g.name.clone(),
                ))
            })
            .max_by_key(|(r, cid, _)| (*r, std::cmp::Reverse((cid.len(), cid.clone()))));
        if let Some((rating, cid, group)) = best {
            let promoted = name_of(&cid);
            events.push(Event::CommanderReplaced {
                force: f.id.clone(),
                commander: id.to_string(),
                fallen: name_of(id),
                name: promoted.clone(),
                rating_roll: rating,
                roll: "promoted from his group, keeping his rating (R-12)".into(),
                battle: battle.to_string(),
                stepped_up: false,
            });
            let (r, words) = roll_new(dice);
            events.push(Event::CommanderReplaced {
                force: f.id.clone(),
                commander: cid.clone(),
                fallen: promoted,
                name: officer_name(f, &group),
                rating_roll: r,
                roll: words,
                battle: battle.to_string(),
                stepped_up: true,
            });
            return events;
        }
    }
    let group = shape
        .groups
        .iter()
        .find(|g| g.commander.as_ref().is_some_and(|c| c.id == id))
        .map(|g| g.name.clone())
        .unwrap_or_default();
    let (r, words) = roll_new(dice);
    events.push(Event::CommanderReplaced {
        force: f.id.clone(),
        commander: id.to_string(),
        fallen: name_of(id),
        name: officer_name(f, &group),
        rating_roll: r,
        roll: words,
        battle: battle.to_string(),
        stepped_up: false,
    });
    events
}

/// A name for a promoted officer: numbered within the force so that each can be told apart.
fn officer_name(f: &Force, group: &str) -> String {
    let n = f
        .history
        .values()
        .flatten()
        .filter(|h| h.contains("took command"))
        .count()
        + 1;
    if group.is_empty() {
        format!("Promoted officer no. {n}")
    } else {
        format!("Promoted officer no. {n} ({group})")
    }
}
