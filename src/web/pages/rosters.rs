//! Roster pages: the list, the editor, the read-only and shared views, import and export,
//! and starting a roster from the book.

use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use futures_util::StreamExt;
use serde::Deserialize;

use crate::app;
use crate::app::rosters::{self, LoadedRoster, Saved};
use crate::rules::systems::lotf::{
    self, ElementDoc, GroupDoc, Mode, Nation, RosterDoc, Size, War, Weapon,
};
use crate::rules::SystemId;
use crate::store::rosters::RosterRow;
use crate::web::auth::csrf::{self, CsrfForm, NoFields};
use crate::web::auth::SignedIn;
use crate::web::page::{redirect, render, render_with_status, FormErrors, PageCtx, SelectOption};
use crate::web::state::state_of;
use crate::web::state::AppState;
use crate::web::systems::lotf::edit::{self, EditForm};
use crate::web::systems::lotf::historical;
use crate::web::systems::lotf::options::{self, Choice};
use crate::web::systems::lotf::text;
use crate::web::systems::lotf::view::{self, RosterView};
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

fn date(t: chrono::NaiveDateTime) -> String {
    t.format("%Y-%m-%d %H:%M UTC").to_string()
}

// ---------- list and create ----------

pub struct RosterSummary {
    pub id: i64,
    pub name: String,
    /// The rule system's name.
    pub system: String,
    pub war: String,
    pub nation: String,
    pub points: i32,
    pub limit: String,
    pub legal: bool,
    pub errors: i32,
    pub warnings: i32,
    pub updated: String,
}

impl RosterSummary {
    fn from_row(state: &AppState, row: &RosterRow) -> Self {
        let cat = &state.app.rules.lotf;
        Self {
            id: row.id,
            name: row.name.clone(),
            system: SystemId::from_id(&row.rule_system)
                .map_or_else(|| row.rule_system.clone(), |s| s.label().to_string()),
            war: War::from_id(&row.war)
                .and_then(|w| cat.war(w))
                .map(|w| w.name.clone())
                .unwrap_or_else(|| row.war.clone()),
            nation: Nation::from_id(&row.nation)
                .and_then(|n| cat.nation(n))
                .map(|n| n.name.clone())
                .unwrap_or_else(|| row.nation.clone()),
            points: row.points,
            limit: row
                .points_limit
                .map(|l| l.to_string())
                .unwrap_or_else(|| "—".into()),
            legal: row.legal,
            errors: row.error_count,
            warnings: row.warning_count,
            updated: date(row.updated_at),
        }
    }
}

#[derive(Template)]
#[template(path = "rosters/list.html")]
struct ListPage {
    ctx: PageCtx,
    rosters: Vec<RosterSummary>,
    war_filter: String,
    system_filter: String,
    /// The rule systems this build serves, for the filter and the new-roster form.
    systems: Vec<SelectOption>,
    choices: Choices,
    notice: Option<&'static str>,
    errors: FormErrors,
    form: CreateForm,
}

