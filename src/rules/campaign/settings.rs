//! What the organiser fills in to create a campaign, checked field by field and turned into the
//! campaign's settings and starting map.

use super::error::FieldProblem;
use super::movement::Map;
use super::presets::{blank_map, preset, BLANK, BLANK_SIDES};
use super::state::{HouseRules, Settings, SideSetup};
use crate::rules::systems::lotf::battle::ScenarioId;
use crate::rules::systems::lotf::types::War;

/// The longest campaign name and side name, in characters.
pub const MAX_NAME_CHARS: usize = 80;
pub const MAX_SIDE_NAME_CHARS: usize = 60;

/// What the organiser fills in to start a campaign, as given.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SettingsInput {
    pub name: String,
    /// A preset map id, or `blank` for two home places to build on.
    pub map: String,
    /// The war id; only read for a blank map (a preset brings its own).
    pub war: String,
    /// The battle size, 50 to 2000.
    pub points: u32,
    /// 1 to 30.
    pub turns: u32,
    /// The two sides' names; empty keeps the map's.
    pub sides: [String; 2],
    pub rules: HouseRules,
    /// A scenario id for every battle; none or empty: rolled on the book's table.
    pub scenario: Option<String>,
}

impl Settings {
    /// Checks every field and gives the settings and the starting map, or every problem found.
    /// `rule_system` is the id of the rule system the forces are built for.
    pub fn parse(
        input: &SettingsInput,
        rule_system: &str,
    ) -> Result<(Settings, Map), Vec<FieldProblem>> {
        let mut problems = Vec::new();
        let name = input.name.trim();
        if name.is_empty() || name.chars().count() > MAX_NAME_CHARS {
            problems.push(FieldProblem::new(
                "name",
                "Give the campaign a name of 1 to 80 characters.",
            ));
        }
        if !(50..=2000).contains(&input.points) {
            problems.push(FieldProblem::new(
                "points",
                "The battle size is 50 to 2000 points.",
            ));
        }
        if !(1..=30).contains(&input.turns) {
            problems.push(FieldProblem::new(
                "turns",
                "A campaign lasts 1 to 30 turns.",
            ));
        }
        let start = if input.map == BLANK {
            match War::from_id(&input.war) {
                Some(war) => Some((blank_map(), war.id().to_string(), BLANK_SIDES)),
                None => {
                    problems.push(FieldProblem::new(
                        "war",
                        "Choose the war the campaign is fought in.",
                    ));
                    None
                }
            }
        } else {
            match preset(&input.map) {
                Some(p) => Some((p.map, p.war.to_string(), p.sides)),
                None => {
                    problems.push(FieldProblem::new("map", "Choose a map from the list."));
                    None
                }
            }
        };
        // A side left empty takes the map's name for it, which is unknown without a map.
        let side_names: Vec<Option<&str>> = (0..2)
            .map(|i| {
                let given = input.sides[i].trim();
                if given.is_empty() {
                    start.as_ref().map(|(_, _, sides)| sides[i].0)
                } else {
                    Some(given)
                }
            })
            .collect();
        if side_names
            .iter()
            .flatten()
            .any(|n| n.chars().count() > MAX_SIDE_NAME_CHARS)
        {
            problems.push(FieldProblem::new(
                "sides",
                "A side's name is at most 60 characters.",
            ));
        } else if side_names[0].is_some() && side_names[0] == side_names[1] {
            problems.push(FieldProblem::new(
                "sides",
                "The two sides need different names.",
            ));
        }
        let scenario = match input.scenario.as_deref() {
            None | Some("") => None,
            Some(s) => match ScenarioId::from_id(s) {
                Some(id) => Some(id.id().to_string()),
                None => {
                    problems.push(FieldProblem::new(
                        "scenario",
                        "Choose a scenario from the list.",
                    ));
                    None
                }
            },
        };
        let Some((map, war, default_sides)) = start.filter(|_| problems.is_empty()) else {
            return Err(problems);
        };
        let side = |i: usize| SideSetup {
            name: side_names[i].unwrap_or(default_sides[i].0).to_string(),
            home: default_sides[i].1.to_string(),
        };
        let settings = Settings {
            name: name.to_string(),
            rule_system: rule_system.to_string(),
            war,
            points: input.points,
            turns: input.turns,
            sides: [side(0), side(1)],
            rules: input.rules.clone(),
            scenario,
        };
        Ok((settings, map))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        Settings::parse(input, "lotf")
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
        let (s, map) = Settings::parse(&input(), "lotf").expect("sound");
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
        let (s, map) = Settings::parse(&blank, "lotf").expect("sound");
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
            Settings::parse(&accents, "lotf").is_ok(),
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
            assert!(Settings::parse(&i, "lotf").is_ok());
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
        let (s, _) = Settings::parse(&chosen, "lotf").expect("sound");
        assert_eq!(s.scenario.as_deref(), Some(ScenarioId::ALL[0].id()));
        let empty = SettingsInput {
            scenario: Some(String::new()),
            ..input()
        };
        assert_eq!(
            Settings::parse(&empty, "lotf").expect("sound").0.scenario,
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
}
