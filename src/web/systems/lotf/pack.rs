//! Land of the Free's printed battle pack (issue 19, item 10): both sides' roster sheets as they
//! stood, with the commanders' rolled ratings; the scenario briefing in Muster's own words
//! (deployment, objectives, turns, special rules: the lay-out Muster's simulator plays, M-22,
//! which `docs/simulator.md` tabulates); and the two-sided quick reference.

use askama::Template;

use super::battle_pages::{scenario_name, setup_of};
use super::print::reference::{self, Reference};
use super::print::sheet::{self, Sheet};
use super::print::{CommanderState, ElementState, ForceState};
use crate::rules::systems::lotf::catalogue::{Commanders, Tables};
use crate::rules::systems::lotf::record::objective_count;
use crate::rules::systems::lotf::{self, ForceSetup, ScenarioId};
use crate::store::battles::BattleRow;
use crate::web::state::AppState;
use crate::web::systems::battles::Players;
use crate::web::systems::table::{BattlePack, BriefingSection};
use crate::web::AppError;

#[derive(Template)]
#[template(path = "systems/lotf/print/_sheet_article.html")]
struct SheetArticle {
    s: Sheet,
}

#[derive(Template)]
#[template(path = "systems/lotf/_reference_sides.html")]
struct ReferenceSides<'a> {
    r: Reference,
    t: &'a Tables,
    cmd: &'a Commanders,
}

/// A side as it stood at the battle's start: sizes the set-up gives, and every commander's
/// rolled rating with what it gives.
fn force_state(cat: &lotf::Catalogue, row: &BattleRow, force: &ForceSetup) -> ForceState {
    let mut fs = ForceState {
        label: Some(format!("battle {}: {}", row.id, row.title)),
        ..Default::default()
    };
    for (id, c) in &force.commanders {
        if let Some(state) = CommanderState::rolled(cat, c.rating_roll, vec![]) {
            fs.commanders.insert(id.clone(), state);
        }
    }
    for (id, e) in &force.elements {
        if e.size.is_some() {
            fs.elements.insert(
                id.clone(),
                ElementState {
                    size: e.size,
                    ..Default::default()
                },
            );
        }
    }
    fs
}

/// Where each side sets up, and what else the scenario asks, in Muster's words.
fn scenario_words(scenario: ScenarioId) -> (&'static str, &'static str, &'static str) {
    match scenario {
        ScenarioId::TakeTheField => (
            "Both sides set up within 12\" of their own long edge.",
            "Four objectives: two in each half of the table, 12\" apart, the nearer pair to each side's own line.",
            "None beyond the ordinary rules.",
        ),
        ScenarioId::Reconnoiter => (
            "Only Vanguard elements start on the table. Every other group marches on at its own edge, one group a turn from turn 1.",
            "None: victory points decide.",
            "Reserves arrive one group a side each turn.",
        ),
        ScenarioId::HoldTheGround => (
            "Nobody starts on the table: both sides march on at their own edges from turn 1.",
            "Three objectives along the centre line.",
            "The Force Commanders have no Command Points in turn 1.",
        ),
        ScenarioId::FlankAttack => (
            "The defender sets up its line. The attacker sets up too, except its group with the most cavalry, which arrives in turn 3 at the left end of the table, level with the defender's line.",
            "Three objectives 6\" in from the defender's edge, each with one defending element on it at the start.",
            "The flanking group's attacks in the turn it arrives count as flank attacks.",
        ),
        ScenarioId::Surrounded => (
            "One defending group sets up in the middle near its own edge, one element on each objective; the rest of the defender arrives at its edge from turn 2. The attacker's Vanguard elements start on the wings, at least 18\" from the enemy; its other groups enter at the two short edges from turn 1.",
            "Three objectives, each with one defending element on it at the start.",
            "The defenders on the objectives hold their ground.",
        ),
        ScenarioId::Ambush => (
            "The defender marches in column along the middle of the table, the left short edge being its own. The attacker's two best infantry elements lie in cover 7\" either side of the column's middle; the rest of the attacker arrives together in turn 2 from both long edges.",
            "None: victory points decide.",
            "The two ambushing elements act from turn 1.",
        ),
        ScenarioId::FrontalAssault => (
            "The defender sets up 18\" from its edge behind linear obstacles and keeps its last group back, to arrive from turn 2. The attacker sets up 12\" from its edge.",
            "Three objectives 12\" in from the defender's edge.",
            "The defenders hold their works and fight across them.",
        ),
        ScenarioId::MeetingEngagement => (
            "The defender sets up; the attacker marches on from turn 1, one group a turn.",
            "None: victory points decide.",
            "Reserves arrive one group a turn.",
        ),
    }
}

fn briefing(
    cat: &lotf::Catalogue,
    row: &BattleRow,
    setup: &lotf::BattleSetup,
    players: &Players,
) -> Vec<BriefingSection> {
    let (deployment, objectives, special) = scenario_words(setup.scenario);
    let count = objective_count(setup.scenario);
    let deciding = if setup.scenario.uses_objectives() {
        format!(
            "Objectives decide (R-22): whoever holds more of the {count} at the end wins; level objectives go to victory points."
        )
    } else {
        "Victory points decide (R-21): each side scores on the points the other lost.".to_string()
    };
    let mut sides = Vec::new();
    for (role, force, player) in [
        ("Attacker", &setup.attacker, &players.attacker),
        ("Defender", &setup.defender, &players.defender),
    ] {
        sides.push(format!(
            "{role}: {} ({}), played by {player}.",
            force.roster.name,
            force.roster.nation.label()
        ));
    }
    let mut out = vec![
        BriefingSection {
            heading: "The sides".into(),
            lines: sides,
        },
        BriefingSection {
            heading: "Deployment".into(),
            lines: vec![deployment.to_string()],
        },
        BriefingSection {
            heading: "Objectives".into(),
            lines: vec![objectives.to_string(), deciding],
        },
        BriefingSection {
            heading: "Turns".into(),
            lines: vec![format!(
                "The game lasts {} turns; it ends earlier when a force breaks (R-23).",
                cat.tables().game_length_turns
            )],
        },
        BriefingSection {
            heading: "Special rules".into(),
            lines: vec![
                special.to_string(),
                "This is the lay-out Muster's simulator plays (M-22); agree any change with your opponent before you start.".into(),
            ],
        },
    ];
    let rolls: Vec<String> = serde_json::from_str(&row.rolls).unwrap_or_default();
    if !rolls.is_empty() {
        out.push(BriefingSection {
            heading: "Rolled at set-up".into(),
            lines: rolls,
        });
    }
    out
}

pub fn pack(state: &AppState, row: &BattleRow, players: &Players) -> Result<BattlePack, AppError> {
    let cat = &state.app.rules.lotf;
    let setup = setup_of(row)?;
    let today = chrono::Utc::now().format("%Y-%m-%d").to_string();
    let mut sheets = Vec::new();
    for (role, force) in [("Attacker", &setup.attacker), ("Defender", &setup.defender)] {
        let fs = force_state(cat, row, force);
        let mut s = sheet::build(cat, &force.roster, Some(&fs), &today);
        s.state_label = format!("{role} in battle {}: {}", row.id, row.title);
        sheets.push(SheetArticle { s }.render()?);
    }
    let reference = ReferenceSides {
        r: reference::build(cat),
        t: cat.tables(),
        cmd: cat.commanders(),
    }
    .render()?;
    Ok(BattlePack {
        scenario: scenario_name(cat, &row.scenario).unwrap_or_else(|| row.scenario.clone()),
        briefing: briefing(cat, row, &setup, players),
        sheets,
        reference,
    })
}
