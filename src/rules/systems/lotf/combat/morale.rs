//! Morale Tests of the three kinds: 2d6 + modifiers against the
//! element's Morale, or the commander's when he is attached or giving a
//! special order.

use serde::{Deserialize, Serialize};

use super::Term;
use crate::rules::dice::Dice;
use crate::rules::systems::lotf::catalogue::{Catalogue, MoraleModifier};

/// The three kinds of test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TestKind {
    /// Failure only denies the action (Inspirational Charge, Concentrated Volley, Rally).
    #[default]
    Morale,
    /// Failure adds a Disorder Marker (Forced Order, charging while Shaken or
    /// Exhausted, formation change as a charge reaction).
    Disorder,
    /// Hits reached Discipline, or the group is broken: the element drops a
    /// level either way and withdraws on a failure.
    Discipline,
}

/// The situation of the tested element: each flag is one row of the
/// catalogue's morale modifier table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MoraleSituation {
    pub march_column: bool,
    /// Forced Orders given in this activation including this one; each after
    /// the first costs 1.
    pub forced_orders: u32,
    pub excess_hits: u32,
    /// Shaken or Exhausted: −1 once.
    pub shaken_or_exhausted: bool,
    /// Any Disorder Markers: −1 however many.
    pub disordered: bool,
    pub group_broken: bool,
    /// A Fit friend within 6" of the leader (R-20), counted once.
    pub supported: bool,
    pub battle_line: bool,
    /// A commander attached, including by the order being tested.
    pub commander_attached: bool,
    pub in_cover: bool,
    pub in_defenses: bool,
    /// Preserve the Nation: −1 on Discipline Tests only.
    pub preserve_the_nation: bool,
}

/// The total modifier with its terms, from the catalogue's table.
pub fn morale_modifier(cat: &Catalogue, s: &MoraleSituation, kind: TestKind) -> (i32, Vec<Term>) {
    let mut terms = Vec::with_capacity(8);
    each_morale_term(cat, s, kind, |id, label, v| {
        terms.push(Term::new(id, label, v))
    });
    let total = terms.iter().map(|t| t.value).sum();
    (total, terms)
}

/// The total of [`morale_modifier`] without its terms, for callers that do
/// not explain the test (the simulator fights thousands of battles unread).
pub fn morale_modifier_total(cat: &Catalogue, s: &MoraleSituation, kind: TestKind) -> i32 {
    let mut total = 0;
    each_morale_term(cat, s, kind, |_, _, v| total += v);
    total
}

/// Every non-zero modifier of a test: id, words, value.
fn each_morale_term(
    cat: &Catalogue,
    s: &MoraleSituation,
    kind: TestKind,
    mut term: impl FnMut(&'static str, &'static str, i32),
) {
    let mut add = |id: &'static str, label: &'static str, v: i32| {
        if v != 0 {
            term(id, label, v);
        }
    };
    if s.march_column {
        add(
            "march_column",
            "march column",
            cat.morale_modifier(MoraleModifier::MarchColumn),
        );
    }
    if s.forced_orders > 1 {
        let k = (s.forced_orders - 1).min(100) as i32;
        add(
            "forced_order",
            "later forced orders",
            cat.morale_modifier(MoraleModifier::ForcedOrder) * k,
        );
    }
    if s.excess_hits > 0 {
        add(
            "excess_hits",
            "excess hits",
            cat.morale_modifier(MoraleModifier::ExcessHits) * s.excess_hits.min(100) as i32,
        );
    }
    if s.shaken_or_exhausted {
        add(
            "shaken_or_exhausted",
            "Shaken or Exhausted",
            cat.morale_modifier(MoraleModifier::ShakenOrExhausted),
        );
    }
    if s.disordered {
        add(
            "disordered",
            "disordered",
            cat.morale_modifier(MoraleModifier::Disordered),
        );
    }
    if s.group_broken {
        add(
            "group_broken",
            "group broken",
            cat.morale_modifier(MoraleModifier::GroupBroken),
        );
    }
    if s.supported {
        add(
            "supported",
            "supported",
            cat.morale_modifier(MoraleModifier::Supported),
        );
    }
    if s.battle_line {
        add(
            "battle_line",
            "battle line",
            cat.morale_modifier(MoraleModifier::BattleLine),
        );
    }
    if s.commander_attached {
        add(
            "commander_attached",
            "commander attached",
            cat.morale_modifier(MoraleModifier::CommanderAttached),
        );
    }
    if s.in_cover {
        add("cover", "cover", cat.morale_modifier(MoraleModifier::Cover));
    }
    if s.in_defenses {
        add(
            "defenses",
            "defenses",
            cat.morale_modifier(MoraleModifier::Defenses),
        );
    }
    if s.preserve_the_nation && kind == TestKind::Discipline {
        // The skill's −1 on Discipline Tests (Advanced Rules); it is a skill,
        // not a table row, so its size is the excess-hit step (M-15).
        add(
            "preserve_the_nation",
            "Preserve the Nation",
            cat.morale_modifier(MoraleModifier::ExcessHits),
        );
    }
}

