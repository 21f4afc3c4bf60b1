//! A force as it stands: its elements and commanders with their history, reinforcements, and
//! its printouts.

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use serde::Deserialize;

use crate::app::campaigns::actions::{self as actions, Purchase};
use crate::app::campaigns::{load_for, Loaded};
use crate::rules::campaign::forces::restore_options;
use crate::rules::campaign::state::Phase;
use crate::rules::systems::lotf::{ElementType, Size, Upgrade};
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
    pub points: u32,
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
    room: u32,
    out: String,
    fc_name: String,
    fc_rating: String,
    fc_history: Vec<String>,
    notice: &'static str,
    groups: Vec<GroupView>,
    lost: Vec<LostLine>,
    mine: bool,
    running: bool,
    element_choices: Vec<SelectOption>,
    reduced_choices: Vec<SelectOption>,
    group_choices: Vec<SelectOption>,
    upgrade_choices: Vec<SelectOption>,
    type_choices: Vec<SelectOption>,
    size_choices: Vec<SelectOption>,
    errors: FormErrors,
}

fn rating_words(cat: &crate::rules::systems::lotf::Catalogue, roll: Option<&u8>) -> String {
    roll.and_then(|r| {
        cat.commander_rating_for_roll(*r)
            .map(|x| format!("{} (rolled {r})", x.name))
    })
    .unwrap_or_else(|| "not rolled".into())
}

async fn force_page(
    state: &web::Data<AppState>,
    ctx: PageCtx,
    c: Loaded,
    force: &str,
    errors: FormErrors,
    status: StatusCode,
    notice: &'static str,
) -> Result<HttpResponse, AppError> {
    let cat = &state.app.rules.lotf;
    let st = &c.state;
    let f = st.forces.get(force).ok_or(AppError::NotFound)?;
    let history = |id: &Option<String>| {
        id.as_ref()
            .and_then(|i| f.history.get(i))
            .cloned()
            .unwrap_or_default()
    };
    let mut on_roster = std::collections::BTreeSet::new();
    let groups: Vec<GroupView> = f
        .roster
        .groups
        .iter()
        .map(|g| GroupView {
            id: g.id.clone().unwrap_or_default(),
            name: if g.name.is_empty() {
                "Group".into()
            } else {
                g.name.clone()
            },
            commander: g
                .commander
                .as_ref()
                .map(|c| c.name.clone())
                .unwrap_or_default(),
            rating: rating_words(
                cat,
                g.commander
                    .as_ref()
                    .and_then(|c| c.id.as_ref())
                    .and_then(|id| f.ratings.get(id)),
            ),
            commander_history: history(&g.commander.as_ref().and_then(|c| c.id.clone())),
            elements: g
                .elements
                .iter()
                .map(|e| {
                    let id = e.id.clone().unwrap_or_default();
                    on_roster.insert(id.clone());
                    let full = f
                        .full_sizes
                        .get(&id)
                        .cloned()
                        .unwrap_or_else(|| e.size.id().into());
                    ElementLine {
                        reduced: full != e.size.id(),
                        full: Size::from_id(&full).map_or(full.clone(), |s| s.label().into()),
                        name: e.name.clone(),
                        kind: e.element_type.label().into(),
                        size: e.size.label().into(),
                        upgrades: e
                            .upgrades
                            .iter()
                            .map(|u| u.label())
                            .collect::<Vec<_>>()
                            .join(", "),
                        points: crate::rules::systems::lotf::price_element(cat, e),
                        history: f.history.get(&id).cloned().unwrap_or_default(),
                    }
                })
                .collect(),
        })
        .collect();
    let commander_ids: std::collections::BTreeSet<String> = f.ratings.keys().cloned().collect();
    let lost = f
        .history
        .iter()
        .filter(|(id, _)| !on_roster.contains(*id) && !commander_ids.contains(*id))
        .map(|(_, h)| LostLine { history: h.clone() })
        .collect();
    let elements: Vec<(&str, String)> = f
        .roster
        .groups
        .iter()
        .flat_map(|g| &g.elements)
        .map(|e| (e.id.as_deref().unwrap_or(""), e.name.clone()))
        .collect();
    let fc = f.roster.force_commander.as_ref();
    let page = ForcePage {
        campaign_id: c.id(),
        campaign_name: c.row.name.clone(),
        force_id: f.id.clone(),
        name: f.roster.name.clone(),
        player: f.player.clone(),
        side: st.side_name(f.side).into(),
        place: st.place_name(&f.place).into(),
        bank: f.bank,
        points: crate::rules::campaign::turn::force_points(cat, f),
        limit: st.points(),
        room: st
            .points()
            .saturating_sub(crate::rules::campaign::turn::force_points(cat, f)),
        out: f.out.clone().unwrap_or_default(),
        fc_name: fc.map(|c| c.name.clone()).unwrap_or_default(),
        fc_rating: rating_words(
            cat,
            fc.and_then(|c| c.id.as_ref())
                .and_then(|id| f.ratings.get(id)),
        ),
        fc_history: history(&fc.and_then(|c| c.id.clone())),
        notice,
        lost,
        mine: c.force.as_deref() == Some(force),
        running: st.phase == Phase::Orders && f.active(),
        element_choices: elements
            .iter()
            .map(|(id, n)| choice(*id, n.clone()))
            .collect(),
        reduced_choices: restore_options(st, cat, force)
            .into_iter()
            .map(|o| {
                choice(
                    o.element,
                    format!(
                        "{}: {} to {} for {} points",
                        o.name,
                        o.from.label(),
                        o.to.label(),
                        o.cost
                    ),
                )
            })
            .collect(),
        group_choices: groups
            .iter()
            .map(|g| choice(g.id.clone(), g.name.clone()))
            .collect(),
        upgrade_choices: Upgrade::ALL
            .iter()
            .map(|u| {
                choice(
                    u.id(),
                    cat.upgrade(*u).map_or(u.label().to_string(), |d| {
                        format!("{} ({:+} points)", d.name, d.points)
                    }),
                )
            })
            .collect(),
        type_choices: ElementType::ALL
            .iter()
            .map(|t| choice(t.id(), t.label()))
            .collect(),
        size_choices: Size::ALL
            .iter()
            .map(|s| choice(s.id(), s.label()))
            .collect(),
        groups,
        errors,
        ctx,
    };
    render_with_status(&page, status)
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
    match actions::purchase(&state.app, &c, &user.actor(), &force, what).await {
        Ok(_) => Ok(redirect(&format!(
            "/campaigns/{id}/forces/{force}?done=bought"
        ))),
        Err(e) => {
            let (errors, status) = into_form_errors(e)?;
            let c = load_for(&state.app, &user.actor(), id).await?;
            force_page(&state, ctx, c, &force, errors, status, "").await
        }
    }
}

