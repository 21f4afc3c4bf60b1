//! Roster pages: the list, the editor, the read-only and shared views, import and export,
//! and starting a roster from the book.

use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use futures_util::StreamExt;
use serde::Deserialize;

use crate::app;
use crate::app::rosters;
use crate::rules::SystemId;
use crate::store::rosters::{ListingOrder, ListingQuery, RosterListing, RosterRow};
use crate::web::auth::csrf::{self, CsrfForm, NoFields};
use crate::web::auth::SignedIn;
use crate::web::listing::{ListCut, ListParams, Pager};
use crate::web::page::{redirect, render, render_with_status, FormErrors, PageCtx, SelectOption};
use crate::web::state::state_of;
use crate::web::state::AppState;
use crate::web::systems::{self, pages_for_new, pages_for_stored, EditRequest, RosterBody};
use crate::web::AppError;

/// A posted form or a query string as its `(name, value)` pairs, for the system to read.
type Fields = Vec<(String, String)>;

fn field<'a>(fields: &'a [(String, String)], name: &str) -> &'a str {
    fields
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
        .unwrap_or("")
}

/// Whether a stored roster's system prices rosters in points.
fn priced(rule_system: &str) -> bool {
    SystemId::from_id(rule_system)
        .and_then(SystemId::capabilities)
        .is_some_and(|c| c.points)
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
    /// The system prices rosters in points (a pointless one shows none).
    pub priced: bool,
    pub legal: bool,
    pub errors: i32,
    pub warnings: i32,
    pub updated: String,
}

