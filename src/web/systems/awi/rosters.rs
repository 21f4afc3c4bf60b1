//! AWI orders of battle on the web: the list line, the new-roster fields, starting points (an
//! empty order of battle with one brigade, or a small example force of either side), the
//! editor, the roster page, the plain text and reading imports. The generic pages reach it
//! through `RosterPages`.

use actix_web::http::StatusCode;
use actix_web::HttpResponse;
use askama::Template;

use super::edit::{self, EditForm};
use super::view::{self, RosterView};
use crate::app::rosters::{self, Saved};
use crate::rules::system::RuleSystem;
use crate::rules::systems::awi::catalogue::Catalogue;
use crate::rules::systems::awi::roster::{
    check_roster_size, parse_roster, BrigadeDoc, BrigadierDoc, LeaderDoc, RosterDoc, UnitDoc,
    MAX_TEXT, ROSTER_FORMAT, WAR,
};
use crate::rules::systems::awi::types::TroopType;
use crate::rules::systems::awi::validate;
use crate::rules::systems::awi::Awi;
use crate::rules::systems::AnyRoster;
use crate::store::rosters::RosterRow;
use crate::web::page::{redirect, render, render_with_status, FormErrors, PageCtx, SelectOption};
use crate::web::state::AppState;
use crate::web::systems::{ReadProblem, RosterBody, RosterLine};
use crate::web::AppError;

/// One `<option>`; `types` (space-separated troop types) marks an option offered only for
/// those types: the page's script hides it for others, the server checks.
#[derive(Debug, Clone)]
pub struct Choice {
    pub value: String,
    pub label: String,
    pub types: String,
    pub sizes: String,
}

impl Choice {
    pub fn selected(&self, current: &str) -> bool {
        self.value == current
    }
}

fn choice(value: &str, label: impl Into<String>, types: &str) -> Choice {
    Choice {
        value: value.to_string(),
        label: label.into(),
        types: types.to_string(),
        sizes: String::new(),
    }
}

/// What the editor's selects offer, all from the catalogue.
pub struct Choices {
    pub types: Vec<Choice>,
    pub grades: Vec<Choice>,
    pub arms: Vec<Choice>,
    pub guns: Vec<Choice>,
    pub gunners: Vec<Choice>,
    pub abilities: Vec<Choice>,
}

impl Choices {
    pub fn new(cat: &Catalogue) -> Self {
        let types = cat
            .types
            .iter()
            .map(|t| {
                let per_base = if t.id == TroopType::Artillery {
                    "a gun and its gunners".to_string()
                } else {
                    format!(
                        "{} figures a base, {}",
                        t.figures_per_base,
                        if t.close_order {
                            "close order"
                        } else {
                            "open order"
                        }
                    )
                };
                choice(t.id.id(), format!("{} ({per_base})", t.id.label()), "")
            })
            .collect();
        let grades = cat
            .grades
            .iter()
            .map(|g| {
                choice(
                    g.id.id(),
                    format!("{} (morale {})", g.id.label(), g.morale_dice.label()),
                    "",
                )
            })
            .collect();
        // Arms: the type's default first ("" keeps the document short), then what else it
        // may carry; a type that carries none gets one "none" option.
        let mut arms = Vec::new();
        for t in &cat.types {
            if t.arms.is_empty() {
                continue;
            }
            let default = t.default_arms;
            for a in &t.arms {
                let value = if Some(*a) == default { "" } else { a.id() };
                if let Some(existing) = arms.iter_mut().find(|c: &&mut Choice| c.value == value) {
                    existing.types.push(' ');
                    existing.types.push_str(t.id.id());
                } else {
                    let label = if Some(*a) == default {
                        format!("{} (the default)", a.label())
                    } else {
                        a.label().to_string()
                    };
                    arms.push(choice(value, label, t.id.id()));
                }
            }
        }
        let unarmed: Vec<&str> = cat
            .types
            .iter()
            .filter(|t| t.arms.is_empty())
            .map(|t| t.id.id())
            .collect();
        if !unarmed.is_empty() {
            arms.push(choice(
                "",
                "None (no firearms for this type)",
                &unarmed.join(" "),
            ));
        }
        let not_guns: Vec<&str> = cat
            .types
            .iter()
            .filter(|t| t.id != TroopType::Artillery)
            .map(|t| t.id.id())
            .collect();
        let not_guns = not_guns.join(" ");
        let mut guns: Vec<Choice> = cat
            .guns
            .iter()
            .map(|g| choice(g.id.id(), g.id.label(), "artillery"))
            .collect();
        guns.push(choice("", "— (only for guns)", &not_guns));
        let mut gunners: Vec<Choice> = (cat.gunners.min..=cat.gunners.max)
            .map(|n| {
                choice(
                    &n.to_string(),
                    format!(
                        "{n} gunner{} ({}D10)",
                        if n == 1 { "" } else { "s" },
                        cat.gun_dice_for(n)
                    ),
                    "artillery",
                )
            })
            .collect();
        gunners.push(choice("", "— (only for guns)", &not_guns));
        let mut abilities = vec![choice(
            "",
            format!("To be rolled ({})", cat.command.ability_roll.label()),
            "",
        )];
        abilities.extend(
            (cat.command.ability_min..=cat.command.ability_max)
                .map(|n| choice(&n.to_string(), n.to_string(), "")),
        );
        Self {
            types,
            grades,
            arms,
            guns,
            gunners,
            abilities,
        }
    }
}

