//! Land of the Free behind the [`RuleSystem`] seam: its roster, set-up and outcome types, and how
//! its check and its results read to generic code.

use serde::{Deserialize, Serialize};

use super::battle::ScenarioId;
use super::record::{assess, prepare_battle, TabletopOutcome, TabletopReport};
use super::{
    check_roster_size, parse_battle, parse_roster, serialize_battle, simulate_with_positions,
    validate, BattleOutcome, BattleSetup, Catalogue, RosterDoc, Side,
};
use crate::rules::system::{
    BattleSide, BattleSummary, Capabilities, DocumentError, Finding, Method, Prepared,
    RecordProblem, RosterSummary, RuleSystem, SetupFacts, Severity, SystemId,
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

    fn historical_force(reference: &str) -> Option<RosterDoc> {
        super::historical_force(reference)
    }

    fn prepare_battle(
        cat: &Catalogue,
        first: RosterDoc,
        second: RosterDoc,
        scenario: Option<&str>,
        roll_roles: bool,
        seed: u64,
    ) -> Result<Prepared<BattleSetup>, String> {
        let scenario = match scenario {
            Some(id) => Some(
                ScenarioId::from_id(id)
                    .ok_or_else(|| "Choose a scenario from the list.".to_string())?,
            ),
            None => None,
        };
        let prepared = prepare_battle(cat, first, second, scenario, roll_roles, seed);
        prepared.setup.check().map_err(|e| e.to_string())?;
        Ok(Prepared {
            setup: prepared.setup,
            rolls: prepared.rolls,
            swapped: prepared.swapped,
        })
    }

    fn setup_facts(cat: &Catalogue, setup: &BattleSetup) -> SetupFacts {
        SetupFacts {
            attacker: setup.attacker.roster.name.clone(),
            defender: setup.defender.roster.name.clone(),
            scenario: setup.scenario.id().into(),
            points: setup.points_size(cat),
        }
    }

    fn parse_setup(json: &str) -> Result<BattleSetup, String> {
        parse_battle(json).map_err(|e| e.to_string())
    }

    fn write_setup(setup: &BattleSetup) -> String {
        serialize_battle(setup)
    }

    fn reseed(setup: &mut BattleSetup, seed: u64) {
        setup.seed = seed;
    }

    fn fight(cat: &Catalogue, setup: &BattleSetup) -> Option<Result<Outcome, String>> {
        // Narrated, with the positions at each turn's end: a stored battle is read back as a
        // story with a diagram per turn.
        Some(
            simulate_with_positions(cat, setup)
                .map(|o| Outcome::Simulated {
                    outcome: Box::new(o),
                })
                .map_err(|e| e.to_string()),
        )
    }

    fn assess_record(
        cat: &Catalogue,
        setup: &BattleSetup,
        report: &serde_json::Value,
    ) -> Result<Outcome, Vec<RecordProblem>> {
        let report: TabletopReport = serde_json::from_value(report.clone()).map_err(|e| {
            vec![RecordProblem {
                field: "report".into(),
                message: format!("The report could not be read: {e}"),
            }]
        })?;
        match assess(cat, setup, &report) {
            Ok(outcome) => Ok(Outcome::Tabletop {
                report,
                outcome: Box::new(outcome),
            }),
            Err(problems) => Err(problems
                .into_iter()
                .map(|p| RecordProblem {
                    field: p.field,
                    message: p.message,
                })
                .collect()),
        }
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
