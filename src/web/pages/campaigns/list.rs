//! The campaign list, the new-campaign form, and joining by link or code.

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use serde::Deserialize;

use crate::app::campaigns::actions::{self as actions, NewCampaignInput};
use crate::rules::campaign::presets::presets;
use crate::rules::campaign::state::{HouseRules, Phase};
use crate::store::campaigns::{ListingOrder, ListingQuery};
use crate::web::auth::csrf::CsrfForm;
use crate::web::auth::{SignedIn, SignedInUser};
use crate::web::listing::{ListCut, ListParams, Pager};
use crate::web::page::SelectOption;
use crate::web::page::{redirect, render_with_status, FormErrors, PageCtx};
use crate::web::state::AppState;
use crate::web::AppError;

use super::{choice, into_form_errors};

pub struct CampaignLine {
    pub id: i64,
    pub name: String,
    pub phase: String,
    pub turn: i32,
    pub organiser: bool,
    /// The day it was started.
    pub started: String,
    /// When the open turn's orders are due, in words; blank without a deadline.
    pub deadline: String,
}

pub struct PresetView {
    pub id: &'static str,
    pub title: &'static str,
    pub blurb: &'static str,
    pub places: usize,
}

#[derive(Template)]
#[template(path = "campaigns/list.html")]
struct ListPage {
    ctx: PageCtx,
    campaigns: Vec<CampaignLine>,
    /// The search box's text.
    search: String,
    /// `newest` or `name`.
    sort: &'static str,
    /// The sort headers' links, in that order (value: the link; label: the sort).
    sort_links: Vec<SelectOption>,
    pager: Pager,
    /// The list in the same order without the search.
    show_all: String,
    /// Where the new-campaign form posts: the list's search, order and page kept for a form
    /// that comes back with errors.
    create_action: String,
    /// The rule systems whose campaigns this build runs.
    systems: Vec<SelectOption>,
    /// The chosen system's battle sizes: the field's bounds and its label's unit.
    size: crate::rules::campaign::forces_api::BattleSize,
    presets: Vec<PresetView>,
    wars: Vec<SelectOption>,
    scenarios: Vec<SelectOption>,
    switches: Vec<(&'static str, &'static str, bool)>,
    form: NewForm,
    errors: FormErrors,
    /// The list shows the archived campaigns (`?archived=1`).
    archived: bool,
    /// The join box: the code as typed and why it found nothing, when it did not.
    join: JoinBox,
}

/// The list page's two forms as they come back: the new campaign's, with its errors, and the
/// join box.
#[derive(Debug, Default)]
struct ListForms {
    form: NewForm,
    errors: FormErrors,
    join: JoinBox,
    /// The list shows the archived campaigns instead of the others.
    archived: bool,
}

/// The "join with a code" box, given back with the code when the code is wrong.
#[derive(Debug, Default)]
pub struct JoinBox {
    pub code: String,
    pub error: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(default)]
pub struct NewForm {
    pub system: String,
    pub name: String,
    pub map: String,
    pub war: String,
    pub points: String,
    pub turns: String,
    pub side_a: String,
    pub side_b: String,
    pub scenario: String,
    /// Switches that are ticked (a form sends only those).
    #[serde(flatten)]
    pub ticks: std::collections::HashMap<String, String>,
}

impl Default for NewForm {
    fn default() -> Self {
        NewForm {
            system: crate::rules::SystemId::Lotf.id().into(),
            name: String::new(),
            map: "philadelphia-1777".into(),
            war: "american_revolution".into(),
            points: "200".into(),
            turns: "8".into(),
            side_a: String::new(),
            side_b: String::new(),
            scenario: String::new(),
            ticks: HouseRules::default()
                .switches()
                .iter()
                .map(|(id, _, _)| (format!("rule_{id}"), "on".to_string()))
                .collect(),
        }
    }
}

impl NewForm {
    pub fn ticked(&self, id: &str) -> bool {
        self.ticks.contains_key(&format!("rule_{id}"))
    }
}

pub fn phase_label(p: &str) -> &'static str {
    match p {
        "enlisting" => "Enlisting",
        "orders" => "Orders open",
        "battles" => "Battles to fight",
        "ended" => "Ended",
        _ => "?",
    }
}

/// Campaigns on one page of the list.
const CAMPAIGNS_PER_PAGE: i64 = 50;

