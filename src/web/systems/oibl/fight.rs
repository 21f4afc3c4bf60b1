//! One if by Land's "Fight" page, `/oibl/fight`: pick two orders of battle (your own or the
//! example brigades), read the narrated battle turn by turn, replay it from its seed or from its
//! set-up file, or fight it many times for the odds as a background job (progress, a Stop
//! button, Wilson 95 % intervals). Over the API: `POST /api/v1/oibl/simulate` and
//! `POST /api/v1/oibl/simulate/odds`. The battle is the rules core's (`rules::systems::oibl::sim`:
//! the brigade-card deck, fire and melee on the Combat Table, morale, Panic Markers, B-12, and
//! move-or-fire, B-27), ended and decided by Muster's rules (B-33 to B-35); the jobs, the form
//! and the report's shell are the generic ones (`app::jobs`, `app::odds`, `web::systems::simulate`,
//! `web::systems::fight_report`).

use actix_web::{post, web, HttpResponse};
use askama::Template;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::app::jobs::{self, JobStatus};
use crate::app::odds::OddsParams;
use crate::app::work::Caller;
use crate::rules::montecarlo::Estimate;
use crate::rules::system::{BattleSide, RuleSystem};
use crate::rules::systems::oibl::battle::{Level, Outcome, SideResult, SCENARIOS};
use crate::rules::systems::oibl::record::prepare;
use crate::rules::systems::oibl::roster::check_roster_size;
use crate::rules::systems::oibl::sim::{self, StandardPolicy};
use crate::rules::systems::oibl::system::{example_force, example_forces};
use crate::rules::systems::oibl::{BattleSetup, Catalogue, Oibl, RosterDoc};
use crate::rules::SystemId;
use crate::web::auth::csrf::{CsrfForm, NoFields};
use crate::web::auth::{ApiUser, SignedIn, SignedInUser};
use crate::web::error::ErrorBody;
use crate::web::page::{redirect, render, render_with_status, PageCtx, SelectOption};
use crate::web::state::AppState;
use crate::web::systems::fight_report::{Legend, Line, SummaryPart, TurnLog, ATTACKER, DEFENDER};
use crate::web::systems::simulate::{self as shared, FightForm};
use crate::web::systems::{fight_form_problem, running_job, RunningJob};
use crate::web::AppError;

/// Path prefixes whose next segment is a job's id (a capability), logged without it.
pub const SECRET_PREFIXES: &[&str] = &["/oibl/fight/jobs/"];

/// Odds of up to this many battles are answered at once over the API; more (up to
/// `app::odds::RUNS_MAX`) run as a job.
pub const DIRECT_RUNS_MAX: u32 = 2_000;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/oibl/fight").get(index))
        .service(
            web::resource("/oibl/fight/battle")
                .get(battle)
                .post(battle_post),
        )
        .service(web::resource("/oibl/fight/replay").post(replay))
        .service(web::resource("/oibl/fight/setup.json").get(setup_file))
        .service(web::resource("/oibl/fight/odds").post(start_odds))
        .service(web::resource("/oibl/fight/jobs/{id}").get(job_page))
        .service(web::resource("/oibl/fight/jobs/{id}/cancel").post(cancel_job));
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

// ----- Choosing the forces -----

