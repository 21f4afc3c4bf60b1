//! Voiding a campaign battle, with Land of the Free forces.

use std::collections::BTreeMap;

use crate::rules::campaign::movement::{Map, Order, Place, PlaceKind, Route, RouteKind};
use crate::rules::campaign::state::{
    BattleResult, BattleSite, CampaignBattle, HouseRules, Settings, SideSetup,
};
use crate::rules::campaign::state::{BattleStatus, CampaignState, Entry, Event};
use crate::rules::campaign::voiding::*;
use crate::rules::campaign::CampaignError;
use crate::rules::systems::lotf::roster::RosterDoc;
use crate::rules::systems::lotf::types::{Nation, War};

/// A log the way the service keeps it: entries numbered from 1, the state rebuilt from it.
struct Log(Vec<Entry>);

impl Log {
    fn push(&mut self, event: Event) -> i64 {
        let seq = self.0.len() as i64 + 1;
        self.0.push(Entry { seq, event });
        seq
    }

    fn state(&self) -> CampaignState {
        let cat = crate::rules::systems::lotf::Catalogue::builtin().expect("the catalogue loads");
        CampaignState::rebuild(&cat, &self.0).expect("the log rebuilds")
    }

    fn void_from(&self, battle: u32, record: RecordState) -> Result<i64, CampaignError> {
        void_from(&self.0, &self.state(), battle, record)
    }

    /// What the organiser's page offers, with every record in the same state.
    fn offered(&self, record: RecordState) -> Vec<u32> {
        voidable(&self.0, &self.state(), |_| record)
    }
}

fn place(id: &str) -> Place {
    Place {
        id: id.into(),
        name: id.to_uppercase(),
        kind: PlaceKind::Village,
        x: 0,
        y: 0,
        value: 1,
        supply: false,
    }
}

fn route(id: &str, from: &str, to: &str) -> Route {
    Route {
        id: id.into(),
        from: from.into(),
        to: to.into(),
        kind: RouteKind::Road,
    }
}

fn battle(no: u32, at: &str, attacker: &str, defender: &str) -> CampaignBattle {
    CampaignBattle {
        no,
        turn: 1,
        name: at.to_uppercase(),
        site: BattleSite::Place { place: at.into() },
        attacker: attacker.into(),
        defender: defender.into(),
        attacker_support: Vec::new(),
        defender_support: Vec::new(),
        scenario: "take_the_field".into(),
        record: 100 + i64::from(no),
        status: BattleStatus::Pending,
        result: None,
    }
}

fn fought(no: u32) -> Event {
    Event::BattleFought {
        battle: no,
        result: BattleResult {
            winner: Some("attacker".into()),
            level: "minor".into(),
            attacker_vp: 5,
            defender_vp: 3,
            method: "tabletop".into(),
            engine: None,
        },
    }
}

/// Turn 1 closed with two battles: f1 attacks f2 at B (battle 1), f3 attacks f4 at C
/// (battle 2). Neither is decided yet.
fn two_battles() -> Log {
    let side = |name: &str, home: &str| SideSetup {
        name: name.into(),
        home: home.into(),
    };
    let mut log = Log(Vec::new());
    log.push(Event::Created {
        settings: Settings {
            name: "Two fronts".into(),
            rule_system: "lotf".into(),
            war: "american_revolution".into(),
            points: 200,
            turns: 4,
            sides: [side("Crown", "a"), side("Congress", "b")],
            rules: HouseRules::default(),
            scenario: None,
        },
        map: Map {
            places: vec![place("a"), place("b"), place("c")],
            routes: vec![route("r1", "a", "b"), route("r2", "a", "c")],
        },
    });
    for (user, side) in [(1, 0), (2, 1), (3, 0), (4, 1)] {
        log.push(Event::Enlisted {
            force: format!("f{user}"),
            user,
            player: format!("Player {user}"),
            side,
            roster: crate::rules::campaign::RosterJson::from_value(
                &serde_json::to_value(RosterDoc::new(
                    "Force",
                    War::AmericanRevolution,
                    Nation::British,
                    None,
                ))
                .expect("a roster serialises"),
            ),
            ratings: BTreeMap::new(),
            rolls: Vec::new(),
            warning: None,
        });
    }
    log.push(Event::Started);
    log.push(Event::TurnClosed {
        orders: BTreeMap::new(),
    });
    for (force, to) in [("f1", "b"), ("f3", "c")] {
        log.push(Event::Moved {
            force: force.into(),
            from: "a".into(),
            to: to.into(),
            route: None,
        });
    }
    log.push(Event::BattleSet {
        battle: battle(1, "b", "f1", "f2"),
        rolls: Vec::new(),
    });
    log.push(Event::BattleSet {
        battle: battle(2, "c", "f3", "f4"),
        rolls: Vec::new(),
    });
    log
}

