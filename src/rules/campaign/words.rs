//! Campaign log entries in words: each entry told against the campaign as it stood just before
//! it (where a force stood when it was ordered, what a place was called then). The words are
//! made once, when the entry is written, and stored beside it (`campaign_log.words`).

use super::movement::Order;
use super::state::{CampaignState, EngineStep, Event};
use super::ForceRules;

/// "Force name (player)", or the id of a force the state does not know.
pub fn force_label(st: &CampaignState, id: &str) -> String {
    st.forces.get(id).map_or(id.to_string(), |f| {
        format!("{} ({})", f.roster.name(), f.player)
    })
}

fn element_name(system: &dyn ForceRules, st: &CampaignState, force: &str, element: &str) -> String {
    st.forces
        .get(force)
        .and_then(|f| system.shape(&f.roster).ok())
        .and_then(|shape| shape.element(element).map(|e| e.name.clone()))
        .unwrap_or_else(|| format!("element {element}"))
}

fn commander_name(
    system: &dyn ForceRules,
    st: &CampaignState,
    force: &str,
    commander: &str,
) -> String {
    st.forces
        .get(force)
        .and_then(|f| system.shape(&f.roster).ok())
        .and_then(|shape| {
            shape
                .commanders()
                .find(|c| c.id == commander)
                .map(|c| c.name.clone())
        })
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| format!("commander {commander}"))
}

/// "1 battle", "3 battles".
pub fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

fn order_words(st: &CampaignState, force: &str, order: &Order) -> String {
    match order {
        Order::Hold => "hold".into(),
        Order::Move { route } => {
            let at = st.forces.get(force).map(|f| f.place.as_str()).unwrap_or("");
            match st.map.other_end(route, at) {
                Some(to) => format!("march to {}", st.place_name(to)),
                None => format!("move along route {route}"),
            }
        }
    }
}