impl RosterSummary {
    pub fn from_row(state: &AppState, row: &RosterListing) -> Self {
        // A roster of a system this build does not serve shows its stored ids.
        let line = pages_for_stored(&row.rule_system)
            .ok()
            .map(|pages| pages.roster_line(state, &row.war, &row.nation));
        Self {
            id: row.id,
            name: row.name.clone(),
            system: SystemId::from_id(&row.rule_system)
                .map_or_else(|| row.rule_system.clone(), |s| s.label().to_string()),
            war: line
                .as_ref()
                .map_or_else(|| row.war.clone(), |l| l.war.clone()),
            nation: line.map_or_else(|| row.nation.clone(), |l| l.nation),
            points: row.points,
            priced: priced(&row.rule_system),
            // 0 is "no limit" (M-2), as is none.
            limit: row
                .points_limit
                .filter(|&l| l > 0)
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
    /// The search box's text.
    search: String,
    /// `changed`, `name` or `points`.
    sort: &'static str,
    /// The sort headers' links, in that order (value: the link; label: the sort).
    sort_links: Vec<SelectOption>,
    pager: Pager,
    /// The rule systems this build serves, for the filter and the new-roster form.
    systems: Vec<SelectOption>,
    /// Every served system's wars, for the filter.
    wars: Vec<SelectOption>,
    notice: Option<&'static str>,
    errors: FormErrors,
    form: CreateForm,
    /// The chosen system's own fields of the new-roster form, as HTML.
    system_fields: String,
}

#[derive(Debug, Deserialize)]
pub struct ListQuery {
    war: Option<String>,
    system: Option<String>,
    done: Option<String>,
    /// The search (part of a roster's name), the sort (`changed`, `name` or `points`) and the
    /// page.
    #[serde(flatten)]
    list: ListParams,
}

/// Rosters on one page of the list.
const ROSTERS_PER_PAGE: i64 = 50;

/// The roster list's sorts, its own order first.
const SORTS: [&str; 3] = ["changed", "name", "points"];

fn listing_order(cut: &ListCut) -> ListingOrder {
    match cut.sort {
        "name" => ListingOrder::Name,
        "points" => ListingOrder::Points,
        _ => ListingOrder::Changed,
    }
}

/// The new-roster form's generic fields; the system reads the rest.
#[derive(Debug, Default)]
pub struct CreateForm {
    /// The rule system the roster is for.
    system: String,
    name: String,
    fields: Fields,
}

impl CreateForm {
    fn from_fields(fields: Fields) -> Self {
        Self {
            system: field(&fields, "system").to_string(),
            name: field(&fields, "name").to_string(),
            fields,
        }
    }
}

async fn list_page(
    state: &web::Data<AppState>,
    actor: &crate::app::Actor,
    ctx: PageCtx,
    (war_filter, system_filter, cut): (String, String, ListCut),
    notice: Option<&'static str>,
    errors: FormErrors,
    form: CreateForm,
) -> Result<HttpResponse, AppError> {
    // Systems of one period share wars: each is offered once, under the first system's name.
    let mut wars: Vec<SelectOption> = Vec::new();
    for war in systems::REGISTRY.iter().flat_map(|s| s.war_choices(state)) {
        if !wars.iter().any(|w| w.value == war.value) {
            wars.push(war);
        }
    }
    let filter = wars
        .iter()
        .any(|w| w.value == war_filter)
        .then(|| war_filter.clone());
    let system = SystemId::from_id(&system_filter);
    let (rows, total) = rosters::listing(
        &state.app,
        actor,
        ListingQuery {
            war: filter,
            rule_system: system.map(|s| s.id().to_string()),
            search: cut.search(),
            order: listing_order(&cut),
            page: cut.page - 1,
            per_page: ROSTERS_PER_PAGE,
        },
    )
    .await?;
    let href = |sort: &str, page: i64| {
        cut.link(
            "/rosters",
            &[("system", &system_filter), ("war", &war_filter)],
            sort,
            page,
        )
    };
    let sort_links = crate::web::listing::sort_options(&SORTS, href);
    let pager = Pager::new(&cut, ROSTERS_PER_PAGE, total, |page| href(cut.sort, page));
    let status = if errors.is_empty() {
        StatusCode::OK
    } else {
        StatusCode::UNPROCESSABLE_ENTITY
    };
    // Every served system's own fields, each in its fieldset: without JavaScript all show and
    // each system reads only its own; the script shows only the chosen system's.
    let mut system_fields = String::new();
    for pages in systems::REGISTRY {
        let id = pages.id();
        system_fields.push_str(&format!(
            "<fieldset class=\"system-fields\" data-system=\"{}\"><legend>{}</legend>{}</fieldset>",
            id.id(),
            id.label(),
            pages.new_roster_fields(state, &form.fields, &errors)?
        ));
    }
    let page = ListPage {
        ctx,
        rosters: rows
            .iter()
            .map(|r| RosterSummary::from_row(state, r))
            .collect(),
        war_filter,
        system_filter,
        search: cut.search.clone(),
        sort: cut.sort,
        sort_links,
        pager,
        systems: SystemId::served()
            .map(|s| SelectOption {
                value: s.id().to_string(),
                label: s.label().to_string(),
            })
            .collect(),
        wars,
        notice,
        errors,
        form,
        system_fields,
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
    list_page(
        &state,
        &user.actor(),
        ctx,
        (
            query.war.clone().unwrap_or_default(),
            query.system.clone().unwrap_or_default(),
            query.list.cut(&SORTS),
        ),
        notice,
        FormErrors::default(),
        // Listing one system's rosters, a new one is for that system too.
        CreateForm {
            system: query.system.clone().unwrap_or_default(),
            ..CreateForm::default()
        },
    )
    .await
}

pub async fn create(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    CsrfForm(fields): CsrfForm<Fields>,
) -> Result<HttpResponse, AppError> {
    let form = CreateForm::from_fields(fields);
    let filters = (String::new(), String::new(), ListCut::first_page(&SORTS));
    let pages = match pages_for_new(&form.system) {
        Ok(pages) => pages,
        Err(message) => {
            let mut errors = FormErrors::default();
            errors.add("system", message);
            return list_page(&state, &user.actor(), ctx, filters, None, errors, form).await;
        }
    };
    match pages.create_roster(&state, user.id, &form.fields).await? {
        Ok(row) => Ok(redirect(&format!("/rosters/{}/edit", row.id))),
        Err(errors) => list_page(&state, &user.actor(), ctx, filters, None, errors, form).await,
    }
}

// ---------- editor ----------

#[derive(Debug, Deserialize)]
pub struct EditQuery {
    element: Option<String>,
    done: Option<String>,
}

pub async fn editor(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
    query: web::Query<EditQuery>,
) -> Result<HttpResponse, AppError> {
    let row = rosters::load_owned_row(&state.app, &user.actor(), id.into_inner()).await?;
    let notice = match query.done.as_deref() {
        Some("imported") => Some("Imported. Muster checked the roster against the current rules; see the findings below.".to_string()),
        Some("created") => Some("Your roster was created. Adjust it as you like.".to_string()),
        _ => None,
    };
    let element = query.element.as_deref().unwrap_or("");
    pages_for_stored(&row.rule_system)?
        .editor(&state, ctx, &row, EditRequest::Open { element, notice })
        .await
}

pub async fn apply_edit(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
    CsrfForm(fields): CsrfForm<Fields>,
) -> Result<HttpResponse, AppError> {
    let row = rosters::load_owned_row(&state.app, &user.actor(), id.into_inner()).await?;
    pages_for_stored(&row.rule_system)?
        .editor(&state, ctx, &row, EditRequest::Apply(&fields))
        .await
}

// ---------- view, share, export ----------

#[derive(Template)]
#[template(path = "rosters/view.html")]
struct ViewPage {
    ctx: PageCtx,
    id: i64,
    /// The system's parts of the page.
    body: RosterBody,
    /// Owner's view (with actions) or a visitor's through a share link.
    owner: bool,
    share_url: Option<String>,
    /// Where the print pages of this view live (`/rosters/{id}` or `/shared/{token}`).
    print_base: String,
    /// The quick reference of the roster's own rule system.
    reference: &'static str,
    /// Battles fought with this roster (owner's view only).
    battles: Vec<crate::web::pages::battles::BattleLine>,
    notice: Option<&'static str>,
    /// A logged-in player who does not own the shared roster may copy it to their rosters.
    copy_to_mine: bool,
}

#[derive(Debug, Deserialize)]
pub struct DoneQuery {
    done: Option<String>,
}

fn body_of(state: &AppState, row: &RosterRow) -> Result<RosterBody, AppError> {
    pages_for_stored(&row.rule_system)?.roster_body(state, row, &date(row.updated_at))
}

/// The roster's own system's quick reference (a Liberty or Death! roster links to that sheet).
fn reference_of(row: &RosterRow) -> Result<&'static str, AppError> {
    Ok(pages_for_stored(&row.rule_system)?
        .tools()
        .iter()
        .find(|t| t.kind == "reference")
        .map_or("/", |t| t.href))
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
    let battles = crate::web::pages::battles::lines(&state.app.rules, &fought);
    let notice = match query.done.as_deref() {
        Some("shared") => Some("Anyone with the link below can now see this roster (read-only)."),
        Some("unshared") => Some("The share link no longer works."),
        Some("copied") => {
            Some("A copy of the shared roster is now one of yours: change it as you like.")
        }
        _ => None,
    };
    render(&ViewPage {
        ctx,
        id: loaded.row.id,
        body: body_of(&state, &loaded.row)?,
        reference: reference_of(&loaded.row)?,
        owner: true,
        copy_to_mine: false,
        battles,
        print_base: format!("/rosters/{}", loaded.row.id),
        share_url: loaded
            .row
            .share_token
            .as_ref()
            .map(|t| state.absolute_url(&req, &format!("/shared/{t}"))),
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
    let row = rosters::load_shared_row(&state.app, token).await?;
    let copy_to_mine = ctx.user.as_ref().is_some_and(|u| u.id != row.owner_id);
    render(&ViewPage {
        copy_to_mine,
        print_base,
        battles: Vec::new(),
        ctx,
        id: row.id,
        body: body_of(&state, &row)?,
        reference: reference_of(&row)?,
        owner: false,
        share_url: None,
        notice: None,
    })
}

/// A logged-in player copies a shared roster into their own rosters and lands on the copy.
pub async fn copy_shared(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    token: web::Path<String>,
    CsrfForm(_): CsrfForm<NoFields>,
) -> Result<HttpResponse, AppError> {
    let row = rosters::copy_shared(&state.app, &user.actor(), token.into_inner()).await?;
    Ok(redirect(&format!("/rosters/{}?done=copied", row.id)))
}

pub async fn share(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    id: web::Path<i64>,
    CsrfForm(_): CsrfForm<NoFields>,
) -> Result<HttpResponse, AppError> {
    let row = rosters::load_owned_row(&state.app, &user.actor(), id.into_inner()).await?;
    rosters::share(&state.app, row.id).await?;
    Ok(redirect(&format!("/rosters/{}?done=shared", row.id)))
}

pub async fn unshare(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    id: web::Path<i64>,
    CsrfForm(_): CsrfForm<NoFields>,
) -> Result<HttpResponse, AppError> {
    let row = rosters::load_owned_row(&state.app, &user.actor(), id.into_inner()).await?;
    rosters::unshare(&state.app, row.id).await?;
    Ok(redirect(&format!("/rosters/{}?done=unshared", row.id)))
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

/// The roster's document as its system writes it.
pub fn document_of(state: &AppState, row: &RosterRow) -> Result<String, AppError> {
    let system = pages_for_stored(&row.rule_system)?.id();
    let roster = state
        .app
        .rules
        .parse_roster(system, &row.document)
        .map_err(|e| {
            AppError::internal(format!(
                "stored roster {} does not parse: {}",
                row.id, e.message
            ))
        })?;
    Ok(roster.to_json())
}

pub async fn export_json(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let row = rosters::load_owned_row(&state.app, &user.actor(), id.into_inner()).await?;
    Ok(HttpResponse::Ok()
        .content_type("application/json")
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"{}.json\"", file_stem(&row.name)),
        ))
        .body(document_of(&state, &row)?))
}

pub async fn export_text(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let row = rosters::load_owned_row(&state.app, &user.actor(), id.into_inner()).await?;
    let text = pages_for_stored(&row.rule_system)?.roster_text(&state, &row)?;
    Ok(HttpResponse::Ok()
        .content_type("text/plain; charset=utf-8")
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("inline; filename=\"{}.txt\"", file_stem(&row.name)),
        ))
        .body(text))
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
    /// `None` for a system without points.
    points: Option<i32>,
}

