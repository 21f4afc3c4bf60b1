//! The JSON API under `/api/v1`. Every handler is registered through `utoipa_actix_web`, so
//! the OpenAPI document at `/api/v1/openapi.json` is generated from the same registration that
//! serves the routes.

pub mod accounts;
pub mod admin;
pub mod battle_records;
pub mod campaigns;
pub mod deadlines;
pub mod health;
pub mod jobs;
pub mod notifications;
pub mod rosters;

use actix_web::http::header;
use actix_web::{web, HttpRequest, HttpResponse};
use serde_json::{json, Map, Value};
use utoipa::openapi::security::{ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};
use utoipa_actix_web::scope;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::web::AppError;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Muster API",
        description = "Rosters, odds and battles for horse-and-musket wargames. \
Errors always have the shape {\"error\": {\"code\", \"message\", \"details\"}}. Authenticate with \
a bearer token from POST /api/v1/auth/token, or with the session cookie plus an X-CSRF-Token header."
    ),
    modifiers(&SecuritySchemes),
    components(schemas(crate::web::error::ErrorBody))
)]
pub struct ApiDoc;

struct SecuritySchemes;

impl Modify for SecuritySchemes {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("JWT")
                    .build(),
            ),
        );
        components.add_security_scheme(
            "csrf_header",
            SecurityScheme::ApiKey(ApiKey::Header(ApiKeyValue::new("X-CSRF-Token"))),
        );
    }
}

/// Registers `/healthz` and everything under `/api/v1`.
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(health::healthz);
    // Each rule system's own API (`/api/v1/<id>/...`), before the generic scope that would
    // otherwise take its addresses.
    for system in crate::web::systems::REGISTRY {
        system.configure_api(cfg);
    }
    cfg.service(
        scope::scope("/api/v1")
            .service(accounts::create_token)
            .service(accounts::revoke_token)
            .service(accounts::register)
            .service(accounts::me)
            .service(accounts::update_me)
            .service(accounts::change_password)
            .service(accounts::export_me)
            .service(accounts::delete_me)
            .service(admin::list_users)
            .service(admin::disable_user)
            .service(admin::enable_user)
            .service(rosters::list)
            .service(rosters::import)
            .service(rosters::create)
            .service(rosters::get_one)
            .service(rosters::replace)
            .service(rosters::remove)
            .service(rosters::duplicate)
            .service(rosters::export)
            .service(rosters::share)
            .service(rosters::unshare)
            .service(jobs::job_status)
            .service(battle_records::list)
            .service(jobs::cancel_job)
            .service(battle_records::create)
            .service(battle_records::public)
            .service(battle_records::get_one)
            .service(battle_records::setup)
            .service(battle_records::simulate)
            .service(battle_records::record)
            .service(battle_records::confirm)
            .service(battle_records::dispute)
            .service(battle_records::correct)
            .service(battle_records::publish)
            .service(battle_records::accept)
            .service(battle_records::decline)
            .service(battle_records::withdraw)
            .service(battle_records::attach)
            .service(battle_records::withdraw_roster)
            .service(battle_records::engine_ask)
            .service(battle_records::engine_accept)
            .service(battle_records::engine_decline)
            .service(battle_records::engine_withdraw)
            .service(campaigns::list)
            .service(campaigns::preset_list)
            .service(campaigns::create)
            .service(campaigns::get_one)
            .service(campaigns::get_map)
            .service(campaigns::put_map)
            .service(campaigns::join)
            .service(campaigns::join_by_code)
            .service(campaigns::start)
            .service(campaigns::get_orders)
            .service(campaigns::give_order)
            .service(campaigns::close_turn)
            .service(campaigns::battles)
            .service(campaigns::void_battle)
            .service(campaigns::arrange_battle)
            .service(campaigns::simulate_battle)
            .service(campaigns::force_detail)
            .service(campaigns::purchase)
            .service(campaigns::reorganise)
            .service(campaigns::replace_player)
            .service(campaigns::adjust)
            .service(campaigns::get_standings)
            .service(campaigns::get_log)
            .service(campaigns::get_audit)
            .service(notifications::list)
            .service(notifications::mark_read)
            .service(notifications::mark_all_read)
            // Campaign administration (issue 19).
            .service(campaigns::withdraw_force)
            .service(campaigns::remove_force)
            .service(campaigns::change_force)
            .service(campaigns::put_rules)
            .service(campaigns::officers)
            .service(campaigns::rename_officer)
            .service(campaigns::archive)
            .service(campaigns::unarchive)
            .service(campaigns::delete_campaign)
            .service(campaigns::public_on)
            .service(campaigns::public_off)
            .service(campaigns::public_campaign)
            .service(deadlines::put_deadline),
    );
}

