//! Recording a Land of the Free game played on the table: the form's fields (how every element
//! ended the game, each commander's fate, turns and objectives), reading them into the rules
//! core's report, and checking or saving it. The generic record page keeps the frame.

use askama::Template;

use super::battle_pages::setup_of;
use crate::app::battles as records;
use crate::app::{self, Actor, ErrorDetail};
use crate::rules::systems::lotf::record::{
    CommanderFate, CommanderReport, ElementReport, FinalState, RecordProblem, TabletopReport,
};
use crate::rules::systems::lotf::{self, BattleSetup, Side};
use crate::store::battles::BattleRow;
use crate::web::state::AppState;
use crate::web::systems::battles::{RecordAnswer, RecordEntry};
use crate::web::systems::lotf::battle_pages::scenario_name;
use crate::web::AppError;

pub struct RecordElement {
    pub key: String,
    pub name: String,
    pub group: usize,
    pub state: String,
    pub hits: String,
}

pub struct RecordCommander {
    pub key: String,
    pub name: String,
    pub fate: String,
}

pub struct RecordSide {
    pub role: &'static str,
    pub force: String,
    pub elements: Vec<RecordElement>,
    pub commanders: Vec<RecordCommander>,
}

#[derive(Template)]
#[template(path = "systems/lotf/battles/record.html")]
struct RecordFields {
    scenario: String,
    points: i32,
    objectives: u32,
    max_turns: u8,
    sides: Vec<RecordSide>,
    turns: String,
    obj_attacker: String,
    obj_defender: String,
}

fn field<'a>(fields: &'a [(String, String)], key: &str) -> Option<&'a str> {
    fields
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

pub fn form(
    state: &AppState,
    row: &BattleRow,
    fields: &[(String, String)],
) -> Result<String, AppError> {
    let cat = &state.app.rules.lotf;
    let setup = setup_of(row)?;
    let mut sides = Vec::new();
    for (side, role, force) in [
        ("a", "Attacker", &setup.attacker),
        ("d", "Defender", &setup.defender),
    ] {
        let mut elements = Vec::new();
        for (gi, g) in force.roster.groups.iter().enumerate() {
            for e in &g.elements {
                let key = format!("{side}_{}", e.id.clone().unwrap_or_default());
                elements.push(RecordElement {
                    state: field(fields, &format!("state_{key}"))
                        .unwrap_or("fit")
                        .to_string(),
                    hits: field(fields, &format!("hits_{key}"))
                        .unwrap_or("0")
                        .to_string(),
                    key,
                    name: e.name.clone(),
                    group: gi + 1,
                });
            }
        }
        let commanders = force
            .roster
            .force_commander
            .iter()
            .chain(
                force
                    .roster
                    .groups
                    .iter()
                    .filter_map(|g| g.commander.as_ref()),
            )
            .map(|c| {
                let key = format!("{side}_{}", c.id.clone().unwrap_or_default());
                RecordCommander {
                    fate: field(fields, &format!("fate_{key}"))
                        .unwrap_or("unharmed")
                        .to_string(),
                    key,
                    name: if c.name.is_empty() {
                        "(unnamed)".into()
                    } else {
                        c.name.clone()
                    },
                }
            })
            .collect();
        sides.push(RecordSide {
            role,
            force: force.roster.name.clone(),
            elements,
            commanders,
        });
    }
    Ok(RecordFields {
        scenario: scenario_name(cat, &row.scenario)
            .unwrap_or_else(|| row.scenario.replace('_', " ")),
        points: row.points,
        objectives: lotf::record::objective_count(setup.scenario),
        max_turns: cat.tables().game_length_turns,
        sides,
        turns: field(fields, "turns").unwrap_or("6").to_string(),
        obj_attacker: field(fields, "obj_attacker").unwrap_or("0").to_string(),
        obj_defender: field(fields, "obj_defender").unwrap_or("0").to_string(),
    }
    .render()?)
}

