//! Liberty or Death! battles on the generic battle pages: the set-up choices and setting a
//! battle up, the battle page's parts (both armies, what was rolled before the first turn, how
//! each unit ended and the victory arithmetic of 4.7), recording a result from the table, the
//! set-up document and a side's sheet for the table. Fighting with the simulator is `/lod/fight`.

use actix_web::web::{self, ServiceConfig};
use actix_web::{FromRequest, HttpRequest, HttpResponse};
use askama::Template;

use crate::app::battles::{self as records, NewBattleRequest};
use crate::app::rosters as roster_store;
use crate::app::{self, Actor, ErrorDetail};
use crate::rules::system::BattleSide;
use crate::rules::system::RuleSystem;
use crate::rules::systems::lod::battle::{EndReason, EndState, ForceSetup, Outcome, SideResult};
use crate::rules::systems::lod::record::{SideReport, TabletopReport};
use crate::rules::systems::lod::system::example_forces;
use crate::rules::systems::lod::types::Band;
use crate::rules::systems::lod::{self, BattleSetup, Catalogue, Lod};
use crate::rules::SystemId;
use crate::store::battles::BattleRow;
use crate::web::auth::SignedInUser;
use crate::web::page::{render, PageCtx, SelectOption};
use crate::web::state::AppState;
use crate::web::systems::battles::{
    BattleChoices, BattleRequest, BattleView, Players, RecordAnswer, RecordEntry,
};
use crate::web::systems::fight_report::{Legend, SideChart, TurnLog};
use crate::web::systems::lod::fight::{legend, losses_chart, turn_log};
use crate::web::AppError;

/// Path prefixes whose next segment is a job's id (a capability), logged without it.
pub const SECRET_PREFIXES: &[&str] = &[];

pub fn configure(_cfg: &mut ServiceConfig) {}

