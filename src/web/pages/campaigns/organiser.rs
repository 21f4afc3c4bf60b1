//! The organiser's tools: arrange, void or simulate a battle, adjust points, replace a player.

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use serde::Deserialize;

use crate::app;
use crate::app::campaigns::actions::{self as actions, Adjustment};
use crate::app::campaigns::{load_for, Loaded};
use crate::web::auth::csrf::CsrfForm;
use crate::web::auth::SignedIn;
use crate::web::page::SelectOption;
use crate::web::page::{redirect, render_with_status, FormErrors, PageCtx};
use crate::web::state::AppState;
use crate::web::AppError;

use super::show::force_name;
use super::{choice, into_form_errors};

pub struct ArrangeView {
    pub no: u32,
    pub label: String,
    pub attackers: Vec<SelectOption>,
    pub attacker: String,
    pub defenders: Vec<SelectOption>,
    pub defender: String,
    pub scenario: String,
}

#[derive(Template)]
#[template(path = "campaigns/organiser.html")]
struct OrganiserPage {
    ctx: PageCtx,
    id: i64,
    name: String,
    pending: Vec<ArrangeView>,
    scenarios: Vec<SelectOption>,
    battles: Vec<SelectOption>,
    forces: Vec<SelectOption>,
    sides: Vec<SelectOption>,
    rules: Vec<(&'static str, &'static str, bool)>,
    errors: FormErrors,
    done: String,
    /// The turn deadline form (`deadlines`).
    deadline: super::deadlines::DeadlineForm,
}

