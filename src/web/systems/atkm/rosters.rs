//! All the King's Men rosters on the web: the list line, the new-roster fields, the starting
//! points (the seeded random force generator, the three sample battles' forces), the editor,
//! the roster page, the plain text and reading imports. The generic pages reach it through
//! `RosterPages`.

use actix_web::http::StatusCode;
use actix_web::HttpResponse;
use askama::Template;

use super::edit::{self, EditForm};
use super::view::{self, RosterView, RuleView};
use crate::app::rosters::{self, Saved};
use crate::rules::system::RuleSystem;
use crate::rules::systems::atkm::random::{generate, RandomForceRequest, MAX_RANDOM_UNITS};
use crate::rules::systems::atkm::roster::{
    check_roster_size, parse_roster, GeneralDoc, RosterDoc, UnitDoc, MAX_TEXT, ROSTER_FORMAT,
};
use crate::rules::systems::atkm::system::SAMPLE_PREFIX;
use crate::rules::systems::atkm::types::{AdvancedRule, Gun, Period, Quality, Role, UnitType};
use crate::rules::systems::atkm::validate::validate;
use crate::rules::systems::atkm::{Atkm, Catalogue};
use crate::rules::systems::AnyRoster;
use crate::store::rosters::RosterRow;
use crate::web::page::{redirect, render, render_with_status, FormErrors, PageCtx, SelectOption};
use crate::web::state::AppState;
use crate::web::systems::{ReadProblem, RosterBody, RosterLine};
use crate::web::AppError;

/// One `<option>` for the editor's selects (the shape `rosters/_macros.html` reads).
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

fn choice(value: &str, label: impl Into<String>) -> Choice {
    Choice {
        value: value.to_string(),
        label: label.into(),
        types: String::new(),
        sizes: String::new(),
    }
}

/// What the editor's selects offer: only the catalogue's own values.
pub struct Choices {
    pub periods: Vec<Choice>,
    pub types: Vec<Choice>,
    pub qualities: Vec<Choice>,
    pub guns: Vec<Choice>,
    pub roles: Vec<Choice>,
    pub ratings: Vec<Choice>,
    pub generals: Vec<Choice>,
    pub default_radius: u32,
}

impl Choices {
    fn new(cat: &Catalogue, doc: &RosterDoc) -> Choices {
        let types = UnitType::ALL
            .iter()
            .map(|t| {
                let row = cat.unit(*t);
                let rule = row
                    .rule
                    .map(|r| format!("; needs the {} rule", r.label()))
                    .unwrap_or_default();
                let size = if *t == UnitType::WoodlandIndians {
                    let s = &cat.tables.woodland_indians_size;
                    format!("{} to {} {}", s.min, s.max, row.men)
                } else {
                    format!("{} {}", row.rank_and_file, row.men)
                };
                choice(t.id(), format!("{} ({size}{rule})", row.name))
            })
            .collect();
        let mut qualities = vec![choice("", "Not given (regular)")];
        qualities.extend(
            Quality::ALL
                .iter()
                .map(|q| choice(q.id(), view::quality_words(cat, *q, None))),
        );
        let mut guns = vec![choice("", "Not given (medium for artillery)")];
        guns.extend(
            Gun::ALL
                .iter()
                .map(|g| choice(g.id(), cat.gun(*g).name.clone())),
        );
        let mut generals = vec![choice("", "No general")];
        generals.extend(doc.generals.iter().enumerate().filter_map(|(i, g)| {
            let id = g.id.as_deref()?;
            let name = if g.name.trim().is_empty() {
                format!("General {}", i + 1)
            } else {
                g.name.clone()
            };
            Some(choice(id, name))
        }));
        Choices {
            periods: period_options()
                .into_iter()
                .map(|p| choice(&p.value, p.label))
                .collect(),
            types,
            qualities,
            guns,
            roles: Role::ALL
                .iter()
                .map(|r| choice(r.id(), r.label()))
                .collect(),
            ratings: (1..=3u32)
                .map(|r| choice(&r.to_string(), format!("{r} — {}", view::rating_words(r))))
                .collect(),
            generals,
            default_radius: cat.tables.command.default_radius,
        }
    }
}

