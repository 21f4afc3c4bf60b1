//! Land of the Free at the table (issue 19, item 8): the rules core's table state shown in the
//! game's own terms (hits against Discipline, Disorder Markers, the discipline level, routed or
//! destroyed, commanders' fates, objectives, the turn), and the record form's fields it fills in
//! when the players finish.

use super::battle_pages::setup_of;
use super::record::fields_of_report;
use crate::rules::systems::lotf::record::{CommanderFate, FinalState};
use crate::rules::systems::lotf::table::{
    commander_keys, elements, level_value, max_turns, Gone, TableState, MAX_DISORDER,
};
use crate::rules::systems::lotf::{self, BattleSetup, Side};
use crate::rules::table::Holder;
use crate::store::battles::BattleRow;
use crate::web::state::AppState;
use crate::web::systems::table::{Control, TableSide, TableUnit, TableView};
use crate::web::AppError;

fn read(
    cat: &lotf::Catalogue,
    row: &BattleRow,
    table: &str,
) -> Result<(BattleSetup, TableState), AppError> {
    let setup = setup_of(row)?;
    let state = TableState::read(cat, &setup, table).map_err(|e| {
        AppError::from(crate::app::Error::internal(format!(
            "battle {}'s table: {e}",
            row.id
        )))
    })?;
    Ok((setup, state))
}

fn level_name(cat: &lotf::Catalogue, level: lotf::DisciplineLevel) -> String {
    cat.tables()
        .discipline_levels
        .iter()
        .find(|d| d.id == level)
        .map(|d| d.name.clone())
        .unwrap_or_else(|| level.label().to_string())
}

/// Commander names with their posts, by key, in [`commander_keys`] order.
fn commander_names(setup: &BattleSetup) -> Vec<String> {
    let mut out = Vec::new();
    for force in [&setup.attacker, &setup.defender] {
        let roster = &force.roster;
        let name = |n: &str| {
            if n.is_empty() {
                "(unnamed)".to_string()
            } else {
                n.to_string()
            }
        };
        if let Some(c) = &roster.force_commander {
            out.push(format!("{}, Force Commander", name(&c.name)));
        }
        for (i, g) in roster.groups.iter().enumerate() {
            if let Some(c) = &g.commander {
                out.push(format!("{}, Group {}", name(&c.name), i + 1));
            }
        }
    }
    out
}

