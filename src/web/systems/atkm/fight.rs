//! All the King's Men "Fight": pick two forces (your rosters, the sample battles' forces or a
//! random force rolled from the seed) and read the narrated battle, replay it from its seed or
//! from its set-up file, or fight it many times for the odds as a background job. Over the API:
//! `POST /api/v1/atkm/simulate` and `POST /api/v1/atkm/simulate/odds`.
//!
//! The battles are the rules core's (`rules::systems::atkm::sim`); the odds go through the
//! generic odds run (`app::odds`, the `Systems::odds` arm), on the page as a job
//! (`app::jobs`), and the report through the shared fight report parts (`fight_report`).

use actix_web::{post, web, HttpResponse};
use askama::Template;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::app::jobs::{self, JobStatus};
use crate::app::odds::OddsParams;
use crate::app::work::Caller;
use crate::rules::montecarlo::{battle_seed, Estimate};
use crate::rules::system::{BattleSide, RuleSystem};
use crate::rules::systems::atkm::battle::{prepare, ForceSetup, SideResult};
use crate::rules::systems::atkm::roster::check_roster_size;
use crate::rules::systems::atkm::sim::{self, StandardPolicy};
use crate::rules::systems::atkm::system::{sample_force, sample_forces};
use crate::rules::systems::atkm::{
    generate, parse_roster, Atkm, BattleSetup, Catalogue, Outcome, RandomForceRequest, RosterDoc,
    UnitType,
};
use crate::rules::SystemId;
use crate::web::auth::csrf::{CsrfForm, NoFields};
use crate::web::auth::{ApiUser, SignedIn, SignedInUser};
use crate::web::error::ErrorBody;
use crate::web::page::{redirect, render, render_with_status, PageCtx, SelectOption};
use crate::web::state::AppState;
use crate::web::systems::fight_report::{
    change_words, side_chart, side_id, side_named_in, Legend, Line, SideChart, SummaryPart,
    TurnLog, ATTACKER, DEFENDER,
};
use crate::web::systems::simulate::{self as shared, FightForm};
use crate::web::systems::{fight_form_problem, running_job, RunningJob};
use crate::web::AppError;

/// Path prefixes whose next segment is a job's id (a capability), logged without it.
pub const SECRET_PREFIXES: &[&str] = &["/atkm/fight/jobs/"];

/// Odds of up to this many battles are answered at once over the API; more run as a job.
pub const DIRECT_RUNS_MAX: u32 = 2_000;

/// The sizes of random force the form offers, in units (spec 2.2: small 5, medium 8, large 10).
const RANDOM_SIZES: [(u32, &str); 3] = [(5, "small"), (8, "medium"), (10, "large")];

/// What a random force's seed is drawn from besides the battle's: one number per side, so the
/// two random forces of one battle differ and the battle's seed alone rolls both again.
const RANDOM_STREAM: [u32; 2] = [0xA7_0001, 0xA7_0002];

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/atkm/fight").get(index))
        .service(
            web::resource("/atkm/fight/battle")
                .get(battle)
                .post(battle_post),
        )
        .service(web::resource("/atkm/fight/replay").post(replay))
        .service(web::resource("/atkm/fight/setup.json").get(setup_file))
        .service(web::resource("/atkm/fight/odds").post(start_odds))
        .service(web::resource("/atkm/fight/jobs/{id}").get(job_page))
        .service(web::resource("/atkm/fight/jobs/{id}/cancel").post(cancel_job));
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

async fn force_choices(
    state: &web::Data<AppState>,
    user: &SignedInUser,
) -> Result<Vec<SelectOption>, AppError> {
    let mut out = shared::own_force_choices(state, user, SystemId::Atkm).await?;
    out.extend(
        sample_forces()
            .into_iter()
            .map(|(value, label)| SelectOption { value, label }),
    );
    out.extend(RANDOM_SIZES.iter().map(|(n, size)| SelectOption {
        value: format!("random:{n}"),
        label: format!("A random force, {size} ({n} units, rolled from the seed)"),
    }));
    Ok(out)
}

