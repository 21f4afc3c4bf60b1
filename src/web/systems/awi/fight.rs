//! The AWI wargames rules' "Fight" page, `/awi/fight`: pick two orders of battle (your own or
//! the example forces), read the narrated battle move by move, replay it from its seed or its
//! set-up file, or fight it many times for the odds as a background job (progress, a Stop
//! button, Wilson 95 % intervals). Over the API: `POST /api/v1/awi/simulate` and
//! `POST /api/v1/awi/simulate/odds`. The battle is the rules core's (`rules::systems::awi::sim`,
//! the move sequence of W-1 and Muster's ending and result, W-31, W-32); the jobs and the
//! report's shell are the generic ones (`app::jobs`, `app::odds`, `web::systems::fight_report`).

use actix_web::{post, web, HttpResponse};
use askama::Template;
use serde::Serialize;
use serde_json::Value;

use crate::app::jobs::{self, JobStatus};
use crate::app::odds::OddsParams;
use crate::app::work::Caller;
use crate::rules::system::{BattleSide, RuleSystem};
use crate::rules::systems::awi::battle::Ending;
use crate::rules::systems::awi::montecarlo::OddsSummary;
use crate::rules::systems::awi::record::prepare;
use crate::rules::systems::awi::system::example_force;
use crate::rules::systems::awi::{sim, Awi, BattleSetup, Catalogue, Outcome, RosterDoc};
use crate::rules::SystemId;
use crate::web::auth::csrf::CsrfForm;
use crate::web::auth::{ApiUser, SignedIn, SignedInUser};
use crate::web::error::ErrorBody;
use crate::web::page::{redirect, render, render_with_status, PageCtx, SelectOption};
use crate::web::state::AppState;
use crate::web::systems::fight_report::{side_named_in, Legend, Line, SummaryPart, TurnLog};
use crate::web::systems::simulate::{self as shared, FightForm};
use crate::web::systems::{fight_form_problem, running_job, RunningJob};
use crate::web::AppError;

use super::battles::{arithmetic, end_words, headline};

/// Path prefixes whose next segment is a job's id (a capability), logged without it.
pub const SECRET_PREFIXES: &[&str] = &["/awi/fight/jobs/"];

/// Odds of up to this many battles are answered at once over the API; more (up to
/// `app::odds::RUNS_MAX`) run as a job.
pub const DIRECT_RUNS_MAX: u32 = 2_000;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/awi/fight").get(index))
        .service(
            web::resource("/awi/fight/battle")
                .get(battle)
                .post(battle_post),
        )
        .service(web::resource("/awi/fight/setup.json").get(setup_file))
        .service(web::resource("/awi/fight/odds").post(start_odds))
        .service(web::resource("/awi/fight/jobs/{id}").get(job_page))
        .service(web::resource("/awi/fight/jobs/{id}/cancel").post(cancel_job));
}

pub fn configure_api(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    cfg.service(simulate).service(simulate_odds);
}

fn bad(message: impl Into<String>) -> AppError {
    AppError::bad_request(message.into())
}

fn invalid(message: impl Into<String>) -> AppError {
    AppError::Validation {
        message: message.into(),
        details: vec![],
    }
}

/// The player's AWI orders of battle (`r:<id>`), then the example forces (`x:<reference>`).
async fn force_choices(
    state: &web::Data<AppState>,
    user: &SignedInUser,
) -> Result<Vec<SelectOption>, AppError> {
    let mut out = shared::own_force_choices(state, user, SystemId::Awi).await?;
    out.extend(
        crate::rules::systems::awi::system::example_forces()
            .into_iter()
            .filter(|(reference, _)| !reference.ends_with(":empty"))
            .map(|(reference, name)| SelectOption {
                value: format!("x:{reference}"),
                label: format!("{name} (example)"),
            }),
    );
    Ok(out)
}

