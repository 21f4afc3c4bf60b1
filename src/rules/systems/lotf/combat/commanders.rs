//! Commander ratings, Command Points and casualties.

use serde::{Deserialize, Serialize};

use crate::rules::dice::{Dice, DiceExpr};
use crate::rules::systems::lotf::catalogue::Catalogue;

/// A commander's rating, read from the catalogue's table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rating {
    /// The d6 roll it came from (1–6).
    pub roll: u8,
    pub id: String,
    pub name: String,
    pub morale: u8,
    /// Sphere of influence in inches.
    pub spi: u8,
    pub command_points: DiceExpr,
}

/// The rating for a d6 roll (1–6); `None` for other numbers.
pub fn rating_for_roll(cat: &Catalogue, roll: u8) -> Option<Rating> {
    let r = cat.commander_rating_for_roll(roll)?;
    Some(Rating {
        roll,
        id: r.id.clone(),
        name: r.name.clone(),
        morale: r.morale,
        spi: r.spi,
        command_points: DiceExpr::parse(&r.command_points)?,
    })
}

/// Roll a rating on a d6. A field promotion rolls at −1 and a 1
/// stays a 1.
pub fn roll_rating(cat: &Catalogue, dice: &mut Dice, field_promotion: bool) -> Option<Rating> {
    let raw = dice.d6();
    let roll = if field_promotion {
        let m = cat.commanders().field_promotion_modifier;
        (i16::from(raw) + i16::from(m)).clamp(1, 6) as u8
    } else {
        raw
    };
    rating_for_roll(cat, roll)
}

/// Command Points for a turn: d3−1, d3, best of 2d3 or d3+1.
pub fn roll_command_points(rating: &Rating, dice: &mut Dice) -> u32 {
    rating.command_points.roll(dice).max(0) as u32
}

/// Whether an attached commander falls when his element suffers `hits` in
/// one order: 2d6 + hits (+1 against Marksmen) reaching the table's
/// target. Returns the total rolled and the verdict.
pub fn commander_killed(
    cat: &Catalogue,
    hits: u32,
    marksmen: bool,
    dice: &mut Dice,
) -> (i32, bool) {
    let roll = i32::from(dice.two_d6());
    let total = roll + hits.min(100) as i32 + i32::from(marksmen);
    (
        total,
        total >= i32::from(cat.numbers().commander_casualty_target),
    )
}

/// The exact probability of [`commander_killed`].
pub fn commander_casualty_probability(cat: &Catalogue, hits: u32, marksmen: bool) -> f64 {
    if hits == 0 {
        return 0.0;
    }
    let need = i32::from(cat.numbers().commander_casualty_target)
        - hits.min(100) as i32
        - i32::from(marksmen);
    DiceExpr::TwoD6
        .distribution()
        .iter()
        .filter(|(v, _)| *v >= need)
        .map(|(_, p)| p)
        .sum::<f64>()
        .min(1.0)
}
