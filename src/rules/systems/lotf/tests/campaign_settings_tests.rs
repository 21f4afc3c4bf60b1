//! A campaign's settings as the organiser fills them in, checked for a Land of the Free campaign.

use crate::rules::campaign::presets::{blank_map, preset};
use crate::rules::campaign::settings::SettingsInput;
use crate::rules::campaign::state::{HouseRules, Settings};
use crate::rules::systems::lotf::battle::ScenarioId;
use crate::rules::systems::lotf::Catalogue;

fn cat() -> Catalogue {
    Catalogue::builtin().expect("the built-in catalogue loads")
}

fn input() -> SettingsInput {
    SettingsInput {
        name: "  Brandywine  ".into(),
        map: "philadelphia-1777".into(),
        war: String::new(),
        points: 200,
        turns: 8,
        sides: [String::new(), String::new()],
        rules: HouseRules::default(),
        scenario: None,
    }
}

fn problems(input: &SettingsInput) -> Vec<(&'static str, String)> {
    Settings::parse(input, &cat())
        .expect_err("refused")
        .into_iter()
        .map(|p| (p.field, p.message))
        .collect()
}

fn one(field: &'static str, message: &str) -> Vec<(&'static str, String)> {
    vec![(field, message.to_string())]
}

#[test]
fn a_preset_brings_its_map_war_sides_and_homes() {
    let (s, map) = Settings::parse(&input(), &cat()).expect("sound");
    assert_eq!(s.name, "Brandywine", "trimmed");
    assert_eq!(s.rule_system, "lotf");
    assert_eq!(s.war, "american_revolution");
    assert_eq!((s.points, s.turns), (200, 8));
    assert_eq!(s.sides[0].name, "Crown Forces");
    assert_eq!(s.sides[1].home, "philadelphia");
    assert_eq!(s.scenario, None, "rolled for each battle");
    assert_eq!(map, preset("philadelphia-1777").expect("preset").map);
}

#[test]
fn a_blank_map_needs_a_war_and_names_its_sides_unless_given() {
    let blank = SettingsInput {
        map: "blank".into(),
        war: "war_of_1812".into(),
        sides: ["  Upper Canada ".into(), String::new()],
        ..input()
    };
    let (s, map) = Settings::parse(&blank, &cat()).expect("sound");
    assert_eq!(map, blank_map());
    assert_eq!(s.war, "war_of_1812");
    assert_eq!(
        [s.sides[0].name.as_str(), s.sides[1].name.as_str()],
        ["Upper Canada", "Second side"]
    );
    assert_eq!(
        [s.sides[0].home.as_str(), s.sides[1].home.as_str()],
        ["home_a", "home_b"]
    );
    let no_war = SettingsInput {
        war: String::new(),
        ..blank
    };
    assert_eq!(
        problems(&no_war),
        one("war", "Choose the war the campaign is fought in.")
    );
}

#[test]
fn the_name_is_1_to_80_characters() {
    let message = "Give the campaign a name of 1 to 80 characters.";
    for bad in ["", "   ", &"x".repeat(81)] {
        let i = SettingsInput {
            name: bad.into(),
            ..input()
        };
        assert_eq!(problems(&i), one("name", message), "{bad:?}");
    }
    let accents = SettingsInput {
        name: "é".repeat(80),
        ..input()
    };
    assert!(
        Settings::parse(&accents, &cat()).is_ok(),
        "characters, not bytes"
    );
}

#[test]
fn battle_size_and_length_have_their_ranges() {
    for points in [49, 2001] {
        let i = SettingsInput { points, ..input() };
        assert_eq!(
            problems(&i),
            one("points", "The battle size is 50 to 2000 points.")
        );
    }
    for turns in [0, 31] {
        let i = SettingsInput { turns, ..input() };
        assert_eq!(
            problems(&i),
            one("turns", "A campaign lasts 1 to 30 turns.")
        );
    }
    for (points, turns) in [(50, 1), (2000, 30)] {
        let i = SettingsInput {
            points,
            turns,
            ..input()
        };
        assert!(Settings::parse(&i, &cat()).is_ok());
    }
}

#[test]
fn an_unknown_map_or_scenario_is_refused() {
    let i = SettingsInput {
        map: "atlantis".into(),
        ..input()
    };
    assert_eq!(problems(&i), one("map", "Choose a map from the list."));
    let i = SettingsInput {
        scenario: Some("siege_of_troy".into()),
        ..input()
    };
    assert_eq!(
        problems(&i),
        one("scenario", "Choose a scenario from the list.")
    );
    let chosen = SettingsInput {
        scenario: Some(ScenarioId::ALL[0].id().into()),
        ..input()
    };
    let (s, _) = Settings::parse(&chosen, &cat()).expect("sound");
    assert_eq!(s.scenario.as_deref(), Some(ScenarioId::ALL[0].id()));
    let empty = SettingsInput {
        scenario: Some(String::new()),
        ..input()
    };
    assert_eq!(
        Settings::parse(&empty, &cat()).expect("sound").0.scenario,
        None
    );
}

#[test]
fn sides_need_short_and_different_names() {
    let long = SettingsInput {
        sides: ["x".repeat(61), String::new()],
        ..input()
    };
    assert_eq!(
        problems(&long),
        one("sides", "A side's name is at most 60 characters.")
    );
    let same = SettingsInput {
        sides: ["Redcoats".into(), " Redcoats".into()],
        ..input()
    };
    assert_eq!(
        problems(&same),
        one("sides", "The two sides need different names.")
    );
    // A given name may not repeat the preset's name for the other side either.
    let clash = SettingsInput {
        sides: [String::new(), "Crown Forces".into()],
        ..input()
    };
    assert_eq!(
        problems(&clash),
        one("sides", "The two sides need different names.")
    );
}

#[test]
fn every_problem_is_named_at_once() {
    let bad = SettingsInput {
        name: String::new(),
        map: "atlantis".into(),
        points: 10,
        turns: 99,
        sides: ["Us".into(), "Us".into()],
        scenario: Some("nope".into()),
        ..input()
    };
    let fields: Vec<&str> = problems(&bad).into_iter().map(|(f, _)| f).collect();
    assert_eq!(
        fields,
        ["name", "points", "turns", "map", "sides", "scenario"]
    );
}

/// The campaign's upgrade choices say which element types may take each upgrade, so a
/// player does not pick Dragoons for infantry; one any type may take says nothing more.
#[test]
fn the_upgrade_choices_name_the_types_that_may_take_them() {
    use crate::rules::campaign::forces_api::ForceRules;
    let c = crate::rules::systems::lotf::tests::support::cat();
    let menu = c.purchase_menu();
    let label = |id: &str| {
        menu.upgrades
            .iter()
            .find(|u| u.value == id)
            .map(|u| u.label.clone())
            .expect("offered")
    };
    assert!(
        label("dragoons").ends_with("; cavalry only)"),
        "{}",
        label("dragoons")
    );
    assert!(
        label("militia").ends_with("; infantry or cavalry only)"),
        "{}",
        label("militia")
    );
    assert!(
        !label("additional_ranks").contains("only"),
        "{}",
        label("additional_ranks")
    );
}
