//! The catalogue against the specification's tables (1.2–1.5, 2.2, 4.2).

use crate::rules::systems::lod::catalogue::{Catalogue, DiceRoll};
use crate::rules::systems::lod::mechanics::{
    melee_hit_faces, save_faces, shooting_hit_faces, success_faces,
};
use crate::rules::systems::lod::types::{ArmyList, HitState, Kind, RangeBand, SpecialRule, Weapon};

fn cat() -> Catalogue {
    Catalogue::builtin().expect("the built-in catalogue reads")
}

#[test]
fn every_size_row_has_shaken_twice_and_auto_broken_three_times_worn() {
    let cat = cat();
    for kind in &cat.kinds {
        for row in &kind.sizes {
            assert_eq!(row.shaken, 2 * row.worn, "{} {}", kind.name, row.bases);
            assert_eq!(row.auto_broken, 3 * row.worn, "{} {}", kind.name, row.bases);
        }
    }
}

#[test]
fn unit_sizes_are_the_tables_numbers() {
    let cat = cat();
    let w = |k, b| cat.size(k, b).map(|r| (r.worn, r.shaken, r.auto_broken));
    assert_eq!(w(Kind::Infantry, 4), Some((8, 16, 24)));
    assert_eq!(w(Kind::MountedCavalry, 6), Some((9, 18, 27)));
    assert_eq!(w(Kind::DismountedCavalry, 1), Some((3, 6, 9)));
    assert_eq!(w(Kind::Skirmishers, 3), Some((3, 6, 9)));
    assert_eq!(w(Kind::Artillery, 3), Some((4, 8, 12)));
    assert_eq!(w(Kind::Infantry, 2), None, "no 2-base infantry (L-50)");
}

#[test]
fn hit_states_follow_the_values() {
    let row = *cat().size(Kind::Infantry, 4).unwrap();
    assert_eq!(row.state(7), HitState::Steady);
    assert_eq!(row.state(8), HitState::Worn);
    assert_eq!(row.state(16), HitState::Shaken);
    assert_eq!(
        row.state(24),
        HitState::Broken,
        "L-24: BROKEN at AUTO BROKEN"
    );
}

#[test]
fn the_lists_hold_every_entry_of_the_sheet() {
    let cat = cat();
    assert_eq!(cat.list(ArmyList::Continental).entries.len(), 12);
    assert_eq!(cat.list(ArmyList::British).entries.len(), 13);
    assert_eq!(cat.list(ArmyList::Hessian).entries.len(), 6);
    let (_, guard) = cat.find_entry(ArmyList::British, "guard_infantry").unwrap();
    assert!(guard.has(SpecialRule::Stubborn) && guard.has(SpecialRule::Elite));
    assert!(cat
        .find_entry(ArmyList::Continental, "artillery_12pdr")
        .is_none());
    let (list, jagers) = cat.find_entry(ArmyList::British, "hessian.jagers").unwrap();
    assert_eq!(
        (list, jagers.bases.clone()),
        (ArmyList::Hessian, vec![3, 4, 5])
    );
}

#[test]
fn no_entry_carries_impetuous_steady_or_poorly_trained() {
    let cat = cat();
    for list in &cat.lists {
        for e in &list.entries {
            for r in [
                SpecialRule::Impetuous,
                SpecialRule::Steady,
                SpecialRule::PoorlyTrained,
            ] {
                assert!(!e.has(r), "{} carries {r}", e.name);
            }
        }
    }
}

#[test]
fn ranges_and_exploding_hits() {
    let cat = cat();
    let musket = cat.weapon(Weapon::SmoothboreMusket);
    assert_eq!(musket.band(7), Some(RangeBand::Short));
    assert_eq!(musket.band(8), Some(RangeBand::Effective));
    assert_eq!(musket.band(28), Some(RangeBand::Long));
    assert_eq!(musket.band(29), None, "L-18: no shot beyond long range");
    assert_eq!(cat.weapon(Weapon::Gun12).explodes, Some(DiceRoll::D3Plus1));
    assert_eq!(cat.canister.explodes, DiceRoll::TwoD3);
    let two_d3: u32 = DiceRoll::TwoD3.outcomes().iter().map(|(_, w)| w).sum();
    assert_eq!(two_d3, 9);
}

#[test]
fn to_hit_saves_and_successes_by_quality() {
    let cat = cat();
    let profile = |list, id: &str, bases| {
        let (l, e) = cat.find_entry(list, id).unwrap();
        cat.profile(l, e, bases, false).unwrap()
    };
    let militia = profile(ArmyList::Continental, "militia_regiment", 4);
    let riflemen = profile(ArmyList::Continental, "riflemen", 3);
    let jagers = profile(ArmyList::Hessian, "jagers", 3);
    let green = profile(ArmyList::Continental, "green_continental_regiment", 4);
    assert_eq!(shooting_hit_faces(&cat, &militia), 2, "5+");
    assert_eq!(shooting_hit_faces(&cat, &riflemen), 4, "MARKSMEN: 3+");
    assert_eq!(shooting_hit_faces(&cat, &jagers), 4);
    assert_eq!(
        melee_hit_faces(&cat, &riflemen),
        3,
        "no MARKSMEN in melee (L-19)"
    );
    assert_eq!(save_faces(5), 2);
    assert_eq!(save_faces(6), 1);
    assert_eq!(success_faces(&cat, &militia), [4, 1, 1]);
    assert_eq!(success_faces(&cat, &jagers), [2, 3, 1]);
    assert_eq!(
        success_faces(&cat, &green),
        [3, 3, 0],
        "UNRELIABLE: a 6 is one success"
    );
}
