//! Decisions: a [`Policy`] trait and the documented [`StandardPolicy`].
//!
//! The engine asks the policy only for choices a player makes; every rule is
//! applied by the engine. A policy sees a read-only [`View`] of the battle.

use std::collections::HashMap;

use super::board::View;
use crate::rules::systems::lotf::catalogue::Catalogue;
use crate::rules::systems::lotf::combat::{MeleeSide, TestKind};
use crate::rules::systems::lotf::odds::melee_odds_for_sides;
use crate::rules::systems::lotf::types::{DisciplineLevel, ElementType};

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
    /// Turn about to face an enemy behind it.
    Face,
    /// End the activation (keeping what is left as stored orders).
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
    /// The next action of the active element `me` (its orders left are in
    /// `view.active_orders`).
    fn act(&mut self, cat: &Catalogue, view: &View, me: usize) -> Action;
    /// How `target` meets a charge from `charger`.
    fn react(&mut self, cat: &Catalogue, view: &View, target: usize, charger: usize) -> Reaction;
    /// Whether `me`, with a stored Combat Order, snaps a volley at `active`.
    fn snap_fire(&mut self, cat: &Catalogue, view: &View, me: usize, active: usize) -> bool;
    /// Whether `me`, with a stored Maneuver Order, counter-charges `active`.
    fn counter_charge(&mut self, cat: &Catalogue, view: &View, me: usize, active: usize) -> bool;
    /// How close (inches) `me` is willing to advance to the nearest enemy.
    fn standoff(&mut self, cat: &Catalogue, view: &View, me: usize) -> f64;
    /// Where `me` heads when it advances (default: the nearest enemy, else
    /// the nearest objective).
    fn goal(&mut self, cat: &Catalogue, view: &View, me: usize) -> Option<(f64, f64)> {
        let _ = cat;
        view.goal(me)
    }
    /// Whether to spend a Command Point on a Concentrated Volley.
    fn concentrated_volley(&mut self, view: &View, me: usize, dice: u32) -> bool;
    /// Whether to spend a Command Point on an Inspirational Charge.
    fn inspirational_charge(&mut self, view: &View, me: usize) -> bool;
    /// Whether to spend a Command Point to Rally `me` before it activates.
    fn rally(&mut self, view: &View, me: usize) -> bool;
    /// Whether to spend a Command Point on a Forced Order for `action`.
    fn force_order(&mut self, cat: &Catalogue, view: &View, me: usize, action: Action) -> bool;
    /// Whether to spend a Command Point on Wait For My Command.
    fn wait_for_my_command(&mut self, cat: &Catalogue, view: &View, me: usize) -> bool;
    /// Whether to spend a Command Point on Encouraging Words should the test fail.
    fn encouraging_words(&mut self, view: &View, me: usize, kind: TestKind) -> bool;
}

/// The standard policy: it fights as a careful player would. See
/// `docs/simulator.md` ("Policy") for the thresholds in words.
#[derive(Debug, Clone, Default)]
pub struct StandardPolicy {
    memo: HashMap<(MeleeSide, MeleeSide), (f64, f64)>,
    /// How much more likely a win must be than a loss for a charge.
    pub charge_edge: f64,
}

