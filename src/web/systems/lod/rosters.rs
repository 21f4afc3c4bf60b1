//! Liberty or Death! rosters on the web: the list line, the new-roster fields, starting points
//! (an army list's entries, or a list's example army), the editor, the roster page, the plain
//! text and reading imports. The generic pages reach it through `RosterPages`.

use actix_web::http::StatusCode;
use actix_web::HttpResponse;
use askama::Template;

use super::edit::{self, EditForm};
use super::view::{self, RosterView};
use crate::app::rosters::{self, Saved};
use crate::rules::system::RuleSystem;
use crate::rules::systems::lod::roster::check_roster_size;
use crate::rules::systems::lod::{
    self, parse_roster, ArmyList, BrigadeDoc, Catalogue, LeaderDoc, Lod, RosterDoc, Setting,
    UnitDoc,
};
use crate::rules::systems::AnyRoster;
use crate::store::rosters::RosterRow;
use crate::web::page::{redirect, render, render_with_status, FormErrors, PageCtx, SelectOption};
use crate::web::state::AppState;
use crate::web::systems::{ReadProblem, RosterBody, RosterLine};
use crate::web::AppError;

/// One `<option>`. `entries` (space-separated entry references) marks a size or an option as
/// offered only by those entries; the page's script hides it for others, the server checks.
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

fn choice(value: &str, label: String) -> Choice {
    Choice {
        value: value.to_string(),
        label,
        types: String::new(),
        sizes: String::new(),
    }
}

/// An army's entries in the editor: its own list, then its allies' (L-49).
pub struct EntryGroup {
    pub label: String,
    pub entries: Vec<Choice>,
}

/// What the editor's selects offer for an army of one list.
pub struct Choices {
    pub lists: Vec<Choice>,
    pub entries: Vec<EntryGroup>,
    pub bases: Vec<Choice>,
    pub grenadiers: Vec<Choice>,
}

fn list_choices(cat: &Catalogue) -> Vec<Choice> {
    cat.lists
        .iter()
        .map(|l| {
            let allies = if l.allies.is_empty() {
                String::new()
            } else {
                let names: Vec<&str> = l
                    .allies
                    .iter()
                    .map(|a| cat.list(*a).name.as_str())
                    .collect();
                format!(" (with {} allies)", names.join(", "))
            };
            choice(l.id.id(), format!("{}{allies}", l.name))
        })
        .collect()
}