fn period_options() -> Vec<SelectOption> {
    Period::ALL
        .iter()
        .map(|p| SelectOption {
            value: p.id().to_string(),
            label: p.label().to_string(),
        })
        .collect()
}

/// The value of field `name` of a posted form, `""` when absent.
fn field<'a>(form: &'a [(String, String)], name: &str) -> &'a str {
    form.iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
        .unwrap_or("")
}

fn parse_stored(state: &AppState, row: &RosterRow) -> Result<RosterDoc, AppError> {
    Ok(rosters::parse_stored_as(&state.app.rules, row)?)
}

pub fn build_view(cat: &Catalogue, doc: &RosterDoc) -> RosterView {
    view::build(cat, doc, &validate(cat, doc))
}

// ---------- the roster list ----------

/// The period stands where other systems name a war; a force has no nation of its own.
pub fn roster_line(_state: &AppState, war: &str, nation: &str) -> RosterLine {
    RosterLine {
        war: Period::from_id(war).map_or_else(|| war.to_string(), |p| p.label().to_string()),
        nation: nation.to_string(),
    }
}

pub fn war_choices(_state: &AppState) -> Vec<SelectOption> {
    period_options()
}

#[derive(Template)]
#[template(path = "systems/atkm/new_fields.html")]
struct NewFields<'a> {
    periods: Vec<SelectOption>,
    period: &'a str,
    errors: &'a FormErrors,
}

pub fn new_roster_fields(
    _state: &AppState,
    form: &[(String, String)],
    errors: &FormErrors,
) -> Result<String, AppError> {
    let period = match field(form, "atkm_period") {
        "" => "awi",
        p => p,
    };
    Ok(NewFields {
        periods: period_options(),
        period,
        errors,
    }
    .render()?)
}

pub async fn create_roster(
    state: &AppState,
    owner: i64,
    form: &[(String, String)],
) -> Result<Result<RosterRow, FormErrors>, AppError> {
    let mut errors = FormErrors::default();
    let name = field(form, "name").trim();
    if name.is_empty() {
        errors.add("name", "Give the army a name.");
    } else if name.chars().count() > MAX_TEXT {
        errors.add(
            "name",
            format!("Keep the name to {MAX_TEXT} characters or fewer."),
        );
    }
    let period = match field(form, "atkm_period") {
        "" => Some(Period::Generic),
        p => Period::from_id(p),
    };
    if period.is_none() {
        errors.add("atkm_period", "Choose a period.");
    }
    let (Some(period), true) = (period, errors.is_empty()) else {
        return Ok(Err(errors));
    };
    let mut doc = RosterDoc::new(name);
    doc.period = period.id().to_string();
    Ok(Ok(rosters::create(&state.app, owner, doc).await?))
}

// ---------- starting points ----------

/// A side of a sample battle, by its force id (`cowpens_1781_americans`).
pub fn sample_force(id: &str) -> Option<RosterDoc> {
    Atkm::historical_force(&format!("{SAMPLE_PREFIX}{id}"))
}

pub struct SampleBattle {
    pub id: String,
    pub name: String,
    pub date: String,
    pub setup: Vec<String>,
    pub victory: Vec<String>,
    pub forces: Vec<SelectOption>,
}

#[derive(Template)]
#[template(path = "systems/atkm/start.html")]
struct StartPage {
    ctx: PageCtx,
    form_name: String,
    units: String,
    sizes: Vec<SelectOption>,
    period: String,
    periods: Vec<SelectOption>,
    seed: String,
    random_rules: Vec<RuleView>,
    battles: Vec<SampleBattle>,
    error: Option<String>,
}

