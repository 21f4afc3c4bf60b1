//! What a Land of the Free battle record means for a campaign, and how a campaign battle is set
//! up as one. The rule-system seam will move this behind `ForceRules`.

use std::collections::BTreeMap;

use crate::app::battle_record::{RecordStatus, StoredResult};
use crate::app::Error;
use crate::rules::campaign::after_battle::{BattleReport, ElementEnd};
use crate::rules::campaign::aftermath::EndState;
use crate::rules::campaign::state::{BattleResult, CampaignBattle, CampaignState};
use crate::rules::systems::lotf::record::{CommanderFate, FinalState};
use crate::rules::systems::lotf::{self, BattleSetup, ScenarioId, Side};
use crate::store::battles::{self, NewBattle};
use crate::store::campaigns::CampaignRow;
use crate::store::DbConnection;

fn end_of(level: lotf::DisciplineLevel) -> EndState {
    match level {
        lotf::DisciplineLevel::Fit => EndState::Fit,
        lotf::DisciplineLevel::Shaken => EndState::Shaken,
        lotf::DisciplineLevel::Exhausted => EndState::Exhausted,
        lotf::DisciplineLevel::Shattered => EndState::Shattered,
    }
}

fn side_id(s: Side) -> String {
    match s {
        Side::Attacker => "attacker".into(),
        Side::Defender => "defender".into(),
    }
}

/// What a decided battle record means for the campaign.
pub fn report_of(stored: &StoredResult) -> BattleReport {
    match stored {
        StoredResult::Simulated { outcome } => BattleReport {
            result: BattleResult {
                winner: outcome.winner.map(side_id),
                level: outcome.victory_level.id().into(),
                attacker_vp: outcome.attacker_vp,
                defender_vp: outcome.defender_vp,
                method: "simulated".into(),
                engine: Some(outcome.engine_version.clone()),
            },
            elements: outcome
                .elements
                .iter()
                .map(|e| ElementEnd {
                    side: e.side,
                    id: e.id.clone(),
                    end: if e.never_arrived {
                        EndState::Fit
                    } else if e.left_the_field || e.removed {
                        EndState::LeftTheField
                    } else {
                        end_of(e.discipline_level)
                    },
                })
                .collect(),
            killed: outcome
                .commanders
                .iter()
                .filter(|c| c.killed)
                .map(|c| (c.side, c.id.clone()))
                .collect(),
        },
        StoredResult::Tabletop { report, outcome } => BattleReport {
            result: BattleResult {
                winner: outcome.victory.winner.map(side_id),
                level: outcome.victory.level.id().into(),
                attacker_vp: outcome.victory.attacker_vp,
                defender_vp: outcome.victory.defender_vp,
                method: "tabletop".into(),
                engine: None,
            },
            elements: report
                .elements
                .iter()
                .map(|e| ElementEnd {
                    side: e.side,
                    id: e.id.clone(),
                    end: match e.state {
                        FinalState::Fit => EndState::Fit,
                        FinalState::Shaken => EndState::Shaken,
                        FinalState::Exhausted => EndState::Exhausted,
                        FinalState::Shattered => EndState::Shattered,
                        FinalState::LeftTheField => EndState::LeftTheField,
                    },
                })
                .collect(),
            killed: report
                .commanders
                .iter()
                .filter(|c| matches!(c.fate, CommanderFate::Killed | CommanderFate::Captured))
                .map(|c| (c.side, c.id.clone()))
                .collect(),
        },
    }
}

/// The set-up of a campaign battle: both forces as they stand, with their rolled ratings.
fn battle_setup(st: &CampaignState, b: &CampaignBattle, seed: u64) -> Result<BattleSetup, Error> {
    let force = |id: &str| {
        st.forces
            .get(id)
            .ok_or_else(|| Error::internal(format!("battle {} names no force {id}", b.no)))
    };
    let (a, d) = (force(&b.attacker)?, force(&b.defender)?);
    let scenario = ScenarioId::from_id(&b.scenario).unwrap_or(ScenarioId::TakeTheField);
    let mut setup = BattleSetup::new(a.roster.clone(), d.roster.clone(), scenario, seed);
    setup.points = Some(st.points());
    for (side, f) in [(&mut setup.attacker, a), (&mut setup.defender, d)] {
        side.commanders = f
            .ratings
            .iter()
            .map(|(id, r)| (id.clone(), lotf::battle::CommanderState { rating_roll: *r }))
            .collect::<BTreeMap<_, _>>();
    }
    setup
        .check()
        .map_err(|e| Error::internal(format!("campaign battle set-up: {e}")))?;
    Ok(setup)
}

/// Creates the battle record that fights a campaign battle.
pub fn create_record(
    conn: &mut DbConnection,
    row: &CampaignRow,
    st: &CampaignState,
    b: &CampaignBattle,
    rolls: &[String],
) -> Result<i64, Error> {
    let setup = battle_setup(st, b, crate::app::dice::fresh_seed())?;
    let user = |id: &str| st.forces.get(id).map(|f| f.user);
    let now = chrono::Utc::now().naive_utc();
    let new = NewBattle {
        rule_system: row.rule_system.clone(),
        created_by: row.organiser_id,
        attacker_user_id: user(&b.attacker),
        attacker_guest: None,
        defender_user_id: user(&b.defender),
        defender_guest: None,
        attacker_roster_id: None,
        defender_roster_id: None,
        title: format!(
            "{}, turn {}: {} against {} at {}",
            row.name, b.turn, setup.attacker.roster.name, setup.defender.roster.name, b.name
        ),
        scenario: b.scenario.clone(),
        points: i32::try_from(st.points()).unwrap_or(i32::MAX),
        setup: lotf::serialize_battle(&setup),
        rolls: serde_json::to_string(rolls).unwrap_or_else(|_| "[]".into()),
        status: RecordStatus::SetUp.id().into(),
        replaces_id: None,
        single_party: false,
        version: 1,
        created_at: now,
        updated_at: now,
        campaign_id: Some(row.id),
    };
    Ok(battles::create(conn, &new)?.id)
}
