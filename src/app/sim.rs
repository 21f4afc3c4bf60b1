//! Runs many simulated battles on several threads. Battle `i` always uses the seed derived from
//! (base seed, i), so the result does not depend on how many threads ran them; the rules core
//! provides the per-range runs and the merge, this only spreads them over threads.

use std::sync::atomic::{AtomicU32, Ordering};

use crate::rules::systems::lotf::{
    run_range, BattleSetup, Catalogue, OddsSummary, OddsTally, SimError,
};

/// Threads to use: the machine's cores, at most 8.
pub fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(8)
}

/// Fights `runs` battles of `setup` on `threads` threads; `done` counts finished battles as
/// they finish (for progress bars).
pub fn monte_carlo_parallel(
    cat: &Catalogue,
    setup: &BattleSetup,
    runs: u32,
    threads: usize,
    done: &AtomicU32,
) -> Result<OddsSummary, SimError> {
    let threads = threads.clamp(1, runs.max(1) as usize);
    let chunk = runs.div_ceil(threads as u32).max(1);
    let results: Vec<Result<OddsTally, SimError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads as u32)
            .map(|t| {
                let (start, end) = ((t * chunk).min(runs), ((t + 1) * chunk).min(runs));
                scope.spawn(move || {
                    let mut last = 0;
                    run_range(cat, setup, start, end, &mut |n| {
                        // `n` counts battles finished in this range.
                        done.fetch_add(n.saturating_sub(last), Ordering::Relaxed);
                        last = n;
                    })
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(SimError::Force("a simulation thread failed".into())))
            })
            .collect()
    });
    let mut tally = OddsTally::default();
    for part in results {
        tally.merge(&part?);
    }
    Ok(OddsSummary::from_tally(setup.seed, tally))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::systems::lotf::{monte_carlo, parse_roster, ScenarioId};

    fn force(name: &str) -> crate::rules::systems::lotf::RosterDoc {
        let json = format!(
            r#"{{"format": "muster.lotf.roster/1", "name": "{name}", "war": "american_revolution", "nation": "british",
                "points_limit": 150, "force_commander": {{"name": "A"}},
                "groups": [{{"commander": {{"name": "B"}}, "elements": [
                    {{"name": "1", "type": "infantry", "size": "medium"}}, {{"name": "2", "type": "infantry", "size": "medium"}},
                    {{"name": "3", "type": "infantry", "size": "medium"}}]}},
                  {{"commander": {{"name": "C"}}, "elements": [
                    {{"name": "4", "type": "infantry", "size": "medium"}}, {{"name": "5", "type": "infantry", "size": "medium"}}]}}]}}"#
        );
        parse_roster(&json).expect("test roster")
    }

    #[test]
    fn threads_do_not_change_the_result() {
        let cat = Catalogue::builtin().unwrap();
        let setup = BattleSetup::new(force("a"), force("b"), ScenarioId::TakeTheField, 7);
        let done = AtomicU32::new(0);
        let one = monte_carlo_parallel(&cat, &setup, 60, 1, &done).unwrap();
        let three = monte_carlo_parallel(&cat, &setup, 60, 3, &AtomicU32::new(0)).unwrap();
        let sequential = monte_carlo(&cat, &setup, 60, &mut |_| {}).unwrap();
        assert_eq!(one.tally, three.tally);
        assert_eq!(one.tally, sequential.tally);
        assert_eq!(
            done.load(Ordering::Relaxed),
            60,
            "progress counts every battle"
        );
    }
}
