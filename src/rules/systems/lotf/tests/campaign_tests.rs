//! A campaign played through the pure engine: enlistment, orders, a contact, the battle's
//! aftermath, the end of the turn, purchases, a voided battle, and the log rebuilt from the
//! start giving the same state.

use crate::rules::campaign::after_battle::{resolve_battle, BattleReport, ElementEnd};
use crate::rules::campaign::aftermath::EndState;
use crate::rules::campaign::forces::{
    enlist, purchase, reorganise, restore_options, RestoreOption,
};
use crate::rules::campaign::forces_api::{ForceRules, Purchase, RosterJson};
use crate::rules::campaign::movement::Order;
use crate::rules::campaign::presets::preset;
use crate::rules::campaign::state::{
    BattleResult, BattleStatus, CampaignState, Entry, Event, HouseRules, Phase, Settings, SideSetup,
};
use crate::rules::campaign::turn::{close_turn, end_turn};
use crate::rules::campaign::voiding::{void_from, voidable, RecordState};
use crate::rules::campaign::CampaignError;
use crate::rules::system::BattleSide as Side;
use crate::rules::systems::lotf::catalogue::Catalogue;
use crate::rules::systems::lotf::roster::{CommanderDoc, ElementDoc, GroupDoc, RosterDoc};
use crate::rules::systems::lotf::types::{ElementType, Nation, Size, War};

fn cat() -> Catalogue {
    Catalogue::builtin().expect("the built-in catalogue loads")
}

/// A roster as the campaign keeps it.
fn json(r: &RosterDoc) -> RosterJson {
    RosterJson::from_value(&serde_json::to_value(r).expect("a roster serialises"))
}

/// A campaign force's roster read back as Land of the Free's document.
fn doc(r: &RosterJson) -> RosterDoc {
    crate::rules::systems::lotf::campaign::read(r)
        .expect("a Land of the Free roster")
        .into_owned()
}

fn restore(
    st: &CampaignState,
    cat: &Catalogue,
    force: &str,
    element: &str,
) -> Result<Event, CampaignError> {
    let element = element.to_string();
    purchase(st, cat, force, &Purchase::Restore { element })
}

#[allow(clippy::too_many_arguments)]
fn buy_element(
    st: &CampaignState,
    cat: &Catalogue,
    force: &str,
    group: &str,
    name: &str,
    element_type: ElementType,
    size: Size,
    weapon: Option<&str>,
) -> Result<Event, CampaignError> {
    let what = Purchase::Element {
        group: group.into(),
        name: name.into(),
        element_type: element_type.id().into(),
        size: size.id().into(),
        weapon: weapon.map(String::from),
    };
    purchase(st, cat, force, &what)
}

fn force(name: &str, nation: Nation) -> RosterDoc {
    let mut r = RosterDoc::new(name, War::AmericanRevolution, nation, Some(200));
    r.force_commander = Some(CommanderDoc {
        id: None,
        name: format!("General of {name}"),
    });
    r.groups = (1..=2)
        .map(|g| GroupDoc {
            id: None,
            name: format!("Brigade {g}"),
            commander: Some(CommanderDoc {
                id: None,
                name: format!("Colonel {g}"),
            }),
            elements: (1..=3)
                .map(|e| {
                    ElementDoc::new(
                        &format!("Regiment {g}-{e}"),
                        ElementType::Infantry,
                        Size::Medium,
                    )
                })
                .collect(),
        })
        .collect();
    r
}

/// A log that records every event it is given, as the web layer does.
struct Log {
    cat: Catalogue,
    state: CampaignState,
    entries: Vec<Entry>,
}

impl Log {
    fn push(&mut self, event: Event) {
        let seq = self.entries.len() as i64 + 1;
        self.state
            .apply(&self.cat, seq, &event)
            .expect("the event applies");
        self.entries.push(Entry { seq, event });
    }

    fn push_all(&mut self, events: Vec<Event>) {
        for e in events {
            self.push(e);
        }
    }
}

fn philadelphia(rules: HouseRules) -> Log {
    let p = preset("philadelphia-1777").expect("preset exists");
    let mut log = Log {
        cat: cat(),
        state: CampaignState::default(),
        entries: Vec::new(),
    };
    log.push(Event::Created {
        settings: Settings {
            name: "Brandywine".into(),
            rule_system: crate::rules::SystemId::Lotf.id().into(),
            war: "american_revolution".into(),
            points: 200,
            turns: 3,
            sides: [
                SideSetup {
                    name: p.sides[0].0.into(),
                    home: p.sides[0].1.into(),
                },
                SideSetup {
                    name: p.sides[1].0.into(),
                    home: p.sides[1].1.into(),
                },
            ],
            rules,
            scenario: None,
        },
        map: p.map,
    });
    let cat = cat();
    for (user, side, nation) in [
        (1, 0, Nation::British),
        (2, 0, Nation::British),
        (3, 1, Nation::American),
        (4, 1, Nation::American),
    ] {
        let e = enlist(
            &log.state,
            &cat,
            user,
            &format!("Player {user}"),
            side,
            &json(&force(&format!("Force {user}"), nation)),
            user as u64,
        )
        .expect("a legal force enlists");
        log.push(e);
    }
    log.push(Event::Started);
    log
}

fn give(log: &mut Log, force: &str, route_to: &str) {
    let place = log.state.forces[force].place.clone();
    let route = log
        .state
        .map
        .routes
        .iter()
        .find(|r| (r.from == place && r.to == route_to) || (r.to == place && r.from == route_to))
        .map(|r| r.id.clone())
        .expect("the places are joined");
    log.push(Event::OrderGiven {
        force: force.into(),
        order: Order::Move { route },
    });
}

fn close(log: &mut Log, seed: u64) -> Vec<u32> {
    let cat = cat();
    let plan = close_turn(&log.state, &cat, seed).expect("the turn closes");
    log.push_all(plan.events);
    let mut nos = Vec::new();
    for (i, mut b) in plan.battles.into_iter().enumerate() {
        b.battle.record = 100 + i as i64;
        nos.push(b.battle.no);
        log.push(Event::BattleSet {
            battle: b.battle,
            rolls: b.rolls,
        });
    }
    if nos.is_empty() {
        let events = end_turn(&log.state, &log.cat);
        log.push_all(events);
    }
    nos
}

fn attacker_wins_major(log: &Log, no: u32) -> BattleReport {
    let b = log.state.battle(no).expect("battle");
    let defender = &log.state.forces[&b.defender];
    let elements = doc(&defender.roster)
        .groups
        .iter()
        .flat_map(|g| &g.elements)
        .map(|e| ElementEnd {
            lost: 0,
            side: Side::Defender,
            id: e.id.clone().unwrap_or_default(),
            carried: None,
            end: EndState::Shattered,
        })
        .collect();
    let fc = doc(&defender.roster)
        .force_commander
        .as_ref()
        .and_then(|c| c.id.clone())
        .unwrap_or_default();
    BattleReport {
        result: BattleResult {
            winner: Some("attacker".into()),
            level: "major".into(),
            attacker_vp: 6,
            defender_vp: 2,
            method: "tabletop".into(),
            engine: None,
        },
        elements,
        // An officer promoted during the battle who fell later holds no post in the force.
        killed: vec![
            (Side::Defender, fc),
            (Side::Defender, "defender-promoted-6".into()),
        ],
    }
}

#[test]
fn enlistment_rolls_every_commander_and_refuses_a_second_force() {
    let log = philadelphia(HouseRules::default());
    assert_eq!(log.state.forces.len(), 4);
    for f in log.state.forces.values() {
        assert_eq!(
            f.ratings.len(),
            3,
            "a force commander and two group commanders"
        );
        assert!(f.ratings.values().all(|r| (1..=6).contains(r)));
    }
    let again = enlist(
        &log.state,
        &cat(),
        1,
        "Player 1",
        0,
        &json(&force("Another", Nation::British)),
        9,
    );
    assert!(again.is_err(), "the campaign has started");
}

#[test]
fn an_illegal_roster_cannot_enlist() {
    let mut log = philadelphia(HouseRules::default());
    log.state.phase = Phase::Enlisting;
    let mut big = force("Too big", Nation::British);
    for g in &mut big.groups {
        g.elements
            .push(ElementDoc::new("Extra", ElementType::Infantry, Size::Large));
    }
    let err =
        enlist(&log.state, &cat(), 9, "Nine", 0, &json(&big), 1).expect_err("over 200 points");
    assert!(err.to_string().contains("200"), "{err}");
}