/// Cards or the roster sheet of a force as it stands, with its history and rated commanders.
pub async fn force_print(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    path: web::Path<(i64, String, String)>,
    query: web::Query<crate::web::systems::lotf::print::PrintQuery>,
) -> Result<HttpResponse, AppError> {
    let (id, force, kind) = path.into_inner();
    let c = load_for(&state.app, &user.actor(), id).await?;
    let f = c.state.forces.get(&force).ok_or(AppError::NotFound)?;
    let cat = &state.app.rules.lotf;
    let mut fs = crate::web::systems::lotf::print::ForceState {
        label: Some(format!("{}, turn {}", c.row.name, c.state.turn)),
        ..Default::default()
    };
    for (eid, h) in &f.history {
        if f.ratings.contains_key(eid) {
            continue;
        }
        fs.elements.insert(
            eid.clone(),
            crate::web::systems::lotf::print::ElementState {
                size: None,
                removed: false,
                history: h.clone(),
            },
        );
    }
    for (cid, roll) in &f.ratings {
        let history = f.history.get(cid).cloned().unwrap_or_default();
        if let Some(state) =
            crate::web::systems::lotf::print::CommanderState::rolled(cat, *roll, history)
        {
            fs.commanders.insert(cid.clone(), state);
        }
    }
    let action = format!("/campaigns/{id}/forces/{force}/print/{kind}");
    crate::web::pages::print::print_force(&state, ctx, &f.roster, Some(&fs), &kind, &query, action)
}