/// The player's One if by Land orders of battle (`r:<id>`), then the example brigades
/// (`x:example:<side>`; the empty starting point has nothing to fight with).
async fn force_choices(
    state: &web::Data<AppState>,
    user: &SignedInUser,
) -> Result<Vec<SelectOption>, AppError> {
    let mut out = shared::own_force_choices(state, user, SystemId::Oibl).await?;
    out.extend(
        example_forces()
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

/// A set-up from two orders of battle: the scenario (rolled from `seed` when none is named),
/// every commander rating the rosters leave out (B-8), and the battle's own dice from the same
/// seed, so the seed alone replays it.
fn set_up(
    cat: &Catalogue,
    a: RosterDoc,
    d: RosterDoc,
    scenario: Option<&str>,
    seed: u64,
) -> Result<BattleSetup, String> {
    for r in [&a, &d] {
        check_roster_size(r).map_err(|e| format!("{}: {}", r.name, e.message))?;
    }
    Ok(prepare(cat, a, d, scenario, false, seed)?.setup)
}

async fn build_setup(
    state: &web::Data<AppState>,
    user: &SignedInUser,
    form: &FightForm,
) -> Result<BattleSetup, AppError> {
    let seed = form.seed()?;
    let a = load_force(state, user, &form.attacker).await?;
    let d = load_force(state, user, &form.defender).await?;
    set_up(&state.app.rules.oibl, a, d, None, seed).map_err(bad)
}

// ----- The form -----

#[derive(Template)]
#[template(path = "systems/oibl/fight/index.html")]
struct FightPage {
    ctx: PageCtx,
    forces: Vec<SelectOption>,
    f: FightForm,
    /// The set-up file pasted for a replay, kept when it could not be read.
    setup_text: String,
    error: Option<String>,
    running: Option<RunningJob>,
}

/// The form back as it was filled in, with what to put right.
async fn or_form_again(
    state: &web::Data<AppState>,
    user: &SignedInUser,
    ctx: PageCtx,
    f: FightForm,
    setup_text: String,
    e: AppError,
) -> Result<HttpResponse, AppError> {
    let (message, status, running) = fight_form_problem(state, user, e).await?;
    let forces = force_choices(state, user).await?;
    let page = FightPage {
        ctx,
        forces,
        f,
        setup_text,
        error: Some(message),
        running,
    };
    render_with_status(&page, status)
}

/// The two example brigades, facing each other unless the player picks otherwise.
fn default_forces(f: &mut FightForm, forces: &[SelectOption]) {
    if f.attacker.is_empty() && f.defender.is_empty() {
        let mut examples = forces.iter().filter(|o| o.value.starts_with("x:"));
        f.attacker = examples.next().map(|o| o.value.clone()).unwrap_or_default();
        f.defender = examples.next().map(|o| o.value.clone()).unwrap_or_default();
    }
}

pub async fn index(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    form: web::Query<FightForm>,
) -> Result<HttpResponse, AppError> {
    let forces = force_choices(&state, &user).await?;
    let mut f = form.into_inner();
    default_forces(&mut f, &forces);
    let running = running_job(&state, &user).await?;
    render(&FightPage {
        ctx,
        forces,
        f,
        setup_text: String::new(),
        error: None,
        running,
    })
}

// ----- The report -----

/// What the set-up decided before the first turn, from the set-up alone (so a replay from the
/// file tells it the same): the scenario, each commander's rating, and how the battle ends.
pub fn before_the_battle(setup: &BattleSetup) -> Vec<String> {
    let scenario = SCENARIOS
        .iter()
        .find(|(id, _)| *id == setup.scenario)
        .map_or(setup.scenario.replace('_', " "), |(_, words)| {
            words.to_string()
        });
    let mut lines = vec![format!("{scenario}.")];
    for (role, side) in [("attacks", &setup.attacker), ("defends", &setup.defender)] {
        let r = &side.roster;
        let rated: Vec<String> = r
            .army_commander
            .iter()
            .map(|c| ("the army commander".to_string(), c))
            .chain(
                r.brigades
                    .iter()
                    .filter_map(|b| Some((b.name.clone(), b.commander.as_ref()?))),
            )
            .filter_map(|(who, c)| Some(format!("{who} X = {}", c.rating?)))
            .collect();
        lines.push(format!(
            "{} {role} with {} unit{} in {} brigade{}{}.",
            r.name,
            r.units().count(),
            if r.units().count() == 1 { "" } else { "s" },
            r.brigades.len(),
            if r.brigades.len() == 1 { "" } else { "s" },
            if rated.is_empty() {
                String::new()
            } else {
                format!("; commanders' ratings (B-8): {}", rated.join(", "))
            }
        ));
    }
    lines.push(format!(
        "Muster's end: a side that has lost half its units or more at the end of a turn is \
         defeated (B-34); after turn {} the side that lost the smaller share of its figures wins \
         (B-35).",
        setup.turns
    ));
    lines
}

/// "The British Brigade wins decisively: …" and the like.
pub fn headline(o: &Outcome) -> String {
    let side = |s: BattleSide| match s {
        BattleSide::Attacker => &o.attacker.name,
        BattleSide::Defender => &o.defender.name,
    };
    match (o.winner, o.level) {
        (Some(s), Level::Decisive) => format!("{} wins decisively: {}", side(s), o.reason),
        (Some(s), _) => format!("{} wins a marginal victory: {}", side(s), o.reason),
        (None, _) => format!("A draw: {}", o.reason),
    }
}

/// The side whose unit a line of narration starts with (the longest name wins, so "Light
/// Company" is not read as "Light"); none when both armies have a unit of that name.
fn side_of_line(text: &str, o: &Outcome) -> Option<&'static str> {
    let text = text.trim_start();
    let starts = |r: &SideResult| {
        r.units
            .iter()
            .filter(|u| !u.name.is_empty() && text.starts_with(&u.name))
            .map(|u| u.name.len())
            .max()
    };
    match (starts(&o.attacker), starts(&o.defender)) {
        (Some(a), Some(d)) if a == d => None,
        (Some(a), Some(d)) => Some(if a > d { ATTACKER } else { DEFENDER }),
        (Some(_), None) => Some(ATTACKER),
        (None, Some(_)) => Some(DEFENDER),
        (None, None) => None,
    }
}

/// The narration grouped by turn: the core opens each with "Turn n."; each turn's summary
/// counts the units of each side that routed and were destroyed in it.
pub fn turn_log(o: &Outcome, before: &[String]) -> TurnLog {
    let legend = Legend {
        attacker: o.attacker.name.clone(),
        defender: o.defender.name.clone(),
    };
    let mut turn = 0;
    let mut lines: Vec<(u32, Line)> = before
        .iter()
        .map(|l| {
            (
                0,
                Line {
                    side: None,
                    text: l.clone(),
                },
            )
        })
        .collect();
    for text in &o.log {
        if let Some(n) = text
            .strip_prefix("Turn ")
            .and_then(|rest| rest.strip_suffix('.'))
            .and_then(|n| n.parse().ok())
        {
            turn = n;
            continue;
        }
        lines.push((
            turn,
            Line {
                side: side_of_line(text, o),
                text: text.trim().to_string(),
            },
        ));
    }
    let mut log = TurnLog::group(legend, o.turns, lines);
    for t in log.turns.iter_mut() {
        let count = |side: &str, what: &str| {
            t.lines
                .iter()
                .filter(|l| l.side == Some(side) && l.text.contains(what))
                .count()
        };
        t.summary = [
            (ATTACKER, &log.legend.attacker),
            (DEFENDER, &log.legend.defender),
        ]
        .into_iter()
        .map(|(side, name)| SummaryPart {
            side: Some(side),
            text: format!(
                "{name}: {} rout, {} destroyed",
                count(side, " routs!"),
                count(side, " is destroyed")
            ),
        })
        .collect();
    }
    log
}

pub struct UnitLine {
    pub name: String,
    pub figures: String,
    pub end: String,
}

pub struct SideView {
    pub role: &'static str,
    pub side: &'static str,
    pub name: String,
    pub standing: String,
    pub units: Vec<UnitLine>,
    pub commanders: Vec<String>,
}

fn side_view(o: &Outcome, side: BattleSide) -> SideView {
    let (s, role, id) = match side {
        BattleSide::Attacker => (&o.attacker, "Attacker", ATTACKER),
        BattleSide::Defender => (&o.defender, "Defender", DEFENDER),
    };
    SideView {
        role,
        side: id,
        name: s.name.clone(),
        standing: format!(
            "{} of {} units lost, {} of {} figures{}{}",
            s.lost_units(),
            s.start_units(),
            s.figures_lost(),
            s.start_figures(),
            match s.guns_lost() {
                0 => String::new(),
                1 => ", 1 gun".to_string(),
                n => format!(", {n} guns"),
            },
            if s.defeated { ": defeated (B-34)" } else { "" }
        ),
        units: s
            .units
            .iter()
            .map(|u| UnitLine {
                name: u.name.clone(),
                figures: if u.figures_lost == 0 {
                    u.start_figures.to_string()
                } else {
                    format!(
                        "{} → {}",
                        u.start_figures,
                        u.start_figures.saturating_sub(u.figures_lost)
                    )
                },
                end: if u.destroyed {
                    "destroyed (B-33)".to_string()
                } else if u.left_table {
                    "left the table".to_string()
                } else if u.routed {
                    "routing".to_string()
                } else {
                    "standing".to_string()
                } + &match u.guns_lost {
                    0 => String::new(),
                    1 => ", its gun lost".to_string(),
                    n => format!(", {n} guns lost"),
                },
            })
            .collect(),
        commanders: s
            .commanders
            .iter()
            .filter(|c| c.fate != Default::default())
            .map(|c| format!("{}: {}", c.name, c.fate.words()))
            .collect(),
    }
}

#[derive(Template)]
#[template(path = "systems/oibl/fight/report.html")]
struct ReportPage {
    ctx: PageCtx,
    title: String,
    subtitle: String,
    headline: String,
    sides: Vec<SideView>,
    seed: u64,
    log: TurnLog,
    /// The query that fights this battle again; `None` for a battle from a pasted set-up.
    replay_query: Option<String>,
}

async fn report(
    state: &web::Data<AppState>,
    user: &SignedInUser,
    ctx: PageCtx,
    setup: BattleSetup,
    replay_query: Option<String>,
) -> Result<HttpResponse, AppError> {
    let rules = state.app.rules.clone();
    let fought = setup.clone();
    let outcome = state
        .app
        .work
        .run(&Caller::User(user.id), move |_| {
            sim::fight(&rules.oibl, &fought)
        })
        .await?
        .map_err(bad)?;
    let log = turn_log(&outcome, &before_the_battle(&setup));
    render(&ReportPage {
        ctx,
        title: format!(
            "{} against {}",
            outcome.attacker.name, outcome.defender.name
        ),
        subtitle: format!(
            "{} · {} turn{} of at most {} · seed {}",
            setup.scenario.replace('_', " "),
            outcome.turns,
            if outcome.turns == 1 { "" } else { "s" },
            setup.turns,
            setup.seed
        ),
        headline: headline(&outcome),
        sides: vec![
            side_view(&outcome, BattleSide::Attacker),
            side_view(&outcome, BattleSide::Defender),
        ],
        seed: setup.seed,
        log,
        replay_query,
    })
}

pub async fn battle(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    form: web::Query<FightForm>,
) -> Result<HttpResponse, AppError> {
    let setup = match build_setup(&state, &user, &form).await {
        Ok(setup) => setup,
        Err(e) => {
            return or_form_again(&state, &user, ctx, form.into_inner(), String::new(), e).await
        }
    };
    let query = form.query(setup.seed);
    report(&state, &user, ctx, setup, Some(query)).await
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
        Ok(seed) => Ok(redirect(&format!(
            "/oibl/fight/battle?{}",
            form.query(seed)
        ))),
        Err(e) => or_form_again(&state, &user, ctx, form, String::new(), e).await,
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ReplayForm {
    /// A `muster.oibl.battle/1` set-up document, as the set-up file holds it.
    pub setup: String,
}

/// Reads a set-up document and checks both orders of battle are within bounds.
fn read_setup_text(text: &str) -> Result<BattleSetup, String> {
    let setup = Oibl::parse_setup(text)?;
    for force in [&setup.attacker, &setup.defender] {
        check_roster_size(&force.roster).map_err(|e| e.message)?;
    }
    Ok(setup)
}

/// Fights the battle of a pasted set-up file again: the same file, the same battle.
pub async fn replay(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    CsrfForm(form): CsrfForm<ReplayForm>,
) -> Result<HttpResponse, AppError> {
    match read_setup_text(form.setup.trim()) {
        Ok(setup) => report(&state, &user, ctx, setup, None).await,
        Err(e) => {
            let forces = force_choices(&state, &user).await?;
            let mut f = FightForm::default();
            default_forces(&mut f, &forces);
            or_form_again(
                &state,
                &user,
                ctx,
                f,
                form.setup,
                bad(format!("setup: {e}")),
            )
            .await
        }
    }
}

/// The set-up as a file, for the replay form, `muster simulate --system oibl --setup` and the
/// API.
pub async fn setup_file(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    form: web::Query<FightForm>,
) -> Result<HttpResponse, AppError> {
    let setup = build_setup(&state, &user, &form).await?;
    Ok(shared::setup_download(
        "oibl",
        setup.seed,
        Oibl::write_setup(&setup),
    ))
}

// ----- Odds -----

/// Units on both sides, for the cost estimate.
fn size(setup: &BattleSetup) -> u64 {
    (setup.attacker.roster.units().count() + setup.defender.roster.units().count()) as u64
}

fn title_of(setup: &BattleSetup) -> String {
    format!(
        "{} against {}",
        setup.attacker.roster.name, setup.defender.roster.name
    )
}

/// What an odds job of `runs` battles of `setup` needs, to be redone anywhere.
fn params(setup: &BattleSetup, runs: u32) -> OddsParams {
    OddsParams {
        system: SystemId::Oibl.id().to_string(),
        setup: Oibl::write_setup(setup),
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
        Ok(job) => Ok(redirect(&format!("/oibl/fight/jobs/{}", job.id))),
        Err(e) => or_form_again(&state, &user, ctx, form, String::new(), e).await,
    }
}

/// Stops a background job of the player's and shows its page again.
pub async fn cancel_job(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    id: web::Path<String>,
    CsrfForm(_): CsrfForm<NoFields>,
) -> Result<HttpResponse, AppError> {
    shared::cancel_job(&state, &user, &id, "/oibl/fight").await
}

/// The odds as the rules core sums them up (`oibl::montecarlo::Summary`), read back from a
/// job's result.
#[derive(Debug, Deserialize)]
struct Summary {
    runs: u32,
    decisive: u32,
    attacker: Estimate,
    defender: Estimate,
    draw: Estimate,
    mean_turns: f64,
}

pub struct OddsView {
    pub runs: u32,
    /// Result, share, 95 % (Wilson) interval.
    pub rows: Vec<(String, String, String)>,
    pub averages: String,
}

fn odds_view(s: &Summary, a: &str, d: &str) -> OddsView {
    let rows = shared::estimate_rows(&[
        (format!("{a} wins"), &s.attacker),
        ("Draw".into(), &s.draw),
        (format!("{d} wins"), &s.defender),
    ]);
    OddsView {
        runs: s.runs,
        rows,
        averages: format!(
            "Battles last {:.1} turns on average; {} of them end with a side defeated by its losses (B-34), the rest on time (B-35).",
            s.mean_turns,
            s.decisive
        ),
    }
}

#[derive(Template)]
#[template(path = "systems/oibl/fight/odds.html")]
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
        .and_then(|v| serde_json::from_value::<Summary>(v).ok())
        .map(|s| odds_view(&s, a, d));
    render(&JobPage { ctx, job, summary })
}

// ----- API -----

/// A set-up document, or two orders of battle with an optional seed and scenario.
/// `runs` and `narrate` belong to the request, not to the set-up document it may be.
fn read_setup(cat: &Catalogue, body: &Value) -> Result<BattleSetup, AppError> {
    if body.get("format").is_some() {
        let mut doc = body.clone();
        if let Value::Object(map) = &mut doc {
            map.remove("runs");
            map.remove("narrate");
        }
        return read_setup_text(&doc.to_string()).map_err(invalid);
    }
    let force = |key: &str| -> Result<RosterDoc, AppError> {
        let v = body.get(key).ok_or_else(|| {
            invalid(format!(
                "{key}: give the {key}'s order of battle, or a set-up document."
            ))
        })?;
        Oibl::parse_roster(&v.to_string()).map_err(|e| match e.path {
            Some(path) => invalid(format!("{key}.{path}: {}", e.message)),
            None => invalid(format!("{key}: {}", e.message)),
        })
    };
    let seed = match body.get("seed") {
        None | Some(Value::Null) => crate::app::dice::fresh_seed(),
        Some(v) => v
            .as_u64()
            .ok_or_else(|| invalid("seed is a whole number from 0 up."))?,
    };
    let scenario = match body.get("scenario") {
        None | Some(Value::Null) => None,
        Some(v) => Some(
            v.as_str()
                .ok_or_else(|| invalid("scenario is open_field or defended_line."))?,
        ),
    };
    set_up(cat, force("attacker")?, force("defender")?, scenario, seed).map_err(invalid)
}

#[derive(Serialize)]
struct SimulateResponse {
    /// The set-up that was fought; post it again to replay the battle exactly.
    setup: BattleSetup,
    outcome: Outcome,
}

/// Fight a One if by Land battle
///
/// Fights one battle: a `muster.oibl.battle/1` set-up document, or the short form
/// `{"attacker": order of battle, "defender": order of battle, "seed", "scenario"}` (without a
/// seed one is drawn; without a scenario, open_field or defended_line is rolled from the seed).
/// Returns the set-up and the outcome with its narrated log (`"narrate": false` leaves the log
/// out). The same set-up always gives the same battle. Logged-in users only.
#[utoipa::path(tag = "one-if-by-land", security(("bearer" = [])), request_body(content = Object, description = "A set-up document or the short form"), responses(
    (status = 200, description = "The set-up and the outcome", body = crate::web::systems::lotf::api::SimulatedBattleSchema),
    (status = 400, description = "The body is not JSON", body = ErrorBody),
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
    let setup = read_setup(&state.app.rules.oibl, &body)?;
    let narrate = match body.get("narrate") {
        None | Some(Value::Null) => true,
        Some(v) => v
            .as_bool()
            .ok_or_else(|| invalid("narrate is true or false."))?,
    };
    let rules = state.app.rules.clone();
    let fought = setup.clone();
    let outcome = state
        .app
        .work
        .run(&Caller::User(user.id), move |_| {
            sim::fight_with(&rules.oibl, &fought, &StandardPolicy, narrate)
        })
        .await?
        .map_err(invalid)?;
    Ok(HttpResponse::Ok().json(SimulateResponse { setup, outcome }))
}