/// A random force of `units` units for the side in `slot` (0 attacker, 1 defender), rolled
/// from the battle's seed (spec 2.2; the rolls are kept on the roster).
fn random_force(cat: &Catalogue, units: u32, slot: usize, seed: u64) -> Result<RosterDoc, String> {
    generate(
        cat,
        &RandomForceRequest {
            seed: battle_seed(seed, RANDOM_STREAM[slot]),
            units,
            name: Some(format!("Random army {} ({units} units)", ["A", "B"][slot])),
            period: None,
            elite_militia: false,
            artillery_sizes: false,
            roll_general: false,
        },
    )
}

async fn load_force(
    state: &web::Data<AppState>,
    user: &SignedInUser,
    value: &str,
    slot: usize,
    seed: u64,
) -> Result<RosterDoc, AppError> {
    match value.split_once(':') {
        Some(("r", id)) => shared::load_own_force(state, user, id).await,
        Some(("sample", _)) => {
            sample_force(value).ok_or_else(|| bad("Choose a force from the list."))
        }
        Some(("random", n)) => {
            let units = n
                .parse::<u32>()
                .ok()
                .filter(|n| RANDOM_SIZES.iter().any(|(size, _)| size == n))
                .ok_or_else(|| bad("Choose a force from the list."))?;
            random_force(&state.app.rules.atkm, units, slot, seed).map_err(bad)
        }
        _ => Err(bad("Choose a force for each side.")),
    }
}

/// A unit name both armies use is told apart by its side, "Skirmishers (defender)", the way
/// the shared fight report reads a line's side; the battle itself does not change.
fn tell_apart(setup: &mut BattleSetup) {
    let names = |f: &ForceSetup| -> std::collections::BTreeSet<String> {
        f.roster.units.iter().map(|u| u.name.clone()).collect()
    };
    let shared: Vec<String> = names(&setup.attacker)
        .intersection(&names(&setup.defender))
        .cloned()
        .collect();
    if shared.is_empty() {
        return;
    }
    for (force, side) in [
        (&mut setup.attacker, ATTACKER),
        (&mut setup.defender, DEFENDER),
    ] {
        for u in force.roster.units.iter_mut() {
            if shared.contains(&u.name) {
                u.name = format!("{} ({side})", u.name);
            }
        }
    }
}

/// A set-up from two forces, the first attacking unless both are a sample battle's two sides,
/// which fights that battle with its own end (K-39–K-41, K-14) and its own attacker.
fn set_up(
    cat: &Catalogue,
    a: RosterDoc,
    d: RosterDoc,
    scenario: Option<&str>,
    seed: u64,
) -> Result<BattleSetup, String> {
    let mut setup = prepare(cat, a, d, scenario, false, seed)?.setup;
    tell_apart(&mut setup);
    // Both armies must be legal (the simulator's own check).
    sim::start(cat, &setup)?;
    Ok(setup)
}

