//! Decisions: a [`Policy`] trait and the documented [`StandardPolicy`].
//!
//! The engine asks the policy only for choices a player makes; every rule is
//! applied by the engine. A policy sees a read-only [`View`] of the battle.

use std::collections::HashMap;

use super::board::View;
use crate::rules::systems::lotf::catalogue::Catalogue;
use crate::rules::systems::lotf::combat::MeleeSide;
use crate::rules::systems::lotf::odds::melee_odds_for_sides;

/// What an active element does next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Charge an enemy element (by index).
    Charge(usize),
    /// Shoot at an enemy element.
    Shoot(usize),
    Reload,
    /// Move one Maneuver toward the element's goal.
    Advance,
    /// Change to a fighting formation (from March Column).
    Deploy,
    /// Shift one sector (−1 or +1).
    Shift(i8),
    /// End the activation.
    Hold,
}

/// A charge reaction (the book's five, less Formation Change, which the
/// engine offers only to March Column targets through `Hold`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reaction {
    Hold,
    ClosingFire,
    CounterCharge,
    Withdraw,
}

/// The choices a side makes.
pub trait Policy {
    /// The next action of the active element `me`.
    fn act(&mut self, cat: &Catalogue, view: &View, me: usize) -> Action;
    /// How `target` meets a charge from `charger`.
    fn react(&mut self, cat: &Catalogue, view: &View, target: usize, charger: usize) -> Reaction;
    /// Whether to spend a Command Point on a Concentrated Volley.
    fn concentrated_volley(&mut self, view: &View, me: usize, dice: u32) -> bool;
    /// Whether to spend a Command Point on an Inspirational Charge.
    fn inspirational_charge(&mut self, view: &View, me: usize) -> bool;
    /// Whether to spend a Command Point to Rally `me` before it activates.
    fn rally(&mut self, view: &View, me: usize) -> bool;
}

/// The standard policy.
///
/// * Elements in a fighting formation charge when the exact odds of the
///   melee (memoised) give a win at least `charge_edge` more likely than a
///   loss; cavalry and elements with Inspirational Charge accept a smaller
///   edge.
/// * Otherwise they shoot at the nearest enemy in range, reload, and move
///   toward their goal (the nearest enemy in the sector, else an objective,
///   else the nearest sector with enemies). Defenders of objectives and of
///   fortifications hold their ground once in range.
/// * Charged elements counter-charge when the odds favour it, fire a
///   closing volley when loaded, withdraw when the melee looks hopeless, and
///   otherwise hold.
/// * Command Points go first to Rally (Exhausted elements without hits, or
///   elements about to break), then to Concentrated Volleys of four or more
///   dice and Inspirational Charges.
#[derive(Debug, Clone, Default)]
pub struct StandardPolicy {
    memo: HashMap<(MeleeSide, MeleeSide), (f64, f64)>,
    pub charge_edge: f64,
}

impl StandardPolicy {
    /// The policy with its documented thresholds.
    pub fn new() -> StandardPolicy {
        StandardPolicy {
            memo: HashMap::new(),
            charge_edge: 0.15,
        }
    }

    /// (P(win), P(lose)) of a melee, memoised.
    pub fn melee_chances(&mut self, cat: &Catalogue, a: &MeleeSide, d: &MeleeSide) -> (f64, f64) {
        if let Some(v) = self.memo.get(&(a.clone(), d.clone())) {
            return *v;
        }
        let o = melee_odds_for_sides(cat, a, d);
        let v = (o.attacker_win, o.defender_win);
        if self.memo.len() > 100_000 {
            self.memo.clear();
        }
        self.memo.insert((a.clone(), d.clone()), v);
        v
    }
}

impl Policy for StandardPolicy {
    fn act(&mut self, cat: &Catalogue, view: &View, me: usize) -> Action {
        let e = view.element(me);
        if e.needs_deploy() && view.nearest_enemy_distance(me) <= 20.0 {
            return Action::Deploy;
        }
        // Charge?
        if let Some(t) = view.charge_target(cat, me) {
            let (a, d) = view.melee_sides(cat, me, t, true);
            let (win, lose) = self.melee_chances(cat, &a, &d);
            let edge = if view.element(me).is_cavalry() || view.element(me).inspiring() {
                self.charge_edge - 0.1
            } else {
                self.charge_edge
            };
            if win - lose >= edge {
                return Action::Charge(t);
            }
        }
        if let Some(t) = view.shoot_target(me) {
            return Action::Shoot(t);
        }
        if view.can_reload(me) {
            return Action::Reload;
        }
        if view.should_hold_ground(me) {
            return Action::Hold;
        }
        if let Some(dir) = view.shift_direction(me) {
            return Action::Shift(dir);
        }
        if view.can_advance(me) {
            return Action::Advance;
        }
        Action::Hold
    }

    fn react(&mut self, cat: &Catalogue, view: &View, target: usize, charger: usize) -> Reaction {
        let t = view.element(target);
        if t.must_withdraw_from_charge() {
            return Reaction::Withdraw;
        }
        if view.may_counter_charge(cat, target, charger) {
            let (a, d) = view.melee_sides(cat, target, charger, false);
            let (win, lose) = self.melee_chances(cat, &a, &d);
            if win > lose + 0.1 {
                return Reaction::CounterCharge;
            }
        }
        if view.can_closing_fire(target, charger) {
            return Reaction::ClosingFire;
        }
        let (a, d) = view.melee_sides(cat, charger, target, true);
        let (win, _) = self.melee_chances(cat, &a, &d);
        if win > 0.8 && view.may_withdraw(target) {
            return Reaction::Withdraw;
        }
        Reaction::Hold
    }

    fn concentrated_volley(&mut self, _view: &View, _me: usize, dice: u32) -> bool {
        dice >= 4
    }

    fn inspirational_charge(&mut self, _view: &View, _me: usize) -> bool {
        true
    }

    fn rally(&mut self, view: &View, me: usize) -> bool {
        view.worth_rallying(me)
    }
}
