//! Muster's campaign rules for Liberty or Death! (spec 3.4) through the campaign seam: casualty
//! rolls on the Unit Sizes rows of each kind, sizes below the list's options, Generals replaced
//! without a rating, the Continental experience ladders, and a decided battle as the campaign
//! reads it.

use std::collections::BTreeMap;

use crate::rules::campaign::aftermath::{casualty_roll, Casualty, EndState};
use crate::rules::campaign::forces_api::{
    BattleReport, BattleResult, ElementEnd, ForceRules, RosterJson,
};
use crate::rules::dice::Dice;
use crate::rules::system::{BattleSide, Severity};
use crate::rules::systems::lod::battle::EndState as LodEnd;
use crate::rules::systems::lod::campaign::{campaign_end, report_of};
use crate::rules::systems::lod::record::{assess, prepare, SideReport, TabletopReport};
use crate::rules::systems::lod::{parse_roster, validate, Catalogue, RosterDoc, Setting};

fn cat() -> Catalogue {
    Catalogue::builtin().unwrap()
}

fn army(list: &str, units: &str) -> RosterDoc {
    let mut doc = parse_roster(&format!(
        r#"{{"format": "lod.roster/1", "name": "t", "army_list": "{list}", "c_in_c": {{"name": "C"}},
            "brigades": [{{"name": "B", "general": {{"id": "g1", "name": "Gates"}}, "units": [{units}]}}]}}"#
    ))
    .expect("reads");
    doc.assign_ids();
    doc
}

fn json(doc: &RosterDoc) -> RosterJson {
    RosterJson::read(doc.clone())
}

/// What the campaign does to the only unit of `doc` ending `end`, over many seeds: the bases
/// it comes back with (`None`: lost) against the D6 rolled.
fn aftermath(cat: &Catalogue, doc: &RosterDoc, end: LodEnd) -> Vec<(u8, Option<u32>)> {
    let roster = json(doc);
    let shape = cat.shape(&roster).unwrap();
    let unit = shape.elements().next().unwrap().clone();
    (0..200)
        .map(|seed| {
            let mut dice = Dice::from_seed(seed);
            let (outcome, roll) = casualty_roll(&mut dice, campaign_end(end), unit.rank, 0);
            let bases = match outcome {
                Casualty::Unchanged => Some(unit.size.parse().unwrap()),
                Casualty::Lost => None,
                Casualty::Reduced { size } => {
                    let r = cat.reduce(&roster, &unit.id, size).unwrap();
                    let mut reduced = roster.clone();
                    cat.resize(&mut reduced, &unit.id, &r.size, &r.dropped)
                        .unwrap();
                    Some(
                        cat.shape(&reduced)
                            .unwrap()
                            .elements()
                            .next()
                            .unwrap()
                            .size
                            .parse()
                            .unwrap(),
                    )
                }
            };
            (roll, bases)
        })
        .collect()
}