/// One test to take.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MoraleTest {
    /// The Morale value to reach on 2d6 + modifier.
    pub target: i32,
    pub modifier: i32,
    /// Esprit de Corps: a failed test may be rolled again with both dice;
    /// the second roll is final and cannot be re-rolled.
    pub esprit_de_corps: bool,
    /// Encouraging Words: a failed test may re-roll one die (the lower).
    /// Not added after Esprit de Corps.
    pub encouraging_words: bool,
    /// Unlimbered artillery passes Discipline Tests automatically.
    pub automatic_pass: bool,
}

/// A rolled test.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoraleRoll {
    /// Final two dice.
    pub dice: [u8; 2],
    pub total: i32,
    pub passed: bool,
    /// Which re-roll was used, if any.
    pub reroll: Option<&'static str>,
}

/// Roll a test. A re-roll is taken only after a failure: Esprit de Corps
/// (both dice) first because it is free, otherwise Encouraging Words (the
/// lower die). A re-roll stands; a re-roll is never re-rolled.
pub fn roll_morale(t: &MoraleTest, dice: &mut Dice) -> MoraleRoll {
    if t.automatic_pass {
        return MoraleRoll {
            dice: [0, 0],
            total: t.target,
            passed: true,
            reroll: None,
        };
    }
    let mut d = [dice.d6(), dice.d6()];
    let sum = |d: &[u8; 2]| i32::from(d[0]) + i32::from(d[1]) + t.modifier;
    let mut reroll = None;
    if sum(&d) < t.target {
        if t.esprit_de_corps {
            d = [dice.d6(), dice.d6()];
            reroll = Some("esprit_de_corps");
        } else if t.encouraging_words {
            let i = if d[0] <= d[1] { 0 } else { 1 };
            d[i] = dice.d6();
            reroll = Some("encouraging_words");
        }
    }
    let total = sum(&d);
    MoraleRoll {
        dice: d,
        total,
        passed: total >= t.target,
        reroll,
    }
}

/// The exact probability of passing, with the same re-roll policy as
/// [`roll_morale`].
pub fn morale_pass_probability(t: &MoraleTest) -> f64 {
    if t.automatic_pass {
        return 1.0;
    }
    let need = t.target - t.modifier;
    let plain: f64 = (1..=6)
        .flat_map(|a| (1..=6).map(move |b| (a, b)))
        .filter(|(a, b)| a + b >= need)
        .count() as f64
        / 36.0;
    if t.esprit_de_corps {
        return plain + (1.0 - plain) * plain;
    }
    if t.encouraging_words {
        let mut p = 0.0;
        for a in 1..=6 {
            for b in 1..=6 {
                if a + b >= need {
                    p += 1.0 / 36.0;
                } else {
                    let keep = a.max(b);
                    let ok = (1..=6).filter(|c| keep + c >= need).count() as f64;
                    p += ok / 6.0 / 36.0;
                }
            }
        }
        return p;
    }
    plain
}
