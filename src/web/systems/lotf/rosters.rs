//! Land of the Free's part of the roster pages: the new-roster fields, starting from the book or
//! a refight, the editor, the roster's page body, the plain text and reading documents. The
//! generic pages (`web::pages::rosters`, `web::api::rosters`) reach it through `SystemPages`.

use actix_web::http::StatusCode;
use actix_web::HttpResponse;
use askama::Template;

use crate::app::rosters::{self, Saved};
use crate::rules::systems::lotf::{
    self, ElementDoc, GroupDoc, Mode, Nation, RosterDoc, RosterParseErrorKind, Size, War, Weapon,
};
use crate::rules::systems::AnyRoster;
use crate::store::rosters::RosterRow;
use crate::web::page::{redirect, render, render_with_status, FormErrors, PageCtx, SelectOption};
use crate::web::state::AppState;
use crate::web::systems::lotf::edit::{self, EditForm};
use crate::web::systems::lotf::historical;
use crate::web::systems::lotf::options::{self, Choice};
use crate::web::systems::lotf::text;
use crate::web::systems::lotf::view::{self, RosterView};
use crate::web::systems::{ReadProblem, RosterBody, RosterLine};
use crate::web::AppError;

/// Choices for every select of the editor and the create form.
pub struct Choices {
    pub wars: Vec<Choice>,
    pub nations: Vec<Choice>,
    pub modes: Vec<Choice>,
    pub types: Vec<Choice>,
    pub sizes: Vec<Choice>,
    pub weapons: Vec<Choice>,
    pub upgrades: Vec<Choice>,
}

