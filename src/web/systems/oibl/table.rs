//! One if by Land at the table and in the printed battle pack.
//!
//! At the table: the rules core's table state (`rules::systems::oibl::table`) in the game's own
//! terms: the turn of Muster's twelve (B-35); per unit the figures lost (a battery: crew, and its
//! guns) against its loss bands (B-9) and the mark below which it is destroyed (B-33), its Panic
//! Marker, failed by 1 (B-23), routing, reforming (B-25) and off the table (B-24); each
//! commander's wound or death (B-32); each side's units lost against Muster's army morale
//! (B-34); and the record form's fields it fills in.
//!
//! The pack: both orders of battle's roster sheets with every commander's rating as fought
//! (rolled at set-up where the roster left it out, B-8), the briefing in Muster's own words
//! (B-34, B-35, B-51) and the two-sided quick reference.

use askama::Template;

use super::battles::{
    commander_name, fields_of_report, profile_words, role, scenario_name, setup_of,
};
use super::print::pages::sheet_findings;
use super::print::reference::{self, Reference};
use super::print::sheet::{self, Sheet};
use crate::rules::system::BattleSide;
use crate::rules::systems::oibl::battle::Fate;
use crate::rules::systems::oibl::table::{
    beaten_at, commanders, units, TableState, TableUnit as RulesUnit, UnitMarks, FATES, SIDES,
};
use crate::rules::systems::oibl::types::Kind;
use crate::rules::systems::oibl::{BattleSetup, Catalogue};
use crate::store::battles::BattleRow;
use crate::web::state::AppState;
use crate::web::systems::battles::Players;
use crate::web::systems::table::{
    stored_state, BattlePack, BriefingSection, Control, TableSide, TableUnit, TableView,
};
use crate::web::AppError;

fn read(
    cat: &Catalogue,
    row: &BattleRow,
    table: &str,
) -> Result<(BattleSetup, TableState), AppError> {
    let setup = setup_of(row)?;
    let state = stored_state::<TableState>(cat, &setup, row, table)?;
    Ok((setup, state))
}

fn signed(n: i32) -> String {
    if n > 0 {
        format!("+{n}")
    } else {
        n.to_string()
    }
}

/// Where a unit's loss bands begin and from which loss it is destroyed: "+1 from 5, +2 from 9,
/// +3 from 14; destroyed from 17".
fn marks_words(cat: &Catalogue, u: &RulesUnit) -> String {
    let start = u.stats.figures;
    let mut bands: Vec<String> = cat
        .loss_bands
        .iter()
        .map(|b| {
            // B-9: the first loss with lost × 4 ≥ quarters × start.
            let first = (b.quarters * start).div_ceil(4).max(1);
            format!("{} from {first}", signed(cat.morale_mod(&b.id)))
        })
        .collect();
    // B-33: destroyed once fewer than `destroyed_below` figures are left.
    let destroyed_from = (start + 1).saturating_sub(cat.destroyed_below);
    bands.push(format!("destroyed from {destroyed_from}"));
    bands.join(", ")
}

