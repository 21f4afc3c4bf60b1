//! Land of the Free behind the [`RuleSystem`] seam: its roster, set-up and outcome types, and how
//! its check and its results read to generic code.

use serde::{Deserialize, Serialize};

use super::record::{prepare_battle, TabletopOutcome, TabletopReport};
use super::{
    check_roster_size, parse_roster, simulate, validate, BattleOutcome, BattleSetup, Catalogue,
    RosterDoc, Side,
};
use crate::rules::system::{
    BattleSide, BattleSummary, Capabilities, DocumentError, Finding, Method, RosterSummary,
    RuleSystem, Severity, SystemId,
};

/// Land of the Free, as the dispatch names it.
pub struct Lotf;

/// A decided Land of the Free battle: the simulator's result, or a result recorded from the
/// table as the rules assessed it. Stored as JSON tagged by `kind`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Outcome {
    Simulated {
        outcome: Box<BattleOutcome>,
    },
    Tabletop {
        report: TabletopReport,
        outcome: Box<TabletopOutcome>,
    },
}

fn side(s: Side) -> BattleSide {
    match s {
        Side::Attacker => BattleSide::Attacker,
        Side::Defender => BattleSide::Defender,
    }
}

impl RuleSystem for Lotf {
    const ID: SystemId = SystemId::Lotf;
    type Catalogue = Catalogue;
    type Roster = RosterDoc;
    type Setup = BattleSetup;
    type Outcome = Outcome;

    fn capabilities() -> Capabilities {
        Capabilities {
            points: true,
            lists: true,
            odds: true,
            simulator: true,
            tabletop_record: true,
            campaigns: true,
        }
    }

    fn parse_roster(json: &str) -> Result<RosterDoc, DocumentError> {
        parse_roster(json).map_err(|e| DocumentError {
            path: e.path,
            message: e.message,
        })
    }

    fn check(cat: &Catalogue, roster: &RosterDoc) -> (RosterSummary, Vec<Finding>) {
        let report = validate(cat, roster);
        let findings: Vec<Finding> = report
            .findings
            .iter()
            .map(|f| Finding {
                code: f.code.as_str().to_string(),
                severity: match f.severity {
                    super::Severity::Error => Severity::Error,
                    super::Severity::Warning => Severity::Warning,
                },
                path: f.path.clone(),
                message: f.message.clone(),
            })
            .collect();
        let summary = RosterSummary {
            name: roster.name.clone(),
            war: Some(roster.war.id().to_string()),
            nation: Some(roster.nation.id().to_string()),
            points: Some(report.points.total),
            limit: report.points.limit,
            legal: report.legal,
            errors: 0,
            warnings: 0,
        }
        .counting(&findings);
        (summary, findings)
    }

    fn check_size(roster: &RosterDoc) -> Result<(), DocumentError> {
        check_roster_size(roster).map_err(|e| DocumentError {
            path: e.path,
            message: e.message,
        })
    }

    fn prepare_for_storing(cat: &Catalogue, roster: &mut RosterDoc) {
        roster.catalogue_version = Some(cat.version().to_string());
        roster.assign_missing_ids();
    }

    fn catalogue_version(cat: &Catalogue) -> &str {
        cat.version()
    }

    fn roster_name(roster: &RosterDoc) -> &str {
        &roster.name
    }

    fn renamed_copy(roster: &RosterDoc, name: String) -> RosterDoc {
        RosterDoc {
            id: None,
            name,
            ..roster.clone()
        }
    }

    fn starting_rosters(_: &Catalogue) -> Vec<RosterDoc> {
        super::historical_battles()
            .iter()
            .filter_map(|s| super::historical_battle(&s.id))
            .flat_map(|b| b.sides.into_iter().flat_map(|side| side.forces))
            .collect()
    }

    fn prepare_battle(
        cat: &Catalogue,
        attacker: RosterDoc,
        defender: RosterDoc,
        seed: u64,
    ) -> Result<BattleSetup, String> {
        let prepared = prepare_battle(cat, attacker, defender, None, false, seed);
        prepared.setup.check().map_err(|e| e.to_string())?;
        Ok(prepared.setup)
    }

    fn fight(cat: &Catalogue, setup: &BattleSetup) -> Option<Result<Outcome, String>> {
        Some(
            simulate(cat, setup, false)
                .map(|o| Outcome::Simulated {
                    outcome: Box::new(o),
                })
                .map_err(|e| e.to_string()),
        )
    }

    fn summary(outcome: &Outcome) -> BattleSummary {
        let (winner, level, a, d, method) = match outcome {
            Outcome::Simulated { outcome } => (
                outcome.winner,
                outcome.victory_level,
                outcome.attacker_vp,
                outcome.defender_vp,
                Method::Simulated,
            ),
            Outcome::Tabletop { outcome, .. } => (
                outcome.victory.winner,
                outcome.victory.level,
                outcome.victory.attacker_vp,
                outcome.victory.defender_vp,
                Method::Tabletop,
            ),
        };
        BattleSummary {
            winner: winner.map(side),
            level: Some(level.id().to_string()),
            score: Some((u32::from(a), u32::from(d))),
            method,
        }
    }
}
