//! The *AWI wargames rules* behind the [`RuleSystem`] seam: its roster, set-up and outcome
//! types, and how its check and its results read to generic code.

use super::battle::{BattleSetup, Outcome, BATTLE_FORMAT};
use super::record::{assess, prepare, TabletopReport};
use super::roster::{check_roster_size, parse_roster, RosterDoc};
use super::validate::{summary, validate};
use super::Catalogue;
use crate::rules::system::{
    BattleSummary, Capabilities, DocumentError, Finding, Prepared, RecordProblem, RosterSummary,
    RuleSystem, SetupFacts, SystemId,
};

/// The AWI wargames rules, as the dispatch names it.
pub struct Awi;

/// The starting points (issue item 3): an empty order of battle with a brigade, and a small
/// example force per side.
const EXAMPLES: [(&str, &str); 3] = [
    ("empty", include_str!("data/examples/empty.json")),
    ("british", include_str!("data/examples/british.json")),
    (
        "continental",
        include_str!("data/examples/continental.json"),
    ),
];

/// What names a starting point among the ready forces: `example:british`.
pub const EXAMPLE_PREFIX: &str = "example:";

/// What names a ready force as this system's among every system's (`awi:example:british`).
pub const AWI_PREFIX: &str = "awi:";

/// A starting point by its reference (`example:empty`, `example:british`,
/// `example:continental`).
pub fn example_force(reference: &str) -> Option<RosterDoc> {
    let key = reference.strip_prefix(EXAMPLE_PREFIX)?;
    EXAMPLES
        .iter()
        .find(|(k, _)| *k == key)
        .and_then(|(_, text)| parse_roster(text).ok())
}

/// The starting points as (reference, name).
pub fn example_forces() -> Vec<(String, String)> {
    EXAMPLES
        .iter()
        .filter_map(|(k, text)| {
            Some((
                format!("{EXAMPLE_PREFIX}{k}"),
                parse_roster(text).ok()?.name,
            ))
        })
        .collect()
}

impl RuleSystem for Awi {
    const ID: SystemId = SystemId::Awi;
    type Catalogue = Catalogue;
    type Roster = RosterDoc;
    type Setup = BattleSetup;
    type Outcome = Outcome;

    /// What the rules core offers. The pages decide what the site shows
    /// (`SystemId::capabilities` in the dispatch file).
    fn capabilities() -> Capabilities {
        Capabilities {
            points: false,
            lists: true,
            odds: true,
            simulator: true,
            tabletop_record: true,
            // The campaign rules: `campaign.rs` (ForceRules).
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
        EXAMPLES
            .iter()
            .filter_map(|(_, text)| parse_roster(text).ok())
            .collect()
    }

    /// No historical orders of battle are built in; the starting points stand in for them as
    /// ready forces, named `awi:example:<key>` (or `example:<key>`). The battle pages read a
    /// force's rule system from its reference, and Liberty or Death!'s examples are named
    /// `example:<key>` too, so the AWI battle choices offer the `awi:` form.
    fn historical_force(reference: &str) -> Option<RosterDoc> {
        example_force(reference.strip_prefix(AWI_PREFIX).unwrap_or(reference))
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

    fn setup_facts(cat: &Catalogue, setup: &BattleSetup) -> SetupFacts {
        let bases = |r: &RosterDoc| validate(cat, r).bases;
        SetupFacts {
            attacker: setup.attacker.roster.name.clone(),
            defender: setup.defender.roster.name.clone(),
            scenario: setup.scenario.clone(),
            // The battle's size in the rules' own measure: bases on the table.
            points: bases(&setup.attacker.roster).max(bases(&setup.defender.roster)),
        }
    }

    fn parse_setup(json: &str) -> Result<BattleSetup, String> {
        let setup: BattleSetup =
            serde_json::from_str(json).map_err(|e| format!("This is not an AWI battle: {e}"))?;
        if setup.format != BATTLE_FORMAT {
            return Err(format!(
                "This is not an AWI battle: its format is '{}', not '{BATTLE_FORMAT}'.",
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
            level: Some(outcome.level.id().to_string()),
            score: Some((outcome.attacker.vp, outcome.defender.vp)),
            method: outcome.method,
        }
    }
}
