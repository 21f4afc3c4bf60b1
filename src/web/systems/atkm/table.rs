//! All the King's Men at the table and in the printed battle pack.
//!
//! At the table: the rules core's table state in the game's own terms (rank and file lost
//! against the break point, officer and ensign, resolve colour and disorder, collapsed, marched
//! off at Monmouth; each general's rating; the turn; Monmouth's Main Army and North Point's
//! edge) and the record form's fields it fills in.
//!
//! The pack: both armies' roster sheets as they stood, the briefing in Muster's own words (the
//! sample battle's deployment and victory conditions, or the open battle's), and the two-sided
//! quick reference.

use askama::Template;

use super::battles::{fields_of_report, profile_words, scenario_name, setup_of};
use super::print::reference::{self, Reference};
use super::print::sheet::{self, Sheet};
use crate::rules::system::BattleSide;
use crate::rules::systems::atkm::table::{
    generals, units, TableState, MONMOUTH, NORTH_POINT, SIDES,
};
use crate::rules::systems::atkm::types::Colour;
use crate::rules::systems::atkm::{BattleSetup, Catalogue};
use crate::store::battles::BattleRow;
use crate::web::state::AppState;
use crate::web::systems::battles::Players;
use crate::web::systems::table::{
    BattlePack, BriefingSection, Control, TableSide, TableUnit, TableView,
};
use crate::web::AppError;

