//! The simulator's decisions, behind a trait so another policy can be swapped in. The
//! standard policy ([`Standard`]):
//!
//! * **Formation:** infantry marches in column while the nearest enemy is more than 16" away,
//!   and forms line (half its move, W-14) to fight.
//! * **Movement:** infantry closes to 4" (close musket range); skirmishers to their long range;
//!   cavalry waits 14" from the nearest enemy (inside its 18" charge, outside musket range)
//!   until it has a target; guns stay where they deployed; nobody ends nearer than 2" (the halt
//!   distance). Units move toward the nearest enemy; crossing into another sector costs 12".
//! * **Charges:** a unit with a full move charges the best legal target in reach when its
//!   expected hits, times its chance to go in, beat what it expects to suffer, or the target is
//!   routing, disordered or at half strength.
//! * **Responses:** skirmishers charged by close order evade (they must, W-11); cavalry
//!   counter-charges cavalry.
//! * **Fire:** at the nearest enemy in range; among equals the most damaged.

use crate::rules::battlefield;
use crate::rules::systems::awi::types::TroopType;

use super::{p_hit, Battle, Marker};

/// What the simulator asks a side's commander. Implementations must be deterministic: any
/// randomness comes from the battle's dice.
pub trait Policy {
    /// The enemy unit `i` charges this move, if any (checked for legality after).
    fn charge_target(&self, b: &Battle, i: usize) -> Option<usize>;
    /// Whether cavalry unit `i`, charged by `by`, counter-charges.
    fn counter_charge(&self, b: &Battle, i: usize, by: usize) -> bool;
    /// Makes unit `i`'s normal move (formation and position).
    fn normal_move(&self, b: &mut Battle, i: usize);
    /// The enemy unit `i` fires at, if any.
    fn fire_target(&self, b: &Battle, i: usize) -> Option<usize>;
}

/// Muster's standard policy (documented above and in `docs/systems/awi.md`).
pub struct Standard;

impl Policy for Standard {
    fn charge_target(&self, b: &Battle, i: usize) -> Option<usize> {
        let u = &b.units[i];
        if !u.active() || u.t == TroopType::Artillery || u.marker != Marker::Full || u.disordered {
            return None;
        }
        let reach = f64::from(b.cat.movement_row(u.move_row()).charge().unwrap_or(0));
        let mut best: Option<(usize, f64)> = None;
        for (j, t) in b.units.iter().enumerate() {
            if t.side == u.side || t.gone() || t.engaged.is_some() || b.dist(i, j) > reach {
                continue;
            }
            if (u.t == TroopType::Skirmishers && t.t.close_order())
                || (u.foot() && t.t == TroopType::Cavalry)
            {
                continue;
            }
            let value = if t.routing {
                10.0
            } else {
                // Expected casualties each way, with the chance of going in.
                let mine =
                    f64::from(b.elements(i, j)) * p_hit(b.melee_need(i, j) - charge_bonus(b, i));
                let theirs = f64::from(b.elements(j, i)) * p_hit(b.melee_need(j, i));
                let go = (1..=6)
                    .filter(|r| r + b.entering_mod(i, j, true) > b.cat.entering.pass_above)
                    .count() as f64
                    / 6.0;
                let weak = t.disordered || t.at_or_below_half() || t.t == TroopType::Artillery;
                let edge = mine * go - theirs + if weak { 0.5 } else { 0.0 };
                if go < 0.5 || edge <= 0.0 {
                    continue;
                }
                edge
            };
            if best.is_none_or(|(_, v)| value > v) {
                best = Some((j, value));
            }
        }
        best.map(|(j, _)| j)
    }

    fn counter_charge(&self, b: &Battle, _i: usize, by: usize) -> bool {
        b.units[by].t == TroopType::Cavalry
    }

    fn normal_move(&self, b: &mut Battle, i: usize) {
        let cat = b.cat;
        let Some((j, d)) = b.nearest_enemy(i, false) else {
            return;
        };
        let u = &b.units[i];
        if u.t == TroopType::Artillery {
            return;
        }
        let full = f64::from(cat.movement_row(u.move_row()).normal);
        let mut allowance = match u.marker {
            Marker::Full => full,
            Marker::Half => full / 2.0,
            Marker::None => return,
        };
        let halt = f64::from(cat.halt_distance);
        let stop_at = match u.t {
            TroopType::Infantry => 4.0,
            TroopType::Skirmishers => {
                f64::from(cat.weapon(u.arms).bands.last().map_or(8, |x| x.to))
            }
            TroopType::Cavalry => 14.0,
            TroopType::Artillery => return,
        }
        .max(halt);
        if u.t == TroopType::Infantry {
            let want_column = d > 16.0;
            if want_column != u.column {
                // A formation change costs half the move (W-14); the new rate applies after.
                allowance /= 2.0;
                b.units[i].column = want_column;
                let row = b.units[i].move_row();
                let rate = f64::from(cat.movement_row(row).normal);
                allowance = allowance.min(rate / 2.0);
            }
        }
        if d <= stop_at + 0.01 {
            return;
        }
        let moved = b.move_toward(i, j, stop_at, allowance);
        if moved > 0.0 {
            b.units[i].moved_own_move = true;
        }
        // Keep the halt distance from every enemy in the same sector.
        let (s, depth) = b.units[i].pos();
        let side = b.units[i].side;
        let fwd = b.edges[side].forward();
        let mut new_depth = depth;
        for e in b
            .units
            .iter()
            .filter(|e| e.side != side && !e.gone() && e.sector == s)
        {
            let gap = (e.depth - new_depth) * fwd;
            if gap >= 0.0 && gap < halt {
                new_depth = e.depth - fwd * halt;
            }
        }
        b.units[i].depth = battlefield::on_table(new_depth);
    }

    fn fire_target(&self, b: &Battle, i: usize) -> Option<usize> {
        let side = b.units[i].side;
        let mut best: Option<(usize, f64, u32)> = None;
        for (j, t) in b.units.iter().enumerate() {
            if t.side == side || t.gone() {
                continue;
            }
            if b.fire_odds(i, j).is_none() {
                continue;
            }
            let d = b.dist(i, j);
            let better = match best {
                None => true,
                Some((_, bd, bl)) => d < bd - 0.01 || ((d - bd).abs() <= 0.01 && t.lost > bl),
            };
            if better {
                best = Some((j, d, t.lost));
            }
        }
        best.map(|(j, _, _)| j)
    }
}

/// The charging bonus a unit would get (to judge a charge before it is made).
fn charge_bonus(b: &Battle, i: usize) -> i32 {
    let u = &b.units[i];
    if u.charging {
        return 0;
    }
    if u.foot() {
        -b.cat.melee_mod("infantry_charging")
    } else if u.t == TroopType::Cavalry {
        -b.cat.melee_mod("cavalry_charging")
    } else {
        0
    }
}
