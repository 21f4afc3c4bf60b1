//! Decisions: a [`Policy`] trait and the documented [`StandardPolicy`].
//!
//! The engine asks the policy only for choices a player makes; every rule is
//! applied by the engine. A policy sees a read-only [`View`] of the battle.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::board::{norm, View};
use crate::rules::systems::lotf::catalogue::Catalogue;
use crate::rules::systems::lotf::combat::{MeleeSide, TestKind};
use crate::rules::systems::lotf::odds::{melee_numbers, win_lose_of, MeleeNumbers};
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

/// A small multiply-rotate hasher for the memo's keys (its inputs are our
/// own small integers, so SipHash's protection against crafted keys buys
/// nothing and costs a few per cent of a battle).
#[derive(Debug, Clone, Copy, Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }
    fn write_u16(&mut self, n: u16) {
        self.write_u64(u64::from(n));
    }
    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// A charged element withdraws (when it may) if the charger's chance of
/// winning the melee is above this.
const WITHDRAW_WHEN_CHARGER_WINS: f64 = 0.95;

/// The chance the policy reckons an Inspirational Charge's Morale Test
/// passes (7+ on 2d6 with the attached commander's +1 or more).
const INSPIRE_PASS: f64 = 0.7;

/// Whether the commander who orders `me` could spend a point on it now: the
/// engine's `try_special` asks the same (alive, on the table, a point left,
/// not attached elsewhere, `me` in his SPI or he is the Force Commander).
fn may_inspire(view: &View, me: usize) -> bool {
    let u = view.element(me);
    let c = match view.groups[u.group].commander {
        Some(c) if view.cmds[c].alive => Some(c),
        _ => view.force_commander[super::board::sidx(u.side)]
            .filter(|&c| view.cmds[c].alive && view.cmds[c].on_table),
    };
    c.is_some_and(|c| {
        let cmd = &view.cmds[c];
        cmd.cp > 0 && cmd.attached_to.is_none() && view.in_spi_or_fc(me, c)
    })
}

/// The standard policy: it fights as a careful player would. See
/// `docs/simulator.md` ("Policy") for the thresholds in words.
#[derive(Debug, Clone, Default)]
pub struct StandardPolicy {
    /// Melee odds by the numbers they depend on (dice, the number to hit,
    /// re-rolls, result modifiers): the many different pairs of sides the
    /// policy judges (supporters, flags, levels) come to far fewer of these
    /// (a thousand battles meet a few thousand), so once a run has seen
    /// them almost every question is a look-up.
    by_numbers: HashMap<MeleeNumbers, (f64, f64), BuildHasherDefault<KeyHasher>>,
    /// How much more likely a win must be than a loss for a charge.
    pub charge_edge: f64,
}

impl StandardPolicy {
    /// The policy with its documented thresholds.
    pub fn new() -> StandardPolicy {
        StandardPolicy {
            by_numbers: HashMap::default(),
            charge_edge: 0.0,
        }
    }

    /// (P(win), P(lose)) of a melee, memoised.
    pub fn melee_chances(&mut self, cat: &Catalogue, a: &MeleeSide, d: &MeleeSide) -> (f64, f64) {
        self.chances_of(cat, melee_numbers(cat, a, d))
    }

    /// (P(win), P(lose)) of a melee with these numbers, memoised.
    fn chances_of(&mut self, cat: &Catalogue, numbers: MeleeNumbers) -> (f64, f64) {
        if let Some(v) = self.by_numbers.get(&numbers) {
            return *v;
        }
        let v = win_lose_of(cat, &numbers);
        if self.by_numbers.len() > 100_000 {
            self.by_numbers.clear();
        }
        self.by_numbers.insert(numbers, v);
        v
    }

    /// An open flank of the nearest enemy that `me` can reach with its
    /// Maneuvers but one, keeping the last for the charge.
    fn reachable_flank(&mut self, cat: &Catalogue, view: &View, me: usize) -> Option<(f64, f64)> {
        let (maneuvers, _) = view.active_orders;
        let t = view.nearest_enemy(me)?;
        let p = view.flank_stations(cat, me, t).next()?;
        let e = view.element(me);
        let far = norm(p.0 - e.x, p.1 - e.y);
        let rate = view.advance_rate(cat, me);
        (maneuvers >= 2 && far <= rate * f64::from(maneuvers - 1) + 1.0).then_some(p)
    }

    /// Whether a charge by `me` on `t`, judged where it will be fought, is
    /// worth making.
    fn charge_worth_it(&mut self, cat: &Catalogue, view: &View, me: usize, t: usize) -> bool {
        self.charge_margin(cat, view, me, t) >= 0.0
    }

    /// How far a charge's P(win) − P(lose) clears the policy's edge for it.
    fn charge_margin(&mut self, cat: &Catalogue, view: &View, me: usize, t: usize) -> f64 {
        let (a, d) = view.charge_sides(cat, me, t);
        let numbers = melee_numbers(cat, &a, &d);
        let (mut win, mut lose) = self.chances_of(cat, numbers);
        // A commander with a point to spend will lead it in (Inspirational
        // Charge): the misses are rolled again if his test passes. Only the
        // re-roll changes (no pool or result modifier depends on it).
        if !a.reroll_misses && may_inspire(view, me) {
            let inspired = MeleeNumbers {
                reroll: [true, numbers.reroll[1]],
                ..numbers
            };
            let (w, l) = self.chances_of(cat, inspired);
            win += INSPIRE_PASS * (w - win);
            lose += INSPIRE_PASS * (l - lose);
        }
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
        win - lose - edge
    }
}

