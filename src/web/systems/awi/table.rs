//! The AWI wargames rules at the table and in the printed battle pack.
//!
//! At the table: the rules core's table state (`rules::systems::awi::table`) in the game's own
//! terms: the move (1–12) and which side is A in it (W-1), per unit the figures lost against its
//! half-strength mark (W-3), disordered, routing (W-27), gone from the table, first volley fired
//! (W-20) and its move marker; the CinC and brigadiers killed; and the record form's fields it
//! fills in (figures lost, how each unit ended, the generals killed, the moves played).
//!
//! The pack: both orders of battle's roster sheets with every brigadier's ability as rolled at
//! set-up (W-4), the briefing of the open field in Muster's own words (W-31, W-32), and the
//! two-sided quick reference.

use askama::Template;

use super::battles::setup_of;
use super::print::{self, sheet, Reference};
use crate::rules::system::BattleSide;
use crate::rules::systems::awi::battle::{BattleSetup, EndState, UnitResult};
use crate::rules::systems::awi::record::{bases_left, fresh_units};
use crate::rules::systems::awi::table::TableState;
use crate::rules::systems::awi::types::TroopType;
use crate::rules::systems::awi::{validate, Catalogue, RosterDoc};
use crate::store::battles::BattleRow;
use crate::web::state::AppState;
use crate::web::systems::battles::Players;
use crate::web::systems::table::{
    BattlePack, BriefingSection, Control, TableSide, TableUnit, TableView,
};
use crate::web::AppError;

const SIDES: [(BattleSide, &str, &str, &str); 2] = [
    (BattleSide::Attacker, "attacker", "a", "Attacker"),
    (BattleSide::Defender, "defender", "d", "Defender"),
];

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

fn or_unnamed(name: &str, fallback: &str) -> String {
    if name.trim().is_empty() {
        fallback.to_string()
    } else {
        name.to_string()
    }
}

/// How a unit stands by its marks, in the terms of the record form (`EndState`): gone from
/// the table, every figure lost (a gun: every gunner), routing, or still fighting.
fn end_of(u: &UnitResult, figures_lost: u32, routing: bool, gone: bool) -> EndState {
    if gone {
        EndState::LeftTable
    } else if figures_lost >= u.start_figures {
        EndState::Destroyed
    } else if routing {
        EndState::Routing
    } else {
        EndState::Fighting
    }
}

/// The CinC and each brigadier of a side: (key, name).
fn generals(side: &str, roster: &RosterDoc) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if let Some(c) = &roster.cinc {
        if let Some(id) = &c.id {
            out.push((
                format!("{side}:{id}"),
                format!("CinC {}", or_unnamed(&c.name, "(unnamed)")),
            ));
        }
    }
    for (i, b) in roster.brigades.iter().enumerate() {
        if let Some((g, id)) = b.brigadier.as_ref().and_then(|g| Some((g, g.id.as_ref()?))) {
            out.push((
                format!("{side}:{id}"),
                format!(
                    "Brigadier {} ({}, ability {})",
                    or_unnamed(&g.name, "(unnamed)"),
                    or_unnamed(&b.name, &format!("Brigade {}", i + 1)),
                    g.ability_value()
                        .map_or_else(|| "not rolled".into(), |a| a.to_string())
                ),
            ));
        }
    }
    out
}

