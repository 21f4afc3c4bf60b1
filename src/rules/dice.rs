//! Seeded dice.
//!
//! Every roll in the rules core comes from a [`Dice`] passed in by the
//! caller. The generator is ChaCha8 seeded from a `u64`; the mapping from its
//! raw 32-bit outputs to die faces is our own (rejection sampling, below), so
//! a stored seed replays the same battle even if `rand` changes how it samples
//! ranges.

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// A seeded source of dice.
#[derive(Debug, Clone)]
pub struct Dice {
    rng: ChaCha8Rng,
}

impl Dice {
    /// Dice seeded from a stored `u64`.
    pub fn from_seed(seed: u64) -> Dice {
        Dice {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// A uniform integer in `0..n` (`n` ≥ 1) by rejection sampling: raw
    /// outputs at or above the largest multiple of `n` that fits in 32 bits
    /// are thrown away, so every value is exactly equally likely.
    pub fn below(&mut self, n: u32) -> u32 {
        if n <= 1 {
            return 0;
        }
        let limit = u32::MAX - (u32::MAX % n + 1) % n; // last accepted raw value
        loop {
            let x = self.rng.next_u32();
            if x <= limit {
                return x % n;
            }
        }
    }

    /// One six-sided die, 1–6.
    pub fn d6(&mut self) -> u8 {
        self.below(6) as u8 + 1
    }

    /// One three-sided die, 1–3.
    pub fn d3(&mut self) -> u8 {
        self.below(3) as u8 + 1
    }

    /// Two six-sided dice added (2–12).
    pub fn two_d6(&mut self) -> u8 {
        self.d6() + self.d6()
    }

    /// `n` six-sided dice, in the order rolled.
    pub fn d6s(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.d6()).collect()
    }

    /// Roll a dice expression.
    pub fn roll(&mut self, expr: DiceExpr) -> i32 {
        expr.roll(self)
    }
}

/// The dice expressions the game uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DiceExpr {
    /// One d6.
    D6,
    /// Two d6 added.
    TwoD6,
    /// One d3.
    D3,
    /// d3 − 1, never below 0 (an Incompetent commander's points, R-11).
    D3Minus1,
    /// Two d3, keep the higher (a Skilled commander's points, R-11).
    BestOf2D3,
    /// d3 + 1 (a Highly Skilled commander's points, R-11).
    D3Plus1,
}

impl DiceExpr {
    /// Read the notation used in the catalogue data (`d6`, `2d6`, `d3`,
    /// `d3-1`, `best of 2d3`, `d3+1`); spaces and case are ignored.
    pub fn parse(text: &str) -> Option<DiceExpr> {
        let t: String = text
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_ascii_lowercase()
            .replace('−', "-");
        match t.as_str() {
            "d6" | "1d6" => Some(DiceExpr::D6),
            "2d6" => Some(DiceExpr::TwoD6),
            "d3" | "1d3" => Some(DiceExpr::D3),
            "d3-1" => Some(DiceExpr::D3Minus1),
            "bestof2d3" | "2d3best" | "2d3(pickthehighest)" => Some(DiceExpr::BestOf2D3),
            "d3+1" => Some(DiceExpr::D3Plus1),
            _ => None,
        }
    }

    /// Roll it.
    pub fn roll(self, dice: &mut Dice) -> i32 {
        match self {
            DiceExpr::D6 => i32::from(dice.d6()),
            DiceExpr::TwoD6 => i32::from(dice.two_d6()),
            DiceExpr::D3 => i32::from(dice.d3()),
            DiceExpr::D3Minus1 => (i32::from(dice.d3()) - 1).max(0),
            DiceExpr::BestOf2D3 => {
                let a = dice.d3();
                let b = dice.d3();
                i32::from(a.max(b))
            }
            DiceExpr::D3Plus1 => i32::from(dice.d3()) + 1,
        }
    }

    /// The exact distribution: `(value, probability)` pairs, lowest first.
    pub fn distribution(self) -> Vec<(i32, f64)> {
        let third = 1.0 / 3.0;
        match self {
            DiceExpr::D6 => (1..=6).map(|v| (v, 1.0 / 6.0)).collect(),
            DiceExpr::TwoD6 => (2..=12)
                .map(|v: i32| (v, f64::from(6 - (v - 7).abs()) / 36.0))
                .collect(),
            DiceExpr::D3 => (1..=3).map(|v| (v, third)).collect(),
            DiceExpr::D3Minus1 => (0..=2).map(|v| (v, third)).collect(),
            DiceExpr::BestOf2D3 => vec![(1, 1.0 / 9.0), (2, 3.0 / 9.0), (3, 5.0 / 9.0)],
            DiceExpr::D3Plus1 => (2..=4).map(|v| (v, third)).collect(),
        }
    }

