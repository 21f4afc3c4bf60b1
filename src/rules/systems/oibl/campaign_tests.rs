//! Unit tests of One if by Land in a campaign (spec 3.3, B-70 to B-73): enlistment, the order
//! of battle as the campaign sees it, sizes in figures, what a recorded battle carries over,
//! ratings kept and rolled, and a campaign battle's set-up.

use std::collections::BTreeMap;

use serde_json::json;

use super::battle::{BattleSetup, Outcome};
use super::campaign::{guns_lost_code, read, read_size, report_of, size_code, Size, FORT_SCENARIO};
use super::catalogue::Catalogue;
use super::record::{assess, TabletopReport};
use super::roster::{parse_roster, RosterDoc, WAR};
use super::system::{example_force, Oibl};
use crate::rules::campaign::aftermath::EndState;
use crate::rules::campaign::forces_api::{
    Carried, CommanderRef, ForceRules, RosterJson, SetupForce,
};
use crate::rules::dice::Dice;
use crate::rules::system::{BattleSide, RuleSystem};

fn cat() -> Catalogue {
    match Catalogue::builtin() {
        Ok(c) => c,
        Err(e) => panic!("catalogue: {e}"),
    }
}

fn example(key: &str) -> RosterDoc {
    example_force(&format!("example:{key}")).unwrap_or_else(|| panic!("example {key}"))
}

fn enlisted(cat: &Catalogue, doc: &RosterDoc) -> RosterJson {
    cat.enlistment(&RosterJson::read(doc.clone()), WAR, 200)
        .unwrap_or_else(|e| panic!("{} enlists: {e}", doc.name))
}

/// An American order of battle with a battery of two medium guns (crew 3 each) and a brigade
/// whose commander's rating is left to the dice.
fn with_battery() -> RosterDoc {
    let text = json!({"format": "muster.oibl.roster/1", "name": "Southern Army",
        "nation": "american",
        "army_commander": {"id": "c0", "name": "Greene", "rating": 2},
        "brigades": [
          {"id": "b1", "name": "Maryland Brigade", "commander": {"id": "c1", "name": "Howard"},
           "units": [
             {"id": "u1", "name": "1st Maryland", "class": "continental", "stands": 6,
              "quality": "veteran"},
             {"id": "u2", "name": "Park", "class": "artillery", "stands": 2, "quality": "regular",
              "gun": "medium", "guns": 2, "crew": 3}]},
          {"id": "b2", "name": "Militia", "commander": {"id": "c2", "name": "Pickens", "rating": 0},
           "units": [
             {"id": "u3", "name": "Carolina Militia", "class": "militia", "stands": 4,
              "quality": "poor"}]}]});
    match parse_roster(&text.to_string()) {
        Ok(doc) => doc,
        Err(e) => panic!("fixture: {}", e.message),
    }
}

/// The set-up of a campaign battle between `a` and `d`, every commander at `ratings`.
fn setup(
    cat: &Catalogue,
    a: &RosterJson,
    d: &RosterJson,
    ratings: &BTreeMap<String, u8>,
) -> BattleSetup {
    let doc = cat
        .battle_setup(
            SetupForce { roster: a, ratings },
            SetupForce { roster: d, ratings },
            "open_field",
            200,
            7,
        )
        .unwrap_or_else(|e| panic!("set up: {e}"));
    Oibl::parse_setup(&doc.setup).unwrap_or_else(|e| panic!("the set-up reads back: {e}"))
}

fn recorded(cat: &Catalogue, setup: &BattleSetup, report: serde_json::Value) -> Outcome {
    let report: TabletopReport =
        serde_json::from_value(report).unwrap_or_else(|e| panic!("report: {e}"));
    assess(cat, setup, &report).unwrap_or_else(|p| panic!("assessed: {p:?}"))
}

#[test]
fn a_size_reads_back_as_it_was_written() {
    for n in [1, 2, 18, 250] {
        assert_eq!(read_size(&size_code(n)), Some(Size::Figures(n)));
    }
    assert_eq!(size_code(18), "18 figures");
    assert_eq!(read_size(&guns_lost_code(2)), Some(Size::GunsLost(2)));
    assert_eq!(guns_lost_code(1), "1 gun lost");
    assert_eq!(read_size("0 guns lost"), None, "nothing lost is no size");
    assert_eq!(read_size("eighteen figures"), None);
    assert_eq!(read_size("18 figures and a drum"), None);
    let cat = cat();
    assert_eq!(cat.size_label("18 figures"), "18 figures");
    assert_eq!(cat.size_label("1 gun lost"), "one gun fewer");
}