#[test]
fn a_turn_with_a_contact_fights_then_ends_with_places_and_reinforcements() {
    let mut log = philadelphia(HouseRules::default());
    // Turn 1: the Crown's f1 marches to Cooch's Bridge; the Continentals' f3 to Chadds Ford.
    give(&mut log, "f1", "iron_hill");
    give(&mut log, "f3", "chadds_ford");
    assert!(close(&mut log, 11).is_empty());
    assert_eq!(log.state.turn, 2);
    assert_eq!(log.state.holders["iron_hill"].side, 0);
    assert_eq!(
        log.state.holders["iron_hill"].taken_by.as_deref(),
        Some("f1")
    );
    assert_eq!(
        log.state.forces["f1"].bank,
        10 + 5,
        "Head of Elk is a supply place"
    );
    // Turn 2: both march on Kennett Square and meet there.
    give(&mut log, "f1", "kennett");
    give(&mut log, "f3", "kennett");
    let battles = close(&mut log, 12);
    assert_eq!(battles.len(), 1);
    assert_eq!(log.state.phase, Phase::Battles);
    let b = log.state.battle(battles[0]).expect("battle").clone();
    assert_eq!(b.name, "Kennett Square");
    let mut sides = [b.attacker.clone(), b.defender.clone()];
    sides.sort();
    assert_eq!(sides, ["f1".to_string(), "f3".to_string()]);

    let report = attacker_wins_major(&log, b.no);
    let events = resolve_battle(&log.state, &cat(), b.no, &report, 99).expect("resolves");
    log.push_all(events);
    let loser = &log.state.forces[&b.defender];
    // Every element ended Shattered: each is lost on 1–3 or back one size smaller.
    assert!(doc(&loser.roster).element_count() < 6 || loser.history.len() >= 6 || !loser.active());
    for e in doc(&loser.roster).groups.iter().flat_map(|g| &g.elements) {
        assert_eq!(e.size, Size::Small, "{} survived, one size smaller", e.name);
    }
    if loser.active() {
        assert_ne!(loser.place, "kennett", "the loser fell back");
        let fc = doc(&loser.roster)
            .force_commander
            .as_ref()
            .and_then(|c| c.id.clone());
        assert!(
            loser.history[&fc.unwrap_or_default()][0]
                .contains("fell in the battle at Kennett Square"),
            "the force commander was replaced"
        );
    }
    assert_eq!(
        log.state.battle(b.no).map(|b| b.status),
        Some(BattleStatus::Resolved)
    );
    // The last battle ended the turn.
    assert_eq!(log.state.turn, 3);
    assert_eq!(
        log.state.holders["kennett"].side,
        log.state.forces[&b.attacker].side
    );

    // Standings by hand: 6 and 2 victory points, plus the value of places each side holds.
    let st = crate::rules::campaign::standings::standings(&log.state);
    let winner = st
        .players
        .iter()
        .find(|p| p.force == b.attacker)
        .expect("winner");
    assert_eq!((winner.battle_points, winner.record.won), (6, 1));
    let loser = st
        .players
        .iter()
        .find(|p| p.force == b.defender)
        .expect("loser");
    assert_eq!((loser.battle_points, loser.record.lost), (2, 1));
    for side in &st.sides {
        let held: u32 = log
            .state
            .holders
            .iter()
            .filter(|(_, h)| h.side == side.side)
            .map(|(p, _)| u32::from(log.state.map.place(p).map_or(0, |x| x.value)))
            .sum();
        let vp = if side.side == log.state.forces[&b.attacker].side {
            6
        } else {
            2
        };
        assert_eq!(side.total, i64::from(vp + held), "{}", side.name);
    }

    // The log rebuilds the state exactly.
    let rebuilt = CampaignState::rebuild(&log.cat, &log.entries).expect("rebuilds");
    assert_eq!(rebuilt, log.state);
}

#[test]
fn purchases_spend_the_bank_and_keep_the_force_legal() {
    let mut log = philadelphia(HouseRules::default());
    assert!(close(&mut log, 1).is_empty());
    assert_eq!(log.state.forces["f1"].bank, 15);
    let cat = cat();
    let expensive = buy_element(
        &log.state,
        &cat,
        "f1",
        "g1",
        "Grenadiers",
        ElementType::Infantry,
        Size::Medium,
        None,
    )
    .expect_err("25 points with 15 in the bank");
    assert!(expensive.to_string().contains("15"), "{expensive}");
    assert!(
        restore(&log.state, &cat, "f1", "e1").is_err(),
        "nothing is reduced"
    );
    // A name too long for a roster is refused, not cut short behind the player's back.
    let long = buy_element(
        &log.state,
        &cat,
        "f1",
        "g1",
        &"L".repeat(201),
        ElementType::Infantry,
        Size::Tiny,
        None,
    )
    .expect_err("a 201-character name");
    assert!(
        long.to_string().contains("at most 200 characters"),
        "{long}"
    );
    let bought = buy_element(
        &log.state,
        &cat,
        "f1",
        "g1",
        "Light company",
        ElementType::Infantry,
        Size::Tiny,
        None,
    );
    if let Ok(e) = bought {
        log.push(e);
        assert!(log.state.forces["f1"].bank < 15);
    }
    let rebuilt = CampaignState::rebuild(&log.cat, &log.entries).expect("rebuilds");
    assert_eq!(rebuilt, log.state);
}

#[test]
fn voiding_the_latest_battle_sets_aside_its_entries() {
    let mut log = philadelphia(HouseRules::default());
    give(&mut log, "f1", "iron_hill");
    give(&mut log, "f3", "chadds_ford");
    close(&mut log, 11);
    give(&mut log, "f1", "kennett");
    give(&mut log, "f3", "kennett");
    let no = close(&mut log, 12)[0];
    let before = log.state.clone();
    let from_seq = log.entries.len() as i64 + 1;
    let report = attacker_wins_major(&log, no);
    log.push_all(resolve_battle(&log.state, &cat(), no, &report, 5).expect("resolves"));
    assert_eq!(log.state.turn, 3);
    // The organiser's rule sets aside the battle's result and everything the engine did after.
    assert_eq!(
        void_from(&log.entries, &log.state, no, RecordState::Decided),
        Ok(from_seq)
    );
    assert_eq!(
        voidable(&log.entries, &log.state, |_| RecordState::Decided),
        [no]
    );
    let mut ordered = Log {
        cat: cat(),
        state: log.state.clone(),
        entries: log.entries.clone(),
    };
    ordered.push(Event::OrderGiven {
        force: "f1".into(),
        order: Order::Hold,
    });
    assert!(
        void_from(&ordered.entries, &ordered.state, no, RecordState::Decided).is_err(),
        "an order for turn 3 makes the battle final"
    );
    log.push(Event::BattleVoided {
        battle: no,
        from_seq,
        record: 555,
        reason: "wrong report".into(),
    });
    let rebuilt = CampaignState::rebuild(&log.cat, &log.entries).expect("rebuilds");
    assert_eq!(rebuilt.turn, 2);
    assert_eq!(rebuilt.phase, Phase::Battles);
    assert_eq!(
        rebuilt.forces, before.forces,
        "casualties and moves are undone"
    );
    assert_eq!(rebuilt.battle(no).map(|b| b.record), Some(555));
    assert_eq!(
        rebuilt.battle(no).map(|b| b.status),
        Some(BattleStatus::Pending)
    );
}

#[test]
fn with_casualties_switched_off_forces_come_back_whole() {
    let rules = HouseRules {
        persistent_casualties: false,
        ..HouseRules::default()
    };
    let mut log = philadelphia(rules);
    give(&mut log, "f1", "iron_hill");
    close(&mut log, 1);
    give(&mut log, "f1", "kennett");
    give(&mut log, "f3", "chadds_ford");
    close(&mut log, 2);
    give(&mut log, "f1", "chadds_ford");
    let no = close(&mut log, 3)[0];
    let report = attacker_wins_major(&log, no);
    let events = resolve_battle(&log.state, &cat(), no, &report, 7).expect("resolves");
    assert!(!events
        .iter()
        .any(|e| matches!(e, Event::ElementLost { .. } | Event::ElementReduced { .. })));
}

