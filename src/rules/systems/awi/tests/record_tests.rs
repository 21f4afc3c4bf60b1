//! Set-up and the tabletop record scored by W-31.

use serde_json::json;

use super::super::battle::{EndState, Level};
use super::super::record::{assess, prepare, TabletopReport};
use super::super::system::example_force;
use super::super::Catalogue;
use crate::rules::system::BattleSide;

fn cat() -> Catalogue {
    Catalogue::builtin().expect("the built-in catalogue reads")
}

fn setup(seed: u64) -> super::super::BattleSetup {
    let a = example_force("example:british").expect("example");
    let d = example_force("example:continental").expect("example");
    prepare(&cat(), a, d, None, false, seed)
        .expect("sets up")
        .setup
}

#[test]
fn set_up_rolls_missing_abilities_d6_plus_2_and_is_replayable() {
    let s = setup(7);
    // The Continental militia brigadier has no ability: rolled 3..=8 (W-4).
    let rolled = &s.defender.rolled;
    assert_eq!(rolled.len(), 1);
    assert!((3..=8).contains(&rolled[0].ability));
    assert_eq!(
        s.defender.roster.brigades[1]
            .brigadier
            .as_ref()
            .and_then(|g| g.ability_value()),
        Some(rolled[0].ability)
    );
    assert_ne!(s.roll_off.0, s.roll_off.1);
    assert_eq!(s, setup(7), "the same seed sets up the same battle");
    assert!(s.attacker.roster.brigades[0].units[0].id.is_some());
    let spread: std::collections::BTreeSet<u32> = (0..60)
        .map(|n| setup(n).defender.rolled[0].ability)
        .collect();
    assert_eq!(
        spread.into_iter().collect::<Vec<_>>(),
        (3..=8).collect::<Vec<_>>()
    );
}

#[test]
fn illegal_rosters_and_other_scenarios_are_refused() {
    let a = example_force("example:empty").expect("example");
    let d = example_force("example:continental").expect("example");
    assert!(prepare(&cat(), a, d.clone(), None, false, 1).is_err());
    let b = example_force("example:british").expect("example");
    assert!(prepare(&cat(), b, d, Some("river_crossing"), false, 1).is_err());
}

fn report(v: serde_json::Value) -> TabletopReport {
    serde_json::from_value(v).expect("a report")
}

#[test]
fn a_broken_army_suffers_a_major_defeat() {
    let s = setup(3);
    let ids: Vec<String> = s
        .defender
        .roster
        .units()
        .filter_map(|(_, _, u)| u.id.clone())
        .collect();
    // The Continentals: 5 units and a gun; 3 gone breaks them (W-31: ceil(5/2) = 3).
    let r = report(json!({
        "defender": {"units": [
            {"id": ids[0], "figures_lost": 18, "state": "fighting"},
            {"id": ids[1], "figures_lost": 6, "state": "routing"},
            {"id": ids[2], "figures_lost": 2},
            {"id": ids[3], "figures_lost": 5, "state": "left_table"}
        ], "generals_killed": ["brigadier-1"]},
        "attacker": {"units": []}
    }));
    let out = assess(&cat(), &s, &r).expect("assessed");
    let d = &out.defender;
    assert_eq!(
        d.units[0].state,
        EndState::Destroyed,
        "no figures left: destroyed (W-2)"
    );
    assert_eq!(
        d.units[2].state,
        EndState::Destroyed,
        "a gun without gunners is lost"
    );
    assert!(d.broke);
    assert!(!out.attacker.broke);
    assert_eq!(out.winner, Some(BattleSide::Attacker));
    assert_eq!(out.level, Level::Major);
    // 3 + 3 (destroyed, left) + 2 (routing) + 2 (gun) + 5 (broke) = 15.
    assert_eq!(out.attacker.vp, 15);
    assert_eq!(out.defender.vp, 0);
    assert_eq!(d.generals_killed.len(), 1);
    assert!(out.verdict.contains("W-31"));
}

#[test]
fn points_decide_when_no_army_breaks() {
    let s = setup(3);
    let ids: Vec<String> = s
        .attacker
        .roster
        .units()
        .filter_map(|(_, _, u)| u.id.clone())
        .collect();
    // British 23rd Foot: 6 bases, 9 figures lost = 3 bases: at half strength → 1 point.
    let r = report(json!({"attacker": {"units": [{"id": ids[0], "figures_lost": 9}]}}));
    let out = assess(&cat(), &s, &r).expect("assessed");
    assert!(out.attacker.units[0].at_or_below_half);
    assert_eq!((out.attacker.vp, out.defender.vp), (0, 1));
    assert_eq!((out.winner, out.level), (None, Level::Draw));
    // One routing unit and the half-strength one: 3 points, a minor victory.
    let r = report(json!({"attacker": {"units": [
        {"id": ids[0], "figures_lost": 9}, {"id": ids[1], "state": "routing"}]}}));
    let out = assess(&cat(), &s, &r).expect("assessed");
    assert_eq!(
        (out.winner, out.level),
        (Some(BattleSide::Defender), Level::Minor)
    );
}

#[test]
fn impossible_reports_are_refused_field_by_field() {
    let s = setup(3);
    let r = report(json!({
        "attacker": {"units": [{"id": "nobody", "figures_lost": 1}, {"id": "unit-1", "figures_lost": 99}],
                     "generals_killed": ["ghost"]},
        "defender": {"units": [{"id": "unit-1", "state": "fled"}]},
        "moves": 40
    }));
    let problems = assess(&cat(), &s, &r).expect_err("refused");
    let fields: Vec<&str> = problems.iter().map(|p| p.field.as_str()).collect();
    assert_eq!(
        fields,
        [
            "attacker.units[0]",
            "attacker.units[1].figures_lost",
            "attacker.generals_killed[0]",
            "defender.units[0].state",
            "moves"
        ]
    );
}
