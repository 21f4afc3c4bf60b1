//! The rule systems Muster serves, and the one place that dispatches on them. Each system is a
//! folder here (`lotf/` for *Land of the Free*, `lod/` for *Liberty or Death!*); adding one adds a folder and one arm per match
//! in this file. Generic code names [`SystemId`] and asks [`Systems`], never a system's types.

pub mod atkm;
pub mod awi;
pub mod lod;
pub mod lotf;
pub mod oibl;

use crate::rules::campaign::ForceRules;
use crate::rules::system::{
    Capabilities, DecidedBattle, DocumentError, Finding, PreparedBattle, RecordProblem,
    RosterSummary, RuleSystem, SystemId,
};
use crate::rules::table;

/// Answered here, in the dispatch file, so that adding a system adds one arm.
impl SystemId {
    /// What this build offers for the system; `None` for a system it does not serve yet.
    pub fn capabilities(self) -> Option<Capabilities> {
        match self {
            SystemId::Lotf => Some(lotf::Lotf::capabilities()),
            SystemId::Lod => Some(lod::Lod::capabilities()),
            // Everything has pages: orders of battle, printouts, the odds page, the fight page,
            // battles set up, fought or recorded from the table, and campaigns.
            SystemId::Awi => Some(awi::Awi::capabilities()),
            // Everything has pages: rosters, printouts, exact odds, the simulator
            // (`/atkm/fight`), battles recorded from the table and campaigns.
            SystemId::Atkm => Some(atkm::Atkm::capabilities()),
            // One if by Land: everything has pages: rosters, printouts, the exact odds page, the
            // fight page, battles set up, fought or recorded from the table, and campaigns.
            SystemId::Oibl => Some(Capabilities {
                odds: true,
                simulator: true,
                tabletop_record: true,
                campaigns: true,
                ..oibl::Oibl::capabilities()
            }),
        }
    }

    /// The systems this build serves, in the order pages list them.
    pub fn served() -> impl Iterator<Item = SystemId> {
        SystemId::ALL
            .iter()
            .copied()
            .filter(|s| s.capabilities().is_some())
    }
}

/// The catalogues of the rule systems this build serves, loaded and checked once at start-up.
#[derive(Debug, Clone)]
pub struct Systems {
    pub lotf: lotf::Catalogue,
    pub lod: lod::Catalogue,
    pub awi: awi::Catalogue,
    pub atkm: atkm::Catalogue,
    pub oibl: oibl::Catalogue,
}