#[test]
fn an_order_of_battle_enlists_only_in_the_war_of_independence() {
    let cat = cat();
    let doc = RosterJson::read(example("american"));
    assert!(cat.enlistment(&doc, WAR, 200).is_ok());
    let refused = cat
        .enlistment(&doc, "war_of_1812", 200)
        .expect_err("One if by Land covers one war");
    assert!(refused.contains("War of Independence"), "{refused}");
    // Every part gets an id the campaign keeps its history under.
    let mut bare = example("british");
    bare.brigades[0].id = None;
    bare.brigades[0].units[2].id = None;
    let force = enlisted(&cat, &bare);
    let shape = cat.shape(&force).expect("a shape");
    assert!(shape.groups.iter().all(|g| !g.id.is_empty()));
    assert!(shape.elements().all(|e| !e.id.is_empty()));
}

#[test]
fn the_force_is_its_brigades_under_the_army_commander_counted_in_figures() {
    let cat = cat();
    let force = enlisted(&cat, &with_battery());
    let shape = cat.shape(&force).expect("a shape");
    assert_eq!(
        shape.commander.as_ref().map(|c| c.name.as_str()),
        Some("Greene")
    );
    assert_eq!(shape.groups.len(), 2);
    assert_eq!(
        shape.groups[0]
            .commander
            .as_ref()
            .map(|c| (c.id.as_str(), c.group.as_deref())),
        Some(("c1", Some("b1")))
    );
    let maryland = shape.element("u1").expect("the 1st Maryland");
    assert_eq!(maryland.size, "18 figures", "6 stands of 3 (spec 1.2)");
    assert_eq!(maryland.size_label, "18 figures in 6 stands");
    assert_eq!(
        maryland.rank, 16,
        "18 figures stand 16 above the least, 2 (B-33)"
    );
    assert_eq!(maryland.kind, "Continental infantry (veteran)");
    let park = shape.element("u2").expect("the battery");
    assert_eq!(
        park.size, "6 figures",
        "two guns with a crew of 3 each (B-7)"
    );
    assert!(park.size_label.contains("2 medium"), "{}", park.size_label);
    // The battle size is counted in figures: 18 + 6 + 16.
    assert_eq!(cat.strength(&force), Some(40));
    assert!(cat.problems(&force, 40, false).is_empty());
    let too_big = cat.problems(&force, 39, false);
    assert!(
        too_big.iter().any(|p| p.contains("40 figures")),
        "{too_big:?}"
    );
    assert_eq!(cat.battle_size().unit, "figures");
}

#[test]
fn a_given_rating_is_kept_and_a_missing_one_is_rolled_on_b8s_table() {
    let cat = cat();
    let force = enlisted(&cat, &with_battery());
    let of = |id: &str| CommanderRef {
        id: id.into(),
        name: String::new(),
        group: None,
    };
    assert_eq!(cat.given_rating(&force, &of("c0")), Some(2));
    assert_eq!(
        cat.given_rating(&force, &of("c2")),
        Some(0),
        "0 is a rating"
    );
    assert_eq!(cat.given_rating(&force, &of("c1")), None, "rolled (B-8)");
    let table = &cat.commander_rating.roll;
    for seed in 0..60 {
        let (r, words) = cat.rate_commander(&mut Dice::from_seed(seed));
        assert!(table.contains(&i32::from(r)), "{r} is on B-8's table");
        assert!(words.contains("B-8"), "{words}");
        let (r, words) = cat.replacement_rating(&mut Dice::from_seed(seed), true);
        assert!(r <= 2, "B-70: a successor rolls as anyone does, never 3");
        assert!(words.contains("B-70"), "{words}");
    }
    assert!(cat.rating_words(2).is_some_and(|w| w.contains("−2")));
}

#[test]
fn experience_moves_a_rating_by_one_within_b8s_table() {
    let cat = cat();
    for seed in 0..120 {
        let (after, roll) = cat
            .experience(1, true, &mut Dice::from_seed(seed))
            .expect("rated commanders roll");
        assert_eq!(after, if roll == 6 { 2 } else { 1 });
        let (after, _) = cat
            .experience(2, true, &mut Dice::from_seed(seed))
            .expect("rolls");
        assert_eq!(after, 2, "2 is the best B-8 rolls; 3 comes from a scenario");
        let (after, roll) = cat
            .experience(1, false, &mut Dice::from_seed(seed))
            .expect("rolls");
        assert_eq!(after, if roll == 1 { 0 } else { 1 });
        let (after, _) = cat
            .experience(0, false, &mut Dice::from_seed(seed))
            .expect("rolls");
        assert_eq!(after, 0);
    }
    assert!(cat.defeat_tests_every_commander(), "B-73");
}

