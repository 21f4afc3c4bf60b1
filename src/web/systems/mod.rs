//! The rule systems in the web layer: each system's pages and tools in its own folder (`lotf/`
//! for Land of the Free), and the one registry generic code asks. Adding a system adds a folder
//! and one line in [`REGISTRY`].

pub mod lotf;
pub mod rosters;

pub use rosters::{EditRequest, ReadProblem, RosterBody, RosterLine, RosterPages};

use actix_web::web::ServiceConfig;
use actix_web::{HttpRequest, HttpResponse};

use crate::rules::SystemId;
use crate::web::AppError;

/// A page of a system's own, for the navigation.
pub struct Tool {
    /// What kind of tool it is, the same word in every system: `odds`, `reference`, `fight`.
    pub kind: &'static str,
    pub label: &'static str,
    pub href: &'static str,
    /// Shown only to signed-in users.
    pub signed_in: bool,
}

/// What a rule system adds to the web layer. System-only tools live under the system's prefix
/// (`/lotf/odds`); resource pages (`/rosters/{id}`, `/battles/{id}`, `/campaigns/{id}`) stay
/// generic.
///
/// Rosters and print: the hooks of the roster pages and printouts are the supertrait
/// [`RosterPages`] (`rosters.rs`), kept in their own module because they take `web::page`'s
/// page context and forms, and `web::page` imports this module for the navigation.
pub trait SystemPages: RosterPages + Sync {
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
}

/// The pages of a stored roster's system; a system this build does not serve is refused by
/// name rather than read as another's.
pub fn pages_for_stored(rule_system: &str) -> Result<&'static dyn SystemPages, AppError> {
    let id = SystemId::from_id(rule_system).ok_or_else(|| {
        AppError::Conflict(format!(
            "This roster belongs to the rule system '{rule_system}', which this version of \
             Muster does not know."
        ))
    })?;
    pages_for(id).ok_or_else(|| {
        AppError::Conflict(format!(
            "This roster is for {}, which Muster does not serve yet.",
            id.label()
        ))
    })
}

/// The system a new roster is for: `id` from a form or query, or the first served when empty.
/// The error is a message for the form.
pub fn pages_for_new(id: &str) -> Result<&'static dyn SystemPages, String> {
    if id.is_empty() {
        return REGISTRY
            .first()
            .copied()
            .ok_or_else(|| "This build of Muster serves no rule system.".to_string());
    }
    match SystemId::from_id(id) {
        Some(system) => pages_for(system)
            .ok_or_else(|| format!("Muster does not serve {} yet.", system.label())),
        None => Err("Choose a rule system from the list.".to_string()),
    }
}

/// Land of the Free's printout of a force as it stands after battles. Only for the battle and
/// campaign pages, which still hold Land of the Free rosters (they are on the seam's checklist).
pub use lotf::print::pages::print_force as lotf_print_force;

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
