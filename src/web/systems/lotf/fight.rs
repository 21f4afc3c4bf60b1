//! "Fight it out": pick two forces (your rosters or a side of a historical order of battle), a
//! scenario and a seed, and read the battle report; or ask for the odds over many battles and
//! watch the progress.

use actix_web::http::header;
use actix_web::{web, HttpResponse};
use askama::Template;
use serde::Deserialize;

use crate::app::jobs::{self, JobStatus};
use crate::app::odds;
use crate::app::rosters as roster_store;
use crate::app::work::{self, Caller};
use std::collections::HashMap;

use crate::rules::systems::lotf::sim::{CommanderFinal, ElementFinal};
use crate::rules::systems::lotf::{
    self, BattleOutcome, BattleSetup, DisciplineLevel, OddsSummary, RosterDoc, ScenarioId, Side,
};
use crate::web::auth::csrf::CsrfForm;
use crate::web::auth::{SignedIn, SignedInUser};
use crate::web::page::{redirect, render, render_with_status, PageCtx};
use crate::web::pages::odds::{chart, Chart};
use crate::web::state::AppState;
use crate::web::systems::fight_report::{
    change_words, side_chart, side_named_in, side_of_key, Diagram, Legend, Line, SideChart,
    SummaryPart, TurnLog, ATTACKER, DEFENDER,
};
use crate::web::systems::lotf::battle_request::{self as battles, DIRECT_RUNS_MAX, RUNS_MAX};
use crate::web::systems::lotf::historical;
use crate::web::systems::{fight_form_problem, running_job, RunningJob};
use crate::web::AppError;

use crate::web::page::SelectOption;

pub async fn force_choices(
    state: &web::Data<AppState>,
    user: &SignedInUser,
) -> Result<(Vec<SelectOption>, Vec<SelectOption>), AppError> {
    let rows = roster_store::list(&state.app, &user.actor(), None).await?;
    let mine = rows
        .iter()
        .filter(|r| r.rule_system == crate::rules::SystemId::Lotf.id())
        .map(|r| SelectOption {
            value: format!("r:{}", r.id),
            label: format!("{} ({} pts)", r.name, r.points),
        })
        .collect();
    // Historical forces are told apart from rosters by an `h:` prefix.
    let historical = historical::force_choices()
        .into_iter()
        .map(|c| SelectOption {
            value: format!("h:{}", c.value),
            label: c.label,
        })
        .collect();
    Ok((mine, historical))
}