impl Policy for StandardPolicy {
    fn act(&mut self, cat: &Catalogue, view: &View, me: usize) -> Action {
        let e = view.element(me);
        let (maneuvers, combats) = view.active_orders;
        if maneuvers > 0 && e.needs_deploy() && view.nearest_enemy_distance(me) <= 24.0 {
            return Action::Deploy;
        }
        // Pinned elements too: turning about keeps them at their post (M-100 leaves one beaten
        // back from it facing its own edge).
        if maneuvers > 0 && view.enemy_behind(me) {
            return Action::Face;
        }
        // Charge the target whose melee, judged where it will be fought,
        // most favours it, if any does.
        if maneuvers > 0 || combats > 0 {
            let mut best: Option<(f64, usize)> = None;
            for t in view.charge_targets(cat, me) {
                let margin = self.charge_margin(cat, view, me, t);
                if margin >= 0.0 && best.is_none_or(|(b, _)| margin > b) {
                    best = Some((margin, t));
                }
            }
            if let Some((_, t)) = best {
                return Action::Charge(t);
            }
        }
        // Line infantry closes to charge reach before it fires, even with its
        // last Maneuver (the reload waits): from there it can charge a target
        // its volley shakes, and a line that stops at 9" to fire twice never
        // comes to the bayonet (issue 16's melee rate).
        if maneuvers >= 1
            && e.loaded
            && e.et == ElementType::Infantry
            && !e.pinned
            && !e.fear
            && view.nearest_enemy_distance(me) > view.charge_reach(cat, me) - 0.5
            && view.nearest_enemy_distance(me) <= f64::from(e.range) + view.advance_rate(cat, me)
            && view.can_advance(cat, me)
        {
            return Action::Advance;
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
        if combats > 0 {
            if let Some(t) = view.shoot_target(cat, me) {
                return Action::Shoot(t);
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
            let (a, c) = view.counter_charge_sides(cat, target, charger);
            let (charger_wins, charger_loses) = self.melee_chances(cat, &a, &c);
            if charger_loses > charger_wins + 0.05 {
                return Reaction::CounterCharge;
            }
        }
        if view.can_closing_fire(target, charger) {
            return Reaction::ClosingFire;
        }
        let (a, d) = view.charge_sides(cat, charger, target);
        let (win, _) = self.melee_chances(cat, &a, &d);
        // A Withdraw is a rout step (M-100): the element turns its back on
        // the enemy, to be shot and charged in the flank until it turns
        // about, so only a near-hopeless melee is worth it.
        if win > WITHDRAW_WHEN_CHARGER_WINS && view.may_withdraw(target) && !t.pinned {
            return Reaction::Withdraw;
        }
        Reaction::Hold
    }

    fn snap_fire(&mut self, _cat: &Catalogue, _view: &View, _me: usize, _active: usize) -> bool {
        true
    }

    /// A Counter-charge from a stored order meets the active element's
    /// melee (it spends the Combat Order), so it is judged as that melee.
    fn counter_charge(&mut self, cat: &Catalogue, view: &View, me: usize, active: usize) -> bool {
        let (a, c) = view.counter_charge_sides(cat, me, active);
        let (active_wins, active_loses) = self.melee_chances(cat, &a, &c);
        let mut edge = self.charge_edge;
        if view.element(me).is_cavalry() {
            edge -= 0.1;
        }
        active_loses - active_wins >= edge
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
            if view.flank_stations(cat, me, t).next().is_some() {
                return 1.0;
            }
            let reach = view.charge_reach(cat, me);
            let rate = view.advance_rate(cat, me);
            let gap = view.distance(me, t);
            // With a Maneuver left after this move it can charge from reach.
            if maneuvers >= 2
                && gap - rate * f64::from(maneuvers - 1) <= reach
                && self.charge_worth_it(cat, view, me, t)
            {
                return reach.min(gap).max(1.0) - 0.5;
            }
            // Out of reach of the enemy's moves and a volley.
            let q = view.element(t);
            let safe = f64::from(q.maneuver) * view.advance_rate(cat, t) + f64::from(q.range) + 0.5;
            return safe.max(reach);
        }
        if e.et == ElementType::Artillery || e.fear {
            return f64::from(e.range) - 1.0;
        }
        if e.et == ElementType::Infantry {
            // Within charge reach, not closer: the rest is for a charge.
            return (view.charge_reach(cat, me) - 0.5).max(1.0);
        }
        1.0
    }

    fn goal(&mut self, cat: &Catalogue, view: &View, me: usize) -> Option<(f64, f64)> {
        if view.element(me).is_cavalry() {
            if let Some(p) = self.reachable_flank(cat, view, me) {
                return Some(p);
            }
            // Too far to charge this time: ride round to a point level with
            // the enemy's front beyond its open flank, out of its arc.
            if let Some(t) = view.nearest_enemy(me) {
                if let Some(p) = view.flank_stations(cat, me, t).next() {
                    let q = view.element(t);
                    let out = (p.0 - q.x).signum() * 8.0;
                    return Some(((p.0 + out).clamp(1.0, super::board::TABLE_WIDTH - 1.0), p.1));
                }
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