pub fn configure_api(_cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {}

// ---------- setting a battle up ----------

pub async fn choices(
    state: &web::Data<AppState>,
    user: &SignedInUser,
) -> Result<BattleChoices, AppError> {
    let rows = roster_store::list(&state.app, &user.actor(), None).await?;
    let mine = rows
        .iter()
        .filter(|r| r.rule_system == SystemId::Lod.id())
        .map(|r| SelectOption {
            value: format!("r:{}", r.id),
            label: r.name.clone(),
        })
        .collect();
    let historical = example_forces()
        .into_iter()
        .map(|(value, label)| SelectOption {
            value: format!("h:{value}"),
            label,
        })
        .collect();
    let option = |value: &str, label: &str| SelectOption {
        value: value.into(),
        label: label.into(),
    };
    Ok(BattleChoices {
        mine,
        historical,
        historical_label: "Example armies".into(),
        scenarios: vec![option(
            lod::battle::OPEN_FIELD,
            "An open field, 8 turns (L-48)",
        )],
        roles: vec![
            option("given", "The first force attacks"),
            option("roll", "Roll a D6 each for the attack"),
        ],
    })
}

/// A stored Liberty or Death! set-up.
pub fn setup_of(row: &BattleRow) -> Result<BattleSetup, app::Error> {
    Lod::parse_setup(&row.setup)
        .map_err(|e| app::Error::internal(format!("stored battle {} does not parse: {e}", row.id)))
}

/// A stored Liberty or Death! result, if the battle has one.
fn result_of(row: &BattleRow) -> Option<Outcome> {
    row.result
        .as_deref()
        .and_then(|r| serde_json::from_str(r).ok())
}

pub async fn set_up(
    ctx: &app::Context,
    actor: &Actor,
    request: BattleRequest,
) -> Result<BattleRow, app::Error> {
    let first = records::load_force(ctx, actor, SystemId::Lod, &request.first).await?;
    let second = records::load_force(ctx, actor, SystemId::Lod, &request.second).await?;
    let first_player =
        records::read_player(ctx, actor, &request.first_player, "first_player").await?;
    let second_player =
        records::read_player(ctx, actor, &request.second_player, "second_player").await?;
    let scenario =
        match request.scenario.as_deref() {
            None | Some("") => None,
            Some(lod::battle::OPEN_FIELD) => Some(lod::battle::OPEN_FIELD.to_string()),
            Some(_) => return Err(records::invalid(
                "scenario",
                "Liberty or Death! battles are fought on an open field; choose it from the list.",
            )),
        };
    records::create(
        ctx,
        actor,
        NewBattleRequest {
            system: SystemId::Lod,
            first,
            second,
            first_player,
            second_player,
            scenario,
            roll_roles: request.roll_roles,
        },
    )
    .await
}

// ---------- the battle page ----------

pub struct UnitLine {
    pub name: String,
    pub brigade: String,
    /// "Continental Regiment, 4 bases (8/16/24)".
    pub profile: String,
    /// How it ended, once the battle is decided.
    pub end: String,
}

pub struct GeneralLine {
    pub name: String,
    pub brigade: String,
    pub fate: String,
}

pub struct SideView {
    pub role: &'static str,
    pub side_id: &'static str,
    pub force: String,
    pub army_list: String,
    pub player: String,
    pub c_in_c: String,
    pub command_points: u32,
    pub c_in_c_roll: u32,
    pub plays_first: bool,
    pub units: Vec<UnitLine>,
    pub generals: Vec<GeneralLine>,
    /// Once decided: the VPs scored, units lost against the break point.
    pub vp: Option<u32>,
    pub standing: String,
}

#[derive(Template)]
#[template(path = "systems/lod/battles/outcome.html")]
struct OutcomePart {
    headline: String,
    arithmetic: Vec<String>,
    legend: Legend,
    chart: Option<SideChart>,
}

#[derive(Template)]
#[template(path = "systems/lod/battles/details.html")]
struct DetailsPart {
    battle_id: i64,
    sides: Vec<SideView>,
    rolls: Vec<String>,
    log: Option<TurnLog>,
    printable: bool,
}

fn or_unnamed(name: &str, fallback: &str) -> String {
    if name.trim().is_empty() {
        fallback.to_string()
    } else {
        name.to_string()
    }
}

/// Each unit of a force with its profile in the game's words (1.1).
fn unit_lines(cat: &Catalogue, force: &ForceSetup) -> Vec<(String, UnitLine)> {
    let views = lod::validate::units(cat, &force.roster);
    force
        .roster
        .units()
        .zip(views)
        .map(|((b, _, unit), view)| {
            let entry_name = view
                .profile
                .as_ref()
                .map_or(unit.entry.clone(), |p| p.entry.name.clone());
            (
                unit.id.clone().unwrap_or_default(),
                UnitLine {
                    name: or_unnamed(&unit.name, &entry_name),
                    brigade: force
                        .roster
                        .brigades
                        .get(b)
                        .map(|br| or_unnamed(&br.name, &format!("Brigade {}", b + 1)))
                        .unwrap_or_default(),
                    profile: view.profile.as_ref().map_or_else(
                        || format!("{}, {} bases", unit.entry, unit.bases),
                        |p| p.describe(),
                    ),
                    end: String::new(),
                },
            )
        })
        .collect()
}

fn general_lines(force: &ForceSetup) -> Vec<(String, GeneralLine)> {
    force
        .roster
        .brigades
        .iter()
        .enumerate()
        .filter_map(|(i, b)| {
            let g = b.general.as_ref()?;
            Some((
                g.id.clone().unwrap_or_default(),
                GeneralLine {
                    name: or_unnamed(&g.name, "(unnamed General)"),
                    brigade: or_unnamed(&b.name, &format!("Brigade {}", i + 1)),
                    fate: String::new(),
                },
            ))
        })
        .collect()
}

fn band_words(band: Band) -> &'static str {
    match band {
        Band::Draw => "a draw",
        Band::Minor => "a minor victory",
        Band::Major => "a major victory",
    }
}

/// The outcome in one line: who won, how clearly, the VPs.
pub fn headline(setup: &BattleSetup, o: &Outcome) -> String {
    match o.winner {
        Some(side) => {
            let (won, lost) = match side {
                BattleSide::Attacker => (&o.attacker, &o.defender),
                BattleSide::Defender => (&o.defender, &o.attacker),
            };
            format!(
                "{} wins {}, {} VPs to {}",
                setup.force(side).roster.name,
                band_words(o.band),
                won.vp,
                lost.vp
            )
        }
        None => format!("A draw, {} VPs to {}", o.attacker.vp, o.defender.vp),
    }
}

