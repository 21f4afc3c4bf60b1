//! Land of the Free in the web layer: its tools under `/lotf/` (the odds calculator, fighting
//! battles, the quick reference), the roster editor's choices and edits, the view model of a
//! roster with its findings, battle requests and the plain-text export. Generic roster handling
//! lives in `app::rosters`.

pub mod api;
pub mod battle_pages;
pub mod battle_request;
pub mod campaign;
pub mod edit;
pub mod fight;
pub mod historical;
pub mod odds;
pub mod options;
pub mod pack;
pub mod print;
pub mod record;
pub mod reference;
pub mod rosters;
pub mod table;
pub mod text;
pub mod view;

use actix_web::web::{self, ServiceConfig};
use actix_web::{HttpRequest, HttpResponse};
use futures_util::future::LocalBoxFuture;

use super::battles::{
    BattleChoices, BattleRequest, BattleView, Pending, Players, RecordAnswer, RecordEntry,
};
use super::{
    moved_to, EditRequest, ReadProblem, RosterBody, RosterLine, RosterPages, SystemPages, Tool,
};
use crate::app::{self, Actor};
use crate::rules::systems::AnyRoster;
use crate::rules::SystemId;
use crate::store::battles::BattleRow;
use crate::store::rosters::RosterRow;
use crate::web::auth::SignedInUser;
use crate::web::page::{FormErrors, PageCtx, SelectOption};
use crate::web::state::AppState;
use crate::web::AppError;

/// Land of the Free's pages.
pub struct LotfPages;

const TOOLS: &[Tool] = &[
    Tool {
        system: "Land of the Free",
        kind: "odds",
        label: "Odds",
        href: "/lotf/odds",
        signed_in: false,
    },
    Tool {
        system: "Land of the Free",
        kind: "reference",
        label: "Quick reference",
        href: "/lotf/reference",
        signed_in: false,
    },
    Tool {
        system: "Land of the Free",
        kind: "fight",
        label: "Fight",
        href: "/lotf/fight",
        signed_in: true,
    },
];

/// Where an address from before the systems had prefixes lives now.
fn moved(req: HttpRequest) -> impl std::future::Future<Output = actix_web::HttpResponse> {
    let path = req.path();
    let to = match path {
        "/reference/lotf" => "/lotf/reference".to_string(),
        other => format!("/lotf{other}"),
    };
    std::future::ready(moved_to(&req, &to))
}

impl SystemPages for LotfPages {
    fn id(&self) -> SystemId {
        SystemId::Lotf
    }

    fn print_campaign_force(
        &self,
        state: &crate::web::state::AppState,
        ctx: crate::web::page::PageCtx,
        campaign: &crate::app::campaigns::Loaded,
        force: &str,
        kind: &str,
        query: &str,
    ) -> Result<actix_web::HttpResponse, crate::web::AppError> {
        campaign::print_force(state, ctx, campaign, force, kind, query)
    }

    fn configure(&self, cfg: &mut ServiceConfig) {
        cfg.service(web::resource("/lotf/reference").get(reference::lotf_reference))
            .service(web::resource("/lotf/odds").get(odds::calculator))
            .service(web::resource("/lotf/fight").get(fight::index))
            .service(
                web::resource("/lotf/fight/battle")
                    .get(fight::battle)
                    .post(fight::battle_post),
            )
            .service(web::resource("/lotf/fight/setup.json").get(fight::setup_file))
            .service(web::resource("/lotf/fight/odds").post(fight::start_odds))
            .service(web::resource("/lotf/fight/jobs/{id}").get(fight::job_page))
            .service(web::resource("/lotf/fight/jobs/{id}/cancel").post(fight::cancel_job));
        // The addresses these pages had before, kept for bookmarks and links.
        for old in [
            "/reference/lotf",
            "/odds",
            "/fight",
            "/fight/battle",
            "/fight/setup.json",
            "/fight/odds",
            "/fight/jobs/{id}",
        ] {
            cfg.service(web::resource(old).to(moved));
        }
    }

    fn configure_api(&self, cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
        cfg.service(
            utoipa_actix_web::scope::scope("/api/v1/lotf")
                .service(api::validate)
                .service(api::catalog)
                .service(api::historical_list)
                .service(api::historical_one)
                .service(api::battles::shooting)
                .service(api::battles::melee)
                .service(api::battles::morale)
                .service(api::battles::simulate)
                .service(api::battles::battle_odds),
        );
    }