    /// The expected value.
    pub fn mean(self) -> f64 {
        self.distribution()
            .iter()
            .map(|(v, p)| f64::from(*v) * p)
            .sum()
    }

    /// The notation, as the catalogue writes it.
    pub fn notation(self) -> &'static str {
        match self {
            DiceExpr::D6 => "d6",
            DiceExpr::TwoD6 => "2d6",
            DiceExpr::D3 => "d3",
            DiceExpr::D3Minus1 => "d3-1",
            DiceExpr::BestOf2D3 => "best of 2d3",
            DiceExpr::D3Plus1 => "d3+1",
        }
    }
}

/// Roll `n` d6 and re-roll every die below `to_hit` once. A re-rolled die
/// stands even if it is worse, and a re-roll is never re-rolled (the book's
/// rule for Encouraging Words, Concentrated Volley and Inspirational Charge).
pub fn roll_with_reroll_of_misses(dice: &mut Dice, n: usize, to_hit: u8) -> Vec<u8> {
    (0..n)
        .map(|_| {
            let first = dice.d6();
            if first >= to_hit {
                first
            } else {
                dice.d6()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn golden_first_twenty_d6_of_seed_7() {
        let mut d = Dice::from_seed(7);
        let rolls = d.d6s(20);
        assert_eq!(
            rolls,
            GOLDEN_SEED_7.to_vec(),
            "the d6 mapping of seed 7 changed"
        );
    }

    /// Pinned on first run; never edit without bumping the engine version.
    const GOLDEN_SEED_7: [u8; 20] = [4, 1, 1, 6, 4, 4, 6, 5, 3, 6, 5, 2, 4, 2, 1, 4, 4, 3, 4, 5];

    #[test]
    fn same_seed_same_rolls_and_faces_in_range() {
        let mut a = Dice::from_seed(42);
        let mut b = Dice::from_seed(42);
        for _ in 0..1000 {
            let x = a.d6();
            assert_eq!(x, b.d6());
            assert!((1..=6).contains(&x));
            let y = a.d3();
            assert_eq!(y, b.d3());
            assert!((1..=3).contains(&y));
        }
    }

    #[test]
    fn d6_is_roughly_uniform() {
        let mut d = Dice::from_seed(1);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[usize::from(d.d6() - 1)] += 1;
        }
        for c in counts {
            assert!((9_400..10_600).contains(&c), "{counts:?}");
        }
    }

    #[test]
    fn expressions_parse_and_stay_in_range() {
        for (text, e) in [
            ("d6", DiceExpr::D6),
            ("2d6", DiceExpr::TwoD6),
            ("d3", DiceExpr::D3),
            ("d3-1", DiceExpr::D3Minus1),
            ("best of 2d3", DiceExpr::BestOf2D3),
            ("d3+1", DiceExpr::D3Plus1),
        ] {
            assert_eq!(DiceExpr::parse(text), Some(e));
            assert_eq!(DiceExpr::parse(e.notation()), Some(e));
            let dist = e.distribution();
            let total: f64 = dist.iter().map(|(_, p)| p).sum();
            assert!((total - 1.0).abs() < 1e-12);
            let mut d = Dice::from_seed(3);
            for _ in 0..500 {
                let v = e.roll(&mut d);
                assert!(dist.iter().any(|(x, _)| *x == v), "{e:?} rolled {v}");
            }
        }
        assert_eq!(DiceExpr::parse("d7"), None);
        // d3-1 can be 0; best of 2d3 favours 3.
        assert_eq!(DiceExpr::D3Minus1.distribution()[0], (0, 1.0 / 3.0));
        assert!((DiceExpr::BestOf2D3.mean() - 22.0 / 9.0).abs() < 1e-12);
    }

    #[test]
    fn reroll_of_misses_is_done_once() {
        // Over many rolls the hit rate with one re-roll of misses is
        // 1/3 + 2/3 * 1/3 = 5/9, not higher (a re-roll is never re-rolled).
        let mut d = Dice::from_seed(11);
        let rolls = roll_with_reroll_of_misses(&mut d, 90_000, 5);
        let hits = rolls.iter().filter(|&&x| x >= 5).count() as f64 / 90_000.0;
        assert!((hits - 5.0 / 9.0).abs() < 0.01, "{hits}");
    }
}