/// A system's built-in data that does not read or does not agree with itself.
#[derive(Debug, Clone, thiserror::Error)]
pub enum CatalogueError {
    #[error(transparent)]
    Lotf(#[from] lotf::CatalogueError),
    #[error(transparent)]
    Lod(#[from] lod::CatalogueError),
    #[error(transparent)]
    Awi(#[from] awi::CatalogueError),
    #[error(transparent)]
    Atkm(#[from] atkm::CatalogueError),
    #[error(transparent)]
    Oibl(#[from] oibl::CatalogueError),
}

impl Systems {
    /// The built-in data of every rule system, parsed and checked for consistency.
    pub fn builtin() -> Result<Self, CatalogueError> {
        Ok(Self {
            lotf: lotf::Catalogue::builtin()?,
            lod: lod::Catalogue::builtin()?,
            awi: awi::Catalogue::builtin()?,
            atkm: atkm::Catalogue::builtin()?,
            oibl: oibl::Catalogue::builtin()?,
        })
    }
}

/// A roster of any served system, read from its stored document.
#[derive(Debug, Clone)]
pub enum AnyRoster {
    Lotf(lotf::RosterDoc),
    Lod(lod::RosterDoc),
    Awi(awi::RosterDoc),
    Atkm(atkm::RosterDoc),
    Oibl(oibl::RosterDoc),
}

impl AnyRoster {
    pub fn system(&self) -> SystemId {
        match self {
            AnyRoster::Lotf(_) => SystemId::Lotf,
            AnyRoster::Lod(_) => SystemId::Lod,
            AnyRoster::Awi(_) => SystemId::Awi,
            AnyRoster::Atkm(_) => SystemId::Atkm,
            AnyRoster::Oibl(_) => SystemId::Oibl,
        }
    }

    /// The roster as its system's JSON document.
    pub fn to_json(&self) -> String {
        match self {
            AnyRoster::Lotf(r) => r.to_json_pretty(),
            AnyRoster::Lod(r) => r.to_json_pretty(),
            AnyRoster::Awi(r) => r.to_json_pretty(),
            AnyRoster::Atkm(r) => r.to_json_pretty(),
            AnyRoster::Oibl(r) => r.to_json_pretty(),
        }
    }
}

impl Systems {
    /// Reads a roster document of system `id`; a system this build does not serve is refused
    /// by name.
    pub fn parse_roster(&self, id: SystemId, json: &str) -> Result<AnyRoster, DocumentError> {
        match id {
            SystemId::Lotf => lotf::Lotf::parse_roster(json).map(AnyRoster::Lotf),
            SystemId::Lod => lod::Lod::parse_roster(json).map(AnyRoster::Lod),
            SystemId::Awi => awi::Awi::parse_roster(json).map(AnyRoster::Awi),
            SystemId::Atkm => atkm::Atkm::parse_roster(json).map(AnyRoster::Atkm),
            SystemId::Oibl => oibl::Oibl::parse_roster(json).map(AnyRoster::Oibl),
        }
    }

    /// What the campaign engine asks of system `id`; `None` for a system this build does not
    /// serve or that fights no campaigns.
    pub fn forces(&self, id: SystemId) -> Option<&dyn ForceRules> {
        match id {
            SystemId::Lotf => Some(&self.lotf),
            SystemId::Lod => Some(&self.lod),
            SystemId::Awi => Some(&self.awi),
            SystemId::Atkm => Some(&self.atkm),
            // Spec 3.3, B-70 to B-73 (`oibl/campaign.rs`).
            SystemId::Oibl => Some(&self.oibl),
        }
    }

    /// A scenario's name in its system's words, whichever served system it belongs to (ids
    /// differ between systems); the id with spaces for one none of them knows.
    pub fn scenario_name(&self, id: &str) -> String {
        SystemId::served()
            .find_map(|s| self.forces(s)?.scenario_name(id))
            .unwrap_or_else(|| id.replace('_', " "))
    }

    /// The roster's system's check: a summary and every finding.
    pub fn check(&self, roster: &AnyRoster) -> (RosterSummary, Vec<Finding>) {
        match roster {
            AnyRoster::Lotf(r) => lotf::Lotf::check(&self.lotf, r),
            AnyRoster::Lod(r) => lod::Lod::check(&self.lod, r),
            AnyRoster::Awi(r) => awi::Awi::check(&self.awi, r),
            AnyRoster::Atkm(r) => atkm::Atkm::check(&self.atkm, r),
            AnyRoster::Oibl(r) => oibl::Oibl::check(&self.oibl, r),
        }
    }
}

// Battles: set up, fought and recorded through the battle's system, kept as its JSON.
impl Systems {
    /// The system whose historical orders of battle hold force `reference`.
    pub fn historical_system(&self, reference: &str) -> Option<SystemId> {
        lotf::Lotf::historical_force(reference)
            .map(|_| SystemId::Lotf)
            .or_else(|| lod::Lod::historical_force(reference).map(|_| SystemId::Lod))
            .or_else(|| awi::Awi::historical_force(reference).map(|_| SystemId::Awi))
            .or_else(|| atkm::Atkm::historical_force(reference).map(|_| SystemId::Atkm))
            .or_else(|| oibl::Oibl::historical_force(reference).map(|_| SystemId::Oibl))
    }

    /// A force of system `id`'s historical orders of battle.
    pub fn historical_force(&self, id: SystemId, reference: &str) -> Option<AnyRoster> {
        match id {
            SystemId::Lotf => lotf::Lotf::historical_force(reference).map(AnyRoster::Lotf),
            SystemId::Lod => lod::Lod::historical_force(reference).map(AnyRoster::Lod),
            SystemId::Awi => awi::Awi::historical_force(reference).map(AnyRoster::Awi),
            SystemId::Atkm => atkm::Atkm::historical_force(reference).map(AnyRoster::Atkm),
            SystemId::Oibl => oibl::Oibl::historical_force(reference).map(AnyRoster::Oibl),
        }
    }

    /// Sets a battle up between two rosters of one system, rolling with `seed`.
    pub fn prepare_battle(
        &self,
        first: AnyRoster,
        second: AnyRoster,
        scenario: Option<&str>,
        roll_roles: bool,
        seed: u64,
    ) -> Result<PreparedBattle, String> {
        match (first, second) {
            (AnyRoster::Lotf(a), AnyRoster::Lotf(b)) => {
                lotf::Lotf::prepare_stored(&self.lotf, a, b, scenario, roll_roles, seed)
            }
            (AnyRoster::Lod(a), AnyRoster::Lod(b)) => {
                lod::Lod::prepare_stored(&self.lod, a, b, scenario, roll_roles, seed)
            }
            (AnyRoster::Awi(a), AnyRoster::Awi(b)) => {
                awi::Awi::prepare_stored(&self.awi, a, b, scenario, roll_roles, seed)
            }
            (AnyRoster::Atkm(a), AnyRoster::Atkm(b)) => {
                atkm::Atkm::prepare_stored(&self.atkm, a, b, scenario, roll_roles, seed)
            }
            (AnyRoster::Oibl(a), AnyRoster::Oibl(b)) => {
                oibl::Oibl::prepare_stored(&self.oibl, a, b, scenario, roll_roles, seed)
            }
            (a, b) => Err(format!(
                "A battle is fought between two forces of one rule system, not {} against {}.",
                a.system().label(),
                b.system().label()
            )),
        }
    }

    /// The system's engine fights a stored set-up with a fresh `seed`.
    pub fn fight(&self, id: SystemId, setup: &str, seed: u64) -> Result<DecidedBattle, String> {
        match id {
            SystemId::Lotf => lotf::Lotf::fight_stored(&self.lotf, setup, seed),
            SystemId::Lod => lod::Lod::fight_stored(&self.lod, setup, seed),
            SystemId::Awi => awi::Awi::fight_stored(&self.awi, setup, seed),
            SystemId::Atkm => atkm::Atkm::fight_stored(&self.atkm, setup, seed),
            SystemId::Oibl => oibl::Oibl::fight_stored(&self.oibl, setup, seed),
        }
    }

    /// The odds of `runs` battles of a stored set-up (battle i with the seed derived from the
    /// set-up's and i), as the system's summary JSON. `runner` fights the ranges: the caller
    /// decides threads and when to stop, so the rules stay pure. `None`: the runner stopped.
    pub fn odds<R: RangeRunner>(
        &self,
        id: SystemId,
        setup: &str,
        runs: u32,
        runner: &R,
    ) -> Option<Result<serde_json::Value, String>> {
        fn to_json<T: serde::Serialize>(
            summary: Result<T, String>,
        ) -> Result<serde_json::Value, String> {
            summary.and_then(|s| serde_json::to_value(s).map_err(|e| e.to_string()))
        }
        match id {
            SystemId::Lotf => {
                let setup = match lotf::parse_battle(setup) {
                    Ok(s) => s,
                    Err(e) => return Some(Err(e.to_string())),
                };
                let run = match lotf::OddsRun::new(&self.lotf, &setup) {
                    Ok(run) => run,
                    Err(e) => return Some(Err(e.to_string())),
                };
                let parts = runner
                    .fight_ranges(runs, |start, end, progress| run.range(start, end, progress))?;
                Some(to_json(
                    lotf::merge_ranges(setup.seed, parts).map_err(|e| e.to_string()),
                ))
            }
            SystemId::Lod => {
                let setup = match lod::Lod::parse_setup(setup) {
                    Ok(s) => s,
                    Err(e) => return Some(Err(e)),
                };
                let parts = runner.fight_ranges(runs, |start, end, progress| {
                    lod::montecarlo::run_range(&self.lod, &setup, start, end, progress)
                })?;
                Some(to_json(lod::montecarlo::merge_ranges(setup.seed, parts)))
            }
            SystemId::Atkm => {
                let setup = match atkm::Atkm::parse_setup(setup) {
                    Ok(s) => s,
                    Err(e) => return Some(Err(e)),
                };
                let parts = runner.fight_ranges(runs, |start, end, progress| {
                    atkm::montecarlo::run_range(&self.atkm, &setup, start, end, progress)
                })?;
                Some(to_json(atkm::montecarlo::merge_ranges(setup.seed, parts)))
            }
            SystemId::Awi => {
                let setup = match awi::Awi::parse_setup(setup) {
                    Ok(s) => s,
                    Err(e) => return Some(Err(e)),
                };
                let parts = runner.fight_ranges(runs, |start, end, progress| {
                    awi::montecarlo::run_range(&self.awi, &setup, start, end, progress)
                })?;
                Some(to_json(awi::montecarlo::merge_ranges(setup.seed, parts)))
            }
            SystemId::Oibl => {
                let setup = match oibl::Oibl::parse_setup(setup) {
                    Ok(s) => s,
                    Err(e) => return Some(Err(e)),
                };
                let parts = runner.fight_ranges(runs, |start, end, progress| {
                    oibl::montecarlo::run_range(&self.oibl, &setup, start, end, progress)
                })?;
                Some(to_json(oibl::montecarlo::merge_ranges(setup.seed, parts)))
            }
        }
    }

    /// The system assesses a result entered from the table against a stored set-up; the outer
    /// error is a set-up it cannot read.
    pub fn assess_record(
        &self,
        id: SystemId,
        setup: &str,
        report: &serde_json::Value,
    ) -> Result<Result<DecidedBattle, Vec<RecordProblem>>, String> {
        match id {
            SystemId::Lotf => lotf::Lotf::assess_stored(&self.lotf, setup, report),
            SystemId::Lod => lod::Lod::assess_stored(&self.lod, setup, report),
            SystemId::Awi => awi::Awi::assess_stored(&self.awi, setup, report),
            SystemId::Atkm => atkm::Atkm::assess_stored(&self.atkm, setup, report),
            SystemId::Oibl => oibl::Oibl::assess_stored(&self.oibl, setup, report),
        }
    }
}

/// At the table (issue 19): a battle's table state is the system's own JSON document.
impl Systems {
    /// The table of stored set-up `setup` before the first tap.
    pub fn table_start(&self, id: SystemId, setup: &str) -> Result<String, String> {
        match id {
            SystemId::Lotf => table::start_stored::<lotf::table::TableState>(&self.lotf, setup),
            SystemId::Lod => table::start_stored::<lod::table::TableState>(&self.lod, setup),
            SystemId::Awi => table::start_stored::<awi::table::TableState>(&self.awi, setup),
            SystemId::Atkm => table::start_stored::<atkm::table::TableState>(&self.atkm, setup),
            SystemId::Oibl => table::start_stored::<oibl::table::TableState>(&self.oibl, setup),
        }
    }

    /// Applies one tap to `state` (`None`: the table before the first tap): the new state, or
    /// why the tap was refused (inner `Err`); the outer `Err` when what is stored cannot be read.
    pub fn table_apply(
        &self,
        id: SystemId,
        setup: &str,
        state: Option<&str>,
        action: &crate::rules::table::TableAction,
    ) -> Result<Result<String, String>, String> {
        match id {
            SystemId::Lotf => {
                table::apply_stored::<lotf::table::TableState>(&self.lotf, setup, state, action)
            }
            SystemId::Lod => {
                table::apply_stored::<lod::table::TableState>(&self.lod, setup, state, action)
            }
            SystemId::Awi => {
                table::apply_stored::<awi::table::TableState>(&self.awi, setup, state, action)
            }
            SystemId::Atkm => {
                table::apply_stored::<atkm::table::TableState>(&self.atkm, setup, state, action)
            }
            SystemId::Oibl => {
                table::apply_stored::<oibl::table::TableState>(&self.oibl, setup, state, action)
            }
        }
    }
}

/// Fights ranges of battles for the odds on behalf of the rules core, which stays unaware of
/// threads and cancellation (the application layer implements it).
pub trait RangeRunner {
    /// Fights battles `0..runs` through `fight(start, end, progress)` in ranges and answers
    /// each range's result in order, or `None` when told to stop before the end.
    fn fight_ranges<T, E, F>(&self, runs: u32, fight: F) -> Option<Vec<Result<T, E>>>
    where
        T: Send,
        E: Send + From<String>,
        F: Fn(u32, u32, &mut dyn FnMut(u32)) -> Result<T, E> + Sync;
}

// Rosters: what the roster service asks of a roster's system, without naming it.

impl AnyRoster {
    /// The name the player gave the roster.
    pub fn name(&self) -> &str {
        match self {
            AnyRoster::Lotf(r) => lotf::Lotf::roster_name(r),
            AnyRoster::Lod(r) => lod::Lod::roster_name(r),
            AnyRoster::Awi(r) => awi::Awi::roster_name(r),
            AnyRoster::Atkm(r) => atkm::Atkm::roster_name(r),
            AnyRoster::Oibl(r) => oibl::Oibl::roster_name(r),
        }
    }

    /// A copy as a new document named `name` (without the original's identity).
    pub fn renamed_copy(&self, name: String) -> AnyRoster {
        match self {
            AnyRoster::Lotf(r) => AnyRoster::Lotf(lotf::Lotf::renamed_copy(r, name)),
            AnyRoster::Lod(r) => AnyRoster::Lod(lod::Lod::renamed_copy(r, name)),
            AnyRoster::Awi(r) => AnyRoster::Awi(awi::Awi::renamed_copy(r, name)),
            AnyRoster::Atkm(r) => AnyRoster::Atkm(atkm::Atkm::renamed_copy(r, name)),
            AnyRoster::Oibl(r) => AnyRoster::Oibl(oibl::Oibl::renamed_copy(r, name)),
        }
    }

    /// Refuses a roster larger than any real force, naming the part.
    pub fn check_size(&self) -> Result<(), DocumentError> {
        match self {
            AnyRoster::Lotf(r) => lotf::Lotf::check_size(r),
            AnyRoster::Lod(r) => lod::Lod::check_size(r),
            AnyRoster::Awi(r) => awi::Awi::check_size(r),
            AnyRoster::Atkm(r) => atkm::Atkm::check_size(r),
            AnyRoster::Oibl(r) => oibl::Oibl::check_size(r),
        }
    }
}

impl Systems {
    /// Makes a roster ready to store: ids for its parts, the catalogue version it is saved with.
    pub fn prepare_for_storing(&self, roster: &mut AnyRoster) {
        match roster {
            AnyRoster::Lotf(r) => lotf::Lotf::prepare_for_storing(&self.lotf, r),
            AnyRoster::Lod(r) => lod::Lod::prepare_for_storing(&self.lod, r),
            AnyRoster::Awi(r) => awi::Awi::prepare_for_storing(&self.awi, r),
            AnyRoster::Atkm(r) => atkm::Atkm::prepare_for_storing(&self.atkm, r),
            AnyRoster::Oibl(r) => oibl::Oibl::prepare_for_storing(&self.oibl, r),
        }
    }

    /// The version of the data the roster's system checks it against (stored beside it).
    pub fn catalogue_version(&self, roster: &AnyRoster) -> &str {
        match roster {
            AnyRoster::Lotf(_) => lotf::Lotf::catalogue_version(&self.lotf),
            AnyRoster::Lod(_) => lod::Lod::catalogue_version(&self.lod),
            AnyRoster::Awi(_) => awi::Awi::catalogue_version(&self.awi),
            AnyRoster::Atkm(_) => atkm::Atkm::catalogue_version(&self.atkm),
            AnyRoster::Oibl(_) => oibl::Oibl::catalogue_version(&self.oibl),
        }
    }
}

impl From<lotf::RosterDoc> for AnyRoster {
    fn from(r: lotf::RosterDoc) -> Self {
        AnyRoster::Lotf(r)
    }
}

impl From<awi::RosterDoc> for AnyRoster {
    fn from(r: awi::RosterDoc) -> Self {
        AnyRoster::Awi(r)
    }
}

/// A system's own roster out of [`AnyRoster`]; a roster of another system comes back whole.
impl TryFrom<AnyRoster> for awi::RosterDoc {
    type Error = AnyRoster;

    fn try_from(r: AnyRoster) -> Result<Self, AnyRoster> {
        match r {
            AnyRoster::Awi(r) => Ok(r),
            other => Err(other),
        }
    }
}

impl From<lod::RosterDoc> for AnyRoster {
    fn from(r: lod::RosterDoc) -> Self {
        AnyRoster::Lod(r)
    }
}

impl From<oibl::RosterDoc> for AnyRoster {
    fn from(r: oibl::RosterDoc) -> Self {
        AnyRoster::Oibl(r)
    }
}

/// A system's own roster out of [`AnyRoster`]; a roster of another system comes back whole.
impl TryFrom<AnyRoster> for lotf::RosterDoc {
    type Error = AnyRoster;

    fn try_from(r: AnyRoster) -> Result<Self, AnyRoster> {
        match r {
            AnyRoster::Lotf(r) => Ok(r),
            other => Err(other),
        }
    }
}

impl From<atkm::RosterDoc> for AnyRoster {
    fn from(r: atkm::RosterDoc) -> Self {
        AnyRoster::Atkm(r)
    }
}

/// A system's own roster out of [`AnyRoster`]; a roster of another system comes back whole.
impl TryFrom<AnyRoster> for atkm::RosterDoc {
    type Error = AnyRoster;

    fn try_from(r: AnyRoster) -> Result<Self, AnyRoster> {
        match r {
            AnyRoster::Atkm(r) => Ok(r),
            other => Err(other),
        }
    }
}

/// A system's own roster out of [`AnyRoster`]; a roster of another system comes back whole.
impl TryFrom<AnyRoster> for lod::RosterDoc {
    type Error = AnyRoster;

    fn try_from(r: AnyRoster) -> Result<Self, AnyRoster> {
        match r {
            AnyRoster::Lod(r) => Ok(r),
            other => Err(other),
        }
    }
}

/// A system's own roster out of [`AnyRoster`]; a roster of another system comes back whole.
impl TryFrom<AnyRoster> for oibl::RosterDoc {
    type Error = AnyRoster;

    fn try_from(r: AnyRoster) -> Result<Self, AnyRoster> {
        match r {
            AnyRoster::Oibl(r) => Ok(r),
            other => Err(other),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_system_reads_back_from_its_stored_id() {
        for s in SystemId::ALL {
            assert_eq!(SystemId::from_id(s.id()), Some(*s));
        }
        assert_eq!(SystemId::from_id("Lotf"), None);
    }

    #[test]
    fn this_build_serves_all_five_rule_systems() {
        let served: Vec<SystemId> = SystemId::served().collect();
        assert_eq!(
            served,
            vec![
                SystemId::Lotf,
                SystemId::Lod,
                SystemId::Awi,
                SystemId::Oibl,
                SystemId::Atkm
            ]
        );
        // All the King's Men: rosters and their starting points, no points.
        assert!(SystemId::Atkm.capabilities().is_some_and(|c| !c.points));
        assert!(SystemId::Lod
            .capabilities()
            .is_some_and(|c| !c.points && c.campaigns));
        assert!(SystemId::Lotf
            .capabilities()
            .is_some_and(|c| c.points && c.campaigns));
    }
}
