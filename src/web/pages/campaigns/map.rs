//! The map editor: places, routes and the sides' homes, before the campaign starts.

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use serde::Deserialize;

use crate::app;
use crate::app::campaigns::actions::{self as actions};
use crate::app::campaigns::{load_for, Loaded};
use crate::rules::campaign::map_edit::PlaceInput;
use crate::rules::campaign::movement::{
    Map, Place, PlaceKind, RouteKind, MAP_HEIGHT, MAP_WIDTH, MIN_PLACE_GAP,
};
use crate::web::auth::csrf::CsrfForm;
use crate::web::auth::SignedIn;
use crate::web::campaign_view::{svg_map, SvgMap};
use crate::web::page::SelectOption;
use crate::web::page::{redirect, render_with_status, FormErrors, PageCtx};
use crate::web::state::AppState;
use crate::web::AppError;

use super::{choice, into_form_errors, notice_for, Done};

#[derive(Template)]
#[template(path = "campaigns/map_edit.html")]
struct MapEditPage {
    ctx: PageCtx,
    id: i64,
    name: String,
    map: SvgMap,
    legend: (String, String),
    places: Vec<Place>,
    routes: Vec<(String, String, String, &'static str)>,
    place_choices: Vec<SelectOption>,
    kinds: Vec<SelectOption>,
    route_kinds: Vec<SelectOption>,
    homes: Vec<String>,
    side_names: Vec<String>,
    width: u16,
    height: u16,
    /// The least distance between two places.
    gap: i32,
    notice: &'static str,
    errors: FormErrors,
}

async fn map_page(
    ctx: PageCtx,
    c: Loaded,
    errors: FormErrors,
    status: StatusCode,
    notice: &'static str,
) -> Result<HttpResponse, AppError> {
    let st = &c.state;
    let settings = st.settings().ok_or(AppError::NotFound)?;
    // The editor's map: with JavaScript, a place dragged to a new spot is saved through its
    // row's form below (the same POST, CSRF and checks as typing the numbers).
    let mut map = svg_map(&c);
    map.draggable = true;
    render_with_status(
        &MapEditPage {
            id: c.id(),
            name: c.row.name.clone(),
            map,
            legend: (
                settings.sides[0].name.clone(),
                settings.sides[1].name.clone(),
            ),
            places: st.map.places.clone(),
            routes: st
                .map
                .routes
                .iter()
                .map(|r| {
                    (
                        r.id.clone(),
                        st.place_name(&r.from).to_string(),
                        st.place_name(&r.to).to_string(),
                        r.kind.id(),
                    )
                })
                .collect(),
            place_choices: st
                .map
                .places
                .iter()
                .map(|p| choice(p.id.clone(), p.name.clone()))
                .collect(),
            kinds: PlaceKind::ALL
                .iter()
                .map(|k| choice(k.id(), k.id()))
                .collect(),
            route_kinds: RouteKind::ALL
                .iter()
                .map(|k| choice(k.id(), k.id()))
                .collect(),
            homes: settings.sides.iter().map(|s| s.home.clone()).collect(),
            side_names: settings.sides.iter().map(|s| s.name.clone()).collect(),
            width: MAP_WIDTH,
            height: MAP_HEIGHT,
            gap: MIN_PLACE_GAP,
            notice,
            errors,
            ctx,
        },
        status,
    )
}

pub async fn map_edit(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
    done: web::Query<Done>,
) -> Result<HttpResponse, AppError> {
    let c = load_for(&state.app, &user.actor(), id.into_inner()).await?;
    crate::app::campaigns::require_organiser(&c)?;
    map_page(
        ctx,
        c,
        FormErrors::default(),
        StatusCode::OK,
        notice_for(&done.done),
    )
    .await
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct MapForm {
    /// `add_place`, `update_place`, `remove_place`, `add_route`, `remove_route`, `homes`.
    pub op: String,
    pub place: String,
    pub name: String,
    pub kind: String,
    pub x: String,
    pub y: String,
    pub value: String,
    pub supply: String,
    pub route: String,
    pub from: String,
    pub to: String,
    pub home_a: String,
    pub home_b: String,
}

/// A place id from a name: lower-case letters and digits joined by underscores, unique.
/// The map and homes after one change from the editor's form; the rules check each change
/// (`rules::campaign::map_edit`), the whole map is checked again when it is saved.
fn edited_map(c: &Loaded, form: &MapForm) -> Result<(Map, [String; 2]), app::Error> {
    let st = &c.state;
    let mut map = st.map.clone();
    let mut homes = st
        .settings()
        .map(|s| [s.sides[0].home.clone(), s.sides[1].home.clone()])
        .unwrap_or_default();
    let place = PlaceInput {
        name: &form.name,
        kind: &form.kind,
        x: &form.x,
        y: &form.y,
        value: &form.value,
        supply: form.supply == "on",
    };
    match form.op.as_str() {
        "add_place" => map.add_place(&place).map(|_| ())?,
        "update_place" if map.place(&form.place).is_none() => return Err(app::Error::NotFound),
        "update_place" => map.update_place(&form.place, &place)?,
        "remove_place" => map.remove_place(&form.place, &homes)?,
        "add_route" => map
            .add_route(&form.from, &form.to, &form.kind)
            .map(|_| ())?,
        "remove_route" => map.remove_route(&form.route),
        "homes" => homes = [form.home_a.clone(), form.home_b.clone()],
        _ => return Err(app::Error::bad_request("Unknown map change.")),
    }
    Ok((map, homes))
}

pub async fn map_change(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
    CsrfForm(form): CsrfForm<MapForm>,
) -> Result<HttpResponse, AppError> {
    let id = id.into_inner();
    let c = load_for(&state.app, &user.actor(), id).await?;
    crate::app::campaigns::require_organiser(&c)?;
    let done = match edited_map(&c, &form) {
        Ok((map, homes)) => actions::set_map(&state.app, &c, &user.actor(), map, homes).await,
        Err(e) => Err(e),
    };
    match done {
        Ok(_) => Ok(redirect(&format!("/campaigns/{id}/map?done=map"))),
        Err(e) => {
            let (errors, status) = into_form_errors(e)?;
            let c = load_for(&state.app, &user.actor(), id).await?;
            map_page(ctx, c, errors, status, "").await
        }
    }
}
