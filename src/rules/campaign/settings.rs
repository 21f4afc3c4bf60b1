//! What the organiser fills in to create a campaign, checked field by field and turned into the
//! campaign's settings and starting map.

use super::error::FieldProblem;
use super::forces_api::ForceRules;
use super::movement::Map;
use super::presets::{blank_map, preset, BLANK, BLANK_SIDES};
use super::state::{HouseRules, Settings, SideSetup};

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
    /// `system` is the rule system the forces are built for: it knows the wars and scenarios.
    pub fn parse(
        input: &SettingsInput,
        system: &dyn ForceRules,
    ) -> Result<(Settings, Map), Vec<FieldProblem>> {
        let wars = system.wars();
        let known_war = |id: &str| wars.iter().any(|w| w.value == id);
        let mut problems = Vec::new();
        let name = input.name.trim();
        if name.is_empty() || name.chars().count() > MAX_NAME_CHARS {
            problems.push(FieldProblem::new(
                "name",
                "Give the campaign a name of 1 to 80 characters.",
            ));
        }
        let size = system.battle_size();
        if !(size.min..=size.max).contains(&input.points) {
            problems.push(FieldProblem::new(
                "points",
                format!(
                    "The battle size is {} to {} {}.",
                    size.min, size.max, size.unit
                ),
            ));
        }
        if !(1..=30).contains(&input.turns) {
            problems.push(FieldProblem::new(
                "turns",
                "A campaign lasts 1 to 30 turns.",
            ));
        }
        let start = if input.map == BLANK {
            match Some(input.war.as_str()).filter(|w| known_war(w)) {
                Some(war) => Some((blank_map(), war.to_string(), BLANK_SIDES)),
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
                Some(p) if known_war(p.war) => Some((p.map, p.war.to_string(), p.sides)),
                Some(_) => {
                    problems.push(FieldProblem::new(
                        "map",
                        format!(
                            "That map's war is not one {} covers; choose another map.",
                            system.system().label()
                        ),
                    ));
                    None
                }
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
            Some(s) => match system.scenario_name(s) {
                Some(_) => Some(s.to_string()),
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
            rule_system: system.system().id().to_string(),
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
