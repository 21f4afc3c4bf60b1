//! Muster's campaign rules for the AWI wargames rules (spec 3, W-4, W-29, W-44) through the
//! campaign seam: ratings rolled once and kept, experience and replacements on the AWI scale,
//! half the lost figures recovered, units that left the table rolled for, guns lost, and a
//! decided battle as the campaign reads it.

use std::collections::BTreeMap;

use serde_json::json;

use super::super::battle::BattleSetup;
use super::super::campaign::{after_battle, report_of};
use super::super::record::{assess, prepare, TabletopReport};
use super::super::system::example_force;
use super::super::{Catalogue, RosterDoc};
use crate::rules::campaign::aftermath::{Casualty, EndState};
use crate::rules::campaign::forces_api::{
    CommanderRef, ElementEnd, ForceRules, RosterJson, SetupForce,
};
use crate::rules::dice::Dice;
use crate::rules::system::BattleSide;

fn cat() -> Catalogue {
    Catalogue::builtin().expect("the built-in catalogue reads")
}

fn enlisted(reference: &str) -> RosterJson {
    let doc = example_force(reference).expect("example");
    cat()
        .enlistment(&RosterJson::read(doc), "american_revolution", 100)
        .expect("enlists")
}

fn doc(r: &RosterJson) -> RosterDoc {
    super::super::campaign::read(r).unwrap().into_owned()
}

fn spec(r: &RosterJson, unit: usize) -> super::super::roster::UnitSpec {
    doc(r).units().nth(unit).unwrap().2.spec().unwrap()
}

#[test]
fn brigadiers_roll_d6_plus_2_once_and_a_given_ability_or_the_unrated_cinc_is_kept() {
    let c = cat();
    // W-4: D6+2, every value 3..=8 seen.
    let rolls: std::collections::BTreeSet<u8> = (0..80)
        .map(|s| c.rate_commander(&mut Dice::from_seed(s)).0)
        .collect();
    assert_eq!(
        rolls.into_iter().collect::<Vec<_>>(),
        (3..=8).collect::<Vec<_>>()
    );
    let r = enlisted("example:continental");
    let d = doc(&r);
    let cinc = CommanderRef {
        id: d.cinc.as_ref().unwrap().id.clone().unwrap(),
        name: String::new(),
        group: None,
    };
    assert_eq!(
        c.given_rating(&r, &cinc),
        Some(0),
        "the CinC has no rating (spec 3)"
    );
    let by_brigade: Vec<Option<u8>> = d
        .brigades
        .iter()
        .map(|b| {
            let g = b.brigadier.as_ref().unwrap();
            c.given_rating(
                &r,
                &CommanderRef {
                    id: g.id.clone().unwrap(),
                    name: g.name.clone(),
                    group: b.id.clone(),
                },
            )
        })
        .collect();
    // The example gives the first brigadier his ability and leaves the militia's to roll.
    assert!(by_brigade[0].is_some());
    assert_eq!(by_brigade[1], None);
    assert!(c.rating_words(5).unwrap().contains("5 or less"));
    assert_eq!(c.rating_words(0), None);
}

#[test]
fn experience_moves_an_ability_by_one_within_two_and_nine_and_replacements_roll_d6_plus_1() {
    let c = cat();
    for seed in 0..100 {
        let (after, roll) = c.experience(5, true, &mut Dice::from_seed(seed)).unwrap();
        assert_eq!(after, if roll == 6 { 6 } else { 5 });
        let (after, roll) = c.experience(5, false, &mut Dice::from_seed(seed)).unwrap();
        assert_eq!(after, if roll == 1 { 4 } else { 5 });
        assert_eq!(
            c.experience(9, true, &mut Dice::from_seed(seed)).unwrap().0,
            9
        );
        assert_eq!(
            c.experience(10, true, &mut Dice::from_seed(seed))
                .unwrap()
                .0,
            10
        );
        assert_eq!(
            c.experience(2, false, &mut Dice::from_seed(seed))
                .unwrap()
                .0,
            2
        );
        let (r, words) = c.replacement_rating(&mut Dice::from_seed(seed), true);
        assert!((2..=7).contains(&r), "D6+1 (W-29): {r}");
        assert!(words.contains("W-29"));
    }
    assert_eq!(
        c.experience(0, true, &mut Dice::from_seed(1)),
        None,
        "the CinC does not roll"
    );
    assert!(c.defeat_tests_every_commander());
}