/// A force the player may fight with: one of their own orders of battle, or an example force.
async fn load_force(
    state: &web::Data<AppState>,
    user: &SignedInUser,
    value: &str,
) -> Result<RosterDoc, AppError> {
    match value.split_once(':') {
        Some(("r", id)) => shared::load_own_force(state, user, id).await,
        Some(("x", reference)) => {
            example_force(reference).ok_or_else(|| bad("Choose a force from the list."))
        }
        _ => Err(bad("Choose a force for each side.")),
    }
}

/// A set-up from two orders of battle: the brigadiers' abilities (W-4) and the roll-off (W-1)
/// from `seed`, and the battle's own dice from the same seed, so the seed alone replays it.
fn set_up(cat: &Catalogue, a: RosterDoc, d: RosterDoc, seed: u64) -> Result<BattleSetup, String> {
    Ok(prepare(cat, a, d, None, false, seed)?.setup)
}

async fn build_setup(
    state: &web::Data<AppState>,
    user: &SignedInUser,
    form: &FightForm,
) -> Result<BattleSetup, AppError> {
    let seed = form.seed()?;
    let a = load_force(state, user, &form.attacker).await?;
    let d = load_force(state, user, &form.defender).await?;
    set_up(&state.app.rules.awi, a, d, seed).map_err(bad)
}

#[derive(Template)]
#[template(path = "systems/awi/fight/index.html")]
struct FightPage {
    ctx: PageCtx,
    forces: Vec<SelectOption>,
    f: FightForm,
    error: Option<String>,
    running: Option<RunningJob>,
}

/// The form back as it was filled in, with what to put right.
async fn or_form_again(
    state: &web::Data<AppState>,
    user: &SignedInUser,
    ctx: PageCtx,
    f: FightForm,
    e: AppError,
) -> Result<HttpResponse, AppError> {
    let (message, status, running) = fight_form_problem(state, user, e).await?;
    let forces = force_choices(state, user).await?;
    let page = FightPage {
        ctx,
        forces,
        f,
        error: Some(message),
        running,
    };
    render_with_status(&page, status)
}

pub async fn index(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    form: web::Query<FightForm>,
) -> Result<HttpResponse, AppError> {
    let forces = force_choices(&state, &user).await?;
    let mut f = form.into_inner();
    if f.attacker.is_empty() && f.defender.is_empty() {
        // The two example forces face each other unless the player picks otherwise.
        let examples: Vec<&SelectOption> = forces
            .iter()
            .filter(|o| o.value.starts_with("x:"))
            .collect();
        f.attacker = examples
            .first()
            .map(|o| o.value.clone())
            .unwrap_or_default();
        f.defender = examples.get(1).map(|o| o.value.clone()).unwrap_or_default();
    }
    let running = running_job(&state, &user).await?;
    render(&FightPage {
        ctx,
        forces,
        f,
        error: None,
        running,
    })
}

/// The narration grouped by turn: a turn is two moves (W-1), and each move's narration starts
/// with the line "— Move n: …". Each turn's summary says how many units each side had lost.
pub fn turn_log(o: &Outcome, setup: &BattleSetup) -> TurnLog {
    let name = |n: &str, fallback: &str| {
        if n.trim().is_empty() {
            fallback.to_string()
        } else {
            n.to_string()
        }
    };
    let legend = Legend {
        attacker: name(&setup.attacker.roster.name, "The first force"),
        defender: name(&setup.defender.roster.name, "The second force"),
    };
    let mut turn = 0;
    let lines: Vec<(u32, Line)> = o
        .log
        .iter()
        .map(|text| {
            if let Some(rest) = text.strip_prefix("— Move ") {
                let number: u32 = rest
                    .split(|c: char| !c.is_ascii_digit())
                    .next()
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(1);
                turn = number.div_ceil(2);
            }
            (
                turn,
                Line {
                    side: side_named_in(text),
                    text: text.clone(),
                },
            )
        })
        .collect();
    let mut log = TurnLog::group(legend, o.moves.div_ceil(2), lines);
    for t in log.turns.iter_mut() {
        let moves = t
            .lines
            .iter()
            .filter(|l| l.text.starts_with("— Move "))
            .count();
        t.summary = vec![SummaryPart {
            side: None,
            text: format!(
                "{moves} move{}, {} event{} told",
                if moves == 1 { "" } else { "s" },
                t.lines.len().saturating_sub(moves),
                if t.lines.len().saturating_sub(moves) == 1 {
                    ""
                } else {
                    "s"
                }
            ),
        }];
    }
    log
}