    fn tools(&self) -> &'static [Tool] {
        TOOLS
    }

    fn secret_prefixes(&self) -> &'static [&'static str] {
        // A job's id is its capability; the old address redirects with it.
        &["/lotf/fight/jobs/", "/fight/jobs/"]
    }

    // Battles

    fn battle_choices<'a>(
        &'a self,
        state: &'a web::Data<AppState>,
        user: &'a SignedInUser,
    ) -> Pending<'a, Result<BattleChoices, AppError>> {
        Box::pin(battle_pages::choices(state, user))
    }

    fn set_up_battle<'a>(
        &'a self,
        ctx: &'a app::Context,
        actor: &'a Actor,
        request: BattleRequest,
    ) -> Pending<'a, Result<BattleRow, app::Error>> {
        Box::pin(battle_pages::set_up(ctx, actor, request))
    }

    fn battle_view(
        &self,
        state: &AppState,
        row: &BattleRow,
        players: &Players,
        printable: bool,
    ) -> Result<BattleView, AppError> {
        battle_pages::view(state, row, players, printable)
    }

    fn record_form(
        &self,
        state: &AppState,
        row: &BattleRow,
        fields: &[(String, String)],
    ) -> Result<String, AppError> {
        record::form(state, row, fields)
    }

    fn record_fields_of(&self, recorded: &BattleRow) -> Vec<(String, String)> {
        record::fields_of(recorded)
    }

    fn record<'a>(
        &'a self,
        ctx: &'a app::Context,
        actor: &'a Actor,
        row: &'a BattleRow,
        version: i32,
        entry: RecordEntry<'a>,
    ) -> Pending<'a, Result<RecordAnswer, app::Error>> {
        Box::pin(record::record(ctx, actor, row, version, entry))
    }

    fn battle_pack(&self, row: &BattleRow) -> Result<String, AppError> {
        battle_pages::pack(row)
    }

    fn at_the_table<'a>(
        &'a self,
        req: &'a HttpRequest,
        row: &'a BattleRow,
        side: &'a str,
        kind: &'a str,
    ) -> Pending<'a, Result<HttpResponse, AppError>> {
        Box::pin(battle_pages::at_the_table(req, row, side, kind))
    }

    fn table_view(
        &self,
        state: &AppState,
        row: &BattleRow,
        table: &str,
    ) -> Result<crate::web::systems::table::TableView, AppError> {
        table::view(state, row, table)
    }

    fn table_record_fields(
        &self,
        state: &AppState,
        row: &BattleRow,
        table: &str,
    ) -> Result<Vec<(String, String)>, AppError> {
        table::record_fields(state, row, table)
    }

    fn print_battle_pack(
        &self,
        state: &AppState,
        row: &BattleRow,
        players: &Players,
        _paper: &str,
    ) -> Result<crate::web::systems::table::BattlePack, AppError> {
        pack::pack(state, row, players)
    }
}

// Rosters and print
impl RosterPages for LotfPages {
    fn roster_line(&self, state: &AppState, war: &str, nation: &str) -> RosterLine {
        rosters::roster_line(state, war, nation)
    }

    fn war_choices(&self, state: &AppState) -> Vec<SelectOption> {
        rosters::war_choices(state)
    }

    fn new_roster_fields(
        &self,
        state: &AppState,
        form: &[(String, String)],
        errors: &FormErrors,
    ) -> Result<String, AppError> {
        rosters::new_roster_fields(state, form, errors)
    }

    fn create_roster<'a>(
        &'a self,
        state: &'a AppState,
        owner: i64,
        form: &'a [(String, String)],
    ) -> LocalBoxFuture<'a, Result<Result<RosterRow, FormErrors>, AppError>> {
        Box::pin(rosters::create_roster(state, owner, form))
    }

    fn start_page(
        &self,
        state: &AppState,
        ctx: PageCtx,
        query: &[(String, String)],
    ) -> Result<HttpResponse, AppError> {
        rosters::start_page(state, ctx, query)
    }

    fn start_roster<'a>(
        &'a self,
        state: &'a AppState,
        ctx: PageCtx,
        owner: i64,
        how: &'a str,
        form: &'a [(String, String)],
    ) -> LocalBoxFuture<'a, Result<HttpResponse, AppError>> {
        Box::pin(rosters::start_roster(state, ctx, owner, how, form))
    }

    fn editor<'a>(
        &'a self,
        state: &'a AppState,
        ctx: PageCtx,
        row: &'a RosterRow,
        request: EditRequest<'a>,
    ) -> LocalBoxFuture<'a, Result<HttpResponse, AppError>> {
        match request {
            EditRequest::Open { element, notice } => Box::pin(std::future::ready(
                rosters::open_editor(state, ctx, row, element, notice),
            )),
            EditRequest::Apply(form) => Box::pin(rosters::apply_edit(state, ctx, row, form)),
        }
    }

    fn roster_body(
        &self,
        state: &AppState,
        row: &RosterRow,
        updated: &str,
    ) -> Result<RosterBody, AppError> {
        rosters::roster_body(state, row, updated)
    }

    fn roster_text(&self, state: &AppState, row: &RosterRow) -> Result<String, AppError> {
        rosters::roster_text(state, row)
    }

    fn read_roster(&self, text: &str) -> Result<AnyRoster, ReadProblem> {
        rosters::read_roster(text)
    }

    fn roster_json(
        &self,
        state: &AppState,
        row: &RosterRow,
    ) -> Result<(serde_json::Value, serde_json::Value), AppError> {
        rosters::roster_json(state, row)
    }

    fn print_roster(
        &self,
        state: &AppState,
        ctx: PageCtx,
        row: &RosterRow,
        kind: &str,
        query: &str,
        action: String,
    ) -> Result<HttpResponse, AppError> {
        print::pages::print_roster(state, ctx, row, kind, query, action)
    }
}
