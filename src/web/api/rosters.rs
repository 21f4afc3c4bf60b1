//! Rosters over the API. Every route is owner-only: another user's roster is "not found".

use actix_web::http::header;
use actix_web::{delete, get, post, put, web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::app::rosters::{self, Saved};
use crate::rules::systems::AnyRoster;
use crate::store::rosters::RosterRow;
use crate::web::auth::ApiUser;
use crate::web::error::{ErrorBody, ErrorDetail};
use crate::web::pages::rosters::{document_of, file_stem};
use crate::web::state::AppState;
use crate::web::systems::{pages_for_document, pages_for_stored};
use crate::web::AppError;

#[derive(Serialize, ToSchema)]
pub struct RosterSummaryJson {
    id: i64,
    /// Goes up by one with every save; send it back with a change.
    version: i32,
    /// The rule system's id, e.g. `lotf` for Land of the Free.
    rule_system: String,
    name: String,
    war: String,
    nation: String,
    points: i32,
    points_limit: Option<i32>,
    legal: bool,
    errors: i32,
    warnings: i32,
    /// The catalogue version the roster was last saved with.
    catalogue_version: String,
    updated_at: String,
    /// The read-only share link, when the roster is shared.
    #[serde(skip_serializing_if = "Option::is_none")]
    share_url: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct RosterJson {
    #[serde(flatten)]
    summary: RosterSummaryJson,
    /// The roster document, in its rule system's format (`muster.lotf.roster/1`).
    document: serde_json::Value,
    /// Points and findings under the current catalogue, as the rule system reports them.
    report: serde_json::Value,
}

fn summary(state: &AppState, req: &HttpRequest, row: &RosterRow) -> RosterSummaryJson {
    RosterSummaryJson {
        id: row.id,
        version: row.version,
        rule_system: row.rule_system.clone(),
        name: row.name.clone(),
        war: row.war.clone(),
        nation: row.nation.clone(),
        points: row.points,
        points_limit: row.points_limit,
        legal: row.legal,
        errors: row.error_count,
        warnings: row.warning_count,
        catalogue_version: row.catalogue_version.clone(),
        updated_at: row
            .updated_at
            .and_utc()
            .to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        share_url: row
            .share_token
            .as_ref()
            .map(|t| state.absolute_url(req, &format!("/shared/{t}"))),
    }
}

fn full(
    state: &AppState,
    req: &HttpRequest,
    row: &RosterRow,
) -> Result<serde_json::Value, AppError> {
    let (document, report) = pages_for_stored(&row.rule_system)?.roster_json(state, row)?;
    let mut value = serde_json::to_value(summary(state, req, row)).unwrap_or_default();
    if let serde_json::Value::Object(map) = &mut value {
        map.insert("document".into(), document);
        map.insert("report".into(), report);
    }
    Ok(value)
}

fn with_etag(mut res: HttpResponse, version: i32) -> HttpResponse {
    if let Ok(value) = header::HeaderValue::from_str(&format!("\"{version}\"")) {
        res.headers_mut().insert(header::ETAG, value);
    }
    res
}

/// Reads a document for the system its `format` names (or the first served); `prefix` is where
/// it sits in the body, for the error.
fn parse_document(text: &str, prefix: &str) -> Result<AnyRoster, AppError> {
    let pages = pages_for_document(text).map_err(AppError::Conflict)?;
    rosters::refuse_other_system(text, pages.id())?;
    pages
        .read_roster(text)
        .map_err(|problem| problem.api_error(prefix))
}

/// List your rosters
///
/// Every roster of the caller, most recently changed first, with points, legality and version.
#[utoipa::path(tag = "rosters", security(("bearer" = [])), responses(
    (status = 200, description = "The caller's rosters", body = [RosterSummaryJson]),
    (status = 401, description = "Not logged in", body = ErrorBody)
))]
#[get("/rosters")]
pub async fn list(
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
) -> Result<HttpResponse, AppError> {
    let rows = rosters::list(&state.app, &user.actor(), None).await?;
    Ok(HttpResponse::Ok().json(
        rows.iter()
            .map(|r| summary(&state, &req, r))
            .collect::<Vec<_>>(),
    ))
}

/// Create a roster
///
/// Stores a `muster.lotf.roster/1` document (illegal drafts included) and returns it with its
/// id, version and report. Broken JSON is refused with its position; a document that is not a
/// roster is refused naming the field.
#[utoipa::path(tag = "rosters", security(("bearer" = [])), request_body(content = serde_json::Value, description = "A roster document"), responses(
    (status = 201, description = "The stored roster", body = RosterJson),
    (status = 400, description = "Not JSON", body = ErrorBody),
    (status = 422, description = "Not a roster", body = ErrorBody)
))]
#[post("/rosters")]
pub async fn create(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: ApiUser,
    body: web::Bytes,
) -> Result<HttpResponse, AppError> {
    store_new(req, state, user, body).await
}

