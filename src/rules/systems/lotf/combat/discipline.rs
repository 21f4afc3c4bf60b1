//! Discipline levels, hits and excess hits (R-19, R-20, R-10 Resilient).

use serde::{Deserialize, Serialize};

use crate::rules::systems::lotf::types::DisciplineLevel;

/// The next level down: Fit → Shaken → Exhausted → Shattered.
pub fn degrade(level: DisciplineLevel) -> DisciplineLevel {
    match level {
        DisciplineLevel::Fit => DisciplineLevel::Shaken,
        DisciplineLevel::Shaken => DisciplineLevel::Exhausted,
        DisciplineLevel::Exhausted | DisciplineLevel::Shattered => DisciplineLevel::Shattered,
    }
}

/// Combat Orders at a level: Shaken and Exhausted lose one, never below 1
///
pub fn combat_orders(base: u8, level: DisciplineLevel) -> u8 {
    match level {
        DisciplineLevel::Fit => base,
        _ if base == 0 => 0,
        _ => base.saturating_sub(1).max(1),
    }
}

/// Action dice at a level: Exhausted loses one, once. The pool
/// functions apply it through the tables' `exhausted` rows; this is for
/// display.
pub fn action_dice(base: u8, level: DisciplineLevel) -> u8 {
    match level {
        DisciplineLevel::Exhausted | DisciplineLevel::Shattered => base.saturating_sub(1),
        _ => base,
    }
}

/// What happens when hits land.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct HitResult {
    /// Hits after Resilient: the hits "suffered" for R-13.
    pub suffered: u32,
    /// Hits Resilient soaked up this time.
    pub ignored: u32,
    /// Resilient hits still to be ignored later.
    pub resilient_left: u32,
    /// Hits on the element now, never above its Discipline (excess hits are
    /// not kept, R-20).
    pub hits_now: u32,
    /// Hits over Discipline in this order: −1 each on the test.
    pub excess: u32,
    /// A Discipline Test is due (hits reached Discipline).
    pub test_due: bool,
}

/// Land `incoming` hits on an element that already has `current` hits.
/// Resilient ignores the first hits of the game. Hits accumulate
/// across orders; the hits over Discipline in the order that reaches it are
/// excess hits. The book's example: a Fit element with Discipline 2
/// taking 3 hits keeps 2, tests at −1, then becomes Shaken with no hits.
pub fn take_hits(current: u32, discipline: u32, resilient_left: u32, incoming: u32) -> HitResult {
    let ignored = incoming.min(resilient_left);
    let suffered = incoming - ignored;
    let total = current.saturating_add(suffered);
    let test_due = discipline > 0 && total >= discipline && suffered > 0;
    let excess = total.saturating_sub(discipline);
    HitResult {
        suffered,
        ignored,
        resilient_left: resilient_left - ignored,
        hits_now: if discipline > 0 {
            total.min(discipline)
        } else {
            total
        },
        excess: if test_due { excess } else { 0 },
        test_due,
    }
}
