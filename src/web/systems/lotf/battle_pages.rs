//! Land of the Free's battles on the generic battle pages: the set-up choices and setting a
//! battle up, the report (commanders with their rolled ratings, losses, the turn-by-turn log),
//! the set-up document and each side printed as it stood. Recording a result from the table is
//! `record.rs`.

use actix_web::{web, FromRequest, HttpRequest, HttpResponse};
use askama::Template;

use crate::app::battles::{self as records, NewBattleRequest};
use crate::app::{self, Actor};
use crate::rules::systems::lotf::record::CommanderFate;
use crate::rules::systems::lotf::{self, BattleSetup, ScenarioId, Side};
use crate::rules::SystemId;
use crate::store::battles::BattleRow;
use crate::web::auth::SignedInUser;
use crate::web::page::{PageCtx, SelectOption};
use crate::web::state::AppState;
use crate::web::systems::battles::{BattleChoices, BattleRequest, BattleView, Players};
use crate::web::systems::fight_report::{Legend, SideChart, TurnLog};
use crate::web::systems::lotf::fight::{casualties_of, legend, points_chart, turn_log, Casualty};
use crate::web::systems::lotf::print::{CommanderState, ForceState, PrintQuery};
use crate::web::AppError;

// ---------- setting a battle up ----------

pub async fn choices(
    state: &web::Data<AppState>,
    user: &SignedInUser,
) -> Result<BattleChoices, AppError> {
    let (mine, historical) = crate::web::systems::lotf::fight::force_choices(state, user).await?;
    let mut scenarios = vec![SelectOption {
        value: String::new(),
        label: "Roll on the book's 2d6 table".into(),
    }];
    scenarios.extend(crate::web::systems::lotf::fight::scenarios());
    let roles = [
        ("given", "The first force attacks"),
        ("roll", "Roll for the attack (+1 for more Scouts)"),
    ]
    .into_iter()
    .map(|(value, label)| SelectOption {
        value: value.into(),
        label: label.into(),
    })
    .collect();
    Ok(BattleChoices {
        mine,
        historical,
        historical_label: String::new(),
        scenarios,
        roles,
    })
}

/// A stored Land of the Free set-up.
pub fn setup_of(row: &BattleRow) -> Result<lotf::BattleSetup, app::Error> {
    lotf::parse_battle(&row.setup)
        .map_err(|e| app::Error::internal(format!("stored battle {} does not parse: {e}", row.id)))
}

/// A stored Land of the Free result, if the battle has one.
fn result_of(row: &BattleRow) -> Option<lotf::Outcome> {
    row.result
        .as_deref()
        .and_then(|r| serde_json::from_str(r).ok())
}

