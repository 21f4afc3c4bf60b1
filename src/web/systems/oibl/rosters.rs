//! One if by Land rosters on the web: the list line, the new-roster fields (a name and a side:
//! an empty order of battle with one brigade), the starting points (a small example brigade per
//! side), the editor, the roster page, the plain text and reading imports. The generic pages
//! reach it through `RosterPages`.

use actix_web::http::StatusCode;
use actix_web::HttpResponse;
use askama::Template;

use super::edit::{self, EditForm, GRANTS};
use super::view::{self, nation_label, RosterView};
use crate::app::rosters::{self, Saved};
use crate::rules::system::RuleSystem;
use crate::rules::systems::oibl::roster::{check_roster_size, MAX_TEXT, NATIONS, WAR};
use crate::rules::systems::oibl::{self, parse_roster, Catalogue, Oibl, RosterDoc};
use crate::rules::systems::AnyRoster;
use crate::store::rosters::RosterRow;
use crate::web::page::{redirect, render, render_with_status, FormErrors, PageCtx, SelectOption};
use crate::web::state::AppState;
use crate::web::systems::{ReadProblem, RosterBody, RosterLine};
use crate::web::AppError;

/// One `<option>` of the editor's selects (the shape `rosters/_macros.html` expects).
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

/// A flag a class may carry, for the editor's check boxes.
pub struct FlagChoice {
    pub field: &'static str,
    pub label: &'static str,
    /// Classes that may carry it, space-separated.
    pub classes: String,
}

/// What the editor's selects offer: the catalogue's values and nothing else.
pub struct Choices {
    pub nations: Vec<Choice>,
    pub classes: Vec<Choice>,
    pub qualities: Vec<Choice>,
    pub basings: Vec<Choice>,
    pub weapons: Vec<Choice>,
    pub guns: Vec<Choice>,
    pub ratings: Vec<Choice>,
    pub bayonets: Vec<Choice>,
    pub grants: Vec<Choice>,
    pub flags: Vec<FlagChoice>,
}

fn nation_choices() -> Vec<Choice> {
    NATIONS.iter().map(|n| choice(n, nation_label(n))).collect()
}