fn unit_view(cat: &Catalogue, u: &RulesUnit, m: &UnitMarks) -> TableUnit {
    let name = u.stats.name.clone();
    let battery = u.stats.kind == Kind::Artillery;
    let destroyed = u.destroyed(cat, m);
    let mut status = Vec::new();
    if destroyed {
        status.push("Destroyed (B-33)".to_string());
    } else if m.left_table {
        status.push("Off the table".to_string());
    } else {
        status.push(format!(
            "{} of {} {}figures left",
            u.left(m),
            u.stats.figures,
            if battery { "crew " } else { "" }
        ));
        let band = u.band(cat, m);
        if band > 0 {
            status.push(format!("{} on morale tests for losses", signed(band)));
        }
    }
    if battery && m.guns_lost > 0 {
        status.push(format!("{} of {} guns lost", m.guns_lost, u.stats.guns));
    }
    for (on, words) in [
        (m.routing, "routing"),
        (m.reforming, "reforming"),
        (m.failed_by_1, "failed by 1"),
        (m.panic, "Panic Marker"),
    ] {
        if on && !destroyed && !m.left_table {
            status.push(words.to_string());
        }
    }
    let mut controls = vec![Control::count(
        if battery {
            "Crew figures lost"
        } else {
            "Figures lost"
        },
        format!(
            "{} of {} ({})",
            m.lost,
            u.stats.figures,
            marks_words(cat, u)
        ),
        "figures",
        u.key.clone(),
        &name,
    )];
    if battery {
        controls.push(Control::count(
            "Guns lost",
            format!("{} of {}", m.guns_lost, u.stats.guns),
            "guns",
            u.key.clone(),
            &name,
        ));
    }
    controls.extend([
        Control::yes_no("Panic Marker", m.panic, "panic", &u.key, "Marker", "None"),
        Control::yes_no(
            "Failed by 1 (B-23)",
            m.failed_by_1,
            "failed_by_1",
            &u.key,
            "Failed by 1",
            "No",
        ),
        Control::yes_no("Routing", m.routing, "routing", &u.key, "Routing", "No"),
        Control::yes_no(
            "Reforming (B-25)",
            m.reforming,
            "reforming",
            &u.key,
            "Reforming",
            "No",
        ),
        Control::yes_no(
            "Left the table (B-24)",
            m.left_table,
            "left_table",
            &u.key,
            "Gone",
            "On the table",
        ),
    ]);
    TableUnit {
        detail: profile_words(cat, u),
        status: status.join(" · "),
        tone: if u.lost(cat, m) {
            "lost"
        } else if m.lost > 0 || m.panic || m.failed_by_1 || m.reforming || m.guns_lost > 0 {
            "warn"
        } else {
            "ok"
        },
        controls,
        name,
    }
}

fn fate_index(f: Fate) -> i32 {
    FATES
        .iter()
        .position(|x| *x == f)
        .and_then(|i| i32::try_from(i).ok())
        .unwrap_or(0)
}

pub fn view(state: &AppState, row: &BattleRow, table: &str) -> Result<TableView, AppError> {
    let cat = &state.app.rules.oibl;
    let (setup, t) = read(cat, row, table)?;
    let mut turn = Control::count(
        "Turn",
        format!("{} of {} (B-35)", t.turn, setup.turns),
        "turn",
        String::new(),
        "the battle",
    );
    turn.choices[0].title = "Back one turn".into();
    turn.choices[1].title = "On to the next turn: reshuffle the brigade cards (B-29)".into();
    let all = units(cat, &setup);
    let leaders = commanders(&setup);
    let fates: Vec<(i32, &str)> = FATES.iter().map(|f| (fate_index(*f), f.words())).collect();
    let mut sides = Vec::new();
    for side in SIDES {
        let (role, side_id) = role(side);
        let mut out = Vec::new();
        let mut starting = 0u32;
        let mut lost = 0u32;
        for u in all.iter().filter(|u| u.side == side) {
            let m = t.units.get(&u.key).cloned().unwrap_or_default();
            starting += 1;
            if u.lost(cat, &m) {
                lost += 1;
            }
            out.push(unit_view(cat, u, &m));
        }
        let commanders: Vec<Control> = leaders
            .iter()
            .filter(|c| c.side == side)
            .map(|c| {
                let now = t.commanders.get(&c.key).copied().unwrap_or_default();
                Control::choice(
                    &commander_name(c),
                    now.words().to_string(),
                    "fate",
                    c.key.clone(),
                    &fates,
                    fate_index(now),
                )
            })
            .collect();
        sides.push(TableSide {
            role,
            side_id,
            force: setup.side(side).roster.name.clone(),
            summary: format!(
                "{lost} of {starting} units lost (routing, destroyed or off the table); beaten at {} at a turn's end (B-34)",
                beaten_at(cat, starting)
            ),
            controls: Vec::new(),
            units: out,
            commanders,
            commanders_label: "Commanders",
        });
    }
    Ok(TableView {
        turn,
        sides,
        objectives: Vec::new(),
    })
}

/// The record form's fields as the table stands.
pub fn record_fields(
    state: &AppState,
    row: &BattleRow,
    table: &str,
) -> Result<Vec<(String, String)>, AppError> {
    let cat = &state.app.rules.oibl;
    let (setup, t) = read(cat, row, table)?;
    Ok(fields_of_report(cat, &setup, &t.report(cat, &setup)))
}

// ---------- the printed battle pack ----------

#[derive(Template)]
#[template(path = "systems/oibl/print/_sheet_article.html")]
struct SheetArticle {
    s: Sheet,
}

