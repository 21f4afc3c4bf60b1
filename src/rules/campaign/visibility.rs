//! What a user may see of the orders of a turn still open: only their own force's. Nobody
//! else, the organiser included, sees an order before the turn closes and reveals them all
//! (the `TurnClosed` entry). How many orders are in is no secret.

use std::collections::BTreeMap;

use super::movement::Order;
use super::state::{CampaignState, Event, Phase};

/// Whether the user playing `viewer` (none: the organiser or anyone without a force) may see
/// the order `force` gave this turn.
pub fn visible_order(st: &CampaignState, viewer: Option<&str>, force: &str) -> bool {
    st.phase != Phase::Orders || viewer == Some(force)
}

/// This turn's orders as `viewer` may see them, by force.
pub fn visible_orders<'a>(
    st: &'a CampaignState,
    viewer: Option<&str>,
) -> BTreeMap<&'a str, &'a Order> {
    st.orders
        .iter()
        .filter(|(force, _)| visible_order(st, viewer, force))
        .map(|(force, order)| (force.as_str(), order))
        .collect()
}

/// Whether a log entry, logged in campaign turn `turn`, may be shown to `viewer` in full. A
/// hidden entry may only say that its force gave an order.
pub fn entry_visible(st: &CampaignState, viewer: Option<&str>, event: &Event, turn: u32) -> bool {
    match event {
        Event::OrderGiven { force, .. } => turn != st.turn || visible_order(st, viewer, force),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn march(route: &str) -> Order {
        Order::Move {
            route: route.into(),
        }
    }

    /// Turn 2 is open; f1 has marched on, f3 holds.
    fn turn_2_open() -> CampaignState {
        CampaignState {
            phase: Phase::Orders,
            turn: 2,
            orders: BTreeMap::from([
                ("f1".to_string(), march("r4")),
                ("f3".to_string(), Order::Hold),
            ]),
            ..CampaignState::default()
        }
    }

    fn given(force: &str) -> Event {
        Event::OrderGiven {
            force: force.into(),
            order: march("r4"),
        }
    }

    #[test]
    fn before_the_reveal_a_player_sees_only_their_own_order() {
        let st = turn_2_open();
        assert!(visible_order(&st, Some("f1"), "f1"));
        assert!(!visible_order(&st, Some("f1"), "f3"));
        assert!(!visible_order(&st, None, "f1"), "not even the organiser");
        assert_eq!(
            visible_orders(&st, Some("f3")),
            BTreeMap::from([("f3", &Order::Hold)])
        );
        assert!(visible_orders(&st, None).is_empty());
        assert!(
            visible_orders(&st, Some("f2")).is_empty(),
            "a player who has not ordered sees nothing"
        );
    }

    #[test]
    fn the_log_hides_other_players_orders_of_the_open_turn() {
        let st = turn_2_open();
        assert!(entry_visible(&st, Some("f1"), &given("f1"), 2));
        assert!(!entry_visible(&st, Some("f3"), &given("f1"), 2));
        assert!(!entry_visible(&st, None, &given("f1"), 2));
        assert!(
            entry_visible(&st, Some("f3"), &given("f1"), 1),
            "last turn's orders were revealed when it closed"
        );
        let reveal = Event::TurnClosed {
            orders: BTreeMap::new(),
        };
        assert!(entry_visible(&st, None, &reveal, 1));
        assert!(entry_visible(
            &st,
            Some("f3"),
            &Event::TurnBegan { turn: 2 },
            2
        ));
    }

    #[test]
    fn once_the_turn_closes_every_order_is_seen() {
        let st = CampaignState {
            phase: Phase::Battles,
            ..turn_2_open()
        };
        assert!(visible_order(&st, Some("f1"), "f3"));
        assert!(visible_order(&st, None, "f1"));
        assert!(entry_visible(&st, Some("f3"), &given("f1"), 2));
        assert!(entry_visible(&st, None, &given("f1"), 2));
    }
}
