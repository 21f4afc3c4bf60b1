//! What every rule system is to the rest of Muster: its identity and capabilities, what generic
//! code may know of a roster and of a decided battle, and the [`RuleSystem`] trait each system
//! implements, typed inside (a system's own roster, set-up and outcome types) so that generic code
//! never names them. `systems/mod.rs` dispatches on [`SystemId`].

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::rules::vocab::vocabulary;

vocabulary!(
    /// A rule system, as rosters, battles and campaigns record it (`rule_system`).
    SystemId {
        Lotf => "lotf", "Land of the Free";
        Lod => "lod", "Liberty or Death!";
        Awi => "awi", "AWI wargames rules";
        Oibl => "oibl", "One if by Land";
        Atkm => "atkm", "All the King's Men";
    }
);

impl SystemId {
    /// The system a Muster document declares in its `format` field
    /// (`muster.<system>.<kind>/<version>`), if it reads as one.
    pub fn of_document(json: &str) -> Option<SystemId> {
        let value: serde_json::Value = serde_json::from_str(json).ok()?;
        let format = value.get("format")?.as_str()?;
        let mut parts = format.strip_prefix("muster.")?.split('.');
        SystemId::from_id(parts.next()?)
    }
}

/// What a rule system offers; generic pages and services show or refuse by these.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Capabilities {
    /// Rosters are priced in points (a battle size in points, reinforcements bought with them).
    pub points: bool,
    /// Army lists or historical forces to start a roster from.
    pub lists: bool,
    /// Exact odds for the system's dice tests.
    pub odds: bool,
    /// The engine can fight a battle.
    pub simulator: bool,
    /// A game played on the table can be recorded and assessed.
    pub tabletop_record: bool,
    /// Forces can fight club campaigns.
    pub campaigns: bool,
}

/// How serious a finding is. Only errors make a roster illegal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Error,
    Warning,
    /// Worth knowing, not a problem (e.g. a rating Muster will roll); never makes a roster
    /// illegal and is not counted as a warning.
    Info,
}

/// One thing a system's check noticed about a roster, in words a player can act on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// Stable, machine-readable, snake_case.
    pub code: String,
    pub severity: Severity,
    /// What it concerns, as a path into the roster document (`groups[1].elements[3]`); empty for
    /// the whole force.
    pub path: String,
    pub message: String,
}

/// What generic code may know about any roster (the summary columns stored beside it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RosterSummary {
    pub name: String,
    /// The war or period, where the system has one.
    pub war: Option<String>,
    /// The nation or army list, where the system has one.
    pub nation: Option<String>,
    /// `None` for a system without points.
    pub points: Option<u32>,
    pub limit: Option<u32>,
    pub legal: bool,
    pub errors: u32,
    pub warnings: u32,
}

impl RosterSummary {
    /// Counts the findings' errors and warnings; legal when there is no error.
    pub fn counting(mut self, findings: &[Finding]) -> Self {
        let errors = findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
            .count();
        let warnings = findings
            .iter()
            .filter(|f| f.severity == Severity::Warning)
            .count();
        self.errors = u32::try_from(errors).unwrap_or(u32::MAX);
        self.warnings = u32::try_from(warnings).unwrap_or(u32::MAX);
        self.legal = errors == 0;
        self
    }
}

/// One of the two sides of a battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BattleSide {
    Attacker,
    Defender,
}

impl BattleSide {
    /// As stored: `attacker`, `defender`.
    pub fn id(self) -> &'static str {
        match self {
            BattleSide::Attacker => "attacker",
            BattleSide::Defender => "defender",
        }
    }

    pub fn other(self) -> BattleSide {
        match self {
            BattleSide::Attacker => BattleSide::Defender,
            BattleSide::Defender => BattleSide::Attacker,
        }
    }
}

/// How a battle was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    Simulated,
    Tabletop,
}

