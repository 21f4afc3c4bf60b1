//! Land of the Free's two-sided quick reference, printed from the catalogue (A4 or Letter).

use actix_web::{web, HttpResponse};
use askama::Template;

use crate::rules::systems::lotf::catalogue::{Commanders, Tables};
use crate::web::page::{render, PageCtx};
use crate::web::state::AppState;
use crate::web::systems::lotf::print::reference::{self, Reference};
use crate::web::systems::lotf::print::PrintQuery;
use crate::web::{assets, AppError};

#[derive(Template)]
#[template(path = "systems/lotf/reference.html")]
struct ReferencePage<'a> {
    ctx: PageCtx,
    paper: &'static str,
    r: Reference,
    t: &'a Tables,
    cmd: &'a Commanders,
    print_css: String,
    paper_css: String,
}

pub async fn lotf_reference(
    state: web::Data<AppState>,
    ctx: PageCtx,
    query: web::Query<PrintQuery>,
) -> Result<HttpResponse, AppError> {
    let cat = &state.app.rules.lotf;
    let paper = query.paper();
    render(&ReferencePage {
        ctx,
        paper: paper.id(),
        r: reference::build(cat),
        t: cat.tables(),
        cmd: cat.commanders(),
        print_css: assets::url("print.css"),
        paper_css: paper.css_url(),
    })
}
