//! AWI battles on the generic battle pages: the set-up choices and setting a battle up (both
//! orders of battle, brigadiers' abilities rolled D6+2 where not given, W-4, the roll-off for
//! the first move, W-1, the seed stored), the battle page's parts (both sides, what was rolled,
//! how each unit ended and Muster's victory arithmetic, W-31), recording a result from the table
//! in the game's terms (figures lost, routing, gone, destroyed; generals killed), the set-up
//! document and a side's roster sheet for the table. The engine fights a stored battle through
//! the generic `Systems::fight` arm; the table state and the pack are in `table.rs`.

use actix_web::web;
use actix_web::{FromRequest, HttpRequest, HttpResponse};
use askama::Template;

use crate::app::battles::{self as records, NewBattleRequest};
use crate::app::rosters as roster_store;
use crate::app::{self, Actor, ErrorDetail};
use crate::rules::system::{BattleSide, RuleSystem};
use crate::rules::systems::awi::battle::{EndState, ForceSetup, SideResult, OPEN_FIELD};
use crate::rules::systems::awi::catalogue::Catalogue;
use crate::rules::systems::awi::record::{self, SideReport, TabletopReport, UnitReport};
use crate::rules::systems::awi::system::{example_forces, AWI_PREFIX};
use crate::rules::systems::awi::{validate, Awi, BattleSetup, Outcome};
use crate::rules::SystemId;
use crate::store::battles::BattleRow;
use crate::web::auth::SignedInUser;
use crate::web::page::{PageCtx, SelectOption};
use crate::web::state::AppState;
use crate::web::systems::battles::{
    BattleChoices, BattleRequest, BattleView, Players, RecordAnswer, RecordEntry,
};
use crate::web::AppError;

// ---------- setting a battle up ----------

pub async fn choices(
    state: &web::Data<AppState>,
    user: &SignedInUser,
) -> Result<BattleChoices, AppError> {
    let rows = roster_store::list(&state.app, &user.actor(), None).await?;
    let mine = rows
        .iter()
        .filter(|r| r.rule_system == SystemId::Awi.id())
        .map(|r| SelectOption {
            value: format!("r:{}", r.id),
            label: r.name.clone(),
        })
        .collect();
    let historical = example_forces()
        .into_iter()
        .filter(|(value, _)| !value.ends_with(":empty"))
        .map(|(value, label)| SelectOption {
            // `h:awi:example:…`: `h:example:…` alone would be read as Liberty or Death!'s.
            value: format!("h:{AWI_PREFIX}{value}"),
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
        historical_label: "Example forces".into(),
        scenarios: vec![option(OPEN_FIELD, "An open field, 6 turns (Muster's W-32)")],
        roles: vec![
            option("given", "The first force attacks"),
            option("roll", "Roll a D6 each for the attack"),
        ],
    })
}

/// A stored AWI set-up.
pub fn setup_of(row: &BattleRow) -> Result<BattleSetup, app::Error> {
    Awi::parse_setup(&row.setup)
        .map_err(|e| app::Error::internal(format!("stored battle {} does not parse: {e}", row.id)))
}

