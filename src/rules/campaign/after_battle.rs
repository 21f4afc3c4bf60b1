//! What follows a campaign battle, as log entries: the result, the loser's retreat or
//! surrender, casualty rolls, field promotions, experience, and — when it was the turn's
//! last battle — the end of the turn.

use serde::{Deserialize, Serialize};

use super::aftermath::{
    band_of_roll, casualty_roll, experience_roll, promotion_rating, roll_of_band, Casualty,
    EndState,
};
use super::error::CampaignError;
use super::state::{BattleResult, BattleSite, BattleStatus, CampaignState, Event, Force, Phase};
use super::turn::{end_turn, ending_reason, retreat_place};
use crate::rules::dice::Dice;
use crate::rules::systems::lotf::catalogue::Catalogue;
use crate::rules::systems::lotf::combat::Side;
use crate::rules::systems::lotf::types::Size;
use crate::rules::systems::lotf::validate::{price_element, sizes_for};

/// How one element ended a battle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ElementEnd {
    pub side: Side,
    pub id: String,
    pub end: EndState,
}

/// A fought battle as the campaign needs it, from the simulator or a tabletop report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleReport {
    pub result: BattleResult,
    pub elements: Vec<ElementEnd>,
    /// Commanders killed or captured, by side and id.
    pub killed: Vec<(Side, String)>,
}

fn refuse(message: impl Into<String>) -> CampaignError {
    CampaignError::Refused(message.into())
}

