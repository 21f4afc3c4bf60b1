//! One if by Land in the web layer: its tools under `/oibl/` (the quick reference), its API
//! under `/api/v1/oibl/` (the catalogue, validation), the roster pages and editor in the game's
//! own words (brigades, units, stands, figures, class, quality, Morale Number, authorizations)
//! and the printouts (unit cards, the roster sheet, the two-sided quick reference), battles set
//! up and recorded from the table, the table itself and the printed battle pack. Each hook of
//! [`SystemPages`] hands over to the module that owns it.

pub mod api;
pub mod battles;
pub mod campaign;
pub mod edit;
pub mod fight;
pub mod odds;
pub mod print;
pub mod rosters;
pub mod table;
pub mod view;

use actix_web::web::{self, ServiceConfig};
use actix_web::{HttpRequest, HttpResponse};
use futures_util::future::LocalBoxFuture;

use super::battles::{
    BattleChoices, BattleRequest, BattleView, Pending, Players, RecordAnswer, RecordEntry,
};
use super::{EditRequest, ReadProblem, RosterBody, RosterLine, RosterPages, SystemPages, Tool};
use crate::app::{self, Actor};
use crate::rules::systems::AnyRoster;
use crate::rules::SystemId;
use crate::store::battles::BattleRow;
use crate::store::rosters::RosterRow;
use crate::web::auth::SignedInUser;
use crate::web::page::{FormErrors, PageCtx, SelectOption};
use crate::web::state::AppState;
use crate::web::AppError;

/// One if by Land's pages.
pub struct OiblPages;

const TOOLS: &[Tool] = &[
    Tool {
        system: "One if by Land",
        kind: "odds",
        label: "Odds",
        href: "/oibl/odds",
        signed_in: false,
    },
    Tool {
        system: "One if by Land",
        kind: "reference",
        label: "Quick reference",
        href: "/oibl/reference",
        signed_in: false,
    },
    Tool {
        system: "One if by Land",
        kind: "fight",
        label: "Fight",
        href: "/oibl/fight",
        signed_in: true,
    },
];

impl SystemPages for OiblPages {
    fn id(&self) -> SystemId {
        SystemId::Oibl
    }

    fn print_campaign_force(
        &self,
        state: &AppState,
        ctx: PageCtx,
        campaign: &crate::app::campaigns::Loaded,
        force: &str,
        kind: &str,
        query: &str,
    ) -> Result<HttpResponse, AppError> {
        campaign::print_force(state, ctx, campaign, force, kind, query)
    }

    fn configure(&self, cfg: &mut ServiceConfig) {
        print::configure(cfg);
        odds::configure(cfg);
        fight::configure(cfg);
    }

    fn configure_api(&self, cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
        cfg.service(
            utoipa_actix_web::scope::scope("/api/v1/oibl")
                .configure(api::configure)
                .configure(odds::configure_api)
                .configure(fight::configure_api),
        );
    }

    fn tools(&self) -> &'static [Tool] {
        TOOLS
    }

    fn secret_prefixes(&self) -> &'static [&'static str] {
        fight::SECRET_PREFIXES
    }

    // Battles

    fn battle_choices<'a>(
        &'a self,
        state: &'a web::Data<AppState>,
        user: &'a SignedInUser,
    ) -> Pending<'a, Result<BattleChoices, AppError>> {
        Box::pin(battles::choices(state, user))
    }

    fn set_up_battle<'a>(
        &'a self,
        ctx: &'a app::Context,
        actor: &'a Actor,
        request: BattleRequest,
    ) -> Pending<'a, Result<BattleRow, app::Error>> {
        Box::pin(battles::set_up(ctx, actor, request))
    }

    fn battle_view(
        &self,
        state: &AppState,
        row: &BattleRow,
        players: &Players,
        printable: bool,
    ) -> Result<BattleView, AppError> {
        battles::view(state, row, players, printable)
    }

    fn record_form(
        &self,
        state: &AppState,
        row: &BattleRow,
        fields: &[(String, String)],
    ) -> Result<String, AppError> {
        battles::record_form(state, row, fields)
    }

    fn record_fields_of(&self, recorded: &BattleRow) -> Vec<(String, String)> {
        battles::record_fields_of(recorded)
    }

    fn record<'a>(
        &'a self,
        ctx: &'a app::Context,
        actor: &'a Actor,
        row: &'a BattleRow,
        version: i32,
        entry: RecordEntry<'a>,
    ) -> Pending<'a, Result<RecordAnswer, app::Error>> {
        Box::pin(battles::record(ctx, actor, row, version, entry))
    }

    fn battle_pack(&self, row: &BattleRow) -> Result<String, AppError> {
        battles::pack(row)
    }

    fn at_the_table<'a>(
        &'a self,
        req: &'a HttpRequest,
        row: &'a BattleRow,
        side: &'a str,
        kind: &'a str,
    ) -> Pending<'a, Result<HttpResponse, AppError>> {
        Box::pin(battles::at_the_table(req, row, side, kind))
    }

    fn table_view(
        &self,
        state: &AppState,
        row: &BattleRow,
        table: &str,
    ) -> Result<super::table::TableView, AppError> {
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
    ) -> Result<super::table::BattlePack, AppError> {
        table::pack(state, row, players)
    }
}

// Rosters and print
crate::web::systems::rosters::roster_pages_by_modules!(OiblPages);
