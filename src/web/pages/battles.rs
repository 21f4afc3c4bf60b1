//! Battles as records: set up, fight or record, confirm or dispute, report, history.

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use serde::Deserialize;

use crate::app;
use crate::app::battle_record::{
    result_of, setup_of, side_of, winner_of, RecordStatus, StoredResult,
};
use crate::app::battles::{self as records, NewBattleRequest};
use crate::rules::systems::lotf::record::{
    CommanderFate, CommanderReport, ElementReport, FinalState, TabletopReport,
};
use crate::rules::systems::lotf::{self, BattleSetup, ScenarioId, Side};
use crate::store::battles::BattleRow;
use crate::web::auth::csrf::{CsrfForm, NoFields};
use crate::web::auth::{SignedIn, SignedInUser};
use crate::web::page::SelectOption;
use crate::web::page::{redirect, render, render_with_status, FormErrors, PageCtx};
use crate::web::state::AppState;
use crate::web::systems::lotf::fight::{casualties_of, Casualty};
use crate::web::systems::lotf::odds::Chart;
use crate::web::AppError;

fn status_label(s: &str) -> &'static str {
    RecordStatus::from_id(s).map_or("Unknown", RecordStatus::label)
}

// ---------- list and set up ----------

pub struct BattleLine {
    pub id: i64,
    pub title: String,
    pub scenario: String,
    pub status: &'static str,
    pub result: String,
    pub date: String,
}

