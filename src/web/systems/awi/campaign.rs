//! AWI pages for a campaign force: its unit cards and roster sheet as the force stands, with
//! every brigadier at the ability the campaign keeps for him (W-4) and each unit at the bases
//! (a gun: the gunners) its losses left.

use actix_web::HttpResponse;

use super::print::{print_doc, PrintQuery};
use crate::app::campaigns::Loaded;
use crate::rules::campaign::forces_api::RosterJson;
use crate::rules::systems::awi::campaign::read;
use crate::rules::systems::awi::RosterDoc;
use crate::web::page::PageCtx;
use crate::web::state::AppState;
use crate::web::AppError;

/// The force's order of battle as it stands: the campaign's ratings written in, and the
/// campaign and turn in its name.
pub fn as_it_stands(
    roster: &RosterJson,
    ratings: &std::collections::BTreeMap<String, u8>,
    label: &str,
) -> Result<RosterDoc, String> {
    let mut doc = read(roster)?.into_owned();
    for g in doc.brigades.iter_mut().filter_map(|b| b.brigadier.as_mut()) {
        if let Some(r) =
            g.id.as_ref()
                .and_then(|id| ratings.get(id))
                .filter(|r| (1..=10).contains(*r))
        {
            g.ability = Some((*r).into());
        }
    }
    doc.name = format!("{} ({label})", doc.name);
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
    let label = format!("{}, turn {}", c.row.name, c.state.turn);
    let doc = as_it_stands(&f.roster, &f.ratings, &label)
        .map_err(|e| AppError::internal(format!("campaign force {force}: {e}")))?;
    let action = format!("/campaigns/{}/forces/{force}/print/{kind}", c.id());
    print_doc(state, ctx, &doc, kind, &query, action)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_force_as_it_stands_carries_the_campaign_ability() {
        let roster = RosterJson::from_value(&serde_json::json!({"format": "muster.awi.oob/1",
            "name": "Southern Army", "cinc": {"id": "cinc-1", "name": "Greene"},
            "brigades": [{"id": "brigade-1", "name": "1st", "brigadier": {"id": "brigadier-1",
            "name": "Morgan"}, "units": [{"id": "unit-1", "type": "infantry",
            "grade": "trained", "bases": 4}]}]}));
        let ratings = [("brigadier-1".to_string(), 7u8), ("cinc-1".to_string(), 0)]
            .into_iter()
            .collect();
        let doc = as_it_stands(&roster, &ratings, "Carolinas, turn 2").unwrap();
        assert_eq!(doc.name, "Southern Army (Carolinas, turn 2)");
        let g = doc.brigades[0].brigadier.as_ref().unwrap();
        assert_eq!(
            g.ability_value(),
            Some(7),
            "the rating the campaign keeps (W-4)"
        );
        let other = RosterJson::from_value(&serde_json::json!({"format": 3}));
        assert!(as_it_stands(&other, &ratings, "x").is_err());
    }
}