#[test]
fn half_the_lost_figures_come_back_and_the_rest_cost_whole_bases() {
    let c = cat();
    let r = enlisted("example:british");
    let foot = spec(&r, 0); // 23rd Foot: 6 bases of 3 figures
    let mut dice = Dice::from_seed(1);
    // 5 lost: 2 come back, 3 stay away = one base (W-44).
    assert_eq!(
        after_battle(&c, &foot, EndState::Fit, 5, &mut dice),
        (Some(5), 0)
    );
    // 1 lost: nothing whole is gone.
    assert_eq!(
        after_battle(&c, &foot, EndState::Fit, 1, &mut dice),
        (Some(6), 0)
    );
    // 12 lost, routing at the end: 6 stay away, two bases.
    assert_eq!(
        after_battle(&c, &foot, EndState::Exhausted, 12, &mut dice),
        (Some(4), 0)
    );
}

#[test]
fn a_unit_that_left_the_table_is_lost_on_one_to_three_or_returns_at_half() {
    let c = cat();
    let r = enlisted("example:british");
    let foot = spec(&r, 0);
    let (mut lost, mut back) = (0, 0);
    for seed in 0..200 {
        for end in [EndState::LeftTheField, EndState::Shattered] {
            match after_battle(&c, &foot, end, 9, &mut Dice::from_seed(seed)) {
                (None, roll) => {
                    assert!((1..=3).contains(&roll));
                    lost += 1;
                }
                (Some(bases), roll) => {
                    assert!(roll >= 4);
                    assert_eq!(bases, 3, "half of 6 bases");
                    back += 1;
                }
            }
        }
    }
    assert!(lost > 100 && back > 100, "{lost} / {back}");
}

#[test]
fn a_lost_gun_is_gone_and_its_lost_gunners_come_back_on_four_or_more() {
    let c = cat();
    let r = enlisted("example:british");
    let gun = spec(&r, 3); // 3-pounders, 3 gunners
    assert_eq!(gun.gunners, 3);
    let mut dice = Dice::from_seed(4);
    assert_eq!(
        after_battle(&c, &gun, EndState::Shattered, 1, &mut dice),
        (None, 0)
    );
    let seen: std::collections::BTreeSet<u32> = (0..100)
        .filter_map(|s| after_battle(&c, &gun, EndState::Fit, 2, &mut Dice::from_seed(s)).0)
        .collect();
    assert_eq!(seen.into_iter().collect::<Vec<_>>(), vec![1, 2, 3]);
}

#[test]
fn the_casualty_rule_reduces_through_the_roster_and_never_grows_a_unit() {
    let c = cat();
    let r = enlisted("example:british");
    let id = doc(&r).units().next().unwrap().2.id.clone().unwrap();
    let end = ElementEnd {
        side: BattleSide::Attacker,
        id: id.clone(),
        end: EndState::Shaken,
        lost: 9,
        carried: None,
    };
    let (outcome, roll) = c.casualty(&r, &end, &mut Dice::from_seed(1)).unwrap();
    assert_eq!(
        (outcome, roll),
        (Casualty::Reduced { size: 4 }, 0),
        "6 bases, 4 figures stay away: 5"
    );
    let red = c.reduce(&r, &id, 4).unwrap();
    assert_eq!(red.size, "5 bases");
    assert_eq!(c.reduce(&r, &id, 5), None, "no growing back to 6");
    let mut after = r.clone();
    assert_eq!(
        c.resize(&mut after, &id, &red.size, &[]).unwrap(),
        "5 bases"
    );
    let shape = c.shape(&after).unwrap();
    let e = shape.element(&id).unwrap();
    assert_eq!((e.size.as_str(), e.rank), ("5 bases", 4));
    assert_eq!(e.size_label, "5 bases (15 figures)");
    let fit = ElementEnd { lost: 0, ..end };
    assert_eq!(
        c.casualty(&r, &fit, &mut Dice::from_seed(1)),
        Some((Casualty::Unchanged, 0))
    );
}

