//! Land of the Free in the web layer: its tools under `/lotf/` (the odds calculator, fighting
//! battles, the quick reference), the roster editor's choices and edits, the view model of a
//! roster with its findings, battle requests and the plain-text export. Generic roster handling
//! lives in `app::rosters`.

pub mod api;
pub mod battle_request;
pub mod campaign;
pub mod edit;
pub mod fight;
pub mod historical;
pub mod odds;
pub mod options;
pub mod print;
pub mod reference;
pub mod text;
pub mod view;

use actix_web::web::{self, ServiceConfig};
use actix_web::HttpRequest;

use super::{moved_to, SystemPages, Tool};
use crate::rules::SystemId;

/// Land of the Free's pages.
pub struct LotfPages;

const TOOLS: &[Tool] = &[
    Tool {
        kind: "odds",
        label: "Odds",
        href: "/lotf/odds",
        signed_in: false,
    },
    Tool {
        kind: "reference",
        label: "Quick reference",
        href: "/lotf/reference",
        signed_in: false,
    },
    Tool {
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
            .service(web::resource("/lotf/fight/jobs/{id}").get(fight::job_page));
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
}