async fn store_new(
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    body: web::Bytes,
) -> Result<HttpResponse, AppError> {
    let text = std::str::from_utf8(&body)
        .map_err(|_| AppError::bad_request("The body is not UTF-8 text."))?;
    let roster = parse_document(text, "")?;
    let row = rosters::create(&state.app, user.id, roster).await?;
    Ok(with_etag(
        HttpResponse::Created().json(full(&state, &req, &row)?),
        row.version,
    ))
}

/// Import a roster
///
/// Like creating one, for a document exported from Muster or elsewhere: element and group ids
/// are kept where they are unique. A document that cannot be read changes nothing.
#[utoipa::path(tag = "rosters", security(("bearer" = [])), request_body(content = serde_json::Value, description = "A roster document"), responses(
    (status = 201, description = "The imported roster", body = RosterJson),
    (status = 400, description = "Not JSON", body = ErrorBody),
    (status = 422, description = "Not a roster", body = ErrorBody)
))]
#[post("/rosters/import")]
pub async fn import(
    req: HttpRequest,
    state: web::Data<AppState>,
    user: ApiUser,
    body: web::Bytes,
) -> Result<HttpResponse, AppError> {
    store_new(req, state, user, body).await
}

/// Get a roster
///
/// The roster with its document and report. The `ETag` header carries its version.
#[utoipa::path(tag = "rosters", security(("bearer" = [])), params(("id" = i64, Path, description = "Roster id")), responses(
    (status = 200, description = "The roster", body = RosterJson),
    (status = 404, description = "No such roster of yours", body = ErrorBody)
))]
#[get("/rosters/{id}")]
pub async fn get_one(
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let row = rosters::load_owned_row(&state.app, &user.actor(), id.into_inner()).await?;
    Ok(with_etag(
        HttpResponse::Ok().json(full(&state, &req, &row)?),
        row.version,
    ))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RosterUpdate {
    /// The version the change is based on (or send it as `If-Match: "3"`).
    version: Option<i32>,
    /// The whole new `muster.lotf.roster/1` document.
    document: serde_json::Value,
}

/// Replace a roster
///
/// Saves a new document over the roster if it is still at the version the change was based on
/// (`version` in the body or an `If-Match` header). A stale version gets 409 and changes nothing:
/// fetch the roster again, merge, and retry.
#[utoipa::path(tag = "rosters", security(("bearer" = [])), params(("id" = i64, Path, description = "Roster id")), request_body = RosterUpdate, responses(
    (status = 200, description = "Saved; the new version is in the body and the ETag", body = RosterJson),
    (status = 409, description = "The roster changed since that version", body = ErrorBody),
    (status = 422, description = "Not a roster, or no version given", body = ErrorBody)
))]
#[put("/rosters/{id}")]
pub async fn replace(
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
    body: web::Bytes,
) -> Result<HttpResponse, AppError> {
    let row = rosters::load_owned_row(&state.app, &user.actor(), id.into_inner()).await?;
    let update: RosterUpdate = serde_json::from_slice(&body).map_err(|e| AppError::Validation {
        message: format!(
            "Send {{\"version\": n, \"document\": {{...}}}}: {e} (line {}, column {}).",
            e.line(),
            e.column()
        ),
        details: vec![],
    })?;
    let if_match = req
        .headers()
        .get(header::IF_MATCH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| {
            v.trim()
                .trim_start_matches("W/")
                .trim_matches('"')
                .parse::<i32>()
                .ok()
        });
    let based_on = update.version.or(if_match).ok_or_else(|| AppError::Validation {
        message: "Say which version the change is based on: a \"version\" field or an If-Match header.".into(),
        details: vec![ErrorDetail { field: Some("version".into()), message: "required".into() }],
    })?;
    let text = update.document.to_string();
    let roster = parse_document(&text, "document.")?;
    match rosters::save(&state.app, row.id, based_on, roster).await? {
        Saved::Ok(row) => {
            Ok(with_etag(HttpResponse::Ok().json(full(&state, &req, &row)?), row.version))
        }
        Saved::Stale(current) => Err(AppError::Conflict(format!(
            "The roster changed since version {based_on}; it is now at version {}. Nothing was saved.",
            current.row.version
        ))),
    }
}