/// The campaign list's sorts, its own order first.
const SORTS: [&str; 2] = ["newest", "name"];

fn listing_order(cut: &ListCut) -> ListingOrder {
    match cut.sort {
        "name" => ListingOrder::Name,
        _ => ListingOrder::Newest,
    }
}

async fn list_page(
    state: &web::Data<AppState>,
    user: &SignedInUser,
    ctx: PageCtx,
    cut: ListCut,
    forms: ListForms,
    status: StatusCode,
) -> Result<HttpResponse, AppError> {
    let ListForms {
        form,
        errors,
        join,
        archived,
    } = forms;
    let uid = user.id;
    let shelf = if archived { "1" } else { "" };
    let (rows, total) = crate::app::campaigns::listing(
        &state.app,
        &user.actor(),
        ListingQuery {
            search: cut.search(),
            order: listing_order(&cut),
            page: cut.page - 1,
            per_page: CAMPAIGNS_PER_PAGE,
        },
        archived,
    )
    .await?;
    let deadlines =
        crate::app::deadlines::scheduled(&state.app, rows.iter().map(|r| r.id).collect()).await?;
    // The list's links keep the system the form below is for, unless it is the one offered
    // anyway.
    let system = if form.system == NewForm::default().system {
        String::new()
    } else {
        form.system.clone()
    };
    let href = |sort: &str, page: i64| {
        cut.link(
            "/campaigns",
            &[("system", &system), ("archived", shelf)],
            sort,
            page,
        )
    };
    let sort_links = crate::web::listing::sort_options(&SORTS, href);
    let pager = Pager::new(&cut, CAMPAIGNS_PER_PAGE, total, |page| href(cut.sort, page));
    let show_all = ListCut::first_page(&SORTS).link(
        "/campaigns",
        &[("system", &system), ("archived", shelf)],
        cut.sort,
        1,
    );
    // The choices of the system the form names, or of the first this build serves.
    let system = crate::rules::SystemId::from_id(&form.system)
        .into_iter()
        .chain(crate::rules::SystemId::served())
        .find_map(|s| state.app.rules.forces(s))
        .ok_or_else(|| AppError::internal("no rule system runs campaigns"))?;
    // A system with one scenario has nothing to roll for.
    let mut scenarios = if system.scenarios().len() > 1 {
        vec![choice("", "Roll on the scenario table for each battle")]
    } else {
        Vec::new()
    };
    scenarios.extend(
        system
            .scenarios()
            .into_iter()
            .map(|s| choice(s.value, s.label)),
    );
    render_with_status(
        &ListPage {
            ctx,
            campaigns: rows
                .iter()
                .map(|r| CampaignLine {
                    id: r.id,
                    name: r.name.clone(),
                    phase: phase_label(&r.phase).into(),
                    turn: r.turn,
                    organiser: r.organiser_id == uid,
                    started: r.created_at.format("%Y-%m-%d").to_string(),
                    deadline: deadlines
                        .get(&r.id)
                        .map(|t| crate::rules::campaign::deadlines::when(t.and_utc().timestamp()))
                        .unwrap_or_default(),
                })
                .collect(),
            search: cut.search.clone(),
            sort: cut.sort,
            sort_links,
            pager,
            show_all,
            create_action: cut.link("/campaigns", &[], cut.sort, cut.page),
            size: system.battle_size(),
            systems: crate::rules::SystemId::served()
                .filter(|s| s.capabilities().is_some_and(|c| c.campaigns))
                .map(|s| SelectOption {
                    value: s.id().to_string(),
                    label: s.label().to_string(),
                })
                .collect(),
            presets: presets()
                .into_iter()
                .map(|p| PresetView {
                    id: p.id,
                    title: p.title,
                    blurb: p.blurb,
                    places: p.map.places.len(),
                })
                .collect(),
            wars: system
                .wars()
                .into_iter()
                .map(|w| choice(w.value, w.label))
                .collect(),
            scenarios,
            switches: HouseRules::default()
                .switches()
                .into_iter()
                .filter_map(|(id, label, on)| system.switch_label(id, label).map(|l| (id, l, on)))
                .collect(),
            form,
            errors,
            join,
            archived,
        },
        status,
    )
}