/// The value of field `name` of a posted form, `""` when absent.
fn field<'a>(form: &'a [(String, String)], name: &str) -> &'a str {
    form.iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
        .unwrap_or("")
}

fn read_form<T: serde::de::DeserializeOwned>(form: &[(String, String)]) -> Result<T, AppError> {
    serde_urlencoded::to_string(form)
        .ok()
        .and_then(|encoded| serde_urlencoded::from_str(&encoded).ok())
        .ok_or_else(|| AppError::bad_request("The form could not be read."))
}

fn parse_stored(state: &AppState, row: &RosterRow) -> Result<RosterDoc, AppError> {
    Ok(rosters::parse_stored_as(&state.app.rules, row)?)
}

fn cat(state: &AppState) -> &Catalogue {
    &state.app.rules.awi
}

// ---------- the roster list ----------

/// The side stands where other systems name a nation; the rules cover one war.
pub fn roster_line(_state: &AppState, _war: &str, nation: &str) -> RosterLine {
    RosterLine {
        war: "American War of Independence".into(),
        nation: if nation.is_empty() {
            "Order of battle".into()
        } else {
            nation.to_string()
        },
    }
}

pub fn war_choices(_state: &AppState) -> Vec<SelectOption> {
    vec![SelectOption {
        value: WAR.to_string(),
        label: "American War of Independence".into(),
    }]
}

#[derive(Template)]
#[template(path = "systems/awi/new_fields.html")]
struct NewFields<'a> {
    side: &'a str,
    errors: &'a FormErrors,
}

pub fn new_roster_fields(
    _state: &AppState,
    form: &[(String, String)],
    errors: &FormErrors,
) -> Result<String, AppError> {
    Ok(NewFields {
        side: field(form, "side"),
        errors,
    }
    .render()?)
}

fn check_names(form: &[(String, String)], errors: &mut FormErrors) -> (String, String) {
    let name = field(form, "name").trim().to_string();
    let side = field(form, "side").trim().to_string();
    if name.is_empty() {
        errors.add("name", "Give the order of battle a name.");
    } else if name.chars().count() > MAX_TEXT {
        errors.add(
            "name",
            format!("Keep the name to {MAX_TEXT} characters or fewer."),
        );
    }
    if side.chars().count() > MAX_TEXT {
        errors.add(
            "side",
            format!("Keep the side to {MAX_TEXT} characters or fewer."),
        );
    }
    (name, side)
}