pub async fn set_up(
    ctx: &app::Context,
    actor: &Actor,
    request: BattleRequest,
) -> Result<BattleRow, app::Error> {
    let first = records::load_force(ctx, actor, SystemId::Lotf, &request.first).await?;
    let second = records::load_force(ctx, actor, SystemId::Lotf, &request.second).await?;
    let first_player =
        records::read_player(ctx, actor, &request.first_player, "first_player").await?;
    let second_player =
        records::read_player(ctx, actor, &request.second_player, "second_player").await?;
    let scenario = match request.scenario.as_deref() {
        None | Some("") => None,
        Some(id) => Some(
            ScenarioId::from_id(id)
                .ok_or_else(|| records::invalid("scenario", "Choose a scenario from the list."))?
                .id()
                .to_string(),
        ),
    };
    records::create(
        ctx,
        actor,
        NewBattleRequest {
            system: SystemId::Lotf,
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

// ---------- the report ----------

pub struct CommanderLine {
    /// The commander's id in the roster, to match fates by.
    pub id: String,
    pub name: String,
    pub post: String,
    pub rating: String,
    pub fate: String,
}

pub struct SideView {
    pub role: &'static str,
    pub force: String,
    pub player: String,
    pub commanders: Vec<CommanderLine>,
    pub losses: Vec<Casualty>,
    pub points_lost: u32,
    pub side_id: &'static str,
}

#[derive(Template)]
#[template(path = "systems/lotf/battles/outcome.html")]
struct OutcomePart {
    headline: String,
    arithmetic: String,
    chart: Option<SideChart>,
    legend: Option<Legend>,
}

#[derive(Template)]
#[template(path = "systems/lotf/battles/details.html")]
struct DetailsPart {
    battle_id: i64,
    sides: Vec<SideView>,
    rolls: Vec<String>,
    log: Option<TurnLog>,
    printable: bool,
}

fn commanders(cat: &lotf::Catalogue, setup: &BattleSetup, side: Side) -> Vec<CommanderLine> {
    let force = if side == Side::Attacker {
        &setup.attacker
    } else {
        &setup.defender
    };
    let mut out = Vec::new();
    let mut push = |c: &lotf::CommanderDoc, post: String| {
        let rating =
            c.id.as_ref()
                .and_then(|id| force.commanders.get(id))
                .map(|s| {
                    format!(
                        "{} (rolled {})",
                        cat.commander_rating_for_roll(s.rating_roll)
                            .map(|r| r.name.clone())
                            .unwrap_or_default(),
                        s.rating_roll
                    )
                })
                .unwrap_or_else(|| "not rolled".into());
        out.push(CommanderLine {
            id: c.id.clone().unwrap_or_default(),
            name: if c.name.is_empty() {
                "(unnamed)".into()
            } else {
                c.name.clone()
            },
            post,
            rating,
            fate: String::new(),
        });
    };
    if let Some(c) = &force.roster.force_commander {
        push(c, "Force Commander".into());
    }
    for (i, g) in force.roster.groups.iter().enumerate() {
        if let Some(c) = &g.commander {
            push(c, format!("Group {}", i + 1));
        }
    }
    out
}

/// The scenario's name in the book, or its id when the tables do not know it.
pub fn scenario_name(cat: &lotf::Catalogue, id: &str) -> Option<String> {
    cat.tables()
        .scenarios
        .iter()
        .find(|s| s.id == id)
        .map(|s| s.name.clone())
}

pub fn view(
    state: &AppState,
    row: &BattleRow,
    players: &Players,
    printable: bool,
) -> Result<BattleView, AppError> {
    let cat = &state.app.rules.lotf;
    let setup = setup_of(row)?;
    let result = result_of(row);
    let mut sides = Vec::new();
    for (side, role, side_id, player) in [
        (Side::Attacker, "Attacker", "attacker", &players.attacker),
        (Side::Defender, "Defender", "defender", &players.defender),
    ] {
        let force = if side == Side::Attacker {
            &setup.attacker
        } else {
            &setup.defender
        };
        sides.push(SideView {
            role,
            side_id,
            force: force.roster.name.clone(),
            player: player.clone(),
            commanders: commanders(cat, &setup, side),
            losses: Vec::new(),
            points_lost: 0,
        });
    }
    let (mut headline, mut arithmetic, mut log, mut chart_out, mut legend_out) =
        (String::new(), String::new(), None, None, None);
    match &result {
        Some(lotf::Outcome::Simulated { outcome }) => {
            headline = crate::web::systems::lotf::fight::headline(
                outcome,
                &setup.attacker.roster.name,
                &setup.defender.roster.name,
            );
            arithmetic = crate::web::page::sentence(&outcome.arithmetic);
            sides[0].losses = casualties_of(outcome, Side::Attacker);
            sides[1].losses = casualties_of(outcome, Side::Defender);
            sides[0].points_lost = outcome.attacker_points_lost;
            sides[1].points_lost = outcome.defender_points_lost;
            for c in &outcome.commanders {
                let si = if c.side == Side::Attacker { 0 } else { 1 };
                if let Some(line) = sides[si].commanders.iter_mut().find(|l| l.id == c.id) {
                    line.fate = if c.killed {
                        format!(
                            "fell{}",
                            c.killed_turn
                                .map(|t| format!(" in turn {t}"))
                                .unwrap_or_default()
                        )
                    } else {
                        "unharmed".into()
                    };
                }
            }
            let told = turn_log(outcome, &setup);
            chart_out = Some(points_chart(outcome, &told.legend));
            legend_out = Some(legend(&setup));
            log = Some(told).filter(|l| !l.is_empty());
        }
        Some(lotf::Outcome::Tabletop { report, outcome }) => {
            let o = outcome;
            let winner = match o.victory.winner {
                Some(Side::Attacker) => format!("{} wins", setup.attacker.roster.name),
                Some(Side::Defender) => format!("{} wins", setup.defender.roster.name),
                None => "A tie".into(),
            };
            headline = format!(
                "{winner}: {} victory points to {}",
                o.victory.attacker_vp.max(o.victory.defender_vp),
                o.victory.attacker_vp.min(o.victory.defender_vp)
            );
            if o.victory.winner.is_none() {
                headline = format!("A tie, {}:{}", o.victory.attacker_vp, o.victory.defender_vp);
            }
            arithmetic = format!(
                "{} Played over {} turns.",
                crate::web::page::sentence(&o.victory.arithmetic),
                o.turns_played
            );
            sides[0].points_lost = o.attacker_points_lost;
            sides[1].points_lost = o.defender_points_lost;
            for e in &o.elements {
                let si = if e.side == Side::Attacker { 0 } else { 1 };
                sides[si].losses.push(Casualty {
                    name: e.name.clone(),
                    group: String::new(),
                    points: e.points,
                    state: e.state.label().to_string(),
                });
            }
            for c in &report.commanders {
                let si = if c.side == Side::Attacker { 0 } else { 1 };
                if let Some(line) = sides[si].commanders.iter_mut().find(|l| l.id == c.id) {
                    line.fate = match c.fate {
                        CommanderFate::Unharmed => "unharmed".into(),
                        CommanderFate::Killed => "killed".into(),
                        CommanderFate::Captured => "captured".into(),
                    };
                }
            }
        }
        None => {}
    }
    let outcome = if headline.is_empty() {
        String::new()
    } else {
        OutcomePart {
            headline,
            arithmetic,
            chart: chart_out,
            legend: legend_out,
        }
        .render()?
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
        scenario: scenario_name(cat, &row.scenario).unwrap_or_else(|| row.scenario.clone()),
        outcome,
        details,
    })
}

// ---------- the set-up document and the sides at the table ----------

pub fn pack(row: &BattleRow) -> Result<String, AppError> {
    Ok(lotf::serialize_battle(&setup_of(row)?))
}

pub async fn at_the_table(
    req: &HttpRequest,
    row: &BattleRow,
    side: &str,
    kind: &str,
) -> Result<HttpResponse, AppError> {
    let ctx = PageCtx::extract(req).await?;
    let query = web::Query::<PrintQuery>::from_query(req.query_string())
        .map_err(|e| AppError::bad_request(format!("The print options could not be read: {e}")))?;
    let state = crate::web::state::state_of(req)?;
    let setup = setup_of(row)?;
    let force = match side {
        "attacker" => &setup.attacker,
        "defender" => &setup.defender,
        _ => return Err(AppError::NotFound),
    };
    let cat = &state.app.rules.lotf;
    let mut fs = ForceState {
        label: Some(format!("battle {}: {}", row.id, row.title)),
        ..Default::default()
    };
    for (cid, c) in &force.commanders {
        if let Some(state) = CommanderState::rolled(cat, c.rating_roll, vec![]) {
            fs.commanders.insert(cid.clone(), state);
        }
    }
    let action = format!("/battles/{}/print/{side}/{kind}", row.id);
    super::print::pages::print_force(&state, ctx, &force.roster, Some(&fs), kind, &query, action)
}