impl StandardPolicy {
    /// The policy with its documented thresholds.
    pub fn new() -> StandardPolicy {
        StandardPolicy {
            memo: HashMap::new(),
            charge_edge: 0.10,
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

    /// An open flank of the nearest enemy that `me` can reach with its
    /// Maneuvers but one, keeping the last for the charge.
    fn reachable_flank(&mut self, cat: &Catalogue, view: &View, me: usize) -> Option<(f64, f64)> {
        let (maneuvers, _) = view.active_orders;
        let t = view.nearest_enemy(me)?;
        let p = view.flank_point(me, t)?;
        let e = view.element(me);
        let far = (p.0 - e.x).hypot(p.1 - e.y);
        let rate = view.advance_rate(cat, me);
        (maneuvers >= 2 && far <= rate * f64::from(maneuvers - 1) + 1.0).then_some(p)
    }

    /// Whether a charge by `me` on `t`, judged where it will be fought, is
    /// worth making.
    fn charge_worth_it(&mut self, cat: &Catalogue, view: &View, me: usize, t: usize) -> bool {
        let (a, d) = view.charge_sides(cat, me, t);
        let (win, lose) = self.melee_chances(cat, &a, &d);
        let e = view.element(me);
        let target = view.element(t);
        let mut edge = self.charge_edge;
        if e.is_cavalry() || e.inspiring() {
            edge -= 0.1;
        }
        // A shaken, tired or disordered target is worth the risk.
        if target.level != DisciplineLevel::Fit || target.dm > 0 {
            edge -= 0.1;
        }
        if target.et == ElementType::Artillery {
            edge -= 0.2;
        }
        win - lose >= edge
    }
}

impl Policy for StandardPolicy {
    fn act(&mut self, cat: &Catalogue, view: &View, me: usize) -> Action {
        let e = view.element(me);
        let (maneuvers, combats) = view.active_orders;
        if maneuvers > 0 && e.needs_deploy() && view.nearest_enemy_distance(me) <= 24.0 {
            return Action::Deploy;
        }
        if maneuvers > 0 && view.enemy_behind(me) && !e.pinned {
            return Action::Face;
        }
        // Charge when the melee, judged where it will be fought, favours it.
        if let Some(t) = view.charge_target(cat, me) {
            if (maneuvers > 0 || combats > 0) && self.charge_worth_it(cat, view, me, t) {
                return Action::Charge(t);
            }
        }
        if combats > 0 {
            if let Some(t) = view.shoot_target(me) {
                return Action::Shoot(t);
            }
        }
        // Close on a worn enemy to charge it (a Maneuver to spare for the charge).
        if maneuvers >= 2 && !e.pinned && !e.fear && e.et != ElementType::Artillery {
            if let Some(t) = view.nearest_enemy(me) {
                let d = view.distance(me, t);
                let reach = view.charge_reach(cat, me);
                let rate = view.advance_rate(cat, me);
                if view.worn(t)
                    && d > reach
                    && d <= reach + rate * f64::from(maneuvers - 1)
                    && self.charge_worth_it(cat, view, me, t)
                {
                    return Action::Advance;
                }
            }
        }
        if maneuvers > 0 {
            if view.can_reload(me) && combats > 0 {
                return Action::Reload;
            }
            if view.should_hold_ground(me) || view.guards_objective(cat, me) {
                return Action::Hold;
            }
            if view.can_advance(cat, me) {
                return Action::Advance;
            }
            if view.can_reload(me) {
                return Action::Reload;
            }
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
            if win > lose + 0.05 {
                return Reaction::CounterCharge;
            }
        }
        if view.can_closing_fire(target, charger) {
            return Reaction::ClosingFire;
        }
        let (a, d) = view.charge_sides(cat, charger, target);
        let (win, _) = self.melee_chances(cat, &a, &d);
        if win > 0.8 && view.may_withdraw(target) && !t.pinned {
            return Reaction::Withdraw;
        }
        Reaction::Hold
    }

    fn snap_fire(&mut self, _cat: &Catalogue, _view: &View, _me: usize, _active: usize) -> bool {
        true
    }

    fn counter_charge(&mut self, cat: &Catalogue, view: &View, me: usize, active: usize) -> bool {
        self.charge_worth_it(cat, view, me, active)
    }

    /// Cavalry rides for an open flank it can reach and charge from in this
    /// activation; failing one, it stays out of musket range until one move
    /// brings it into charge reach of a charge worth making. Guns and
    /// skirmishers keep their range; the rest close to 1".
    fn standoff(&mut self, cat: &Catalogue, view: &View, me: usize) -> f64 {
        let e = view.element(me);
        let (maneuvers, _) = view.active_orders;
        if e.is_cavalry() {
            let Some(t) = view.nearest_enemy(me) else {
                return 1.0;
            };
            if self.reachable_flank(cat, view, me).is_some() {
                return 1.0;
            }
            let reach = view.charge_reach(cat, me);
            let rate = view.advance_rate(cat, me);
            let gap = view.distance(me, t);
            // With a Maneuver left after this move it can charge from reach.
            if maneuvers >= 2 && gap - rate <= reach && self.charge_worth_it(cat, view, me, t) {
                return reach.min(gap).max(1.0) - 0.5;
            }
            return 12.5_f64.max(reach);
        }
        if e.et == ElementType::Artillery || e.fear {
            return f64::from(e.range) - 1.0;
        }
        1.0
    }

    fn goal(&mut self, cat: &Catalogue, view: &View, me: usize) -> Option<(f64, f64)> {
        if view.element(me).is_cavalry() {
            if let Some(p) = self.reachable_flank(cat, view, me) {
                return Some(p);
            }
        }
        view.goal(me)
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

    fn force_order(&mut self, cat: &Catalogue, view: &View, me: usize, action: Action) -> bool {
        match action {
            Action::Charge(t) => {
                view.element(t).level != DisciplineLevel::Fit
                    && self.charge_worth_it(cat, view, me, t)
            }
            _ => false,
        }
    }

    fn wait_for_my_command(&mut self, _cat: &Catalogue, view: &View, me: usize) -> bool {
        let e = view.element(me);
        view.nearest_enemy_distance(me) <= f64::from(e.range) + 6.0
    }

    fn encouraging_words(&mut self, _view: &View, _me: usize, kind: TestKind) -> bool {
        kind == TestKind::Discipline
    }
}