fn report(winner: &str, level: &str) -> BattleReport {
    BattleReport {
        result: BattleResult {
            winner: Some(winner.into()),
            level: level.into(),
            attacker_vp: if winner == "attacker" { 5 } else { 2 },
            defender_vp: if winner == "attacker" { 2 } else { 5 },
            method: "simulated".into(),
            engine: Some("test".into()),
        },
        elements: Vec::new(),
        killed: Vec::new(),
    }
}

#[test]
fn forces_that_cross_on_a_route_fight_there_and_the_winner_goes_on() {
    let mut log = philadelphia(HouseRules::default());
    give(&mut log, "f1", "iron_hill");
    give(&mut log, "f3", "chadds_ford");
    close(&mut log, 1);
    give(&mut log, "f3", "kennett");
    close(&mut log, 2);
    // Turn 3: each marches on the other's place along the same road.
    give(&mut log, "f1", "kennett");
    give(&mut log, "f3", "iron_hill");
    let no = close(&mut log, 3)[0];
    let b = log.state.battle(no).expect("battle").clone();
    assert!(
        matches!(
            b.site,
            crate::rules::campaign::state::BattleSite::Route { .. }
        ),
        "{b:?}"
    );
    assert_eq!(b.name, "the road between Cooch's Bridge and Kennett Square");
    // Both wait where they started until the battle is decided.
    assert_eq!(log.state.forces["f1"].place, "iron_hill");
    assert_eq!(log.state.forces["f3"].place, "kennett");
    let events =
        resolve_battle(&log.state, &cat(), no, &report("attacker", "minor"), 4).expect("resolves");
    log.push_all(events);
    let (winner, loser) = (
        &log.state.forces[&b.attacker],
        &log.state.forces[&b.defender],
    );
    let winner_goes_to = if b.attacker == "f1" {
        "kennett"
    } else {
        "iron_hill"
    };
    assert_eq!(winner.place, winner_goes_to, "the winner goes on");
    // The loser is driven back to where it started, where the winner arrives: it falls back
    // from there (M-91).
    assert!(
        !loser.active() || loser.place != winner.place,
        "the loser does not share a place with the winner"
    );
    assert_eq!(
        CampaignState::rebuild(&log.cat, &log.entries).expect("rebuilds"),
        log.state
    );
}

#[test]
fn with_route_battles_off_forces_pass_each_other() {
    let rules = HouseRules {
        route_battles: false,
        ..HouseRules::default()
    };
    let mut log = philadelphia(rules);
    give(&mut log, "f1", "iron_hill");
    give(&mut log, "f3", "chadds_ford");
    close(&mut log, 1);
    give(&mut log, "f3", "kennett");
    close(&mut log, 2);
    give(&mut log, "f1", "kennett");
    give(&mut log, "f3", "iron_hill");
    assert!(close(&mut log, 3).is_empty(), "no battle");
    assert_eq!(log.state.forces["f1"].place, "kennett");
    assert_eq!(log.state.forces["f3"].place, "iron_hill");
}

/// A triangle of places (and a wilderness beyond c): three Crown forces against one
/// Continental one.
fn triangle(rules: HouseRules) -> Log {
    use crate::rules::campaign::movement::{Map, Place, PlaceKind, Route, RouteKind};
    let place = |id: &str, kind| Place {
        id: id.into(),
        name: id.to_uppercase(),
        kind,
        x: 100,
        y: 100,
        value: 1,
        supply: false,
    };
    let route = |id: &str, a: &str, b: &str| Route {
        id: id.into(),
        from: a.into(),
        to: b.into(),
        kind: RouteKind::Road,
    };
    let mut log = Log {
        cat: cat(),
        state: CampaignState::default(),
        entries: Vec::new(),
    };
    log.push(Event::Created {
        settings: Settings {
            name: "Triangle".into(),
            rule_system: crate::rules::SystemId::Lotf.id().into(),
            war: "american_revolution".into(),
            points: 200,
            turns: 5,
            sides: [
                SideSetup {
                    name: "Crown".into(),
                    home: "a".into(),
                },
                SideSetup {
                    name: "Congress".into(),
                    home: "c".into(),
                },
            ],
            rules,
            scenario: Some("take_the_field".into()),
        },
        map: Map {
            places: vec![
                place("a", PlaceKind::Town),
                place("b", PlaceKind::Fort),
                place("c", PlaceKind::Town),
                place("d", PlaceKind::Wilderness),
            ],
            routes: vec![
                route("ab", "a", "b"),
                route("bc", "b", "c"),
                route("ac", "a", "c"),
                route("cd", "c", "d"),
            ],
        },
    });
    let cat = cat();
    for (user, side, nation) in [
        (1, 0, Nation::British),
        (2, 0, Nation::British),
        (3, 1, Nation::American),
        (4, 0, Nation::British),
    ] {
        let e = enlist(
            &log.state,
            &cat,
            user,
            "p",
            side,
            &json(&force("F", nation)),
            user as u64,
        )
        .expect("enlists");
        log.push(e);
    }
    log.push(Event::Started);
    // Turn 1: the Continentals occupy the fort at b.
    give(&mut log, "f3", "b");
    assert!(close(&mut log, 1).is_empty());
    log
}

#[test]
fn a_beaten_force_with_nowhere_to_go_surrenders_and_its_side_is_out() {
    let mut log = triangle(HouseRules::default());
    // Turn 2: one Crown force takes c, another attacks the fort at b, the third holds a.
    give(&mut log, "f1", "c");
    give(&mut log, "f2", "b");
    let no = close(&mut log, 2)[0];
    let b = log.state.battle(no).expect("battle").clone();
    assert_eq!((b.attacker.as_str(), b.defender.as_str()), ("f2", "f3"));
    assert_eq!(b.scenario, "frontal_assault", "attacking a fort");
    let events =
        resolve_battle(&log.state, &cat(), no, &report("attacker", "major"), 8).expect("resolves");
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::Surrendered { force, .. } if force == "f3")));
    log.push_all(events);
    assert_eq!(log.state.phase, Phase::Ended);
    assert!(log
        .state
        .ended
        .as_deref()
        .is_some_and(|r| r.contains("Congress has no forces left")));
}

#[test]
fn with_surrender_off_a_trapped_force_falls_back_further_and_forts_use_the_table() {
    let rules = HouseRules {
        surrender: false,
        fort_assault: false,
        ..HouseRules::default()
    };
    let mut log = triangle(rules);
    give(&mut log, "f1", "c");
    give(&mut log, "f2", "b");
    let no = close(&mut log, 2)[0];
    assert_eq!(
        log.state.battle(no).map(|b| b.scenario.as_str()),
        Some("take_the_field"),
        "the campaign's fixed scenario, not Frontal Assault"
    );
    let events =
        resolve_battle(&log.state, &cat(), no, &report("attacker", "minor"), 8).expect("resolves");
    assert!(!events
        .iter()
        .any(|e| matches!(e, Event::Surrendered { .. })));
    log.push_all(events);
    assert!(log.state.forces["f3"].active());
    assert_eq!(
        log.state.forces["f3"].place, "d",
        "through c, past the enemy, to the wilds"
    );
}

#[test]
fn the_organiser_may_pick_which_force_fights_and_the_scenario() {
    let mut log = triangle(HouseRules::default());
    // Two Crown forces march on the fort together.
    give(&mut log, "f1", "b");
    give(&mut log, "f2", "b");
    let no = close(&mut log, 2)[0];
    let b = log.state.battle(no).expect("battle").clone();
    assert_eq!(b.attacker_support.len(), 1, "the other stands by");
    let other = b.attacker_support[0].clone();
    let (new, what) = crate::rules::campaign::turn::rearrange(
        &log.state,
        &cat(),
        no,
        Some(&other),
        None,
        Some(crate::rules::systems::lotf::battle::ScenarioId::Ambush.id()),
    )
    .expect("rearranges");
    assert_eq!(new.attacker, other);
    assert_eq!(new.attacker_support, vec![b.attacker.clone()]);
    assert!(what.contains("Ambush"), "{what}");
    assert!(crate::rules::campaign::turn::rearrange(
        &log.state,
        &cat(),
        no,
        Some("f3"),
        None,
        None
    )
    .is_err());
}