#[derive(Template)]
#[template(path = "systems/oibl/_reference_sides.html")]
struct ReferenceSides {
    r: Reference,
}

fn briefing(
    cat: &Catalogue,
    row: &BattleRow,
    setup: &BattleSetup,
    players: &Players,
) -> Vec<BriefingSection> {
    let all = units(cat, setup);
    let mut sides = Vec::new();
    let mut beaten = Vec::new();
    for (side, player) in [
        (BattleSide::Attacker, &players.attacker),
        (BattleSide::Defender, &players.defender),
    ] {
        let roster = &setup.side(side).roster;
        let (role, _) = role(side);
        let mine: Vec<&RulesUnit> = all.iter().filter(|u| u.side == side).collect();
        let n = u32::try_from(mine.len()).unwrap_or(u32::MAX);
        let figures: u32 = mine.iter().map(|u| u.stats.figures).sum();
        let guns: u32 = mine.iter().map(|u| u.stats.guns).sum();
        sides.push(format!(
            "{role}: {}, played by {player}: {} brigade card{}, {n} units, {figures} figures{}.",
            roster.name,
            roster.brigades.len(),
            if roster.brigades.len() == 1 { "" } else { "s" },
            if guns > 0 {
                format!(" and {guns} gun{}", if guns == 1 { "" } else { "s" })
            } else {
                String::new()
            }
        ));
        beaten.push(format!(
            "{} is beaten when {} of its {n} units are routing, destroyed or off the table at the end of a turn (B-34).",
            roster.name,
            beaten_at(cat, n)
        ));
    }
    let defended = setup.scenario == "defended_line";
    let mut deployment = vec![format!(
        "Each side sets up within 8\" of its own long edge; {} attacks.",
        setup.attacker.roster.name
    )];
    if defended {
        deployment.push(format!(
            "{}'s units start behind fences or walls: light cover against fire and in melee.",
            setup.defender.roster.name
        ));
    }
    let mut turns = vec![format!(
        "The game lasts {} turns, about an hour of battle, unless an army is beaten first (Muster's B-35).",
        setup.turns
    )];
    turns.extend(beaten);
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
            lines: vec![
                "The rules set none. Break the enemy army: a side with half its units routing, destroyed or off the table at a turn's end is beaten; both at once is a draw (B-34).".into(),
                "If neither army is beaten by the last turn, the side that lost the smaller share of its starting figures wins a marginal victory; equal shares draw (B-35). Players who agree objectives of their own may record their own result instead.".into(),
            ],
        },
        BriefingSection {
            heading: "Turns".into(),
            lines: turns,
        },
        BriefingSection {
            heading: "Special rules".into(),
            lines: vec![
                "One playing card per brigade of either side goes into a single deck, reshuffled every turn; a brigade acts when its card turns up, each unit once a turn (B-29).".into(),
                "Each commander's rating X, as fought, is on the roster sheets; the best commander with a unit takes X off its morale tests (B-8).".into(),
                "A unit with fewer than 2 figures, or a battery without its gun or crew, is removed as destroyed (B-33).".into(),
            ],
        },
    ];
    let mut rolls: Vec<String> = serde_json::from_str(&row.rolls).unwrap_or_default();
    if rolls.is_empty() {
        rolls.push(
            "Nothing: the scenario, the attacker and every commander's rating were given.".into(),
        );
    }
    out.push(BriefingSection {
        heading: "Rolled at set-up".into(),
        lines: rolls,
    });
    out
}

pub fn pack(state: &AppState, row: &BattleRow, players: &Players) -> Result<BattlePack, AppError> {
    let cat = &state.app.rules.oibl;
    let setup = setup_of(row)?;
    let today = chrono::Utc::now().format("%Y-%m-%d").to_string();
    let mut sheets = Vec::new();
    for side in SIDES {
        let (role, _) = role(side);
        let roster = &setup.side(side).roster;
        let mut s = sheet::build(cat, roster, None, sheet_findings(cat, roster), &today);
        s.state_label = format!("{role} in battle {}: {}", row.id, row.title);
        sheets.push(SheetArticle { s }.render()?);
    }
    let reference = ReferenceSides {
        r: reference::build(cat),
    }
    .render()?;
    Ok(BattlePack {
        scenario: scenario_name(&setup),
        briefing: briefing(cat, row, &setup, players),
        sheets,
        reference,
    })
}
