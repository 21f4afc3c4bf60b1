//! Probability distributions over small whole numbers (index = value), built exactly by
//! enumeration and convolution.

use super::super::catalogue::DiceRoll;

/// The number of successes of `n` independent trials of chance `p`.
pub(crate) fn binomial(n: u32, p: f64) -> Vec<f64> {
    let mut d = vec![1.0];
    for _ in 0..n {
        let mut next = vec![0.0; d.len() + 1];
        for (k, q) in d.iter().enumerate() {
            next[k] += q * (1.0 - p);
            next[k + 1] += q * p;
        }
        d = next;
    }
    d
}

pub(crate) fn convolve(a: &[f64], b: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; a.len() + b.len() - 1];
    for (i, x) in a.iter().enumerate() {
        if *x == 0.0 {
            continue;
        }
        for (j, y) in b.iter().enumerate() {
            out[i + j] += x * y;
        }
    }
    out
}

/// The distribution of one roll of `roll` (values below 0 are not used here).
pub(crate) fn roll(roll: DiceRoll) -> Vec<f64> {
    let outcomes = roll.outcomes();
    let total: u32 = outcomes.iter().map(|(_, w)| w).sum();
    let max = outcomes.iter().map(|(v, _)| *v).max().unwrap_or(0).max(0) as usize;
    let mut d = vec![0.0; max + 1];
    for (v, w) in outcomes {
        if *v >= 0 {
            d[*v as usize] += f64::from(*w) / f64::from(total);
        }
    }
    d
}

/// Each counted item becomes an independent roll of `each` (artillery hits becoming D3, L-20).
pub(crate) fn explode(counts: &[f64], each: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0];
    let mut power = vec![1.0];
    for p in counts {
        if out.len() < power.len() {
            out.resize(power.len(), 0.0);
        }
        for (v, q) in power.iter().enumerate() {
            out[v] += p * q;
        }
        power = convolve(&power, each);
    }
    out
}

/// Each counted item survives with chance `q` (hits that are not saved).
pub(crate) fn thin(counts: &[f64], q: f64) -> Vec<f64> {
    let mut out = vec![0.0; counts.len()];
    for (n, p) in counts.iter().enumerate() {
        if *p == 0.0 {
            continue;
        }
        for (k, b) in binomial(n as u32, q).iter().enumerate() {
            out[k] += p * b;
        }
    }
    out
}

/// `at_least[k]` = chance of `k` or more.
pub fn at_least(d: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; d.len()];
    let mut acc = 0.0;
    for k in (0..d.len()).rev() {
        acc += d[k];
        out[k] = acc.min(1.0);
    }
    out
}

pub(crate) fn mean(d: &[f64]) -> f64 {
    d.iter().enumerate().map(|(k, p)| k as f64 * p).sum()
}

/// Drops trailing values too unlikely to matter only when they are exactly zero.
pub(crate) fn trim(mut d: Vec<f64>) -> Vec<f64> {
    while d.len() > 1 && d.last().is_some_and(|p| *p == 0.0) {
        d.pop();
    }
    d
}

/// The successes of a test of `dice` dice whose faces score 0, 1 or 2 successes (`faces`, out
/// of 6), with `rerolls` die re-rolls used by policy L-8: while the total is below `aim`,
/// re-roll a die that scored 0 and has not been re-rolled; if there is none (and
/// `zeros_only` is false), one that scored exactly 1; never a 2. Exact: the first roll is
/// enumerated by how many dice scored 0, 1 and 2, then every re-roll is followed.
pub(crate) fn test_successes(
    dice: u32,
    faces: [u32; 3],
    rerolls: u32,
    aim: u32,
    zeros_only: bool,
) -> Vec<f64> {
    let p = faces.map(|f| f64::from(f) / 6.0);
    let mut out = vec![0.0; 2 * dice as usize + 1];
    for zeros in 0..=dice {
        for ones in 0..=dice - zeros {
            let twos = dice - zeros - ones;
            let chance = multinomial(dice, zeros, ones)
                * p[0].powi(zeros as i32)
                * p[1].powi(ones as i32)
                * p[2].powi(twos as i32);
            if chance == 0.0 {
                continue;
            }
            let policy = Policy { p, aim, zeros_only };
            policy.follow(zeros, ones, ones + 2 * twos, rerolls, chance, &mut out);
        }
    }
    trim(out)
}

struct Policy {
    p: [f64; 3],
    aim: u32,
    zeros_only: bool,
}

impl Policy {
    fn follow(
        &self,
        zeros: u32,
        ones: u32,
        total: u32,
        rerolls: u32,
        chance: f64,
        out: &mut [f64],
    ) {
        let may_reroll_one = !self.zeros_only && ones > 0;
        if total >= self.aim || rerolls == 0 || (zeros == 0 && !may_reroll_one) {
            out[total as usize] += chance;
            return;
        }
        for (v, pv) in self.p.iter().enumerate() {
            if *pv == 0.0 {
                continue;
            }
            if zeros > 0 {
                self.follow(
                    zeros - 1,
                    ones,
                    total + v as u32,
                    rerolls - 1,
                    chance * pv,
                    out,
                );
            } else {
                self.follow(
                    zeros,
                    ones - 1,
                    total - 1 + v as u32,
                    rerolls - 1,
                    chance * pv,
                    out,
                );
            }
        }
    }
}

fn multinomial(n: u32, a: u32, b: u32) -> f64 {
    let f = |k: u32| (1..=k).map(f64::from).product::<f64>();
    f(n) / (f(a) * f(b) * f(n - a - b))
}

/// A test taken again after failing up to `retakes` times (STUBBORN, Hold The Line!, A Direct
/// Order!; L-9): the successes of the take that counts.
pub(crate) fn with_retakes(
    one_take: &[f64],
    failed: impl Fn(usize) -> bool,
    retakes: u32,
) -> Vec<f64> {
    let q: f64 = one_take
        .iter()
        .enumerate()
        .filter(|(k, _)| failed(*k))
        .map(|(_, p)| p)
        .sum();
    let passing_weight: f64 = (0..=retakes).map(|i| q.powi(i as i32)).sum();
    one_take
        .iter()
        .enumerate()
        .map(|(k, p)| {
            if failed(k) {
                p * q.powi(retakes as i32)
            } else {
                p * passing_weight
            }
        })
        .collect()
}
