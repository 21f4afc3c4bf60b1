//! Liberty or Death! "Fight": pick two armies (your rosters or the example armies) and read the
//! narrated battle, replay it from its seed or its set-up file, or fight it many times for the
//! odds as a background job. Over the API: `POST /api/v1/lod/simulate` and
//! `POST /api/v1/lod/simulate/odds`.

use std::sync::atomic::{AtomicBool, AtomicU32};

use actix_web::http::header;
use actix_web::{post, web, HttpResponse};
use askama::Template;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::app::jobs::{self, JobStatus};
use crate::app::odds as app_odds;
use crate::app::rosters as roster_store;
use crate::app::work::{self, Caller};
use crate::rules::system::{BattleSide, RuleSystem};
use crate::rules::systems::lod::{
    self, battle::Outcome, montecarlo, record::prepare, sim, BattleSetup, Catalogue, EndState, Lod,
    RosterDoc,
};
use crate::rules::systems::RangeRunner;
use crate::rules::SystemId;
use crate::web::auth::csrf::CsrfForm;
use crate::web::auth::{ApiUser, SignedIn, SignedInUser};
use crate::web::error::ErrorBody;
use crate::web::page::{redirect, render, render_with_status, PageCtx, SelectOption};
use crate::web::state::AppState;
use crate::web::systems::fight_report::{
    across_sector, change_words, side_chart, side_id, side_named_in, Diagram, Legend, Line,
    SideChart, SummaryPart, TurnLog, ATTACKER, DEFENDER,
};
use crate::web::systems::{fight_form_problem, running_job, RunningJob};
use crate::web::AppError;

/// Path prefixes whose next segment is a job's id (a capability), logged without it.
pub const SECRET_PREFIXES: &[&str] = &["/lod/fight/jobs/"];

/// Odds of up to this many battles are answered at once over the API; more run as a job.
pub const DIRECT_RUNS_MAX: u32 = 2_000;
pub const RUNS_MAX: u32 = 100_000;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/lod/fight").get(index))
        .service(
            web::resource("/lod/fight/battle")
                .get(battle)
                .post(battle_post),
        )
        .service(web::resource("/lod/fight/setup.json").get(setup_file))
        .service(web::resource("/lod/fight/odds").post(start_odds))
        .service(web::resource("/lod/fight/jobs/{id}").get(job_page))
        .service(web::resource("/lod/fight/jobs/{id}/cancel").post(cancel_job));
}

pub fn configure_api(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    cfg.service(simulate).service(simulate_odds);
}

fn fresh_seed() -> u64 {
    crate::app::dice::fresh_seed()
}

fn bad(message: impl Into<String>) -> AppError {
    AppError::bad_request(message.into())
}

async fn force_choices(
    state: &web::Data<AppState>,
    user: &SignedInUser,
) -> Result<Vec<SelectOption>, AppError> {
    let rows = roster_store::list(&state.app, &user.actor(), None).await?;
    let mut out: Vec<SelectOption> = rows
        .iter()
        .filter(|r| r.rule_system == SystemId::Lod.id())
        .map(|r| SelectOption {
            value: format!("r:{}", r.id),
            label: r.name.clone(),
        })
        .collect();
    // The example armies are told apart from rosters by an `x:` prefix.
    out.extend(
        Lod::starting_rosters(&state.app.rules.lod)
            .into_iter()
            .enumerate()
            .map(|(i, r)| SelectOption {
                value: format!("x:{i}"),
                label: r.name,
            }),
    );
    Ok(out)
}