/// The sample battles with their forces, set-up and victory text, as the catalogue has them.
pub fn sample_battles(cat: &Catalogue) -> Vec<SampleBattle> {
    cat.scenarios
        .iter()
        .map(|s| {
            let forces = s
                .sides
                .values()
                .filter_map(|force| {
                    let doc = sample_force(force)?;
                    Some(SelectOption {
                        value: force.clone(),
                        label: format!("{} ({} units)", doc.name, doc.units.len()),
                    })
                })
                .collect();
            let (name, date) = match s.name.split_once(", ") {
                Some((place, date)) => (place.to_string(), date.to_string()),
                None => (s.name.clone(), String::new()),
            };
            SampleBattle {
                id: s.id.clone(),
                name,
                date,
                setup: s.setup.clone(),
                victory: s.victory.clone(),
                forces,
            }
        })
        .collect()
}

fn start_page_of(
    state: &AppState,
    ctx: PageCtx,
    form: &[(String, String)],
    error: Option<String>,
) -> StartPage {
    let cat = &state.app.rules.atkm;
    let sizes = &cat.tables.army;
    let ticked: Vec<&str> = form
        .iter()
        .filter(|(k, _)| k == "advanced_rules")
        .map(|(_, v)| v.as_str())
        .collect();
    let posted = !form.is_empty();
    let random_rules = [
        (
            AdvancedRule::EliteMilitia,
            "Unit quality (elite and militia units)",
        ),
        (AdvancedRule::ArtillerySizes, "Gun sizes (artillery sizes)"),
    ]
    .into_iter()
    .map(|(r, label)| RuleView {
        id: r.id().to_string(),
        label: label.to_string(),
        on: !posted || ticked.contains(&r.id()),
    })
    .chain(std::iter::once(RuleView {
        id: "roll_general".into(),
        label: "The Commanding General's rating (K-4)".into(),
        on: !posted || ticked.contains(&"roll_general"),
    }))
    .collect();
    let or = |name: &str, default: &str| match field(form, name) {
        "" => default.to_string(),
        v => v.to_string(),
    };
    StartPage {
        ctx,
        form_name: or("name", "Random force"),
        units: or("units", &sizes.small.to_string()),
        sizes: [
            (sizes.small, "small game"),
            (sizes.medium, "medium game"),
            (sizes.large, "large game"),
        ]
        .into_iter()
        .map(|(n, words)| SelectOption {
            value: n.to_string(),
            label: format!("{n} units ({words})"),
        })
        .chain([12u32, 15, 20].into_iter().map(|n| SelectOption {
            value: n.to_string(),
            label: format!("{n} units"),
        }))
        .collect(),
        period: or("period", "awi"),
        periods: period_options(),
        seed: field(form, "seed").to_string(),
        random_rules,
        battles: sample_battles(cat),
        error,
    }
}

pub fn start_page(
    state: &AppState,
    ctx: PageCtx,
    _query: &[(String, String)],
) -> Result<HttpResponse, AppError> {
    render(&start_page_of(state, ctx, &[], None))
}

pub async fn start_roster(
    state: &AppState,
    ctx: PageCtx,
    owner: i64,
    how: &str,
    form: &[(String, String)],
) -> Result<HttpResponse, AppError> {
    match how {
        "random" => {
            let cat = &state.app.rules.atkm;
            let request = match random_request(form) {
                Ok(r) => r,
                Err(message) => {
                    let page = start_page_of(state, ctx, form, Some(message));
                    return render_with_status(&page, StatusCode::UNPROCESSABLE_ENTITY);
                }
            };
            match generate(cat, &request) {
                Ok(doc) => {
                    let row = rosters::create(&state.app, owner, doc).await?;
                    Ok(redirect(&format!("/rosters/{}?done=created", row.id)))
                }
                Err(message) => {
                    let page = start_page_of(state, ctx, form, Some(message));
                    render_with_status(&page, StatusCode::UNPROCESSABLE_ENTITY)
                }
            }
        }
        "sample" => {
            let doc = sample_force(field(form, "force")).ok_or_else(|| {
                AppError::bad_request("Choose a side of one of the sample battles.")
            })?;
            let row = rosters::create(&state.app, owner, doc).await?;
            Ok(redirect(&format!("/rosters/{}/edit?done=created", row.id)))
        }
        _ => Err(AppError::NotFound),
    }
}