#[test]
fn a_major_victory_gives_the_winners_experience_rolls_and_the_loser_one() {
    let mut log = triangle(HouseRules::default());
    give(&mut log, "f2", "b");
    let no = close(&mut log, 2)[0];
    let events =
        resolve_battle(&log.state, &cat(), no, &report("attacker", "major"), 3).expect("resolves");
    let rolls: Vec<&Event> = events
        .iter()
        .filter(|e| matches!(e, Event::Experience { .. }))
        .collect();
    // Three commanders of the winner, and the loser's Force Commander (if it did not surrender).
    assert!(rolls.len() >= 3, "{rolls:?}");
    for e in rolls {
        if let Event::Experience {
            roll, rating_roll, ..
        } = e
        {
            assert!((1..=6).contains(roll) && (1..=6).contains(rating_roll));
            // The log says what the new roll rates the commander (issue 18).
            let words = crate::rules::campaign::words::describe(&cat(), &log.state, e);
            let rating = cat()
                .commander_rating_for_roll(*rating_roll)
                .expect("a rating")
                .name
                .clone();
            assert!(
                words.contains(&format!("rating roll now {rating_roll} ({rating})")),
                "{words}"
            );
        }
    }
    let minor = {
        let mut log = triangle(HouseRules::default());
        give(&mut log, "f2", "b");
        let no = close(&mut log, 2)[0];
        resolve_battle(&log.state, &cat(), no, &report("attacker", "minor"), 3).expect("resolves")
    };
    assert!(!minor.iter().any(|e| matches!(e, Event::Experience { .. })));
}

#[test]
fn a_force_caught_at_its_start_fights_there_instead_of_on_the_road() {
    let mut log = philadelphia(HouseRules::default());
    // Turn 1: f1 to Cooch's Bridge, f3 to Chadds Ford, f4 to Wilmington.
    give(&mut log, "f1", "iron_hill");
    give(&mut log, "f3", "chadds_ford");
    give(&mut log, "f4", "fort_mifflin");
    close(&mut log, 1);
    give(&mut log, "f3", "kennett");
    give(&mut log, "f4", "wilmington");
    close(&mut log, 2);
    // Turn 3: f1 marches on Kennett while f3 marches on Cooch's Bridge (they would meet on the
    // road), but f4 marches on Cooch's Bridge from Wilmington too: f1 is caught at home.
    give(&mut log, "f1", "kennett");
    give(&mut log, "f3", "iron_hill");
    give(&mut log, "f4", "iron_hill");
    let nos = close(&mut log, 3);
    assert_eq!(nos.len(), 1, "one battle, in the place");
    let b = log.state.battle(nos[0]).expect("battle").clone();
    assert_eq!(
        b.site,
        crate::rules::campaign::state::BattleSite::Place {
            place: "iron_hill".into()
        }
    );
    assert_eq!(b.defender, "f1");
    let mut attackers = vec![b.attacker.clone()];
    attackers.extend(b.attacker_support.clone());
    attackers.sort();
    assert_eq!(attackers, ["f3".to_string(), "f4".to_string()]);
}

#[test]
fn several_forces_on_one_road_make_one_battle() {
    let mut log = philadelphia(HouseRules::default());
    give(&mut log, "f1", "iron_hill");
    give(&mut log, "f2", "iron_hill");
    give(&mut log, "f3", "chadds_ford");
    close(&mut log, 1);
    give(&mut log, "f3", "kennett");
    close(&mut log, 2);
    give(&mut log, "f1", "kennett");
    give(&mut log, "f2", "kennett");
    give(&mut log, "f3", "iron_hill");
    let nos = close(&mut log, 3);
    assert_eq!(nos.len(), 1);
    let b = log.state.battle(nos[0]).expect("battle");
    let crown: Vec<&String> = std::iter::once(&b.attacker)
        .chain(&b.attacker_support)
        .chain(std::iter::once(&b.defender))
        .chain(&b.defender_support)
        .filter(|f| *f == "f1" || *f == "f2")
        .collect();
    assert_eq!(crown.len(), 2, "one fights, the other supports: {b:?}");
}

#[test]
fn a_group_commander_who_fell_too_is_not_made_force_commander() {
    let log = philadelphia(HouseRules::default());
    let f = &log.state.forces["f1"];
    let mut dice = crate::rules::dice::Dice::from_seed(3);
    // The force commander c1 and the best-rated group commander both fell.
    let best = ["c2", "c3"]
        .into_iter()
        .max_by_key(|c| f.ratings[*c])
        .expect("two group commanders");
    let events = crate::rules::campaign::after_battle::replace_commander(
        f,
        &log.cat.shape(&f.roster).expect("readable"),
        "c1",
        &["c1", best],
        &mut dice,
        true,
        true,
        "x",
    );
    let promoted_slot = events.iter().find_map(|e| match e {
        Event::CommanderReplaced { commander, .. } if commander != "c1" => Some(commander.clone()),
        _ => None,
    });
    assert!(promoted_slot.is_some_and(|s| s != best), "{events:?}");
}

/// The log says where an organiser's change to a bank left it: the bank never goes below 0, so
/// taking 50 from 15 leaves 0, and the words say so.
#[test]
fn an_adjustment_says_what_the_bank_holds_after_it() {
    let mut log = philadelphia(HouseRules::default());
    assert!(close(&mut log, 1).is_empty());
    assert_eq!(log.state.forces["f1"].bank, 15);
    let event = Event::Adjusted {
        force: Some("f1".into()),
        side: None,
        points: 0,
        bank: -50,
        bank_after: Some(crate::rules::campaign::aftermath::bank_after_adjustment(
            15, -50,
        )),
        reason: "a typo".into(),
    };
    log.push(event.clone());
    assert_eq!(log.state.forces["f1"].bank, 0);
    let words = crate::rules::campaign::words::describe(&log.cat, &log.state, &event);
    assert!(
        words.contains("-50 reinforcement points (the bank now holds 0)"),
        "{words}"
    );
}

/// An unnamed commander who falls, or steps up, is called by his post in the log: "the force's
/// commander", "the commander of <group>" (never "The commander" in mid-sentence).
#[test]
fn unnamed_commanders_are_called_by_their_posts_when_one_falls() {
    let log = philadelphia(HouseRules::default());
    let mut f = log.state.forces["f1"].clone();
    let mut roster = doc(&f.roster);
    if let Some(c) = roster.force_commander.as_mut() {
        c.name.clear();
    }
    for g in roster.groups.iter_mut() {
        if let Some(c) = g.commander.as_mut() {
            c.name.clear();
        }
    }
    let group = roster.groups[0].name.clone();
    let first_gc = roster.groups[0]
        .commander
        .as_ref()
        .and_then(|c| c.id.clone())
        .expect("a group commander");
    for g in &roster.groups {
        if let Some(id) = g.commander.as_ref().and_then(|c| c.id.clone()) {
            f.ratings
                .insert(id.clone(), if id == first_gc { 6 } else { 1 });
        }
    }
    f.roster = crate::rules::campaign::forces_api::RosterJson::from_value(
        &serde_json::to_value(&roster).expect("a roster"),
    );
    let mut dice = crate::rules::dice::Dice::from_seed(3);
    let events = crate::rules::campaign::after_battle::replace_commander(
        &f,
        &log.cat.shape(&f.roster).expect("readable"),
        "c1",
        &["c1"],
        &mut dice,
        true,
        true,
        "x",
    );
    let Some(Event::CommanderReplaced {
        fallen, name, roll, ..
    }) = events.first()
    else {
        panic!("{events:?}")
    };
    assert_eq!(fallen, "the force's commander");
    let expected = if group.is_empty() {
        "the commander of group 1".to_string()
    } else {
        format!("the commander of {group}")
    };
    assert_eq!(name, &expected);
    assert_eq!(roll, "promoted from his group, keeping his rating (R-12)");
}

