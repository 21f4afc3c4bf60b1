//! Campaign administration pages: a player changes or withdraws their force before the start,
//! the organiser confirms deleting a campaign that has not started, and the public read-only
//! page anyone with its link may see.

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use serde::Deserialize;

use crate::app::campaigns::{admin, load_for, require_organiser, Loaded};
use crate::rules::campaign::standings::{standings, Standings};
use crate::rules::campaign::state::Phase;
use crate::web::auth::csrf::{CsrfForm, NoFields};
use crate::web::auth::SignedIn;
use crate::web::campaign_view::{battle_words, finished_battles, svg_map, SvgMap};
use crate::web::page::{redirect, render_with_status, FormErrors, PageCtx, SelectOption};
use crate::web::state::AppState;
use crate::web::AppError;

use super::list::{is_allegiance_warning, phase_label};
use super::standings::outcome_line;
use super::{choice, into_form_errors};

#[derive(Template)]
#[template(path = "campaigns/enlistment.html")]
struct EnlistmentPage {
    ctx: PageCtx,
    id: i64,
    name: String,
    force: String,
    roster: String,
    side: String,
    open: bool,
    rosters: Vec<SelectOption>,
    chosen: String,
    warned: bool,
    errors: FormErrors,
}

#[allow(clippy::too_many_arguments)]
async fn enlistment_page(
    state: &web::Data<AppState>,
    ctx: PageCtx,
    c: &Loaded,
    force: &str,
    errors: FormErrors,
    status: StatusCode,
    chosen: String,
    warned: bool,
) -> Result<HttpResponse, AppError> {
    crate::app::campaigns::require_own_force(c, force)?;
    let f = c.state.forces.get(force).ok_or(AppError::NotFound)?;
    let war = c.state.settings().map(|s| s.war.clone());
    let user = ctx.user.as_ref().ok_or(AppError::NotFound)?.actor();
    let rosters = crate::app::rosters::list(&state.app, &user, war)
        .await?
        .into_iter()
        .filter(|r| r.rule_system == c.row.rule_system)
        .map(|r| {
            let legal = if r.legal { "" } else { " (not legal yet)" };
            choice(r.id.to_string(), format!("{}{legal}", r.name))
        })
        .collect();
    render_with_status(
        &EnlistmentPage {
            id: c.id(),
            name: c.row.name.clone(),
            force: force.to_string(),
            roster: f.roster.name(),
            side: c.state.side_name(f.side).to_string(),
            open: c.state.phase == Phase::Enlisting && !c.state.archived,
            rosters,
            chosen,
            warned,
            errors,
            ctx,
        },
        status,
    )
}

