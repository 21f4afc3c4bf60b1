//! The JSON API under `/api/v1`. Every handler is registered through `utoipa_actix_web`, so
//! the OpenAPI document at `/api/v1/openapi.json` is generated from the same registration that
//! serves the routes.

pub mod accounts;
pub mod admin;
pub mod battle_records;
pub mod campaigns;
pub mod health;
pub mod jobs;
pub mod rosters;

use actix_web::web;
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
            .service(jobs::job_status)
            .service(jobs::cancel_job)
            .service(battle_records::create)
            .service(battle_records::get_one)
            .service(battle_records::setup)
            .service(battle_records::simulate)
            .service(battle_records::record)
            .service(battle_records::confirm)
            .service(battle_records::dispute)
            .service(campaigns::list)
            .service(campaigns::preset_list)
            .service(campaigns::create)
            .service(campaigns::get_one)
            .service(campaigns::get_map)
            .service(campaigns::put_map)
            .service(campaigns::join)
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
            .service(campaigns::replace_player)
            .service(campaigns::adjust)
            .service(campaigns::get_standings)
            .service(campaigns::get_log)
            .service(campaigns::get_audit),
    );
}

/// JSON bodies that do not parse become the JSON error shape, with the parse position.
pub fn json_config() -> web::JsonConfig {
    web::JsonConfig::default()
        .limit(2 * 1024 * 1024)
        .error_handler(|err, _req| {
            let message = match &err {
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

pub fn path_config() -> web::PathConfig {
    web::PathConfig::default().error_handler(|_, _| AppError::NotFound.into())
}

pub fn query_config() -> web::QueryConfig {
    web::QueryConfig::default().error_handler(|err, _| {
        AppError::bad_request(format!("The query string could not be read: {err}.")).into()
    })
}
