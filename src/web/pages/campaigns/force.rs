//! A force as it stands: its elements and commanders with their history, reinforcements, and
//! its printouts.

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use serde::Deserialize;

use crate::app::campaigns::actions::{self as actions, Purchase};
use crate::app::campaigns::{load_for, Loaded};
use crate::rules::campaign::forces::{
    element_options, element_words, force_problems, group_label, restore_options, upgrade_options,
};
use crate::rules::campaign::forces_api::Purchase as Offered;
use crate::rules::campaign::state::Phase;
use crate::rules::campaign::ForceRules;
use crate::web::auth::csrf::CsrfForm;
use crate::web::auth::SignedIn;
use crate::web::page::SelectOption;
use crate::web::page::{redirect, render_with_status, FormErrors, PageCtx};
use crate::web::state::AppState;
use crate::web::AppError;

use super::{choice, into_form_errors, notice_for, Done};

pub struct ElementLine {
    pub name: String,
    pub kind: String,
    pub size: String,
    pub full: String,
    pub reduced: bool,
    pub upgrades: String,
    pub points: Option<u32>,
    pub history: Vec<String>,
}

pub struct GroupView {
    pub id: String,
    pub name: String,
    pub commander: String,
    pub rating: String,
    pub commander_history: Vec<String>,
    pub elements: Vec<ElementLine>,
}

pub struct LostLine {
    pub history: Vec<String>,
}

#[derive(Template)]
#[template(path = "campaigns/force.html")]
struct ForcePage {
    ctx: PageCtx,
    campaign_id: i64,
    campaign_name: String,
    force_id: String,
    name: String,
    player: String,
    side: String,
    place: String,
    bank: u32,
    points: u32,
    limit: u32,
    /// "150 of 200 points", or the units against the battle size for a system without points.
    size_line: String,
    /// Whether the force can buy anything (a system with points).
    buys: bool,
    room: u32,
    out: String,
    /// What the system calls a force's parts.
    words: crate::rules::campaign::forces_api::ForceWords,
    /// Commanders carry a rating to show.
    rated: bool,
    fc_name: String,
    fc_rating: String,
    fc_history: Vec<String>,
    notice: &'static str,
    /// What becomes of the bank as the campaign ends (M-97); empty at other times.
    bank_note: String,
    groups: Vec<GroupView>,
    lost: Vec<LostLine>,
    mine: bool,
    running: bool,
    reduced_choices: Vec<SelectOption>,
    group_choices: Vec<SelectOption>,
    /// What makes the force illegal as it stands (empty: legal), as its printout says too.
    problems: Vec<String>,
    /// Upgrades some element can buy now, as `element|upgrade` with the price in words.
    upgrade_choices: Vec<SelectOption>,
    /// New elements the force can raise now, as `type|size` with the price in words.
    raise_choices: Vec<SelectOption>,
    /// Every element, for the reorganisation form (M-102), labelled with its group.
    move_choices: Vec<SelectOption>,
    /// What the reorganisation form had chosen, kept when a move is refused.
    moving: MoveForm,
    errors: FormErrors,
}

fn rating_words(system: &dyn ForceRules, roll: Option<&u8>) -> String {
    roll.and_then(|r| {
        system
            .rating_words(*r)
            .map(|band| format!("{band} (rolled {r})"))
    })
    .unwrap_or_else(|| "not rolled".into())
}