/// The random force form as the generator's request; an empty seed is a fresh one.
fn random_request(form: &[(String, String)]) -> Result<RandomForceRequest, String> {
    let units = field(form, "units")
        .trim()
        .parse::<u32>()
        .ok()
        .filter(|n| (1..=MAX_RANDOM_UNITS).contains(n))
        .ok_or_else(|| format!("Roll from 1 to {MAX_RANDOM_UNITS} units."))?;
    let seed = match field(form, "seed").trim() {
        "" => crate::app::dice::fresh_seed(),
        text => text
            .parse::<u64>()
            .map_err(|_| "Give the seed as a whole number, or leave it empty.".to_string())?,
    };
    let ticked = |id: &str| form.iter().any(|(k, v)| k == "advanced_rules" && v == id);
    let name = field(form, "name").trim();
    if name.chars().count() > MAX_TEXT {
        return Err(format!("Keep the name to {MAX_TEXT} characters or fewer."));
    }
    Ok(RandomForceRequest {
        seed,
        units,
        name: (!name.is_empty()).then(|| name.to_string()),
        period: Some(field(form, "period").trim().to_string()).filter(|p| !p.is_empty()),
        elite_militia: ticked(AdvancedRule::EliteMilitia.id()),
        artillery_sizes: ticked(AdvancedRule::ArtillerySizes.id()),
        roll_general: ticked("roll_general"),
    })
}

// ---------- editor ----------

#[derive(Template)]
#[template(path = "systems/atkm/editor.html")]
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