/// Battle 2 is decided first, then battle 1, which ends the turn.
fn both_decided_out_of_order() -> (Log, i64) {
    let mut log = two_battles();
    log.push(fought(2));
    log.push(Event::Retreated {
        force: "f4".into(),
        from: "c".into(),
        to: "b".into(),
    });
    let battle_1 = log.push(fought(1));
    log.push(Event::Retreated {
        force: "f2".into(),
        from: "b".into(),
        to: "c".into(),
    });
    log.push(Event::PlaceTaken {
        place: "b".into(),
        side: 0,
        force: Some("f1".into()),
    });
    log.push(Event::Reinforced {
        force: "f1".into(),
        gained: 10,
        bank: 10,
    });
    log.push(Event::TurnBegan { turn: 2 });
    (log, battle_1)
}

fn message(r: Result<i64, CampaignError>) -> String {
    r.expect_err("refused").to_string()
}

#[test]
fn the_latest_battle_decided_is_voidable_not_the_highest_numbered() {
    let (log, battle_1) = both_decided_out_of_order();
    assert_eq!(
        log.void_from(1, RecordState::Decided),
        Ok(battle_1),
        "its result and everything after it are set aside"
    );
    assert_eq!(
        message(log.void_from(2, RecordState::Decided)),
        "Only the latest battle can be voided."
    );
    assert_eq!(log.offered(RecordState::Decided), [1]);
}

#[test]
fn an_order_after_the_battle_makes_it_final() {
    let (mut log, _) = both_decided_out_of_order();
    log.push(Event::OrderGiven {
        force: "f1".into(),
        order: Order::Hold,
    });
    assert_eq!(
        message(log.void_from(1, RecordState::Decided)),
        "Orders, purchases or other changes have been made since that battle, so it can no \
         longer be voided; make a manual adjustment instead."
    );
    assert!(log.offered(RecordState::Decided).is_empty());
}

#[test]
fn a_purchase_or_an_adjustment_after_the_battle_makes_it_final_too() {
    let (mut log, _) = both_decided_out_of_order();
    log.push(Event::Adjusted {
        force: None,
        side: Some(1),
        points: 1,
        bank: 0,
        bank_after: None,
        reason: "a late arrival".into(),
    });
    assert!(log.void_from(1, RecordState::Decided).is_err());
    assert!(log.offered(RecordState::Decided).is_empty());
}

#[test]
fn a_battle_not_decided_is_voidable_only_with_a_result_waiting_or_disputed() {
    let log = two_battles();
    let next = log.0.len() as i64 + 1;
    assert_eq!(
        message(log.void_from(1, RecordState::NotFought)),
        "This battle has not been fought yet; there is nothing to void."
    );
    assert_eq!(
        log.void_from(1, RecordState::AwaitingConfirmation),
        Ok(next),
        "nothing is set aside: the void starts at its own entry"
    );
    assert_eq!(log.void_from(1, RecordState::Disputed), Ok(next));
    assert!(log.void_from(1, RecordState::Decided).is_err());
    assert!(log.offered(RecordState::NotFought).is_empty());
    assert_eq!(log.offered(RecordState::Disputed), [2, 1], "newest first");
    let st = log.state();
    let only_102_disputed = voidable(&log.0, &st, |record| {
        if record == 102 {
            RecordState::Disputed
        } else {
            RecordState::NotFought
        }
    });
    assert_eq!(only_102_disputed, [2]);
}

#[test]
fn a_voided_battle_is_set_up_again_and_cannot_be_voided_until_a_new_result_is_in() {
    let (mut log, battle_1) = both_decided_out_of_order();
    log.push(Event::BattleVoided {
        battle: 1,
        from_seq: battle_1,
        record: 201,
        reason: "the wrong forces were set up".into(),
    });
    assert_eq!(
        message(log.void_from(1, RecordState::NotFought)),
        "This battle has not been fought yet; there is nothing to void."
    );
    assert!(
        log.void_from(2, RecordState::Decided).is_err(),
        "the void itself is a decision taken after battle 2"
    );
    assert_eq!(log.offered(RecordState::NotFought), Vec::<u32>::new());
    assert_eq!(log.offered(RecordState::Disputed), [1]);
    // Fought again: the new result is the latest, the set-aside one no longer counts.
    let again = log.push(fought(1));
    assert_eq!(log.void_from(1, RecordState::Decided), Ok(again));
}

#[test]
fn no_such_battle_is_not_found() {
    let log = two_battles();
    assert_eq!(
        log.void_from(9, RecordState::Disputed),
        Err(CampaignError::NotFound("There is no such battle.".into()))
    );
}

#[test]
fn record_states_read_from_the_stored_status() {
    assert_eq!(RecordState::from_status("set_up"), RecordState::NotFought);
    assert_eq!(
        RecordState::from_status("provisional"),
        RecordState::AwaitingConfirmation
    );
    assert_eq!(RecordState::from_status("disputed"), RecordState::Disputed);
    assert_eq!(RecordState::from_status("confirmed"), RecordState::Decided);
    assert_eq!(RecordState::from_status("voided"), RecordState::NotFought);
    assert_eq!(RecordState::from_status(""), RecordState::NotFought);
}