async fn load_force(
    state: &web::Data<AppState>,
    user: &SignedInUser,
    value: &str,
) -> Result<RosterDoc, AppError> {
    match value.split_once(':') {
        Some(("r", id)) => {
            let id: i64 = id.parse().map_err(|_| AppError::NotFound)?;
            Ok(
                roster_store::load_owned::<RosterDoc>(&state.app, &user.actor(), id)
                    .await?
                    .doc,
            )
        }
        Some(("x", i)) => i
            .parse::<usize>()
            .ok()
            .and_then(|i| {
                Lod::starting_rosters(&state.app.rules.lod)
                    .into_iter()
                    .nth(i)
            })
            .ok_or_else(|| bad("Choose an army from the list.")),
        _ => Err(bad("Choose an army for each side.")),
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct FightForm {
    pub attacker: String,
    pub defender: String,
    pub seed: String,
    pub runs: String,
}

impl FightForm {
    fn query(&self, seed: u64) -> String {
        serde_urlencoded::to_string([
            ("attacker", self.attacker.as_str()),
            ("defender", self.defender.as_str()),
            ("seed", seed.to_string().as_str()),
        ])
        .unwrap_or_default()
    }

    fn seed(&self) -> Result<u64, AppError> {
        match self.seed.trim() {
            "" => Ok(fresh_seed()),
            s => s
                .parse()
                .map_err(|_| bad("The seed is a whole number from 0 up (or leave it empty).")),
        }
    }
}

/// A set-up from two rosters: initiative and Command Points rolled from `seed`, and the
/// battle's own dice from the same seed, so the seed alone replays it.
fn set_up(cat: &Catalogue, a: RosterDoc, d: RosterDoc, seed: u64) -> Result<BattleSetup, String> {
    let mut setup = prepare(cat, a, d, None, false, seed)?.setup;
    setup.seed = seed;
    sim::check(cat, &setup)?;
    Ok(setup)
}

async fn build_setup(
    state: &web::Data<AppState>,
    user: &SignedInUser,
    form: &FightForm,
) -> Result<BattleSetup, AppError> {
    let seed = form.seed()?;
    let a = load_force(state, user, &form.attacker).await?;
    let d = load_force(state, user, &form.defender).await?;
    set_up(&state.app.rules.lod, a, d, seed).map_err(bad)
}

#[derive(Template)]
#[template(path = "systems/lod/fight/index.html")]
struct FightPage {
    ctx: PageCtx,
    forces: Vec<SelectOption>,
    f: FightForm,
    error: Option<String>,
    /// The player's simulation still waiting or running.
    running: Option<RunningJob>,
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
    let forces = force_choices(state, user).await?;
    render_with_status(
        &FightPage {
            ctx,
            forces,
            f,
            error: Some(message),
            running,
        },
        status,
    )
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
        f.attacker = forces.first().map(|o| o.value.clone()).unwrap_or_default();
        f.defender = forces
            .get(1)
            .or(forces.first())
            .map(|o| o.value.clone())
            .unwrap_or_default();
    }
    render(&FightPage {
        ctx,
        forces,
        f,
        error: None,
        running: running_job(&state, &user).await?,
    })
}

pub struct UnitLine {
    pub name: String,
    pub state: String,
    pub hits: String,
}

/// The two armies' names for the legend and the summaries.
pub fn legend(setup: &BattleSetup) -> Legend {
    let name = |n: &str, fallback: &str| {
        if n.trim().is_empty() {
            fallback.to_string()
        } else {
            n.to_string()
        }
    };
    Legend {
        attacker: name(&setup.attacker.roster.name, "The attacker"),
        defender: name(&setup.defender.roster.name, "The defender"),
    }
}

/// Units each side had lost (BROKEN or routed off) at the end of each turn, from the positions
/// the outcome kept; `None` for an outcome without them.
fn lost_by_turn(o: &Outcome) -> Option<Vec<(u32, u32, u32)>> {
    if o.positions.is_empty() {
        return None;
    }
    let total = |side: &lod::battle::SideResult| side.units.len() as u32;
    Some(
        o.positions
            .iter()
            .map(|p| {
                let on_table =
                    |side: BattleSide| p.units.iter().filter(|u| u.side == side).count() as u32;
                (
                    p.turn,
                    total(&o.attacker).saturating_sub(on_table(BattleSide::Attacker)),
                    total(&o.defender).saturating_sub(on_table(BattleSide::Defender)),
                )
            })
            .collect(),
    )
}

/// Units lost by the end of each turn, as a chart in the sides' colours (when the outcome kept
/// each turn's positions).
pub fn losses_chart(o: &Outcome, legend: &Legend) -> Option<SideChart> {
    lost_by_turn(o).map(|totals| {
        side_chart(
            "Units lost (BROKEN or routed off) by the end of each turn",
            "units lost",
            legend,
            &totals,
        )
    })
}

/// The narration by turn: each turn with the units each side lost in it and where the units
/// stood at its end (both from the positions the outcome kept; without them, how much the
/// turn's narration tells). The abstract battlefield knows a unit's sector and depth, not where
/// in its sector it stands, so a sector's units are drawn side by side across it.
pub fn turn_log(o: &Outcome, setup: &BattleSetup) -> TurnLog {
    let lines = o.log.iter().map(|l| {
        (
            l.turn,
            Line {
                // The unit a line is about, not whose turn it is: a defender's defensive fire
                // in the attacker's turn is the defender's line.
                side: side_named_in(&l.text).or(l.side.map(side_id)),
                text: l.text.clone(),
            },
        )
    });
    let mut log = TurnLog::group(legend(setup), o.turns_played, lines);
    let lost = lost_by_turn(o);
    let lost_at = |turn: u32| -> Option<(u32, u32)> {
        if turn == 0 {
            return Some((0, 0));
        }
        lost.as_ref()?
            .iter()
            .find(|t| t.0 == turn)
            .map(|&(_, a, d)| (a, d))
    };
    let name_of = |side: BattleSide, id: &str| {
        let units = match side {
            BattleSide::Attacker => &o.attacker.units,
            BattleSide::Defender => &o.defender.units,
        };
        units
            .iter()
            .find(|u| u.unit == id)
            .map_or(id.to_string(), |u| u.name.clone())
    };
    let legend = &log.legend;
    for t in log.turns.iter_mut() {
        t.summary = match (lost_at(t.turn - 1), lost_at(t.turn)) {
            (Some(before), Some(after)) => vec![
                SummaryPart {
                    side: Some(ATTACKER),
                    text: format!(
                        "{} {}",
                        legend.attacker,
                        change_words(
                            before.0,
                            after.0,
                            ("unit", "units"),
                            &format!("of {} so far", o.attacker.units.len())
                        )
                    ),
                },
                SummaryPart {
                    side: Some(DEFENDER),
                    text: format!(
                        "{} {}",
                        legend.defender,
                        change_words(
                            before.1,
                            after.1,
                            ("unit", "units"),
                            &format!("of {} so far", o.defender.units.len())
                        )
                    ),
                },
            ],
            _ => vec![SummaryPart {
                side: None,
                text: format!(
                    "{} event{} told",
                    t.lines.len(),
                    if t.lines.len() == 1 { "" } else { "s" }
                ),
            }],
        };
        t.diagram = o.positions.iter().find(|p| p.turn == t.turn).map(|p| {
            let mut markers = Vec::new();
            for sector in 0..3u8 {
                // Both armies' units in a sector share its width, so no two stand on one spot.
                let here: Vec<_> = p.units.iter().filter(|u| u.sector == sector).collect();
                for (i, u) in here.iter().enumerate() {
                    let side = u.side;
                    markers.push(Diagram::marker(
                        side_id(side),
                        across_sector(sector, i, here.len()),
                        u.depth,
                        side == BattleSide::Attacker,
                        u.routing || u.state == EndState::Shaken,
                        format!(
                            "{}: {}{}, {} hit{}",
                            name_of(side, &u.unit),
                            u.state.label(),
                            if u.routing { ", routing" } else { "" },
                            u.hits,
                            if u.hits == 1 { "" } else { "s" }
                        ),
                    ));
                }
            }
            Diagram::new(markers, true, legend, "SHAKEN or routing")
        });
    }
    log
}

#[derive(Template)]
#[template(path = "systems/lod/fight/report.html")]
struct ReportPage {
    ctx: PageCtx,
    attacker: String,
    defender: String,
    headline: String,
    outcome: Outcome,
    seed: u64,
    attacker_units: Vec<UnitLine>,
    defender_units: Vec<UnitLine>,
    log: TurnLog,
    chart: Option<SideChart>,
    replay_query: String,
}

fn unit_lines(side: &lod::battle::SideResult) -> Vec<UnitLine> {
    side.units
        .iter()
        .map(|u| UnitLine {
            name: u.name.clone(),
            state: u.end.label().to_string(),
            hits: u.hits.map(|h| h.to_string()).unwrap_or_default(),
        })
        .collect()
}

/// "Crown wins a major victory (23 to 4 VPs)" and the like.
fn headline(o: &Outcome, a: &str, d: &str) -> String {
    match o.winner {
        Some(BattleSide::Attacker) => format!(
            "{a} wins: {} ({} to {} VPs)",
            o.band.label().to_lowercase(),
            o.attacker.vp,
            o.defender.vp
        ),
        Some(BattleSide::Defender) => format!(
            "{d} wins: {} ({} to {} VPs)",
            o.band.label().to_lowercase(),
            o.defender.vp,
            o.attacker.vp
        ),
        None => format!("A draw ({} to {} VPs)", o.attacker.vp, o.defender.vp),
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
            sim::fight_with_positions(&rules.lod, &fought)
        })
        .await?
        .map_err(bad)?;
    let (a, d) = (
        setup.attacker.roster.name.clone(),
        setup.defender.roster.name.clone(),
    );
    let log = turn_log(&outcome, &setup);
    let chart = losses_chart(&outcome, &log.legend);
    render(&ReportPage {
        ctx,
        headline: headline(&outcome, &a, &d),
        attacker_units: unit_lines(&outcome.attacker),
        defender_units: unit_lines(&outcome.defender),
        replay_query: form.query(setup.seed),
        seed: setup.seed,
        attacker: a,
        defender: d,
        log,
        chart,
        outcome,
    })
}