#[allow(clippy::too_many_arguments)]
async fn force_page(
    state: &web::Data<AppState>,
    ctx: PageCtx,
    c: Loaded,
    force: &str,
    errors: FormErrors,
    status: StatusCode,
    notice: &'static str,
    moving: MoveForm,
) -> Result<HttpResponse, AppError> {
    let system = crate::web::campaign_view::system_of(state, &c)?;
    let st = &c.state;
    let f = st.forces.get(force).ok_or(AppError::NotFound)?;
    let shape = system.shape(&f.roster).map_err(AppError::internal)?;
    let history = |id: &str| f.history.get(id).cloned().unwrap_or_default();
    let rating = |id: &str| rating_words(system, f.ratings.get(id));
    let groups: Vec<GroupView> = shape
        .groups
        .iter()
        .enumerate()
        .map(|(n, g)| GroupView {
            id: g.id.clone(),
            // Numbered when unnamed, as the roster editor does, so groups can be told apart.
            name: group_label(system, g, n),
            commander: g
                .commander
                .as_ref()
                .map(|c| c.name.clone())
                .unwrap_or_default(),
            rating: g
                .commander
                .as_ref()
                .map_or_else(|| rating_words(system, None), |c| rating(&c.id)),
            commander_history: g
                .commander
                .as_ref()
                .map(|c| history(&c.id))
                .unwrap_or_default(),
            elements: g
                .elements
                .iter()
                .map(|e| {
                    let full = f.full_sizes.get(&e.id).unwrap_or(&e.size);
                    ElementLine {
                        reduced: *full != e.size,
                        full: system.size_label(full),
                        name: e.name.clone(),
                        kind: e.kind.clone(),
                        size: e.size_label.clone(),
                        upgrades: e.upgrades.join(", "),
                        points: e.points,
                        history: history(&e.id),
                    }
                })
                .collect(),
        })
        .collect();
    let on_roster: std::collections::BTreeSet<&str> =
        shape.elements().map(|e| e.id.as_str()).collect();
    let lost = f
        .history
        .iter()
        .filter(|(id, _)| !on_roster.contains(id.as_str()) && !f.ratings.contains_key(*id))
        .map(|(_, h)| LostLine { history: h.clone() })
        .collect();
    let fc = shape.commander.as_ref();
    let points = crate::rules::campaign::turn::force_points(system, f);
    let page = ForcePage {
        campaign_id: c.id(),
        campaign_name: c.row.name.clone(),
        force_id: f.id.clone(),
        name: f.roster.name().to_string(),
        player: f.player.clone(),
        side: st.side_name(f.side).into(),
        place: st.place_name(&f.place).into(),
        bank: f.bank,
        points,
        limit: st.points(),
        size_line: match system.points(&f.roster) {
            Some(p) => format!("{p} of {} points", st.points()),
            None => format!(
                "{} of {} {}",
                system
                    .strength(&f.roster)
                    .unwrap_or(shape.elements().count() as u32),
                st.points(),
                system.battle_size().unit
            ),
        },
        buys: system.points(&f.roster).is_some(),
        room: st.points().saturating_sub(points),
        out: f.out.clone().unwrap_or_default(),
        words: system.words(),
        rated: system.rated_commanders(),
        fc_name: fc.map(|c| c.name.clone()).unwrap_or_default(),
        fc_rating: fc.map_or_else(|| rating_words(system, None), |c| rating(&c.id)),
        fc_history: fc.map(|c| history(&c.id)).unwrap_or_default(),
        notice,
        bank_note: crate::rules::campaign::turn::reinforcement_notice(st, system, f)
            .unwrap_or_default(),
        lost,
        mine: c.force.as_deref() == Some(force),
        running: st.phase == Phase::Orders && f.active(),
        reduced_choices: restore_options(st, system, force)
            .into_iter()
            .map(|o| {
                choice(
                    o.element,
                    format!("{}: {} to {} for {} points", o.name, o.from, o.to, o.cost),
                )
            })
            .collect(),
        group_choices: groups
            .iter()
            .map(|g| {
                let label = if g.commander.is_empty() {
                    g.name.clone()
                } else {
                    format!("{} ({})", g.name, g.commander)
                };
                choice(g.id.clone(), label)
            })
            .collect(),
        problems: force_problems(st, system, force),
        upgrade_choices: picks(upgrade_options(st, system, force)),
        raise_choices: picks(element_options(st, system, force)),
        move_choices: shape
            .groups
            .iter()
            .zip(&groups)
            .flat_map(|(g, view)| {
                g.elements.iter().map(|e| {
                    choice(
                        e.id.clone(),
                        format!("{} (in {})", element_words(e), view.name),
                    )
                })
            })
            .collect(),
        moving,
        groups,
        errors,
        ctx,
    };
    render_with_status(&page, status)
}

/// Offered purchases as one select's options: `element|upgrade` or `type|size` (what `buy`
/// reads back from `pick`), labelled with what they are and their price.
fn picks(offered: Vec<crate::rules::campaign::forces::PurchaseOption>) -> Vec<SelectOption> {
    offered
        .into_iter()
        .filter_map(|o| {
            let value = match o.purchase {
                Offered::Upgrade { element, upgrade } => format!("{element}|{upgrade}"),
                Offered::Element {
                    element_type, size, ..
                } => format!("{element_type}|{size}"),
                Offered::Restore { .. } => return None,
            };
            Some(choice(value, o.what))
        })
        .collect()
}

