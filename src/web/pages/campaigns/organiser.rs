//! The organiser's tools: arrange, void or simulate a battle, adjust points, replace a player.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use serde::Deserialize;

use crate::app;
use crate::app::campaigns::actions::{self as actions, Adjustment};
use crate::app::campaigns::{admin, load_for, Loaded};
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
    /// The webhook's host, when one is set; what was typed into its form.
    webhook: Option<String>,
    webhook_typed: String,
    /// Before the start: forces may be removed, the house rules edited, the campaign deleted.
    enlisting: bool,
    archived: bool,
    /// The public page's full address while it is on.
    public_url: Option<String>,
    /// Officers made by field promotion, to name: (force, commander, label, name now).
    officers: Vec<OfficerView>,
    /// What was typed into a refused removal (force, reason), kept for the form.
    remove_target: String,
    remove_reason: String,
    /// The turn deadline form (`deadlines`).
    deadline: super::deadlines::DeadlineForm,
}

/// A promoted officer the organiser may name.
pub struct OfficerView {
    pub force: String,
    pub commander: String,
    /// "Promoted officer no. 1 (Left), of Force 1 (Howe)".
    pub label: String,
    pub name: String,
}

#[allow(clippy::too_many_arguments)]
async fn organiser_page(
    state: &web::Data<AppState>,
    req: &HttpRequest,
    ctx: PageCtx,
    c: Loaded,
    errors: FormErrors,
    status: StatusCode,
    done: String,
    typed: &ToolForm,
) -> Result<HttpResponse, AppError> {
    organiser_page_typed(
        state,
        req,
        ctx,
        c,
        errors,
        status,
        done,
        typed,
        String::new(),
    )
    .await
}

/// The organiser's page with what was typed into a refused form given back: `typed` for the
/// tools, `webhook_typed` for the webhook's address.
#[allow(clippy::too_many_arguments)]
async fn organiser_page_typed(
    state: &web::Data<AppState>,
    req: &HttpRequest,
    ctx: PageCtx,
    c: Loaded,
    errors: FormErrors,
    status: StatusCode,
    done: String,
    typed: &ToolForm,
    webhook_typed: String,
) -> Result<HttpResponse, AppError> {
    let webhook = crate::app::notifications_campaign::webhook_host(&state.app, &c).await?;
    // A refused deadline form is given back as it was typed.
    let deadline = if typed.tool == "deadline" {
        super::deadlines::DeadlineForm::typed(
            &c,
            &typed.deadline_at,
            &typed.length_days,
            &typed.length_hours,
        )
    } else {
        super::deadlines::DeadlineForm::of(&c)
    };
    let voidable = crate::app::campaigns::voidable_battles(&state.app, &c).await?;
    let officers = app::campaigns::admin::promoted_officers(&state.app, &c)
        .await?
        .into_iter()
        .map(|o| {
            // A refused name is given back as it was typed.
            let name = if typed.tool == "rename"
                && typed.target == o.force
                && typed.commander == o.commander
            {
                typed.name.clone()
            } else {
                o.name.clone()
            };
            OfficerView {
                label: format!("{}, of {}", o.name, force_name(&c, &o.force)),
                force: o.force,
                commander: o.commander,
                name,
            }
        })
        .collect();
    let (remove_target, remove_reason) = if typed.tool == "remove" {
        (typed.target.clone(), typed.reason.clone())
    } else {
        (String::new(), String::new())
    };
    let public_url =
        crate::web::campaign_view::public_path(&c).map(|p| state.absolute_url(req, &p));
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
            webhook,
            webhook_typed,
            enlisting: c.state.phase == crate::rules::campaign::state::Phase::Enlisting,
            archived: c.state.archived,
            public_url,
            officers,
            remove_target,
            remove_reason,
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
    req: HttpRequest,
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
        "webhook" => "The webhook is saved.",
        "remove" => "The force is removed from the campaign; the log says why.",
        "rules" => "The campaign rules are changed; the log says which.",
        "rename" => "The officer has his name; the log and his history say so.",
        "archive" => "The campaign is archived: it is read-only and left out of lists until you unarchive it.",
        "unarchive" => "The campaign is unarchived: it is back in the lists and open to changes.",
        "public_on" => "The public page is on: anyone with its link can see the standings, the map and the finished battles.",
        "public_off" => "The public page is off: its link no longer works.",
        "deadline" => "The deadlines are saved; any change is in the log.",
        _ => "",
    };
    organiser_page(
        &state,
        &req,
        ctx,
        c,
        FormErrors::default(),
        StatusCode::OK,
        done.into(),
        &ToolForm::default(),
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
    /// `yes`: the organiser confirms deciding a battle without its players.
    pub confirm: String,
    /// A promoted officer to name: his force (`target`), his commander id and the name.
    pub commander: String,
    pub name: String,
    /// The house-rule switches ticked (`rule_<id>`; a form sends only those).
    #[serde(flatten)]
    pub ticks: std::collections::HashMap<String, String>,
    /// The turn deadline form: a UTC date and time, and the default length in days and hours.
    pub deadline_at: String,
    pub length_days: String,
    pub length_hours: String,
}

