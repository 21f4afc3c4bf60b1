//! Exact distributions over the dice, by enumeration (never sampling).

use serde::Serialize;

/// A probability distribution over whole-number values, sorted by value.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Dist(pub Vec<(i32, f64)>);

/// One row of a distribution as answered: the value, its chance and the chance of at least it.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Row {
    pub value: i32,
    pub p: f64,
    pub at_least: f64,
}

impl Dist {
    pub fn point(v: i32) -> Dist {
        Dist(vec![(v, 1.0)])
    }

    /// One die of `sides` faces, 1..=sides.
    pub fn die(sides: u32) -> Dist {
        let p = 1.0 / f64::from(sides.max(1));
        Dist((1..=sides.max(1) as i32).map(|v| (v, p)).collect())
    }

    /// A D5 read as ⌈D10/2⌉ (W-6): uniform 1–5.
    pub fn d5() -> Dist {
        Dist::die(5)
    }

    /// Sum of two independent distributions.
    pub fn add(&self, other: &Dist) -> Dist {
        let mut out: Vec<(i32, f64)> = Vec::new();
        for &(a, pa) in &self.0 {
            for &(b, pb) in &other.0 {
                out.push((a + b, pa * pb));
            }
        }
        Dist::collect(out)
    }

    pub fn shift(&self, by: i32) -> Dist {
        Dist(self.0.iter().map(|&(v, p)| (v + by, p)).collect())
    }

    fn collect(mut pairs: Vec<(i32, f64)>) -> Dist {
        pairs.sort_by_key(|&(v, _)| v);
        let mut out: Vec<(i32, f64)> = Vec::new();
        for (v, p) in pairs {
            match out.last_mut() {
                Some((lv, lp)) if *lv == v => *lp += p,
                _ => out.push((v, p)),
            }
        }
        Dist(out)
    }

    /// Successes of `n` independent trials of chance `p` (the casualties of `n` dice).
    pub fn binomial(n: u32, p: f64) -> Dist {
        let mut row = vec![1.0f64];
        for _ in 0..n {
            let mut next = vec![0.0; row.len() + 1];
            for (k, q) in row.iter().enumerate() {
                next[k] += q * (1.0 - p);
                next[k + 1] += q * p;
            }
            row = next;
        }
        Dist(
            row.into_iter()
                .enumerate()
                .map(|(k, q)| (k as i32, q))
                .collect(),
        )
    }

    /// Chance the value satisfies `f`.
    pub fn p(&self, f: impl Fn(i32) -> bool) -> f64 {
        self.0.iter().filter(|(v, _)| f(*v)).map(|(_, p)| p).sum()
    }

    pub fn mean(&self) -> f64 {
        self.0.iter().map(|&(v, p)| f64::from(v) * p).sum()
    }

    /// Maps each value through `f`, merging equal results.
    pub fn map(&self, f: impl Fn(i32) -> i32) -> Dist {
        Dist::collect(self.0.iter().map(|&(v, p)| (f(v), p)).collect())
    }

    /// The rows with the cumulative "at least" view.
    pub fn rows(&self) -> Vec<Row> {
        let mut rows = Vec::with_capacity(self.0.len());
        let mut tail: f64 = self.0.iter().map(|(_, p)| p).sum();
        for &(v, p) in &self.0 {
            rows.push(Row {
                value: v,
                p,
                at_least: tail.max(0.0),
            });
            tail -= p;
        }
        rows
    }
}

/// The chance one D10 scores `need` or more (W-19): need ≤ 1 every die hits, need ≥ 11 none.
pub fn hit_chance(need: i32) -> f64 {
    if need <= 1 {
        1.0
    } else if need >= 11 {
        0.0
    } else {
        f64::from(11 - need) / 10.0
    }
}

/// The same as a fraction in tenths, for the answer ("4/10").
pub fn hit_fraction(need: i32) -> String {
    let tenths = (11 - need).clamp(0, 10);
    format!("{tenths}/10")
}

/// The chance an attached general dies when his unit suffers casualties `c` in one phase:
/// D10 ≤ c (W-29).
pub fn general_killed(casualties: &Dist) -> f64 {
    casualties
        .0
        .iter()
        .map(|&(c, p)| p * f64::from(c.clamp(0, 10)) / 10.0)
        .sum()
}