/// What generic code may know about any decided battle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BattleSummary {
    /// `None`: a draw.
    pub winner: Option<BattleSide>,
    /// The result band in the system's words, as it reports it (e.g. `major`, `minor`).
    pub level: Option<String>,
    /// (attacker, defender) victory points, where the system scores them.
    pub score: Option<(u32, u32)>,
    pub method: Method,
}

/// Why a document cannot be read as the system's roster.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct DocumentError {
    /// The field it concerns, as a path, when there is one.
    pub path: Option<String>,
    pub message: String,
}

/// A battle set up by its system: the set-up, what was rolled for it in words, and whether the
/// roll for the attack swapped the two forces (the second one attacks).
#[derive(Debug, Clone)]
pub struct Prepared<S> {
    pub setup: S,
    pub rolls: Vec<String>,
    pub swapped: bool,
}

/// What generic code shows of a battle's set-up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetupFacts {
    pub attacker: String,
    pub defender: String,
    /// The scenario's id.
    pub scenario: String,
    /// The battle's size in the system's measure (0 without one).
    pub points: u32,
}

/// A battle set up and ready to store, as any system gives it.
#[derive(Debug, Clone)]
pub struct PreparedBattle {
    /// The system's set-up document.
    pub setup: String,
    pub rolls: Vec<String>,
    pub swapped: bool,
    pub facts: SetupFacts,
}

/// A battle decided and ready to store: the system's stored result and what generic code may
/// know of it.
#[derive(Debug, Clone)]
pub struct DecidedBattle {
    /// The set-up as fought (the simulator draws a fresh seed), when it changed.
    pub setup: Option<String>,
    pub result: String,
    pub summary: BattleSummary,
}

/// What is wrong with a result entered from the table, by field, in plain words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RecordProblem {
    pub field: String,
    pub message: String,
}

