//! *Liberty or Death!* behind the [`RuleSystem`] seam: its roster, set-up and outcome types, and
//! how its check and its results read to generic code.

use super::battle::{BattleSetup, Outcome, BATTLE_FORMAT};
use super::record::{assess, prepare, TabletopReport};
use super::roster::{check_roster_size, parse_roster, RosterDoc};
use super::validate::{summary, validate, Setting};
use super::Catalogue;
use crate::rules::system::{
    BattleSummary, Capabilities, DocumentError, Finding, Prepared, RecordProblem, RosterSummary,
    RuleSystem, SetupFacts, SystemId,
};

/// Liberty or Death!, as the dispatch names it.
pub struct Lod;

const EXAMPLES: [&str; 3] = [
    include_str!("data/examples/continental.json"),
    include_str!("data/examples/british.json"),
    include_str!("data/examples/hessian.json"),
];

/// The example army of one list, as a ready force: `example:continental`.
pub fn example_force(reference: &str) -> Option<RosterDoc> {
    let list = reference.strip_prefix(EXAMPLE_PREFIX)?;
    EXAMPLES
        .iter()
        .filter_map(|text| parse_roster(text).ok())
        .find(|r| r.army_list == list)
}

/// What names an example army among the ready forces.
pub const EXAMPLE_PREFIX: &str = "example:";

/// The example armies as ready forces: (reference, name).
pub fn example_forces() -> Vec<(String, String)> {
    EXAMPLES
        .iter()
        .filter_map(|text| parse_roster(text).ok())
        .map(|r| (format!("{EXAMPLE_PREFIX}{}", r.army_list), r.name))
        .collect()
}

impl RuleSystem for Lod {
    const ID: SystemId = SystemId::Lod;
    type Catalogue = Catalogue;
    type Roster = RosterDoc;
    type Setup = BattleSetup;
    type Outcome = Outcome;

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
        let report = validate(cat, roster, Setting::Standalone);
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
        EXAMPLES
            .iter()
            .filter_map(|text| parse_roster(text).ok())
            .collect()
    }

    /// Liberty or Death! has no historical orders of battle; its example armies stand in for
    /// them as ready forces, named `example:<army list>`.
    fn historical_force(reference: &str) -> Option<RosterDoc> {
        example_force(reference)
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
        SetupFacts {
            attacker: setup.attacker.roster.name.clone(),
            defender: setup.defender.roster.name.clone(),
            scenario: setup.scenario.clone(),
            points: 0,
        }
    }

    fn parse_setup(json: &str) -> Result<BattleSetup, String> {
        let setup: BattleSetup = serde_json::from_str(json)
            .map_err(|e| format!("This is not a Liberty or Death! battle: {e}"))?;
        if setup.format != BATTLE_FORMAT {
            return Err(format!(
                "This is not a Liberty or Death! battle: its format is '{}', not '{BATTLE_FORMAT}'.",
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
        // Narrated, with the positions at each turn's end: a stored battle is read back as a
        // story with a diagram per turn.
        Some(super::sim::fight_with_positions(cat, setup))
    }

    fn assess_record(
        cat: &Catalogue,
        setup: &BattleSetup,
        report: &serde_json::Value,
    ) -> Result<Outcome, Vec<RecordProblem>> {
        let report: TabletopReport = serde_json::from_value(report.clone()).map_err(|e| {
            vec![RecordProblem {
                field: "report".into(),
                message: format!("The result could not be read: {e}"),
            }]
        })?;
        assess(cat, setup, &report)
    }

    fn summary(outcome: &Outcome) -> BattleSummary {
        BattleSummary {
            winner: outcome.winner,
            level: Some(outcome.band.id().to_string()),
            score: Some((outcome.attacker.vp, outcome.defender.vp)),
            method: outcome.method,
        }
    }
}