/// A force named by a choice value: one of the user's rosters or a historical force.
async fn load_force(
    state: &web::Data<AppState>,
    user: &SignedInUser,
    value: &str,
) -> Result<RosterDoc, AppError> {
    let mut parts = value.split(':');
    match parts.next() {
        Some("r") => {
            let id: i64 = parts
                .next()
                .and_then(|v| v.parse().ok())
                .ok_or(AppError::NotFound)?;
            Ok(roster_store::load_owned(&state.app, &user.actor(), id)
                .await?
                .doc)
        }
        Some("h") => historical::force(value.trim_start_matches("h:"))
            .ok_or_else(|| AppError::bad_request("Choose a force from the list.")),
        _ => Err(AppError::bad_request("Choose a force for each side.")),
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct FightForm {
    pub attacker: String,
    pub defender: String,
    pub scenario: String,
    pub seed: String,
    pub runs: String,
}

impl FightForm {
    fn query(&self, seed: u64) -> String {
        let enc = |s: &str| -> String {
            serde_urlencoded::to_string([("v", s)])
                .unwrap_or_default()
                .trim_start_matches("v=")
                .to_string()
        };
        format!(
            "attacker={}&defender={}&scenario={}&seed={seed}",
            enc(&self.attacker),
            enc(&self.defender),
            enc(&self.scenario)
        )
    }
}

/// The seed a form asks for: empty for fresh dice.
fn seed_of(form: &FightForm) -> Result<u64, AppError> {
    match form.seed.trim() {
        "" => Ok(battles::fresh_seed()),
        s => s.parse().map_err(|_| {
            AppError::bad_request("The seed is a whole number from 0 up (or leave it empty).")
        }),
    }
}

async fn build_setup(
    state: &web::Data<AppState>,
    user: &SignedInUser,
    form: &FightForm,
) -> Result<BattleSetup, AppError> {
    let scenario = ScenarioId::from_id(if form.scenario.is_empty() {
        "take_the_field"
    } else {
        &form.scenario
    })
    .ok_or_else(|| AppError::bad_request("Choose a scenario from the list."))?;
    let seed = seed_of(form)?;
    let attacker = load_force(state, user, &form.attacker).await?;
    let defender = load_force(state, user, &form.defender).await?;
    let setup = BattleSetup::new(attacker, defender, scenario, seed);
    setup
        .check()
        .map_err(|e| AppError::bad_request(e.to_string()))?;
    Ok(setup)
}

/// The form back as it was filled in, with what to put right (see `fight_form_problem`).
async fn or_form_again(
    state: &web::Data<AppState>,
    user: &SignedInUser,
    ctx: PageCtx,
    f: FightForm,
    e: AppError,
) -> Result<HttpResponse, AppError> {
    let (message, status, running) = fight_form_problem(state, user, e).await?;
    let (mine, historical) = force_choices(state, user).await?;
    render_with_status(
        &FightPage {
            ctx,
            mine,
            historical,
            scenarios: scenarios(),
            f,
            error: Some(message),
            running,
        },
        status,
    )
}

pub fn scenarios() -> Vec<SelectOption> {
    ScenarioId::ALL
        .iter()
        .map(|s| {
            let label = s.id().replace('_', " ");
            let mut chars = label.chars();
            let label = chars
                .next()
                .map(|c| c.to_uppercase().collect::<String>() + chars.as_str())
                .unwrap_or_default();
            SelectOption {
                value: s.id().to_string(),
                label,
            }
        })
        .collect()
}

#[derive(Template)]
#[template(path = "systems/lotf/fight/index.html")]
struct FightPage {
    ctx: PageCtx,
    mine: Vec<SelectOption>,
    historical: Vec<SelectOption>,
    scenarios: Vec<SelectOption>,
    f: FightForm,
    error: Option<String>,
    /// The player's simulation still waiting or running.
    running: Option<RunningJob>,
}

pub async fn index(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    form: web::Query<FightForm>,
) -> Result<HttpResponse, AppError> {
    let (mine, historical) = force_choices(&state, &user).await?;
    let mut f = form.into_inner();
    if f.attacker.is_empty() && f.defender.is_empty() {
        // Two different forces to start from: the first two rosters, or a roster against the
        // first historical force, or the two sides of the first refight (issue 18).
        let mut choices = mine.iter().chain(historical.iter());
        f.attacker = choices.next().map(|c| c.value.clone()).unwrap_or_default();
        f.defender = choices.next().map(|c| c.value.clone()).unwrap_or_default();
    }
    render(&FightPage {
        ctx,
        mine,
        historical,
        scenarios: scenarios(),
        f,
        error: None,
        running: running_job(&state, &user).await?,
    })
}

pub struct Casualty {
    pub name: String,
    pub group: String,
    pub points: u32,
    pub state: String,
}

#[derive(Template)]
#[template(path = "systems/lotf/fight/report.html")]
struct ReportPage {
    ctx: PageCtx,
    attacker: String,
    defender: String,
    scenario: String,
    headline: String,
    outcome: BattleOutcome,
    /// The victory arithmetic as a sentence of its own.
    arithmetic: String,
    attacker_losses: Vec<Casualty>,
    defender_losses: Vec<Casualty>,
    fallen: Vec<String>,
    log: TurnLog,
    chart: SideChart,
    replay_query: String,
}

pub fn casualties_of(outcome: &BattleOutcome, side: Side) -> Vec<Casualty> {
    outcome
        .elements
        .iter()
        .filter(|e| e.side == side)
        .map(|e| Casualty {
            name: e.name.clone(),
            group: group_name(&e.group),
            points: e.points,
            state: if e.removed {
                "removed".to_string()
            } else if e.left_the_field {
                "left the field".to_string()
            } else if e.never_arrived {
                "never arrived".to_string()
            } else {
                e.discipline_level.label().to_string()
            },
        })
        .collect()
}

/// "Crown wins a major victory (6:2)" and the like.
pub fn headline(outcome: &BattleOutcome, a: &str, d: &str) -> String {
    let level = match outcome.victory_level.id() {
        "major" => "major victory",
        "minor" => "minor victory",
        "marginal" => "marginal victory",
        other => other,
    };
    match outcome.winner {
        Some(Side::Attacker) => format!(
            "{a} wins a {level} ({}:{})",
            outcome.attacker_vp, outcome.defender_vp
        ),
        Some(Side::Defender) => format!(
            "{d} wins a {level} ({}:{})",
            outcome.defender_vp, outcome.attacker_vp
        ),
        None => format!("A tie ({}:{})", outcome.attacker_vp, outcome.defender_vp),
    }
}

/// A group's name as Muster writes it: the engine calls a group left unnamed "group 2" (its
/// narration says it mid-sentence), the rest of Muster "Group 2"; a name the player gave is
/// kept as written.
pub fn group_name(name: &str) -> String {
    match name.strip_prefix("group ") {
        Some(n) if !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()) => format!("Group {n}"),
        _ => name.to_string(),
    }
}

/// The names the engine gives the groups left unnamed in `setup`, with Muster's spelling.
fn unnamed_groups(setup: &BattleSetup) -> Vec<(String, String)> {
    let mut names: Vec<(String, String)> = [&setup.attacker, &setup.defender]
        .into_iter()
        .flat_map(|force| force.roster.groups.iter().enumerate())
        .filter(|(_, g)| g.name.is_empty())
        .map(|(i, _)| (format!("group {}", i + 1), format!("Group {}", i + 1)))
        .collect();
    names.sort();
    names.dedup();
    names
}

/// A line of the engine's narration with its unnamed groups spelt as Muster spells them. Only
/// the engine's own names of unnamed groups change, whole words only ("group 1" never touches
/// "group 12"); the narration stored in the outcome stays as the engine wrote it.
fn with_group_capitals(text: &str, groups: &[(String, String)]) -> String {
    let mut text = text.to_string();
    for (engine, ours) in groups {
        let mut out = String::with_capacity(text.len());
        let mut rest = text.as_str();
        while let Some(i) = rest.find(engine.as_str()) {
            let after = &rest[i + engine.len()..];
            let word_starts = rest[..i]
                .chars()
                .last()
                .is_none_or(|c| !c.is_alphanumeric());
            let word_ends = after.chars().next().is_none_or(|c| !c.is_ascii_digit());
            out.push_str(&rest[..i]);
            out.push_str(if word_starts && word_ends {
                ours
            } else {
                engine
            });
            rest = after;
        }
        out.push_str(rest);
        text = out;
    }
    text
}

fn name_or(name: &str, fallback: &str) -> String {
    if name.trim().is_empty() {
        fallback.to_string()
    } else {
        name.to_string()
    }
}

/// The two forces' names for the legend and the summaries.
pub fn legend(setup: &BattleSetup) -> Legend {
    Legend {
        attacker: name_or(&setup.attacker.roster.name, "The attacker"),
        defender: name_or(&setup.defender.roster.name, "The defender"),
    }
}

/// Points each side had lost by the end of each turn, as a chart in the sides' colours.
pub fn points_chart(outcome: &BattleOutcome, legend: &Legend) -> SideChart {
    let totals: Vec<(u32, u32, u32)> = outcome
        .turns
        .iter()
        .map(|t| (t.turn, t.attacker_lost, t.defender_lost))
        .collect();
    side_chart(
        "Points counted as lost at the end of each turn (a Shaken or Exhausted element counts until it rallies)",
        "points lost",
        legend,
        &totals,
    )
}

/// The narration by turn: each turn with the points each side lost in it and, when the
/// outcome kept them, where the elements stood at its end.
pub fn turn_log(outcome: &BattleOutcome, setup: &BattleSetup) -> TurnLog {
    let groups = unnamed_groups(setup);
    let lines = outcome.log.iter().map(|l| {
        (
            l.turn,
            Line {
                side: l
                    .element
                    .as_deref()
                    .and_then(side_of_key)
                    .or_else(|| side_named_in(&l.text)),
                text: with_group_capitals(&l.text, &groups),
            },
        )
    });
    let mut log = TurnLog::group(legend(setup), outcome.turns_played, lines);
    let lost_by = |turn: u32| {
        if turn == 0 {
            return Some((0, 0));
        }
        outcome
            .turns
            .iter()
            .find(|t| t.turn == turn)
            .map(|t| (t.attacker_lost, t.defender_lost))
    };
    let elements: HashMap<String, &ElementFinal> = outcome
        .elements
        .iter()
        .map(|e| (format!("{}:{}", e.side.id(), e.id), e))
        .collect();
    let legend = &log.legend;
    for t in log.turns.iter_mut() {
        t.summary = match (lost_by(t.turn - 1), lost_by(t.turn)) {
            (Some(before), Some(after)) => vec![
                SummaryPart {
                    side: Some(ATTACKER),
                    text: format!(
                        "{} {}",
                        legend.attacker,
                        change_words(before.0, after.0, ("point", "points"), "so far")
                    ),
                },
                SummaryPart {
                    side: Some(DEFENDER),
                    text: format!(
                        "{} {}",
                        legend.defender,
                        change_words(before.1, after.1, ("point", "points"), "so far")
                    ),
                },
            ],
            // A force that concedes at the start of a turn ends the battle before it is fought.
            _ => vec![SummaryPart {
                side: None,
                text: "The battle ends before this turn is fought.".into(),
            }],
        };
        t.diagram = outcome
            .positions
            .iter()
            .find(|p| p.turn == t.turn)
            .map(|p| {
                let markers = p
                    .elements
                    .iter()
                    .filter_map(|e| {
                        let side = side_of_key(&e.element)?;
                        let name = elements
                            .get(&e.element)
                            .map_or(e.element.as_str(), |f| f.name.as_str());
                        Some(Diagram::marker(
                            side,
                            e.x,
                            e.y,
                            e.facing > 0,
                            e.discipline_level != DisciplineLevel::Fit,
                            format!("{name}: {}", e.discipline_level.label()),
                        ))
                    })
                    .collect();
                Diagram::new(markers, false, legend, "Shaken or Exhausted")
            });
    }
    log
}

/// A fallen commander's line: "Colonel Tarleton (Group 2, Poor) fell in turn 3".
fn fallen_line(c: &CommanderFinal) -> String {
    let post = if c.role == "force" {
        "Force Commander".to_string()
    } else {
        group_name(&c.role)
    };
    format!(
        "{} ({post}, {}){}",
        c.name,
        c.rating,
        c.killed_turn
            .map(|t| format!(" fell in turn {t}"))
            .unwrap_or_default()
    )
}

pub async fn battle(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    form: web::Query<FightForm>,
) -> Result<HttpResponse, AppError> {
    let setup = match build_setup(&state, &user, &form).await {
        Ok(setup) => setup,
        Err(e) => return or_form_again(&state, &user, ctx, form.into_inner(), e).await,
    };
    let rules = state.app.rules.clone();
    let fought = setup.clone();
    let outcome = state
        .app
        .work
        .run(&Caller::User(user.id), move |_| {
            lotf::simulate_with_positions(&rules.lotf, &fought)
        })
        .await?
        .map_err(|e| AppError::bad_request(e.to_string()))?;
    let (a, d) = (
        setup.attacker.roster.name.clone(),
        setup.defender.roster.name.clone(),
    );
    let headline = headline(&outcome, &a, &d);
    let log = turn_log(&outcome, &setup);
    let chart = points_chart(&outcome, &log.legend);
    let fallen = outcome
        .commanders
        .iter()
        .filter(|c| c.killed)
        .map(fallen_line)
        .collect();
    render(&ReportPage {
        ctx,
        scenario: state.app.rules.scenario_name(setup.scenario.id()),
        attacker_losses: casualties_of(&outcome, Side::Attacker),
        defender_losses: casualties_of(&outcome, Side::Defender),
        replay_query: form.query(outcome.seed),
        arithmetic: crate::web::page::sentence(&outcome.arithmetic),
        attacker: a,
        defender: d,
        headline,
        fallen,
        log,
        chart,
        outcome,
    })
}

/// The form posts (it carries the CSRF token, which must not end up in a URL); the battle
/// itself is shown at a plain address with a fixed seed, so it can be bookmarked and replayed.
pub async fn battle_post(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    CsrfForm(form): CsrfForm<FightForm>,
) -> Result<HttpResponse, AppError> {
    let seed = match seed_of(&form) {
        Ok(seed) => seed,
        Err(e) => return or_form_again(&state, &user, ctx, form, e).await,
    };
    Ok(redirect(&format!(
        "/lotf/fight/battle?{}",
        form.query(seed)
    )))
}

/// The set-up of a battle as a file, for `muster simulate --setup`.
pub async fn setup_file(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    form: web::Query<FightForm>,
) -> Result<HttpResponse, AppError> {
    let setup = build_setup(&state, &user, &form).await?;
    Ok(HttpResponse::Ok()
        .content_type("application/json")
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"battle-{}.json\"", setup.seed),
        ))
        .body(lotf::serialize_battle(&setup)))
}