#[test]
fn only_the_switches_that_do_something_here_are_shown() {
    let cat = cat();
    for hidden in ["field_promotion", "reinforcements", "scout_bonus"] {
        assert_eq!(cat.switch_label(hidden, "x"), None, "{hidden}");
    }
    assert!(cat
        .switch_label("persistent_casualties", "x")
        .is_some_and(|l| l.contains("B-71") && l.contains("replacements")));
    assert!(cat
        .switch_label("fort_assault", "x")
        .is_some_and(|l| l.contains("B-72")));
    assert_eq!(cat.switch_label("surrender", "as it is"), Some("as it is"));
    assert_eq!(cat.fort_assault().as_deref(), Some(FORT_SCENARIO));
    assert!(cat.scenario_name(FORT_SCENARIO).is_some());
    assert_eq!(cat.scenario_name("frontal_assault"), None);
}

#[test]
fn a_campaign_battle_fields_the_forces_at_the_ratings_the_campaign_keeps() {
    let cat = cat();
    let mut americans = with_battery();
    americans.brigades[1].units.clear();
    let americans = enlisted(&cat, &americans);
    let british = enlisted(&cat, &example("british"));
    let ratings: BTreeMap<String, u8> = [("c0", 1), ("c1", 2)]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
    let s = setup(&cat, &americans, &british, &ratings);
    let a = &s.attacker.roster;
    assert_eq!(a.army_commander.as_ref().and_then(|c| c.rating), Some(1));
    assert_eq!(
        a.brigades[0].commander.as_ref().and_then(|c| c.rating),
        Some(2)
    );
    assert_eq!(
        a.brigades.len(),
        1,
        "the brigade with no unit left stays home"
    );
    assert_eq!(s.scenario, "open_field");
    assert_eq!(s.seed, 7);
    // A scenario the game lacks is refused in words.
    let wrong = cat.battle_setup(
        SetupForce {
            roster: &americans,
            ratings: &ratings,
        },
        SetupForce {
            roster: &british,
            ratings: &ratings,
        },
        "frontal_assault",
        200,
        7,
    );
    assert!(wrong.is_err());
}

