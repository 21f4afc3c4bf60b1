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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_force_roster_kept_as_text_reads_as_the_document() {
        let text = serde_json::json!({"format": "muster.lod.roster/1", "name": "Southern Army",
            "army_list": "continental", "brigades": [{"name": "1st", "general": {"name": "Greene"},
            "units": [{"id": "unit-1", "entry": "continental_regiment", "bases": 3}]}]});
        let roster = RosterJson::from_value(&text);
        let doc = read(&roster).unwrap();
        assert_eq!(doc.name, "Southern Army");
        assert_eq!(doc.brigades[0].units[0].bases, 3);
        let broken = RosterJson::from_value(&serde_json::json!({"format": "muster.lotf.roster/1"}));
        assert!(
            read(&broken).is_err(),
            "another system's document is refused"
        );
    }
}
