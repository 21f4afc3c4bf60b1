//! All the King's Men pages for a campaign force: its unit cards and roster sheet as the army
//! stands now, each unit at the rank and file, officer and ensign its battles left it (K-51).

use actix_web::HttpResponse;

use super::print::{print_force as print_doc, PrintQuery};
use crate::app::campaigns::Loaded;
use crate::rules::systems::atkm::campaign::read;
use crate::web::page::PageCtx;
use crate::web::state::AppState;
use crate::web::AppError;

/// Cards (`kind` = `cards`) or the roster sheet (`sheet`) of campaign force `force`.
pub fn print_force(
    state: &AppState,
    ctx: PageCtx,
    c: &Loaded,
    force: &str,
    kind: &str,
    query: &str,
) -> Result<HttpResponse, AppError> {
    let query = PrintQuery::from_query(query)?;
    let f = c.state.forces.get(force).ok_or(AppError::NotFound)?;
    let mut doc = read(&f.roster)
        .map_err(|e| AppError::internal(format!("campaign force {force}: {e}")))?
        .into_owned();
    // Losses carried from earlier battles are shown as they stand, not as faults (K-51).
    doc.carried_losses = true;
    let action = format!("/campaigns/{}/forces/{force}/print/{kind}", c.id());
    print_doc(&state.app.rules.atkm, ctx, &doc, kind, &query, action)
}