fn unit_view(cat: &Catalogue, key: &str, u: &UnitResult, t: &TableState) -> (TableUnit, EndState) {
    let m = t.units.get(key).cloned().unwrap_or_default();
    let name = or_unnamed(&u.name, "Unit");
    let now = UnitResult {
        figures_lost: m.figures_lost,
        ..u.clone()
    };
    let left = bases_left(cat, &now);
    let half = left * 2 <= u.start_bases;
    let end = end_of(u, m.figures_lost, m.routing, m.gone);
    let mut status = vec![end.label().to_string()];
    if end == EndState::Fighting {
        if m.disordered {
            status.push("disordered".into());
        }
        if half {
            status.push("at or below half strength".into());
        }
        match m.marker {
            1 => status.push("half move".into()),
            2 => status.push("no move".into()),
            _ => {}
        }
    }
    let is_gun = u.troop_type == TroopType::Artillery;
    let (figures, bases) = if is_gun {
        ("Gunners lost", "gunners")
    } else {
        ("Figures lost", "bases")
    };
    let mut controls = vec![
        Control::count(
            figures,
            format!(
                "{} of {} ({left} of {} {bases} left; half at {})",
                m.figures_lost,
                u.start_figures,
                u.start_bases,
                u.start_bases / 2
            ),
            "figures",
            key.to_string(),
            &name,
        ),
        Control::yes_no(
            "Disordered",
            m.disordered,
            "disordered",
            key,
            "Disordered",
            "No",
        ),
        Control::yes_no("Routing (W-27)", m.routing, "routing", key, "Routing", "No"),
        Control::yes_no("Gone", m.gone, "gone", key, "Off the table", "On the table"),
        Control::choice(
            "Move marker",
            ["full move", "half move", "no move"][usize::from(m.marker.min(2))].into(),
            "marker",
            key.to_string(),
            &[(0, "Full"), (1, "Half"), (2, "None")],
            i32::from(m.marker),
        ),
    ];
    if u.troop_type == TroopType::Infantry {
        controls.push(Control::yes_no(
            "First volley fired (W-20)",
            m.first_volley,
            "first_volley",
            key,
            "Fired",
            "Not yet",
        ));
    }
    let view = TableUnit {
        detail: format!(
            "{} · {} {bases} · brigade {}",
            u.troop_type.label(),
            u.start_bases,
            u.brigade + 1
        ),
        status: status.join(" · "),
        tone: match end {
            EndState::Fighting if m.disordered || half => "warn",
            EndState::Fighting => "ok",
            EndState::Routing => "warn",
            _ => "lost",
        },
        controls,
        name,
    };
    (view, end)
}

pub fn view(state: &AppState, row: &BattleRow, table: &str) -> Result<TableView, AppError> {
    let cat = &state.app.rules.awi;
    let (setup, t) = read(cat, row, table)?;
    let moves = setup.turns * cat.victory.moves_per_turn;
    let mut turn = Control::count(
        "Move",
        format!(
            "{} of {moves} (turn {}) · side A: {}",
            t.move_number,
            t.move_number.div_ceil(cat.victory.moves_per_turn.max(1)),
            setup.force(t.side_a).roster.name
        ),
        "move",
        String::new(),
        "the game",
    );
    turn.choices[0].title = "Back one move".into();
    turn.choices[1].title = "On to the next move (the other side is A)".into();
    let mut sides = Vec::new();
    for (side, side_id, _, role) in SIDES {
        let roster = &setup.force(side).roster;
        let units = fresh_units(cat, roster);
        let mut out = Vec::new();
        let mut lost = 0;
        for u in &units {
            let key = format!("{side_id}:{}", u.id);
            let (view, end) = unit_view(cat, &key, u, &t);
            if u.troop_type != TroopType::Artillery && end.gone() {
                lost += 1;
            }
            out.push(view);
        }
        let counted = units
            .iter()
            .filter(|u| u.troop_type != TroopType::Artillery)
            .count() as u32;
        let commanders: Vec<Control> = generals(side_id, roster)
            .into_iter()
            .map(|(key, name)| {
                let dead = t.generals_killed.contains(&key);
                Control::yes_no(&name, dead, "general_killed", &key, "Killed", "Alive")
            })
            .collect();
        let killed = commanders.iter().filter(|c| c.value == "killed").count();
        sides.push(TableSide {
            role,
            side_id,
            force: roster.name.clone(),
            summary: format!(
                "{lost} of {counted} units routing, gone or destroyed (guns not counted); the army breaks at {} (W-31) · {killed} general{} killed",
                validate::break_threshold(counted),
                if killed == 1 { "" } else { "s" }
            ),
            controls: Vec::new(),
            units: out,
            commanders,
            commanders_label: "Generals",
        });
    }
    Ok(TableView {
        turn,
        sides,
        objectives: Vec::new(),
    })
}

/// The record form's fields (as `battles::record_form` names them) as the table stands: the
/// moves played, each unit's figures lost and how it stands, the generals killed.
pub fn record_fields(
    state: &AppState,
    row: &BattleRow,
    table: &str,
) -> Result<Vec<(String, String)>, AppError> {
    let cat = &state.app.rules.awi;
    let (setup, t) = read(cat, row, table)?;
    let mut fields = vec![("moves".to_string(), t.move_number.to_string())];
    for (side, side_id, prefix, _) in SIDES {
        let roster = &setup.force(side).roster;
        for u in fresh_units(cat, roster) {
            let m = t
                .units
                .get(&format!("{side_id}:{}", u.id))
                .cloned()
                .unwrap_or_default();
            let end = end_of(&u, m.figures_lost, m.routing, m.gone);
            fields.push((
                format!("lost_{prefix}_{}", u.id),
                m.figures_lost.to_string(),
            ));
            fields.push((format!("state_{prefix}_{}", u.id), end.id().to_string()));
        }
        for (key, _) in generals(side_id, roster) {
            if t.generals_killed.contains(&key) {
                let id = key.split_once(':').map_or(key.as_str(), |(_, id)| id);
                fields.push((format!("killed_{prefix}_{id}"), "1".to_string()));
            }
        }
    }
    Ok(fields)
}