pub struct UnitLine {
    pub name: String,
    pub end: String,
}

pub struct SideView {
    pub role: &'static str,
    pub side: &'static str,
    pub name: String,
    pub units: Vec<UnitLine>,
    pub generals_killed: String,
    pub broke: bool,
}

fn side_view(o: &Outcome, side: BattleSide) -> SideView {
    let (s, role, id) = match side {
        BattleSide::Attacker => (&o.attacker, "First force", "attacker"),
        BattleSide::Defender => (&o.defender, "Second force", "defender"),
    };
    SideView {
        role,
        side: id,
        name: s.name.clone(),
        units: s
            .units
            .iter()
            .map(|u| UnitLine {
                name: u.name.clone(),
                end: end_words(u),
            })
            .collect(),
        generals_killed: s.generals_killed.join(", "),
        broke: s.broke,
    }
}

#[derive(Template)]
#[template(path = "systems/awi/fight/report.html")]
struct ReportPage {
    ctx: PageCtx,
    title: String,
    headline: String,
    ending: String,
    arithmetic: Vec<String>,
    moves: u32,
    seed: u64,
    sides: Vec<SideView>,
    log: TurnLog,
    replay_query: String,
}

fn ending_words(o: &Outcome) -> String {
    match o.ending {
        Ending::ArmyBreak => format!(
            "An army broke after {} moves (Muster's rule W-31).",
            o.moves
        ),
        _ => format!(
            "Neither army broke: the battle ended after its {} moves (Muster's game length, W-32).",
            o.moves
        ),
    }
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
            sim::fight(&rules.awi, &fought)
        })
        .await?
        .map_err(bad)?;
    let log = turn_log(&outcome, &setup);
    render(&ReportPage {
        ctx,
        title: format!("{} against {}", log.legend.attacker, log.legend.defender),
        headline: headline(&setup, &outcome),
        ending: ending_words(&outcome),
        arithmetic: arithmetic(&outcome),
        moves: outcome.moves,
        seed: setup.seed,
        sides: vec![
            side_view(&outcome, BattleSide::Attacker),
            side_view(&outcome, BattleSide::Defender),
        ],
        log,
        replay_query: form.query(setup.seed),
    })
}

/// The form posts (it carries the CSRF token, which must stay out of addresses); the battle is
/// shown at a plain address with its seed, to bookmark and replay.
pub async fn battle_post(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    CsrfForm(form): CsrfForm<FightForm>,
) -> Result<HttpResponse, AppError> {
    match form.seed() {
        Ok(seed) => Ok(redirect(&format!("/awi/fight/battle?{}", form.query(seed)))),
        Err(e) => or_form_again(&state, &user, ctx, form, e).await,
    }
}

/// The set-up as a file, for `muster simulate --system awi --setup` and the API.
pub async fn setup_file(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    form: web::Query<FightForm>,
) -> Result<HttpResponse, AppError> {
    let setup = build_setup(&state, &user, &form).await?;
    Ok(shared::setup_download(
        "awi",
        setup.seed,
        Awi::write_setup(&setup),
    ))
}

/// Units on both sides, for the cost estimate.
fn size(setup: &BattleSetup) -> u64 {
    [&setup.attacker.roster, &setup.defender.roster]
        .iter()
        .flat_map(|r| r.brigades.iter())
        .map(|b| b.units.len() as u64)
        .sum()
}

fn title_of(setup: &BattleSetup) -> String {
    format!(
        "{} against {}",
        setup.attacker.roster.name, setup.defender.roster.name
    )
}