#[test]
fn a_reduced_element_is_restored_and_an_upgrade_bought_within_the_bank() {
    let mut log = philadelphia(HouseRules::default());
    // Casualties: e1 of f1 is reduced to small (as a battle would leave it).
    log.push(Event::ElementReduced {
        force: "f1".into(),
        element: "e1".into(),
        size: "small".into(),
        roll: 5,
        battle: "the battle at Kennett Square".into(),
        dropped: Vec::new(),
        refund: 0,
        bank: 0,
    });
    assert!(close(&mut log, 1).is_empty());
    assert_eq!(log.state.forces["f1"].bank, 15);
    let cat = cat();
    let restored = restore(&log.state, &cat, "f1", "e1").expect("a restore within the bank");
    let cost = match &restored {
        Event::Purchased { cost, .. } => *cost,
        other => panic!("{other:?}"),
    };
    assert!(cost > 0 && cost <= 15, "{cost}");
    log.push(restored);
    let f = &log.state.forces["f1"];
    assert_eq!(f.bank, 15 - cost);
    let roster = doc(&f.roster);
    let e1 = roster.groups[0]
        .elements
        .iter()
        .find(|e| e.id.as_deref() == Some("e1"));
    assert_eq!(e1.map(|e| e.size), Some(Size::Medium));
    assert!(
        f.history["e1"]
            .last()
            .is_some_and(|h| h.starts_with("Restored")),
        "{:?}",
        f.history
    );
    // Full strength again: nothing more to restore.
    assert!(restore(&log.state, &cat, "f1", "e1").is_err());
    // An upgrade the bank can pay for.
    let upgrade = purchase(
        &log.state,
        &cat,
        "f1",
        &Purchase::Upgrade {
            element: "e2".into(),
            upgrade: crate::rules::systems::lotf::types::Upgrade::Elite
                .id()
                .into(),
        },
    );
    match upgrade {
        Ok(e) => {
            log.push(e);
            assert!(doc(&log.state.forces["f1"].roster).groups[0].elements[1]
                .upgrades
                .contains(&crate::rules::systems::lotf::types::Upgrade::Elite));
        }
        Err(e) => assert!(e.to_string().contains("costs"), "{e}"),
    }
    assert_eq!(
        CampaignState::rebuild(&log.cat, &log.entries).expect("rebuilds"),
        log.state
    );
}

fn reduce(log: &mut Log, element: &str, size: &str) {
    log.push(Event::ElementReduced {
        force: "f1".into(),
        element: element.into(),
        size: size.into(),
        roll: 4,
        battle: "the battle at Kennett Square".into(),
        dropped: Vec::new(),
        refund: 0,
        bank: 0,
    });
}

#[test]
fn restore_options_show_one_size_back_at_the_price_the_purchase_charges() {
    let mut log = philadelphia(HouseRules::default());
    let cat = cat();
    assert!(
        restore_options(&log.state, &cat, "f1").is_empty(),
        "nothing is reduced yet"
    );
    assert!(
        restore_options(&log.state, &cat, "f9").is_empty(),
        "no such force"
    );
    // e1 lost one size, e2 two: each is offered one size back, the smallest step first.
    reduce(&mut log, "e1", "small");
    reduce(&mut log, "e2", "small");
    reduce(&mut log, "e2", "tiny");
    let options = restore_options(&log.state, &cat, "f1");
    assert_eq!(
        options,
        [
            RestoreOption {
                element: "e1".into(),
                name: "Regiment 1-1".into(),
                from: Size::Small.label().to_string(),
                to: Size::Medium.label().to_string(),
                cost: 10,
            },
            RestoreOption {
                element: "e2".into(),
                name: "Regiment 1-2".into(),
                from: Size::Tiny.label().to_string(),
                to: Size::Small.label().to_string(),
                cost: 5,
            },
        ],
        "infantry costs 10, 15 and 25 points tiny, small and medium"
    );
    // Shown even before the bank can pay; the refusal names the same price.
    let short = restore(&log.state, &cat, "f1", "e1").expect_err("the bank is empty");
    assert_eq!(
        short.to_string(),
        "That costs 10 points; the force has 0 in the bank."
    );
    assert!(close(&mut log, 1).is_empty());
    let bought = restore(&log.state, &cat, "f1", "e2").expect("within the bank");
    assert!(
        matches!(&bought, Event::Purchased { cost: 5, what, .. } if what == "Restored Regiment 1-2 to Small (5 points)"),
        "{bought:?}"
    );
    log.push(bought);
    let after = restore_options(&log.state, &cat, "f1");
    assert_eq!(
        after
            .iter()
            .map(|o| (o.element.as_str(), o.from.as_str(), o.to.as_str()))
            .collect::<Vec<_>>(),
        [
            ("e1", Size::Small.label(), Size::Medium.label()),
            ("e2", Size::Small.label(), Size::Medium.label())
        ],
        "e2 may buy its second size back next"
    );
}

#[test]
fn the_other_switches_turn_their_rule_off() {
    let off = HouseRules {
        reinforcements: false,
        place_scoring: false,
        experience: false,
        field_promotion: false,
        ..HouseRules::default()
    };
    let mut log = philadelphia(off);
    give(&mut log, "f1", "iron_hill");
    close(&mut log, 1);
    assert!(
        !log.entries
            .iter()
            .any(|e| matches!(e.event, Event::Reinforced { .. })),
        "no reinforcement points"
    );
    assert_eq!(log.state.forces["f1"].bank, 0);
    let st = crate::rules::campaign::standings::standings(&log.state);
    assert!(
        st.sides.iter().all(|s| s.place_points == 0),
        "places do not score"
    );
    give(&mut log, "f1", "kennett");
    give(&mut log, "f3", "chadds_ford");
    close(&mut log, 2);
    give(&mut log, "f1", "chadds_ford");
    let no = close(&mut log, 3)[0];
    let report = attacker_wins_major(&log, no);
    let events = resolve_battle(&log.state, &cat(), no, &report, 21).expect("resolves");
    assert!(
        !events.iter().any(|e| matches!(e, Event::Experience { .. })),
        "no experience"
    );
    for e in &events {
        if let Event::CommanderReplaced { roll, .. } = e {
            assert!(
                !roll.contains("R-12") || roll.contains("promoted from his group"),
                "{roll}"
            );
        }
    }
    assert!(events.iter().any(
        |e| matches!(e, Event::CommanderReplaced { roll, .. } if roll.starts_with("rating roll"))
    ));
}

/// The commanders' experience events for `force` in a battle's entries: (post, new rating roll).
fn experience_of(events: &[Event], of: &str) -> Vec<(String, u8)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Experience {
                force,
                commander,
                rating_roll,
                ..
            } if force == of => Some((commander.clone(), *rating_roll)),
            _ => None,
        })
        .collect()
}

/// M-95: after a Major Victory the commanders who fought roll for experience. The winner's
/// general falls; the best colonel steps up to lead the force (M-83) and a newly promoted
/// officer takes the colonel's old group. The colonel fought, so he rolls (in the post he now
/// holds); the new officer was appointed after the battle, so he does not.
#[test]
fn m95_experience_after_a_major_victory_is_for_the_commanders_who_fought() {
    use crate::rules::campaign::aftermath::band_of_roll;
    for seed in 0..12 {
        let mut log = triangle(HouseRules::default());
        give(&mut log, "f2", "b");
        let no = close(&mut log, 2)[0];
        assert_eq!(
            log.state.battle(no).map(|b| b.attacker.as_str()),
            Some("f2")
        );
        let before = log.state.forces["f2"].clone();
        let shape = log.cat.shape(&before.roster).expect("readable");
        let general = shape.commander.as_ref().expect("a general").id.clone();
        let mut rep = report("attacker", "major");
        rep.killed = vec![(Side::Attacker, general.clone())];
        let events = resolve_battle(&log.state, &cat(), no, &rep, seed).expect("resolves");
        // The colonel who stepped up: his old post is the one given to a new officer.
        let (colonels_post, new_officers_roll) = events
            .iter()
            .find_map(|e| match e {
                Event::CommanderReplaced {
                    force,
                    commander,
                    rating_roll,
                    ..
                } if force == "f2" && *commander != general => {
                    Some((commander.clone(), *rating_roll))
                }
                _ => None,
            })
            .expect("the colonel's group has a new commander");
        let mut rolled: Vec<String> = experience_of(&events, "f2")
            .into_iter()
            .map(|(c, _)| c)
            .collect();
        rolled.sort();
        // Who fought and survived: every colonel; the colonel who stepped up now holds the
        // general's post.
        let mut fought: Vec<String> = shape
            .groups
            .iter()
            .filter_map(|g| g.commander.as_ref().map(|c| c.id.clone()))
            .filter(|c| *c != colonels_post)
            .chain([general.clone()])
            .collect();
        fought.sort();
        assert_eq!(
            rolled, fought,
            "seed {seed}: the posts of the men who fought roll, not the new officer's \
             ({colonels_post})"
        );
        log.push_all(events.clone());
        let after = &log.state.forces["f2"];
        assert_eq!(
            after.ratings[&colonels_post], new_officers_roll,
            "seed {seed}: the new officer keeps the rating his promotion gave him"
        );
        let colonel = before.ratings[&colonels_post];
        let now = after.ratings[&general];
        assert!(
            now == colonel || band_of_roll(now) == band_of_roll(colonel) + 1,
            "seed {seed}: the colonel leads the force with his own rating ({colonel}), \
             moved at most one band by his own roll: {now}"
        );
    }
}