impl ToolForm {
    /// The house rules as the form's boxes are ticked.
    fn house_rules(&self) -> crate::rules::campaign::state::HouseRules {
        let mut rules = crate::rules::campaign::state::HouseRules::default();
        for (id, _, _) in crate::rules::campaign::state::HouseRules::default().switches() {
            rules.set(id, self.ticks.contains_key(&format!("rule_{id}")));
        }
        rules
    }
}

pub async fn organiser_action(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    req: HttpRequest,
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
        // The organiser decides without the players' consent: a confirmation and a reason for
        // the log, checked here too so that the page works without JavaScript's confirm.
        "simulate" if form.confirm != "yes" => Err(app::Error::bad_request(
            "Nothing was decided: tick the box to confirm that the engine decides this battle \
             without its players (its result is final at once).",
        )),
        "simulate" if form.reason.trim().is_empty() => Err(app::Error::bad_request(
            "Nothing was decided: say why you decide this battle without its players; the \
             reason goes into the campaign's log.",
        )),
        "simulate" => {
            let no = form.battle.parse::<u32>().unwrap_or(0);
            app::battles::simulate_campaign_battle(&state.app, &c, &user.actor(), no, &form.reason)
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
        "remove" => admin::remove_force(&state.app, &c, &user.actor(), &form.target, &form.reason)
            .await
            .map(|_| "remove"),
        "rules" => admin::set_rules(&state.app, &c, &user.actor(), form.house_rules())
            .await
            .map(|_| "rules"),
        "rename" => admin::rename_officer(
            &state.app,
            &c,
            &user.actor(),
            &form.target,
            &form.commander,
            &form.name,
        )
        .await
        .map(|_| "rename"),
        "archive" => admin::archive(&state.app, &c, &user.actor())
            .await
            .map(|_| "archive"),
        "unarchive" => admin::unarchive(&state.app, &c, &user.actor())
            .await
            .map(|_| "unarchive"),
        "public_on" => admin::public_on(&state.app, &c, &user.actor())
            .await
            .map(|_| "public_on"),
        "public_off" => admin::public_off(&state.app, &c, &user.actor())
            .await
            .map(|_| "public_off"),
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
            organiser_page(&state, &req, ctx, c, errors, status, String::new(), &form).await
        }
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct WebhookForm {
    /// An http(s) address; empty removes the webhook.
    pub url: String,
}

/// The organiser sets or removes the campaign's webhook (turn closings and finished battles
/// are posted to it, never orders).
pub async fn webhook(
    req: HttpRequest,
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
    CsrfForm(form): CsrfForm<WebhookForm>,
) -> Result<HttpResponse, AppError> {
    let id = id.into_inner();
    match crate::app::notifications_campaign::set_webhook(&state.app, &user.actor(), id, &form.url)
        .await
    {
        Ok(()) => Ok(redirect(&format!(
            "/campaigns/{id}/organiser?done=webhook#webhook"
        ))),
        Err(e) => {
            let (errors, status) = into_form_errors(e)?;
            let c = load_for(&state.app, &user.actor(), id).await?;
            organiser_page_typed(
                &state,
                &req,
                ctx,
                c,
                errors,
                status,
                String::new(),
                &ToolForm::default(),
                form.url,
            )
            .await
        }
    }
}