#[derive(Debug, Deserialize)]
pub struct ListQuery {
    war: Option<String>,
    system: Option<String>,
    done: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct CreateForm {
    /// The rule system the roster is for (`lotf`).
    system: String,
    name: String,
    war: String,
    nation: String,
    points_limit: String,
    mode: String,
}

async fn list_page(
    state: &web::Data<AppState>,
    actor: &crate::app::Actor,
    ctx: PageCtx,
    (war_filter, system_filter): (String, String),
    notice: Option<&'static str>,
    errors: FormErrors,
    form: CreateForm,
) -> Result<HttpResponse, AppError> {
    let filter = War::from_id(&war_filter).map(|w| w.id().to_string());
    let system = SystemId::from_id(&system_filter);
    let rows: Vec<RosterRow> = rosters::list(&state.app, actor, filter)
        .await?
        .into_iter()
        .filter(|r| system.is_none_or(|s| r.rule_system == s.id()))
        .collect();
    let status = if errors.is_empty() {
        StatusCode::OK
    } else {
        StatusCode::UNPROCESSABLE_ENTITY
    };
    let page = ListPage {
        ctx,
        rosters: rows
            .iter()
            .map(|r| RosterSummary::from_row(state, r))
            .collect(),
        war_filter,
        system_filter,
        systems: SystemId::served()
            .map(|s| SelectOption {
                value: s.id().to_string(),
                label: s.label().to_string(),
            })
            .collect(),
        choices: Choices::new(state, War::AmericanRevolution),
        notice,
        errors,
        form,
    };
    render_with_status(&page, status)
}

pub async fn list(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    query: web::Query<ListQuery>,
) -> Result<HttpResponse, AppError> {
    let notice = match query.done.as_deref() {
        Some("deleted") => Some("The roster was deleted."),
        _ => None,
    };
    let form = CreateForm {
        points_limit: "150".into(),
        ..CreateForm::default()
    };
    list_page(
        &state,
        &user.actor(),
        ctx,
        (
            query.war.clone().unwrap_or_default(),
            query.system.clone().unwrap_or_default(),
        ),
        notice,
        FormErrors::default(),
        form,
    )
    .await
}

pub async fn create(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    CsrfForm(form): CsrfForm<CreateForm>,
) -> Result<HttpResponse, AppError> {
    // Only Land of the Free rosters are made here until the seam gives each system its editor.
    let system = match form.system.as_str() {
        "" => Some(SystemId::Lotf),
        id => SystemId::from_id(id),
    };
    if system != Some(SystemId::Lotf) {
        let mut errors = FormErrors::default();
        errors.add(
            "system",
            match system {
                Some(other) => format!("Muster does not serve {} yet.", other.label()),
                None => "Choose a rule system from the list.".to_string(),
            },
        );
        let filters = (String::new(), String::new());
        return list_page(&state, &user.actor(), ctx, filters, None, errors, form).await;
    }
    let mut doc = RosterDoc::new("", War::AmericanRevolution, Nation::American, None);
    let settings = EditForm {
        action: "settings".into(),
        name: form.name.clone(),
        war: form.war.clone(),
        nation: form.nation.clone(),
        points_limit: form.points_limit.clone(),
        mode: form.mode.clone(),
        ..EditForm::default()
    };
    if let Err(errors) = edit::apply(&state.app.rules.lotf, &mut doc, &settings) {
        return list_page(
            &state,
            &user.actor(),
            ctx,
            (String::new(), String::new()),
            None,
            errors,
            form,
        )
        .await;
    }
    let row = rosters::create(&state.app, user.id, doc).await?;
    Ok(redirect(&format!("/rosters/{}/edit", row.id)))
}

// ---------- editor ----------

#[derive(Template)]
#[template(path = "rosters/edit.html")]
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

#[derive(Debug, Deserialize)]
pub struct EditQuery {
    element: Option<String>,
    done: Option<String>,
}

fn edit_page(
    state: &AppState,
    ctx: PageCtx,
    loaded: &LoadedRoster,
    editing: String,
    form: EditForm,
    errors: FormErrors,
    notice: Option<String>,
) -> EditPage {
    let cat = &state.app.rules.lotf;
    let report = lotf::validate(cat, &loaded.doc);
    EditPage {
        ctx,
        id: loaded.row.id,
        version: loaded.row.version,
        view: view::build(cat, &loaded.doc, &report),
        choices: Choices::new(state, loaded.doc.war),
        editing,
        form,
        errors,
        notice,
    }
}

pub async fn editor(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
    query: web::Query<EditQuery>,
) -> Result<HttpResponse, AppError> {
    let loaded = rosters::load_owned(&state.app, &user.actor(), id.into_inner()).await?;
    let notice = match query.done.as_deref() {
        Some("imported") => Some("Imported. Muster checked the roster against the current rules; see the findings below.".to_string()),
        Some("created") => Some("Your roster was created from the book. Adjust it as you like.".to_string()),
        _ => None,
    };
    let page = edit_page(
        &state,
        ctx,
        &loaded,
        query.element.clone().unwrap_or_default(),
        EditForm::default(),
        FormErrors::default(),
        notice,
    );
    render(&page)
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

pub async fn apply_edit(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
    CsrfForm(form): CsrfForm<EditForm>,
) -> Result<HttpResponse, AppError> {
    let id = id.into_inner();
    let loaded = rosters::load_owned(&state.app, &user.actor(), id).await?;
    let cat = &state.app.rules.lotf;
    if loaded.row.version != form.version {
        // Edited elsewhere since this page was loaded: show both, change nothing.
        let mut yours = loaded.doc.clone();
        let yours_text = edit::apply(cat, &mut yours, &form).ok().map(|_| {
            let report = lotf::validate(cat, &yours);
            text::render(&view::build(cat, &yours, &report))
        });
        let report = lotf::validate(cat, &loaded.doc);
        let page = ConflictPage {
            ctx,
            id,
            current_version: loaded.row.version,
            based_on: form.version,
            change: form.describe(),
            current_text: text::render(&view::build(cat, &loaded.doc, &report)),
            yours_text,
            fields: form.fields(),
        };
        return render_with_status(&page, StatusCode::CONFLICT);
    }
    let mut doc = loaded.doc.clone();
    match edit::apply(cat, &mut doc, &form) {
        Err(errors) => {
            let editing = if form.action == "update_element" {
                form.element.clone()
            } else {
                String::new()
            };
            let page = edit_page(&state, ctx, &loaded, editing, form, errors, None);
            render_with_status(&page, StatusCode::UNPROCESSABLE_ENTITY)
        }
        Ok(applied) => match rosters::save(&state.app, id, form.version, doc).await? {
            Saved::Ok(row) => Ok(redirect(&format!(
                "/rosters/{}/edit#{}",
                row.id, applied.anchor
            ))),
            Saved::Stale(current) => {
                let report = lotf::validate(cat, &current.doc);
                let page = ConflictPage {
                    ctx,
                    id,
                    current_version: current.row.version,
                    based_on: form.version,
                    change: form.describe(),
                    current_text: text::render(&view::build(cat, &current.doc, &report)),
                    yours_text: None,
                    fields: form.fields(),
                };
                render_with_status(&page, StatusCode::CONFLICT)
            }
        },
    }
}

// ---------- view, share, export ----------

#[derive(Template)]
#[template(path = "rosters/view.html")]
struct ViewPage {
    ctx: PageCtx,
    id: i64,
    view: RosterView,
    /// Owner's view (with actions) or a visitor's through a share link.
    owner: bool,
    share_url: Option<String>,
    /// Where the print pages of this view live (`/rosters/{id}` or `/shared/{token}`).
    print_base: String,
    /// Battles fought with this roster (owner's view only).
    battles: Vec<crate::web::pages::battles::BattleLine>,
    updated: String,
    notice: Option<&'static str>,
}

#[derive(Debug, Deserialize)]
pub struct DoneQuery {
    done: Option<String>,
}

pub async fn show(
    req: HttpRequest,
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
    query: web::Query<DoneQuery>,
) -> Result<HttpResponse, AppError> {
    let loaded = rosters::load_owned(&state.app, &user.actor(), id.into_inner()).await?;
    let fought = crate::app::battles::list_for_roster(&state.app, &loaded).await?;
    let battles = crate::web::pages::battles::lines(&fought);
    let cat = &state.app.rules.lotf;
    let report = lotf::validate(cat, &loaded.doc);
    let notice = match query.done.as_deref() {
        Some("shared") => Some("Anyone with the link below can now see this roster (read-only)."),
        Some("unshared") => Some("The share link no longer works."),
        _ => None,
    };
    render(&ViewPage {
        ctx,
        id: loaded.row.id,
        view: view::build(cat, &loaded.doc, &report),
        owner: true,
        battles,
        print_base: format!("/rosters/{}", loaded.row.id),
        share_url: loaded
            .row
            .share_token
            .as_ref()
            .map(|t| state.absolute_url(&req, &format!("/shared/{t}"))),
        updated: date(loaded.row.updated_at),
        notice,
    })
}

pub async fn shared(
    state: web::Data<AppState>,
    ctx: PageCtx,
    token: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    let token = token.into_inner();
    let print_base = format!("/shared/{token}");
    let loaded = rosters::load_shared(&state.app, token).await?;
    let cat = &state.app.rules.lotf;
    let report = lotf::validate(cat, &loaded.doc);
    render(&ViewPage {
        print_base,
        battles: Vec::new(),
        ctx,
        id: loaded.row.id,
        view: view::build(cat, &loaded.doc, &report),
        owner: false,
        share_url: None,
        updated: date(loaded.row.updated_at),
        notice: None,
    })
}

pub async fn share(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    id: web::Path<i64>,
    CsrfForm(_): CsrfForm<NoFields>,
) -> Result<HttpResponse, AppError> {
    let loaded = rosters::load_owned(&state.app, &user.actor(), id.into_inner()).await?;
    rosters::share(&state.app, loaded.row.id).await?;
    Ok(redirect(&format!("/rosters/{}?done=shared", loaded.row.id)))
}

pub async fn unshare(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    id: web::Path<i64>,
    CsrfForm(_): CsrfForm<NoFields>,
) -> Result<HttpResponse, AppError> {
    let loaded = rosters::load_owned(&state.app, &user.actor(), id.into_inner()).await?;
    rosters::unshare(&state.app, loaded.row.id).await?;
    Ok(redirect(&format!(
        "/rosters/{}?done=unshared",
        loaded.row.id
    )))
}

/// A file name made from the roster's name: letters, digits and dashes only.
pub fn file_stem(name: &str) -> String {
    let stem: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect::<String>()
        .split('-')
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    if stem.is_empty() {
        "roster".into()
    } else {
        stem.chars().take(60).collect()
    }
}

pub async fn export_json(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let loaded = rosters::load_owned(&state.app, &user.actor(), id.into_inner()).await?;
    Ok(HttpResponse::Ok()
        .content_type("application/json")
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!(
                "attachment; filename=\"{}.json\"",
                file_stem(&loaded.doc.name)
            ),
        ))
        .body(loaded.doc.to_json_pretty()))
}

