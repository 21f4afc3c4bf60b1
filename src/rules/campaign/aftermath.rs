//! What a battle leaves behind in a campaign: casualties that persist, field promotions and
//! experience of commanders, reinforcements between turns, and scoring. Sizes and rating bands
//! are plain ordered values so each rule system maps its own onto them.

use serde::{Deserialize, Serialize};

use crate::rules::dice::Dice;

/// How an element ended its battle, as the campaign sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndState {
    Fit,
    Shaken,
    Exhausted,
    Shattered,
    LeftTheField,
}

/// What happens to an element after the battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Casualty {
    Unchanged,
    /// One size smaller: the new size's rank (0 = the smallest the type comes in).
    Reduced {
        size: u8,
    },
    Lost,
}

/// Casualty roll for one element (campaign rules v1): Shattered or gone, lost on a d6 of 1–3,
/// else one size smaller; Exhausted, one size smaller on 1–2. An element already at the
/// smallest size its type comes in (`smallest`, e.g. tiny infantry or small artillery) is lost
/// instead of reduced. Returns the outcome and the roll (0 when nothing was rolled).
pub fn casualty_roll(dice: &mut Dice, end: EndState, size: u8, smallest: u8) -> (Casualty, u8) {
    let reduce = || {
        if size <= smallest {
            Casualty::Lost
        } else {
            Casualty::Reduced { size: size - 1 }
        }
    };
    match end {
        EndState::Shattered | EndState::LeftTheField => {
            let roll = dice.d6();
            (if roll <= 3 { Casualty::Lost } else { reduce() }, roll)
        }
        EndState::Exhausted => {
            let roll = dice.d6();
            (
                if roll <= 2 {
                    reduce()
                } else {
                    Casualty::Unchanged
                },
                roll,
            )
        }
        EndState::Fit | EndState::Shaken => (Casualty::Unchanged, 0),
    }
}

/// Commander rating bands in order (Land of the Free: Incompetent, Competent, Skilled, Highly
/// Skilled), as the index into the system's band list.
pub type RatingBand = u8;

/// A replacement commander's rating roll: the d6 at −1, a 1 staying a 1.
pub fn promotion_rating(dice: &mut Dice) -> u8 {
    dice.d6().saturating_sub(1).max(1)
}

/// Experience after a battle (campaign rules v1): after a Major Victory each surviving
/// commander of the winner moves up a band on a 6; after a Major Defeat the losing Force
/// Commander moves down a band on a 1. Returns the new band and the roll. Who rolls — the men
/// who fought, not their replacements — is for the caller (M-95).
pub fn experience_roll(
    dice: &mut Dice,
    band: RatingBand,
    top: RatingBand,
    won_major: bool,
) -> (RatingBand, u8) {
    let roll = dice.d6();
    if won_major {
        (if roll == 6 { (band + 1).min(top) } else { band }, roll)
    } else {
        (
            if roll == 1 {
                band.saturating_sub(1)
            } else {
                band
            },
            roll,
        )
    }
}

/// The most points a force's bank holds.
pub const BANK_CAP: u32 = 50;

/// Rating bands from a rating roll (R-11: 1 Incompetent, 2–3 Competent, 4–5 Skilled, 6 Highly
/// Skilled) and the lowest roll of each band, used when experience moves a commander.
pub fn band_of_roll(roll: u8) -> RatingBand {
    match roll {
        0 | 1 => 0,
        2 | 3 => 1,
        4 | 5 => 2,
        _ => 3,
    }
}

/// The rating roll that stands for a band after experience moves a commander into it.
pub fn roll_of_band(band: RatingBand) -> u8 {
    match band {
        0 => 1,
        1 => 2,
        2 => 4,
        _ => 6,
    }
}

/// Points a force gains at the end of a turn: 10, plus 5 per supply place its side holds; the
/// bank never holds more than 50.
pub fn reinforcement_points(bank: u32, supply_places: u32) -> (u32, u32) {
    let gained = 10 + 5 * supply_places;
    let banked = (bank + gained).min(BANK_CAP);
    (gained, banked)
}

/// A force's bank after the organiser adds or takes away reinforcement points: never below
/// nothing and, like any bank (M-87), never above the cap.
pub fn bank_after_adjustment(bank: u32, change: i32) -> u32 {
    let after = (i64::from(bank) + i64::from(change)).clamp(0, i64::from(BANK_CAP));
    u32::try_from(after).unwrap_or(BANK_CAP)
}

