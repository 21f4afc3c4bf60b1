//! Battle odds for every rule system that has a simulator: what a run costs, and the run itself
//! from a stored set-up document, so a background job can be redone from its parameters alone
//! (by any server, after a restart). Each system's rules core fights the battles and merges
//! the tallies; this only spreads them over threads in stoppable chunks.

use std::sync::atomic::{AtomicBool, AtomicU32};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::app::sim::{in_parallel_until, Stopped};
use crate::rules::system::RuleSystem;
use crate::rules::systems::{lod, lotf};
use crate::rules::{SystemId, Systems};

/// Work answered within the request, in units (pieces on the table) × battles. Larger runs go
/// to the background queue. About 2–3 seconds of one core for Land of the Free.
pub const DIRECT_COST_MAX: u64 = 150_000;

/// The most battles one job may fight: a job holds a worker, so it must end.
pub const RUNS_MAX: u32 = 100_000;

/// What an odds job needs to be redone anywhere: the system, its set-up document (forces,
/// scenario and seed) and the number of battles.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct OddsParams {
    pub system: String,
    /// The system's own set-up document (`muster.lotf.battle/1`, `muster.lod.battle/1`).
    pub setup: String,
    pub runs: u32,
}

/// Units (elements, units) on both sides of a Land of the Free set-up.
pub fn lotf_size(setup: &lotf::BattleSetup) -> u64 {
    [&setup.attacker.roster, &setup.defender.roster]
        .iter()
        .flat_map(|r| r.groups.iter())
        .map(|g| g.elements.len() as u64)
        .sum()
}

/// Units on both sides of a Liberty or Death! set-up.
pub fn lod_size(setup: &lod::BattleSetup) -> u64 {
    [&setup.attacker.roster, &setup.defender.roster]
        .iter()
        .flat_map(|r| r.brigades.iter())
        .map(|b| b.units.len() as u64)
        .sum()
}

/// The cost estimate of `runs` battles between forces of `size` units.
pub fn cost(size: u64, runs: u32) -> u64 {
    size.max(1) * u64::from(runs)
}

/// Land of the Free odds, stopping when `stop` is set.
pub fn lotf_odds(
    cat: &lotf::Catalogue,
    setup: &lotf::BattleSetup,
    runs: u32,
    threads: usize,
    done: &AtomicU32,
    stop: &AtomicBool,
) -> Result<Result<lotf::OddsSummary, String>, Stopped> {
    let ranges = in_parallel_until(runs, threads, done, stop, |start, end, progress| {
        lotf::run_range(cat, setup, start, end, progress)
    })?;
    Ok(lotf::merge_ranges(setup.seed, ranges).map_err(|e| e.to_string()))
}

/// Liberty or Death! odds, stopping when `stop` is set.
pub fn lod_odds(
    cat: &lod::Catalogue,
    setup: &lod::BattleSetup,
    runs: u32,
    threads: usize,
    done: &AtomicU32,
    stop: &AtomicBool,
) -> Result<Result<lod::montecarlo::OddsSummary, String>, Stopped> {
    let parts = in_parallel_until(runs, threads, done, stop, |start, end, progress| {
        lod::montecarlo::run_range(cat, setup, start, end, progress)
    })?;
    Ok(lod::montecarlo::merge_ranges(setup.seed, parts))
}

fn to_json(r: Result<impl Serialize, String>) -> Result<Value, String> {
    r.and_then(|s| serde_json::to_value(s).map_err(|e| e.to_string()))
}

/// Redoes an odds job from its parameters: the summary as the system's JSON, or why it could
/// not be worked out. The same parameters always give the same answer.
pub fn run(
    rules: &Systems,
    params: &OddsParams,
    threads: usize,
    done: &AtomicU32,
    stop: &AtomicBool,
) -> Result<Result<Value, String>, Stopped> {
    let runs = params.runs.clamp(1, RUNS_MAX);
    match SystemId::from_id(&params.system) {
        Some(SystemId::Lotf) => match lotf::parse_battle(&params.setup) {
            Ok(setup) => Ok(to_json(lotf_odds(
                &rules.lotf,
                &setup,
                runs,
                threads,
                done,
                stop,
            )?)),
            Err(e) => Ok(Err(e.to_string())),
        },
        Some(SystemId::Lod) => match lod::Lod::parse_setup(&params.setup) {
            Ok(setup) => Ok(to_json(lod_odds(
                &rules.lod, &setup, runs, threads, done, stop,
            )?)),
            Err(e) => Ok(Err(e)),
        },
        _ => Ok(Err(format!(
            "Muster cannot work out odds for the rule system '{}'.",
            params.system
        ))),
    }
}
