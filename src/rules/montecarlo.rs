//! What every system's Monte Carlo odds share: the seed of each battle of a run, so a result
//! does not depend on how the runs are split between threads, and a share's Wilson interval.

use serde::{Deserialize, Serialize};

/// The seed of battle `i` of a run with base seed `base`: SplitMix64 of
/// `base` and `i` mixed, so neighbouring bases and indices give unrelated
/// dice.
pub fn battle_seed(base: u64, i: u32) -> u64 {
    let mut z = base ^ u64::from(i).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A probability with its 95 % interval (Wilson score).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    pub p: f64,
    pub low: f64,
    pub high: f64,
}

impl Estimate {
    /// From `k` successes in `n` trials.
    pub fn wilson(k: u64, n: u64) -> Estimate {
        if n == 0 {
            return Estimate {
                p: 0.0,
                low: 0.0,
                high: 1.0,
            };
        }
        let z = 1.959_963_984_540_054_f64;
        let nf = n as f64;
        let p = k as f64 / nf;
        let denom = 1.0 + z * z / nf;
        let centre = (p + z * z / (2.0 * nf)) / denom;
        let half = z * (p * (1.0 - p) / nf + z * z / (4.0 * nf * nf)).sqrt() / denom;
        Estimate {
            p,
            low: (centre - half).max(0.0),
            high: (centre + half).min(1.0),
        }
    }
}