pub fn view(state: &AppState, row: &BattleRow, table: &str) -> Result<TableView, AppError> {
    let cat = &state.app.rules.lotf;
    let (setup, t) = read(cat, row, table)?;
    let max = max_turns(cat);
    let mut turn = Control::count(
        "Turn",
        format!("{} of {max}", t.turn),
        "turn",
        String::new(),
        "the game",
    );
    turn.choices[0].title = "Back one turn".into();
    turn.choices[1].title = "On to the next turn".into();
    let report = t.report(cat, &setup);
    let levels: Vec<(i32, String)> = lotf::DisciplineLevel::ALL
        .iter()
        .map(|l| (level_value(*l), level_name(cat, *l)))
        .collect();
    let level_options: Vec<(i32, &str)> = levels.iter().map(|(v, n)| (*v, n.as_str())).collect();
    let mut sides = Vec::new();
    for (side, role, side_id, force) in [
        (Side::Attacker, "Attacker", "attacker", &setup.attacker),
        (Side::Defender, "Defender", "defender", &setup.defender),
    ] {
        let mut units = Vec::new();
        let (mut lost, mut count) = (0, 0);
        for e in elements(cat, &setup).into_iter().filter(|e| e.side == side) {
            let Some(m) = t.elements.get(&e.key) else {
                continue;
            };
            count += 1;
            let end = report
                .elements
                .iter()
                .find(|r| r.side == side && Some(&r.id) == e.source.id.as_ref())
                .map_or(FinalState::Fit, |r| r.state);
            if end.is_lost() {
                lost += 1;
            }
            let name = if e.doc.name.is_empty() {
                "(unnamed element)".to_string()
            } else {
                e.doc.name.clone()
            };
            let mut status = vec![match m.gone {
                Some(Gone::Routed) => "Routed off the table".to_string(),
                Some(Gone::Destroyed) => "Destroyed".to_string(),
                None => level_name(cat, m.level),
            }];
            status.push(format!("{} of {} hits", m.hits, e.discipline));
            if m.disorder > 0 {
                status.push(format!(
                    "{} Disorder Marker{}",
                    m.disorder,
                    if m.disorder == 1 { "" } else { "s" }
                ));
            }
            let tone = if end.is_lost() {
                "lost"
            } else if m.level != lotf::DisciplineLevel::Fit
                || m.disorder > 0
                || m.hits >= e.discipline
            {
                "warn"
            } else {
                "ok"
            };
            units.push(TableUnit {
                detail: format!(
                    "{} {}, group {}",
                    e.doc.size.label(),
                    e.doc.element_type.label().to_lowercase(),
                    e.group
                ),
                status: status.join(" · "),
                tone,
                controls: vec![
                    Control::count(
                        "Hits",
                        format!("{} of {}", m.hits, e.discipline),
                        "hits",
                        e.key.clone(),
                        &name,
                    ),
                    Control::count(
                        "Disorder",
                        format!("{} of {MAX_DISORDER}", m.disorder),
                        "disorder",
                        e.key.clone(),
                        &name,
                    ),
                    Control::choice(
                        "Discipline",
                        level_name(cat, m.level),
                        "level",
                        e.key.clone(),
                        &level_options,
                        level_value(m.level),
                    ),
                    Control::choice(
                        "On the table",
                        match m.gone {
                            None => "yes".into(),
                            Some(Gone::Routed) => "routed".into(),
                            Some(Gone::Destroyed) => "destroyed".into(),
                        },
                        "gone",
                        e.key.clone(),
                        &[(0, "On the table"), (1, "Routed"), (2, "Destroyed")],
                        match m.gone {
                            None => 0,
                            Some(Gone::Routed) => 1,
                            Some(Gone::Destroyed) => 2,
                        },
                    ),
                ],
                name,
            });
        }
        let names = commander_names(&setup);
        let mut commanders = Vec::new();
        let mut fallen = 0;
        for ((s, key), name) in commander_keys(&setup).into_iter().zip(names) {
            if s != side {
                continue;
            }
            let fate = t
                .commanders
                .get(&key)
                .copied()
                .unwrap_or(CommanderFate::Unharmed);
            let (words, value) = match fate {
                CommanderFate::Unharmed => ("unharmed", 0),
                CommanderFate::Killed => ("killed", 1),
                CommanderFate::Captured => ("captured", 2),
            };
            if value > 0 {
                fallen += 1;
            }
            commanders.push(Control::choice(
                &name,
                words.into(),
                "commander",
                key,
                &[(0, "Unharmed"), (1, "Killed"), (2, "Captured")],
                value,
            ));
        }
        sides.push(TableSide {
            role,
            side_id,
            force: force.roster.name.clone(),
            summary: format!(
                "{lost} of {count} elements lost · {fallen} commander{} lost",
                if fallen == 1 { "" } else { "s" }
            ),
            controls: Vec::new(),
            units,
            commanders,
            commanders_label: "Commanders",
        });
    }
    let objectives = t
        .objectives
        .iter()
        .enumerate()
        .map(|(i, h)| {
            Control::choice(
                &format!("Objective {}", i + 1),
                match h {
                    Holder::Nobody => "held by nobody".into(),
                    Holder::Attacker => format!("held by {}", setup.attacker.roster.name),
                    Holder::Defender => format!("held by {}", setup.defender.roster.name),
                },
                "objective",
                (i + 1).to_string(),
                &[(0, "Nobody"), (1, "Attacker"), (2, "Defender")],
                h.value(),
            )
        })
        .collect();
    Ok(TableView {
        turn,
        sides,
        objectives,
    })
}

/// The record form's fields as the table stands.
pub fn record_fields(
    state: &AppState,
    row: &BattleRow,
    table: &str,
) -> Result<Vec<(String, String)>, AppError> {
    let cat = &state.app.rules.lotf;
    let (setup, t) = read(cat, row, table)?;
    Ok(fields_of_report(&t.report(cat, &setup)))
}