/// JSON bodies that do not parse become the JSON error shape, with the parse position.
pub fn json_config() -> web::JsonConfig {
    web::JsonConfig::default()
        .limit(2 * 1024 * 1024)
        .error_handler(|err, _req| {
            let message = match &err {
                // Well-formed JSON of the wrong shape is read, like a roster that is not one:
                // 422 naming what does not fit. Broken JSON stays 400 with its position.
                actix_web::error::JsonPayloadError::Deserialize(e)
                    if e.classify() == serde_json::error::Category::Data =>
                {
                    return AppError::Validation {
                        message: format!(
                            "The JSON body does not have the fields asked for: {e} (line {}, column {}).",
                            e.line(),
                            e.column()
                        ),
                        details: vec![],
                    }
                    .into();
                }
                actix_web::error::JsonPayloadError::Deserialize(e) => {
                    format!(
                        "The JSON body could not be read: {e} (line {}, column {}).",
                        e.line(),
                        e.column()
                    )
                }
                actix_web::error::JsonPayloadError::ContentType => {
                    "Send the body as JSON with Content-Type: application/json.".to_string()
                }
                other => format!("The JSON body could not be read: {other}."),
            };
            AppError::bad_request(message).into()
        })
}

/// An address segment that does not read (`/rosters/abc`) is "not found", unless the address is
/// a documented one that does not take this method (`PUT /rosters/import` is not a roster id).
pub fn path_config() -> web::PathConfig {
    web::PathConfig::default().error_handler(|_, req| match not_allowed(req) {
        Some(res) => {
            actix_web::error::InternalError::from_response(AppError::MethodNotAllowed, res).into()
        }
        None => AppError::NotFound.into(),
    })
}

pub fn query_config() -> web::QueryConfig {
    web::QueryConfig::default().error_handler(|err, _| {
        AppError::bad_request(format!("The query string could not be read: {err}.")).into()
    })
}

/// The OpenAPI document as served, completed with the answers every operation of a kind can
/// give (see [`finish_document`]). The fallback service reads it to tell 405 from 404.
pub struct ApiDocument(pub Value);