pub async fn start_odds(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    CsrfForm(form): CsrfForm<FightForm>,
) -> Result<HttpResponse, AppError> {
    let queued = match build_setup(&state, &user, &form).await {
        Ok(setup) => queue_odds(&state, user.id, &setup, form.runs()).await,
        Err(e) => Err(e),
    };
    match queued {
        Ok(job) => Ok(redirect(&format!("/awi/fight/jobs/{}", job.id))),
        Err(e) => or_form_again(&state, &user, ctx, form, e).await,
    }
}

/// What an odds job of `runs` battles of `setup` needs, to be redone anywhere.
fn params(setup: &BattleSetup, runs: u32) -> OddsParams {
    OddsParams {
        system: SystemId::Awi.id().to_string(),
        setup: Awi::write_setup(setup),
        runs,
    }
}

/// Queues the odds of `runs` battles of `setup` as a background job.
async fn queue_odds(
    state: &AppState,
    owner: i64,
    setup: &BattleSetup,
    runs: u32,
) -> Result<JobStatus, AppError> {
    Ok(jobs::queue_odds(&state.app, owner, title_of(setup), params(setup, runs)).await?)
}

/// Stops a background job of the player's and shows its page again.
pub async fn cancel_job(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    id: web::Path<String>,
    CsrfForm(_): CsrfForm<crate::web::auth::csrf::NoFields>,
) -> Result<HttpResponse, AppError> {
    shared::cancel_job(&state, &user, &id, "/awi/fight").await
}

pub struct OddsView {
    pub runs: u64,
    /// Result, share, 95 % interval.
    pub rows: Vec<(String, String, String)>,
    pub averages: String,
    pub most_lost: Vec<String>,
}

fn odds_view(s: &OddsSummary, a: &str, d: &str) -> OddsView {
    let pct = |p: f64| format!("{:.1} %", p * 100.0);
    OddsView {
        runs: s.runs,
        rows: shared::estimate_rows(&[
            (format!("{a} wins"), &s.attacker_win),
            ("Draw".into(), &s.draw),
            (format!("{d} wins"), &s.defender_win),
        ]),
        averages: format!(
            "Average points: {a} {:.1}, {d} {:.1}. Battles last {:.1} moves on average; {} end with an army broken (W-31).",
            s.avg_attacker_vp,
            s.avg_defender_vp,
            s.avg_moves,
            pct(s.ended_by_army_break)
        ),
        most_lost: s
            .most_often_lost
            .iter()
            .map(|l| {
                let side = if l.side == BattleSide::Attacker { a } else { d };
                format!(
                    "{} ({side}): routing, gone or destroyed at the end of {:.0} % of battles",
                    l.name,
                    l.p_lost * 100.0
                )
            })
            .collect(),
    }
}

#[derive(Template)]
#[template(path = "systems/awi/fight/odds.html")]
struct JobPage {
    ctx: PageCtx,
    job: JobStatus,
    summary: Option<OddsView>,
}

pub async fn job_page(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    let job = jobs::status(&state.app, &id, user.id).await?;
    let (a, d) = job.title.split_once(" against ").unwrap_or_default();
    let summary = job
        .result
        .clone()
        .and_then(|v| serde_json::from_value::<OddsSummary>(v).ok())
        .map(|s| odds_view(&s, a, d));
    render(&JobPage { ctx, job, summary })
}

// ----- API -----

/// A set-up document, or two orders of battle and a seed.
fn read_setup(cat: &Catalogue, body: &Value) -> Result<BattleSetup, AppError> {
    if body.get("format").is_some() {
        let text = serde_json::to_string(body).map_err(|e| invalid(e.to_string()))?;
        return Awi::parse_setup(&text).map_err(invalid);
    }
    let force = |key: &str| -> Result<RosterDoc, AppError> {
        let v = body.get(key).ok_or_else(|| {
            invalid(format!(
                "Give the {key}'s order of battle or a set-up document."
            ))
        })?;
        Awi::parse_roster(&v.to_string()).map_err(|e| invalid(format!("{key}: {e}")))
    };
    let seed = body
        .get("seed")
        .and_then(Value::as_u64)
        .unwrap_or_else(crate::app::dice::fresh_seed);
    set_up(cat, force("attacker")?, force("defender")?, seed).map_err(invalid)
}