/// Reads the record form into the rules core's report; unreadable entries become problems.
fn read_report(
    setup: &BattleSetup,
    fields: &[(String, String)],
) -> Result<TabletopReport, Vec<String>> {
    let mut problems = Vec::new();
    let mut elements = Vec::new();
    let mut commanders = Vec::new();
    for (side, prefix, force) in [
        (Side::Attacker, "a", &setup.attacker),
        (Side::Defender, "d", &setup.defender),
    ] {
        for e in force.roster.groups.iter().flat_map(|g| &g.elements) {
            let id = e.id.clone().unwrap_or_default();
            let key = format!("{prefix}_{id}");
            let state = match field(fields, &format!("state_{key}")).unwrap_or("") {
                "fit" => FinalState::Fit,
                "shaken" => FinalState::Shaken,
                "exhausted" => FinalState::Exhausted,
                "shattered" => FinalState::Shattered,
                "left" => FinalState::LeftTheField,
                _ => {
                    problems.push(format!("Choose how {} ended the game.", e.name));
                    continue;
                }
            };
            let hits = match field(fields, &format!("hits_{key}")).unwrap_or("0").trim() {
                "" => 0,
                t => t.parse::<u32>().unwrap_or_else(|_| {
                    problems.push(format!("{}: hits are a whole number from 0.", e.name));
                    0
                }),
            };
            elements.push(ElementReport {
                side,
                id,
                state,
                hits,
            });
        }
        for c in force.roster.force_commander.iter().chain(
            force
                .roster
                .groups
                .iter()
                .filter_map(|g| g.commander.as_ref()),
        ) {
            let id = c.id.clone().unwrap_or_default();
            let fate = match field(fields, &format!("fate_{prefix}_{id}")).unwrap_or("unharmed") {
                "killed" => CommanderFate::Killed,
                "captured" => CommanderFate::Captured,
                _ => CommanderFate::Unharmed,
            };
            commanders.push(CommanderReport { side, id, fate });
        }
    }
    let number = |key: &str, what: &str, problems: &mut Vec<String>| -> u32 {
        field(fields, key)
            .unwrap_or("0")
            .trim()
            .parse()
            .unwrap_or_else(|_| {
                problems.push(format!("{what} is a whole number from 0."));
                0
            })
    };
    let turns_played = number("turns", "The number of turns", &mut problems);
    let attacker_objectives = number("obj_attacker", "The attacker's objectives", &mut problems);
    let defender_objectives = number("obj_defender", "The defender's objectives", &mut problems);
    if problems.is_empty() {
        Ok(TabletopReport {
            turns_played,
            elements,
            commanders,
            attacker_objectives,
            defender_objectives,
        })
    } else {
        Err(problems)
    }
}

fn details(problems: Vec<RecordProblem>) -> Vec<ErrorDetail> {
    problems
        .into_iter()
        .map(|p| ErrorDetail {
            field: Some(p.field),
            message: p.message,
        })
        .collect()
}

/// What the entries add up to, in words, without saving them.
fn preview(cat: &lotf::Catalogue, setup: &BattleSetup, report: &TabletopReport) -> RecordAnswer {
    RecordAnswer::Checked(match lotf::record::assess(cat, setup, report) {
        Ok(o) => {
            let winner = match o.victory.winner {
                Some(Side::Attacker) => format!("{} would win", setup.attacker.roster.name),
                Some(Side::Defender) => format!("{} would win", setup.defender.roster.name),
                None => "It would be a tie".into(),
            };
            Ok(format!(
                "{winner}, {}:{} — {}. Points lost: {} {}, {} {}.",
                o.victory.attacker_vp,
                o.victory.defender_vp,
                o.victory.arithmetic,
                setup.attacker.roster.name,
                o.attacker_points_lost,
                setup.defender.roster.name,
                o.defender_points_lost
            ))
        }
        Err(problems) => Err(details(problems)),
    })
}

pub async fn record(
    ctx: &app::Context,
    actor: &Actor,
    row: &BattleRow,
    version: i32,
    entry: RecordEntry<'_>,
) -> Result<RecordAnswer, app::Error> {
    let report = match entry {
        RecordEntry::Form { fields, check_only } => {
            let setup = setup_of(row)?;
            match read_report(&setup, fields) {
                Ok(report) if check_only => return Ok(preview(&ctx.rules.lotf, &setup, &report)),
                Ok(report) => report,
                Err(problems) => {
                    return Ok(RecordAnswer::Refused(
                        problems
                            .into_iter()
                            .map(|message| ErrorDetail {
                                field: None,
                                message,
                            })
                            .collect(),
                    ))
                }
            }
        }
        RecordEntry::Json(report) => serde_json::from_value(report)
            .map_err(|e| app::Error::bad_request(format!("The report could not be read: {e}.")))?,
    };
    let report = serde_json::to_value(&report).map_err(app::Error::internal)?;
    Ok(
        match records::record_result(ctx, actor, row, version, &report).await? {
            Ok(saved) => RecordAnswer::Saved(Box::new(saved)),
            Err(problems) => RecordAnswer::Refused(
                problems
                    .into_iter()
                    .map(|p| ErrorDetail {
                        field: Some(p.field),
                        message: p.message,
                    })
                    .collect(),
            ),
        },
    )
}