/// How each side's VPs add up (4.7, L-47), and why the game ended.
pub fn arithmetic(setup: &BattleSetup, o: &Outcome) -> Vec<String> {
    let count =
        |s: &SideResult, end: &[EndState]| s.units.iter().filter(|u| end.contains(&u.end)).count();
    let mut lines = Vec::new();
    for (side, scorer, enemy) in [
        (BattleSide::Attacker, &o.attacker, &o.defender),
        (BattleSide::Defender, &o.defender, &o.attacker),
    ] {
        let broken = count(enemy, &[EndState::Broken, EndState::RoutedOff]);
        let shaken = count(enemy, &[EndState::Shaken]);
        let worn = count(enemy, &[EndState::Worn]);
        lines.push(format!(
            "{}: {broken} enemy unit{} BROKEN or routed off × 5, {shaken} SHAKEN × 3, {worn} WORN × 1{} = {} VPs.",
            setup.force(side).roster.name,
            if broken == 1 { "" } else { "s" },
            if enemy.reached_break_point {
                ", +10 for breaking the enemy army"
            } else {
                ""
            },
            scorer.vp
        ));
    }
    lines.push(format!(
        "A difference of {}: 0–5 is a draw, 6–12 a minor victory, 13 or more a major victory.",
        o.difference
    ));
    let ended = match o.ended_by {
        EndReason::BreakPoint => "an army reached its break point, which ends the game at once",
        EndReason::TurnLimit => "the last turn was played",
        EndReason::Recorded => "the players stopped",
    };
    lines.push(format!(
        "Played over {} turn{}; {ended}.",
        o.turns_played,
        if o.turns_played == 1 { "" } else { "s" }
    ));
    lines
}

pub fn view(
    state: &AppState,
    row: &BattleRow,
    players: &Players,
    printable: bool,
) -> Result<BattleView, AppError> {
    let cat = &state.app.rules.lod;
    let setup = setup_of(row)?;
    let result = result_of(row);
    let mut sides = Vec::new();
    for (side, role, side_id, player) in [
        (
            BattleSide::Attacker,
            "Attacker",
            "attacker",
            &players.attacker,
        ),
        (
            BattleSide::Defender,
            "Defender",
            "defender",
            &players.defender,
        ),
    ] {
        let force = setup.force(side);
        let mut units = unit_lines(cat, force);
        let mut generals = general_lines(force);
        let (mut vp, mut standing) = (None, String::new());
        if let Some(o) = &result {
            let r = match side {
                BattleSide::Attacker => &o.attacker,
                BattleSide::Defender => &o.defender,
            };
            for end in &r.units {
                if let Some((_, line)) = units.iter_mut().find(|(id, _)| *id == end.unit) {
                    line.end = match end.hits {
                        Some(h) => format!("{} ({h} hits)", end.end.label()),
                        None => end.end.label().to_string(),
                    };
                }
            }
            for (id, line) in &mut generals {
                line.fate = if r.generals_killed.contains(id) {
                    "killed".into()
                } else {
                    "unharmed".into()
                };
            }
            vp = Some(r.vp);
            standing = format!(
                "lost {} of {} units; break point {}{}",
                r.lost_units,
                r.units.len(),
                r.break_point,
                if r.reached_break_point {
                    " (reached)"
                } else {
                    ""
                }
            );
        }
        sides.push(SideView {
            role,
            side_id,
            force: force.roster.name.clone(),
            army_list: lod::ArmyList::from_id(&force.roster.army_list)
                .map_or(force.roster.army_list.clone(), |l| l.label().to_string()),
            player: player.clone(),
            c_in_c: or_unnamed(&force.roster.c_in_c.name, "(unnamed)"),
            command_points: force.command_points,
            c_in_c_roll: force.c_in_c_roll,
            plays_first: setup.initiative == side,
            units: units.into_iter().map(|(_, l)| l).collect(),
            generals: generals.into_iter().map(|(_, l)| l).collect(),
            vp,
            standing,
        });
    }
    let mut log = None;
    let outcome = match &result {
        Some(o) => {
            let told = turn_log(o, &setup);
            let chart = losses_chart(o, &told.legend);
            let legend = legend(&setup);
            log = Some(told).filter(|l| !l.is_empty());
            OutcomePart {
                headline: headline(&setup, o),
                arithmetic: arithmetic(&setup, o),
                legend,
                chart,
            }
            .render()?
        }
        None => String::new(),
    };
    let details = DetailsPart {
        battle_id: row.id,
        sides,
        rolls: serde_json::from_str(&row.rolls).unwrap_or_default(),
        log,
        printable,
    }
    .render()?;
    Ok(BattleView {
        scenario: "An open field".into(),
        outcome,
        details,
    })
}