/// One rule system, typed inside: its catalogue, its roster, battle set-up and outcome types.
/// Generic code reaches it through the dispatch in `systems/mod.rs`.
pub trait RuleSystem: Sized + 'static {
    const ID: SystemId;
    /// The data files, checked at start-up.
    type Catalogue;
    type Roster: Serialize + DeserializeOwned + Clone;
    /// A battle ready to fight or to record: both forces and everything rolled before it.
    type Setup: Serialize + DeserializeOwned;
    /// A decided battle: the simulator's result or an assessed tabletop record.
    type Outcome: Serialize + DeserializeOwned;

    fn capabilities() -> Capabilities;
    /// Reads a roster document; refuses anything that is not one, naming the field.
    fn parse_roster(json: &str) -> Result<Self::Roster, DocumentError>;
    /// The system's check of a roster: a summary and every finding at once. Never panics.
    fn check(cat: &Self::Catalogue, roster: &Self::Roster) -> (RosterSummary, Vec<Finding>);
    /// Refuses a roster larger than any real force (the system's limits on its parts and
    /// texts), naming the part.
    fn check_size(roster: &Self::Roster) -> Result<(), DocumentError>;
    /// Makes a roster ready to store: gives its parts the ids they lack and records the
    /// catalogue version it is saved with. The same roster always comes out the same.
    fn prepare_for_storing(cat: &Self::Catalogue, roster: &mut Self::Roster);
    /// The version of the data rosters are checked against, stored beside each roster.
    fn catalogue_version(cat: &Self::Catalogue) -> &str;
    /// The name the player gave the roster.
    fn roster_name(roster: &Self::Roster) -> &str;
    /// A copy of a roster as a new document named `name` (without the original's identity).
    fn renamed_copy(roster: &Self::Roster, name: String) -> Self::Roster;
    /// Rosters a player can start from (army lists' examples, historical forces).
    fn starting_rosters(cat: &Self::Catalogue) -> Vec<Self::Roster>;
    /// A force from the system's historical orders of battle, by its reference; `None` for one
    /// it does not have.
    fn historical_force(reference: &str) -> Option<Self::Roster>;
    /// Rolls what the system rolls before a battle (with `seed`) and sets it up: the scenario
    /// unless one is chosen, and which force attacks when `roll_roles`.
    fn prepare_battle(
        cat: &Self::Catalogue,
        first: Self::Roster,
        second: Self::Roster,
        scenario: Option<&str>,
        roll_roles: bool,
        seed: u64,
    ) -> Result<Prepared<Self::Setup>, String>;
    /// What generic code shows of a set-up.
    fn setup_facts(cat: &Self::Catalogue, setup: &Self::Setup) -> SetupFacts;
    /// Reads a stored set-up document.
    fn parse_setup(json: &str) -> Result<Self::Setup, String>;
    fn write_setup(setup: &Self::Setup) -> String;
    /// The seed the battle's own dice are drawn from, drawn afresh when it is fought.
    fn reseed(setup: &mut Self::Setup, seed: u64);
    /// The engine fights the battle; `None` for a system without a simulator.
    fn fight(cat: &Self::Catalogue, setup: &Self::Setup) -> Option<Result<Self::Outcome, String>>;
    /// Assesses a result entered from the table against the set-up.
    fn assess_record(
        cat: &Self::Catalogue,
        setup: &Self::Setup,
        report: &serde_json::Value,
    ) -> Result<Self::Outcome, Vec<RecordProblem>>;
    /// What generic code may know about a decided battle.
    fn summary(outcome: &Self::Outcome) -> BattleSummary;

    /// [`RuleSystem::prepare_battle`], ready to store.
    fn prepare_stored(
        cat: &Self::Catalogue,
        first: Self::Roster,
        second: Self::Roster,
        scenario: Option<&str>,
        roll_roles: bool,
        seed: u64,
    ) -> Result<PreparedBattle, String> {
        let p = Self::prepare_battle(cat, first, second, scenario, roll_roles, seed)?;
        Ok(PreparedBattle {
            setup: Self::write_setup(&p.setup),
            facts: Self::setup_facts(cat, &p.setup),
            rolls: p.rolls,
            swapped: p.swapped,
        })
    }

    /// Fights a stored set-up with a fresh `seed`, ready to store.
    fn fight_stored(
        cat: &Self::Catalogue,
        setup: &str,
        seed: u64,
    ) -> Result<DecidedBattle, String> {
        let mut setup = Self::parse_setup(setup)?;
        Self::reseed(&mut setup, seed);
        let outcome = Self::fight(cat, &setup)
            .ok_or_else(|| format!("{} has no simulator in Muster yet.", Self::ID.label()))??;
        Ok(DecidedBattle {
            setup: Some(Self::write_setup(&setup)),
            result: serde_json::to_string(&outcome).map_err(|e| e.to_string())?,
            summary: Self::summary(&outcome),
        })
    }

    /// Assesses a result entered from the table against a stored set-up, ready to store. The
    /// outer error is a set-up that cannot be read.
    fn assess_stored(
        cat: &Self::Catalogue,
        setup: &str,
        report: &serde_json::Value,
    ) -> Result<Result<DecidedBattle, Vec<RecordProblem>>, String> {
        let setup = Self::parse_setup(setup)?;
        Ok(match Self::assess_record(cat, &setup, report) {
            Ok(outcome) => Ok(DecidedBattle {
                setup: None,
                result: serde_json::to_string(&outcome).map_err(|e| e.to_string())?,
                summary: Self::summary(&outcome),
            }),
            Err(problems) => Err(problems),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_document_names_its_system_in_its_format() {
        assert_eq!(
            SystemId::of_document(r#"{"format": "muster.lotf.roster/1", "name": "x"}"#),
            Some(SystemId::Lotf)
        );
        assert_eq!(
            SystemId::of_document(r#"{"format": "muster.lod.roster/1"}"#),
            Some(SystemId::Lod)
        );
        for other in [
            r#"{"format": "bs.roster"}"#,
            r#"{"format": "muster.chess.roster/1"}"#,
            r#"{"name": "no format"}"#,
            "not json",
        ] {
            assert_eq!(SystemId::of_document(other), None, "{other}");
        }
    }
}