/// A player's or side's campaign points: the victory points of every battle they fought plus
/// the victory value (0–3) of each place held at the end.
pub fn campaign_points(battle_vps: &[u8], place_values_held: &[u8]) -> u32 {
    battle_vps
        .iter()
        .chain(place_values_held)
        .map(|v| u32::from(*v))
        .sum()
}

#[cfg(test)]
mod tests {
    #[test]
    fn campaign_points_add_battles_and_places() {
        assert_eq!(super::campaign_points(&[6, 2, 4], &[3, 0, 1]), 16);
    }

    use super::*;

    #[test]
    fn shattered_elements_are_lost_on_one_to_three_and_reduced_otherwise() {
        let (mut lost, mut reduced) = (0, 0);
        for seed in 0..600 {
            let mut dice = Dice::from_seed(seed);
            match casualty_roll(&mut dice, EndState::Shattered, 2, 0) {
                (Casualty::Lost, r) => {
                    assert!(r <= 3);
                    lost += 1
                }
                (Casualty::Reduced { size: 1 }, r) => {
                    assert!(r >= 4);
                    reduced += 1
                }
                other => panic!("unexpected {other:?}"),
            }
        }
        assert!(
            lost > 200 && reduced > 200,
            "about half each: {lost} / {reduced}"
        );
    }

    #[test]
    fn the_smallest_size_is_lost_instead_of_reduced() {
        for seed in 0..100 {
            let mut dice = Dice::from_seed(seed);
            let (c, _) = casualty_roll(&mut dice, EndState::LeftTheField, 1, 1);
            assert_eq!(c, Casualty::Lost, "small artillery cannot shrink");
        }
    }

    #[test]
    fn exhausted_elements_shrink_on_one_or_two_and_fit_ones_roll_nothing() {
        for seed in 0..100 {
            let mut dice = Dice::from_seed(seed);
            match casualty_roll(&mut dice, EndState::Exhausted, 3, 0) {
                (Casualty::Reduced { size: 2 }, r) => assert!(r <= 2),
                (Casualty::Unchanged, r) => assert!(r >= 3),
                other => panic!("unexpected {other:?}"),
            }
        }
        assert_eq!(
            casualty_roll(&mut Dice::from_seed(1), EndState::Shaken, 3, 0),
            (Casualty::Unchanged, 0)
        );
    }

    #[test]
    fn promotions_roll_one_lower_but_never_below_one() {
        for seed in 0..200 {
            let r = promotion_rating(&mut Dice::from_seed(seed));
            assert!((1..=5).contains(&r));
        }
    }

    #[test]
    fn experience_moves_a_band_only_on_the_named_roll() {
        for seed in 0..200 {
            let (band, roll) = experience_roll(&mut Dice::from_seed(seed), 1, 3, true);
            assert_eq!(band, if roll == 6 { 2 } else { 1 });
            let (band, roll) = experience_roll(&mut Dice::from_seed(seed), 0, 3, false);
            assert_eq!(band, 0, "the lowest band stays ({roll})");
            let (band, roll) = experience_roll(&mut Dice::from_seed(seed), 3, 3, true);
            assert_eq!(band, 3, "the top band stays ({roll})");
        }
    }

    #[test]
    fn reinforcements_bank_up_to_fifty() {
        assert_eq!(reinforcement_points(0, 2), (20, 20));
        assert_eq!(reinforcement_points(45, 1), (15, 50));
    }

    #[test]
    fn an_adjusted_bank_stays_between_nothing_and_fifty() {
        assert_eq!(bank_after_adjustment(20, 15), 35);
        assert_eq!(bank_after_adjustment(20, -5), 15);
        assert_eq!(bank_after_adjustment(45, 10), 50, "the cap holds");
        assert_eq!(
            bank_after_adjustment(5, -10),
            0,
            "a bank cannot go into debt"
        );
        assert_eq!(bank_after_adjustment(30, 0), 30);
        assert_eq!(bank_after_adjustment(0, i32::MIN), 0);
        assert_eq!(bank_after_adjustment(50, i32::MAX), 50);
    }
}