pub async fn create_roster(
    state: &AppState,
    owner: i64,
    form: &[(String, String)],
) -> Result<Result<RosterRow, FormErrors>, AppError> {
    let mut errors = FormErrors::default();
    let (name, side) = check_names(form, &mut errors);
    if !errors.is_empty() {
        return Ok(Err(errors));
    }
    let doc = edit::new_roster(&name, &side);
    Ok(Ok(rosters::create(&state.app, owner, doc).await?))
}

// ---------- starting points ----------

/// The example forces of the starting points (one a side, spec item 3): the rules core's
/// starting rosters that hold units (the empty one has its own form).
pub fn examples(cat: &Catalogue) -> Vec<RosterDoc> {
    Awi::starting_rosters(cat)
        .into_iter()
        .filter(|doc| doc.unit_count() > 0)
        .collect()
}

pub struct Example {
    pub index: usize,
    pub name: String,
    pub side: String,
    pub units: usize,
    pub brigades: usize,
    pub bases: u32,
}

#[derive(Template)]
#[template(path = "systems/awi/start.html")]
struct StartPage {
    ctx: PageCtx,
    examples: Vec<Example>,
    name: String,
    side: String,
    errors: FormErrors,
}

fn start_page_of(
    state: &AppState,
    ctx: PageCtx,
    form: &[(String, String)],
    errors: FormErrors,
) -> StartPage {
    let cat = cat(state);
    StartPage {
        ctx,
        examples: examples(cat)
            .iter()
            .enumerate()
            .map(|(index, doc)| Example {
                index,
                name: doc.name.clone(),
                side: doc.side.clone().unwrap_or_default(),
                units: doc.unit_count(),
                brigades: doc.brigades.len(),
                bases: validate::validate(cat, doc).bases,
            })
            .collect(),
        name: field(form, "name").to_string(),
        side: field(form, "side").to_string(),
        errors,
    }
}

pub fn start_page(
    state: &AppState,
    ctx: PageCtx,
    query: &[(String, String)],
) -> Result<HttpResponse, AppError> {
    render(&start_page_of(state, ctx, query, FormErrors::default()))
}

pub async fn start_roster(
    state: &AppState,
    ctx: PageCtx,
    owner: i64,
    how: &str,
    form: &[(String, String)],
) -> Result<HttpResponse, AppError> {
    match how {
        "empty" => {
            let mut errors = FormErrors::default();
            let (name, side) = check_names(form, &mut errors);
            if !errors.is_empty() {
                let page = start_page_of(state, ctx, form, errors);
                return render_with_status(&page, StatusCode::UNPROCESSABLE_ENTITY);
            }
            let row = rosters::create(&state.app, owner, edit::new_roster(&name, &side)).await?;
            Ok(redirect(&format!("/rosters/{}/edit?done=created", row.id)))
        }
        "example" => {
            let doc = field(form, "example")
                .parse::<usize>()
                .ok()
                .and_then(|i| examples(cat(state)).into_iter().nth(i))
                .ok_or_else(|| AppError::bad_request("Choose one of the example forces."))?;
            let row = rosters::create(&state.app, owner, doc).await?;
            Ok(redirect(&format!("/rosters/{}/edit?done=created", row.id)))
        }
        _ => Err(AppError::NotFound),
    }
}

// ---------- editor ----------

#[derive(Template)]
#[template(path = "systems/awi/editor.html")]
struct EditPage {
    ctx: PageCtx,
    id: i64,
    version: i32,
    view: RosterView,
    choices: Choices,
    editing: String,
    form: EditForm,
    errors: FormErrors,
    notice: Option<String>,
}

impl EditPage {
    /// The add form of this brigade was the one posted.
    fn adding(&self, brigade: &str) -> bool {
        self.form.action == "add_unit" && self.form.brigade == brigade
    }

    /// The brigade form of this brigade was the one posted.
    fn brigade_posted(&self, brigade: &str) -> bool {
        self.form.action == "update_brigade" && self.form.brigade == brigade
    }
}

