//! The simulator and the tabletop record (spec 5, K-14, K-16, K-39–K-41).

use serde_json::json;

use super::battle::prepare;
use super::catalogue::Catalogue;
use super::montecarlo::{ordinary_army, run_range};
use super::record::{assess, TabletopReport};
use super::sim::fight;
use super::system::sample_force;
use crate::rules::system::BattleSide;

fn cat() -> Catalogue {
    match Catalogue::builtin() {
        Ok(c) => c,
        Err(e) => panic!("catalogue: {e}"),
    }
}

#[test]
fn a_battle_replays_the_same_from_its_set_up_and_ends_by_the_rules() {
    let c = cat();
    let Ok(p) = prepare(
        &c,
        ordinary_army("A", 1),
        ordinary_army("B", 1),
        None,
        false,
        42,
    ) else {
        panic!("prepared")
    };
    let one = fight(&c, &p.setup);
    let two = fight(&c, &p.setup);
    let (Ok(one), Ok(two)) = (one, two) else {
        panic!("fought")
    };
    assert_eq!(one, two, "same set-up, same battle and log");
    assert!(!one.log.is_empty());
    assert!(one.turns_played <= 24);
    match one.winner {
        // The loser's army collapsed: half its 5 units or fewer left (K-16).
        Some(w) => assert!(one.side(w.other()).remaining_units <= 2),
        None => assert!(
            one.turns_played == 24 || (one.attacker.army_collapsed && one.defender.army_collapsed)
        ),
    }
    for u in one.attacker.units.iter().chain(&one.defender.units) {
        assert!(u.rank_and_file_end <= u.rank_and_file_start);
    }
}

#[test]
fn the_sample_battles_fight_to_their_own_ends() {
    let c = cat();
    for (s, limit) in [
        ("cowpens_1781", 24),
        ("north_point_1814", 3),
        ("monmouth_1778", 8),
    ] {
        let (Some(a), Some(b)) = (
            sample_force(&format!("sample:{s}_americans")),
            sample_force(&format!("sample:{s}_british")),
        ) else {
            panic!("forces")
        };
        let Ok(p) = prepare(&c, a, b, None, false, 7) else {
            panic!("prepared")
        };
        let Ok(o) = fight(&c, &p.setup) else {
            panic!("fought {s}")
        };
        assert_eq!(o.scenario, s);
        assert!(o.turns_played <= limit, "{s}: {}", o.turns_played);
        if s == "north_point_1814" && o.winner != Some(BattleSide::Attacker) {
            // Kept off the edge to the end of turn 3, or the British collapsed (K-40).
            assert!(o.turns_played == 3 || o.attacker.army_collapsed);
        }
    }
}

#[test]
fn twice_the_units_usually_wins() {
    let c = cat();
    let Ok(p) = prepare(
        &c,
        ordinary_army("Big", 2),
        ordinary_army("Small", 1),
        None,
        false,
        9,
    ) else {
        panic!("prepared")
    };
    let Ok(t) = run_range(&c, &p.setup, 0, 100, &mut |_| {}) else {
        panic!("run")
    };
    assert_eq!(t.runs, 100);
    assert!(t.attacker_wins > t.defender_wins, "{t:?}");
}

#[test]
fn a_tabletop_result_is_decided_by_army_collapse() {
    let c = cat();
    let (Some(a), Some(b)) = (
        sample_force("sample:cowpens_1781_americans"),
        sample_force("sample:cowpens_1781_british"),
    ) else {
        panic!("forces")
    };
    let Ok(p) = prepare(&c, a, b, None, false, 1) else {
        panic!("prepared")
    };
    // The Americans defend with 7 units: 4 collapsed leaves 3 = ⌊7/2⌋, an army collapse.
    let report: TabletopReport = match serde_json::from_value(json!({
        "turns_played": 5,
        "defender": {"units": [
            {"id": "u1", "collapsed": true}, {"id": "u2", "rank_and_file_end": 4},
            {"id": "u3", "collapsed": true}, {"id": "u4", "collapsed": true},
            {"id": "u5", "rank_and_file_end": 3, "ensign_lost": true}
        ]},
        "attacker": {"units": [{"id": "u1", "rank_and_file_end": 3}],
                     "generals": [{"id": "g1", "rating_end": 1}]}
    })) {
        Ok(r) => r,
        Err(e) => panic!("report: {e}"),
    };
    let Ok(o) = assess(&c, &p.setup, &report) else {
        panic!("assessed")
    };
    // u2 at 4 privates is at its break point: collapsed too.
    assert_eq!(o.winner, Some(BattleSide::Attacker));
    assert_eq!(o.defender.remaining_units, 3);
    assert!(o
        .defender
        .units
        .iter()
        .any(|u| u.id == "u5" && u.ensign_lost && !u.collapsed));
    assert_eq!(o.attacker.generals[0].rating_end, 1);
    let bad: TabletopReport = match serde_json::from_value(json!({
        "turns_played": 30,
        "attacker": {"units": [{"id": "nope"}], "generals": [{"id": "g1", "rating_end": 3}]}
    })) {
        Ok(r) => r,
        Err(e) => panic!("report: {e}"),
    };
    let problems = assess(&c, &p.setup, &bad).err().map(|p| p.len());
    assert_eq!(problems, Some(3));
}
