//! *All the King's Men* behind the [`RuleSystem`] seam: its roster, set-up and outcome types,
//! and how its check and its results read to generic code.

use super::battle::{prepare, BattleSetup, Outcome, BATTLE_FORMAT};
use super::catalogue::{scenario_rosters, Catalogue};
use super::roster::{check_roster_size, parse_roster, RosterDoc};
use super::validate::{summary, validate};
use crate::rules::system::{
    BattleSummary, Capabilities, DocumentError, Finding, Prepared, RecordProblem, RosterSummary,
    RuleSystem, SetupFacts, SystemId,
};

/// All the King's Men, as the dispatch names it.
pub struct Atkm;

/// What names a sample battle's force among the ready forces: `sample:cowpens_1781_americans`.
pub const SAMPLE_PREFIX: &str = "sample:";

/// A sample battle's force by its reference (`sample:<roster id>`).
pub fn sample_force(reference: &str) -> Option<RosterDoc> {
    let id = reference.strip_prefix(SAMPLE_PREFIX)?;
    scenario_rosters()
        .into_iter()
        .find(|r| r.id.as_deref() == Some(id))
}

/// The sample battles' forces as ready forces: (reference, name).
pub fn sample_forces() -> Vec<(String, String)> {
    scenario_rosters()
        .into_iter()
        .filter_map(|r| Some((format!("{SAMPLE_PREFIX}{}", r.id?), r.name)))
        .collect()
}

impl RuleSystem for Atkm {
    const ID: SystemId = SystemId::Atkm;
    type Catalogue = Catalogue;
    type Roster = RosterDoc;
    type Setup = BattleSetup;
    type Outcome = Outcome;

    /// Rosters and their check, ready forces, odds, the simulator, recorded battles and
    /// campaigns.
    fn capabilities() -> Capabilities {
        Capabilities {
            points: false,
            lists: true,
            odds: true,
            simulator: true,
            tabletop_record: true,
            campaigns: true,
        }
    }

    fn parse_roster(json: &str) -> Result<RosterDoc, DocumentError> {
        parse_roster(json)
    }

    fn check(cat: &Catalogue, roster: &RosterDoc) -> (RosterSummary, Vec<Finding>) {
        let report = validate(cat, roster);
        (summary(roster, &report), report.findings)
    }

    fn check_size(roster: &RosterDoc) -> Result<(), DocumentError> {
        check_roster_size(roster)
    }

    fn prepare_for_storing(cat: &Catalogue, roster: &mut RosterDoc) {
        roster.assign_ids();
        roster.catalogue_version = Some(cat.version().to_string());
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
        scenario_rosters()
    }

    /// The forces of the three sample battles, named `sample:<roster id>`.
    fn historical_force(reference: &str) -> Option<RosterDoc> {
        sample_force(reference)
    }

    fn prepare_battle(
        cat: &Catalogue,
        first: RosterDoc,
        second: RosterDoc,
        scenario: Option<&str>,
        roll_roles: bool,
        seed: u64,
    ) -> Result<Prepared<BattleSetup>, String> {
        let p = prepare(cat, first, second, scenario, roll_roles, seed)?;
        Ok(Prepared {
            setup: p.setup,
            rolls: p.rolls,
            swapped: p.swapped,
        })
    }

    fn setup_facts(_: &Catalogue, setup: &BattleSetup) -> SetupFacts {
        let units =
            |f: &super::battle::ForceSetup| u32::try_from(f.roster.units.len()).unwrap_or(u32::MAX);
        SetupFacts {
            attacker: setup.attacker.roster.name.clone(),
            defender: setup.defender.roster.name.clone(),
            scenario: setup.scenario.clone(),
            points: units(&setup.attacker).max(units(&setup.defender)),
        }
    }

    fn parse_setup(json: &str) -> Result<BattleSetup, String> {
        let setup: BattleSetup = serde_json::from_str(json)
            .map_err(|e| format!("This is not an All the King's Men battle: {e}"))?;
        if setup.format != BATTLE_FORMAT {
            return Err(format!(
                "This is not an All the King's Men battle: its format is '{}', not '{BATTLE_FORMAT}'.",
                setup.format
            ));
        }
        Ok(setup)
    }

    fn write_setup(setup: &BattleSetup) -> String {
        serde_json::to_string_pretty(setup).unwrap_or_default()
    }

    fn reseed(setup: &mut BattleSetup, seed: u64) {
        setup.seed = seed;
    }

    fn fight(cat: &Catalogue, setup: &BattleSetup) -> Option<Result<Outcome, String>> {
        Some(super::sim::fight(cat, setup))
    }

    fn assess_record(
        cat: &Catalogue,
        setup: &BattleSetup,
        report: &serde_json::Value,
    ) -> Result<Outcome, Vec<RecordProblem>> {
        let report: super::record::TabletopReport = serde_json::from_value(report.clone())
            .map_err(|e| {
                vec![RecordProblem {
                    field: "report".into(),
                    message: format!("The result could not be read: {e}"),
                }]
            })?;
        super::record::assess(cat, setup, &report)
    }

    fn summary(outcome: &Outcome) -> BattleSummary {
        BattleSummary {
            winner: outcome.winner,
            level: Some(outcome.level.clone()),
            score: None,
            method: outcome.method,
        }
    }
}