impl Choices {
    fn new(state: &AppState, war: War) -> Self {
        let cat = &state.app.rules.lotf;
        Self {
            wars: options::wars(cat),
            nations: options::nations(cat),
            modes: options::modes(),
            types: options::types(cat),
            sizes: options::sizes(cat),
            weapons: options::weapons(cat, war),
            upgrades: options::upgrades(cat),
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

/// Reads a posted form into the struct the system's code takes.
fn read_form<T: serde::de::DeserializeOwned>(form: &[(String, String)]) -> Result<T, AppError> {
    serde_urlencoded::to_string(form)
        .ok()
        .and_then(|encoded| serde_urlencoded::from_str(&encoded).ok())
        .ok_or_else(|| AppError::bad_request("The form could not be read."))
}

fn parse_stored(state: &AppState, row: &RosterRow) -> Result<RosterDoc, AppError> {
    Ok(rosters::parse_stored_as(&state.app.rules, row)?)
}

// ---------- the roster list ----------

pub fn roster_line(state: &AppState, war: &str, nation: &str) -> RosterLine {
    let cat = &state.app.rules.lotf;
    RosterLine {
        war: War::from_id(war)
            .and_then(|w| cat.war(w))
            .map(|w| w.name.clone())
            .unwrap_or_else(|| war.to_string()),
        nation: Nation::from_id(nation)
            .and_then(|n| cat.nation(n))
            .map(|n| n.name.clone())
            .unwrap_or_else(|| nation.to_string()),
    }
}

pub fn war_choices(state: &AppState) -> Vec<SelectOption> {
    options::wars(&state.app.rules.lotf)
        .into_iter()
        .map(|c| SelectOption {
            value: c.value,
            label: c.label,
        })
        .collect()
}

/// The create form's Land of the Free fields.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
struct CreateFields {
    name: String,
    war: String,
    nation: String,
    points_limit: String,
    mode: String,
}

#[derive(Template)]
#[template(path = "systems/lotf/new_fields.html")]
struct NewFields<'a> {
    choices: Choices,
    form: CreateFields,
    errors: &'a FormErrors,
}

pub fn new_roster_fields(
    state: &AppState,
    form: &[(String, String)],
    errors: &FormErrors,
) -> Result<String, AppError> {
    let mut fields: CreateFields = read_form(form)?;
    // A fresh form suggests the usual size of a game.
    if form.is_empty() {
        fields.points_limit = "150".into();
    }
    Ok(NewFields {
        choices: Choices::new(state, War::AmericanRevolution),
        form: fields,
        errors,
    }
    .render()?)
}

pub async fn create_roster(
    state: &AppState,
    owner: i64,
    form: &[(String, String)],
) -> Result<Result<RosterRow, FormErrors>, AppError> {
    let fields: CreateFields = read_form(form)?;
    let mut doc = RosterDoc::new("", War::AmericanRevolution, Nation::American, None);
    let settings = EditForm {
        action: "settings".into(),
        name: fields.name,
        war: fields.war,
        nation: fields.nation,
        points_limit: fields.points_limit,
        mode: fields.mode,
        ..EditForm::default()
    };
    if let Err(errors) = edit::apply(&state.app.rules.lotf, &mut doc, &settings) {
        return Ok(Err(errors));
    }
    Ok(Ok(rosters::create(&state.app, owner, doc).await?))
}

// ---------- start from the book ----------

pub struct BookEntry {
    pub key: String,
    pub name: String,
    pub type_label: &'static str,
    /// Sizes the type comes in, as (id, label); medium first, the usual choice.
    pub sizes: Vec<(&'static str, &'static str)>,
    pub upgrades: String,
    pub note: String,
}

pub struct RefightChoice {
    pub value: String,
    pub label: String,
}

#[derive(Template)]
#[template(path = "systems/lotf/new_from_book.html")]
struct BookPage {
    ctx: PageCtx,
    choices: Choices,
    war: String,
    nation: String,
    entries: Vec<BookEntry>,
    refights: Vec<RefightChoice>,
    error: Option<String>,
}

fn book_entries(state: &AppState, war: Option<War>, nation: Option<Nation>) -> Vec<BookEntry> {
    let cat = &state.app.rules.lotf;
    let (Some(war), Some(nation)) = (war, nation) else {
        return Vec::new();
    };
    cat.historical_entries(war, nation)
        .iter()
        .map(|e| BookEntry {
            key: e.id.clone(),
            name: e.name.clone(),
            type_label: e.element_type.label(),
            sizes: {
                let mut sizes: Vec<(&'static str, &'static str)> =
                    lotf::validate::sizes_for(cat, e.element_type)
                        .iter()
                        .map(|s| (s.id(), s.label()))
                        .collect();
                sizes.sort_by_key(|(id, _)| *id != "medium");
                sizes
            },
            upgrades: e
                .upgrades
                .iter()
                .filter_map(|u| cat.upgrade(*u))
                .map(|u| u.name.clone())
                .collect::<Vec<_>>()
                .join(" + "),
            note: e.note.clone().unwrap_or_default(),
        })
        .collect()
}

fn refights() -> Vec<RefightChoice> {
    historical::force_choices()
        .into_iter()
        .map(|c| RefightChoice {
            value: c.value,
            label: c.label,
        })
        .collect()
}

pub fn start_page(
    state: &AppState,
    ctx: PageCtx,
    query: &[(String, String)],
) -> Result<HttpResponse, AppError> {
    let (war_id, nation_id) = (field(query, "war"), field(query, "nation"));
    let (war, nation) = (War::from_id(war_id), Nation::from_id(nation_id));
    render(&BookPage {
        ctx,
        choices: Choices::new(state, war.unwrap_or(War::AmericanRevolution)),
        war: war_id.to_string(),
        nation: nation_id.to_string(),
        entries: book_entries(state, war, nation),
        refights: refights(),
        error: None,
    })
}

pub async fn start_roster(
    state: &AppState,
    ctx: PageCtx,
    owner: i64,
    how: &str,
    form: &[(String, String)],
) -> Result<HttpResponse, AppError> {
    match how {
        "book" => from_book(state, ctx, owner, form).await,
        "refight" => from_refight(state, owner, field(form, "refight")).await,
        _ => Err(AppError::NotFound),
    }
}

/// Elements from the historical list: `count_<key>` and `size_<key>` fields per entry.
async fn from_book(
    state: &AppState,
    ctx: PageCtx,
    owner: i64,
    fields: &[(String, String)],
) -> Result<HttpResponse, AppError> {
    let get = |k: &str| field(fields, k);
    let cat = &state.app.rules.lotf;
    let (war, nation) = (War::from_id(get("war")), Nation::from_id(get("nation")));
    let (Some(war), Some(nation)) = (war, nation) else {
        return Err(AppError::bad_request("Choose a war and a nation first."));
    };
    let mut elements = Vec::new();
    for entry in cat.historical_entries(war, nation) {
        let count: usize = get(&format!("count_{}", entry.id))
            .trim()
            .parse()
            .unwrap_or(0)
            .min(12);
        let size = Size::from_id(get(&format!("size_{}", entry.id)))
            .filter(|s| lotf::validate::sizes_for(cat, entry.element_type).contains(s))
            .unwrap_or(Size::Medium);
        for _ in 0..count {
            let mut e = ElementDoc::new(&entry.name, entry.element_type, size);
            e.upgrades = entry.upgrades.clone();
            e.historical_entry = Some(entry.id.clone());
            if let Some(classes) = &entry.gun_classes {
                e.weapon = classes.iter().copied().find(|w: &Weapon| {
                    cat.weapon(*w)
                        .and_then(|d| d.wars.as_ref())
                        .is_none_or(|ws| ws.contains(&war))
                });
            }
            elements.push(e);
        }
    }
    if elements.is_empty() {
        let page = BookPage {
            ctx,
            choices: Choices::new(state, war),
            war: war.id().into(),
            nation: nation.id().into(),
            entries: book_entries(state, Some(war), Some(nation)),
            refights: refights(),
            error: Some("Give a number for at least one entry.".into()),
        };
        return render_with_status(&page, StatusCode::UNPROCESSABLE_ENTITY);
    }
    let nation_name = cat
        .nation(nation)
        .map(|n| n.name.clone())
        .unwrap_or_default();
    let mut doc = RosterDoc::new(&format!("{nation_name} force"), war, nation, Some(150));
    // Groups of up to four elements, each with a commander to name later.
    for chunk in elements.chunks(4) {
        doc.groups.push(GroupDoc {
            id: None,
            name: String::new(),
            commander: Some(lotf::CommanderDoc::default()),
            elements: chunk.to_vec(),
        });
    }
    let row = rosters::create(&state.app, owner, doc).await?;
    Ok(redirect(&format!("/rosters/{}/edit?done=created", row.id)))
}

/// One force of one side of a historical order of battle, as a historical-mode roster.
async fn from_refight(
    state: &AppState,
    owner: i64,
    refight: &str,
) -> Result<HttpResponse, AppError> {
    let doc = historical::force(refight)
        .ok_or_else(|| AppError::bad_request("Choose a force from the list."))?;
    debug_assert_eq!(doc.mode, Mode::Historical);
    let row = rosters::create(&state.app, owner, doc).await?;
    Ok(redirect(&format!("/rosters/{}/edit?done=created", row.id)))
}

// ---------- editor ----------

#[derive(Template)]
#[template(path = "systems/lotf/editor.html")]
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

/// The editor of a roster read from `row`.
struct Editing<'a> {
    state: &'a AppState,
    row: &'a RosterRow,
    doc: RosterDoc,
}

impl Editing<'_> {
    fn page(
        &self,
        ctx: PageCtx,
        editing: String,
        form: EditForm,
        errors: FormErrors,
        notice: Option<String>,
    ) -> EditPage {
        let cat = &self.state.app.rules.lotf;
        let report = lotf::validate(cat, &self.doc);
        EditPage {
            ctx,
            id: self.row.id,
            version: self.row.version,
            view: view::build(cat, &self.doc, &report),
            choices: Choices::new(self.state, self.doc.war),
            editing,
            form,
            errors,
            notice,
        }
    }
}

