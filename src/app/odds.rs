//! Battle odds for every rule system that has a simulator: what a run costs, and the run itself
//! from a stored set-up document, so a background job can be redone from its parameters alone
//! (by any server, after a restart). Each system's rules core fights the battles and merges
//! the tallies (`Systems::odds`); this spreads them over threads in stoppable chunks.

use std::sync::atomic::{AtomicBool, AtomicU32};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::app::sim::{in_parallel_until, Stopped};
use crate::rules::systems::RangeRunner;
use crate::rules::{SystemId, Systems};

/// Work answered within the request, in units (pieces on the table) × battles. Larger runs go
/// to the background queue. A few seconds of one core.
pub const DIRECT_COST_MAX: u64 = 150_000;

/// The most battles one job may fight: a job holds a worker, so it must end.
pub const RUNS_MAX: u32 = 100_000;

/// What an odds job needs to be redone anywhere: the system, its set-up document (forces,
/// scenario and seed) and the number of battles.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct OddsParams {
    pub system: String,
    /// The system's own set-up document.
    pub setup: String,
    pub runs: u32,
}

/// The cost estimate of `runs` battles between forces of `size` units.
pub fn cost(size: u64, runs: u32) -> u64 {
    size.max(1) * u64::from(runs)
}

/// Fights ranges on `threads` threads in chunks, counting progress in `done` and stopping when
/// `stop` is set.
pub struct Chunked<'a> {
    pub threads: usize,
    pub done: &'a AtomicU32,
    pub stop: &'a AtomicBool,
}

impl RangeRunner for Chunked<'_> {
    fn fight_ranges<T, E, F>(&self, runs: u32, fight: F) -> Option<Vec<Result<T, E>>>
    where
        T: Send,
        E: Send + From<String>,
        F: Fn(u32, u32, &mut dyn FnMut(u32)) -> Result<T, E> + Sync,
    {
        in_parallel_until(runs, self.threads, self.done, self.stop, fight).ok()
    }
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
    let Some(system) = SystemId::from_id(&params.system) else {
        return Ok(Err(format!(
            "Muster does not know the rule system '{}'.",
            params.system
        )));
    };
    let runner = Chunked {
        threads,
        done,
        stop,
    };
    rules
        .odds(
            system,
            &params.setup,
            params.runs.clamp(1, RUNS_MAX),
            &runner,
        )
        .ok_or(Stopped)
}