pub async fn export_text(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let loaded = rosters::load_owned(&state.app, &user.actor(), id.into_inner()).await?;
    let cat = &state.app.rules.lotf;
    let report = lotf::validate(cat, &loaded.doc);
    Ok(HttpResponse::Ok()
        .content_type("text/plain; charset=utf-8")
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("inline; filename=\"{}.txt\"", file_stem(&loaded.doc.name)),
        ))
        .body(text::render(&view::build(cat, &loaded.doc, &report))))
}

// ---------- duplicate and delete ----------

pub async fn duplicate(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    id: web::Path<i64>,
    CsrfForm(_): CsrfForm<NoFields>,
) -> Result<HttpResponse, AppError> {
    let loaded = rosters::load_owned(&state.app, &user.actor(), id.into_inner()).await?;
    let row = rosters::duplicate(&state.app, &loaded).await?;
    Ok(redirect(&format!("/rosters/{}/edit", row.id)))
}

#[derive(Template)]
#[template(path = "rosters/delete.html")]
struct DeletePage {
    ctx: PageCtx,
    id: i64,
    name: String,
    points: i32,
}

pub async fn confirm_delete(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let loaded = rosters::load_owned(&state.app, &user.actor(), id.into_inner()).await?;
    render(&DeletePage {
        ctx,
        id: loaded.row.id,
        name: loaded.row.name,
        points: loaded.row.points,
    })
}