fn edit_page(
    state: &AppState,
    ctx: PageCtx,
    row: &RosterRow,
    doc: &RosterDoc,
    (editing, form, errors): (String, EditForm, FormErrors),
    notice: Option<String>,
) -> EditPage {
    let cat = cat(state);
    EditPage {
        ctx,
        id: row.id,
        version: row.version,
        view: view::of(cat, doc),
        choices: Choices::new(cat),
        editing,
        form,
        errors,
        notice,
    }
}

pub fn open_editor(
    state: &AppState,
    ctx: PageCtx,
    row: &RosterRow,
    unit: &str,
    notice: Option<String>,
) -> Result<HttpResponse, AppError> {
    let doc = parse_stored(state, row)?;
    render(&edit_page(
        state,
        ctx,
        row,
        &doc,
        (unit.to_string(), EditForm::default(), FormErrors::default()),
        notice,
    ))
}

#[derive(Template)]
#[template(path = "rosters/conflict.html")]
struct ConflictPage {
    ctx: PageCtx,
    id: i64,
    current_version: i32,
    based_on: i32,
    change: String,
    current_text: String,
    yours_text: Option<String>,
    fields: Vec<(&'static str, String)>,
}

fn as_text(state: &AppState, doc: &RosterDoc) -> String {
    view::text(&view::of(cat(state), doc))
}

pub async fn apply_edit(
    state: &AppState,
    ctx: PageCtx,
    row: &RosterRow,
    fields: &[(String, String)],
) -> Result<HttpResponse, AppError> {
    let form: EditForm = read_form(fields)?;
    let stored = parse_stored(state, row)?;
    let cat = cat(state);
    let conflict = |ctx, current_version, current_text, yours_text| ConflictPage {
        ctx,
        id: row.id,
        current_version,
        based_on: form.version,
        change: form.describe(),
        current_text,
        yours_text,
        fields: form.fields(),
    };
    if row.version != form.version {
        // Changed elsewhere since this page was loaded: show both, change nothing.
        let mut yours = stored.clone();
        let yours_text = edit::apply(cat, &mut yours, &form)
            .ok()
            .map(|_| as_text(state, &yours));
        let page = conflict(ctx, row.version, as_text(state, &stored), yours_text);
        return render_with_status(&page, StatusCode::CONFLICT);
    }
    let mut doc = stored.clone();
    match edit::apply(cat, &mut doc, &form) {
        Err(errors) => {
            let unit = if form.action == "update_unit" {
                form.unit.clone()
            } else {
                String::new()
            };
            let page = edit_page(state, ctx, row, &stored, (unit, form.clone(), errors), None);
            render_with_status(&page, StatusCode::UNPROCESSABLE_ENTITY)
        }
        Ok(applied) => match rosters::save(&state.app, row.id, form.version, doc).await? {
            Saved::Ok(saved) => Ok(redirect(&format!(
                "/rosters/{}/edit#{}",
                saved.id, applied.anchor
            ))),
            Saved::Stale(current) => {
                let current_doc = parse_stored(state, &current.row)?;
                let page = conflict(ctx, current.row.version, as_text(state, &current_doc), None);
                render_with_status(&page, StatusCode::CONFLICT)
            }
        },
    }
}

// ---------- the roster's page, text and documents ----------

#[derive(Template)]
#[template(path = "systems/awi/roster/head.html")]
struct Head<'a> {
    view: &'a RosterView,
}

#[derive(Template)]
#[template(path = "systems/awi/roster/body.html")]
struct Body<'a> {
    view: &'a RosterView,
}

#[derive(Template)]
#[template(path = "systems/awi/roster/footer.html")]
struct Footer<'a> {
    view: &'a RosterView,
    updated: &'a str,
}

pub fn roster_body(
    state: &AppState,
    row: &RosterRow,
    updated: &str,
) -> Result<RosterBody, AppError> {
    let doc = parse_stored(state, row)?;
    let view = view::of(cat(state), &doc);
    Ok(RosterBody {
        title: view.name.clone(),
        head: Head { view: &view }.render()?,
        body: Body { view: &view }.render()?,
        footer: Footer {
            view: &view,
            updated,
        }
        .render()?,
    })
}