// ---------- the printed battle pack ----------

#[derive(Template)]
#[template(path = "systems/awi/print/_pack_sheet.html")]
struct SheetArticle {
    s: sheet::Sheet,
}

#[derive(Template)]
#[template(path = "systems/awi/_pack_reference.html")]
struct ReferenceSides<'a> {
    r: Reference<'a>,
}

fn briefing(
    cat: &Catalogue,
    row: &BattleRow,
    setup: &BattleSetup,
    players: &Players,
) -> Vec<BriefingSection> {
    let v = &cat.victory;
    let mut sides = Vec::new();
    let mut breaks = Vec::new();
    for ((side, _, _, role), player) in SIDES
        .into_iter()
        .zip([&players.attacker, &players.defender])
    {
        let roster = &setup.force(side).roster;
        let report = validate::validate(cat, roster);
        sides.push(format!(
            "{role}: {}{}, played by {player}: {} units and {} guns, {} bases, {} men.",
            roster.name,
            roster
                .side
                .as_deref()
                .filter(|s| !s.trim().is_empty())
                .map_or(String::new(), |s| format!(" ({s})")),
            report.army_units,
            report.guns,
            report.bases,
            report.men
        ));
        breaks.push(format!(
            "{} breaks when {} of its {} units (guns not counted) are routing, routed off or destroyed at the end of a turn (W-31).",
            roster.name, report.break_threshold, report.army_units
        ));
    }
    let mut turns = vec![format!(
        "The battle lasts {} turns of {} moves each, unless an army breaks first (Muster's game length, W-32). In each move one side is A: it moves while the other side fires (W-1); side A changes every move.",
        setup.turns, v.moves_per_turn
    )];
    turns.extend(breaks);
    let first = &setup.force(setup.first_side_a).roster.name;
    let mut out = vec![
        BriefingSection {
            heading: "The sides".into(),
            lines: sides,
        },
        BriefingSection {
            heading: "Deployment".into(),
            lines: vec!["An open field with no terrain. Each army sets up in a zone 12\" deep along its own long edge; the two zones are 24\" apart (W-32).".into()],
        },
        BriefingSection {
            heading: "Victory (Muster's rule, W-31)".into(),
            lines: vec![
                format!(
                    "No objectives: points decide. Each side scores on the enemy: {} for each unit destroyed or routed off, {} for each unit routing at the end, {} for each unit at or below half strength, {} for each gun lost, and {} when the enemy army broke.",
                    v.destroyed_or_routed_off, v.routing_at_end, v.at_or_below_half, v.gun_lost, v.enemy_broke
                ),
                format!(
                    "A difference of up to {} points is a draw, up to {} a minor victory, more a major one; an army that breaks while the other does not loses a major defeat.",
                    v.draw_max, v.minor_max
                ),
            ],
        },
        BriefingSection {
            heading: "Turns".into(),
            lines: turns,
        },
        BriefingSection {
            heading: "The first move".into(),
            lines: vec![format!(
                "{first} won the roll-off ({} against {}) and is side A in the first move (W-1).",
                setup.roll_off.0.max(setup.roll_off.1),
                setup.roll_off.0.min(setup.roll_off.1)
            )],
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
    let cat = &state.app.rules.awi;
    let setup = setup_of(row)?;
    let today = chrono::Utc::now().format("%Y-%m-%d").to_string();
    let mut sheets = Vec::new();
    for (side, _, _, _) in SIDES {
        let roster = &setup.force(side).roster;
        let colour = print::side_colour(roster.side.as_deref().unwrap_or("")).class();
        let s = sheet::build(cat, roster, colour, &today);
        sheets.push(SheetArticle { s }.render()?);
    }
    let reference = ReferenceSides {
        r: Reference::new(cat),
    }
    .render()?;
    Ok(BattlePack {
        scenario: "An open field".into(),
        briefing: briefing(cat, row, &setup, players),
        sheets,
        reference,
    })
}