#[derive(Template)]
#[template(path = "systems/lotf/fight/odds.html")]
struct OddsResultPage {
    ctx: PageCtx,
    title: String,
    running: bool,
    /// Jobs before this one while it waits for a worker.
    queued_ahead: Option<u32>,
    cancelled: bool,
    done: u32,
    total: u32,
    job_id: String,
    summary: Option<OddsView>,
    error: Option<String>,
}

pub struct OddsView {
    pub rows: Vec<(String, String, String)>,
    pub chart: Chart,
    pub runs: u64,
    pub lost: String,
    pub most_lost: Vec<String>,
}

fn odds_view(s: &OddsSummary, attacker: &str, defender: &str) -> OddsView {
    let pct = |p: f64| format!("{:.1} %", p * 100.0);
    let rows = vec![
        (
            format!("{attacker} wins"),
            pct(s.attacker_win.p),
            format!("{} – {}", pct(s.attacker_win.low), pct(s.attacker_win.high)),
        ),
        (
            "Draw".to_string(),
            pct(s.draw.p),
            format!("{} – {}", pct(s.draw.low), pct(s.draw.high)),
        ),
        (
            format!("{defender} wins"),
            pct(s.defender_win.p),
            format!("{} – {}", pct(s.defender_win.low), pct(s.defender_win.high)),
        ),
    ];
    let chart = chart(
        "Share of battles",
        &[
            ("Attacker".into(), s.attacker_win.p),
            ("Draw".into(), s.draw.p),
            ("Defender".into(), s.defender_win.p),
        ],
    );
    OddsView {
        rows,
        chart,
        runs: s.runs,
        lost: format!(
            "Average points lost: {attacker} {:.1}, {defender} {:.1}",
            s.avg_attacker_points_lost, s.avg_defender_points_lost
        ),
        most_lost: s
            .most_often_lost
            .iter()
            .map(|l| {
                let side = if l.side == Side::Attacker {
                    attacker
                } else {
                    defender
                };
                format!(
                    "{} ({side}): lost in {:.0} % of battles",
                    l.name,
                    l.p_lost * 100.0
                )
            })
            .collect(),
    }
}