pub async fn force(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    path: web::Path<(i64, String)>,
    done: web::Query<Done>,
) -> Result<HttpResponse, AppError> {
    let (id, force) = path.into_inner();
    let c = load_for(&state.app, &user.actor(), id).await?;
    let notice = notice_for(&done.done);
    force_page(
        &state,
        ctx,
        c,
        &force,
        FormErrors::default(),
        StatusCode::OK,
        notice,
        MoveForm::default(),
    )
    .await
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct BuyForm {
    /// `restore`, `upgrade` or `element`.
    pub buy: String,
    pub element: String,
    pub upgrade: String,
    pub group: String,
    pub name: String,
    #[serde(rename = "type")]
    pub element_type: String,
    pub size: String,
    /// An offered choice in one field, `element|upgrade` or `type|size` (the page's selects
    /// offer only purchases that can succeed).
    pub pick: String,
    /// The bank as the page showed it (see `actions::purchase`).
    pub bank: Option<u32>,
}

pub async fn buy(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    path: web::Path<(i64, String)>,
    CsrfForm(form): CsrfForm<BuyForm>,
) -> Result<HttpResponse, AppError> {
    let (id, force) = path.into_inner();
    let c = load_for(&state.app, &user.actor(), id).await?;
    let mut form = form;
    if let Some((a, b)) = form.pick.split_once('|') {
        match form.buy.as_str() {
            "upgrade" => (form.element, form.upgrade) = (a.to_string(), b.to_string()),
            "element" => (form.element_type, form.size) = (a.to_string(), b.to_string()),
            _ => {}
        }
    }
    let what = match form.buy.as_str() {
        "restore" => Purchase::Restore {
            element: form.element.clone(),
        },
        "upgrade" => Purchase::Upgrade {
            element: form.element.clone(),
            upgrade: form.upgrade.clone(),
        },
        "element" => Purchase::Element {
            group: form.group.clone(),
            name: form.name.clone(),
            element_type: form.element_type.clone(),
            size: form.size.clone(),
            weapon: None,
        },
        _ => return Err(AppError::bad_request("Say what to buy.")),
    };
    match actions::purchase(&state.app, &c, &user.actor(), &force, what, form.bank).await {
        Ok(_) => Ok(redirect(&format!(
            "/campaigns/{id}/forces/{force}?done=bought"
        ))),
        Err(e) => {
            let (errors, status) = into_form_errors(e)?;
            let c = load_for(&state.app, &user.actor(), id).await?;
            force_page(
                &state,
                ctx,
                c,
                &force,
                errors,
                status,
                "",
                MoveForm::default(),
            )
            .await
        }
    }
}

/// The reorganisation form: an element and the group it is to join (M-102).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct MoveForm {
    pub element: String,
    pub group: String,
}

/// Moves an element of the player's force into another group; a refusal shows the page again
/// with the form as it was sent.
pub async fn reorganise(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    path: web::Path<(i64, String)>,
    CsrfForm(form): CsrfForm<MoveForm>,
) -> Result<HttpResponse, AppError> {
    let (id, force) = path.into_inner();
    let c = load_for(&state.app, &user.actor(), id).await?;
    let moved = actions::reorganise(
        &state.app,
        &c,
        &user.actor(),
        &force,
        form.element.clone(),
        form.group.clone(),
    )
    .await;
    match moved {
        Ok(_) => Ok(redirect(&format!(
            "/campaigns/{id}/forces/{force}?done=moved#reorganise"
        ))),
        Err(e) => {
            let (errors, status) = into_form_errors(e)?;
            let c = load_for(&state.app, &user.actor(), id).await?;
            force_page(&state, ctx, c, &force, errors, status, "", form).await
        }
    }
}

/// Cards or the roster sheet of a force as it stands, with its history and rated commanders:
/// the campaign's rule system prints it.
pub async fn force_print(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    req: actix_web::HttpRequest,
    path: web::Path<(i64, String, String)>,
) -> Result<HttpResponse, AppError> {
    let (id, force, kind) = path.into_inner();
    let c = load_for(&state.app, &user.actor(), id).await?;
    if !c.state.forces.contains_key(&force) {
        return Err(AppError::NotFound);
    }
    let system = crate::rules::SystemId::from_id(&c.row.rule_system)
        .and_then(crate::web::systems::pages_for)
        .ok_or(AppError::NotFound)?;
    system.print_campaign_force(&state, ctx, &c, &force, &kind, req.query_string())
}