#[test]
fn a_broken_or_routed_unit_is_lost_on_one_to_three_else_one_row_smaller() {
    let cat = cat();
    // Infantry 5 → 4, mounted cavalry 6 → 4, skirmishers 5 → 4, artillery 3 → 2 (3.4).
    for (list, unit, after) in [
        (
            "continental",
            r#"{"entry": "continental_regiment", "bases": 5}"#,
            4,
        ),
        (
            "british",
            r#"{"entry": "light_dragoon_regiment", "bases": 6}"#,
            4,
        ),
        ("hessian", r#"{"entry": "jagers", "bases": 5}"#, 4),
        ("british", r#"{"entry": "artillery_12pdr", "bases": 3}"#, 2),
    ] {
        for end in [LodEnd::Broken, LodEnd::RoutedOff] {
            let results = aftermath(&cat, &army(list, unit), end);
            assert!(results.iter().any(|(_, b)| b.is_none()));
            assert!(results.iter().any(|(_, b)| b.is_some()));
            for (roll, bases) in results {
                match roll {
                    1..=3 => assert_eq!(bases, None, "{unit} rolled {roll}"),
                    _ => assert_eq!(bases, Some(after), "{unit} rolled {roll}"),
                }
            }
        }
    }
}

#[test]
fn a_unit_already_at_its_smallest_row_is_lost_instead_of_reduced() {
    let cat = cat();
    for (list, unit) in [
        (
            "continental",
            r#"{"entry": "militia_regiment", "bases": 3}"#,
        ),
        ("continental", r#"{"entry": "militia_cavalry", "bases": 2}"#),
        ("continental", r#"{"entry": "artillery_3pdr", "bases": 1}"#),
        // 4 bases chosen, 3 fielded with the grenadiers detached: the smallest row.
        (
            "british",
            r#"{"entry": "regular_infantry_regiment", "bases": 4, "grenadiers_detached": true}"#,
        ),
    ] {
        for (_, bases) in aftermath(&cat, &army(list, unit), LodEnd::Broken) {
            assert_eq!(bases, None, "{unit}");
        }
        // SHAKEN: lost on 1–2 too, since there is no smaller row to go to.
        for (roll, bases) in aftermath(&cat, &army(list, unit), LodEnd::Shaken) {
            assert_eq!(bases.is_none(), roll <= 2, "{unit} rolled {roll}");
        }
    }
}

#[test]
fn a_shaken_unit_shrinks_on_one_or_two_and_worn_or_steady_ones_roll_nothing() {
    let cat = cat();
    let doc = army("british", r#"{"entry": "legion_cavalry", "bases": 4}"#);
    for (roll, bases) in aftermath(&cat, &doc, LodEnd::Shaken) {
        assert_eq!(bases, Some(if roll <= 2 { 2 } else { 4 }), "rolled {roll}");
    }
    for end in [LodEnd::Worn, LodEnd::Steady] {
        for (roll, bases) in aftermath(&cat, &doc, end) {
            assert_eq!((roll, bases), (0, Some(4)), "hits never carry over");
        }
    }
}

#[test]
fn a_detached_regiment_shrinks_by_the_row_it_fields_and_keeps_its_grenadiers_detached() {
    let cat = cat();
    let doc = army(
        "british",
        r#"{"entry": "regular_infantry_regiment", "bases": 5, "grenadiers_detached": true}"#,
    );
    let roster = json(&doc);
    let unit = cat
        .shape(&roster)
        .unwrap()
        .elements()
        .next()
        .unwrap()
        .clone();
    assert_eq!(unit.rank, 1, "5 chosen, 4 fielded: the middle row");
    let r = cat.reduce(&roster, &unit.id, 0).unwrap();
    assert_eq!(r.size, "4", "fields 3, chosen 4");
    let mut reduced = roster.clone();
    cat.resize(&mut reduced, &unit.id, &r.size, &r.dropped)
        .unwrap();
    let after = reduced.typed::<RosterDoc>().unwrap();
    let u = &after.brigades[0].units[0];
    assert_eq!((u.bases, u.grenadiers_detached), (4, true));
}

#[test]
fn a_size_below_the_list_options_stays_legal_in_the_campaign_with_a_warning() {
    let cat = cat();
    // Light Dragoons come as 4 or 6 bases; after a battle one is down to 2.
    let doc = army(
        "british",
        r#"{"entry": "light_dragoon_regiment", "bases": 2}, {"entry": "light_infantry", "bases": 3}"#,
    );
    assert!(
        cat.problems(&json(&doc), 10, true).is_empty(),
        "no error in the campaign"
    );
    let report = validate(&cat, &doc, Setting::Campaign);
    let codes: Vec<_> = report
        .findings
        .iter()
        .map(|f| (f.code.as_str(), f.severity))
        .collect();
    assert_eq!(
        codes,
        vec![
            ("brigade_size_advice", Severity::Warning),
            ("size_below_list_option", Severity::Warning),
            ("size_below_list_option", Severity::Warning)
        ]
    );
    // Outside a campaign the same roster is illegal.
    assert!(validate(&cat, &doc, Setting::Standalone)
        .findings
        .iter()
        .any(|f| f.code == "size_not_allowed" && f.severity == Severity::Error));
    // The battle size counts units.
    assert_eq!(cat.problems(&json(&doc), 1, false).len(), 1);
}

#[test]
fn a_fallen_general_is_replaced_under_a_new_name_with_no_rating_to_roll() {
    let cat = cat();
    assert!(!cat.rated_commanders());
    let doc = army(
        "continental",
        r#"{"entry": "continental_regiment", "bases": 4}"#,
    );
    let mut roster = json(&doc);
    let shape = cat.shape(&roster).unwrap();
    let f = crate::rules::campaign::state::Force {
        id: "f1".into(),
        user: 1,
        player: "P".into(),
        side: 0,
        place: "home".into(),
        roster: roster.clone(),
        full_sizes: BTreeMap::new(),
        ratings: BTreeMap::from([("g1".to_string(), 0), ("cinc-1".to_string(), 0)]),
        bank: 0,
        out: None,
        history: BTreeMap::new(),
        adjustment: 0,
    };
    let mut dice = Dice::from_seed(1);
    let events = crate::rules::campaign::after_battle::replace_commander(
        &f,
        &shape,
        "g1",
        &["g1"],
        &mut dice,
        false,
        false,
        "the battle at Camden",
    );
    let [crate::rules::campaign::Event::CommanderReplaced {
        commander,
        fallen,
        name,
        rating_roll,
        ..
    }] = events.as_slice()
    else {
        panic!("one replacement: {events:?}");
    };
    assert_eq!((commander.as_str(), fallen.as_str()), ("g1", "Gates"));
    assert_eq!(*rating_roll, 0, "there is no rating");
    assert_eq!(dice.d6(), Dice::from_seed(1).d6(), "nothing was rolled");
    cat.rename_commander(&mut roster, commander, name).unwrap();
    let general = cat.shape(&roster).unwrap().groups[0]
        .commander
        .clone()
        .unwrap();
    assert_eq!(general.name, *name);
    assert_ne!(general.name, "Gates");
}

fn report(winner: Option<&str>, level: &str, ends: &[(&str, EndState)]) -> BattleReport {
    BattleReport {
        result: BattleResult {
            winner: winner.map(str::to_string),
            level: level.into(),
            attacker_vp: 0,
            defender_vp: 0,
            method: "tabletop".into(),
            engine: None,
        },
        elements: ends
            .iter()
            .map(|(id, end)| ElementEnd {
                lost: 0,
                side: BattleSide::Attacker,
                id: id.to_string(),
                carried: None,
                end: *end,
            })
            .collect(),
        killed: Vec::new(),
    }
}

#[test]
fn continental_units_climb_their_ladder_on_a_six_after_a_victory() {
    let cat = cat();
    let mut doc = parse_roster(
        r#"{"format": "lod.roster/1", "name": "t", "army_list": "continental", "c_in_c": {"name": "C"},
            "brigades": [{"name": "B", "general": {"name": "G"}, "units": [
              {"id": "green", "entry": "green_militia_regiment", "bases": 5},
              {"id": "line", "entry": "continental_regiment", "bases": 5},
              {"id": "worn", "entry": "militia_regiment", "bases": 4},
              {"id": "shaken", "entry": "green_continental_regiment", "bases": 4},
              {"id": "top", "entry": "experienced_infantry_regiment", "bases": 4},
              {"id": "rifles", "entry": "riflemen", "bases": 3}]}]}"#,
    )
    .unwrap();
    doc.assign_ids();
    let roster = json(&doc);
    let ends = [
        ("green", EndState::Fit),
        ("line", EndState::Fit),
        ("worn", EndState::Shaken),
        ("shaken", EndState::Exhausted),
        ("top", EndState::Fit),
        ("rifles", EndState::Fit),
    ];
    let won = report(Some("attacker"), "minor", &ends);
    let mut seen_six = false;
    for seed in 0..100 {
        let promotions = cat.unit_experience(
            &roster,
            &won,
            BattleSide::Attacker,
            &mut Dice::from_seed(seed),
        );
        let rolled: Vec<&str> = promotions.iter().map(|p| p.element.as_str()).collect();
        assert_eq!(
            rolled,
            ["green", "line", "worn"],
            "units on a ladder that ended STEADY or WORN roll"
        );
        for p in &promotions {
            assert_eq!(p.to.is_some(), p.roll == 6, "{p:?}");
            if let Some(to) = &p.to {
                seen_six = true;
                let expected = match p.element.as_str() {
                    "green" => "militia_regiment:5",
                    // The Experienced Infantry Regiment comes as 3 or 4 bases.
                    "line" => "experienced_infantry_regiment:4",
                    _ => "experienced_militia_regiment:4",
                };
                assert_eq!(to, expected);
                let mut promoted = roster.clone();
                let words = cat.promote(&mut promoted, &p.element, to).unwrap();
                assert!(words.ends_with("bases"), "{words}");
                let doc = promoted.typed::<RosterDoc>().unwrap();
                assert!(validate(&cat, doc, Setting::Campaign).legal, "{words}");
            }
        }
    }
    assert!(seen_six, "a six came up in 100 seeds");
    // A draw, a defeat, or a British army: nothing to roll.
    for (r, side) in [
        (report(None, "tie", &ends), BattleSide::Attacker),
        (
            report(Some("defender"), "major", &ends),
            BattleSide::Attacker,
        ),
    ] {
        assert!(cat
            .unit_experience(&roster, &r, side, &mut Dice::from_seed(1))
            .is_empty());
    }
    let british = army(
        "british",
        r#"{"id": "x", "entry": "regular_infantry_regiment", "bases": 4}"#,
    );
    assert!(cat
        .unit_experience(
            &json(&british),
            &report(Some("attacker"), "major", &[("x", EndState::Fit)]),
            BattleSide::Attacker,
            &mut Dice::from_seed(1)
        )
        .is_empty());
}

#[test]
fn a_recorded_battle_reads_as_the_campaign_needs_it() {
    let cat = cat();
    let a = army(
        "continental",
        r#"{"id": "a1", "entry": "continental_regiment", "bases": 4}, {"id": "a2", "entry": "riflemen", "bases": 3}"#,
    );
    let d = army(
        "british",
        r#"{"id": "d1", "entry": "guard_infantry", "bases": 4}, {"id": "d2", "entry": "light_infantry", "bases": 4}"#,
    );
    let setup = prepare(&cat, a, d, None, false, 9).unwrap().setup;
    let side = |ends: &[(&str, &str)], killed: &[&str]| SideReport {
        units: ends
            .iter()
            .map(|(u, e)| (u.to_string(), e.to_string()))
            .collect(),
        generals_killed: killed.iter().map(|g| g.to_string()).collect(),
    };
    let outcome = assess(
        &cat,
        &setup,
        &TabletopReport {
            turns_played: 6,
            attacker: side(&[("a1", "worn"), ("a2", "steady")], &[]),
            defender: side(&[("d1", "routed_off"), ("d2", "shaken")], &["g1"]),
        },
    )
    .unwrap();
    let r = report_of(&outcome);
    // 5 + 3 + 10 (the British broke: 1 of 2 lost) against 1: a major victory.
    assert_eq!((r.result.attacker_vp, r.result.defender_vp), (18, 1));
    assert_eq!(r.result.winner.as_deref(), Some("attacker"));
    assert_eq!(r.result.level, "major");
    let ends: Vec<(&str, EndState)> = r.elements.iter().map(|e| (e.id.as_str(), e.end)).collect();
    assert_eq!(
        ends,
        [
            ("a1", EndState::Shaken),
            ("a2", EndState::Fit),
            ("d1", EndState::LeftTheField),
            ("d2", EndState::Exhausted)
        ]
    );
    assert_eq!(r.killed, [(BattleSide::Defender, "g1".to_string())]);
    // A campaign battle set up from the two forces is a Liberty or Death! battle on the open
    // field.
    let doc = cat
        .battle_setup(
            crate::rules::campaign::forces_api::SetupForce {
                roster: &json(&setup.attacker.roster),
                ratings: &BTreeMap::new(),
            },
            crate::rules::campaign::forces_api::SetupForce {
                roster: &json(&setup.defender.roster),
                ratings: &BTreeMap::new(),
            },
            "open_field",
            10,
            5,
        )
        .unwrap();
    assert!(doc.setup.contains("muster.lod.battle/1") && doc.setup.contains("open_field"));
}

#[test]
fn m102_a_unit_moves_to_another_brigade_and_never_into_its_own() {
    let cat = cat();
    let mut doc = army(
        "continental",
        r#"{"name": "1st Virginia", "entry": "continental_regiment", "bases": 4},
           {"name": "2nd Virginia", "entry": "continental_regiment", "bases": 4}"#,
    );
    doc.brigades.push(doc.brigades[0].clone());
    doc.brigades[1].units.clear();
    doc.brigades[1].id = None;
    doc.brigades[1].general = None;
    doc.assign_ids();
    let (first, second) = (
        doc.brigades[0].id.clone().expect("id"),
        doc.brigades[1].id.clone().expect("id"),
    );
    let unit = doc.brigades[0].units[0].id.clone().expect("id");
    let moved = cat
        .move_element(&json(&doc), &unit, &second)
        .expect("a move to the other brigade");
    let after = crate::rules::systems::lod::campaign::read(&moved)
        .expect("reads")
        .into_owned();
    assert_eq!(after.brigades[0].units.len(), 1);
    assert_eq!(
        after.brigades[1].units[0].id.as_deref(),
        Some(unit.as_str())
    );
    let refused = cat
        .move_element(&json(&doc), &unit, &first)
        .expect_err("already there");
    assert!(refused.message.contains("already"), "{}", refused.message);
    assert!(cat.move_element(&json(&doc), "nobody", &second).is_err());
}

#[test]
fn m102_an_empty_brigade_stays_home_from_a_campaign_battle() {
    let cat = cat();
    let mut doc = army(
        "continental",
        r#"{"name": "1st Virginia", "entry": "continental_regiment", "bases": 4}"#,
    );
    doc.brigades.push(doc.brigades[0].clone());
    doc.brigades[1].units.clear();
    doc.brigades[1].id = None;
    if let Some(g) = doc.brigades[1].general.as_mut() {
        g.id = None;
    }
    doc.assign_ids();
    let foe = army(
        "british",
        r#"{"name": "23rd Foot", "entry": "regular_infantry_regiment", "bases": 4}"#,
    );
    let none = BTreeMap::new();
    let battle = cat
        .battle_setup(
            crate::rules::campaign::forces_api::SetupForce {
                roster: &json(&doc),
                ratings: &none,
            },
            crate::rules::campaign::forces_api::SetupForce {
                roster: &json(&foe),
                ratings: &none,
            },
            "open_field",
            10,
            3,
        )
        .expect("the battle is set up");
    let setup: serde_json::Value = serde_json::from_str(&battle.setup).expect("json");
    let brigades = setup["attacker"]["roster"]["brigades"]
        .as_array()
        .or_else(|| setup["attacker"]["brigades"].as_array())
        .unwrap_or_else(|| panic!("brigades in {setup}"));
    assert_eq!(
        brigades.len(),
        1,
        "only the brigade with units takes the field"
    );
}