/// The player's page to change or withdraw their force before the start.
pub async fn enlistment(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    path: web::Path<(i64, String)>,
) -> Result<HttpResponse, AppError> {
    let (id, force) = path.into_inner();
    let c = load_for(&state.app, &user.actor(), id).await?;
    enlistment_page(
        &state,
        ctx,
        &c,
        &force,
        FormErrors::default(),
        StatusCode::OK,
        String::new(),
        false,
    )
    .await
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ChangeForm {
    pub roster: String,
    /// "yes" when the player enlists over the allegiance warning (M-104).
    pub accept_warning: String,
}

pub async fn change_force(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    path: web::Path<(i64, String)>,
    CsrfForm(form): CsrfForm<ChangeForm>,
) -> Result<HttpResponse, AppError> {
    let (id, force) = path.into_inner();
    let c = load_for(&state.app, &user.actor(), id).await?;
    let roster = form.roster.parse::<i64>().unwrap_or(0);
    let accept = form.accept_warning == "yes";
    match admin::change_force(&state.app, &c, &user.actor(), &force, roster, accept).await {
        Ok(_) => Ok(redirect(&format!("/campaigns/{id}?done=changed"))),
        Err(e) => {
            let warned = is_allegiance_warning(&e);
            let (errors, status) = into_form_errors(e)?;
            let c = load_for(&state.app, &user.actor(), id).await?;
            enlistment_page(&state, ctx, &c, &force, errors, status, form.roster, warned).await
        }
    }
}

pub async fn withdraw(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    path: web::Path<(i64, String)>,
    CsrfForm(_): CsrfForm<NoFields>,
) -> Result<HttpResponse, AppError> {
    let (id, force) = path.into_inner();
    let c = load_for(&state.app, &user.actor(), id).await?;
    match admin::withdraw(&state.app, &c, &user.actor(), &force).await {
        Ok(_) => Ok(redirect(&format!("/campaigns/{id}?done=withdrawn"))),
        Err(e) => {
            let (errors, status) = into_form_errors(e)?;
            let c = load_for(&state.app, &user.actor(), id).await?;
            enlistment_page(
                &state,
                ctx,
                &c,
                &force,
                errors,
                status,
                String::new(),
                false,
            )
            .await
        }
    }
}

#[derive(Template)]
#[template(path = "campaigns/delete.html")]
struct DeletePage {
    ctx: PageCtx,
    id: i64,
    name: String,
    forces: usize,
    /// Why it cannot be deleted, when it cannot.
    refused: String,
    errors: FormErrors,
}

fn delete_page(
    ctx: PageCtx,
    c: &Loaded,
    errors: FormErrors,
    status: StatusCode,
) -> Result<HttpResponse, AppError> {
    let refused = crate::rules::campaign::admin::may_delete(&c.state)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    render_with_status(
        &DeletePage {
            id: c.id(),
            name: c.row.name.clone(),
            forces: c.state.forces.len(),
            refused,
            errors,
            ctx,
        },
        status,
    )
}

/// The confirmation step before a campaign is deleted (organiser only).
pub async fn delete_confirm(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let c = load_for(&state.app, &user.actor(), id.into_inner()).await?;
    require_organiser(&c)?;
    delete_page(ctx, &c, FormErrors::default(), StatusCode::OK)
}

pub async fn delete(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
    CsrfForm(_): CsrfForm<NoFields>,
) -> Result<HttpResponse, AppError> {
    let id = id.into_inner();
    let c = load_for(&state.app, &user.actor(), id).await?;
    match admin::delete(&state.app, &c, &user.actor()).await {
        Ok(()) => Ok(redirect("/campaigns")),
        Err(e) => {
            let (errors, status) = into_form_errors(e)?;
            let c = load_for(&state.app, &user.actor(), id).await?;
            delete_page(ctx, &c, errors, status)
        }
    }
}

pub struct PublicBattle {
    pub no: u32,
    pub turn: u32,
    pub name: String,
    pub attacker: String,
    pub defender: String,
    pub result: String,
}

#[derive(Template)]
#[template(path = "campaigns/public.html")]
struct PublicPage {
    ctx: PageCtx,
    c: Loaded,
    phase: &'static str,
    legend: (String, String),
    sides: Vec<String>,
    turns: u32,
    map: SvgMap,
    s: Standings,
    outcome: String,
    battles: Vec<PublicBattle>,
}

/// The public read-only page: anyone with the link, logged in or not. Built from the campaign
/// read as nobody (no force, not the organiser): no orders, rosters or log.
pub async fn public(
    state: web::Data<AppState>,
    ctx: PageCtx,
    token: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    let c = admin::public_view(&state.app, token.into_inner()).await?;
    let st = &c.state;
    let settings = st.settings().ok_or(AppError::NotFound)?;
    let s = standings(st);
    let label = |id: &str| crate::rules::campaign::words::force_label(st, id);
    let page = PublicPage {
        phase: phase_label(crate::app::campaigns::phase_id(st.phase)),
        legend: (
            settings.sides[0].name.clone(),
            settings.sides[1].name.clone(),
        ),
        sides: settings.sides.iter().map(|x| x.name.clone()).collect(),
        turns: settings.turns,
        // Battle marks link to battle records, which are for their players: the list below
        // names the finished ones instead.
        map: {
            let mut map = svg_map(&c);
            map.battles.clear();
            map
        },
        outcome: outcome_line(&s, st.ended.is_some()),
        battles: finished_battles(st)
            .map(|b| PublicBattle {
                no: b.no,
                turn: b.turn,
                name: b.name.clone(),
                attacker: label(&b.attacker),
                defender: label(&b.defender),
                result: battle_words(&c, b),
            })
            .collect(),
        s,
        ctx,
        c: c.clone(),
    };
    render_with_status(&page, StatusCode::OK)
}