pub async fn confirm_delete(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let row = rosters::load_owned_row(&state.app, &user.actor(), id.into_inner()).await?;
    render(&DeletePage {
        ctx,
        id: row.id,
        points: priced(&row.rule_system).then_some(row.points),
        name: row.name,
    })
}

pub async fn delete(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    id: web::Path<i64>,
    CsrfForm(_): CsrfForm<NoFields>,
) -> Result<HttpResponse, AppError> {
    let row = rosters::load_owned_row(&state.app, &user.actor(), id.into_inner()).await?;
    rosters::delete(&state.app, row.id).await?;
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
                    return Err(AppError::PayloadTooLarge(
                        "The file is larger than 2 MB; a roster is far smaller.".into(),
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
                return Err(AppError::PayloadTooLarge(
                    "The pasted text is larger than 2 MB; a roster is far smaller.".into(),
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
    // A JSON document can carry a NUL as `\u0000`, which no database column takes.
    if let Some(location) = app::input::document_control_location(&text) {
        return refuse(
            ctx,
            String::new(),
            app::input::CONTROL_MESSAGE.into(),
            location,
        );
    }
    // An import goes to the system its `format` names, or the first one this build serves.
    let pages = systems::pages_for_document(&text).map_err(AppError::Conflict)?;
    if let Err(app::Error::Validation { details, .. }) =
        rosters::refuse_other_system(&text, pages.id())
    {
        let message = details.into_iter().map(|d| d.message).collect();
        return refuse(ctx, text, message, "format".into());
    }
    // JSON that names no Muster format is some other file: say so, rather than which of a
    // roster's fields it lacks (issue 18).
    if SystemId::of_document(&text).is_none()
        && serde_json::from_str::<serde_json::Value>(&text).is_ok_and(|v| v.is_object())
    {
        return refuse(
            ctx,
            text,
            "This is not a Muster roster file: a roster file names its format first, such as \
             \"format\": \"muster.lotf.roster/1\". Export the roster from Muster, or build it \
             here and export it."
                .into(),
            String::new(),
        );
    }
    match pages.read_roster(&text) {
        Ok(roster) => {
            let row = rosters::create(&state.app, user.id, roster).await?;
            Ok(redirect(&format!("/rosters/{}/edit?done=imported", row.id)))
        }
        Err(problem) => {
            let location = problem.location();
            refuse(ctx, text, plain_reading_error(&problem.message), location)
        }
    }
}

// ---------- start a roster another way ----------

/// `/rosters/new?system=<id>`: the system's other ways to start a roster.
pub async fn from_book_page(
    state: web::Data<AppState>,
    _user: SignedIn,
    ctx: PageCtx,
    query: web::Query<Fields>,
) -> Result<HttpResponse, AppError> {
    pages_for_new(field(&query, "system"))
        .map_err(AppError::bad_request)?
        .start_page(&state, ctx, &query)
}

/// `/rosters/new/{how}`: starts a roster one of the ways its system offers (the form's `system`
/// field, or the first served); a way the system does not know is "not found".
pub async fn start_with(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    how: web::Path<String>,
    CsrfForm(fields): CsrfForm<Fields>,
) -> Result<HttpResponse, AppError> {
    start(&state, ctx, user.id, &how, &fields).await
}

async fn start(
    state: &AppState,
    ctx: PageCtx,
    owner: i64,
    how: &str,
    fields: &[(String, String)],
) -> Result<HttpResponse, AppError> {
    pages_for_new(field(fields, "system"))
        .map_err(AppError::bad_request)?
        .start_roster(state, ctx, owner, how, fields)
        .await
}

/// A reader's message in a player's words: serde's "missing field `war`" and "unknown field
/// `hello`, expected one of …" name Rust's view of the file (issue 18).
fn plain_reading_error(message: &str) -> String {
    let quoted = |rest: &str| rest.split('`').nth(1).map(str::to_string);
    if let Some(field) = message.strip_prefix("missing field ").and_then(quoted) {
        return format!("The roster has no “{field}”, which every roster needs.");
    }
    if let Some(field) = message.strip_prefix("unknown field ").and_then(quoted) {
        return format!("“{field}” is not part of a Muster roster; remove it and import again.");
    }
    if let Some(rest) = message.strip_prefix("unknown variant ") {
        if let Some(value) = quoted(rest) {
            let choices: Vec<&str> = rest
                .split_once("expected")
                .map(|(_, list)| list.split('`').skip(1).step_by(2).collect())
                .unwrap_or_default();
            return if choices.is_empty() {
                format!("“{value}” is not one of the choices here.")
            } else {
                format!(
                    "“{value}” is not one of the choices here ({}).",
                    choices.join(", ")
                )
            };
        }
    }
    message.to_string()
}

#[cfg(test)]
mod reading_error_tests {
    use super::plain_reading_error;

    #[test]
    fn serde_messages_read_as_a_players_words() {
        assert_eq!(
            plain_reading_error("missing field `war`"),
            "The roster has no “war”, which every roster needs."
        );
        assert_eq!(
            plain_reading_error("unknown field `hello`, expected one of `format`, `name`"),
            "“hello” is not part of a Muster roster; remove it and import again."
        );
        assert_eq!(
            plain_reading_error("unknown variant `huge`, expected one of `tiny`, `small`"),
            "“huge” is not one of the choices here (tiny, small)."
        );
        assert_eq!(plain_reading_error("Something else."), "Something else.");
    }
}