/// A stored AWI result, if the battle has one.
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
    let first = records::load_force(ctx, actor, SystemId::Awi, &request.first).await?;
    let second = records::load_force(ctx, actor, SystemId::Awi, &request.second).await?;
    let first_player =
        records::read_player(ctx, actor, &request.first_player, "first_player").await?;
    let second_player =
        records::read_player(ctx, actor, &request.second_player, "second_player").await?;
    let scenario = match request.scenario.as_deref() {
        None | Some("") => None,
        Some(OPEN_FIELD) => Some(OPEN_FIELD.to_string()),
        Some(_) => {
            return Err(records::invalid(
                "scenario",
                "AWI battles are fought on an open field; choose it from the list.",
            ))
        }
    };
    records::create(
        ctx,
        actor,
        NewBattleRequest {
            system: SystemId::Awi,
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
    pub id: String,
    pub name: String,
    pub brigade: String,
    /// "6 bases of trained infantry (18 figures, 360 men)".
    pub profile: String,
    /// Figures at the start (gunners for a gun).
    pub figures: u32,
    /// How it ended, once the battle is decided.
    pub end: String,
}

pub struct GeneralLine {
    pub id: String,
    /// How the rules core names him in a result ("CinC Greene", "Brigadier Huger").
    pub result_name: String,
    /// "CinC Cornwallis", "Brigadier Webster (ability 6)".
    pub name: String,
    pub fate: String,
}

pub struct SideView {
    pub role: &'static str,
    pub side_id: &'static str,
    pub force: String,
    pub player: String,
    pub first: bool,
    pub units: Vec<UnitLine>,
    pub generals: Vec<GeneralLine>,
    pub vp: Option<u32>,
}

#[derive(Template)]
#[template(path = "systems/awi/battles/outcome.html")]
struct OutcomePart {
    headline: String,
    arithmetic: Vec<String>,
}

#[derive(Template)]
#[template(path = "systems/awi/battles/details.html")]
struct DetailsPart {
    battle_id: i64,
    sides: Vec<SideView>,
    rolls: Vec<String>,
    printable: bool,
}

fn or_unnamed(name: &str, fallback: &str) -> String {
    if name.trim().is_empty() {
        fallback.to_string()
    } else {
        name.to_string()
    }
}

fn unit_lines(cat: &Catalogue, force: &ForceSetup) -> Vec<UnitLine> {
    let report = validate::validate(cat, &force.roster);
    force
        .roster
        .units()
        .map(|(b, u, unit)| {
            let path = format!("brigades[{b}].units[{u}]");
            let view = report.units.iter().find(|v| v.path == path);
            UnitLine {
                id: unit.id.clone().unwrap_or_default(),
                name: or_unnamed(&unit.name, "Unit"),
                brigade: force
                    .roster
                    .brigades
                    .get(b)
                    .map(|br| or_unnamed(&br.name, &format!("Brigade {}", b + 1)))
                    .unwrap_or_default(),
                profile: view.map(|v| v.describe.clone()).unwrap_or_default(),
                figures: view.map_or(0, |v| v.figures),
                end: String::new(),
            }
        })
        .collect()
}

fn general_lines(force: &ForceSetup) -> Vec<GeneralLine> {
    let mut out = Vec::new();
    if let Some(c) = &force.roster.cinc {
        out.push(GeneralLine {
            id: c.id.clone().unwrap_or_default(),
            result_name: format!("CinC {}", c.name),
            name: format!("CinC {}", or_unnamed(&c.name, "(unnamed)")),
            fate: String::new(),
        });
    }
    for b in &force.roster.brigades {
        if let Some(g) = &b.brigadier {
            out.push(GeneralLine {
                id: g.id.clone().unwrap_or_default(),
                result_name: format!("Brigadier {}", g.name),
                name: format!(
                    "Brigadier {} ({}, ability {})",
                    or_unnamed(&g.name, "(unnamed)"),
                    or_unnamed(&b.name, "brigade"),
                    g.ability_value()
                        .map_or_else(|| "not rolled".to_string(), |a| a.to_string())
                ),
                fate: String::new(),
            });
        }
    }
    out
}

/// The outcome in one line: who won, how clearly, the points.
pub fn headline(setup: &BattleSetup, o: &Outcome) -> String {
    match o.winner {
        Some(side) => {
            let (won, lost) = match side {
                BattleSide::Attacker => (&o.attacker, &o.defender),
                BattleSide::Defender => (&o.defender, &o.attacker),
            };
            format!(
                "{} wins: {}, {} points to {}",
                setup.force(side).roster.name,
                o.level.label().to_lowercase(),
                won.vp,
                lost.vp
            )
        }
        None => format!("A draw, {} points to {}", o.attacker.vp, o.defender.vp),
    }
}

/// How each side's points add up (W-31), and the verdict.
pub fn arithmetic(o: &Outcome) -> Vec<String> {
    let mut lines = Vec::new();
    for s in [&o.attacker, &o.defender] {
        let words = if s.vp_lines.is_empty() {
            "nothing".to_string()
        } else {
            s.vp_lines.join("; ")
        };
        lines.push(format!(
            "{}{}: {words} = {} points.",
            s.name,
            if s.broke { " (broken)" } else { "" },
            s.vp
        ));
    }
    lines.push(o.verdict.clone());
    lines
}

fn result_side(o: &Outcome, side: BattleSide) -> &SideResult {
    match side {
        BattleSide::Attacker => &o.attacker,
        BattleSide::Defender => &o.defender,
    }
}

pub fn end_words(u: &crate::rules::systems::awi::battle::UnitResult) -> String {
    let lost = if u.figures_lost > 0 {
        format!(", {} of {} figures lost", u.figures_lost, u.start_figures)
    } else {
        String::new()
    };
    let half = if u.at_or_below_half && u.state == EndState::Fighting {
        ", at or below half strength"
    } else {
        ""
    };
    format!("{}{lost}{half}", u.state.label())
}

pub fn view(
    state: &AppState,
    row: &BattleRow,
    players: &Players,
    printable: bool,
) -> Result<BattleView, AppError> {
    let cat = &state.app.rules.awi;
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
        let mut vp = None;
        if let Some(o) = &result {
            let r = result_side(o, side);
            for end in &r.units {
                if let Some(line) = units.iter_mut().find(|l| l.id == end.id) {
                    line.end = end_words(end);
                }
            }
            for g in &mut generals {
                g.fate = if r.generals_killed.contains(&g.result_name) {
                    "killed".into()
                } else {
                    "unharmed".into()
                };
            }
            vp = Some(r.vp);
        }
        sides.push(SideView {
            role,
            side_id,
            force: force.roster.name.clone(),
            player: player.clone(),
            first: setup.first_side_a == side,
            units,
            generals,
            vp,
        });
    }
    let outcome = match &result {
        Some(o) => OutcomePart {
            headline: headline(&setup, o),
            arithmetic: arithmetic(o),
        }
        .render()?,
        None => String::new(),
    };
    let mut rolls: Vec<String> = serde_json::from_str(&row.rolls).unwrap_or_default();
    if rolls.is_empty() {
        rolls.push(format!(
            "Roll-off for the first move: {} against {}; {} moves first (W-1).",
            setup.roll_off.0,
            setup.roll_off.1,
            setup.force(setup.first_side_a).roster.name
        ));
    }
    let details = DetailsPart {
        battle_id: row.id,
        sides,
        rolls,
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
    pub figures: u32,
    pub lost: String,
    pub state: String,
}

pub struct RecordGeneral {
    pub key: String,
    pub name: String,
    pub killed: bool,
}

pub struct RecordSide {
    pub role: &'static str,
    pub force: String,
    pub units: Vec<RecordUnit>,
    pub generals: Vec<RecordGeneral>,
}

#[derive(Template)]
#[template(path = "systems/awi/battles/record.html")]
struct RecordFields {
    max_moves: u32,
    moves: String,
    sides: Vec<RecordSide>,
    states: Vec<(&'static str, &'static str)>,
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

fn max_moves(cat: &Catalogue, setup: &BattleSetup) -> u32 {
    setup.turns * cat.victory.moves_per_turn
}

pub fn record_form(
    state: &AppState,
    row: &BattleRow,
    fields: &[(String, String)],
) -> Result<String, AppError> {
    let cat = &state.app.rules.awi;
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
                    .map(|line| {
                        let key = format!("{prefix}_{}", line.id);
                        RecordUnit {
                            lost: field(fields, &format!("lost_{key}"))
                                .unwrap_or("0")
                                .to_string(),
                            state: field(fields, &format!("state_{key}"))
                                .unwrap_or("fighting")
                                .to_string(),
                            key,
                            name: format!("{} ({}; {})", line.name, line.brigade, line.profile),
                            figures: line.figures,
                        }
                    })
                    .collect(),
                generals: general_lines(force)
                    .into_iter()
                    .map(|g| {
                        let key = format!("{prefix}_{}", g.id);
                        RecordGeneral {
                            killed: field(fields, &format!("killed_{key}")).is_some(),
                            key,
                            name: g.name,
                        }
                    })
                    .collect(),
            }
        })
        .collect();
    Ok(RecordFields {
        max_moves: max_moves(cat, &setup),
        moves: field(fields, "moves").unwrap_or("").to_string(),
        sides,
        states: EndState::ALL.iter().map(|e| (e.id(), e.label())).collect(),
    }
    .render()?)
}

