//! Liberty or Death! at the table and in the printed battle pack (issue 19, items 8 and 10).
//!
//! At the table: the rules core's table state in the game's own terms (hits against WORN /
//! SHAKEN / AUTO BROKEN, disorder and under-fire markers, ROUTING, BROKEN, routed off; Generals
//! killed; Command Points spent; the turn) and the record form's fields it fills in.
//!
//! The pack: both armies' roster sheets with the Command Points rolled at set-up, the briefing
//! of the open field in Muster's own words, and the two-sided quick reference.

use askama::Template;

use super::battles::setup_of;
use super::print::reference::{self, Reference};
use super::print::sheet::{self, Sheet};
use crate::rules::system::BattleSide;
use crate::rules::systems::lod::battle::break_point;
use crate::rules::systems::lod::record::TabletopReport;
use crate::rules::systems::lod::table::{
    end_of, general_keys, side_key, units, TableState, MAX_MARKERS, SIDES,
};
use crate::rules::systems::lod::validate::Setting;
use crate::rules::systems::lod::{self, BattleSetup, Catalogue};
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

fn or_unnamed(name: &str, fallback: &str) -> String {
    if name.trim().is_empty() {
        fallback.to_string()
    } else {
        name.to_string()
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

pub fn view(state: &AppState, row: &BattleRow, table: &str) -> Result<TableView, AppError> {
    let cat = &state.app.rules.lod;
    let (setup, t) = read(cat, row, table)?;
    let mut turn = Control::count(
        "Turn",
        format!("{} of {}", t.turn, setup.turns),
        "turn",
        String::new(),
        "the game",
    );
    turn.choices[0].title = "Back one turn".into();
    turn.choices[1].title = "On to the next turn".into();
    let all = units(cat, &setup);
    let mut sides = Vec::new();
    for side in SIDES {
        let force = setup.force(side);
        let (role, side_id) = role(side);
        let mut out = Vec::new();
        let mut lost = 0;
        let mine: Vec<_> = all.iter().filter(|u| u.side == side).collect();
        for u in &mine {
            let Some(m) = t.units.get(&u.key) else {
                continue;
            };
            let entry = u
                .profile
                .as_ref()
                .map_or(u.doc.entry.clone(), |p| p.entry.name.clone());
            let name = or_unnamed(&u.doc.name, &entry);
            let end = end_of(u, m);
            if end.lost() {
                lost += 1;
            }
            let mut status = vec![end.label().to_string()];
            if m.routing && !m.off {
                status.push("ROUTING".into());
            }
            if m.disorder > 0 {
                status.push(format!("{} disorder", m.disorder));
            }
            if m.under_fire > 0 {
                status.push(format!("{} under fire", m.under_fire));
            }
            let thresholds = u.profile.as_ref().map_or(String::new(), |p| {
                format!(
                    " (W {} · S {} · AB {})",
                    p.size.worn, p.size.shaken, p.size.auto_broken
                )
            });
            out.push(TableUnit {
                detail: format!(
                    "{} · Brigade {}",
                    u.profile.as_ref().map_or_else(
                        || format!("{}, {} bases", u.doc.entry, u.doc.bases),
                        |p| p.describe()
                    ),
                    u.brigade
                ),
                status: status.join(" · "),
                tone: if end.lost() {
                    "lost"
                } else if m.routing || m.disorder > 0 || end != lod::battle::EndState::Steady {
                    "warn"
                } else {
                    "ok"
                },
                controls: vec![
                    Control::count(
                        "Hits",
                        format!("{}{thresholds}", m.hits),
                        "hits",
                        u.key.clone(),
                        &name,
                    ),
                    Control::count(
                        "Disorder",
                        format!("{} of {MAX_MARKERS}", m.disorder),
                        "disorder",
                        u.key.clone(),
                        &name,
                    ),
                    Control::count(
                        "Under fire",
                        format!("{} of {MAX_MARKERS}", m.under_fire),
                        "under_fire",
                        u.key.clone(),
                        &name,
                    ),
                    yes_no("ROUTING", m.routing, "routing", &u.key, "Routing", "No"),
                    yes_no(
                        "BROKEN by a test",
                        m.broken,
                        "broken",
                        &u.key,
                        "Broken",
                        "No",
                    ),
                    yes_no(
                        "Off the table",
                        m.off,
                        "off",
                        &u.key,
                        "Routed off",
                        "On the table",
                    ),
                ],
                name,
            });
        }
        let mut generals = Vec::new();
        let mut killed = 0;
        let names: Vec<String> = force
            .roster
            .brigades
            .iter()
            .enumerate()
            .filter_map(|(i, b)| {
                let g = b.general.as_ref()?;
                Some(format!(
                    "{}, {}",
                    or_unnamed(&g.name, "(unnamed General)"),
                    or_unnamed(&b.name, &format!("Brigade {}", i + 1))
                ))
            })
            .collect();
        for ((_, key), name) in general_keys(&setup)
            .into_iter()
            .filter(|(s, _)| *s == side)
            .zip(names)
        {
            let dead = t.generals_killed.get(&key).copied().unwrap_or(false);
            if dead {
                killed += 1;
            }
            generals.push(yes_no(&name, dead, "general", &key, "Killed", "Alive"));
        }
        let spent = t
            .command_points_spent
            .get(side_key(side))
            .copied()
            .unwrap_or(0);
        let mut cp = Control::count(
            "Command Points spent",
            format!("{spent} of {}", force.command_points),
            "command_points",
            side_key(side).to_string(),
            &force.roster.name,
        );
        cp.choices[0].title = format!("One Command Point fewer spent by {}", force.roster.name);
        cp.choices[1].title = format!("Spend a Command Point for {}", force.roster.name);
        sides.push(TableSide {
            role,
            side_id,
            force: force.roster.name.clone(),
            summary: format!(
                "{lost} of {} units lost; the army breaks at {} · {killed} General{} killed",
                mine.len(),
                break_point(mine.len() as u32),
                if killed == 1 { "" } else { "s" }
            ),
            controls: vec![cp],
            units: out,
            commanders: generals,
            commanders_label: "Generals",
        });
    }
    Ok(TableView {
        turn,
        sides,
        objectives: Vec::new(),
    })
}

/// The record form's fields (as `battles::record_form` names them) from a tabletop report.
fn fields_of_report(report: &TabletopReport) -> Vec<(String, String)> {
    let mut fields = vec![("turns".to_string(), report.turns_played.to_string())];
    for (prefix, given) in [("a", &report.attacker), ("d", &report.defender)] {
        for (id, end) in &given.units {
            fields.push((format!("end_{prefix}_{id}"), end.clone()));
        }
        for g in &given.generals_killed {
            fields.push((format!("killed_{prefix}_{g}"), "1".to_string()));
        }
    }
    fields
}

/// The record form's fields as the table stands.
pub fn record_fields(
    state: &AppState,
    row: &BattleRow,
    table: &str,
) -> Result<Vec<(String, String)>, AppError> {
    let cat = &state.app.rules.lod;
    let (setup, t) = read(cat, row, table)?;
    Ok(fields_of_report(&t.report(cat, &setup)))
}

// ---------- the printed battle pack ----------

#[derive(Template)]
#[template(path = "systems/lod/print/_sheet_article.html")]
struct SheetArticle {
    s: Sheet,
}

#[derive(Template)]
#[template(path = "systems/lod/_reference_sides.html")]
struct ReferenceSides<'a> {
    r: Reference,
    c: &'a Catalogue,
}

fn briefing(
    cat: &Catalogue,
    row: &BattleRow,
    setup: &BattleSetup,
    players: &Players,
) -> Vec<BriefingSection> {
    let mut sides = Vec::new();
    let mut breaks = Vec::new();
    for (side, player) in [
        (BattleSide::Attacker, &players.attacker),
        (BattleSide::Defender, &players.defender),
    ] {
        let force = setup.force(side);
        let (role, _) = role(side);
        let n = force.roster.unit_count() as u32;
        sides.push(format!(
            "{role}: {} ({} army), played by {player}: {} Command Points ({} for the brigades, {} on the C-in-C's D3).",
            force.roster.name,
            lod::ArmyList::from_id(&force.roster.army_list)
                .map_or(force.roster.army_list.clone(), |l| l.label().to_string()),
            force.command_points,
            force.command_points.saturating_sub(force.c_in_c_roll),
            force.c_in_c_roll
        ));
        breaks.push(format!(
            "{} breaks when {} of its {n} units are lost.",
            force.roster.name,
            break_point(n)
        ));
    }
    let first = setup.force(setup.initiative);
    let vp = &cat.tables.victory.vp;
    let mut turns = vec![format!(
        "The game lasts {} turns, or ends when an army reaches its break point (half its units, rounded up).",
        setup.turns
    )];
    turns.extend(breaks);
    let mut out = vec![
        BriefingSection {
            heading: "The sides".into(),
            lines: sides,
        },
        BriefingSection {
            heading: "Deployment".into(),
            lines: vec![
                "An open field. Each army sets up in a zone 12\" deep along its own long edge; the two zones are 24\" apart (L-48).".into(),
            ],
        },
        BriefingSection {
            heading: "Objectives".into(),
            lines: vec![format!(
                "No objectives: victory points decide. Each side scores on the enemy's units: {} for each one BROKEN or routed off, {} for each SHAKEN, {} for each WORN, and {} more when the enemy reached its break point.",
                vp.broken, vp.shaken, vp.worn, vp.enemy_broke
            )],
        },
        BriefingSection {
            heading: "Turns".into(),
            lines: turns,
        },
        BriefingSection {
            heading: "Special rules".into(),
            lines: vec![
                format!(
                    "{} has the initiative and plays first in every turn (rolled {} against {}, L-1).",
                    first.roster.name, setup.initiative_rolls.0, setup.initiative_rolls.1
                ),
                "Each Command Point is spent once in the game.".into(),
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
    let cat = &state.app.rules.lod;
    let setup = setup_of(row)?;
    let today = chrono::Utc::now().format("%Y-%m-%d").to_string();
    let mut sheets = Vec::new();
    for side in SIDES {
        let force = setup.force(side);
        let (role, _) = role(side);
        let mut s = sheet::build(cat, &force.roster, None, Setting::Standalone, &today);
        s.state_label = format!("{role} in battle {}: {}", row.id, row.title);
        // The C-in-C's D3 is rolled: every Command Point is a solid box.
        s.cp_dice = format!("{} rolled {}", s.cp_dice, force.c_in_c_roll);
        s.cp_boxes = vec![true; force.command_points as usize];
        sheets.push(SheetArticle { s }.render()?);
    }
    let reference = ReferenceSides {
        r: reference::build(cat),
        c: cat,
    }
    .render()?;
    Ok(BattlePack {
        scenario: "An open field".into(),
        briefing: briefing(cat, row, &setup, players),
        sheets,
        reference,
    })
}
