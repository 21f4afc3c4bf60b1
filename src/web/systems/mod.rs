//! The rule systems in the web layer: each system's pages and tools in its own folder (`lotf/`
//! for Land of the Free), and the one registry generic code asks. Adding a system adds a folder
//! and one line in [`REGISTRY`].

pub mod atkm;
pub mod awi;
pub mod battles;
pub mod fight_report;
pub mod lod;
pub mod lotf;
pub mod oibl;
pub mod rosters;
pub mod simulate;
pub mod table;

pub use rosters::{EditRequest, ReadProblem, RosterBody, RosterLine, RosterPages};

use actix_web::web::ServiceConfig;
use actix_web::{web, HttpRequest, HttpResponse};

use crate::app::campaigns::Loaded;
use crate::app::{self, Actor};
use crate::rules::SystemId;
use crate::store::battles::BattleRow;
use crate::web::auth::SignedInUser;
use crate::web::page::PageCtx;
use crate::web::state::AppState;
use crate::web::AppError;

pub use crate::web::page::Tool;

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

    // Battles: a battle record's pages and API at the generic addresses (`/battles/{id}`,
    // `/api/v1/battles/{id}`). The generic handlers read the record's `rule_system`, check its
    // status and who may act, and ask the system for what only it knows.

    /// What the set-up form offers a user for this system.
    fn battle_choices<'a>(
        &'a self,
        state: &'a web::Data<AppState>,
        user: &'a SignedInUser,
    ) -> battles::Pending<'a, Result<battles::BattleChoices, AppError>>;
    /// Sets a battle up from two forces of this system (already known to share it).
    fn set_up_battle<'a>(
        &'a self,
        ctx: &'a app::Context,
        actor: &'a Actor,
        request: battles::BattleRequest,
    ) -> battles::Pending<'a, Result<BattleRow, app::Error>>;
    /// The system's parts of the battle page; `printable` offers each side's at-the-table
    /// sheets.
    fn battle_view(
        &self,
        state: &AppState,
        row: &BattleRow,
        players: &battles::Players,
        printable: bool,
    ) -> Result<battles::BattleView, AppError>;
    /// The fields of the form that records a result from the table (HTML inside the generic
    /// form), filled in from `fields` as far as they were.
    fn record_form(
        &self,
        state: &AppState,
        row: &BattleRow,
        fields: &[(String, String)],
    ) -> Result<String, AppError>;
    /// The record form's fields as `recorded` (an earlier version's result) filled them in, so
    /// that a correction starts from what was recorded (issue 18). None by default: the form
    /// then starts blank.
    fn record_fields_of(&self, recorded: &BattleRow) -> Vec<(String, String)> {
        let _ = recorded;
        Vec::new()
    }
    /// Reads a result entered from the table, and checks or records it.
    fn record<'a>(
        &'a self,
        ctx: &'a app::Context,
        actor: &'a Actor,
        row: &'a BattleRow,
        version: i32,
        entry: battles::RecordEntry<'a>,
    ) -> battles::Pending<'a, Result<battles::RecordAnswer, app::Error>>;
    /// The battle pack: the set-up document (both forces as they were, everything rolled) that
    /// replays the battle.
    fn battle_pack(&self, row: &BattleRow) -> Result<String, AppError>;
    /// A side as it stood in the battle, printed for the table (`kind`: the system's print
    /// views); the request carries the page context and the print options.
    fn at_the_table<'a>(
        &'a self,
        req: &'a HttpRequest,
        row: &'a BattleRow,
        side: &'a str,
        kind: &'a str,
    ) -> battles::Pending<'a, Result<HttpResponse, AppError>>;
    // End of Battles.

    // At the table and the printed battle pack (issue 19, items 8 and 10). The generic pages
    // (`web::pages::table`) own the addresses, who may see them and the forms.

    /// The table of a battle being played, from the system's state document `table` (as the
    /// rules core's table state keeps it).
    fn table_view(
        &self,
        state: &AppState,
        row: &BattleRow,
        table: &str,
    ) -> Result<table::TableView, AppError>;
    /// The record form's fields as the table state `table` fills them in ("Finish"), named as
    /// [`SystemPages::record_form`] names them.
    fn table_record_fields(
        &self,
        state: &AppState,
        row: &BattleRow,
        table: &str,
    ) -> Result<Vec<(String, String)>, AppError>;
    /// The printed battle pack of a set-up battle (distinct from [`SystemPages::battle_pack`],
    /// the set-up document): both sides' roster sheets with what was rolled, the scenario
    /// briefing in Muster's own words, and the quick reference, laid out for `paper` (`a4` or
    /// `letter`).
    fn print_battle_pack(
        &self,
        state: &AppState,
        row: &BattleRow,
        players: &battles::Players,
        paper: &str,
    ) -> Result<table::BattlePack, AppError>;
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

/// The system an imported document is for: the one its `format` names when this build serves
/// it, otherwise the first served (whose reader, or the refusal naming the other system, says
/// what is wrong with it).
pub fn pages_for_document(text: &str) -> Result<&'static dyn SystemPages, String> {
    match SystemId::of_document(text).and_then(pages_for) {
        Some(pages) => Ok(pages),
        None => pages_for_new(""),
    }
}

/// Every system this build serves on the web.
pub static REGISTRY: &[&dyn SystemPages] = &[
    &lotf::LotfPages,
    &lod::LodPages,
    &awi::AwiPages,
    &oibl::OiblPages,
    &atkm::AtkmPages,
];

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

/// A player's simulation still waiting or running, as the fight pages point to it (a new odds
/// run waits until it ends).
pub struct RunningJob {
    pub title: String,
    /// Its page, under its system's fight page: progress, the result, a Stop button.
    pub href: String,
}

/// The player's simulation still waiting or running, if any.
pub async fn running_job(
    state: &AppState,
    user: &SignedInUser,
) -> Result<Option<RunningJob>, AppError> {
    let Some(job) = app::jobs::active(&state.app, user.id).await? else {
        return Ok(None);
    };
    let fight = SystemId::from_id(&job.system)
        .and_then(pages_for)
        .and_then(|p| p.tools().iter().find(|t| t.kind == "fight"))
        .map_or("/", |t| t.href);
    Ok(Some(RunningJob {
        title: job.title,
        href: format!("{fight}/jobs/{}", job.id),
    }))
}

/// How a fight page answers an error from its form: a set-up the choices cannot make (422) or a
/// second odds run while one is waiting or running (409) gives the form back with the message,
/// its status and the player's running simulation; any other error stands.
pub async fn fight_form_problem(
    state: &AppState,
    user: &SignedInUser,
    e: AppError,
) -> Result<(String, actix_web::http::StatusCode, Option<RunningJob>), AppError> {
    use actix_web::http::StatusCode;
    let (message, status) = match e {
        AppError::BadRequest { message, .. } => (message, StatusCode::UNPROCESSABLE_ENTITY),
        AppError::Conflict(message) => (message, StatusCode::CONFLICT),
        e => return Err(e),
    };
    Ok((message, status, running_job(state, user).await?))
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