/// The record form's fields as a recorded result filled them in, so that a correction starts
/// from it. Empty for a battle not recorded from the table.
pub fn record_fields_of(recorded: &BattleRow) -> Vec<(String, String)> {
    let Some(outcome) =
        result_of(recorded).filter(|o| o.method == crate::rules::system::Method::Tabletop)
    else {
        return Vec::new();
    };
    let mut fields = vec![("moves".to_string(), outcome.moves.to_string())];
    for (side, prefix, _) in SIDES {
        let r = result_side(&outcome, side);
        for u in &r.units {
            fields.push((
                format!("lost_{prefix}_{}", u.id),
                u.figures_lost.to_string(),
            ));
            fields.push((format!("state_{prefix}_{}", u.id), u.state.id().to_string()));
        }
        if let Ok(setup) = setup_of(recorded) {
            for g in general_lines(setup.force(side)) {
                if r.generals_killed.contains(&g.result_name) {
                    fields.push((format!("killed_{prefix}_{}", g.id), "1".to_string()));
                }
            }
        }
    }
    fields
}

/// Reads the record form into the rules core's report; numbers must be whole, every other
/// check is the rules core's.
fn read_report(
    setup: &BattleSetup,
    fields: &[(String, String)],
) -> Result<TabletopReport, Vec<ErrorDetail>> {
    let mut problems = Vec::new();
    let moves = match field(fields, "moves").unwrap_or("").trim() {
        "" => None,
        text => match text.parse::<u32>() {
            Ok(n) => Some(n),
            Err(_) => {
                problems.push(ErrorDetail {
                    field: Some("moves".into()),
                    message: "Moves played is a whole number.".into(),
                });
                None
            }
        },
    };
    let mut report = TabletopReport {
        moves,
        ..TabletopReport::default()
    };
    for (side, prefix, _) in SIDES {
        let force = setup.force(side);
        let mut given = SideReport::default();
        for (_, _, unit) in force.roster.units() {
            let id = unit.id.clone().unwrap_or_default();
            let key = format!("{prefix}_{id}");
            let lost = match field(fields, &format!("lost_{key}")).unwrap_or("").trim() {
                "" => 0,
                text => text.parse::<u32>().unwrap_or_else(|_| {
                    problems.push(ErrorDetail {
                        field: Some(format!("lost_{key}")),
                        message: format!(
                            "Figures lost by {} is a whole number, 0 or more.",
                            or_unnamed(&unit.name, "a unit")
                        ),
                    });
                    0
                }),
            };
            let state = field(fields, &format!("state_{key}"))
                .filter(|s| !s.is_empty() && *s != "fighting")
                .map(str::to_string);
            if lost > 0 || state.is_some() {
                given.units.push(UnitReport {
                    id,
                    figures_lost: lost,
                    state,
                });
            }
        }
        for g in general_lines(force) {
            if field(fields, &format!("killed_{prefix}_{}", g.id)).is_some() {
                given.generals_killed.push(g.id);
            }
        }
        match side {
            BattleSide::Attacker => report.attacker = given,
            BattleSide::Defender => report.defender = given,
        }
    }
    if problems.is_empty() {
        Ok(report)
    } else {
        Err(problems)
    }
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
    RecordAnswer::Checked(match record::assess(cat, setup, report) {
        Ok(o) => {
            let mut words = vec![format!("{}.", headline(setup, &o))];
            words.extend(arithmetic(&o));
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
                Ok(report) if check_only => return Ok(preview(&ctx.rules.awi, &setup, &report)),
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
    Ok(Awi::write_setup(&setup_of(row)?))
}

/// One side's roster sheet or unit cards as it stood at the start of the battle, with every
/// brigadier's ability as rolled.
pub async fn at_the_table(
    req: &HttpRequest,
    row: &BattleRow,
    side: &str,
    kind: &str,
) -> Result<HttpResponse, AppError> {
    let ctx = PageCtx::extract(req).await?;
    let state = crate::web::state::state_of(req)?;
    let setup = setup_of(row)?;
    let side = match side {
        "attacker" => BattleSide::Attacker,
        "defender" => BattleSide::Defender,
        _ => return Err(AppError::NotFound),
    };
    let query = super::print::PrintQuery::from_query(req.query_string())?;
    let action = req.path().to_string();
    super::print::print_doc(&state, ctx, &setup.force(side).roster, kind, &query, action)
}