/// M-95: after a Major Defeat the Force Commander who lost rolls for demotion. If he fell, the
/// colonel promoted in his place afterwards did not lose the battle as its commander: nobody
/// rolls. If he survived, he rolls once.
#[test]
fn m95_the_major_defeat_roll_is_for_the_force_commander_who_lost() {
    for seed in 0..12 {
        let mut log = triangle(HouseRules::default());
        give(&mut log, "f2", "b");
        let no = close(&mut log, 2)[0];
        assert_eq!(
            log.state.battle(no).map(|b| b.defender.as_str()),
            Some("f3")
        );
        let shape = log
            .cat
            .shape(&log.state.forces["f3"].roster)
            .expect("readable");
        let general = shape.commander.as_ref().expect("a general").id.clone();

        let mut fell = report("attacker", "major");
        fell.killed = vec![(Side::Defender, general.clone())];
        let events = resolve_battle(&log.state, &cat(), no, &fell, seed).expect("resolves");
        assert!(
            events
                .iter()
                .any(|e| matches!(e, Event::Retreated { force, .. } if force == "f3")),
            "the beaten force falls back to its home and fights on"
        );
        assert!(
            events.iter().any(
                |e| matches!(e, Event::CommanderReplaced { force, commander, .. } if force == "f3" && *commander == general)
            ),
            "a colonel takes the fallen general's place"
        );
        assert_eq!(
            experience_of(&events, "f3"),
            [],
            "seed {seed}: the general who lost fell; his successor makes no roll"
        );

        let survived = report("attacker", "major");
        let events = resolve_battle(&log.state, &cat(), no, &survived, seed).expect("resolves");
        let rolled: Vec<String> = experience_of(&events, "f3")
            .into_iter()
            .map(|(c, _)| c)
            .collect();
        assert_eq!(
            rolled,
            std::slice::from_ref(&general),
            "seed {seed}: he lost, he rolls"
        );
    }
}

/// A campaign of one force with eight small infantry elements, two of them Elite (R-6: ⌊25 % ×
/// 8⌋ = 2), against a plain one; the turn closed so the bank holds 15 points.
fn elite_campaign() -> Log {
    use crate::rules::systems::lotf::types::Upgrade;
    let p = preset("philadelphia-1777").expect("preset exists");
    let mut log = Log {
        cat: cat(),
        state: CampaignState::default(),
        entries: Vec::new(),
    };
    log.push(Event::Created {
        settings: Settings {
            name: "Caps".into(),
            rule_system: crate::rules::SystemId::Lotf.id().into(),
            war: "american_revolution".into(),
            points: 200,
            turns: 5,
            sides: [
                SideSetup {
                    name: p.sides[0].0.into(),
                    home: p.sides[0].1.into(),
                },
                SideSetup {
                    name: p.sides[1].0.into(),
                    home: p.sides[1].1.into(),
                },
            ],
            rules: HouseRules::default(),
            scenario: None,
        },
        map: p.map,
    });
    let mut guards = force("Guards", Nation::British);
    for (g, group) in guards.groups.iter_mut().enumerate() {
        group.elements = (1..=4)
            .map(|e| {
                let mut el = ElementDoc::new(
                    &format!("Regiment {g}-{e}"),
                    ElementType::Infantry,
                    Size::Small,
                );
                if e == 1 {
                    el.upgrades.push(Upgrade::Elite);
                }
                el
            })
            .collect();
    }
    for (user, side, roster) in [(1, 0, guards), (2, 1, force("Line", Nation::American))] {
        let e = enlist(&log.state, &log.cat, user, "p", side, &json(&roster), 5).expect("enlists");
        log.push(e);
    }
    log.push(Event::Started);
    let d = doc(&log.state.forces["f1"].roster);
    assert_eq!(d.element_count(), 8);
    assert_eq!(
        d.groups
            .iter()
            .flat_map(|g| &g.elements)
            .filter(|e| e.upgrades.contains(&Upgrade::Elite))
            .filter_map(|e| e.id.as_deref())
            .collect::<Vec<_>>(),
        ["e1", "e5"]
    );
    log
}

fn lose(log: &mut Log, element: &str) {
    log.push(Event::ElementLost {
        force: "f1".into(),
        element: element.into(),
        roll: 2,
        battle: "the battle at Kennett Square".into(),
    });
}

fn elite_for(log: &Log, element: &str) -> Result<Event, CampaignError> {
    purchase(
        &log.state,
        &log.cat,
        "f1",
        &Purchase::Upgrade {
            element: element.into(),
            upgrade: crate::rules::systems::lotf::types::Upgrade::Elite
                .id()
                .into(),
        },
    )
}

/// M-96: a force that held two Elite elements of eight and lost a plain one (seven left) may
/// still restore and upgrade: its caps are judged on its strength before its losses.
#[test]
fn m96_a_force_that_lost_an_element_may_still_restore_and_upgrade() {
    let mut log = elite_campaign();
    lose(&mut log, "e8");
    reduce(&mut log, "e2", "tiny");
    assert!(close(&mut log, 1).is_empty());
    assert_eq!(log.state.forces["f1"].bank, 15);
    let restored = restore(&log.state, &log.cat, "f1", "e2")
        .expect("the two Elite elements it held before its losses still count as legal");
    log.push(restored);
    let upgrade = purchase(
        &log.state,
        &log.cat,
        "f1",
        &Purchase::Upgrade {
            element: "e3".into(),
            upgrade: crate::rules::systems::lotf::types::Upgrade::LightInfantry
                .id()
                .into(),
        },
    )
    .expect("an uncapped upgrade within the bank");
    log.push(upgrade);
    assert_eq!(log.state.forces["f1"].bank, 15 - 5 - 5);
    assert_eq!(
        CampaignState::rebuild(&log.cat, &log.entries).expect("rebuilds"),
        log.state
    );
}

/// M-96: a force that lost one of its two Elite elements may make another element Elite (its
/// allowance is still two, judged on the eight elements it had), but not a third.
#[test]
fn m96_a_force_that_lost_an_elite_element_may_give_the_upgrade_to_another_but_no_more() {
    let mut log = elite_campaign();
    lose(&mut log, "e1");
    assert!(close(&mut log, 1).is_empty());
    let second = elite_for(&log, "e2").expect("two Elite elements, as before its losses");
    log.push(second);
    let third = elite_for(&log, "e3").expect_err("a third is over the cap");
    let words = third.to_string();
    assert!(
        words.contains("3 elements have Elite") && words.contains("allows 2"),
        "{words}"
    );
}

/// M-97: reinforcement points come at the end of every turn but the last, and the log and the
/// switch say so; what is left in a bank at the end goes unused.
#[test]
fn m97_no_reinforcements_come_after_the_last_turn_and_the_log_says_so() {
    let mut log = philadelphia(HouseRules::default());
    for turn in 1..=3 {
        assert!(close(&mut log, turn).is_empty());
    }
    assert_eq!(log.state.phase, Phase::Ended);
    let gained: Vec<u32> = log
        .entries
        .iter()
        .filter_map(|e| match &e.event {
            Event::Reinforced { force, gained, .. } if force == "f1" => Some(*gained),
            _ => None,
        })
        .collect();
    assert_eq!(gained, [15, 15], "after turns 1 and 2, not after the last");
    let ended = log.state.ended.clone().unwrap_or_default();
    assert!(
        ended.contains("no reinforcement points")
            && ended.contains("points left unspent go unused"),
        "the end says what became of the points: {ended}"
    );
    let label = HouseRules::default()
        .switches()
        .iter()
        .find(|(id, ..)| *id == "reinforcements")
        .map(|(_, label, _)| *label)
        .unwrap_or_default();
    assert!(label.contains("every turn but the last"), "{label}");
}