#[derive(Serialize)]
struct SimulateResponse {
    /// The set-up that was fought; post it again to replay the battle exactly.
    setup: BattleSetup,
    outcome: Outcome,
}

/// Fight an AWI battle
///
/// Fights one battle: a `muster.awi.battle/1` set-up document, or the short form
/// `{"attacker": order of battle, "defender": order of battle, "seed"}` (without a seed one is
/// drawn). Returns the set-up and the outcome (`muster.awi.result/1`) with its narrated log
/// (`"narrate": false` leaves the log out). The same set-up always gives the same battle.
/// Logged-in users only.
#[utoipa::path(tag = "awi-wargames-rules", security(("bearer" = [])), request_body(content = Object, description = "A set-up document or the short form"), responses(
    (status = 200, description = "The set-up and the outcome", body = crate::web::systems::lotf::api::SimulatedBattleSchema),
    (status = 401, description = "Not logged in", body = ErrorBody),
    (status = 429, description = "Too much work is waiting; try again after Retry-After seconds", body = ErrorBody),
    (status = 422, description = "Not a battle Muster can fight", body = ErrorBody)
))]
#[post("/simulate")]
pub async fn simulate(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    body: web::Json<Value>,
) -> Result<HttpResponse, AppError> {
    let body = body.into_inner();
    let setup = read_setup(&state.app.rules.awi, &body)?;
    let narrate = body.get("narrate").and_then(Value::as_bool).unwrap_or(true);
    let rules = state.app.rules.clone();
    let fought = setup.clone();
    let outcome = state
        .app
        .work
        .run(&Caller::User(user.id), move |_| {
            sim::fight_with(&rules.awi, &fought, &sim::Standard, narrate)
        })
        .await?
        .map_err(invalid)?;
    Ok(HttpResponse::Ok().json(SimulateResponse { setup, outcome }))
}

/// AWI battle odds
///
/// Fights the same set-up `runs` times (battle i with a seed derived from the set-up's seed and
/// i) and reports each side's wins and the draws with Wilson 95 % intervals, the result levels,
/// average points and moves, how often an army broke, and the units most often lost. Up to
/// 2 000 runs are answered at once; up to 100 000 run as a background job (202 with a
/// `status_url` to poll), one per user at a time.
#[utoipa::path(tag = "awi-wargames-rules", security(("bearer" = [])), request_body(content = Object, description = "A set-up or the short form, plus `runs`"), responses(
    (status = 200, description = "The odds", body = Object),
    (status = 202, description = "Started as a background job", body = Object),
    (status = 401, description = "Not logged in", body = ErrorBody),
    (status = 429, description = "Too much work is waiting; try again after Retry-After seconds", body = ErrorBody),
    (status = 409, description = "A job of yours is still running", body = ErrorBody),
    (status = 422, description = "Not a valid request", body = ErrorBody)
))]
#[post("/simulate/odds")]
pub async fn simulate_odds(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    body: web::Json<Value>,
) -> Result<HttpResponse, AppError> {
    let body = body.into_inner();
    let setup = read_setup(&state.app.rules.awi, &body)?;
    let runs = shared::api_runs(&body)?;
    let (title, size) = (title_of(&setup), size(&setup));
    shared::odds_answer(
        &state,
        user.id,
        title,
        params(&setup, runs),
        size,
        DIRECT_RUNS_MAX,
    )
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_is_grouped_two_moves_a_turn() {
        let cat = Catalogue::builtin().expect("catalogue");
        let a = example_force("example:british").expect("british");
        let d = example_force("example:continental").expect("continental");
        let setup = set_up(&cat, a, d, 7).expect("set up");
        let o = sim::fight(&cat, &setup).expect("fought");
        let log = turn_log(&o, &setup);
        assert_eq!(log.turns.len() as u32, o.moves.div_ceil(2));
        assert!(log.before[0].text.contains("seed 7"));
        let first = &log.turns[0].lines;
        assert!(first[0].text.starts_with("— Move 1"));
        assert!(first.iter().any(|l| l.text.starts_with("— Move 2")));
    }
}