pub fn open_editor(
    state: &AppState,
    ctx: PageCtx,
    row: &RosterRow,
    element: &str,
    notice: Option<String>,
) -> Result<HttpResponse, AppError> {
    let editing = Editing {
        state,
        row,
        doc: parse_stored(state, row)?,
    };
    render(&editing.page(
        ctx,
        element.to_string(),
        EditForm::default(),
        FormErrors::default(),
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

/// The roster as text, checked under the current catalogue.
fn as_text(state: &AppState, doc: &RosterDoc) -> String {
    let cat = &state.app.rules.lotf;
    let report = lotf::validate(cat, doc);
    text::render(&view::build(cat, doc, &report))
}

pub async fn apply_edit(
    state: &AppState,
    ctx: PageCtx,
    row: &RosterRow,
    fields: &[(String, String)],
) -> Result<HttpResponse, AppError> {
    let form: EditForm = read_form(fields)?;
    let editing = Editing {
        state,
        row,
        doc: parse_stored(state, row)?,
    };
    let cat = &state.app.rules.lotf;
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
        // Edited elsewhere since this page was loaded: show both, change nothing.
        let mut yours = editing.doc.clone();
        let yours_text = edit::apply(cat, &mut yours, &form)
            .ok()
            .map(|_| as_text(state, &yours));
        let page = conflict(ctx, row.version, as_text(state, &editing.doc), yours_text);
        return render_with_status(&page, StatusCode::CONFLICT);
    }
    let mut doc = editing.doc.clone();
    match edit::apply(cat, &mut doc, &form) {
        Err(errors) => {
            let element = if form.action == "update_element" {
                form.element.clone()
            } else {
                String::new()
            };
            let page = editing.page(ctx, element, form.clone(), errors, None);
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
#[template(path = "systems/lotf/roster/head.html")]
struct Head<'a> {
    view: &'a RosterView,
}

#[derive(Template)]
#[template(path = "systems/lotf/roster/body.html")]
struct Body<'a> {
    view: &'a RosterView,
}

#[derive(Template)]
#[template(path = "systems/lotf/roster/footer.html")]
struct Footer<'a> {
    view: &'a RosterView,
    updated: &'a str,
}

pub fn roster_body(
    state: &AppState,
    row: &RosterRow,
    updated: &str,
) -> Result<RosterBody, AppError> {
    let cat = &state.app.rules.lotf;
    let doc = parse_stored(state, row)?;
    let report = lotf::validate(cat, &doc);
    let view = view::build(cat, &doc, &report);
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

/// A Land of the Free reader's error, for the import page and the API.
pub fn read_problem(e: lotf::RosterParseError) -> ReadProblem {
    let broken_json = matches!(
        e.kind,
        RosterParseErrorKind::Syntax | RosterParseErrorKind::Eof
    );
    let summary = if broken_json {
        format!("The JSON body could not be read: {e}.")
    } else {
        "The document is not a muster.lotf.roster/1 roster.".into()
    };
    ReadProblem {
        broken_json,
        summary,
        message: e.message,
        path: e.path,
        line: e.line,
        column: e.column,
    }
}

pub fn read_roster(text: &str) -> Result<AnyRoster, ReadProblem> {
    // parse_roster also refuses documents too large to be a force.
    lotf::parse_roster(text)
        .map(AnyRoster::Lotf)
        .map_err(read_problem)
}

pub fn roster_json(
    state: &AppState,
    row: &RosterRow,
) -> Result<(serde_json::Value, serde_json::Value), AppError> {
    let doc = parse_stored(state, row)?;
    let report = lotf::validate(&state.app.rules.lotf, &doc);
    Ok((
        serde_json::to_value(&doc).unwrap_or_default(),
        serde_json::to_value(report).unwrap_or_default(),
    ))
}
