//! *One if by Land* behind the [`RuleSystem`] seam: its roster, set-up and outcome types, and
//! how its check and its results read to generic code.

use super::battle::{BattleSetup, Outcome, BATTLE_FORMAT};
use super::record::{assess, prepare, TabletopReport};
use super::roster::{check_roster_size, parse_roster, RosterDoc};
use super::validate::{summary, validate};
use super::Catalogue;
use crate::rules::system::{
    BattleSummary, Capabilities, DocumentError, Finding, Prepared, RecordProblem, RosterSummary,
    RuleSystem, SetupFacts, SystemId,
};

/// One if by Land, as the dispatch names it.
pub struct Oibl;

/// The starting points: an empty order of battle with one brigade, and a small example brigade
/// per side (the rules ship no orders of battle, spec 2.3).
pub const STARTING_POINTS: [(&str, &str); 3] = [
    ("empty", include_str!("data/examples/empty.json")),
    ("american", include_str!("data/examples/american.json")),
    ("british", include_str!("data/examples/british.json")),
];

/// What names a starting point among the ready forces: `example:american`.
pub const EXAMPLE_PREFIX: &str = "example:";

/// What names this system's ready forces among every system's: `oibl:example:american`
/// (`example:` alone is Liberty or Death!'s and AWI's too).
pub const OIBL_PREFIX: &str = "oibl:";

/// A starting point by its reference (`example:american`, `example:british`, `example:empty`).
pub fn example_force(reference: &str) -> Option<RosterDoc> {
    let key = reference.strip_prefix(EXAMPLE_PREFIX)?;
    STARTING_POINTS
        .iter()
        .find(|(k, _)| *k == key)
        .and_then(|(_, text)| parse_roster(text).ok())
}

/// The starting points as ready forces: (reference, name).
pub fn example_forces() -> Vec<(String, String)> {
    STARTING_POINTS
        .iter()
        .filter_map(|(k, text)| {
            parse_roster(text)
                .ok()
                .map(|r| (format!("{EXAMPLE_PREFIX}{k}"), r.name))
        })
        .collect()
}

impl RuleSystem for Oibl {
    const ID: SystemId = SystemId::Oibl;
    type Catalogue = Catalogue;
    type Roster = RosterDoc;
    type Setup = BattleSetup;
    type Outcome = Outcome;

    fn capabilities() -> Capabilities {
        Capabilities {
            points: false,
            lists: true,
            odds: true,
            // The simulator: `sim/` (spec 5, B-53 to B-62).
            simulator: true,
            tabletop_record: true,
            // Campaigns: `campaign.rs` (spec 3.3, B-70 to B-73).
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
        STARTING_POINTS
            .iter()
            .filter_map(|(_, text)| parse_roster(text).ok())
            .collect()
    }

    /// No historical orders of battle (spec 2.3); the starting points stand in as ready forces,
    /// named `oibl:example:<key>` so that no other system's examples answer to them.
    fn historical_force(reference: &str) -> Option<RosterDoc> {
        example_force(reference.strip_prefix(OIBL_PREFIX)?)
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
        // The battle's size in the game's own measure, as a campaign sizes its battles: the
        // figures of the larger side.
        let figures = |s: &super::battle::SideSetup| -> u32 {
            super::unit::roster_units(cat, &s.roster)
                .iter()
                .map(|(_, u)| u.figures)
                .sum()
        };
        let figures = figures(&setup.attacker).max(figures(&setup.defender));
        SetupFacts {
            attacker: setup.attacker.roster.name.clone(),
            defender: setup.defender.roster.name.clone(),
            scenario: setup.scenario.clone(),
            points: figures,
        }
    }

    fn parse_setup(json: &str) -> Result<BattleSetup, String> {
        let setup: BattleSetup = serde_json::from_str(json)
            .map_err(|e| format!("This is not a One if by Land battle: {e}"))?;
        if setup.format != BATTLE_FORMAT {
            return Err(format!(
                "This is not a One if by Land battle: its format is '{}', not '{BATTLE_FORMAT}'.",
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
            score: None,
            method: outcome.method,
        }
    }
}