/// B-71: the 1st Maryland lost 6 of 18 and routed, and gets 3 back; the militia were destroyed; the battery
/// lost a gun and 2 of its 6 crew (1 back, and then only one gun's crew of 3 stays); Howard
/// fell. The British lost 4 figures of their first regiment and won.
#[test]
fn a_recorded_battle_carries_figures_guns_and_the_fallen_over() {
    let cat = cat();
    let americans = enlisted(&cat, &with_battery());
    let british = enlisted(&cat, &example("british"));
    let s = setup(&cat, &americans, &british, &BTreeMap::new());
    let o = recorded(
        &cat,
        &s,
        json!({"turns": 8,
               "attacker": {"units": [
                  {"id": "u1", "figures_lost": 6, "routed": true},
                  {"id": "u2", "figures_lost": 2, "guns_lost": 1},
                  {"id": "u3", "figures_lost": 15, "routed": true}],
                "commanders": [{"id": "c1", "fate": "killed"}, {"id": "c2", "fate": "serious_wound"}]},
               "defender": {"units": [{"id": "u1", "figures_lost": 4}]}}),
    );
    let report = report_of(&cat, &o);
    let of = |side: BattleSide, id: &str| -> Vec<(EndState, Option<Carried>)> {
        report
            .elements
            .iter()
            .filter(|e| e.side == side && e.id == id)
            .map(|e| (e.end, e.carried.clone()))
            .collect()
    };
    let size = |s: &str| Some(Carried::Size(s.to_string()));
    assert_eq!(
        of(BattleSide::Attacker, "u1"),
        [(EndState::Exhausted, size("15 figures"))],
        "18 − 6 + 3 (B-71): a unit that routed rallies after the battle"
    );
    assert_eq!(
        of(BattleSide::Attacker, "u3"),
        [(EndState::Shattered, Some(Carried::Lost))],
        "1 figure left: destroyed (B-33), nothing comes back"
    );
    assert_eq!(
        of(BattleSide::Attacker, "u2"),
        [
            (EndState::Shaken, size("5 figures")),
            (EndState::Shaken, size("1 gun lost"))
        ]
    );
    assert_eq!(
        of(BattleSide::Defender, "u1"),
        [(EndState::Shaken, size("16 figures"))]
    );
    assert_eq!(
        of(BattleSide::Defender, "u2"),
        [(EndState::Fit, size("18 figures"))]
    );
    assert_eq!(report.killed, [(BattleSide::Attacker, "c1".to_string())]);
    assert_eq!(report.result.winner.as_deref(), Some("defender"));
    assert_eq!(
        report.result.level, "major",
        "two of three units lost: broken (B-34)"
    );
    assert_eq!(
        (report.result.attacker_vp, report.result.defender_vp),
        (2, 6)
    );

    // Applied as the campaign log applies it: stands follow the figures, the gun goes.
    let mut force = americans.clone();
    for e in report
        .elements
        .iter()
        .filter(|e| e.side == BattleSide::Attacker)
    {
        match &e.carried {
            Some(Carried::Size(size)) => {
                cat.resize(&mut force, &e.id, size, &[])
                    .unwrap_or_else(|err| panic!("{} takes {size}: {err}", e.id));
            }
            Some(Carried::Lost) => {
                cat.remove_element(&mut force, &e.id).expect("removed");
            }
            None => panic!("every unit's end is carried"),
        }
    }
    let doc = read(&force).expect("readable").into_owned();
    let maryland = &doc.brigades[0].units[0];
    assert_eq!((maryland.figures, maryland.stands), (Some(15), 5));
    let park = &doc.brigades[0].units[1];
    assert_eq!(
        (park.guns, park.figures),
        (Some(1), Some(3)),
        "one gun, its crew of 3"
    );
    assert!(doc.brigades[1].units.is_empty(), "the militia are gone");
    // A campaign force short of a brigade's units is no longer at fault for it.
    assert!(
        cat.problems(&force, 200, true).is_empty(),
        "{:?}",
        cat.problems(&force, 200, true)
    );
    assert!(!cat.problems(&force, 200, false).is_empty());
    // 14 figures of 3 a stand still stand on 5 stands (B-38: the partial one stays).
    cat.resize(&mut force, "u1", "14 figures", &[])
        .expect("resized");
    let doc = read(&force).expect("readable").into_owned();
    assert_eq!(doc.brigades[0].units[0].stands, 5);
    // A battery cannot lose the guns it does not have; figures of nothing are no size.
    assert!(cat.resize(&mut force, "u2", "1 gun lost", &[]).is_err());
    assert!(cat.resize(&mut force, "u1", "1 gun lost", &[]).is_err());
    assert!(cat.resize(&mut force, "u1", "0 figures", &[]).is_err());
}

#[test]
fn a_draw_and_a_marginal_victory_score_by_their_level() {
    let cat = cat();
    let americans = enlisted(&cat, &example("american"));
    let british = enlisted(&cat, &example("british"));
    let s = setup(&cat, &americans, &british, &BTreeMap::new());
    let even = report_of(&cat, &recorded(&cat, &s, json!({"turns": 12})));
    assert_eq!(even.result.winner, None);
    assert_eq!(even.result.level, "tie");
    assert_eq!((even.result.attacker_vp, even.result.defender_vp), (3, 3));
    let marginal = report_of(
        &cat,
        &recorded(
            &cat,
            &s,
            json!({"turns": 12, "defender": {"units": [{"id": "u1", "figures_lost": 2}]}}),
        ),
    );
    assert_eq!(marginal.result.winner.as_deref(), Some("attacker"));
    assert_eq!(marginal.result.level, "marginal", "B-35 on time");
    assert_eq!(
        (marginal.result.attacker_vp, marginal.result.defender_vp),
        (4, 2)
    );
    // The stored result reads back through the seam.
    let stored = serde_json::to_string(&recorded(&cat, &s, json!({"turns": 3}))).expect("json");
    assert!(cat.battle_report(&stored).is_ok());
    assert!(cat.battle_report("{}").is_err());
}

#[test]
fn allegiance_is_read_from_the_nation() {
    let cat = cat();
    let british = RosterJson::read(example("british"));
    assert!(cat
        .allegiance_warning(&british, WAR, "British Crown")
        .is_none());
    assert!(cat
        .allegiance_warning(&british, WAR, "Continental Army")
        .is_some_and(|w| w.contains("british")));
    let americans = RosterJson::read(example("american"));
    assert!(cat
        .allegiance_warning(&americans, WAR, "French allies")
        .is_none());
    assert!(cat
        .allegiance_warning(&americans, WAR, "Somebody")
        .is_none());
}