pub async fn start_odds(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    CsrfForm(form): CsrfForm<FightForm>,
) -> Result<HttpResponse, AppError> {
    let setup = match build_setup(&state, &user, &form).await {
        Ok(setup) => setup,
        Err(e) => return or_form_again(&state, &user, ctx, form, e).await,
    };
    let runs: u32 = form
        .runs
        .trim()
        .parse()
        .ok()
        .filter(|r| (1..=RUNS_MAX).contains(r))
        .unwrap_or(1000);
    let (a, d) = (
        setup.attacker.roster.name.clone(),
        setup.defender.roster.name.clone(),
    );
    let rules = state.app.rules.clone();
    if runs <= DIRECT_RUNS_MAX && state.app.work.is_direct(battles::size(&setup), runs) {
        let summary = state
            .app
            .work
            .run(&Caller::User(user.id), move |cancel| {
                battles::odds(&rules.lotf, &setup, runs, cancel.flag())
            })
            .await?
            .ok_or_else(work::cancelled)?
            .map_err(AppError::bad_request)?;
        return render(&OddsResultPage {
            ctx,
            title: format!("{a} against {d}"),
            running: false,
            queued_ahead: None,
            cancelled: false,
            done: runs,
            total: runs,
            job_id: String::new(),
            summary: Some(odds_view(&summary, &a, &d)),
            error: None,
        });
    }
    let title = format!("{a} against {d}");
    let job = match queue_odds(&state, user.id, title, &setup, runs).await {
        Ok(job) => job,
        Err(e) => return or_form_again(&state, &user, ctx, form, e).await,
    };
    Ok(redirect(&format!("/lotf/fight/jobs/{}", job.id)))
}

