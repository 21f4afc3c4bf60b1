//! Runs many simulated battles on several threads, for any rule system. Battle `i` always uses
//! the seed derived from (base seed, i), so the result does not depend on how many threads ran
//! them; each system's rules core provides the per-range runs and the merge, this only spreads
//! the ranges over threads.

use std::sync::atomic::{AtomicU32, Ordering};

/// Threads to use: the machine's cores, at most 8.
pub fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(8)
}

/// Fights battles `0..runs` on `threads` threads, each thread one contiguous range through
/// `run_range(start, end, progress)` (where `progress(n)` says n battles of the range are done);
/// `done` counts finished battles as they finish, for progress bars. Answers each range's
/// result in order, for the system to merge.
pub fn in_parallel<T, E, F>(
    runs: u32,
    threads: usize,
    done: &AtomicU32,
    run_range: F,
) -> Vec<Result<T, E>>
where
    T: Send,
    E: Send + From<String>,
    F: Fn(u32, u32, &mut dyn FnMut(u32)) -> Result<T, E> + Sync,
{
    let threads = threads.clamp(1, runs.max(1) as usize);
    let chunk = runs.div_ceil(threads as u32).max(1);
    let run_range = &run_range;
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads as u32)
            .map(|t| {
                let (start, end) = ((t * chunk).min(runs), ((t + 1) * chunk).min(runs));
                scope.spawn(move || {
                    let mut last = 0;
                    run_range(start, end, &mut |n| {
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
                    .unwrap_or_else(|_| Err(E::from("a simulation thread failed".to_string())))
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in for a system's range runner: the sum of the battle numbers in the range.
    fn sum_range(start: u32, end: u32, progress: &mut dyn FnMut(u32)) -> Result<u64, String> {
        let mut sum = 0;
        for i in start..end {
            sum += u64::from(i);
            progress(i - start + 1);
        }
        Ok(sum)
    }

    #[test]
    fn threads_do_not_change_the_result_and_progress_counts_every_battle() {
        for threads in [1, 2, 3, 7] {
            let done = AtomicU32::new(0);
            let parts = in_parallel(60, threads, &done, sum_range);
            let total: u64 = parts.into_iter().map(|p| p.unwrap()).sum();
            assert_eq!(total, (0..60u64).sum::<u64>(), "{threads} threads");
            assert_eq!(done.load(Ordering::Relaxed), 60, "{threads} threads");
        }
    }
}