/// One log entry in plain words. `st` is the current state, for names.
pub fn describe(system: &dyn ForceRules, st: &CampaignState, e: &Event) -> String {
    let place = |p: &str| st.place_name(p).to_string();
    match e {
        Event::Created { settings, .. } => format!(
            "Campaign \"{}\" created: {} {}, {} turns, {} against {}.",
            settings.name,
            settings.points,
            system.battle_size().unit,
            settings.turns,
            settings.sides[0].name,
            settings.sides[1].name
        ),
        Event::MapChanged { map, .. } => format!(
            "The organiser changed the map ({}, {}).",
            plural(map.places.len(), "place", "places"),
            plural(map.routes.len(), "route", "routes")
        ),
        Event::Enlisted {
            player,
            side,
            roster,
            rolls,
            warning,
            ..
        } => format!(
            "{player} enlisted {} for {}.{} Commander ratings: {}",
            roster.name(),
            st.side_name(*side),
            warning
                .as_ref()
                .map(|w| format!(" Enlisted despite the warning: {w}"))
                .unwrap_or_default(),
            rolls.join(" ")
        ),
        Event::Started => "The campaign began: turn 1, orders are open.".into(),
        Event::OrderGiven { force, order } => format!(
            "{} ordered to {}.",
            force_label(st, force),
            order_words(st, force, order)
        ),
        Event::TurnClosed { orders } => {
            let holds = orders.values().filter(|o| **o == Order::Hold).count();
            format!(
                "The turn closed and orders were revealed: {} moving, {} holding.",
                orders.len() - holds,
                holds
            )
        }
        Event::Moved {
            force, from, to, ..
        } => format!(
            "{} marched from {} to {}.",
            force_label(st, force),
            place(from),
            place(to)
        ),
        Event::BattleSet { battle, rolls } => format!(
            "Battle {}: {} attacks {} at {}, scenario {}. {}",
            battle.no,
            force_label(st, &battle.attacker),
            force_label(st, &battle.defender),
            battle.name,
            battle.scenario.replace('_', " "),
            rolls.join(" ")
        ),
        Event::BattleRearranged { battle, what } => format!(
            "The organiser rearranged battle {} at {}: {what}.",
            battle.no, battle.name
        ),
        Event::BattleFought { battle, result } => {
            // Scores read winner first.
            let (who, first, second) = match result.winner.as_deref() {
                Some("attacker") => ("the attacker won", result.attacker_vp, result.defender_vp),
                Some("defender") => ("the defender won", result.defender_vp, result.attacker_vp),
                _ => ("a tie", result.attacker_vp, result.defender_vp),
            };
            format!(
                "Battle {battle} {}: {who} ({} victory, {first}:{second}).",
                if result.method == "simulated" {
                    "was fought by the simulator"
                } else {
                    "was recorded from the table"
                },
                result.level,
            )
        }
        Event::Retreated { force, from, to } => format!(
            "{} fell back from {} to {}.",
            force_label(st, force),
            place(from),
            place(to)
        ),
        Event::Surrendered { force, at } => format!(
            "{} had nowhere to go and surrendered at {}.",
            force_label(st, force),
            place(at)
        ),
        Event::Destroyed { force } => {
            format!(
                "{} has no elements left and is out.",
                force_label(st, force)
            )
        }
        Event::ElementReduced {
            force,
            element,
            size,
            roll,
            dropped,
            refund,
            ..
        } => {
            // Roll 0: no die decided it (the battle's own losses carried over, or figures a
            // system's recovery rule did not bring back).
            let mut s = if *roll == 0 {
                format!(
                    "{}: {} comes out of the battle at {}.",
                    force_label(st, force),
                    element_name(system, st, force, element),
                    system.size_label(size)
                )
            } else {
                format!(
                    "{}: {} rolled {roll} and is reduced to {size}.",
                    force_label(st, force),
                    element_name(system, st, force, element)
                )
            };
            if !dropped.is_empty() {
                s.push_str(&format!(
                    " It loses {} ({refund} points back to the bank).",
                    dropped.join(", ")
                ));
            }
            s
        }
        Event::ElementLost {
            force,
            element,
            roll,
            ..
        } => format!(
            "{}: {} {}is lost.",
            force_label(st, force),
            element_name(system, st, force, element),
            // A loss no die decided (a gun taken, a unit that collapsed in the battle) names
            // no roll.
            if *roll == 0 {
                String::new()
            } else {
                format!("rolled {roll} and ")
            }
        ),
        Event::ElementPromoted {
            force,
            element,
            roll,
            ..
        } => format!(
            "{}: {} rolled {roll} and gains experience.",
            force_label(st, force),
            element_name(system, st, force, element)
        ),
        Event::CommanderReplaced {
            force,
            fallen,
            name,
            roll,
            stepped_up,
            ..
        } => format!(
            "{}: {fallen} {}; {name} takes command ({roll}).",
            force_label(st, force),
            if *stepped_up {
                format!(
                    "leaves his post to become {}",
                    system.words().commander_in_chief
                )
            } else {
                "has fallen".to_string()
            }
        ),
        Event::Experience {
            force,
            commander,
            roll,
            rating_roll,
            ..
        } => format!(
            "{}: experience roll for {}: {roll}; rating roll now {rating_roll}{}.",
            force_label(st, force),
            commander_name(system, st, force, commander),
            // Say what the roll now rates him, so nobody has to look the table up (issue 18).
            system
                .rating_words(*rating_roll)
                .map(|w| format!(" ({w})"))
                .unwrap_or_default()
        ),
        Event::PlaceTaken { place: p, side, .. } => {
            format!("{} took {}.", st.side_name(*side), place(p))
        }
        Event::Reinforced {
            force,
            gained,
            bank,
        } => format!(
            "{} gained {gained} reinforcement points ({bank} in the bank).",
            force_label(st, force)
        ),
        Event::Purchased { force, what, .. } => {
            format!("{} bought: {what}.", force_label(st, force))
        }
        Event::Reorganised { force, what, .. } => {
            format!("{} reorganised: {what}.", force_label(st, force))
        }
        Event::TurnBegan { turn } => format!("Turn {turn} began: orders are open."),
        Event::Ended { reason } => format!("The campaign ended. {reason}"),
        Event::BattleVoided { battle, reason, .. } => format!(
            "The organiser voided battle {battle}: {reason}. Its aftermath is set aside and it \
             is to be fought again."
        ),
        Event::Adjusted {
            force,
            side,
            points,
            bank,
            bank_after,
            reason,
        } => {
            let whom = match (force, side) {
                (Some(f), _) => force_label(st, f),
                (None, Some(s)) => st.side_name(*s).to_string(),
                _ => "?".into(),
            };
            // The bank never goes below 0 or over its cap, so say where it ended up.
            let bank = match bank_after {
                Some(after) if *bank != 0 => {
                    format!("{bank:+} reinforcement points (the bank now holds {after})")
                }
                _ => format!("{bank:+} reinforcement points"),
            };
            format!("The organiser adjusted {whom}: {points:+} campaign points, {bank}. Reason: {reason}")
        }
        Event::PlayerReplaced { force, player, .. } => {
            format!("{player} takes over force {force} from the player who left.")
        }
        Event::EngineConsent {
            battle,
            player,
            step,
        } => match step {
            EngineStep::Asked => format!(
                "{player} asked for the engine to fight battle {battle}; the other player \
                 accepts or declines."
            ),
            EngineStep::Accepted => format!(
                "{player} accepted the engine for battle {battle}: it fights the battle now."
            ),
            EngineStep::Declined => format!(
                "{player} declined the engine for battle {battle}: it is to be fought or \
                 recorded from the table."
            ),
            EngineStep::Withdrawn => {
                format!("{player} withdrew their request for the engine to fight battle {battle}.")
            }
        },
        Event::EngineOrdered { battle, reason } => {
            format!("The organiser had the engine decide battle {battle} alone. Reason: {reason}")
        }
        Event::ForceWithdrawn { force } => {
            format!("{} was withdrawn by its player.", force_label(st, force))
        }
        Event::ForceRemoved { force, reason } => format!(
            "The organiser removed {} from the campaign. Reason: {reason}",
            force_label(st, force)
        ),
        Event::ForceChanged {
            force,
            roster,
            rolls,
            warning,
            ..
        } => {
            let player = st.forces.get(force).map_or("?", |f| f.player.as_str());
            let mut s = format!(
                "{player} enlisted {} instead of {}.",
                roster.name(),
                st.forces
                    .get(force)
                    .map_or_else(|| force.clone(), |f| f.roster.name())
            );
            if let Some(w) = warning {
                s.push_str(&format!(" Enlisted despite the warning: {w}"));
            }
            if !rolls.is_empty() {
                s.push_str(&format!(" Commander ratings: {}", rolls.join(" ")));
            }
            s
        }
        Event::HouseRulesChanged { changes, .. } => {
            format!(
                "The organiser changed the campaign rules: {}.",
                changes.join("; ")
            )
        }
        Event::OfficerRenamed {
            force, from, name, ..
        } => format!(
            "{}: the organiser named the promoted officer {from} {name}.",
            force_label(st, force)
        ),
        Event::Archived => {
            "The organiser archived the campaign: it is read-only until unarchived.".into()
        }
        Event::Unarchived => "The organiser unarchived the campaign.".into(),
        Event::PublicPageOn => "The organiser turned on the public read-only page.".into(),
        Event::PublicPageOff => {
            "The organiser turned off the public page: its link no longer works.".into()
        }
        Event::DeadlineSet { .. }
        | Event::DeadlineCleared { .. }
        | Event::TurnLengthSet { .. }
        | Event::DeadlinePassed { .. } => super::deadlines::describe(e).unwrap_or_default(),
        Event::WebhookChanged { host: Some(host) } => format!(
            "The organiser set the campaign's webhook: turn closings and finished battles are \
             posted to {host}."
        ),
        Event::WebhookChanged { host: None } => {
            "The organiser removed the campaign's webhook.".into()
        }
    }
}