// ---------- recording a result from the table ----------

pub struct RecordUnit {
    pub key: String,
    pub name: String,
    pub brigade: String,
    pub end: String,
}

pub struct RecordGeneral {
    pub key: String,
    pub name: String,
    pub brigade: String,
    pub killed: bool,
}

pub struct RecordSide {
    pub role: &'static str,
    pub force: String,
    pub units: Vec<RecordUnit>,
    pub generals: Vec<RecordGeneral>,
}

#[derive(Template)]
#[template(path = "systems/lod/battles/record.html")]
struct RecordFields {
    max_turns: u32,
    turns: String,
    sides: Vec<RecordSide>,
    ends: Vec<(&'static str, &'static str)>,
}

fn field<'a>(fields: &'a [(String, String)], key: &str) -> Option<&'a str> {
    fields
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

const SIDES: [(BattleSide, &str, &str); 2] = [
    (BattleSide::Attacker, "a", "Attacker"),
    (BattleSide::Defender, "d", "Defender"),
];

pub fn record_form(
    state: &AppState,
    row: &BattleRow,
    fields: &[(String, String)],
) -> Result<String, AppError> {
    let cat = &state.app.rules.lod;
    let setup = setup_of(row)?;
    let sides = SIDES
        .iter()
        .map(|(side, prefix, role)| {
            let force = setup.force(*side);
            RecordSide {
                role,
                force: force.roster.name.clone(),
                units: unit_lines(cat, force)
                    .into_iter()
                    .map(|(id, line)| {
                        let key = format!("{prefix}_{id}");
                        RecordUnit {
                            end: field(fields, &format!("end_{key}"))
                                .unwrap_or("steady")
                                .to_string(),
                            key,
                            name: format!("{} ({})", line.name, line.profile),
                            brigade: line.brigade,
                        }
                    })
                    .collect(),
                generals: general_lines(force)
                    .into_iter()
                    .map(|(id, line)| {
                        let key = format!("{prefix}_{id}");
                        RecordGeneral {
                            killed: field(fields, &format!("killed_{key}")).is_some(),
                            key,
                            name: line.name,
                            brigade: line.brigade,
                        }
                    })
                    .collect(),
            }
        })
        .collect();
    Ok(RecordFields {
        max_turns: setup.turns,
        turns: field(fields, "turns").map_or_else(|| setup.turns.to_string(), str::to_string),
        sides,
        ends: EndState::ALL.iter().map(|e| (e.id(), e.label())).collect(),
    }
    .render()?)
}

/// The record form's fields as a recorded result filled them in (each unit's end, the Generals
/// killed, the turns), so that a correction starts from it. Empty for a simulated battle.
pub fn record_fields_of(recorded: &BattleRow) -> Vec<(String, String)> {
    let Some(outcome) = recorded
        .result
        .as_deref()
        .and_then(|r| serde_json::from_str::<Outcome>(r).ok())
        .filter(|o| o.method == crate::rules::system::Method::Tabletop)
    else {
        return Vec::new();
    };
    let mut fields = vec![("turns".to_string(), outcome.turns_played.to_string())];
    for (side, prefix, _) in SIDES {
        let result = match side {
            BattleSide::Attacker => &outcome.attacker,
            BattleSide::Defender => &outcome.defender,
        };
        for u in &result.units {
            fields.push((format!("end_{prefix}_{}", u.unit), u.end.id().to_string()));
        }
        for g in &result.generals_killed {
            fields.push((format!("killed_{prefix}_{g}"), "1".to_string()));
        }
    }
    fields
}

/// Reads the record form into the rules core's report; the turns must be a number, every other
/// check is the rules core's.
fn read_report(
    setup: &BattleSetup,
    fields: &[(String, String)],
) -> Result<TabletopReport, Vec<ErrorDetail>> {
    let turns_played = field(fields, "turns")
        .unwrap_or("")
        .trim()
        .parse::<u32>()
        .map_err(|_| {
            vec![ErrorDetail {
                field: Some("turns_played".into()),
                message: format!("Turns played is a whole number from 1 to {}.", setup.turns),
            }]
        })?;
    let mut report = TabletopReport {
        turns_played,
        ..Default::default()
    };
    for (side, prefix, _) in SIDES {
        let force = setup.force(side);
        let mut given = SideReport::default();
        for (_, _, unit) in force.roster.units() {
            let id = unit.id.clone().unwrap_or_default();
            if let Some(end) = field(fields, &format!("end_{prefix}_{id}")) {
                given.units.insert(id, end.to_string());
            }
        }
        for g in force
            .roster
            .brigades
            .iter()
            .filter_map(|b| b.general.as_ref())
        {
            let id = g.id.clone().unwrap_or_default();
            if field(fields, &format!("killed_{prefix}_{id}")).is_some() {
                given.generals_killed.push(id);
            }
        }
        match side {
            BattleSide::Attacker => report.attacker = given,
            BattleSide::Defender => report.defender = given,
        }
    }
    Ok(report)
}