pub async fn delete(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    id: web::Path<i64>,
    CsrfForm(_): CsrfForm<NoFields>,
) -> Result<HttpResponse, AppError> {
    let loaded = rosters::load_owned(&state.app, &user.actor(), id.into_inner()).await?;
    rosters::delete(&state.app, loaded.row.id).await?;
    Ok(redirect("/rosters?done=deleted"))
}

// ---------- import ----------

#[derive(Template)]
#[template(path = "rosters/import.html")]
struct ImportPage {
    ctx: PageCtx,
    document: String,
    problem: Option<ImportProblem>,
}

pub struct ImportProblem {
    pub message: String,
    pub location: String,
}

pub async fn import_page(_user: SignedIn, ctx: PageCtx) -> Result<HttpResponse, AppError> {
    render(&ImportPage {
        ctx,
        document: String::new(),
        problem: None,
    })
}

pub const MAX_IMPORT_BYTES: usize = 2 * 1024 * 1024;

/// Reads the import form, either multipart (file upload) or url-encoded (pasted text), and
/// checks its CSRF token. Returns the document text.
async fn read_import_form(req: &HttpRequest, payload: web::Payload) -> Result<String, AppError> {
    let state = state_of(req)?;
    let content_type = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let (mut token, mut pasted, mut file) = (String::new(), String::new(), Vec::new());
    if content_type.starts_with("multipart/form-data") {
        let mut form = actix_multipart::Multipart::new(req.headers(), payload);
        while let Some(field) = form.next().await {
            let mut field = field
                .map_err(|e| AppError::bad_request(format!("The upload could not be read: {e}")))?;
            let name = field.name().unwrap_or("").to_string();
            let mut bytes = Vec::new();
            while let Some(chunk) = field.next().await {
                let chunk = chunk.map_err(|e| {
                    AppError::bad_request(format!("The upload could not be read: {e}"))
                })?;
                if bytes.len() + chunk.len() > MAX_IMPORT_BYTES {
                    return Err(AppError::bad_request(
                        "The file is larger than 2 MB; a roster is far smaller.",
                    ));
                }
                bytes.extend_from_slice(&chunk);
            }
            match name.as_str() {
                csrf::CSRF_FIELD => token = String::from_utf8_lossy(&bytes).into_owned(),
                "document" => pasted = String::from_utf8_lossy(&bytes).into_owned(),
                "file" => file = bytes,
                _ => {}
            }
        }
    } else {
        let mut body = web::BytesMut::new();
        let mut payload = payload;
        while let Some(chunk) = payload.next().await {
            let chunk = chunk
                .map_err(|e| AppError::bad_request(format!("The form could not be read: {e}")))?;
            if body.len() + chunk.len() > MAX_IMPORT_BYTES + 4096 {
                return Err(AppError::bad_request(
                    "The pasted text is larger than 2 MB; a roster is far smaller.",
                ));
            }
            body.extend_from_slice(&chunk);
        }
        let pairs: Vec<(String, String)> = serde_urlencoded::from_bytes(&body)
            .map_err(|_| AppError::bad_request("The form could not be read."))?;
        for (k, v) in pairs {
            match k.as_str() {
                csrf::CSRF_FIELD => token = v,
                "document" => pasted = v,
                _ => {}
            }
        }
    }
    if !csrf::token_matches(req, &state, &token) {
        return Err(AppError::CsrfRejected);
    }
    if !file.is_empty() {
        return String::from_utf8(file).map_err(|_| {
            AppError::bad_request("The file is not UTF-8 text; export rosters from Muster as JSON.")
        });
    }
    Ok(pasted)
}