impl Choices {
    fn new(cat: &Catalogue) -> Self {
        let classes_with = |flag: &str| -> String {
            cat.classes
                .iter()
                .filter(|c| c.flags.iter().any(|f| f == flag))
                .map(|c| c.id.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        };
        Self {
            nations: nation_choices(),
            classes: cat
                .classes
                .iter()
                .map(|c| {
                    let basing = cat
                        .basing(&c.basing)
                        .map(|b| format!("{} a stand", b.figures_per_stand))
                        .unwrap_or_default();
                    choice(&c.id, format!("{} ({basing})", c.name))
                })
                .collect(),
            qualities: cat
                .qualities
                .iter()
                .map(|q| {
                    choice(
                        q.id.id(),
                        format!("{} (Morale Number {})", q.name, q.morale_number),
                    )
                })
                .collect(),
            basings: std::iter::once(choice("", "the class's own".into()))
                .chain(cat.basings.iter().map(|b| {
                    choice(
                        &b.id,
                        format!("{} ({} a stand)", b.name, b.figures_per_stand),
                    )
                }))
                .collect(),
            weapons: std::iter::once(choice("", "the class's own".into()))
                .chain(cat.weapons.iter().map(|w| {
                    choice(
                        &w.id,
                        format!("{} ({})", w.name, super::print::reference::inches(w.range)),
                    )
                }))
                .collect(),
            guns: cat
                .guns
                .iter()
                .map(|g| {
                    choice(
                        g.id.id(),
                        format!("{} ({}, fires as {})", g.name, g.calibre, g.figures),
                    )
                })
                .collect(),
            ratings: (cat.commander_rating.min..=cat.commander_rating.max)
                .map(|r| choice(&r.to_string(), format!("X = {r}")))
                .collect(),
            bayonets: vec![
                choice("", "as the class has them".into()),
                choice("yes", "bayonets".into()),
                choice("no", "none".into()),
            ],
            grants: GRANTS
                .iter()
                .map(|g| {
                    choice(
                        g,
                        oibl::Formation::from_id(g)
                            .map_or_else(|| g.to_string(), |f| f.words().to_string()),
                    )
                })
                .collect(),
            flags: vec![
                FlagChoice {
                    field: "u_light_infantry",
                    label: "Converged light infantry",
                    classes: classes_with("light_infantry"),
                },
                FlagChoice {
                    field: "u_grenadiers",
                    label: "Converged grenadiers",
                    classes: classes_with("grenadiers"),
                },
                FlagChoice {
                    field: "u_legion",
                    label: "Legion infantry",
                    classes: classes_with("legion"),
                },
                FlagChoice {
                    field: "u_discharged_continentals",
                    label: "Discharged Continentals",
                    classes: classes_with("discharged_continentals"),
                },
            ],
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

pub fn build_view(cat: &Catalogue, doc: &RosterDoc) -> RosterView {
    let report = oibl::validate(cat, doc);
    view::build(cat, doc, &report)
}

// ---------- the roster list ----------

pub fn roster_line(_state: &AppState, _war: &str, nation: &str) -> RosterLine {
    RosterLine {
        war: "American War of Independence".into(),
        nation: nation_label(nation),
    }
}

pub fn war_choices(_state: &AppState) -> Vec<SelectOption> {
    vec![SelectOption {
        value: WAR.to_string(),
        label: "American War of Independence".into(),
    }]
}

#[derive(Template)]
#[template(path = "systems/oibl/new_fields.html")]
struct NewFields<'a> {
    nations: Vec<Choice>,
    side: &'a str,
    errors: &'a FormErrors,
}

pub fn new_roster_fields(
    _state: &AppState,
    form: &[(String, String)],
    errors: &FormErrors,
) -> Result<String, AppError> {
    Ok(NewFields {
        nations: nation_choices(),
        side: field(form, "side"),
        errors,
    }
    .render()?)
}

/// A new order of battle: empty, with one brigade under a commander of rating 1 (B-8).
pub async fn create_roster(
    state: &AppState,
    owner: i64,
    form: &[(String, String)],
) -> Result<Result<RosterRow, FormErrors>, AppError> {
    let mut errors = FormErrors::default();
    let name = field(form, "name").trim();
    if name.is_empty() {
        errors.add("name", "Give the order of battle a name.");
    } else if name.chars().count() > MAX_TEXT {
        errors.add(
            "name",
            format!("Keep the name to {MAX_TEXT} characters or fewer."),
        );
    }
    // `side`, not `nation`: the new-roster form carries every system's fields at once, and
    // Land of the Free's already use `nation`.
    let nation = field(form, "side");
    if !NATIONS.contains(&nation) {
        errors.add("side", "Choose the side this order of battle is for.");
    }
    if !errors.is_empty() {
        return Ok(Err(errors));
    }
    let doc = RosterDoc::new(name, nation);
    Ok(Ok(rosters::create(&state.app, owner, doc).await?))
}

// ---------- starting points ----------

pub struct Example {
    pub index: usize,
    pub name: String,
    pub side: String,
    pub units: usize,
    pub brigades: usize,
    pub figures: u32,
}

#[derive(Template)]
#[template(path = "systems/oibl/start.html")]
struct StartPage {
    ctx: PageCtx,
    nations: Vec<Choice>,
    examples: Vec<Example>,
}

fn examples(cat: &Catalogue) -> Vec<Example> {
    Oibl::starting_rosters(cat)
        .iter()
        .enumerate()
        .map(|(index, doc)| Example {
            index,
            name: doc.name.clone(),
            side: nation_label(&doc.nation),
            units: doc.unit_count(),
            brigades: doc.brigades.len(),
            figures: oibl::validate(cat, doc).figures,
        })
        .collect()
}

pub fn start_page(
    state: &AppState,
    ctx: PageCtx,
    _query: &[(String, String)],
) -> Result<HttpResponse, AppError> {
    render(&StartPage {
        ctx,
        nations: nation_choices(),
        examples: examples(&state.app.rules.oibl),
    })
}

pub async fn start_roster(
    state: &AppState,
    _ctx: PageCtx,
    owner: i64,
    how: &str,
    form: &[(String, String)],
) -> Result<HttpResponse, AppError> {
    match how {
        "example" => {
            let cat = &state.app.rules.oibl;
            let doc = field(form, "example")
                .parse::<usize>()
                .ok()
                .and_then(|i| Oibl::starting_rosters(cat).into_iter().nth(i))
                .ok_or_else(|| AppError::bad_request("Choose one of the starting points."))?;
            let row = rosters::create(&state.app, owner, doc).await?;
            Ok(redirect(&format!("/rosters/{}/edit?done=created", row.id)))
        }
        _ => Err(AppError::NotFound),
    }
}

// ---------- editor ----------

#[derive(Template)]
#[template(path = "systems/oibl/editor.html")]
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
    /// Whether the add form of `brigade` is the one that was posted.
    fn adding(&self, brigade: &str) -> bool {
        self.form.action == "add_unit" && self.form.brigade == brigade
    }

    /// Whether the change form of unit `unit` was posted (its fields then show what was sent).
    fn posted(&self, unit: &str) -> bool {
        self.form.action == "update_unit" && self.form.unit == unit
    }

    /// A check box of the unit form: as posted, or as stored.
    fn checked(&self, unit: &view::UnitView, field: &str) -> bool {
        if self.posted(&unit.id) {
            let v = match field {
                "u_auth_close_order" => &self.form.u_auth_close_order,
                "u_auth_open_order" => &self.form.u_auth_open_order,
                "u_auth_skirmish" => &self.form.u_auth_skirmish,
                "u_marksmen" => &self.form.u_marksmen,
                "u_light_infantry" => &self.form.u_light_infantry,
                "u_grenadiers" => &self.form.u_grenadiers,
                "u_legion" => &self.form.u_legion,
                "u_discharged_continentals" => &self.form.u_discharged_continentals,
                _ => return false,
            };
            return !v.is_empty();
        }
        match field {
            "u_auth_close_order" => unit.authorized("close_order"),
            "u_auth_open_order" => unit.authorized("open_order"),
            "u_auth_skirmish" => unit.authorized("skirmish"),
            "u_marksmen" => unit.marksmen,
            "u_light_infantry" => unit.light_infantry,
            "u_grenadiers" => unit.grenadiers,
            "u_legion" => unit.legion,
            "u_discharged_continentals" => unit.discharged_continentals,
            _ => false,
        }
    }

    /// Whether class `class` may carry the flag of check box `field`.
    fn offers_flag(&self, flag: &FlagChoice, class: &str) -> bool {
        flag.classes.split(' ').any(|c| c == class)
    }

    /// A select of the unit form: as posted, or as stored.
    fn unit_value(&self, unit: &view::UnitView, field: &str) -> String {
        if self.posted(&unit.id) {
            let f = &self.form;
            return match field {
                "u_class" => f.u_class.clone(),
                "u_quality" => f.u_quality.clone(),
                "u_basing" => f.u_basing.clone(),
                "u_weapon" => f.u_weapon.clone(),
                "u_bayonets" => f.u_bayonets.clone(),
                "u_gun" => f.u_gun.clone(),
                _ => String::new(),
            };
        }
        match field {
            "u_class" => unit.class.clone(),
            "u_quality" => unit.quality.clone(),
            "u_basing" => unit.basing.clone(),
            "u_weapon" => unit.weapon.clone(),
            "u_bayonets" => unit.bayonets_choice.clone(),
            "u_gun" => unit.gun.clone(),
            _ => String::new(),
        }
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
    let cat = &state.app.rules.oibl;
    EditPage {
        ctx,
        id: row.id,
        version: row.version,
        view: build_view(cat, doc),
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
    view::text(&build_view(&state.app.rules.oibl, doc))
}

pub async fn apply_edit(
    state: &AppState,
    ctx: PageCtx,
    row: &RosterRow,
    fields: &[(String, String)],
) -> Result<HttpResponse, AppError> {
    let form: EditForm = read_form(fields)?;
    let stored = parse_stored(state, row)?;
    let cat = &state.app.rules.oibl;
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
#[template(path = "systems/oibl/roster/head.html")]
struct Head<'a> {
    view: &'a RosterView,
}

#[derive(Template)]
#[template(path = "systems/oibl/roster/body.html")]
struct Body<'a> {
    view: &'a RosterView,
}

#[derive(Template)]
#[template(path = "systems/oibl/roster/footer.html")]
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
    let view = build_view(&state.app.rules.oibl, &doc);
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
/// (army commander, division, brigade, commander, unit) that does not read on its own, and the
/// field an unknown-field message names.
fn shape_path(value: &serde_json::Value, message: &str) -> Option<String> {
    use crate::rules::systems::oibl::roster::{CommanderDoc, DivisionDoc};
    use crate::rules::systems::oibl::{BrigadeDoc, UnitDoc};
    use serde_json::Value;
    let reads = |v: &Value, part: fn(Value) -> bool| part(v.clone());
    let commander = |v: Value| v.is_null() || serde_json::from_value::<CommanderDoc>(v).is_ok();
    let unit = |v: Value| serde_json::from_value::<UnitDoc>(v).is_ok();
    let brigade = |v: Value| serde_json::from_value::<BrigadeDoc>(v).is_ok();
    let division = |v: Value| serde_json::from_value::<DivisionDoc>(v).is_ok();
    let mut place = None;
    if value
        .get("army_commander")
        .is_some_and(|c| !reads(c, commander))
    {
        place = Some("army_commander".to_string());
    }
    if let Some(divisions) = value.get("divisions").and_then(Value::as_array) {
        for (d, div) in divisions.iter().enumerate() {
            if !reads(div, division) {
                place = Some(format!("divisions[{d}]"));
                break;
            }
        }
    }
    if let Some(brigades) = value.get("brigades").and_then(Value::as_array) {
        'outer: for (b, br) in brigades.iter().enumerate() {
            if let Some(units) = br.get("units").and_then(Value::as_array) {
                for (u, un) in units.iter().enumerate() {
                    if !reads(un, unit) {
                        place = Some(format!("brigades[{b}].units[{u}]"));
                        break 'outer;
                    }
                }
            }
            if br.get("commander").is_some_and(|c| !reads(c, commander)) {
                place = Some(format!("brigades[{b}].commander"));
                break;
            }
            if !reads(br, brigade) {
                place = Some(format!("brigades[{b}]"));
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

/// Reads a document as a One if by Land roster: broken JSON with its line and column, JSON of
/// the wrong shape with the path of the part that does not read.
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
        summary: format!("The document is not a {} roster.", oibl::ROSTER_FORMAT),
        message,
        path,
        line,
        column,
    };
    // The format first, so another system's file is named as such.
    let doc = match parse_roster(text) {
        Ok(doc) => doc,
        Err(e) if e.path.as_deref() == Some("format") => {
            return Err(not_a_roster(e.message, e.path, 0, 0));
        }
        Err(_) => {
            let e = match serde_json::from_str::<RosterDoc>(text) {
                Err(e) => e,
                Ok(_) => {
                    return Err(not_a_roster(
                        "the document cannot be read as a roster".into(),
                        None,
                        0,
                        0,
                    ))
                }
            };
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
    };
    check_roster_size(&doc).map_err(|e| not_a_roster(e.message, e.path, 0, 0))?;
    Ok(doc)
}

pub fn read_roster(text: &str) -> Result<AnyRoster, ReadProblem> {
    read_doc(text).map(AnyRoster::Oibl)
}

pub fn roster_json(
    state: &AppState,
    row: &RosterRow,
) -> Result<(serde_json::Value, serde_json::Value), AppError> {
    let doc = parse_stored(state, row)?;
    let report = oibl::validate(&state.app.rules.oibl, &doc);
    Ok((
        serde_json::to_value(&doc).map_err(AppError::internal)?,
        serde_json::to_value(report).map_err(AppError::internal)?,
    ))
}