impl Choices {
    fn new(cat: &Catalogue, army: Option<ArmyList>) -> Self {
        let mut entries = Vec::new();
        let mut offered: Vec<(String, &lod::Entry)> = Vec::new();
        if let Some(army) = army {
            for list in std::iter::once(army).chain(cat.list(army).allies.iter().copied()) {
                let data = cat.list(list);
                let group = data
                    .entries
                    .iter()
                    .map(|e| {
                        let value = edit::reference(army, list, e);
                        offered.push((value.clone(), e));
                        let ally = if list == army {
                            String::new()
                        } else {
                            format!(" — {} ally", data.name)
                        };
                        choice(
                            &value,
                            format!(
                                "{} ({} {}; {}){ally}",
                                e.name,
                                e.quality.label(),
                                e.kind.label(),
                                e.bases_label()
                            ),
                        )
                    })
                    .collect();
                entries.push(EntryGroup {
                    label: if list == army {
                        format!("{} list", data.name)
                    } else {
                        format!("Allies: {} list (each one a warning, L-49)", data.name)
                    },
                    entries: group,
                });
            }
        }
        let mut all_bases: Vec<u32> = offered.iter().flat_map(|(_, e)| e.bases.clone()).collect();
        all_bases.sort_unstable();
        all_bases.dedup();
        let bases = all_bases
            .into_iter()
            .map(|n| {
                let by: Vec<&str> = offered
                    .iter()
                    .filter(|(_, e)| e.bases.contains(&n))
                    .map(|(v, _)| v.as_str())
                    .collect();
                Choice {
                    value: n.to_string(),
                    label: format!("{n} base{}", if n == 1 { "" } else { "s" }),
                    types: by.join(" "),
                    sizes: String::new(),
                }
            })
            .collect();
        let detaching: Vec<&str> = offered
            .iter()
            .filter(|(_, e)| e.offers(lod::types::EntryOption::GrenadiersDetached))
            .map(|(v, _)| v.as_str())
            .collect();
        let mut grenadiers = vec![choice("", "Grenadiers with the regiment".into())];
        if !detaching.is_empty() {
            grenadiers.push(Choice {
                value: "detached".into(),
                label: "Grenadiers Detached (one base fewer)".into(),
                types: detaching.join(" "),
                sizes: String::new(),
            });
        }
        Self {
            lists: list_choices(cat),
            entries,
            bases,
            grenadiers,
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

fn build_view(cat: &Catalogue, doc: &RosterDoc) -> RosterView {
    let report = lod::validate(cat, doc, Setting::Standalone);
    view::build(cat, doc, &report)
}

// ---------- the roster list ----------

/// The army list stands where other systems name a nation; Liberty or Death! has no wars to
/// choose, so the line names the game's one war.
pub fn roster_line(state: &AppState, _war: &str, nation: &str) -> RosterLine {
    let cat = &state.app.rules.lod;
    RosterLine {
        war: "American War of Independence".into(),
        nation: view::army_label(cat, nation),
    }
}

pub fn war_choices(_state: &AppState) -> Vec<SelectOption> {
    vec![SelectOption {
        value: crate::rules::systems::lod::campaign::WAR.to_string(),
        label: "American War of Independence".into(),
    }]
}

#[derive(Template)]
#[template(path = "systems/lod/new_fields.html")]
struct NewFields<'a> {
    lists: Vec<Choice>,
    army_list: &'a str,
    errors: &'a FormErrors,
}

pub fn new_roster_fields(
    state: &AppState,
    form: &[(String, String)],
    errors: &FormErrors,
) -> Result<String, AppError> {
    Ok(NewFields {
        lists: list_choices(&state.app.rules.lod),
        army_list: field(form, "army_list"),
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
    } else if name.chars().count() > lod::roster::MAX_TEXT {
        errors.add(
            "name",
            format!(
                "Keep the name to {} characters or fewer.",
                lod::roster::MAX_TEXT
            ),
        );
    }
    let Some(list) = ArmyList::from_id(field(form, "army_list")) else {
        errors.add("army_list", "Choose an army list.");
        return Ok(Err(errors));
    };
    if !errors.is_empty() {
        return Ok(Err(errors));
    }
    let doc = RosterDoc::new(name, list.id());
    Ok(Ok(rosters::create(&state.app, owner, doc).await?))
}

// ---------- starting points ----------

pub struct ListEntry {
    pub key: String,
    pub name: String,
    pub type_label: String,
    pub rules: String,
    pub sizes: Vec<u32>,
}

pub struct Example {
    pub index: usize,
    pub name: String,
    pub army: String,
    pub units: usize,
    pub brigades: usize,
}

#[derive(Template)]
#[template(path = "systems/lod/start.html")]
struct StartPage {
    ctx: PageCtx,
    lists: Vec<Choice>,
    army_list: String,
    entries: Vec<ListEntry>,
    examples: Vec<Example>,
    error: Option<String>,
}

fn list_entries(cat: &Catalogue, list: Option<ArmyList>) -> Vec<ListEntry> {
    let Some(list) = list else {
        return Vec::new();
    };
    cat.list(list)
        .entries
        .iter()
        .map(|e| ListEntry {
            key: e.id.clone(),
            name: e.name.clone(),
            type_label: format!("{} {}", e.quality.label(), e.kind.label()),
            rules: e
                .rules
                .iter()
                .map(|r| r.label())
                .collect::<Vec<_>>()
                .join(", "),
            sizes: e.bases.clone(),
        })
        .collect()
}

fn examples(cat: &Catalogue) -> Vec<Example> {
    Lod::starting_rosters(cat)
        .iter()
        .enumerate()
        .map(|(index, doc)| Example {
            index,
            name: doc.name.clone(),
            army: view::army_label(cat, &doc.army_list),
            units: doc.unit_count(),
            brigades: doc.brigades.len(),
        })
        .collect()
}

fn start_page_of(
    state: &AppState,
    ctx: PageCtx,
    army_list: &str,
    error: Option<String>,
) -> StartPage {
    let cat = &state.app.rules.lod;
    StartPage {
        ctx,
        lists: list_choices(cat),
        army_list: army_list.to_string(),
        entries: list_entries(cat, ArmyList::from_id(army_list)),
        examples: examples(cat),
        error,
    }
}

pub fn start_page(
    state: &AppState,
    ctx: PageCtx,
    query: &[(String, String)],
) -> Result<HttpResponse, AppError> {
    render(&start_page_of(state, ctx, field(query, "army_list"), None))
}

pub async fn start_roster(
    state: &AppState,
    ctx: PageCtx,
    owner: i64,
    how: &str,
    form: &[(String, String)],
) -> Result<HttpResponse, AppError> {
    match how {
        "list" => from_list(state, ctx, owner, form).await,
        "example" => {
            let cat = &state.app.rules.lod;
            let doc = field(form, "example")
                .parse::<usize>()
                .ok()
                .and_then(|i| Lod::starting_rosters(cat).into_iter().nth(i))
                .ok_or_else(|| AppError::bad_request("Choose one of the example armies."))?;
            let row = rosters::create(&state.app, owner, doc).await?;
            Ok(redirect(&format!("/rosters/{}/edit?done=created", row.id)))
        }
        _ => Err(AppError::NotFound),
    }
}

/// An army of one list: `count_<entry>` and `bases_<entry>` per entry, in brigades of up to
/// six units (the usual size, L-51).
async fn from_list(
    state: &AppState,
    ctx: PageCtx,
    owner: i64,
    form: &[(String, String)],
) -> Result<HttpResponse, AppError> {
    let cat = &state.app.rules.lod;
    let Some(list) = ArmyList::from_id(field(form, "army_list")) else {
        return Err(AppError::bad_request("Choose an army list first."));
    };
    let mut units = Vec::new();
    let mut problems = Vec::new();
    for entry in &cat.list(list).entries {
        let count_text = field(form, &format!("count_{}", entry.id)).trim();
        let count = match count_text {
            "" => 0,
            text => match text.parse::<usize>() {
                Ok(n) if n <= 12 => n,
                _ => {
                    problems.push(format!(
                        "Give a whole number from 0 to 12 for {}.",
                        entry.name
                    ));
                    continue;
                }
            },
        };
        if count == 0 {
            continue;
        }
        let bases_text = field(form, &format!("bases_{}", entry.id)).trim();
        let bases = if bases_text.is_empty() {
            entry.bases.first().copied()
        } else {
            bases_text
                .parse::<u32>()
                .ok()
                .filter(|b| entry.bases.contains(b))
        };
        let Some(bases) = bases else {
            problems.push(format!(
                "{} comes with {}.",
                entry.name,
                entry.bases_in_words()
            ));
            continue;
        };
        for _ in 0..count {
            units.push(UnitDoc::new(&entry.id, bases));
        }
    }
    if !problems.is_empty() || units.is_empty() {
        let message = if problems.is_empty() {
            "Give a number for at least one entry.".to_string()
        } else {
            problems.join(" ")
        };
        let page = start_page_of(state, ctx, list.id(), Some(message));
        return render_with_status(&page, StatusCode::UNPROCESSABLE_ENTITY);
    }
    let mut doc = RosterDoc::new(&format!("{} army", cat.list(list).name), list.id());
    doc.brigades = units
        .chunks(6)
        .enumerate()
        .map(|(i, chunk)| BrigadeDoc {
            id: None,
            name: format!("{} Brigade", super::edit::ordinal(i + 1)),
            general: Some(LeaderDoc::default()),
            units: chunk.to_vec(),
        })
        .collect();
    let row = rosters::create(&state.app, owner, doc).await?;
    Ok(redirect(&format!("/rosters/{}/edit?done=created", row.id)))
}

// ---------- editor ----------

#[derive(Template)]
#[template(path = "systems/lod/editor.html")]
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
    /// The add form's values: what was posted to this brigade, or the defaults.
    fn adding(&self, brigade: &str) -> bool {
        self.form.action == "add_unit" && self.form.brigade == brigade
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
    let cat = &state.app.rules.lod;
    EditPage {
        ctx,
        id: row.id,
        version: row.version,
        view: build_view(cat, doc),
        choices: Choices::new(cat, ArmyList::from_id(&doc.army_list)),
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
    view::text(&build_view(&state.app.rules.lod, doc))
}

pub async fn apply_edit(
    state: &AppState,
    ctx: PageCtx,
    row: &RosterRow,
    fields: &[(String, String)],
) -> Result<HttpResponse, AppError> {
    let form: EditForm = read_form(fields)?;
    let stored = parse_stored(state, row)?;
    let cat = &state.app.rules.lod;
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
#[template(path = "systems/lod/roster/head.html")]
struct Head<'a> {
    view: &'a RosterView,
}

#[derive(Template)]
#[template(path = "systems/lod/roster/body.html")]
struct Body<'a> {
    view: &'a RosterView,
}

#[derive(Template)]
#[template(path = "systems/lod/roster/footer.html")]
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
    let view = build_view(&state.app.rules.lod, &doc);
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

/// Where in a document that is JSON but not a roster the reader stopped: the innermost part
/// (C-in-C, brigade, General, unit) that does not read on its own, and the field an unknown-field
/// message names.
fn shape_path(value: &serde_json::Value, message: &str) -> Option<String> {
    use serde_json::Value;
    let fails = |v: &Value, part: fn(Value) -> bool| !part(v.clone());
    let leader = |v: Value| v.is_null() || serde_json::from_value::<LeaderDoc>(v).is_ok();
    let unit = |v: Value| serde_json::from_value::<UnitDoc>(v).is_ok();
    let brigade = |v: Value| serde_json::from_value::<BrigadeDoc>(v).is_ok();
    let mut place = None;
    if value.get("c_in_c").is_some_and(|c| fails(c, leader)) {
        place = Some("c_in_c".to_string());
    }
    if let Some(brigades) = value.get("brigades").and_then(Value::as_array) {
        'outer: for (b, br) in brigades.iter().enumerate() {
            if let Some(units) = br.get("units").and_then(Value::as_array) {
                for (u, un) in units.iter().enumerate() {
                    if fails(un, unit) {
                        place = Some(format!("brigades[{b}].units[{u}]"));
                        break 'outer;
                    }
                }
            }
            if br.get("general").is_some_and(|g| fails(g, leader)) {
                place = Some(format!("brigades[{b}].general"));
                break;
            }
            if fails(br, brigade) {
                place = Some(format!("brigades[{b}]"));
                break;
            }
        }
    }
    // "unknown field `size`" or "missing field `entry`" names the field inside that part.
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

/// Reads a document as a Liberty or Death! roster: broken JSON with its line and column, JSON
/// of the wrong shape with the path of the part that does not read.
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
        summary: format!("The document is not a {} roster.", lod::ROSTER_FORMAT),
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
    read_doc(text).map(AnyRoster::Lod)
}

pub fn roster_json(
    state: &AppState,
    row: &RosterRow,
) -> Result<(serde_json::Value, serde_json::Value), AppError> {
    let doc = parse_stored(state, row)?;
    let report = lod::validate(&state.app.rules.lod, &doc, Setting::Standalone);
    Ok((
        serde_json::to_value(&doc).unwrap_or_default(),
        serde_json::to_value(report).unwrap_or_default(),
    ))
}
