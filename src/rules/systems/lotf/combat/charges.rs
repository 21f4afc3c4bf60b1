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

/// The size limit on charges and counter-charges (R-28 as amended): an element may charge
/// smaller enemies or one size larger, and besides a tiny element only tiny or small ones and a
/// small element only small or medium ones, so a small element may not charge a tiny one.
/// Medium and large elements may charge any size.
pub fn size_may_charge(charger: Size, target: Size) -> bool {
    match charger {
        Size::Tiny => matches!(target, Size::Tiny | Size::Small),
        Size::Small => matches!(target, Size::Small | Size::Medium),
        Size::Medium | Size::Large => true,
    }
}

/// Every size an element of `charger` size may charge or counter-charge, smallest first.
pub fn sizes_may_charge(charger: Size) -> Vec<Size> {
    Size::ALL
        .iter()
        .copied()
        .filter(|t| size_may_charge(charger, *t))
        .collect()
}

/// The sizes an element of `charger` size may charge, in words: "any size", or the sizes joined
/// by "or" ("small or medium").
pub fn charge_sizes_in_words(charger: Size) -> String {
    let may = sizes_may_charge(charger);
    if may.len() == Size::ALL.len() {
        return "any size".into();
    }
    let ids: Vec<&str> = may.iter().map(|s| s.id()).collect();
    match ids.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        Some((last, _)) => (*last).to_string(),
        None => "nothing".into(),
    }
}

/// The sizes smaller than `charger` that it still may not charge (a small element: tiny).
pub fn smaller_sizes_barred(charger: Size) -> Vec<Size> {
    Size::ALL
        .iter()
        .copied()
        .filter(|t| *t < charger && !size_may_charge(charger, *t))
        .collect()
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
    /// Only a small element charging a tiny one (R-28 as amended).
    #[error("a small element may not charge a tiny one (R-28)")]
    TargetTooSmall,
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
        return Err(if rank(target_size) < rank(charger_size) {
            ChargeBar::TargetTooSmall
        } else {
            ChargeBar::TargetTooBig
        });
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