/// R-12, M-83: a colonel who steps up to lead the force after his general fell did not fall
/// himself; his old group's history says he left it to lead the force.
#[test]
fn a_colonel_who_steps_up_to_lead_the_force_is_not_reported_fallen() {
    let mut log = triangle(HouseRules::default());
    give(&mut log, "f2", "b");
    let no = close(&mut log, 2)[0];
    let shape = log
        .cat
        .shape(&log.state.forces["f2"].roster)
        .expect("readable");
    let general = shape.commander.as_ref().expect("a general").id.clone();
    let mut rep = report("attacker", "major");
    rep.killed = vec![(Side::Attacker, general.clone())];
    let events = resolve_battle(&log.state, &cat(), no, &rep, 1).expect("resolves");
    log.push_all(events);
    let f = &log.state.forces["f2"];
    let general_note = f.history[&general].last().cloned().unwrap_or_default();
    assert!(
        general_note.contains("fell in the battle at B"),
        "{general_note}"
    );
    let colonel = shape
        .groups
        .iter()
        .filter_map(|g| g.commander.as_ref())
        .find(|c| general_note.contains(&format!("{} took command", c.name)))
        .expect("a colonel took the general's place");
    let left = f.history[&colonel.id].last().cloned().unwrap_or_default();
    assert!(
        !left.contains("fell") && left.contains(&format!("{} left", colonel.name)),
        "{left}"
    );
}

/// The ids of the elements of each group of force `force`, in order.
fn groups_of(log: &Log, force: &str) -> Vec<(String, Vec<String>)> {
    doc(&log.state.forces[force].roster)
        .groups
        .iter()
        .map(|g| {
            (
                g.id.clone().unwrap_or_default(),
                g.elements
                    .iter()
                    .map(|e| e.id.clone().unwrap_or_default())
                    .collect(),
            )
        })
        .collect()
}

#[test]
fn m102_an_element_moves_to_another_group_between_battles_and_the_log_says_so() {
    let mut log = philadelphia(HouseRules::default());
    let cat = cat();
    let before = groups_of(&log, "f1");
    let (from, to) = (before[0].0.clone(), before[1].0.clone());
    let element = before[0].1[0].clone();
    let event = reorganise(&log.state, &cat, "f1", &element, &to).expect("a legal move");
    log.push(event);
    let after = groups_of(&log, "f1");
    assert_eq!(after[0].1.len(), 2, "the first group gave one up");
    assert_eq!(
        after[1].1.last(),
        Some(&element),
        "it joins the end of the other"
    );
    let words = crate::rules::campaign::words::describe(
        &cat,
        &log.state,
        &log.entries[log.entries.len() - 1].event,
    );
    assert_eq!(
        words,
        "Force 1 (Player 1) reorganised: Regiment 1-1 from Brigade 1 to Brigade 2."
    );
    assert!(
        log.state.forces["f1"].history[&element]
            .iter()
            .any(|h| h == "Moved Regiment 1-1 from Brigade 1 to Brigade 2, turn 1"),
        "{:?}",
        log.state.forces["f1"].history.get(&element)
    );
    // Moving it back is a move like any other; into its own group is not.
    let same = reorganise(&log.state, &cat, "f1", &element, &to).expect_err("already there");
    assert!(same.to_string().contains("already"), "{same}");
    assert!(reorganise(&log.state, &cat, "f1", &element, &from).is_ok());
    let rebuilt = CampaignState::rebuild(&log.cat, &log.entries).expect("rebuilds");
    assert_eq!(rebuilt, log.state);
}

#[test]
fn m102_a_move_that_would_overfill_a_group_is_refused_and_one_outside_orders_too() {
    let mut log = philadelphia(HouseRules::default());
    let cat = cat();
    // Force 1 as six elements in its first group and two in its second (200 points).
    let mut r = force("Force 1", Nation::British);
    for e in 4..=6 {
        r.groups[0].elements.push(ElementDoc::new(
            &format!("Regiment 1-{e}"),
            ElementType::Infantry,
            Size::Medium,
        ));
    }
    r.groups[1].elements.pop();
    r.assign_missing_ids();
    log.state.forces.get_mut("f1").expect("f1").roster = json(&r);
    let groups = groups_of(&log, "f1");
    let refused = reorganise(&log.state, &cat, "f1", &groups[1].1[0], &groups[0].0)
        .expect_err("a seventh element in a group");
    assert!(
        refused.to_string().contains("at most 6"),
        "the refusal says why: {refused}"
    );
    assert!(
        reorganise(&log.state, &cat, "f1", &groups[0].1[0], &groups[1].0).is_ok(),
        "the other way is fine"
    );
    assert!(
        reorganise(&log.state, &cat, "f1", "nobody", &groups[1].0).is_err(),
        "an element the force does not have"
    );
    log.state.phase = Phase::Battles;
    let closed = reorganise(&log.state, &cat, "f1", &groups[0].1[0], &groups[1].0)
        .expect_err("orders are not open");
    assert!(closed.to_string().contains("orders are open"), "{closed}");
}

#[test]
fn m102_a_move_may_fold_a_short_group_but_never_leave_a_whole_one_short() {
    let mut log = philadelphia(HouseRules::default());
    let cat = cat();
    let groups = groups_of(&log, "f1");
    // Three and three: a move out of either leaves two, which is fine; a second from the same
    // group would leave one.
    let first = reorganise(&log.state, &cat, "f1", &groups[0].1[0], &groups[1].0)
        .expect("three to two is fine");
    log.push(first);
    let short = reorganise(&log.state, &cat, "f1", &groups[0].1[1], &groups[1].0)
        .expect_err("two to one leaves the group short");
    assert!(short.to_string().contains("short"), "{short}");
    // Losses leave the first group with one element (M-90): its last may join the other.
    let mut r = doc(&log.state.forces["f1"].roster);
    let lost = r.groups[0].elements.remove(0);
    assert!(lost.id.is_some());
    log.state.forces.get_mut("f1").expect("f1").roster = json(&r);
    let groups = groups_of(&log, "f1");
    assert_eq!(groups[0].1.len(), 1);
    reorganise(&log.state, &cat, "f1", &groups[0].1[0], &groups[1].0)
        .expect("a short group's last element may join another");
}

#[test]
fn m102_an_empty_group_stays_home_from_a_campaign_battle() {
    let log = philadelphia(HouseRules::default());
    let cat = cat();
    let mut r = doc(&log.state.forces["f1"].roster);
    r.groups[0].elements.clear();
    let emptied = json(&r);
    let f1 = &log.state.forces["f1"];
    let f3 = &log.state.forces["f3"];
    let battle = cat
        .battle_setup(
            crate::rules::campaign::forces_api::SetupForce {
                roster: &emptied,
                ratings: &f1.ratings,
            },
            crate::rules::campaign::forces_api::SetupForce {
                roster: &f3.roster,
                ratings: &f3.ratings,
            },
            "take_the_field",
            200,
            7,
        )
        .expect("the battle is set up");
    let setup: serde_json::Value = serde_json::from_str(&battle.setup).expect("json");
    let groups = setup["attacker"]["roster"]["groups"]
        .as_array()
        .expect("groups");
    assert_eq!(
        groups.len(),
        1,
        "only the group with elements takes the field"
    );
}

/// Campaign administration (issue 19): withdraw, remove or change a force before the start,
/// house rules, allegiance warnings (M-104), promoted officers named, archive, public page.
mod admin {
    use super::*;
    use crate::rules::campaign::admin::{
        archive, change_force, change_rules, may_delete, promoted_officers, public_page, remove,
        rename_officer, require_not_archived, unarchive, withdraw,
    };
    use crate::rules::campaign::forces::enlist_warned;

    /// The Philadelphia campaign with its four forces, before the start.
    fn enlisting() -> Log {
        let mut log = philadelphia(HouseRules::default());
        log.entries.pop();
        log.state = CampaignState::rebuild(&log.cat, &log.entries).expect("rebuilds");
        assert_eq!(log.state.phase, Phase::Enlisting);
        log
    }

    fn rebuilt_matches(log: &Log) {
        assert_eq!(
            CampaignState::rebuild(&log.cat, &log.entries).expect("rebuilds"),
            log.state,
            "the log rebuilds the state"
        );
    }