/// Delete a roster
///
/// Deletes the roster and its share link for good.
#[utoipa::path(tag = "rosters", security(("bearer" = [])), params(("id" = i64, Path, description = "Roster id")), responses(
    (status = 204, description = "Deleted"),
    (status = 404, description = "No such roster of yours", body = ErrorBody)
))]
#[delete("/rosters/{id}")]
pub async fn remove(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let row = rosters::load_owned_row(&state.app, &user.actor(), id.into_inner()).await?;
    rosters::delete(&state.app, row.id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Duplicate a roster
///
/// A copy named "… (copy)", at version 1, without a share link.
#[utoipa::path(tag = "rosters", security(("bearer" = [])), params(("id" = i64, Path, description = "Roster id")), responses(
    (status = 201, description = "The copy", body = RosterJson),
    (status = 404, description = "No such roster of yours", body = ErrorBody)
))]
#[post("/rosters/{id}/duplicate")]
pub async fn duplicate(
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let loaded = rosters::load_owned(&state.app, &user.actor(), id.into_inner()).await?;
    let row = rosters::duplicate(&state.app, &loaded).await?;
    Ok(with_etag(
        HttpResponse::Created().json(full(&state, &req, &row)?),
        row.version,
    ))
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ExportQuery {
    /// `json` (the default) or `text` (`txt` is read as `text`).
    #[param(inline)]
    format: Option<ExportFormat>,
}

#[derive(Deserialize, ToSchema, Clone, Copy)]
#[serde(rename_all = "lowercase")]
pub enum ExportFormat {
    Json,
    Text,
    Txt,
}

/// Export a roster
///
/// The `muster.lotf.roster/1` document as a file, or with `?format=text` the plain-text version
/// for forums and e-mail (force, groups, elements with points, total, legality).
#[utoipa::path(tag = "rosters", security(("bearer" = [])), params(
    ("id" = i64, Path, description = "Roster id"),
    ExportQuery
), responses(
    (status = 200, description = "The document, or with `?format=text` the text", content(
        (serde_json::Value = "application/json"),
        (String = "text/plain")
    )),
    (status = 400, description = "An unknown format", body = ErrorBody),
    (status = 404, description = "No such roster of yours", body = ErrorBody)
))]
#[get("/rosters/{id}/export")]
pub async fn export(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
    query: web::Query<ExportQuery>,
) -> Result<HttpResponse, AppError> {
    let row = rosters::load_owned_row(&state.app, &user.actor(), id.into_inner()).await?;
    let stem = file_stem(&row.name);
    match query.format {
        Some(ExportFormat::Text) | Some(ExportFormat::Txt) => {
            let body = pages_for_stored(&row.rule_system)?.roster_text(&state, &row)?;
            Ok(HttpResponse::Ok()
                .content_type("text/plain; charset=utf-8")
                .insert_header((
                    header::CONTENT_DISPOSITION,
                    format!("attachment; filename=\"{stem}.txt\""),
                ))
                .body(body))
        }
        None | Some(ExportFormat::Json) => Ok(HttpResponse::Ok()
            .content_type("application/json")
            .insert_header((
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{stem}.json\""),
            ))
            .body(document_of(&state, &row)?)),
    }
}

/// Share a roster
///
/// Makes a read-only link to the roster that anyone can open without logging in, as the
/// roster page's "Share" button does. Sharing a shared roster makes a new link; the old one
/// stops working.
#[utoipa::path(tag = "rosters", security(("bearer" = [])), params(("id" = i64, Path, description = "Roster id")), responses(
    (status = 200, description = "The roster, with its `share_url`", body = RosterSummaryJson),
    (status = 404, description = "No such roster of yours", body = ErrorBody)
))]
#[post("/rosters/{id}/share")]
pub async fn share(
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let row = rosters::load_owned_row(&state.app, &user.actor(), id.into_inner()).await?;
    rosters::share(&state.app, row.id).await?;
    let row = rosters::load_owned_row(&state.app, &user.actor(), row.id).await?;
    Ok(HttpResponse::Ok().json(summary(&state, &req, &row)))
}

/// Stop sharing a roster
///
/// The roster's share link stops working at once. Answers the roster, without a `share_url`.
#[utoipa::path(tag = "rosters", security(("bearer" = [])), params(("id" = i64, Path, description = "Roster id")), responses(
    (status = 200, description = "The roster, no longer shared", body = RosterSummaryJson),
    (status = 404, description = "No such roster of yours", body = ErrorBody)
))]
#[delete("/rosters/{id}/share")]
pub async fn unshare(
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let row = rosters::load_owned_row(&state.app, &user.actor(), id.into_inner()).await?;
    rosters::unshare(&state.app, row.id).await?;
    let row = rosters::load_owned_row(&state.app, &user.actor(), row.id).await?;
    Ok(HttpResponse::Ok().json(summary(&state, &req, &row)))
}