/// One if by Land battle odds
///
/// Fights the same set-up `runs` times (battle i with a seed derived from the set-up's seed and
/// i) and reports each side's wins and the draws with Wilson 95 % intervals, how many battles a
/// side's losses decided (B-34) and the average length in turns. Up to 2 000 runs are answered
/// at once; up to 100 000 run as a background job (202 with a `status_url` to poll), one per
/// user at a time.
#[utoipa::path(tag = "one-if-by-land", security(("bearer" = [])), request_body(content = Object, description = "A set-up or the short form, plus `runs`"), responses(
    (status = 200, description = "The odds", body = Object),
    (status = 202, description = "Started as a background job", body = Object),
    (status = 400, description = "The body is not JSON", body = ErrorBody),
    (status = 401, description = "Not logged in", body = ErrorBody),
    (status = 409, description = "A job of yours is still running", body = ErrorBody),
    (status = 429, description = "Too much work is waiting; try again after Retry-After seconds", body = ErrorBody),
    (status = 422, description = "Not a valid request", body = ErrorBody)
))]
#[post("/simulate/odds")]
pub async fn simulate_odds(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    body: web::Json<Value>,
) -> Result<HttpResponse, AppError> {
    let body = body.into_inner();
    let runs = shared::api_runs(&body)?;
    let setup = read_setup(&state.app.rules.oibl, &body)?;
    shared::odds_answer(
        &state,
        user.id,
        title_of(&setup),
        params(&setup, runs),
        size(&setup),
        DIRECT_RUNS_MAX,
    )
    .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Systems;

    fn examples(seed: u64) -> (Systems, BattleSetup) {
        let rules = Systems::builtin().expect("the built-in rules");
        let force = |r: &str| example_force(r).expect("an example force");
        let setup = set_up(
            &rules.oibl,
            force("example:american"),
            force("example:british"),
            None,
            seed,
        )
        .expect("the examples set up");
        (rules, setup)
    }

    #[test]
    fn oibl_the_report_groups_the_narration_by_turn_and_a_stored_battle_fights_the_same() {
        let (rules, setup) = examples(11);
        let o = sim::fight(&rules.oibl, &setup).expect("fought");
        let before = before_the_battle(&setup);
        let log = turn_log(&o, &before);
        assert_eq!(log.turns.len() as u32, o.turns, "a section a turn");
        assert!(log.before.iter().any(|l| l.text.contains("B-34")));
        assert!(
            log.turns
                .iter()
                .any(|t| t.lines.iter().any(|l| l.side.is_some())),
            "some lines are told as a side's"
        );
        // Through the dispatch (the battle pages' "let the engine fight it"): same seed, same
        // battle, as the page tells it.
        let stored = Oibl::write_setup(&setup);
        let first = rules.fight(SystemId::Oibl, &stored, 11).expect("fought");
        let again = rules.fight(SystemId::Oibl, &stored, 11).expect("fought");
        assert_eq!(first.result, again.result);
        assert!(headline(&o).ends_with(&o.reason));
    }

    #[test]
    fn oibl_a_set_up_file_replays_and_a_broken_one_is_refused() {
        let (_, setup) = examples(3);
        let back = read_setup_text(&Oibl::write_setup(&setup)).expect("reads back");
        assert_eq!(back, setup);
        assert!(read_setup_text("{\"format\": \"muster.atkm.battle/1\"}").is_err());
    }
}
