//! The 20 historical orders of battle.

use super::support::*;
use crate::rules::systems::lotf::*;

const IDS: [&str; 20] = [
    "monongahela",
    "ticonderoga",
    "plains_of_abraham",
    "sainte_foy",
    "second_trenton",
    "princeton",
    "brandywine",
    "germantown",
    "kings_mountain",
    "cowpens",
    "guilford_court_house",
    "wabash",
    "fallen_timbers",
    "thames",
    "cryslers_farm",
    "chippawa",
    "niagara_falls",
    "bladensburg",
    "plattsburgh",
    "new_orleans",
];

#[test]
fn all_twenty_load() {
    let battles = historical_battles_checked().unwrap_or_else(|e| panic!("{e}"));
    let ids: Vec<&str> = battles.iter().map(|b| b.id.as_str()).collect();
    assert_eq!(ids, IDS);
    assert_eq!(historical_battles().len(), 20);
    for id in IDS {
        assert!(historical_battle(id).is_some(), "{id}");
    }
    assert!(historical_battle("waterloo").is_none());
}

#[test]
fn every_force_validates_in_historical_mode_without_errors() {
    let c = cat();
    for b in historical_battles_checked().unwrap_or_else(|e| panic!("{e}")) {
        for side in &b.sides {
            for force in &side.forces {
                assert_eq!(force.mode, Mode::Historical, "{} {}", b.id, force.name);
                assert_eq!(force.war, b.war, "{} {}", b.id, force.name);
                assert_eq!(force.nation, side.nation, "{} {}", b.id, force.name);
                let rep = validate(&c, force);
                let errors: Vec<_> = rep
                    .findings
                    .iter()
                    .filter(|f| f.severity == Severity::Error)
                    .collect();
                assert!(errors.is_empty(), "{} / {}: {errors:#?}", b.id, force.name);
                assert!(rep.legal);
            }
        }
    }
}

#[test]
fn each_side_has_the_book_element_count_and_878_in_all() {
    let battles = historical_battles_checked().unwrap_or_else(|e| panic!("{e}"));
    let mut total = 0;
    for b in &battles {
        for side in &b.sides {
            assert_eq!(
                side.element_count(),
                side.book_element_count as usize,
                "{} {:?}",
                b.id,
                side.role
            );
            total += side.element_count();
        }
        let roles: Vec<Role> = b.sides.iter().map(|s| s.role).collect();
        assert!(
            roles.contains(&Role::Attacker) && roles.contains(&Role::Defender),
            "{}",
            b.id
        );
        let attacker = b
            .sides
            .iter()
            .find(|s| s.role == Role::Attacker)
            .map(|s| s.nation);
        assert_eq!(attacker, Some(b.attacker), "{}", b.id);
    }
    assert_eq!(total, 878);
    let summary_total: usize = historical_battles().iter().map(|s| s.elements).sum();
    assert_eq!(summary_total, 878);
}

#[test]
fn scenarios_are_from_the_book_list() {
    let c = cat();
    for b in historical_battles_checked().unwrap_or_else(|e| panic!("{e}")) {
        assert!(
            c.tables().scenarios.iter().any(|s| s.id == b.scenario),
            "{}: {}",
            b.id,
            b.scenario
        );
    }
}

#[test]
fn several_forces_per_side_at_brandywine_and_germantown() {
    for id in ["brandywine", "germantown"] {
        let b = historical_battle(id).unwrap_or_else(|| panic!("{id}"));
        assert!(b.sides.iter().any(|s| s.forces.len() > 1), "{id}");
    }
}

#[test]
fn second_trenton_british_sizes_are_assumed_with_warnings_r26() {
    let c = cat();
    let b = historical_battle("second_trenton").expect("loads");
    let british = b
        .sides
        .iter()
        .find(|s| s.nation != Nation::American)
        .expect("side");
    let mut warned = 0;
    for f in &british.forces {
        let rep = validate(&c, f);
        warned += rep.with_code(FindingCode::SizeAssumed).len();
        for g in &f.groups {
            for e in &g.elements {
                if e.size_assumed {
                    assert_eq!(e.size, Size::Medium, "R-26: assumed sizes are medium");
                }
            }
        }
    }
    assert!(warned > 0);
}

#[test]
fn historical_forces_carry_no_upgrades_r25() {
    for b in historical_battles_checked().unwrap_or_else(|e| panic!("{e}")) {
        for s in &b.sides {
            for f in &s.forces {
                for g in &f.groups {
                    for e in &g.elements {
                        assert!(e.upgrades.is_empty(), "{} {}", b.id, e.name);
                    }
                }
            }
        }
    }
}
