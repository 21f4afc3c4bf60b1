//! Liberty or Death! pages for a campaign force: its cards and roster sheet as it stands, with
//! what happened to each unit and General.

use std::borrow::Cow;

use actix_web::HttpResponse;

use super::print::{pages, ForceState, PrintQuery};
use crate::app::campaigns::Loaded;
use crate::rules::campaign::forces_api::RosterJson;
use crate::rules::systems::lod::{parse_roster, RosterDoc};
use crate::web::page::PageCtx;
use crate::web::state::AppState;
use crate::web::AppError;

/// A campaign force's roster as Liberty or Death!'s document.
fn read(roster: &RosterJson) -> Result<Cow<'_, RosterDoc>, String> {
    match roster.typed::<RosterDoc>() {
        Some(doc) => Ok(Cow::Borrowed(doc)),
        None => parse_roster(&roster.text())
            .map(Cow::Owned)
            .map_err(|e| format!("unreadable roster: {}", e.message)),
    }
}

/// Cards or the roster sheet of a campaign force: units at their sizes now (3.4), with their
/// history; the sheet is checked as a campaign force (reduced sizes only warn).
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
    let doc =
        read(&f.roster).map_err(|e| AppError::internal(format!("campaign force {force}: {e}")))?;
    let fs = ForceState {
        label: Some(format!("{}, turn {}", c.row.name, c.state.turn)),
        history: f
            .history
            .iter()
            .map(|(id, h)| (id.clone(), h.clone()))
            .collect(),
    };
    let action = format!("/campaigns/{}/forces/{force}/print/{kind}", c.id());
    pages::print_force(state, ctx, &doc, Some(&fs), kind, &query, action)
}