/// "british" → "British".
fn capitalised(word: &str) -> String {
    let mut c = word.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// What the set-up decided before the first turn, in words: each random force's rolls, and
/// how the battle is fought and ends. From the set-up alone, so a replay tells it the same.
pub fn before_the_battle(cat: &Catalogue, setup: &BattleSetup) -> Vec<String> {
    let mut lines: Vec<String> = [&setup.attacker.roster, &setup.defender.roster]
        .iter()
        .filter_map(|r| Some((&r.name, &r.random.as_ref()?.rolls)))
        .flat_map(|(name, rolls)| rolls.iter().map(move |l| format!("{name}: {l}")))
        .collect();
    lines.push(match cat.scenario(&setup.scenario) {
        Some(s) => format!(
            "{}: the {} attack, as the book sets the battle, and it is over after turn {} at the latest ({}).",
            s.name,
            capitalised(&s.first_side),
            setup.turns,
            s.rulings.join(", ")
        ),
        None => format!(
            "An open battle: it is over when an army is down to half its units or fewer (K-16), or drawn at nightfall after turn {} (K-14).",
            setup.turns
        ),
    });
    lines
}

async fn build_setup(
    state: &web::Data<AppState>,
    user: &SignedInUser,
    form: &FightForm,
) -> Result<BattleSetup, AppError> {
    let seed = form.seed()?;
    let a = load_force(state, user, &form.attacker, 0, seed).await?;
    let d = load_force(state, user, &form.defender, 1, seed).await?;
    set_up(&state.app.rules.atkm, a, d, None, seed).map_err(bad)
}

// ----- The form -----

#[derive(Template)]
#[template(path = "systems/atkm/fight/index.html")]
struct FightPage {
    ctx: PageCtx,
    forces: Vec<SelectOption>,
    f: FightForm,
    /// The set-up file pasted for a replay, kept when it could not be read.
    setup_text: String,
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
    setup_text: String,
    e: AppError,
) -> Result<HttpResponse, AppError> {
    let (message, status, running) = fight_form_problem(state, user, e).await?;
    let forces = force_choices(state, user).await?;
    render_with_status(
        &FightPage {
            ctx,
            forces,
            f,
            setup_text,
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
        // Cowpens, the smallest sample battle, ready to fight.
        f.attacker = "sample:cowpens_1781_british".into();
        f.defender = "sample:cowpens_1781_americans".into();
    }
    render(&FightPage {
        ctx,
        forces,
        f,
        setup_text: String::new(),
        error: None,
        running: running_job(&state, &user).await?,
    })
}

// ----- The report -----

/// One unit's line in the report.
pub struct UnitLine {
    pub name: String,
    pub kind: String,
    pub rank_and_file: String,
    pub leaders: String,
    pub end: String,
}

/// One general's line.
pub struct GeneralLine {
    pub name: String,
    pub rating: String,
}

/// One army's part of the report.
pub struct SideView {
    pub side: &'static str,
    pub role: &'static str,
    pub name: String,
    pub standing: String,
    pub units: Vec<UnitLine>,
    pub generals: Vec<GeneralLine>,
}

fn side_view(side: BattleSide, r: &SideResult) -> SideView {
    let units = r
        .units
        .iter()
        .map(|u| {
            let lost: Vec<&str> = [
                (u.officer_lost, "officer"),
                (u.ensign_lost, "ensign (colours taken)"),
            ]
            .iter()
            .filter(|(lost, _)| *lost)
            .map(|(_, who)| *who)
            .collect();
            let end = if !u.arrived {
                "never arrived".to_string()
            } else if u.collapsed {
                if u.gun_lost {
                    "collapsed, gun lost".to_string()
                } else {
                    "collapsed".to_string()
                }
            } else if u.left_table {
                "marched off the table".to_string()
            } else {
                "standing".to_string()
            };
            UnitLine {
                name: u.name.clone(),
                kind: UnitType::from_id(&u.unit_type)
                    .map_or(u.unit_type.clone(), |t| t.label().to_string()),
                rank_and_file: if u.rank_and_file_end == u.rank_and_file_start {
                    u.rank_and_file_start.to_string()
                } else {
                    format!("{} → {}", u.rank_and_file_start, u.rank_and_file_end)
                },
                leaders: if lost.is_empty() {
                    "—".to_string()
                } else {
                    format!("lost: {}", lost.join(", "))
                },
                end,
            }
        })
        .collect();
    SideView {
        side: side_id(side),
        role: if side == BattleSide::Attacker {
            "Attacker"
        } else {
            "Defender"
        },
        name: r.name.clone(),
        standing: format!(
            "{} of {} units standing{}",
            r.remaining_units,
            r.starting_units,
            if r.army_collapsed {
                ": the army collapsed"
            } else {
                ""
            }
        ),
        units,
        generals: r
            .generals
            .iter()
            .map(|g| GeneralLine {
                name: g.name.clone(),
                rating: if g.rating_end == g.rating_start {
                    g.rating_start.to_string()
                } else {
                    format!("{} → {}", g.rating_start, g.rating_end)
                },
            })
            .collect(),
    }
}

/// "Tarleton's British win a major victory: …" and the like.
pub fn headline(o: &Outcome) -> String {
    let level = match o.level.as_str() {
        "major" => "a major victory",
        "minor" => "a minor victory",
        _ => "a victory",
    };
    match o.winner {
        Some(side) => format!("{} wins {level}: {}.", o.side(side).name, o.reason),
        None => format!("A draw: {}.", o.reason),
    }
}

/// The side a line of narration is about: the side it names (a name both armies use carries
/// its side), else the army whose unit the line starts with, past "Joker:" or "A 2:".
fn side_of_line(text: &str, o: &Outcome) -> Option<&'static str> {
    side_named_in(text).or_else(|| {
        let subject = ["Joker: ", "A 2: "]
            .iter()
            .find_map(|p| text.strip_prefix(p))
            .unwrap_or(text);
        let starts = |r: &SideResult| {
            r.units
                .iter()
                .filter(|u| subject.starts_with(&u.name))
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
    })
}

/// The log's lines with their turns: the core writes each as "Turn n: …".
fn turn_lines(o: &Outcome) -> Vec<(u32, String)> {
    o.log
        .iter()
        .map(|l| {
            l.strip_prefix("Turn ")
                .and_then(|rest| rest.split_once(": "))
                .and_then(|(n, text)| Some((n.parse().ok()?, text.to_string())))
                .unwrap_or((0, l.clone()))
        })
        .collect()
}

/// Units each side had lost (collapsed) by the end of each turn, from the narration of each
/// collapse; `None` when the narration does not account for every collapsed unit.
fn lost_by_turn(o: &Outcome) -> Option<Vec<(u32, u32, u32)>> {
    let mut totals = Vec::new();
    let (mut a, mut d) = (0, 0);
    let lines = turn_lines(o);
    for turn in 1..=o.turns_played {
        for (_, text) in lines.iter().filter(|(t, _)| *t == turn) {
            if !text.contains(" collapses (") {
                continue;
            }
            match side_of_line(text, o) {
                Some(ATTACKER) => a += 1,
                Some(_) => d += 1,
                None => return None,
            }
        }
        totals.push((turn, a, d));
    }
    let collapsed = |r: &SideResult| r.units.iter().filter(|u| u.collapsed).count() as u32;
    (a == collapsed(&o.attacker) && d == collapsed(&o.defender)).then_some(totals)
}

/// The narration by turn, each turn summed up by the units each side lost in it; `before`
/// is what was decided before the first turn (random forces' rolls, who attacks).
pub fn turn_log(o: &Outcome, before: &[String]) -> (TurnLog, Option<SideChart>) {
    let legend = Legend {
        attacker: o.attacker.name.clone(),
        defender: o.defender.name.clone(),
    };
    let lines = before
        .iter()
        .map(|l| (0, l.clone()))
        .chain(turn_lines(o))
        .map(|(turn, text)| {
            (
                turn,
                Line {
                    side: if turn == 0 {
                        None
                    } else {
                        side_of_line(&text, o)
                    },
                    // Each line a sentence: "The battle ends: …".
                    text: capitalised(&text),
                },
            )
        });
    let mut log = TurnLog::group(legend, o.turns_played, lines);
    let lost = lost_by_turn(o);
    if let Some(totals) = &lost {
        let at = |turn: u32| {
            totals
                .iter()
                .find(|t| t.0 == turn)
                .map_or((0, 0), |&(_, a, d)| (a, d))
        };
        let legend = &log.legend;
        for t in log.turns.iter_mut() {
            let (before, after) = (at(t.turn - 1), at(t.turn));
            let part = |side, name: &str, b: u32, a: u32, of: u32| SummaryPart {
                side: Some(side),
                text: format!(
                    "{name} {}",
                    change_words(b, a, ("unit", "units"), &format!("of {of} so far"))
                ),
            };
            t.summary = vec![
                part(
                    ATTACKER,
                    &legend.attacker,
                    before.0,
                    after.0,
                    o.attacker.starting_units,
                ),
                part(
                    DEFENDER,
                    &legend.defender,
                    before.1,
                    after.1,
                    o.defender.starting_units,
                ),
            ];
        }
    }
    let chart = lost.map(|totals| {
        side_chart(
            "Units collapsed by the end of each turn",
            "units collapsed",
            &log.legend,
            &totals,
        )
    });
    (log, chart)
}

#[derive(Template)]
#[template(path = "systems/atkm/fight/report.html")]
struct ReportPage {
    ctx: PageCtx,
    title: String,
    subtitle: String,
    headline: String,
    sides: Vec<SideView>,
    /// How the sample battle is won, in Muster's words (none for an open battle).
    victory: Vec<String>,
    seed: u64,
    log: TurnLog,
    chart: Option<SideChart>,
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
            sim::fight(&rules.atkm, &fought)
        })
        .await?
        .map_err(bad)?;
    let cat = &state.app.rules.atkm;
    let scenario = cat.scenario(&setup.scenario);
    let (log, chart) = turn_log(&outcome, &before_the_battle(cat, &setup));
    render(&ReportPage {
        ctx,
        title: format!(
            "{} against {}",
            outcome.attacker.name, outcome.defender.name
        ),
        subtitle: format!(
            "{} · {} turn{} of at most {} · seed {}",
            scenario.map_or("An open battle", |s| s.name.as_str()),
            outcome.turns_played,
            if outcome.turns_played == 1 { "" } else { "s" },
            setup.turns,
            setup.seed
        ),
        headline: headline(&outcome),
        sides: vec![
            side_view(BattleSide::Attacker, &outcome.attacker),
            side_view(BattleSide::Defender, &outcome.defender),
        ],
        victory: scenario.map(|s| s.victory.clone()).unwrap_or_default(),
        seed: setup.seed,
        log,
        chart,
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
        Err(e) => return or_form_again(&state, &user, ctx, form, String::new(), e).await,
    };
    Ok(redirect(&format!(
        "/atkm/fight/battle?{}",
        form.query(seed)
    )))
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ReplayForm {
    /// A `muster.atkm.battle/1` set-up document, as the set-up file holds it.
    pub setup: String,
}

/// Reads a set-up document and checks both armies can fight.
fn read_setup_text(cat: &Catalogue, text: &str) -> Result<BattleSetup, String> {
    let setup = Atkm::parse_setup(text)?;
    for force in [&setup.attacker, &setup.defender] {
        check_roster_size(&force.roster).map_err(|e| e.message)?;
    }
    sim::start(cat, &setup)?;
    Ok(setup)
}

/// Fights the battle of a pasted set-up file again: the same file, the same battle.
pub async fn replay(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    CsrfForm(form): CsrfForm<ReplayForm>,
) -> Result<HttpResponse, AppError> {
    match read_setup_text(&state.app.rules.atkm, form.setup.trim()) {
        Ok(setup) => report(&state, &user, ctx, setup, None).await,
        Err(e) => {
            let f = FightForm {
                attacker: "sample:cowpens_1781_british".into(),
                defender: "sample:cowpens_1781_americans".into(),
                ..FightForm::default()
            };
            or_form_again(&state, &user, ctx, f, form.setup, bad(e)).await
        }
    }
}

/// The set-up as a file, for the replay form, `muster simulate --system atkm --setup` and the
/// API.
pub async fn setup_file(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    form: web::Query<FightForm>,
) -> Result<HttpResponse, AppError> {
    let setup = build_setup(&state, &user, &form).await?;
    Ok(shared::setup_download(
        "atkm",
        setup.seed,
        Atkm::write_setup(&setup),
    ))
}

// ----- Odds -----

/// Units on both sides, for the cost estimate.
fn size(setup: &BattleSetup) -> u64 {
    (setup.attacker.roster.units.len() + setup.defender.roster.units.len()) as u64
}

fn odds_params(setup: &BattleSetup, runs: u32) -> OddsParams {
    OddsParams {
        system: SystemId::Atkm.id().to_string(),
        setup: Atkm::write_setup(setup),
        runs,
    }
}

fn title(setup: &BattleSetup) -> String {
    format!(
        "{} against {}",
        setup.attacker.roster.name, setup.defender.roster.name
    )
}

/// The odds as the rules core sums them up (`atkm::montecarlo::Summary`), read back from a
/// job's result.
#[derive(Debug, Deserialize)]
struct Summary {
    runs: u32,
    attacker: Estimate,
    defender: Estimate,
    draw: Estimate,
    mean_turns: f64,
}

#[derive(Template)]
#[template(path = "systems/atkm/fight/odds.html")]
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
    pub runs: u32,
    /// Result, share, 95 % (Wilson) interval.
    pub rows: Vec<(String, String, String)>,
    pub turns: String,
}

fn odds_view(s: &Summary, a: &str, d: &str) -> OddsView {
    OddsView {
        runs: s.runs,
        rows: shared::estimate_rows(&[
            (format!("{a} wins"), &s.attacker),
            ("Draw".to_string(), &s.draw),
            (format!("{d} wins"), &s.defender),
        ]),
        turns: format!("Battles last {:.1} turns on average.", s.mean_turns),
    }
}

/// Queues the odds of `runs` battles of `setup` as a background job.
async fn queue_odds(
    state: &AppState,
    owner: i64,
    setup: &BattleSetup,
    runs: u32,
) -> Result<JobStatus, AppError> {
    Ok(jobs::queue_odds(&state.app, owner, title(setup), odds_params(setup, runs)).await?)
}

pub async fn start_odds(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    CsrfForm(form): CsrfForm<FightForm>,
) -> Result<HttpResponse, AppError> {
    let setup = match build_setup(&state, &user, &form).await {
        Ok(setup) => setup,
        Err(e) => return or_form_again(&state, &user, ctx, form, String::new(), e).await,
    };
    let runs = form.runs();
    match queue_odds(&state, user.id, &setup, runs).await {
        Ok(job) => Ok(redirect(&format!("/atkm/fight/jobs/{}", job.id))),
        Err(e) => or_form_again(&state, &user, ctx, form, String::new(), e).await,
    }
}

/// Stops a background job of the user's and shows its page again.
pub async fn cancel_job(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    id: web::Path<String>,
    CsrfForm(_): CsrfForm<NoFields>,
) -> Result<HttpResponse, AppError> {
    shared::cancel_job(&state, &user, &id, "/atkm/fight").await
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
            .and_then(|v| serde_json::from_value::<Summary>(v).ok())
            .map(|s| odds_view(&s, &a, &d)),
        error: status.error.clone(),
    })
}

