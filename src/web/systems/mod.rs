//! The rule systems in the web layer: each system's pages and tools in its own folder (`lotf/`
//! for Land of the Free), and the one registry generic code asks. Adding a system adds a folder
//! and one line in [`REGISTRY`].

pub mod lotf;

use actix_web::web::ServiceConfig;
use actix_web::{HttpRequest, HttpResponse};

use crate::app::campaigns::Loaded;
use crate::rules::SystemId;
use crate::web::page::PageCtx;
use crate::web::state::AppState;
use crate::web::AppError;

pub use crate::web::page::Tool;

/// What a rule system adds to the web layer. System-only tools live under the system's prefix
/// (`/lotf/odds`); resource pages (`/rosters/{id}`, `/battles/{id}`, `/campaigns/{id}`) stay
/// generic.
pub trait SystemPages: Sync {
    fn id(&self) -> SystemId;
    /// Registers the system's pages, and permanent redirects from addresses it used before.
    fn configure(&self, cfg: &mut ServiceConfig);
    /// Registers the system's own API under `/api/v1/<id>/`, documented in the OpenAPI document.
    fn configure_api(&self, cfg: &mut utoipa_actix_web::service_config::ServiceConfig);
    /// The system's tools, in the order the navigation shows them.
    fn tools(&self) -> &'static [Tool];
    /// Path prefixes whose next segment is a capability (a job id), logged without it.
    fn secret_prefixes(&self) -> &'static [&'static str] {
        &[]
    }

    // Campaigns
    /// Cards (`kind` = `cards`) or the roster sheet (`sheet`) of campaign force `force` as it
    /// stands, with its history and rated commanders; `query` is the print options' query
    /// string.
    fn print_campaign_force(
        &self,
        state: &AppState,
        ctx: PageCtx,
        campaign: &Loaded,
        force: &str,
        kind: &str,
        query: &str,
    ) -> Result<HttpResponse, AppError>;
}

/// Every system this build serves on the web.
pub static REGISTRY: &[&dyn SystemPages] = &[&lotf::LotfPages];

/// The pages of system `id`, if this build serves it on the web.
pub fn pages_for(id: SystemId) -> Option<&'static dyn SystemPages> {
    REGISTRY.iter().copied().find(|s| s.id() == id)
}

/// Registers every system's pages.
pub fn configure(cfg: &mut ServiceConfig) {
    for system in REGISTRY {
        system.configure(cfg);
    }
}

/// Every system's secret path prefixes, for the request log.
pub fn secret_prefixes() -> impl Iterator<Item = &'static str> {
    REGISTRY
        .iter()
        .flat_map(|s| s.secret_prefixes().iter().copied())
}

/// Where the first system that has one keeps a kind of tool (`/` when none does).
pub fn tool_href(kind: &str) -> &'static str {
    tools().find(|t| t.kind == kind).map_or("/", |t| t.href)
}

/// Every system's tools, for the navigation.
pub fn tools() -> impl Iterator<Item = &'static Tool> {
    REGISTRY.iter().flat_map(|s| s.tools().iter())
}

/// A permanent redirect (308: the method and body are kept, so old form posts still work) to
/// `to`, with the request's query string.
pub fn moved_to(req: &HttpRequest, to: &str) -> HttpResponse {
    let location = match req.query_string() {
        "" => to.to_string(),
        q => format!("{to}?{q}"),
    };
    HttpResponse::PermanentRedirect()
        .insert_header((actix_web::http::header::LOCATION, location))
        .finish()
}