#[test]
fn battles_are_sized_in_bases_and_idle_switches_are_hidden() {
    let c = cat();
    assert_eq!(c.battle_size().unit, "bases");
    let r = enlisted("example:british");
    assert!(c.problems(&r, 100, false).is_empty());
    let too_small = c.problems(&r, 10, false);
    assert!(
        too_small.iter().any(|p| p.contains("bases")),
        "{too_small:?}"
    );
    assert_eq!(c.points(&r), None, "no points: nothing to buy");
    for hidden in [
        "field_promotion",
        "reinforcements",
        "fort_assault",
        "scout_bonus",
    ] {
        assert_eq!(c.switch_label(hidden, "x"), None, "{hidden}");
    }
    assert!(c
        .switch_label("persistent_casualties", "x")
        .unwrap()
        .contains("4+"));
    assert!(c.enlistment(&r, "seven_years_war", 100).is_err());
}

fn setup_with(ratings: &BTreeMap<String, u8>) -> BattleSetup {
    let c = cat();
    let a = enlisted("example:british");
    let d = enlisted("example:continental");
    let doc = c
        .battle_setup(
            SetupForce {
                roster: &a,
                ratings,
            },
            SetupForce {
                roster: &d,
                ratings,
            },
            "open_field",
            100,
            9,
        )
        .unwrap();
    serde_json::from_str(&doc.setup).unwrap()
}

#[test]
fn a_campaign_battle_fights_each_brigadier_at_the_ability_the_campaign_keeps() {
    let mut ratings = BTreeMap::new();
    ratings.insert("brigadier-2".to_string(), 9u8);
    let s = setup_with(&ratings);
    let ability =
        |r: &RosterDoc, b: usize| r.brigades[b].brigadier.as_ref().unwrap().ability_value();
    assert_eq!(
        ability(&s.attacker.roster, 1),
        Some(9),
        "kept by the campaign (W-4)"
    );
    assert_eq!(ability(&s.defender.roster, 1), Some(9));
    assert!(
        s.attacker.rolled.is_empty(),
        "nothing rolled for a rated brigadier"
    );
}

#[test]
fn a_decided_battle_names_each_units_loss_and_the_generals_killed_by_id() {
    let c = cat();
    let a = example_force("example:british").unwrap();
    let d = example_force("example:continental").unwrap();
    let s = prepare(&c, a, d, None, false, 3).unwrap().setup;
    let ids: Vec<String> = s
        .defender
        .roster
        .units()
        .filter_map(|(_, _, u)| u.id.clone())
        .collect();
    let report: TabletopReport = serde_json::from_value(json!({
        "defender": {"units": [
            {"id": ids[0], "figures_lost": 7},
            {"id": ids[1], "figures_lost": 4, "state": "left_table"}
        ], "generals_killed": ["brigadier-1"]}
    }))
    .unwrap();
    let o = assess(&c, &s, &report).unwrap();
    let back = c
        .battle_report(&serde_json::to_string(&o).unwrap())
        .unwrap();
    assert_eq!(back, report_of(&o));
    let of = |id: &str| {
        back.elements
            .iter()
            .find(|e| e.side == BattleSide::Defender && e.id == id)
            .unwrap()
    };
    assert_eq!(of(&ids[0]).lost, 7);
    assert_eq!(of(&ids[1]).end, EndState::LeftTheField);
    assert_eq!(
        back.killed,
        vec![(BattleSide::Defender, "brigadier-1".to_string())]
    );
    assert!(c.battle_report("{}").is_err());
}
