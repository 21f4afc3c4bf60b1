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
    /// Its size at the battle's start and its upgrades, so that elements of the same name can
    /// be told apart ("Small, Hessians").
    pub detail: String,
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
                    detail: {
                        let size =
                            e.id.as_ref()
                                .and_then(|id| force.elements.get(id))
                                .and_then(|st| st.size)
                                .unwrap_or(e.size);
                        std::iter::once(size.label())
                            .chain(e.upgrades.iter().map(|u| u.label()))
                            .collect::<Vec<_>>()
                            .join(", ")
                    },
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

/// The form's fields as a recorded result filled them in: every element's end state and hits,
/// each commander's fate, the turns and the objectives. Empty for a battle with no recorded
/// report (one fought by the simulator).
pub fn fields_of(recorded: &BattleRow) -> Vec<(String, String)> {
    let Some(lotf::Outcome::Tabletop { report, .. }) = recorded
        .result
        .as_deref()
        .and_then(|r| serde_json::from_str::<lotf::Outcome>(r).ok())
    else {
        return Vec::new();
    };
    fields_of_report(&report)
}

/// The form's fields as a tabletop report fills them in (a recorded result, or the table's state
/// when the players finish at the table).
pub fn fields_of_report(report: &TabletopReport) -> Vec<(String, String)> {
    let prefix = |side: Side| match side {
        Side::Attacker => "a",
        Side::Defender => "d",
    };
    let mut fields = vec![
        ("turns".to_string(), report.turns_played.to_string()),
        (
            "obj_attacker".to_string(),
            report.attacker_objectives.to_string(),
        ),
        (
            "obj_defender".to_string(),
            report.defender_objectives.to_string(),
        ),
    ];
    for e in &report.elements {
        let key = format!("{}_{}", prefix(e.side), e.id);
        let state = match e.state {
            FinalState::Fit => "fit",
            FinalState::Shaken => "shaken",
            FinalState::Exhausted => "exhausted",
            FinalState::Shattered => "shattered",
            FinalState::LeftTheField => "left",
        };
        fields.push((format!("state_{key}"), state.to_string()));
        fields.push((format!("hits_{key}"), e.hits.to_string()));
    }
    for c in &report.commanders {
        let fate = match c.fate {
            CommanderFate::Unharmed => "unharmed",
            CommanderFate::Killed => "killed",
            CommanderFate::Captured => "captured",
        };
        fields.push((
            format!("fate_{}_{}", prefix(c.side), c.id),
            fate.to_string(),
        ));
    }
    fields
}

/// Reads the record form into the rules core's report; unreadable entries become problems.
/// The report comes back either way, with harmless stand-ins for what could not be read, so
/// the rules core can name its own problems with the rest in the same answer.
fn read_report(
    cat: &lotf::Catalogue,
    setup: &BattleSetup,
    fields: &[(String, String)],
) -> (TabletopReport, Vec<String>) {
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
                    FinalState::Fit
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
    // Unreadable numbers stand in as values the rules core accepts, so it says nothing more
    // about them; the form's own words give the range the rules core checks.
    let number = |key: &str, what: &str, (low, high): (u32, u32), problems: &mut Vec<String>| {
        let text = field(fields, key).unwrap_or("").trim();
        // An empty count of objectives is none; an empty number of turns is a question unanswered.
        let text = if text.is_empty() && low == 0 {
            "0"
        } else {
            text
        };
        text.parse().unwrap_or_else(|_| {
            problems.push(format!("{what} is a whole number from {low} to {high}."));
            low
        })
    };
    let max_turns = u32::from(cat.tables().game_length_turns);
    let objectives = lotf::record::objective_count(setup.scenario);
    let turns_played = number(
        "turns",
        "The number of turns",
        (1, max_turns),
        &mut problems,
    );
    let attacker_objectives = number(
        "obj_attacker",
        "The attacker's objectives",
        (0, objectives),
        &mut problems,
    );
    let defender_objectives = number(
        "obj_defender",
        "The defender's objectives",
        (0, objectives),
        &mut problems,
    );
    (
        TabletopReport {
            turns_played,
            elements,
            commanders,
            attacker_objectives,
            defender_objectives,
        },
        problems,
    )
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
            // The arithmetic ends with the level and its score, the winner's first.
            Ok(format!(
                "{winner} — {}. Points lost: {} {}, {} {}.",
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
            let cat = &ctx.rules.lotf;
            match read_report(cat, &setup, fields) {
                (report, problems) if problems.is_empty() => {
                    if check_only {
                        return Ok(preview(cat, &setup, &report));
                    }
                    report
                }
                // Every problem at once: what could not be read, and what the rules core
                // finds wrong with the rest.
                (report, problems) => {
                    let mut all: Vec<ErrorDetail> = problems
                        .into_iter()
                        .map(|message| ErrorDetail {
                            field: None,
                            message,
                        })
                        .collect();
                    if let Err(more) = lotf::record::assess(cat, &setup, &report) {
                        all.extend(details(more));
                    }
                    return Ok(RecordAnswer::Refused(all));
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