fn edit_page(
    state: &AppState,
    ctx: PageCtx,
    row: &RosterRow,
    doc: &RosterDoc,
    (editing, form, errors): (String, EditForm, FormErrors),
    notice: Option<String>,
) -> EditPage {
    let cat = &state.app.rules.atkm;
    EditPage {
        ctx,
        id: row.id,
        version: row.version,
        view: build_view(cat, doc),
        choices: Choices::new(cat, doc),
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
    element: &str,
    notice: Option<String>,
) -> Result<HttpResponse, AppError> {
    let doc = parse_stored(state, row)?;
    render(&edit_page(
        state,
        ctx,
        row,
        &doc,
        (
            element.to_string(),
            EditForm::default(),
            FormErrors::default(),
        ),
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
    view::text(&build_view(&state.app.rules.atkm, doc))
}

pub async fn apply_edit(
    state: &AppState,
    ctx: PageCtx,
    row: &RosterRow,
    fields: &[(String, String)],
) -> Result<HttpResponse, AppError> {
    let form = EditForm::from_pairs(fields);
    let stored = parse_stored(state, row)?;
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
        let yours_text = edit::apply(&mut yours, &form)
            .ok()
            .map(|_| as_text(state, &yours));
        let page = conflict(ctx, row.version, as_text(state, &stored), yours_text);
        return render_with_status(&page, StatusCode::CONFLICT);
    }
    let mut doc = stored.clone();
    match edit::apply(&mut doc, &form) {
        Err(errors) => {
            let element = match form.action.as_str() {
                "update_unit" => form.unit.clone(),
                "update_general" => form.general.clone(),
                _ => String::new(),
            };
            let page = edit_page(
                state,
                ctx,
                row,
                &stored,
                (element, form.clone(), errors),
                None,
            );
            render_with_status(&page, StatusCode::UNPROCESSABLE_ENTITY)
        }
        Ok(applied) => match rosters::save(&state.app, row.id, form.version, doc).await? {
            Saved::Ok(saved) => Ok(redirect(&format!(
                "/rosters/{}/edit{}",
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
#[template(path = "systems/atkm/roster/head.html")]
struct Head<'a> {
    view: &'a RosterView,
}

#[derive(Template)]
#[template(path = "systems/atkm/roster/body.html")]
struct Body<'a> {
    view: &'a RosterView,
}

#[derive(Template)]
#[template(path = "systems/atkm/roster/footer.html")]
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
    let view = build_view(&state.app.rules.atkm, &doc);
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

/// Where in a document that is JSON but not a roster the reader stopped: the first general or
/// unit that does not read on its own, and the field an unknown-field message names.
fn shape_path(value: &serde_json::Value, message: &str) -> Option<String> {
    use serde_json::Value;
    let mut place = None;
    for (key, reads) in [
        (
            "generals",
            (|v: Value| serde_json::from_value::<GeneralDoc>(v).is_ok()) as fn(Value) -> bool,
        ),
        ("units", |v: Value| {
            serde_json::from_value::<UnitDoc>(v).is_ok()
        }),
    ] {
        if let Some(items) = value.get(key).and_then(Value::as_array) {
            if let Some(i) = items.iter().position(|item| !reads(item.clone())) {
                place = Some(format!("{key}[{i}]"));
                break;
            }
        }
    }
    let named = message
        .split('`')
        .nth(1)
        .filter(|_| message.starts_with("unknown field") || message.starts_with("missing field"));
    match (place, named) {
        (Some(p), Some(f)) => Some(format!("{p}.{f}")),
        (Some(p), None) => Some(p),
        (None, Some(f)) => Some(f.to_string()),
        (None, None) => None,
    }
}

/// Reads a document as an All the King's Men roster: broken JSON with its line and column,
/// JSON of the wrong shape with the path of the part that does not read.
pub fn read_doc(text: &str) -> Result<RosterDoc, ReadProblem> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| {
        let full = e.to_string();
        let bare = full
            .rfind(" at line ")
            .map_or(full.clone(), |i| full[..i].to_string());
        ReadProblem {
            broken_json: true,
            summary: format!("The JSON body could not be read: {full}."),
            message: format!("not valid JSON: {bare}"),
            path: None,
            line: e.line(),
            column: e.column(),
        }
    })?;
    let not_a_roster = |message: String, path: Option<String>, line, column| ReadProblem {
        broken_json: false,
        summary: format!("The document is not a {ROSTER_FORMAT} roster."),
        message,
        path,
        line,
        column,
    };
    if let Err(e) = serde_json::from_str::<RosterDoc>(text) {
        let full = e.to_string();
        let bare = full
            .rfind(" at line ")
            .map_or(full.clone(), |i| full[..i].to_string());
        let path = shape_path(&value, &bare);
        let message = match &path {
            Some(p) => format!("{p}: {bare}"),
            None => bare,
        };
        return Err(not_a_roster(message, path, e.line(), e.column()));
    }
    let doc = parse_roster(text)
        .map_err(|e| not_a_roster(e.message, e.path.or(Some("format".into())), 0, 0))?;
    check_roster_size(&doc).map_err(|e| not_a_roster(e.message, e.path, 0, 0))?;
    Ok(doc)
}

pub fn read_roster(text: &str) -> Result<AnyRoster, ReadProblem> {
    read_doc(text).map(AnyRoster::Atkm)
}

pub fn roster_json(
    state: &AppState,
    row: &RosterRow,
) -> Result<(serde_json::Value, serde_json::Value), AppError> {
    let doc = parse_stored(state, row)?;
    let report = validate(&state.app.rules.atkm, &doc);
    Ok((
        serde_json::to_value(&doc).map_err(AppError::internal)?,
        serde_json::to_value(report).map_err(AppError::internal)?,
    ))
}