/// Queues the odds of `runs` battles of `setup` as a background job.
pub async fn queue_odds(
    state: &AppState,
    owner: i64,
    title: String,
    setup: &BattleSetup,
    runs: u32,
) -> Result<JobStatus, AppError> {
    let params = odds::OddsParams {
        system: crate::rules::SystemId::Lotf.id().to_string(),
        setup: lotf::serialize_battle(setup),
        runs,
    };
    Ok(jobs::queue_odds(&state.app, owner, title, params).await?)
}

/// Stops a background job of the user's and shows its page again.
pub async fn cancel_job(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    id: web::Path<String>,
    CsrfForm(_): CsrfForm<crate::web::auth::csrf::NoFields>,
) -> Result<HttpResponse, AppError> {
    jobs::cancel(&state.app, &id, user.id).await?;
    Ok(redirect(&format!("/lotf/fight/jobs/{id}")))
}

pub async fn job_page(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    let status = jobs::status(&state.app, &id, user.id).await?;
    let (attacker, defender) = status
        .title
        .split_once(" against ")
        .map(|(a, d)| (a.to_string(), d.to_string()))
        .unwrap_or_default();
    render(&OddsResultPage {
        ctx,
        title: status.title.clone(),
        running: status.is_active(),
        queued_ahead: status.queued_ahead,
        cancelled: status.status == "cancelled",
        done: status.done,
        total: status.total,
        job_id: status.id.clone(),
        summary: status
            .result
            .and_then(|v| serde_json::from_value::<lotf::OddsSummary>(v).ok())
            .map(|s| odds_view(&s, &attacker, &defender)),
        error: status.error.clone(),
    })
}
