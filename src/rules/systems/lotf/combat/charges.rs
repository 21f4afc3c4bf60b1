//! Charges, counter-charges and withdrawals as a charge reaction.

use serde::{Deserialize, Serialize};

use super::commanders::Rating;
use crate::rules::dice::DiceExpr;
use crate::rules::systems::lotf::catalogue::Catalogue;
use crate::rules::systems::lotf::types::{DisciplineLevel, ElementType, Formation, Size};

fn rank(s: Size) -> i8 {
    match s {
        Size::Tiny => 0,
        Size::Small => 1,
        Size::Medium => 2,
        Size::Large => 3,
    }
}

/// The size limit on charges and counter-charges: tiny → tiny or
/// small; small → up to medium; medium and large → anything.
pub fn size_may_charge(charger: Size, target: Size) -> bool {
    match charger {
        Size::Medium | Size::Large => true,
        _ => rank(target) <= rank(charger) + 1,
    }
}

/// Why an element may not charge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(rename_all = "snake_case")]
pub enum ChargeBar {
    #[error("artillery never charges (R-28)")]
    Artillery,
    #[error("an element in March Column cannot charge")]
    MarchColumn,
    #[error("the target is too big to charge (R-28)")]
    TargetTooBig,
    #[error("an Exhausted element may charge only into a flank (R-28)")]
    ExhaustedNeedsFlank,
    #[error("a Shattered element is out of play")]
    Shattered,
}

/// What a permitted charge still needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChargePermission {
    /// A Disorder Test first (Shaken or Exhausted chargers, R-28).
    pub disorder_test: bool,
    /// A plain Morale Test first (Fear of Cold Steel).
    pub morale_test: bool,
}

/// Whether an element may charge a target (R-28; Fear of Cold Steel).
#[allow(clippy::too_many_arguments)]
pub fn charge_permission(
    charger_type: ElementType,
    charger_size: Size,
    formation: Formation,
    level: DisciplineLevel,
    fear_of_cold_steel: bool,
    target_size: Size,
    into_flank: bool,
) -> Result<ChargePermission, ChargeBar> {
    if charger_type == ElementType::Artillery {
        return Err(ChargeBar::Artillery);
    }
    if matches!(formation, Formation::MarchColumn | Formation::Limbered) {
        return Err(ChargeBar::MarchColumn);
    }
    if !size_may_charge(charger_size, target_size) {
        return Err(ChargeBar::TargetTooBig);
    }
    match level {
        DisciplineLevel::Shattered => Err(ChargeBar::Shattered),
        DisciplineLevel::Exhausted if !into_flank => Err(ChargeBar::ExhaustedNeedsFlank),
        DisciplineLevel::Fit => Ok(ChargePermission {
            disorder_test: false,
            morale_test: fear_of_cold_steel,
        }),
        _ => Ok(ChargePermission {
            disorder_test: true,
            morale_test: fear_of_cold_steel,
        }),
    }
}

/// Whether `reactor` may counter-charge a charging `charger` (R-28 and the
/// book's Counter-charge rules): infantry only against infantry, cavalry
/// against infantry or cavalry, artillery never counter-charges and is never
/// counter-charged.
pub fn counter_charge_allowed(reactor: ElementType, charger: ElementType) -> bool {
    match (reactor, charger) {
        (ElementType::Artillery, _) | (_, ElementType::Artillery) => false,
        (ElementType::Infantry, ElementType::Infantry) => true,
        (ElementType::Infantry, _) => false,
        (ElementType::Cavalry, _) => true,
    }
}

/// The roll for a Withdraw charge reaction: the Group Commander's
/// Command Point die, or the table's die when he is dead; a Fit element adds
/// the table's bonus. Returns the expression and the bonus.
pub fn withdraw_reaction_expr(
    cat: &Catalogue,
    group_commander: Option<&Rating>,
    level: DisciplineLevel,
) -> (DiceExpr, i32) {
    let n = cat.numbers();
    let expr = group_commander
        .map(|r| r.command_points)
        .or_else(|| DiceExpr::parse(&n.withdraw_reaction_without_commander))
        .unwrap_or(DiceExpr::D3);
    let bonus = if level == DisciplineLevel::Fit {
        i32::from(n.withdraw_reaction_fit_bonus)
    } else {
        0
    };
    (expr, bonus)
}