/// The entries that follow battle `no`, and the end of the turn if it was the last battle.
pub fn resolve_battle(
    state: &CampaignState,
    cat: &Catalogue,
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
    work.apply(0, &events[0])?;
    let force_of = |side: Side| match side {
        Side::Attacker => battle.attacker.clone(),
        Side::Defender => battle.defender.clone(),
    };
    let battle_name = match &battle.site {
        BattleSite::Place { .. } => format!("the battle at {}", battle.name),
        BattleSite::Route { .. } => format!("the fight on {}", battle.name),
    };
    let push = |work: &mut CampaignState, events: &mut Vec<Event>, e: Event| {
        let r = work.apply(0, &e);
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
            let Some(e) = f
                .roster
                .groups
                .iter()
                .flat_map(|g| &g.elements)
                .find(|e| e.id.as_deref() == Some(el.id.as_str()))
                .cloned()
            else {
                continue;
            };
            let sizes = sizes_for(cat, e.element_type);
            let rank = sizes.iter().position(|s| *s == e.size).unwrap_or(0);
            let (outcome, roll) = casualty_roll(&mut dice, el.end, rank as u8, 0);
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
                    let new_size = sizes.get(usize::from(size)).copied().unwrap_or(Size::Tiny);
                    let (dropped, refund) = drop_upgrades(cat, &e, new_size);
                    let bank = (f.bank + refund).min(super::aftermath::BANK_CAP);
                    push(
                        &mut work,
                        &mut events,
                        Event::ElementReduced {
                            force: force_id.clone(),
                            element: el.id.clone(),
                            size: new_size.id().into(),
                            roll,
                            battle: battle_name.clone(),
                            dropped,
                            refund,
                            bank,
                        },
                    )?
                }
            }
        }
    }

    // Killed commanders: field promotion.
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
        for e in replace_commander(
            &f,
            id,
            &fallen,
            &mut dice,
            rules.field_promotion,
            &battle_name,
        ) {
            push(&mut work, &mut events, e)?;
        }
    }

    // Experience after a major result.
    if rules.experience && report.result.level == "major" && !tie {
        let winner = force_of(winner_side);
        if let Some(f) = work.forces.get(&winner).filter(|f| f.active()).cloned() {
            let killed: Vec<&String> = report
                .killed
                .iter()
                .filter(|(s, _)| *s == winner_side)
                .map(|(_, id)| id)
                .collect();
            for (cmd, rating) in &f.ratings {
                if killed.contains(&cmd) {
                    continue;
                }
                let (band, roll) = experience_roll(&mut dice, band_of_roll(*rating), 3, true);
                let rating_roll = if band == band_of_roll(*rating) {
                    *rating
                } else {
                    roll_of_band(band)
                };
                push(
                    &mut work,
                    &mut events,
                    Event::Experience {
                        force: winner.clone(),
                        commander: cmd.clone(),
                        roll,
                        rating_roll,
                        battle: battle_name.clone(),
                    },
                )?;
            }
        }
        let loser = force_of(loser_side);
        if let Some(f) = work.forces.get(&loser).filter(|f| f.active()).cloned() {
            let fc = f.roster.force_commander.as_ref().and_then(|c| c.id.clone());
            if let Some((cmd, rating)) = fc.and_then(|id| f.ratings.get(&id).map(|r| (id, *r))) {
                let (band, roll) = experience_roll(&mut dice, band_of_roll(rating), 3, false);
                let rating_roll = if band == band_of_roll(rating) {
                    rating
                } else {
                    roll_of_band(band)
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
            if f.roster.element_count() == 0 {
                push(
                    &mut work,
                    &mut events,
                    Event::Destroyed { force: id.clone() },
                )?;
            }
        }
    }

    if let Some(reason) = ending_reason(&work) {
        push(&mut work, &mut events, Event::Ended { reason })?;
    } else if work.phase == Phase::Battles && work.pending_battles().next().is_none() {
        for e in end_turn(&work) {
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

/// Upgrades an element cannot carry at a smaller size, and the points they were worth.
fn drop_upgrades(
    cat: &Catalogue,
    e: &crate::rules::systems::lotf::roster::ElementDoc,
    new_size: Size,
) -> (Vec<String>, u32) {
    let mut dropped = Vec::new();
    let mut kept = e.clone();
    kept.size = new_size;
    let before = price_element(cat, &kept);
    kept.upgrades.retain(|u| {
        let ok = cat
            .upgrade(*u)
            .and_then(|d| d.sizes.as_ref())
            .is_none_or(|sizes| sizes.contains(&new_size));
        if !ok {
            dropped.push(u.id().to_string());
        }
        ok
    });
    let after = price_element(cat, &kept);
    (dropped, before.saturating_sub(after))
}

/// The entries for a commander killed in battle. R-12: a Group Commander is replaced at −1 on
/// his rating roll (a 1 stays a 1); a Force Commander is replaced by the best-rated Group
/// Commander, who keeps his rating, and that group gets a new commander by field promotion.
/// Commanders who fell in the same battle (`fallen`) are not candidates (M-83).
/// With the house rule off, the replacement rolls in full.
pub fn replace_commander(
    f: &Force,
    id: &str,
    fallen: &[&str],
    dice: &mut Dice,
    field_promotion: bool,
    battle: &str,
) -> Vec<Event> {
    let roll_new = |dice: &mut Dice| -> (u8, String) {
        if field_promotion {
            let r = promotion_rating(dice);
            (r, format!("field promotion: rating roll {r} (d6 −1, R-12)"))
        } else {
            let r = dice.d6();
            (r, format!("rating roll {r}"))
        }
    };
    let mut events = Vec::new();
    let is_force_commander = f
        .roster
        .force_commander
        .as_ref()
        .is_some_and(|c| c.id.as_deref() == Some(id));
    let name_of = |cid: &str| -> String {
        f.roster
            .force_commander
            .iter()
            .chain(f.roster.groups.iter().filter_map(|g| g.commander.as_ref()))
            .find(|c| c.id.as_deref() == Some(cid))
            .map(|c| c.name.clone())
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| "The commander".into())
    };
    if is_force_commander {
        // The best Group Commander of a group that still has elements steps up.
        let best = f
            .roster
            .groups
            .iter()
            .filter(|g| !g.elements.is_empty())
            .filter_map(|g| {
                let c = g.commander.as_ref()?;
                let cid = c.id.clone()?;
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
                roll: format!("{promoted} promoted from his group, keeping his rating (R-12)"),
                battle: battle.to_string(),
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
            });
            return events;
        }
    }
    let group = f
        .roster
        .groups
        .iter()
        .find(|g| g.commander.as_ref().and_then(|c| c.id.as_deref()) == Some(id))
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