/// The form posts (it carries the CSRF token, which must not end up in a URL); the battle is
/// shown at a plain address with its seed, so it can be bookmarked and replayed.
pub async fn battle_post(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    CsrfForm(form): CsrfForm<FightForm>,
) -> Result<HttpResponse, AppError> {
    let seed = match form.seed() {
        Ok(seed) => seed,
        Err(e) => return or_form_again(&state, &user, ctx, form, e).await,
    };
    Ok(redirect(&format!("/lod/fight/battle?{}", form.query(seed))))
}

/// The set-up as a file, for `muster simulate --system lod --setup` and the API.
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
            format!("attachment; filename=\"lod-battle-{}.json\"", setup.seed),
        ))
        .body(Lod::write_setup(&setup)))
}

/// Units on both sides, for the cost estimate.
fn size(setup: &BattleSetup) -> u64 {
    [&setup.attacker.roster, &setup.defender.roster]
        .iter()
        .flat_map(|r| r.brigades.iter())
        .map(|b| b.units.len() as u64)
        .sum()
}

/// The odds on one thread, stopping when `stop` is set (`None`).
fn odds(
    cat: &Catalogue,
    setup: &BattleSetup,
    runs: u32,
    stop: &AtomicBool,
) -> Option<Result<montecarlo::OddsSummary, String>> {
    let runner = app_odds::Chunked {
        threads: 1,
        done: &AtomicU32::new(0),
        stop,
    };
    let parts = runner.fight_ranges(runs, |start, end, progress| {
        montecarlo::run_range(cat, setup, start, end, progress)
    })?;
    Some(montecarlo::merge_ranges(setup.seed, parts))
}