#[allow(clippy::too_many_arguments)]
async fn organiser_page(
    state: &web::Data<AppState>,
    ctx: PageCtx,
    c: Loaded,
    errors: FormErrors,
    status: StatusCode,
    done: String,
    deadline: Option<super::deadlines::DeadlineForm>,
) -> Result<HttpResponse, AppError> {
    let deadline = deadline.unwrap_or_else(|| super::deadlines::DeadlineForm::of(&c));
    let voidable = crate::app::campaigns::voidable_battles(&state.app, &c).await?;
    let st = &c.state;
    let label = |f: &String| choice(f.clone(), force_name(&c, f));
    render_with_status(
        &OrganiserPage {
            id: c.id(),
            name: c.row.name.clone(),
            pending: st
                .pending_battles()
                .map(|b| ArrangeView {
                    no: b.no,
                    label: format!("Battle {} at {}", b.no, b.name),
                    attackers: std::iter::once(&b.attacker)
                        .chain(&b.attacker_support)
                        .map(label)
                        .collect(),
                    attacker: b.attacker.clone(),
                    defenders: std::iter::once(&b.defender)
                        .chain(&b.defender_support)
                        .map(label)
                        .collect(),
                    defender: b.defender.clone(),
                    scenario: b.scenario.clone(),
                })
                .collect(),
            scenarios: crate::web::campaign_view::system_of(state, &c)?
                .scenarios()
                .into_iter()
                .map(|s| choice(s.value, s.label))
                .collect(),
            // Only what the void action accepts (M-94).
            battles: voidable
                .iter()
                .filter_map(|no| st.battle(*no))
                .map(|b| {
                    choice(
                        b.no.to_string(),
                        format!(
                            "Battle {} at {}, turn {}: {}",
                            b.no,
                            b.name,
                            b.turn,
                            crate::web::campaign_view::battle_words(&c, b)
                        ),
                    )
                })
                .collect(),
            forces: st
                .forces
                .values()
                .map(|f| choice(f.id.clone(), format!("{} ({})", f.roster.name(), f.player)))
                .collect(),
            sides: (0..2u8)
                .map(|s| choice(s.to_string(), st.side_name(s)))
                .collect(),
            rules: {
                let system = crate::web::campaign_view::system_of(state, &c)?;
                st.rules()
                    .switches()
                    .into_iter()
                    .filter_map(|(id, label, on)| {
                        system.switch_label(id, label).map(|l| (id, l, on))
                    })
                    .collect()
            },
            errors,
            done,
            deadline,
            ctx,
        },
        status,
    )
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct DoneQuery {
    pub done: String,
}

pub async fn organiser(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
    query: web::Query<DoneQuery>,
) -> Result<HttpResponse, AppError> {
    let c = load_for(&state.app, &user.actor(), id.into_inner()).await?;
    crate::app::campaigns::require_organiser(&c)?;
    let done = match query.done.as_str() {
        "void" => "The battle is void and set up again; its players fight or record it anew.",
        "adjust" => "The adjustment is made and logged.",
        "replace" => "The force has its new player.",
        "arrange" => "The battle is set up again as you chose.",
        "simulate" => "The simulator has fought the battle; its result is in the log.",
        "deadline" => "The deadlines are saved; any change is in the log.",
        _ => "",
    };
    organiser_page(
        &state,
        ctx,
        c,
        FormErrors::default(),
        StatusCode::OK,
        done.into(),
        None,
    )
    .await
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ToolForm {
    /// `void`, `adjust` or `replace`.
    pub tool: String,
    pub battle: String,
    pub reason: String,
    /// `f:<force>` or `s:<side>` for an adjustment; a force id to replace.
    pub target: String,
    pub points: String,
    pub bank: String,
    pub email: String,
    pub attacker: String,
    pub defender: String,
    pub scenario: String,
    /// The turn deadline form: a UTC date and time, and the default length in days and hours.
    pub deadline_at: String,
    pub length_days: String,
    pub length_hours: String,
}

pub async fn organiser_action(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
    CsrfForm(form): CsrfForm<ToolForm>,
) -> Result<HttpResponse, AppError> {
    let id = id.into_inner();
    let c = load_for(&state.app, &user.actor(), id).await?;
    crate::app::campaigns::require_organiser(&c)?;
    // Blank is none; a number too large for the field is still too large, not none.
    let int = |s: &str| match s.trim() {
        "" => 0,
        t => t.parse::<i32>().unwrap_or(i32::MAX),
    };
    let done = match form.tool.as_str() {
        "void" => {
            let no = form.battle.parse::<u32>().unwrap_or(0);
            actions::void(&state.app, &c, &user.actor(), no, &form.reason)
                .await
                .map(|_| "void")
        }
        "adjust" => {
            let (force, side) = match form.target.split_once(':') {
                Some(("f", f)) => (Some(f.to_string()), None),
                Some(("s", s)) => (None, s.parse::<u8>().ok()),
                _ => (None, None),
            };
            actions::adjust(
                &state.app,
                &c,
                &user.actor(),
                Adjustment {
                    force,
                    side,
                    points: int(&form.points),
                    bank: int(&form.bank),
                    reason: form.reason.clone(),
                },
            )
            .await
            .map(|_| "adjust")
        }
        "simulate" => {
            let no = form.battle.parse::<u32>().unwrap_or(0);
            app::battles::simulate_campaign_battle(&state.app, &c, &user.actor(), no)
                .await
                .map(|_| "simulate")
        }
        "arrange" => {
            let no = form.battle.parse::<u32>().unwrap_or(0);
            actions::rearrange(
                &state.app,
                &c,
                &user.actor(),
                no,
                actions::Arrangement {
                    attacker: Some(form.attacker.clone()),
                    defender: Some(form.defender.clone()),
                    scenario: Some(form.scenario.clone()),
                },
            )
            .await
            .map(|_| "arrange")
        }
        "replace" => {
            actions::replace_player(&state.app, &c, &user.actor(), &form.target, &form.email)
                .await
                .map(|_| "replace")
        }
        "deadline" => {
            match super::deadlines::parse(&form.deadline_at, &form.length_days, &form.length_hours)
            {
                Ok(input) => app::campaigns::deadlines::set(&state.app, &c, &user.actor(), input)
                    .await
                    .map(|_| "deadline"),
                Err(e) => Err(e),
            }
        }
        _ => Err(app::Error::bad_request("Choose a tool.")),
    };
    match done {
        Ok(key) => Ok(redirect(&format!("/campaigns/{id}/organiser?done={key}"))),
        Err(e) => {
            let (errors, status) = into_form_errors(e)?;
            let c = load_for(&state.app, &user.actor(), id).await?;
            let typed = (form.tool == "deadline").then(|| {
                super::deadlines::DeadlineForm::typed(
                    &c,
                    &form.deadline_at,
                    &form.length_days,
                    &form.length_hours,
                )
            });
            organiser_page(&state, ctx, c, errors, status, String::new(), typed).await
        }
    }
}
