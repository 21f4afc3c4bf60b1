//! One if by Land pages for a campaign force: its unit cards and roster sheet as the order of
//! battle stands, every commander at the rating X the campaign keeps for him (B-8, B-70) and
//! each unit at the figures its battles left it (B-71), with what happened to it.

use std::collections::BTreeMap;

use actix_web::HttpResponse;

use super::print::{pages, ForceState, PrintQuery};
use crate::app::campaigns::Loaded;
use crate::rules::campaign::forces_api::RosterJson;
use crate::rules::systems::oibl::campaign::{commanders_mut, read};
use crate::rules::systems::oibl::RosterDoc;
use crate::web::page::PageCtx;
use crate::web::state::AppState;
use crate::web::AppError;

/// The order of battle as it stands: the campaign's ratings written in.
pub fn as_it_stands(
    roster: &RosterJson,
    ratings: &BTreeMap<String, u8>,
) -> Result<RosterDoc, String> {
    let mut doc = read(roster)?.into_owned();
    for c in commanders_mut(&mut doc) {
        if let Some(r) = c.id.as_ref().and_then(|id| ratings.get(id)) {
            c.rating = Some(i32::from(*r));
        }
    }
    Ok(doc)
}

/// Cards or the roster sheet of a campaign force.
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
    let doc = as_it_stands(&f.roster, &f.ratings)
        .map_err(|e| AppError::internal(format!("campaign force {force}: {e}")))?;
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
    fn a_force_as_it_stands_carries_the_campaign_ratings() {
        let roster = RosterJson::from_value(&serde_json::json!({
            "format": "muster.oibl.roster/1", "name": "Southern Army", "nation": "american",
            "army_commander": {"id": "c0", "name": "Greene", "rating": 1},
            "brigades": [{"id": "b1", "name": "Marylanders",
                "commander": {"id": "c1", "name": "Howard"},
                "units": [{"id": "u1", "class": "continental", "stands": 4,
                           "quality": "veteran", "figures": 10}]}]}));
        let ratings = [("c1".to_string(), 2u8), ("c0".to_string(), 0)]
            .into_iter()
            .collect();
        let doc = as_it_stands(&roster, &ratings).expect("readable");
        assert_eq!(doc.army_commander.and_then(|c| c.rating), Some(0));
        assert_eq!(
            doc.brigades[0].commander.as_ref().and_then(|c| c.rating),
            Some(2),
            "the rating the campaign rolled (B-8)"
        );
        assert_eq!(doc.brigades[0].units[0].figures, Some(10));
        let other = RosterJson::from_value(&serde_json::json!({"format": 3}));
        assert!(as_it_stands(&other, &ratings).is_err());
    }
}