#[derive(Template)]
#[template(path = "systems/lod/fight/odds.html")]
struct OddsPage {
    ctx: PageCtx,
    title: String,
    running: bool,
    /// Jobs before this one while it waits for a worker.
    queued_ahead: Option<u32>,
    cancelled: bool,
    job_id: String,
    done: u32,
    total: u32,
    summary: Option<OddsView>,
    error: Option<String>,
}

pub struct OddsView {
    pub runs: u64,
    pub rows: Vec<(String, String, String)>,
    pub averages: String,
    pub most_lost: Vec<String>,
}

fn odds_view(s: &montecarlo::OddsSummary, a: &str, d: &str) -> OddsView {
    let pct = |p: f64| format!("{:.1} %", p * 100.0);
    let row = |label: String, e: montecarlo::Estimate| {
        (label, pct(e.p), format!("{} – {}", pct(e.low), pct(e.high)))
    };
    OddsView {
        runs: s.runs,
        rows: vec![
            row(format!("{a} wins"), s.attacker_win),
            row("Draw".to_string(), s.draw),
            row(format!("{d} wins"), s.defender_win),
        ],
        averages: format!(
            "Average VPs: {a} {:.1}, {d} {:.1}. Battles last {:.1} turns on average; {} end at a break point.",
            s.avg_attacker_vp,
            s.avg_defender_vp,
            s.avg_turns,
            pct(s.ended_by_break_point)
        ),
        most_lost: s
            .most_often_lost
            .iter()
            .map(|l| {
                let side = if l.side == BattleSide::Attacker { a } else { d };
                format!("{} ({side}): lost in {:.0} % of battles", l.name, l.p_lost * 100.0)
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
        .unwrap_or(2000);
    let title = format!(
        "{} against {}",
        setup.attacker.roster.name, setup.defender.roster.name
    );
    let job = match queue_odds(&state, user.id, title, &setup, runs).await {
        Ok(job) => job,
        Err(e) => return or_form_again(&state, &user, ctx, form, e).await,
    };
    Ok(redirect(&format!("/lod/fight/jobs/{}", job.id)))
}

/// Queues the odds of `runs` battles of `setup` as a background job.
async fn queue_odds(
    state: &AppState,
    owner: i64,
    title: String,
    setup: &BattleSetup,
    runs: u32,
) -> Result<JobStatus, AppError> {
    let params = app_odds::OddsParams {
        system: SystemId::Lod.id().to_string(),
        setup: Lod::write_setup(setup),
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
    Ok(redirect(&format!("/lod/fight/jobs/{id}")))
}

pub async fn job_page(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    let status = jobs::status(&state.app, &id, user.id).await?;
    let (a, d) = status
        .title
        .split_once(" against ")
        .map(|(a, d)| (a.to_string(), d.to_string()))
        .unwrap_or_default();
    render(&OddsPage {
        ctx,
        title: status.title.clone(),
        running: status.is_active(),
        queued_ahead: status.queued_ahead,
        cancelled: status.status == "cancelled",
        job_id: status.id.clone(),
        done: status.done,
        total: status.total,
        summary: status
            .result
            .and_then(|v| serde_json::from_value::<montecarlo::OddsSummary>(v).ok())
            .map(|s| odds_view(&s, &a, &d)),
        error: status.error.clone(),
    })
}

// ----- API -----

/// A set-up document, or two rosters and a seed.
fn read_setup(cat: &Catalogue, body: &Value) -> Result<BattleSetup, AppError> {
    let invalid = |message: String| AppError::Validation {
        message,
        details: vec![],
    };
    let setup = if body.get("format").is_some() {
        let text = serde_json::to_string(body).map_err(|e| invalid(e.to_string()))?;
        Lod::parse_setup(&text).map_err(invalid)?
    } else {
        let roster = |key: &str| -> Result<RosterDoc, AppError> {
            let v = body
                .get(key)
                .ok_or_else(|| invalid(format!("Give the {key}'s roster or a set-up document.")))?;
            lod::parse_roster(&v.to_string()).map_err(|e| invalid(format!("{key}: {e}")))
        };
        let seed = body
            .get("seed")
            .and_then(Value::as_u64)
            .unwrap_or_else(fresh_seed);
        set_up(cat, roster("attacker")?, roster("defender")?, seed).map_err(invalid)?
    };
    sim::check(cat, &setup).map_err(invalid)?;
    Ok(setup)
}

#[derive(Serialize)]
struct SimulateResponse {
    /// The set-up that was fought; post it again to replay the battle exactly.
    setup: BattleSetup,
    outcome: Outcome,
}

/// Fight a Liberty or Death! battle
///
/// Fights one battle: a `muster.lod.battle/1` set-up document, or the short form
/// `{"attacker": roster, "defender": roster, "seed"}` (without a seed one is drawn). Returns the
/// set-up and the outcome with its narrated log (`"narrate": false` leaves the log out). The same
/// set-up always gives the same battle. Logged-in users only.
#[utoipa::path(tag = "liberty-or-death", security(("bearer" = [])), request_body(content = Object, description = "A set-up document or the short form"), responses(
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
    let setup = read_setup(&state.app.rules.lod, &body)?;
    let narrate = body.get("narrate").and_then(Value::as_bool).unwrap_or(true);
    let rules = state.app.rules.clone();
    let fought = setup.clone();
    let outcome = state
        .app
        .work
        .run(&Caller::User(user.id), move |_| {
            sim::fight(&rules.lod, &fought, narrate)
        })
        .await?
        .map_err(|message| AppError::Validation {
            message,
            details: vec![],
        })?;
    Ok(HttpResponse::Ok().json(SimulateResponse { setup, outcome }))
}

/// Liberty or Death! battle odds
///
/// Fights the same set-up `runs` times (battle i with a seed derived from the set-up's seed and
/// i) and reports each side's wins and draws with 95 % (Wilson) intervals, average VPs and turns,
/// and the units most often lost. Up to 2 000 runs are answered at once; up to 100 000 run as a
/// background job (202 with a `status_url` to poll), one per user at a time.
#[utoipa::path(tag = "liberty-or-death", security(("bearer" = [])), request_body(content = Object, description = "A set-up or the short form, plus `runs`"), responses(
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
    let setup = read_setup(&state.app.rules.lod, &body)?;
    let runs = body
        .get("runs")
        .and_then(Value::as_u64)
        .and_then(|r| u32::try_from(r).ok())
        .filter(|r| (1..=RUNS_MAX).contains(r))
        .ok_or_else(|| AppError::Validation {
            message: format!("runs must be from 1 to {RUNS_MAX}"),
            details: vec![],
        })?;
    let rules = state.app.rules.clone();
    if runs <= DIRECT_RUNS_MAX && state.app.work.is_direct(size(&setup), runs) {
        let summary = state
            .app
            .work
            .run(&Caller::User(user.id), move |cancel| {
                odds(&rules.lod, &setup, runs, cancel.flag())
            })
            .await?
            .ok_or_else(work::cancelled)?
            .map_err(|message| AppError::Validation {
                message,
                details: vec![],
            })?;
        return Ok(HttpResponse::Ok().json(summary));
    }
    let title = format!(
        "{} against {}",
        setup.attacker.roster.name, setup.defender.roster.name
    );
    let job = queue_odds(&state, user.id, title, &setup, runs).await?;
    let mut status = serde_json::to_value(&job).unwrap_or_default();
    if let Value::Object(map) = &mut status {
        map.insert(
            "status_url".into(),
            Value::String(format!("/api/v1/jobs/{}", job.id)),
        );
    }
    Ok(HttpResponse::Accepted().json(status))
}