// ----- API -----

/// A set-up document, or two rosters with an optional seed and sample battle.
/// `runs` and `narrate` belong to the request, not to the set-up document it may be.
fn read_setup(cat: &Catalogue, body: &Value) -> Result<BattleSetup, AppError> {
    if body.get("format").is_some() {
        let mut doc = body.clone();
        if let Value::Object(map) = &mut doc {
            map.remove("runs");
            map.remove("narrate");
        }
        return read_setup_text(cat, &doc.to_string()).map_err(invalid);
    }
    let roster = |key: &str| -> Result<RosterDoc, AppError> {
        let v = body
            .get(key)
            .ok_or_else(|| invalid(format!("Give the {key}'s roster or a set-up document.")))?;
        let doc = parse_roster(&v.to_string())
            .and_then(|doc| check_roster_size(&doc).map(|_| doc))
            .map_err(|e| match e.path {
                Some(path) => invalid(format!("{key}.{path}: {}", e.message)),
                None => invalid(format!("{key}: {}", e.message)),
            })?;
        Ok(doc)
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
                .ok_or_else(|| invalid("scenario is a sample battle's id or \"open_battle\"."))?,
        ),
    };
    let (a, d) = (roster("attacker")?, roster("defender")?);
    let prepared = prepare(cat, a, d, scenario, false, seed).map_err(invalid)?;
    sim::start(cat, &prepared.setup).map_err(invalid)?;
    Ok(prepared.setup)
}