/// The answers the server's shared machinery gives, which the handlers' own annotations leave
/// out: the authentication extractors (401, and 403 for a cookie without its CSRF header), the
/// path extractor (404 for an id that is not a number or not there), the JSON extractor and
/// body limits (400, 413, 422), and the database or work limits (503). An annotation that names
/// the status itself wins.
pub fn finish_document(doc: utoipa::openapi::OpenApi) -> ApiDocument {
    let mut value = serde_json::to_value(&doc).unwrap_or_default();
    let Some(paths) = value.get_mut("paths").and_then(Value::as_object_mut) else {
        return ApiDocument(value);
    };
    for (path, item) in paths.iter_mut() {
        let Some(item) = item.as_object_mut() else {
            continue;
        };
        for (method, op) in item.iter_mut() {
            if !HTTP_METHODS.contains(&method.as_str()) {
                continue;
            }
            let authenticated = op.get("security").is_some();
            let has_body = op.get("requestBody").is_some();
            let has_path_params = path.contains('{');
            let has_query = op
                .get("parameters")
                .and_then(Value::as_array)
                .is_some_and(|ps| ps.iter().any(|p| p["in"] == "query"));
            let Some(responses) = op.get_mut("responses").and_then(Value::as_object_mut) else {
                continue;
            };
            let mut add = |status: &str, description: &str| {
                responses.entry(status.to_string()).or_insert_with(|| {
                    json!({
                        "description": description,
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}
                    })
                });
            };
            if has_body {
                add("400", "The body is not JSON, or not of the shape described");
                add("413", "The body is larger than the server accepts");
                add("422", "A field is not valid; the details name it");
            }
            if has_query {
                add("400", "A query parameter could not be read");
            }
            if authenticated {
                add(
                    "401",
                    "Not logged in: no token, or one that has expired or was revoked",
                );
                add(
                    "403",
                    "Not allowed, or the session cookie was sent without its X-CSRF-Token header",
                );
            }
            if has_path_params {
                add("404", "Nothing at this address, or nothing of yours");
            }
            add(
                "503",
                "The database does not answer or the server is too busy; try again later",
            );
        }
    }
    ApiDocument(value)
}

const HTTP_METHODS: &[&str] = &[
    "get", "put", "post", "delete", "patch", "head", "options", "trace",
];

impl ApiDocument {
    /// The methods the document lists for the path template that fits `path` most closely
    /// (`/rosters/import` rather than `/rosters/{id}`), upper case; `None` when none fits.
    pub fn methods_for(&self, path: &str) -> Option<Vec<String>> {
        let paths = self.0.get("paths")?.as_object()?;
        let fitting: Vec<(&String, &Value)> = paths
            .iter()
            .filter(|(template, _)| path_fits(template, path))
            .collect();
        let closest = fitting.iter().map(|(t, _)| literal_segments(t)).max()?;
        let mut methods: Vec<String> = fitting
            .iter()
            .filter(|(t, _)| literal_segments(t) == closest)
            .filter_map(|(_, item)| item.as_object())
            .flat_map(|item: &Map<String, Value>| item.keys())
            .filter(|m| HTTP_METHODS.contains(&m.as_str()))
            .map(|m| m.to_uppercase())
            .collect();
        if methods.is_empty() {
            return None;
        }
        methods.sort();
        methods.dedup();
        Some(methods)
    }
}

fn literal_segments(template: &str) -> usize {
    template.split('/').filter(|s| !s.starts_with('{')).count()
}

/// Whether `path` is an address of `template` (`{name}` stands for one non-empty segment).
fn path_fits(template: &str, path: &str) -> bool {
    let (t, p): (Vec<&str>, Vec<&str>) = (template.split('/').collect(), path.split('/').collect());
    t.len() == p.len()
        && t.iter()
            .zip(&p)
            .all(|(t, p)| (t.starts_with('{') && t.ends_with('}') && !p.is_empty()) || t == p)
}

/// What answers when no route matches: 405 with `Allow` for a documented API address asked with
/// another method, 404 for everything else.
pub async fn fallback(req: HttpRequest) -> HttpResponse {
    not_allowed(&req).unwrap_or_else(|| HttpResponse::from_error(AppError::NotFound))
}

/// 405 with `Allow` when the request's address is documented without its method.
fn not_allowed(req: &HttpRequest) -> Option<HttpResponse> {
    let methods = req
        .app_data::<web::Data<ApiDocument>>()?
        .methods_for(req.path())?;
    if methods.iter().any(|m| m == req.method().as_str()) {
        return None;
    }
    // `render_errors` gives it the JSON error shape and keeps the header.
    let mut res = HttpResponse::MethodNotAllowed().finish();
    if let Ok(value) = header::HeaderValue::from_str(&methods.join(", ")) {
        res.headers_mut().insert(header::ALLOW, value);
    }
    Some(res)
}