fn details(problems: Vec<crate::rules::system::RecordProblem>) -> Vec<ErrorDetail> {
    problems
        .into_iter()
        .map(|p| ErrorDetail {
            field: Some(p.field),
            message: p.message,
        })
        .collect()
}

/// What the entries add up to, in words, without saving them.
fn preview(cat: &Catalogue, setup: &BattleSetup, report: &TabletopReport) -> RecordAnswer {
    RecordAnswer::Checked(match lod::record::assess(cat, setup, report) {
        Ok(o) => {
            let mut words = vec![format!("{}.", headline(setup, &o))];
            words.extend(arithmetic(setup, &o));
            Ok(words.join(" "))
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
                Ok(report) if check_only => return Ok(preview(&ctx.rules.lod, &setup, &report)),
                Ok(report) => serde_json::to_value(&report).map_err(app::Error::internal)?,
                Err(problems) => return Ok(RecordAnswer::Refused(problems)),
            }
        }
        RecordEntry::Json(report) => report,
    };
    Ok(
        match records::record_result(ctx, actor, row, version, &report).await? {
            Ok(saved) => RecordAnswer::Saved(Box::new(saved)),
            Err(problems) => RecordAnswer::Refused(details(problems)),
        },
    )
}

// ---------- the set-up document and a side at the table ----------

pub fn pack(row: &BattleRow) -> Result<String, AppError> {
    Ok(Lod::write_setup(&setup_of(row)?))
}

#[derive(Template)]
#[template(path = "systems/lod/battles/sheet.html")]
struct SheetPage {
    ctx: PageCtx,
    battle_id: i64,
    title: String,
    side: SideView,
    initiative: String,
}

/// One side as it stood at the start, for the table: the army, its Command Points, the
/// initiative and every unit's WORN / SHAKEN / AUTO BROKEN values. Unit cards are printed from
/// the roster's own page.
pub async fn at_the_table(
    req: &HttpRequest,
    row: &BattleRow,
    side: &str,
    kind: &str,
) -> Result<HttpResponse, AppError> {
    let ctx = PageCtx::extract(req).await?;
    let state = crate::web::state::state_of(req)?;
    let setup = setup_of(row)?;
    let (side, role, side_id) = match side {
        "attacker" => (BattleSide::Attacker, "Attacker", "attacker"),
        "defender" => (BattleSide::Defender, "Defender", "defender"),
        _ => return Err(AppError::NotFound),
    };
    if kind != "sheet" {
        return Err(AppError::bad_request(
            "For a Liberty or Death! battle Muster prints each side's army sheet; print unit \
             cards from the roster's own page.",
        ));
    }
    let cat = &state.app.rules.lod;
    let force = setup.force(side);
    let first = setup.force(setup.initiative);
    let view = SideView {
        role,
        side_id,
        force: force.roster.name.clone(),
        army_list: lod::ArmyList::from_id(&force.roster.army_list)
            .map_or(force.roster.army_list.clone(), |l| l.label().to_string()),
        player: String::new(),
        c_in_c: or_unnamed(&force.roster.c_in_c.name, "(unnamed)"),
        command_points: force.command_points,
        c_in_c_roll: force.c_in_c_roll,
        plays_first: setup.initiative == side,
        units: unit_lines(cat, force).into_iter().map(|(_, l)| l).collect(),
        generals: general_lines(force).into_iter().map(|(_, l)| l).collect(),
        vp: None,
        standing: String::new(),
    };
    render(&SheetPage {
        ctx,
        battle_id: row.id,
        title: row.title.clone(),
        initiative: format!(
            "{} has the initiative and plays first every turn (rolled {} against {}).",
            first.roster.name, setup.initiative_rolls.0, setup.initiative_rolls.1
        ),
        side: view,
    })
}
