//! The *AWI wargames rules* in the web layer: orders of battle in the game's own words (CinC,
//! brigades, brigadiers and their ability, units with type, grade, bases and arms, guns with
//! their gunners), the API under `/api/v1/awi/`, printouts (unit cards, the roster sheet and
//! the two-sided quick reference under `/awi/reference`). Each hook of [`SystemPages`] hands
//! over to the module that owns it.

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

/// The AWI wargames rules' pages.
pub struct AwiPages;

const TOOLS: &[Tool] = &[
    Tool {
        system: "AWI wargames rules",
        kind: "fight",
        label: "Fight",
        href: "/awi/fight",
        signed_in: true,
    },
    Tool {
        system: "AWI wargames rules",
        kind: "odds",
        label: "Odds",
        href: "/awi/odds",
        signed_in: false,
    },
    Tool {
        system: "AWI wargames rules",
        kind: "reference",
        label: "Quick reference",
        href: "/awi/reference",
        signed_in: false,
    },
];

impl SystemPages for AwiPages {
    fn id(&self) -> SystemId {
        SystemId::Awi
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
            utoipa_actix_web::scope::scope("/api/v1/awi")
                .configure(api::configure)
                .configure(fight::configure_api),
        );
    }

    fn secret_prefixes(&self) -> &'static [&'static str] {
        fight::SECRET_PREFIXES
    }

    fn tools(&self) -> &'static [Tool] {
        TOOLS
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
crate::web::systems::rosters::roster_pages_by_modules!(AwiPages);