pub fn roster_text(state: &AppState, row: &RosterRow) -> Result<String, AppError> {
    Ok(as_text(state, &parse_stored(state, row)?))
}

/// Where in a document that is JSON but not an order of battle the reader stopped: the
/// innermost part (CinC, brigade, brigadier, unit) that does not read on its own.
fn shape_path(value: &serde_json::Value) -> Option<String> {
    use serde_json::Value;
    let reads = |v: &Value, f: fn(Value) -> bool| f(v.clone());
    let leader = |v: Value| v.is_null() || serde_json::from_value::<LeaderDoc>(v).is_ok();
    let brigadier = |v: Value| v.is_null() || serde_json::from_value::<BrigadierDoc>(v).is_ok();
    let unit = |v: Value| serde_json::from_value::<UnitDoc>(v).is_ok();
    let brigade = |v: Value| serde_json::from_value::<BrigadeDoc>(v).is_ok();
    if value.get("cinc").is_some_and(|c| !reads(c, leader)) {
        return Some("cinc".into());
    }
    let brigades = value.get("brigades")?;
    let Some(list) = brigades.as_array() else {
        return Some("brigades".into());
    };
    for (b, br) in list.iter().enumerate() {
        if let Some(units) = br.get("units").and_then(Value::as_array) {
            for (u, un) in units.iter().enumerate() {
                if !reads(un, unit) {
                    return Some(format!("brigades[{b}].units[{u}]"));
                }
            }
        }
        if br.get("brigadier").is_some_and(|g| !reads(g, brigadier)) {
            return Some(format!("brigades[{b}].brigadier"));
        }
        if !reads(br, brigade) {
            return Some(format!("brigades[{b}]"));
        }
    }
    None
}

fn bare(e: &serde_json::Error) -> String {
    let full = e.to_string();
    full.rfind(" at line ")
        .map_or(full.clone(), |i| full[..i].to_string())
}

/// Reads a document as an AWI order of battle: broken JSON with its line and column, JSON of
/// the wrong shape with the path of the part that does not read.
pub fn read_doc(text: &str) -> Result<RosterDoc, ReadProblem> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| ReadProblem {
        broken_json: true,
        summary: format!("The JSON body could not be read: {e}."),
        message: format!("not valid JSON: {}", bare(&e)),
        path: None,
        line: e.line(),
        column: e.column(),
    })?;
    let not_a_roster = |message: String, path: Option<String>, line, column| ReadProblem {
        broken_json: false,
        summary: format!("The document is not a {ROSTER_FORMAT} order of battle."),
        message,
        path,
        line,
        column,
    };
    if let Err(e) = serde_json::from_str::<RosterDoc>(text) {
        let path = shape_path(&value);
        let message = match &path {
            Some(p) => format!("{p}: {}", bare(&e)),
            None => bare(&e),
        };
        return Err(not_a_roster(message, path, e.line(), e.column()));
    }
    let doc = parse_roster(text)
        .map_err(|e| not_a_roster(e.message, e.path.or(Some("format".into())), 0, 0))?;
    check_roster_size(&doc).map_err(|e| not_a_roster(e.message, e.path, 0, 0))?;
    Ok(doc)
}

pub fn read_roster(text: &str) -> Result<AnyRoster, ReadProblem> {
    read_doc(text).map(AnyRoster::Awi)
}

pub fn roster_json(
    state: &AppState,
    row: &RosterRow,
) -> Result<(serde_json::Value, serde_json::Value), AppError> {
    let doc = parse_stored(state, row)?;
    let report = validate::validate(cat(state), &doc);
    Ok((
        serde_json::to_value(&doc).map_err(AppError::internal)?,
        serde_json::to_value(report).map_err(AppError::internal)?,
    ))
}