#[derive(Template)]
#[template(path = "battles/list.html")]
struct ListPage {
    ctx: PageCtx,
    battles: Vec<BattleLine>,
    record: (u32, u32, u32),
    mine: Vec<SelectOption>,
    historical: Vec<SelectOption>,
    scenarios: Vec<SelectOption>,
    form: SetUpForm,
    errors: FormErrors,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct SetUpForm {
    pub first: String,
    pub second: String,
    pub first_player: String,
    pub second_player: String,
    pub scenario: String,
    pub roles: String,
}

fn result_text(row: &BattleRow) -> String {
    match (winner_of(row), row.attacker_vp, row.defender_vp) {
        (Some(Some(Side::Attacker)), Some(a), Some(d)) => format!("Attacker wins {a}:{d}"),
        (Some(Some(Side::Defender)), Some(a), Some(d)) => format!("Defender wins {d}:{a}"),
        (Some(None), Some(a), Some(d)) => format!("Tie {a}:{d}"),
        _ => "—".into(),
    }
}

/// Wins, draws and losses of a user over their confirmed battles.
pub fn win_draw_loss(rows: &[BattleRow], user: i64) -> (u32, u32, u32) {
    let mut out = (0, 0, 0);
    for r in rows
        .iter()
        .filter(|r| r.status == RecordStatus::Confirmed.id())
    {
        let Some(side) = side_of(r, user) else {
            continue;
        };
        match winner_of(r) {
            Some(None) => out.1 += 1,
            Some(Some(w)) if w == side => out.0 += 1,
            Some(Some(_)) => out.2 += 1,
            None => {}
        }
    }
    out
}

pub fn lines(rows: &[BattleRow]) -> Vec<BattleLine> {
    rows.iter()
        .map(|r| BattleLine {
            id: r.id,
            title: r.title.clone(),
            scenario: r.scenario.replace('_', " "),
            status: status_label(&r.status),
            result: result_text(r),
            date: r.created_at.format("%Y-%m-%d").to_string(),
        })
        .collect()
}

async fn list_page(
    state: &web::Data<AppState>,
    user: &SignedInUser,
    ctx: PageCtx,
    form: SetUpForm,
    errors: FormErrors,
) -> Result<HttpResponse, AppError> {
    let uid = user.id;
    let rows = records::list(&state.app, &user.actor()).await?;
    let (mine, historical) = crate::web::systems::lotf::fight::force_choices(state, user).await?;
    let status_code = if errors.is_empty() {
        StatusCode::OK
    } else {
        StatusCode::UNPROCESSABLE_ENTITY
    };
    let mut scenarios = vec![SelectOption {
        value: String::new(),
        label: "Roll on the book's 2d6 table".into(),
    }];
    scenarios.extend(crate::web::systems::lotf::fight::scenarios());
    render_with_status(
        &ListPage {
            ctx,
            record: win_draw_loss(&rows, uid),
            battles: lines(&rows),
            mine,
            historical,
            scenarios,
            form,
            errors,
        },
        status_code,
    )
}

pub async fn list(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
) -> Result<HttpResponse, AppError> {
    list_page(
        &state,
        &user,
        ctx,
        SetUpForm::default(),
        FormErrors::default(),
    )
    .await
}

pub async fn create(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    CsrfForm(form): CsrfForm<SetUpForm>,
) -> Result<HttpResponse, AppError> {
    let built = async {
        let first = records::load_force(&state.app, &user.actor(), &form.first).await?;
        let second = records::load_force(&state.app, &user.actor(), &form.second).await?;
        let first_player = records::read_player(
            &state.app,
            &user.actor(),
            &form.first_player,
            "first_player",
        )
        .await?;
        let second_player = records::read_player(
            &state.app,
            &user.actor(),
            &form.second_player,
            "second_player",
        )
        .await?;
        let scenario =
            match form.scenario.as_str() {
                "" => None,
                id => Some(ScenarioId::from_id(id).ok_or_else(|| {
                    records::invalid("scenario", "Choose a scenario from the list.")
                })?),
            };
        records::create(
            &state.app,
            &user.actor(),
            NewBattleRequest {
                first,
                second,
                first_player,
                second_player,
                scenario,
                roll_roles: form.roles == "roll",
            },
        )
        .await
    }
    .await;
    match built {
        Ok(row) => Ok(redirect(&format!("/battles/{}", row.id))),
        Err(app::Error::Validation { details, .. }) => {
            let mut errors = FormErrors::default();
            for d in details {
                errors.add(d.field.as_deref().unwrap_or(""), d.message);
            }
            list_page(&state, &user, ctx, form, errors).await
        }
        Err(app::Error::BadRequest { message, .. }) => {
            let mut errors = FormErrors::default();
            errors.general.push(message);
            list_page(&state, &user, ctx, form, errors).await
        }
        Err(e) => Err(e.into()),
    }
}

// ---------- the battle page ----------

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

pub struct TurnLines {
    pub turn: u32,
    pub lines: Vec<String>,
}

#[derive(Template)]
#[template(path = "battles/show.html")]
struct BattlePage {
    ctx: PageCtx,
    row: BattleRow,
    status: &'static str,
    scenario: String,
    rolls: Vec<String>,
    sides: Vec<SideView>,
    headline: String,
    arithmetic: String,
    log: Vec<TurnLines>,
    chart: Option<Chart>,
    can_fight: bool,
    can_confirm: bool,
    can_dispute: bool,
    can_correct: bool,
    is_player: bool,
    public_url: Option<String>,
    shared: bool,
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

async fn battle_page(
    state: &web::Data<AppState>,
    ctx: PageCtx,
    row: BattleRow,
    viewer: Option<&SignedInUser>,
    shared: bool,
    public_url: Option<String>,
) -> Result<HttpResponse, AppError> {
    let cat = &state.app.rules.lotf;
    let setup = setup_of(&row)?;
    let result = result_of(&row);
    let mut sides = Vec::new();
    for (side, role, side_id) in [
        (Side::Attacker, "Attacker", "attacker"),
        (Side::Defender, "Defender", "defender"),
    ] {
        let force = if side == Side::Attacker {
            &setup.attacker
        } else {
            &setup.defender
        };
        let player = if side == Side::Attacker {
            records::player_name(&state.app, row.attacker_user_id, row.attacker_guest.clone())
                .await?
        } else {
            records::player_name(&state.app, row.defender_user_id, row.defender_guest.clone())
                .await?
        };
        sides.push(SideView {
            role,
            side_id,
            force: force.roster.name.clone(),
            player,
            commanders: commanders(cat, &setup, side),
            losses: Vec::new(),
            points_lost: 0,
        });
    }
    let (mut headline, mut arithmetic, mut log, mut chart_out) =
        (String::new(), String::new(), Vec::new(), None);
    match &result {
        Some(StoredResult::Simulated { outcome }) => {
            headline = crate::web::systems::lotf::fight::headline(
                outcome,
                &setup.attacker.roster.name,
                &setup.defender.roster.name,
            );
            arithmetic = outcome.arithmetic.clone();
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
            for line in &outcome.log {
                match log.last_mut() {
                    Some(TurnLines { turn, lines }) if *turn == line.turn => {
                        lines.push(line.text.clone())
                    }
                    _ => log.push(TurnLines {
                        turn: line.turn,
                        lines: vec![line.text.clone()],
                    }),
                }
            }
            chart_out = Some(crate::web::systems::lotf::fight::points_chart(outcome));
        }
        Some(StoredResult::Tabletop { report, outcome }) => {
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
                o.victory.arithmetic, o.turns_played
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
    let me = viewer.map(|u| u.id);
    let is_player = me.is_some_and(|id| side_of(&row, id).is_some());
    let page = BattlePage {
        ctx,
        status: status_label(&row.status),
        scenario: cat
            .tables()
            .scenarios
            .iter()
            .find(|s| s.id == row.scenario)
            .map(|s| s.name.clone())
            .unwrap_or_else(|| row.scenario.clone()),
        rolls: serde_json::from_str(&row.rolls).unwrap_or_default(),
        sides,
        headline,
        arithmetic,
        log,
        chart: chart_out,
        can_fight: is_player && row.status == RecordStatus::SetUp.id() && !shared,
        can_confirm: is_player
            && row.status == RecordStatus::Provisional.id()
            && row.recorded_by != me
            && !shared,
        can_dispute: is_player && row.status == RecordStatus::Provisional.id() && !shared,
        can_correct: row.campaign_id.is_none()
            && is_player
            && row.method.as_deref() == Some("tabletop")
            && (row.status == RecordStatus::Confirmed.id()
                || row.status == RecordStatus::Disputed.id())
            && !shared,
        is_player: is_player && !shared,
        public_url,
        shared,
        row,
    };
    render(&page)
}

pub async fn show(
    req: actix_web::HttpRequest,
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let row = records::load_for(&state.app, &user.actor(), id.into_inner()).await?;
    let public_url = row
        .public_token
        .as_ref()
        .map(|t| state.absolute_url(&req, &format!("/battles/public/{t}")));
    battle_page(&state, ctx, row, Some(&user), false, public_url).await
}

pub async fn public(
    state: web::Data<AppState>,
    ctx: PageCtx,
    token: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    let row = records::public(&state.app, token.into_inner()).await?;
    battle_page(&state, ctx, row, None, true, None).await
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ActionForm {
    pub version: i32,
    pub comment: String,
}

pub async fn fight(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    id: web::Path<i64>,
    CsrfForm(form): CsrfForm<ActionForm>,
) -> Result<HttpResponse, AppError> {
    let row = records::load_for(&state.app, &user.actor(), id.into_inner()).await?;
    let row = records::simulate(&state.app, &user.actor(), &row, form.version).await?;
    Ok(redirect(&format!("/battles/{}", row.id)))
}

pub async fn confirm(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    id: web::Path<i64>,
    CsrfForm(form): CsrfForm<ActionForm>,
) -> Result<HttpResponse, AppError> {
    let row = records::load_for(&state.app, &user.actor(), id.into_inner()).await?;
    let row = records::confirm(&state.app, &user.actor(), &row, form.version).await?;
    Ok(redirect(&format!("/battles/{}", row.id)))
}

pub async fn dispute(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    id: web::Path<i64>,
    CsrfForm(form): CsrfForm<ActionForm>,
) -> Result<HttpResponse, AppError> {
    let row = records::load_for(&state.app, &user.actor(), id.into_inner()).await?;
    let row =
        records::dispute(&state.app, &user.actor(), &row, form.version, &form.comment).await?;
    Ok(redirect(&format!("/battles/{}", row.id)))
}

pub async fn correct(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    id: web::Path<i64>,
    CsrfForm(form): CsrfForm<ActionForm>,
) -> Result<HttpResponse, AppError> {
    let row = records::load_for(&state.app, &user.actor(), id.into_inner()).await?;
    let new = records::correct(&state.app, &user.actor(), &row, form.version).await?;
    Ok(redirect(&format!("/battles/{}/record", new.id)))
}

pub async fn publish(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    id: web::Path<i64>,
    CsrfForm(_): CsrfForm<NoFields>,
) -> Result<HttpResponse, AppError> {
    let row = records::load_for(&state.app, &user.actor(), id.into_inner()).await?;
    records::publish(&state.app, &user.actor(), &row).await?;
    Ok(redirect(&format!("/battles/{}", row.id)))
}

// ---------- recording a tabletop result ----------

pub struct RecordElement {
    pub key: String,
    pub name: String,
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
#[template(path = "battles/record.html")]
struct RecordPage {
    ctx: PageCtx,
    row: BattleRow,
    scenario: String,
    objectives: u32,
    max_turns: u8,
    sides: Vec<RecordSide>,
    turns: String,
    obj_attacker: String,
    obj_defender: String,
    problems: Vec<String>,
    /// What the entries add up to, shown before saving ("Check the result").
    preview: Option<String>,
}

fn field<'a>(fields: &'a [(String, String)], key: &str) -> Option<&'a str> {
    fields
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

fn record_page(
    state: &AppState,
    ctx: PageCtx,
    row: BattleRow,
    fields: &[(String, String)],
    problems: Vec<String>,
) -> Result<RecordPage, AppError> {
    let setup = setup_of(&row)?;
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
    Ok(RecordPage {
        ctx,
        scenario: state
            .app
            .rules
            .lotf
            .tables()
            .scenarios
            .iter()
            .find(|s| s.id == row.scenario)
            .map(|s| s.name.clone())
            .unwrap_or_else(|| row.scenario.replace('_', " ")),
        objectives: lotf::record::objective_count(setup.scenario),
        max_turns: state.app.rules.lotf.tables().game_length_turns,
        sides,
        turns: field(fields, "turns").unwrap_or("6").to_string(),
        obj_attacker: field(fields, "obj_attacker").unwrap_or("0").to_string(),
        obj_defender: field(fields, "obj_defender").unwrap_or("0").to_string(),
        problems,
        preview: None,
        row,
    })
}

pub async fn record_form(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let row = records::load_for(&state.app, &user.actor(), id.into_inner()).await?;
    if row.status != RecordStatus::SetUp.id() {
        return Ok(redirect(&format!("/battles/{}", row.id)));
    }
    render(&record_page(&state, ctx, row, &[], Vec::new())?)
}

/// Reads the record form into the rules core's report; unreadable entries become problems.
fn read_report(
    setup: &BattleSetup,
    fields: &[(String, String)],
) -> Result<TabletopReport, Vec<String>> {
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
                    continue;
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
    let number = |key: &str, what: &str, problems: &mut Vec<String>| -> u32 {
        field(fields, key)
            .unwrap_or("0")
            .trim()
            .parse()
            .unwrap_or_else(|_| {
                problems.push(format!("{what} is a whole number from 0."));
                0
            })
    };
    let turns_played = number("turns", "The number of turns", &mut problems);
    let attacker_objectives = number("obj_attacker", "The attacker's objectives", &mut problems);
    let defender_objectives = number("obj_defender", "The defender's objectives", &mut problems);
    if problems.is_empty() {
        Ok(TabletopReport {
            turns_played,
            elements,
            commanders,
            attacker_objectives,
            defender_objectives,
        })
    } else {
        Err(problems)
    }
}

pub async fn record(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
    CsrfForm(fields): CsrfForm<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    let row = records::load_for(&state.app, &user.actor(), id.into_inner()).await?;
    if row.status != RecordStatus::SetUp.id() {
        return Ok(redirect(&format!("/battles/{}", row.id)));
    }
    let setup = setup_of(&row)?;
    let version: i32 = field(&fields, "version")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let report = match read_report(&setup, &fields) {
        Ok(r) if field(&fields, "preview") == Some("1") => {
            // Check only: show the arithmetic and keep the form, save nothing.
            let mut page = record_page(&state, ctx, row, &fields, Vec::new())?;
            match lotf::record::assess(&state.app.rules.lotf, &setup, &r) {
                Ok(o) => {
                    let winner = match o.victory.winner {
                        Some(Side::Attacker) => format!("{} would win", setup.attacker.roster.name),
                        Some(Side::Defender) => format!("{} would win", setup.defender.roster.name),
                        None => "It would be a tie".into(),
                    };
                    page.preview = Some(format!(
                        "{winner}, {}:{} — {}. Points lost: {} {}, {} {}.",
                        o.victory.attacker_vp,
                        o.victory.defender_vp,
                        o.victory.arithmetic,
                        setup.attacker.roster.name,
                        o.attacker_points_lost,
                        setup.defender.roster.name,
                        o.defender_points_lost
                    ));
                }
                Err(problems) => page.problems = problems.into_iter().map(|p| p.message).collect(),
            }
            return render(&page);
        }
        Ok(r) => r,
        Err(problems) => {
            return render_with_status(
                &record_page(&state, ctx, row, &fields, problems)?,
                StatusCode::UNPROCESSABLE_ENTITY,
            )
        }
    };
    let outcome =
        match records::record_result(&state.app, &user.actor(), &row, version, report).await {
            // Changed elsewhere since the form was loaded: show it again with what was typed.
            Err(app::Error::Conflict(message)) => {
                let row = records::load_for(&state.app, &user.actor(), row.id).await?;
                if row.status != RecordStatus::SetUp.id() {
                    return Ok(redirect(&format!("/battles/{}", row.id)));
                }
                return render_with_status(
                    &record_page(&state, ctx, row, &fields, vec![message])?,
                    StatusCode::CONFLICT,
                );
            }
            other => other?,
        };
    match outcome {
        Ok(saved) => Ok(redirect(&format!("/battles/{}", saved.id))),
        Err(problems) => {
            let problems = problems.into_iter().map(|p| p.message).collect();
            render_with_status(
                &record_page(&state, ctx, row, &fields, problems)?,
                StatusCode::UNPROCESSABLE_ENTITY,
            )
        }
    }
}

/// The home page's "needs my attention": results waiting for my confirmation, and disputes.
pub async fn attention(
    state: &web::Data<AppState>,
    user: &SignedInUser,
) -> Result<Vec<BattleLine>, AppError> {
    let uid = user.id;
    let rows = records::list(&state.app, &user.actor()).await?;
    let waiting: Vec<BattleRow> = rows
        .into_iter()
        .filter(|r| side_of(r, uid).is_some())
        .filter(|r| {
            (r.status == RecordStatus::Provisional.id() && r.recorded_by != Some(uid))
                || r.status == RecordStatus::Disputed.id()
        })
        .collect();
    Ok(lines(&waiting))
}

// ---------- printing a side as it stood in the battle ----------

pub async fn print_side(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    path: web::Path<(i64, String, String)>,
    query: web::Query<crate::web::systems::lotf::print::PrintQuery>,
) -> Result<HttpResponse, AppError> {
    let (id, side, kind) = path.into_inner();
    let row = records::load_for(&state.app, &user.actor(), id).await?;
    let setup = setup_of(&row)?;
    let force = match side.as_str() {
        "attacker" => &setup.attacker,
        "defender" => &setup.defender,
        _ => return Err(AppError::NotFound),
    };
    let cat = &state.app.rules.lotf;
    let mut fs = crate::web::systems::lotf::print::ForceState {
        label: Some(format!("battle {}: {}", row.id, row.title)),
        ..Default::default()
    };
    for (cid, c) in &force.commanders {
        if let Some(state) =
            crate::web::systems::lotf::print::CommanderState::rolled(cat, c.rating_roll, vec![])
        {
            fs.commanders.insert(cid.clone(), state);
        }
    }
    let action = format!("/battles/{id}/print/{side}/{kind}");
    crate::web::pages::print::print_force(
        &state,
        ctx,
        &force.roster,
        Some(&fs),
        &kind,
        &query,
        action,
    )
}