pub async fn import(
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
) -> Result<HttpResponse, AppError> {
    let text = read_import_form(&req, payload).await?;
    let refuse = |ctx, text, message: String, location: String| {
        render_with_status(
            &ImportPage {
                ctx,
                document: text,
                problem: Some(ImportProblem { message, location }),
            },
            StatusCode::UNPROCESSABLE_ENTITY,
        )
    };
    if text.trim().is_empty() {
        return refuse(
            ctx,
            text,
            "Choose a file or paste a roster document.".into(),
            String::new(),
        );
    }
    if let Err(app::Error::Validation { details, .. }) = rosters::refuse_other_system(&text) {
        let message = details.into_iter().map(|d| d.message).collect();
        return refuse(ctx, text, message, "format".into());
    }
    // parse_roster also refuses documents too large to be a force.
    match lotf::parse_roster(&text) {
        Ok(doc) => {
            let row = rosters::create(&state.app, user.id, doc).await?;
            Ok(redirect(&format!("/rosters/{}/edit?done=imported", row.id)))
        }
        Err(e) => {
            let position = if e.line > 0 {
                format!("line {}, column {}", e.line, e.column)
            } else {
                String::new()
            };
            let location = match (&e.path, position.is_empty()) {
                (Some(path), false) => format!("{path} ({position})"),
                (Some(path), true) => path.clone(),
                (None, _) => position,
            };
            refuse(ctx, text, e.message, location)
        }
    }
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
#[template(path = "rosters/new_from_book.html")]
struct BookPage {
    ctx: PageCtx,
    choices: Choices,
    war: String,
    nation: String,
    entries: Vec<BookEntry>,
    refights: Vec<RefightChoice>,
    error: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct BookQuery {
    war: String,
    nation: String,
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

pub async fn from_book_page(
    state: web::Data<AppState>,
    _user: SignedIn,
    ctx: PageCtx,
    query: web::Query<BookQuery>,
) -> Result<HttpResponse, AppError> {
    let (war, nation) = (War::from_id(&query.war), Nation::from_id(&query.nation));
    render(&BookPage {
        ctx,
        choices: Choices::new(&state, war.unwrap_or(War::AmericanRevolution)),
        war: query.war.clone(),
        nation: query.nation.clone(),
        entries: book_entries(&state, war, nation),
        refights: refights(),
        error: None,
    })
}

/// Elements from the historical list: `count_<key>` and `size_<key>` fields per entry.
pub async fn from_book(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    CsrfForm(fields): CsrfForm<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    let get = |k: &str| {
        fields
            .iter()
            .find(|(name, _)| name == k)
            .map(|(_, v)| v.as_str())
            .unwrap_or("")
    };
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
            choices: Choices::new(&state, war),
            war: war.id().into(),
            nation: nation.id().into(),
            entries: book_entries(&state, Some(war), Some(nation)),
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
    let row = rosters::create(&state.app, user.id, doc).await?;
    Ok(redirect(&format!("/rosters/{}/edit?done=created", row.id)))
}

#[derive(Debug, Deserialize)]
pub struct RefightForm {
    #[serde(default)]
    refight: String,
}

/// One force of one side of a historical order of battle, as a historical-mode roster.
pub async fn from_refight(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    CsrfForm(form): CsrfForm<RefightForm>,
) -> Result<HttpResponse, AppError> {
    let doc = historical::force(&form.refight)
        .ok_or_else(|| AppError::bad_request("Choose a force from the list."))?;
    debug_assert_eq!(doc.mode, Mode::Historical);
    let row = rosters::create(&state.app, user.id, doc).await?;
    Ok(redirect(&format!("/rosters/{}/edit?done=created", row.id)))
}
