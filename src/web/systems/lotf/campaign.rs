//! Land of the Free's pages for a campaign force: its cards and roster sheet as it stands.

use actix_web::{web, HttpResponse};

use super::print::{CommanderState, ElementState, ForceState, PrintQuery};
use crate::app::campaigns::Loaded;
use crate::rules::systems::lotf::RosterDoc;
use crate::web::page::PageCtx;
use crate::web::state::AppState;
use crate::web::AppError;

/// Cards or the roster sheet of a campaign force, with its history and rated commanders.
pub fn print_force(
    state: &AppState,
    ctx: PageCtx,
    c: &Loaded,
    force: &str,
    kind: &str,
    query: &str,
) -> Result<HttpResponse, AppError> {
    let query = web::Query::<PrintQuery>::from_query(query)
        .map_err(|_| AppError::bad_request("The print options are not ones Muster knows."))?
        .into_inner();
    let f = c.state.forces.get(force).ok_or(AppError::NotFound)?;
    let doc: RosterDoc = crate::rules::systems::lotf::campaign::read(&f.roster)
        .map_err(|e| AppError::internal(format!("campaign force {force}: {e}")))?
        .into_owned();
    let cat = &state.app.rules.lotf;
    let mut fs = ForceState {
        label: Some(format!("{}, turn {}", c.row.name, c.state.turn)),
        after_casualties: true,
        ..Default::default()
    };
    for (eid, h) in &f.history {
        if f.ratings.contains_key(eid) {
            continue;
        }
        fs.elements.insert(
            eid.clone(),
            ElementState {
                size: None,
                removed: false,
                history: h.clone(),
            },
        );
    }
    for (cid, roll) in &f.ratings {
        let history = f.history.get(cid).cloned().unwrap_or_default();
        if let Some(state) = CommanderState::rolled(cat, *roll, history) {
            fs.commanders.insert(cid.clone(), state);
        }
    }
    let action = format!("/campaigns/{}/forces/{force}/print/{kind}", c.id());
    super::print::pages::print_force(state, ctx, &doc, Some(&fs), kind, &query, action)
}