#[derive(Serialize)]
struct SimulateResponse {
    /// The set-up that was fought; post it again to replay the battle exactly.
    setup: BattleSetup,
    outcome: Outcome,
}

/// Fight an All the King's Men battle
///
/// Fights one battle: a `muster.atkm.battle/1` set-up document, or the short form
/// `{"attacker": roster, "defender": roster, "seed", "scenario"}` (without a seed one is drawn;
/// two sides of one sample battle fight that battle, with its own attacker and end). Returns
/// the set-up and the outcome with its narrated log (`"narrate": false` leaves the log out).
/// The same set-up always gives the same battle. Logged-in users only.
#[utoipa::path(tag = "all-the-kings-men", security(("bearer" = [])), request_body(content = Object, description = "A set-up document or the short form"), responses(
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
    let setup = read_setup(&state.app.rules.atkm, &body)?;
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
            sim::fight_with(&rules.atkm, &fought, &StandardPolicy, narrate)
        })
        .await?
        .map_err(invalid)?;
    Ok(HttpResponse::Ok().json(SimulateResponse { setup, outcome }))
}

/// All the King's Men battle odds
///
/// Fights the same set-up `runs` times (battle i with a seed derived from the set-up's seed and
/// i) and reports each side's wins and the draws with 95 % (Wilson) intervals and the average
/// length in turns. Up to 2 000 runs are answered at once; up to 100 000 run as a background
/// job (202 with a `status_url` to poll), one per user at a time.
#[utoipa::path(tag = "all-the-kings-men", security(("bearer" = [])), request_body(content = Object, description = "A set-up or the short form, plus `runs`"), responses(
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
    let setup = read_setup(&state.app.rules.atkm, &body)?;
    shared::odds_answer(
        &state,
        user.id,
        title(&setup),
        odds_params(&setup, runs),
        size(&setup),
        DIRECT_RUNS_MAX,
    )
    .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Systems;

    fn cowpens(seed: u64) -> (Systems, BattleSetup, Vec<String>) {
        let rules = Systems::builtin().expect("the built-in rules");
        let force = |id: &str| sample_force(&format!("sample:{id}")).expect("a sample force");
        let setup = set_up(
            &rules.atkm,
            force("cowpens_1781_americans"),
            force("cowpens_1781_british"),
            None,
            seed,
        )
        .expect("Cowpens sets up");
        let before = before_the_battle(&rules.atkm, &setup);
        (rules, setup, before)
    }

    /// The generic battle pages fight a stored set-up through `Systems::fight` (the
    /// "let the engine fight it" button): the same stored battle and seed, the same result.
    #[test]
    fn a_stored_battle_is_fought_by_the_engine_through_the_dispatch() {
        let (rules, setup, _) = cowpens(4);
        let stored = Atkm::write_setup(&setup);
        let first = rules.fight(SystemId::Atkm, &stored, 99).expect("fought");
        let again = rules.fight(SystemId::Atkm, &stored, 99).expect("fought");
        assert_eq!(first.result, again.result);
        assert!(first.result.contains("muster.atkm.result/1"));
        assert!(SystemId::Atkm.capabilities().is_some_and(|c| c.simulator));
    }

    /// Both sides of one sample battle fight it as the book sets it (K-41: Cowpens), the
    /// British attacking whichever was picked first; every narrated collapse is counted on its
    /// side, and a name both armies use is told apart by its side.
    #[test]
    fn a_sample_battle_keeps_its_attacker_and_its_log_counts_each_collapse() {
        let (rules, setup, before) = cowpens(4);
        assert_eq!(setup.scenario, "cowpens_1781");
        assert_eq!(setup.attacker.side.as_deref(), Some("british"));
        assert!(before.iter().any(|l| l.contains("Cowpens")), "{before:?}");
        let shared: Vec<_> = setup
            .attacker
            .roster
            .units
            .iter()
            .filter(|u| setup.defender.roster.units.iter().any(|d| d.name == u.name))
            .collect();
        assert!(shared.is_empty(), "no unit name on both sides");
        for seed in 0..20 {
            let mut s = setup.clone();
            s.seed = seed;
            let o = sim::fight(&rules.atkm, &s).expect("fought");
            let totals = lost_by_turn(&o).expect("every collapse is narrated on its side");
            assert_eq!(totals.len() as u32, o.turns_played);
            let (log, chart) = turn_log(&o, &before);
            assert!(chart.is_some());
            assert_eq!(log.turns.len() as u32, o.turns_played, "seed {seed}");
            assert!(!headline(&o).is_empty());
        }
    }

    /// Two armies of the same make-up share every unit name ("infantry 1"): each gets its
    /// side, the lines go to their sides and start with a capital, and every collapse counts.
    #[test]
    fn armies_with_the_same_names_are_told_apart() {
        use crate::rules::systems::atkm::montecarlo::ordinary_army;
        let rules = Systems::builtin().expect("the built-in rules");
        let setup = set_up(
            &rules.atkm,
            ordinary_army("A", 1),
            ordinary_army("B", 1),
            None,
            3,
        )
        .expect("sets up");
        assert_eq!(setup.attacker.roster.units[0].name, "infantry 1 (attacker)");
        assert_eq!(setup.defender.roster.units[0].name, "infantry 1 (defender)");
        let o = sim::fight(&rules.atkm, &setup).expect("fought");
        assert!(lost_by_turn(&o).is_some());
        let (log, _) = turn_log(&o, &[]);
        let lines: Vec<_> = log.turns.iter().flat_map(|t| t.lines.iter()).collect();
        assert!(lines
            .iter()
            .filter(|l| l.text.starts_with("Infantry 1 (attacker) fires"))
            .all(|l| l.side == Some(ATTACKER)));
        assert!(lines.iter().all(|l| !l.text.starts_with("the ")));
    }

    #[test]
    fn random_forces_come_from_the_seed_and_differ_by_side() {
        let cat = Catalogue::builtin().expect("the catalogue");
        let a = random_force(&cat, 5, 0, 11).expect("rolled");
        let b = random_force(&cat, 5, 1, 11).expect("rolled");
        assert_eq!(a, random_force(&cat, 5, 0, 11).expect("rolled"));
        assert_ne!(a.random, b.random, "each side rolls its own");
        assert_eq!(a.units.len(), 5);
    }

    #[test]
    fn a_line_goes_to_the_side_whose_unit_it_starts_with() {
        let (rules, setup, _) = cowpens(1);
        let o = sim::fight(&rules.atkm, &setup).expect("fought");
        let a = &o.attacker.units[0].name;
        let d = &o.defender.units[0].name;
        assert_eq!(
            side_of_line(&format!("{a} fires on {d}"), &o),
            Some(ATTACKER)
        );
        assert_eq!(
            side_of_line(&format!("Joker: {d} is thrown"), &o),
            Some(DEFENDER)
        );
        assert_eq!(side_of_line("the reinforcements arrive", &o), None);
        assert_eq!(
            turn_lines(&o).first().map(|l| l.0),
            Some(1),
            "the log starts in turn 1"
        );
    }
}