fn read(
    cat: &Catalogue,
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

fn role(side: BattleSide) -> (&'static str, &'static str) {
    match side {
        BattleSide::Attacker => ("Attacker", "attacker"),
        BattleSide::Defender => ("Defender", "defender"),
    }
}

fn yes_no(label: &str, now: bool, what: &'static str, key: &str, yes: &str, no: &str) -> Control {
    Control::choice(
        label,
        if now {
            yes.to_lowercase()
        } else {
            no.to_lowercase()
        },
        what,
        key.to_string(),
        &[(0, no), (1, yes)],
        i32::from(now),
    )
}

fn colour_index(c: Colour) -> i32 {
    Colour::ALL
        .iter()
        .position(|x| *x == c)
        .and_then(|i| i32::try_from(i).ok())
        .unwrap_or(0)
}

pub fn view(state: &AppState, row: &BattleRow, table: &str) -> Result<TableView, AppError> {
    let cat = &state.app.rules.atkm;
    let (setup, t) = read(cat, row, table)?;
    let mut turn = Control::count(
        "Turn",
        format!("{} of {}", t.turn, setup.turns),
        "turn",
        String::new(),
        "the battle",
    );
    turn.choices[0].title = "Back one turn".into();
    turn.choices[1].title =
        "On to the next turn: colours back to their start, disorder removed".into();
    let all = units(cat, &setup);
    let leaders = generals(&setup);
    let colours: Vec<(i32, &str)> = Colour::ALL
        .iter()
        .map(|c| (colour_index(*c), c.label()))
        .collect();
    let mut sides = Vec::new();
    for side in SIDES {
        let force = setup.force(side);
        let (role, side_id) = role(side);
        let mut out = Vec::new();
        let mut starting = 0u32;
        let mut lost = 0u32;
        for u in all.iter().filter(|u| u.side == side) {
            let Some(m) = t.units.get(&u.key) else {
                continue;
            };
            let name = u.name();
            let later = u.doc.arrives == "reinforcement";
            let collapsed = u.collapsed(m);
            if !later || t.main_army_turn.is_some() {
                starting += 1;
                if collapsed {
                    lost += 1;
                }
            }
            let mut status = vec![if collapsed {
                "Collapsed".to_string()
            } else if m.left_table {
                "Marched off the north edge".to_string()
            } else {
                format!(
                    "{} of {} left, collapses at {}",
                    u.left(m),
                    u.profile.rank_and_file,
                    u.profile.break_point
                )
            }];
            if !collapsed {
                status.push(m.colour.label().to_string());
                if m.disordered {
                    status.push("disordered".into());
                }
            }
            if m.officer_lost {
                status.push("officer lost".into());
            }
            if m.ensign_lost {
                status.push("colours taken".into());
            }
            let mut controls = vec![Control::count(
                "Rank and file lost",
                format!("{} of {}", m.lost, u.profile.rank_and_file),
                "figures",
                u.key.clone(),
                &name,
            )];
            if u.profile.officer {
                controls.push(yes_no(
                    "Officer",
                    m.officer_lost,
                    "officer",
                    &u.key,
                    "Lost",
                    "With the unit",
                ));
            }
            if u.profile.ensign {
                controls.push(yes_no(
                    "Ensign",
                    m.ensign_lost,
                    "ensign",
                    &u.key,
                    "Lost",
                    "With the unit",
                ));
            }
            controls.push(Control::choice(
                "Colour",
                m.colour.label().to_lowercase(),
                "colour",
                u.key.clone(),
                &colours,
                colour_index(m.colour),
            ));
            controls.push(yes_no(
                "Disordered",
                m.disordered,
                "disordered",
                &u.key,
                "Disordered",
                "No",
            ));
            controls.push(yes_no(
                "Collapsed (routed or trapped)",
                m.collapsed,
                "collapsed",
                &u.key,
                "Collapsed",
                "No",
            ));
            if setup.scenario == MONMOUTH && side == BattleSide::Attacker {
                controls.push(yes_no(
                    "Marched off the north edge",
                    m.left_table,
                    "left_table",
                    &u.key,
                    "Gone north",
                    "On the table",
                ));
            }
            out.push(TableUnit {
                detail: profile_words(cat, u),
                status: status.join(" · "),
                tone: if collapsed {
                    "lost"
                } else if m.disordered || m.colour != Colour::Green || m.lost > 0 {
                    "warn"
                } else {
                    "ok"
                },
                controls,
                name,
            });
        }
        let commanders = leaders
            .iter()
            .filter(|(s, _, _, _)| *s == side)
            .map(|(_, key, g, start)| {
                let now = t.ratings.get(key).copied().unwrap_or(*start);
                let name = if g.name.trim().is_empty() {
                    "General".to_string()
                } else {
                    g.name.clone()
                };
                let mut c = Control::count(
                    &format!("{name}'s rating"),
                    format!("{now} (started at {start})"),
                    "rating",
                    key.clone(),
                    &name,
                );
                c.choices[0].title = format!("{name} loses a point of rating (General Casualties)");
                c.choices[1].title = format!("Give {name} back a point of rating");
                c
            })
            .collect();
        sides.push(TableSide {
            role,
            side_id,
            force: force.roster.name.clone(),
            summary: format!(
                "{lost} of {starting} units collapsed; the army collapses with {} or fewer left (K-16)",
                starting / 2
            ),
            controls: Vec::new(),
            units: out,
            commanders,
            commanders_label: "Generals",
        });
    }
    let mut objectives = Vec::new();
    if setup.scenario == MONMOUTH {
        objectives.push(yes_no(
            "Washington's Main Army",
            t.main_army_turn.is_some(),
            "main_army",
            "",
            "Arrived",
            "Not yet",
        ));
        if let Some(at) = t.main_army_turn {
            objectives[0].value = format!("arrived on turn {at}");
        }
    }
    if setup.scenario == NORTH_POINT {
        objectives.push(yes_no(
            "A British figure on the American edge",
            t.edge_reached,
            "edge_reached",
            "",
            "Reached",
            "Not yet",
        ));
    }
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
    let cat = &state.app.rules.atkm;
    let (setup, t) = read(cat, row, table)?;
    Ok(fields_of_report(cat, &setup, &t.report(cat, &setup)))
}

// ---------- the printed battle pack ----------

#[derive(Template)]
#[template(path = "systems/atkm/print/_sheet_article.html")]
struct SheetArticle {
    s: Sheet,
}

#[derive(Template)]
#[template(path = "systems/atkm/_reference_sides.html")]
struct ReferenceSides {
    r: Reference,
}

fn briefing(
    cat: &Catalogue,
    row: &BattleRow,
    setup: &BattleSetup,
    players: &Players,
) -> Vec<BriefingSection> {
    let scenario = cat.scenario(&setup.scenario);
    let mut sides = Vec::new();
    let mut collapse = Vec::new();
    for (side, player) in [
        (BattleSide::Attacker, &players.attacker),
        (BattleSide::Defender, &players.defender),
    ] {
        let force = setup.force(side);
        let (role, _) = role(side);
        let commanding = force
            .roster
            .generals
            .iter()
            .find(|g| g.role == "commanding")
            .map(|g| format!(", commanded by {} (rating {})", g.name, g.rating))
            .unwrap_or_default();
        sides.push(format!(
            "{role}: {}, played by {player}{commanding}.",
            force.roster.name
        ));
        let starting = force
            .roster
            .units
            .iter()
            .filter(|u| u.arrives != "reinforcement")
            .count();
        collapse.push(format!(
            "{} starts with {starting} units and collapses with {} or fewer left.",
            force.roster.name,
            starting / 2
        ));
    }
    let (deployment, objectives) = match scenario {
        Some(sc) => (sc.setup.clone(), sc.victory.clone()),
        None => (
            vec![
                "An open table by agreement: each army deploys within 12\" of its own edge, the attacker's first.".into(),
            ],
            vec![
                "No objectives: the first army to collapse loses; both at once is a draw (K-16).".into(),
            ],
        ),
    };
    let mut turns = vec![format!(
        "The battle lasts at most {} turns{}.",
        setup.turns,
        if scenario.is_none() {
            "; undecided by then it ends as a draw at nightfall (K-14)"
        } else {
            ""
        }
    )];
    turns.extend(collapse);
    let mut out = vec![
        BriefingSection {
            heading: "The sides".into(),
            lines: sides,
        },
        BriefingSection {
            heading: "Deployment".into(),
            lines: deployment,
        },
        BriefingSection {
            heading: "Objectives".into(),
            lines: objectives,
        },
        BriefingSection {
            heading: "Turns".into(),
            lines: turns,
        },
        BriefingSection {
            heading: "Special rules".into(),
            lines: vec![
                format!(
                    "{} attacks and moves on to the enemy.",
                    setup.attacker.roster.name
                ),
                "Each turn the Commanding General rolls as many dice as his rating and keeps the highest for command points; unused points are lost at the turn's end.".into(),
                "Officers and ensigns never count towards a unit's break point; a lost ensign's colours are taken.".into(),
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
    let cat = &state.app.rules.atkm;
    let setup = setup_of(row)?;
    let today = chrono::Utc::now().format("%Y-%m-%d").to_string();
    let mut sheets = Vec::new();
    for side in SIDES {
        let (role, _) = role(side);
        let mut s = sheet::build(cat, &setup.force(side).roster, &today);
        s.state_label = format!("{role} in battle {}: {}", row.id, row.title);
        sheets.push(SheetArticle { s }.render()?);
    }
    let reference = ReferenceSides {
        r: reference::build(cat),
    }
    .render()?;
    Ok(BattlePack {
        scenario: scenario_name(cat, &setup),
        briefing: briefing(cat, row, &setup, players),
        sheets,
        reference,
    })
}