/// The list's search, order and page, and the rule system the new-campaign form is for.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ListQuery {
    pub system: String,
    /// `1`: the archived campaigns instead of the others.
    pub archived: String,
    /// The search (part of a campaign's name), the sort (`newest` or `name`) and the page.
    #[serde(flatten)]
    pub list: ListParams,
}

pub async fn list(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    query: web::Query<ListQuery>,
) -> Result<HttpResponse, AppError> {
    let mut form = NewForm::default();
    if let Some(system) = crate::rules::SystemId::from_id(&query.system)
        .filter(|s| s.capabilities().is_some_and(|c| c.campaigns))
    {
        form.system = system.id().to_string();
        // A size in the system's own measure: the middle of its range, in round numbers.
        if let Some(rules) = state.app.rules.forces(system) {
            let size = rules.battle_size();
            if size.max < 200 {
                form.points = (size.min.max(8)).to_string();
            }
        }
    }
    list_page(
        &state,
        &user,
        ctx,
        query.list.cut(&SORTS),
        ListForms {
            form,
            archived: query.archived == "1",
            ..ListForms::default()
        },
        StatusCode::OK,
    )
    .await
}

pub async fn create(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    query: web::Query<ListQuery>,
    CsrfForm(form): CsrfForm<NewForm>,
) -> Result<HttpResponse, AppError> {
    let mut rules = HouseRules::default();
    for (id, _, _) in HouseRules::default().switches() {
        rules.set(id, form.ticked(id));
    }
    let number = |s: &str| s.trim().parse::<u32>().unwrap_or(0);
    let input = NewCampaignInput {
        system: form.system.clone(),
        name: form.name.clone(),
        map: form.map.clone(),
        war: form.war.clone(),
        points: number(&form.points),
        turns: number(&form.turns),
        sides: [form.side_a.clone(), form.side_b.clone()],
        rules,
        scenario: Some(form.scenario.clone()),
    };
    match actions::create(&state.app, &user.actor(), input).await {
        Ok(row) => Ok(redirect(&format!("/campaigns/{}", row.id))),
        Err(e) => {
            let (errors, status) = into_form_errors(e)?;
            // Sent back with the list as it was when the form was sent.
            list_page(
                &state,
                &user,
                ctx,
                query.list.cut(&SORTS),
                ListForms {
                    form,
                    errors,
                    join: JoinBox::default(),
                    archived: false,
                },
                status,
            )
            .await
        }
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct CodeForm {
    pub code: String,
}

/// The "join with a code" box sends the code here; the join page lives at its own address.
pub async fn join_code(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    CsrfForm(form): CsrfForm<CodeForm>,
) -> Result<HttpResponse, AppError> {
    let code: String = form
        .code
        .trim()
        .to_uppercase()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect();
    match crate::app::campaigns::by_code(&state.app, &code).await {
        Ok(_) => Ok(redirect(&format!("/campaigns/join/{code}"))),
        // A mistyped code gives the list back with the code as typed and what to do (issue 18:
        // it used to be a bare "not found" page).
        Err(crate::app::Error::NotFound) => {
            let typed = form.code.trim().chars().take(40).collect::<String>();
            let error = if code.is_empty() {
                "Type the invite code your organiser gave you.".to_string()
            } else {
                format!(
                    "No campaign has the invite code “{typed}”. Check it with your organiser: \
                     letters and digits, in any case."
                )
            };
            list_page(
                &state,
                &user,
                ctx,
                ListParams::default().cut(&SORTS),
                ListForms {
                    join: JoinBox {
                        code: typed,
                        error: Some(error),
                    },
                    ..ListForms::default()
                },
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await
        }
        Err(e) => Err(e.into()),
    }
}

#[derive(Template)]
#[template(path = "campaigns/join.html")]
struct JoinPage {
    ctx: PageCtx,
    code: String,
    id: i64,
    name: String,
    war: String,
    points: u32,
    size: String,
    size_unit: &'static str,
    /// Commanders' ratings are rolled on enlisting.
    rated: bool,
    turns: u32,
    sides: Vec<SelectOption>,
    rosters: Vec<SelectOption>,
    already: bool,
    open: bool,
    over: bool,
    errors: FormErrors,
    /// What was chosen, kept when the enlistment is refused.
    chosen: JoinForm,
    /// The roster's nation did not fight for the side (M-104): offer to enlist it anyway.
    warned: bool,
}

#[allow(clippy::too_many_arguments)]
async fn join_page(
    state: &web::Data<AppState>,
    user: &SignedInUser,
    ctx: PageCtx,
    code: &str,
    errors: FormErrors,
    status: StatusCode,
    chosen: JoinForm,
    warned: bool,
) -> Result<HttpResponse, AppError> {
    let (row, st) = crate::app::campaigns::by_code(&state.app, code).await?;
    let settings = st.settings().ok_or(AppError::NotFound)?.clone();
    // Only rosters of the campaign's rule system and war can enlist.
    let rosters: Vec<_> =
        crate::app::rosters::list(&state.app, &user.actor(), Some(settings.war.clone()))
            .await?
            .into_iter()
            .filter(|r| r.rule_system == row.rule_system)
            .collect();
    let forces = crate::app::campaigns::system_of(&state.app.rules, &row)?;
    let size = forces.battle_size();
    let war = forces
        .wars()
        .into_iter()
        .find(|w| w.value == settings.war)
        .map_or(settings.war.clone(), |w| w.label);
    render_with_status(
        &JoinPage {
            ctx,
            code: row.invite_code.clone(),
            id: row.id,
            name: row.name.clone(),
            war,
            points: settings.points,
            size: size.battles(settings.points),
            size_unit: size.unit,
            rated: forces.rated_commanders(),
            turns: settings.turns,
            sides: settings
                .sides
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    let n = st
                        .forces
                        .values()
                        .filter(|f| usize::from(f.side) == i)
                        .count();
                    let players = match n {
                        0 => "no one yet".to_string(),
                        1 => "1 player so far".to_string(),
                        n => format!("{n} players so far"),
                    };
                    choice(i.to_string(), format!("{} ({players})", s.name))
                })
                .collect(),
            rosters: rosters
                .iter()
                .map(|r| {
                    choice(r.id.to_string(), {
                        let priced = crate::rules::SystemId::from_id(&r.rule_system)
                            .and_then(|s| s.capabilities())
                            .is_some_and(|c| c.points);
                        let size = if priced {
                            format!("{} points", r.points)
                        } else {
                            String::new()
                        };
                        let legal = if r.legal { "" } else { "not legal yet" };
                        let said: Vec<&str> = [size.as_str(), legal]
                            .into_iter()
                            .filter(|s| !s.is_empty())
                            .collect();
                        if said.is_empty() {
                            r.name.clone()
                        } else {
                            format!("{} ({})", r.name, said.join(", "))
                        }
                    })
                })
                .collect(),
            already: st.force_of_user(user.id).is_some(),
            open: st.phase == Phase::Enlisting,
            over: st.phase == Phase::Ended,
            errors,
            chosen,
            warned,
        },
        status,
    )
}

pub async fn join_show(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    code: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    join_page(
        &state,
        &user,
        ctx,
        &code,
        FormErrors::default(),
        StatusCode::OK,
        JoinForm::default(),
        false,
    )
    .await
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct JoinForm {
    pub side: String,
    pub roster: String,
    /// "yes" when the player enlists over the allegiance warning (M-104).
    pub accept_warning: String,
}

/// Whether an enlistment was refused for the allegiance warning alone (M-104), so the form
/// offers to enlist anyway.
pub(super) fn is_allegiance_warning(e: &crate::app::Error) -> bool {
    matches!(e, crate::app::Error::Validation { details, .. }
        if details.iter().any(|d| d.field.as_deref() == Some("accept_warning")))
}

pub async fn join(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    code: web::Path<String>,
    CsrfForm(form): CsrfForm<JoinForm>,
) -> Result<HttpResponse, AppError> {
    let side = form.side.parse::<u8>().unwrap_or(9);
    let roster = form.roster.parse::<i64>().unwrap_or(0);
    let accept = form.accept_warning == "yes";
    match actions::join(&state.app, &user.actor(), &code, side, roster, accept).await {
        Ok((id, _)) => Ok(redirect(&format!("/campaigns/{id}"))),
        Err(e) => {
            let warned = is_allegiance_warning(&e);
            let (errors, status) = into_form_errors(e)?;
            join_page(&state, &user, ctx, &code, errors, status, form, warned).await
        }
    }
}