    #[test]
    fn a_withdrawn_force_leaves_and_its_id_is_never_used_again() {
        let mut log = enlisting();
        let e = withdraw(&log.state, "f4").expect("before the start");
        log.push(e);
        assert!(!log.state.forces.contains_key("f4"));
        let e = remove(&log.state, "f2", "a roster for the wrong war").expect("removes");
        log.push(e);
        assert_eq!(log.state.forces.len(), 2);
        // Player 4 enlists again: a new id, not f4 (nor f3, which is taken).
        let e = enlist(
            &log.state,
            &log.cat,
            4,
            "Player 4",
            1,
            &json(&force("Force 4 again", Nation::American)),
            8,
        )
        .expect("enlists again");
        assert_eq!(e.force(), Some("f5"));
        log.push(e);
        rebuilt_matches(&log);
        log.push(Event::Started);
        let err = withdraw(&log.state, "f1").expect_err("after the start");
        assert!(err.to_string().contains("has started"), "{err}");
        assert!(remove(&log.state, "f1", "late").is_err());
    }

    #[test]
    fn a_changed_force_keeps_its_side_and_rolls_its_ratings_afresh() {
        let mut log = enlisting();
        let mut other = force("Second thoughts", Nation::British);
        other.groups.truncate(2);
        let e = change_force(&log.state, &log.cat, "f1", &json(&other), 77, false)
            .expect("a legal roster");
        let Event::ForceChanged {
            ratings, warning, ..
        } = &e
        else {
            panic!("{e:?}")
        };
        assert_eq!(ratings.len(), 3);
        assert_eq!(warning, &None);
        log.push(e);
        let f = &log.state.forces["f1"];
        assert_eq!(f.roster.name(), "Second thoughts");
        assert_eq!(f.side, 0);
        rebuilt_matches(&log);
        // An illegal one is refused by the same check as an enlistment.
        let mut big = force("Too big", Nation::British);
        for g in &mut big.groups {
            g.elements
                .push(ElementDoc::new("Extra", ElementType::Infantry, Size::Large));
        }
        assert!(change_force(&log.state, &log.cat, "f1", &json(&big), 1, false).is_err());
    }

    #[test]
    fn a_roster_of_the_other_side_s_nation_warns_until_the_player_confirms() {
        let log = enlisting();
        // Side 0 is "Crown Forces" on the Philadelphia map.
        let french = json(&force("Lauzun's Legion", Nation::French));
        let err = enlist_warned(&log.state, &log.cat, 9, "Nine", 0, &french, 1, Some(false))
            .expect_err("a warning");
        let text = err.to_string();
        assert!(
            text.contains("French") && text.contains("Crown Forces"),
            "{text}"
        );
        let e = enlist_warned(&log.state, &log.cat, 9, "Nine", 0, &french, 1, Some(true))
            .expect("confirmed");
        let Event::Enlisted { warning, .. } = &e else {
            panic!("{e:?}")
        };
        assert!(warning.as_deref().is_some_and(|w| w.contains("French")));
        let words = crate::rules::campaign::words::describe(&log.cat, &log.state, &e);
        assert!(words.contains("despite the warning"), "{words}");
        // The French fought with the Continentals, Hessians for the Crown: no warning.
        assert!(enlist_warned(&log.state, &log.cat, 9, "Nine", 1, &french, 1, Some(false)).is_ok());
        let hessian = json(&force("Knyphausen", Nation::Hessian));
        assert!(
            enlist_warned(&log.state, &log.cat, 9, "Nine", 0, &hessian, 1, Some(false)).is_ok()
        );
        let natives = json(&force("Mohawk", Nation::NativeConfederation));
        for side in [0, 1] {
            assert!(
                enlist_warned(
                    &log.state,
                    &log.cat,
                    9,
                    "Nine",
                    side,
                    &natives,
                    1,
                    Some(false)
                )
                .is_ok(),
                "Native contingents fought on both sides"
            );
        }
        // A side whose name says nothing of its camp warns about nothing.
        assert_eq!(
            crate::rules::campaign::forces_api::camps_named("First side"),
            None
        );
        assert_eq!(
            crate::rules::campaign::forces_api::camps_named("British and Canadians"),
            Some("crown")
        );
        assert_eq!(
            crate::rules::campaign::forces_api::camps_named("United States"),
            Some("american")
        );
    }

    #[test]
    fn house_rules_change_before_the_start_and_say_what_changed() {
        let mut log = enlisting();
        let wanted = HouseRules {
            surrender: false,
            experience: false,
            ..HouseRules::default()
        };
        let e = change_rules(&log.state, &log.cat, &wanted).expect("before the start");
        let Event::HouseRulesChanged { changes, .. } = &e else {
            panic!("{e:?}")
        };
        assert_eq!(changes.len(), 2, "{changes:?}");
        assert!(changes.iter().all(|c| c.ends_with(": off")), "{changes:?}");
        log.push(e);
        assert!(!log.state.rules().surrender);
        assert!(
            change_rules(&log.state, &log.cat, &wanted).is_err(),
            "nothing changed"
        );
        rebuilt_matches(&log);
        log.push(Event::Started);
        assert!(change_rules(&log.state, &log.cat, &HouseRules::default()).is_err());
    }

    #[test]
    fn the_organiser_names_an_officer_made_by_field_promotion_and_no_one_else() {
        let mut log = philadelphia(HouseRules::default());
        let shape = log
            .cat
            .shape(&log.state.forces["f3"].roster)
            .expect("shape");
        let gc = shape
            .groups
            .first()
            .and_then(|g| g.commander.as_ref())
            .map(|c| c.id.clone())
            .expect("a group commander");
        log.push(Event::CommanderReplaced {
            force: "f3".into(),
            commander: gc.clone(),
            fallen: "Colonel 1".into(),
            name: "Promoted officer no. 1 (Brigade 1)".into(),
            rating_roll: 3,
            roll: "rolled 4, −1".into(),
            battle: "the battle at Chadds Ford".into(),
            stepped_up: false,
        });
        let officers = promoted_officers(&log.entries, &log.state, &log.cat);
        assert_eq!(officers.len(), 1);
        assert_eq!(officers[0].name, "Promoted officer no. 1 (Brigade 1)");
        let e = rename_officer(
            &log.entries,
            &log.state,
            &log.cat,
            "f3",
            &gc,
            "  Major Bland ",
        )
        .expect("names him");
        log.push(e);
        let shape = log
            .cat
            .shape(&log.state.forces["f3"].roster)
            .expect("shape");
        assert!(shape.commanders().any(|c| c.name == "Major Bland"));
        assert!(log.state.forces["f3"].history[&gc]
            .iter()
            .any(|h| h.contains("named Major Bland")));
        rebuilt_matches(&log);
        // A commander who was never promoted, an empty name, a name too long: refused.
        let fc = shape
            .commanders()
            .find(|c| c.group.is_none())
            .map(|c| c.id.clone())
            .expect("a force commander");
        assert!(rename_officer(&log.entries, &log.state, &log.cat, "f3", &fc, "X").is_err());
        assert!(rename_officer(&log.entries, &log.state, &log.cat, "f3", &gc, " ").is_err());
        let long = "x".repeat(101);
        assert!(rename_officer(&log.entries, &log.state, &log.cat, "f3", &gc, &long).is_err());
    }

    #[test]
    fn an_archived_campaign_refuses_everything_but_unarchiving() {
        let mut log = enlisting();
        assert!(may_delete(&log.state).is_ok(), "before the start");
        let e = archive(&log.state).expect("archives");
        log.push(e);
        assert!(log.state.archived);
        for refused in [
            require_not_archived(&log.state).err(),
            withdraw(&log.state, "f1").err(),
            change_rules(&log.state, &log.cat, &HouseRules::default()).err(),
            public_page(&log.state, true).err(),
            may_delete(&log.state).err(),
            archive(&log.state).err(),
        ] {
            assert!(refused.is_some());
        }
        assert!(withdraw(&log.state, "f1")
            .expect_err("archived")
            .to_string()
            .contains("archived"));
        let e = unarchive(&log.state).expect("unarchives");
        log.push(e);
        assert!(!log.state.archived);
        let e = public_page(&log.state, true).expect("on");
        log.push(e);
        assert!(log.state.public);
        assert!(public_page(&log.state, true).is_err(), "already on");
        let e = public_page(&log.state, false).expect("off");
        log.push(e);
        assert!(!log.state.public);
        rebuilt_matches(&log);
        log.push(Event::Started);
        assert!(may_delete(&log.state).is_err(), "started: archive instead");
    }
}
