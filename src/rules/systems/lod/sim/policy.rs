//! The decisions a player makes, kept apart from the rules so they can be swapped: which unit a
//! General joins, who rallies, charges and how a target answers, which order each other unit
//! gets, where shots and odd hits go, which dice are re-rolled (L-8) and when Command Points are
//! spent. [`StandardPolicy`] is the one Muster fights with; `docs/systems/lod.md` describes it.

use crate::rules::systems::lod::types::{CommandAction, HitState, Kind, Order};

use super::Battle;

/// What a unit ordered in step f does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    pub order: Order,
    /// The enemy unit it moves toward (ADVANCE, RUN).
    pub toward: Option<usize>,
}

/// How the target of a charge answers it (4.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Response {
    Hold,
    DefensiveFire,
    CavalryRetire,
    CounterCharge,
}

/// The moment a Command Point could be spent, with what the policy needs to judge it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Moment {
    /// A MORALE test failed; the result it would have.
    FailedMorale { broken_or_route: bool },
    /// Before a CHARGE test of this many dice.
    BeforeCharge { dice: u32 },
    /// After rolling to hit with this many dice.
    Volley { dice: u32 },
    /// A RALLY of a routing unit scored this many successes (short of 2).
    FailedRoutingRally { successes: u32 },
    /// An attached General's unit is about to roll melee dice.
    Melee,
    /// A DISORDERED unit at the start of its Command phase, this close to the nearest enemy.
    Disordered { nearest_enemy: f64 },
}

/// A player's choices. Every method sees the battle as it stands and answers; the engine
/// applies the answer by the rules.
pub trait Policy {
    /// The unit of `brigade` (of `side`) its General joins at step a, or `None` to stay
    /// detached among the brigade (L-2, 3.1).
    fn attach_general(&self, b: &Battle, side: usize, brigade: usize) -> Option<usize>;
    /// Whether a unit that is not routing takes a RALLY order at step c.
    fn rally(&self, b: &Battle, unit: usize) -> bool;
    /// The enemy `unit` charges at step e, if any.
    fn charge(&self, b: &Battle, unit: usize) -> Option<usize>;
    /// How `target` answers a charge by `charger` (only called when more than holding is
    /// allowed).
    fn respond(&self, b: &Battle, target: usize, charger: usize) -> Response;
    /// The order of a unit at step f.
    fn order(&self, b: &Battle, unit: usize) -> Plan;
    /// Which of `targets` (all in range) `unit` shoots at.
    fn shooting_target(&self, b: &Battle, unit: usize, targets: &[usize]) -> usize;
    /// Which of the enemy units takes an odd hit (L-35).
    fn odd_hit(&self, b: &Battle, among: &[usize]) -> usize;
    /// Whether to spend a Command Point on `action` for `unit` now.
    fn spend(&self, b: &Battle, unit: usize, action: CommandAction, moment: Moment) -> bool;

    /// L-8: which die of a test to re-roll (an index into `scores`, the successes each die
    /// scored, `faces` the faces rolled, `rerolled` the dice already re-rolled), or `None` to
    /// stop. Pass/fail tests re-roll a 0 while short, then a 1 (never a 6); CHARGE tests only
    /// 0s while below 3 successes.
    fn reroll(
        &self,
        scores: &[u32],
        faces: &[u8],
        rerolled: &[bool],
        need: u32,
        graded: bool,
    ) -> Option<usize> {
        let total: u32 = scores.iter().sum();
        let target = if graded { 3 } else { need };
        if total >= target {
            return None;
        }
        let pick = |score: u32| {
            (0..scores.len()).find(|&i| !rerolled[i] && scores[i] == score && faces[i] != 6)
        };
        pick(0).or_else(|| if graded { None } else { pick(1) })
    }
}

/// Muster's standard player (spec 5.2): charge when the first round's expected melee score
/// favours the charger, else shoot from HOLD in range, ADVANCE into effective range, RUN to
/// close, RETIRE when SHAKEN with an enemy near; answer a charge by counter-charging when it
/// favours the cavalry, retiring cavalry that would lose, else defensive fire, else holding;
/// Generals join the unit about to fight; Command Points go first to saving units from
/// breaking or routing, keeping a reserve for that.
#[derive(Debug, Clone, Copy)]
pub struct StandardPolicy {
    /// A charge is made when the charger's expected first-round score exceeds the target's by
    /// this much (in hits).
    pub charge_margin: f64,
    /// Command Points kept back for Hold The Line! and Reinforce! (L-62).
    pub reserve: u32,
}

impl Default for StandardPolicy {
    fn default() -> StandardPolicy {
        StandardPolicy {
            charge_margin: 0.5,
            reserve: 2,
        }
    }
}

impl Policy for StandardPolicy {
    fn attach_general(&self, b: &Battle, side: usize, brigade: usize) -> Option<usize> {
        let units = b.brigade_units(side, brigade);
        // The unit in melee, else the one the enemy is closest to (it will fight first).
        units
            .iter()
            .copied()
            .find(|&u| b.unit(u).in_melee())
            .or_else(|| {
                units
                    .iter()
                    .copied()
                    .filter(|&u| !b.unit(u).routing && b.unit(u).kind() != Kind::Artillery)
                    .filter(|&u| {
                        b.nearest_enemy(u)
                            .is_some_and(|(_, d)| d <= b.charge_reach(u) + 2.0)
                    })
                    .min_by(|&x, &y| {
                        let dx = b.nearest_enemy(x).map_or(f64::MAX, |(_, d)| d);
                        let dy = b.nearest_enemy(y).map_or(f64::MAX, |(_, d)| d);
                        dx.total_cmp(&dy)
                    })
            })
    }

    fn rally(&self, b: &Battle, unit: usize) -> bool {
        let u = b.unit(unit);
        let near = b.nearest_enemy(unit).map_or(f64::MAX, |(_, d)| d);
        match b.state(unit) {
            HitState::Shaken => near > 12.0,
            HitState::Worn => u.hits > u.profile.size.worn && near > 8.0,
            _ => false,
        }
    }

    fn charge(&self, b: &Battle, unit: usize) -> Option<usize> {
        if b.unit(unit).kind() == Kind::Artillery {
            return None;
        }
        b.enemies_within(unit, b.charge_reach(unit))
            .into_iter()
            .filter(|&t| !b.unit(t).routing || b.state(t) == HitState::Shaken)
            .map(|t| (t, b.charge_edge(unit, t)))
            .filter(|&(_, edge)| edge > self.charge_margin)
            .max_by(|x, y| x.1.total_cmp(&y.1))
            .map(|(t, _)| t)
    }

    fn respond(&self, b: &Battle, target: usize, charger: usize) -> Response {
        let t = b.unit(target);
        if t.kind() == Kind::MountedCavalry {
            if b.state(target) != HitState::Shaken && b.charge_edge(target, charger) > 0.0 {
                return Response::CounterCharge;
            }
            if b.charge_edge(charger, target) > 0.0 {
                return Response::CavalryRetire;
            }
        }
        if b.can_shoot_at(target, charger) {
            Response::DefensiveFire
        } else {
            Response::Hold
        }
    }

    fn order(&self, b: &Battle, unit: usize) -> Plan {
        let hold = Plan {
            order: Order::Hold,
            toward: None,
        };
        let Some((enemy, d)) = b.nearest_enemy(unit) else {
            return hold;
        };
        let state = b.state(unit);
        if state == HitState::Shaken {
            return if d <= 12.0 {
                Plan {
                    order: Order::Retire,
                    toward: None,
                }
            } else {
                hold
            };
        }
        let u = b.unit(unit);
        if u.kind() == Kind::Artillery {
            return hold;
        }
        let effective = b.effective_reach(unit);
        if d <= effective || d <= 4.0 {
            return hold;
        }
        let order = if state == HitState::Steady && d - effective > b.advance_rate(unit) {
            Order::Run
        } else {
            Order::Advance
        };
        Plan {
            order,
            toward: Some(enemy),
        }
    }

    fn shooting_target(&self, b: &Battle, unit: usize, targets: &[usize]) -> usize {
        // The closest, then the one nearest to breaking.
        let key = |&t: &usize| {
            let d = b.distance(unit, t).floor();
            let left = b
                .unit(t)
                .profile
                .size
                .auto_broken
                .saturating_sub(b.unit(t).hits);
            (d as i64, left)
        };
        targets
            .iter()
            .copied()
            .min_by_key(key)
            .unwrap_or(targets[0])
    }

    fn odd_hit(&self, b: &Battle, among: &[usize]) -> usize {
        among
            .iter()
            .copied()
            .min_by_key(|&t| {
                b.unit(t)
                    .profile
                    .size
                    .auto_broken
                    .saturating_sub(b.unit(t).hits)
            })
            .unwrap_or(among[0])
    }

    fn spend(&self, b: &Battle, unit: usize, action: CommandAction, moment: Moment) -> bool {
        let left = b.command_points(b.unit(unit).side);
        if left == 0 {
            return false;
        }
        match (action, moment) {
            (CommandAction::HoldTheLine, Moment::FailedMorale { broken_or_route }) => {
                broken_or_route
            }
            (CommandAction::Reinforce, Moment::FailedRoutingRally { successes }) => successes >= 1,
            (CommandAction::DirectOrder, Moment::FailedRoutingRally { .. }) => left > 1,
            (CommandAction::PressTheCharge, Moment::BeforeCharge { dice }) => {
                dice <= 3 && left > self.reserve
            }
            (CommandAction::ConcentrateFire, Moment::Volley { dice }) => {
                dice >= 6 && left > self.reserve
            }
            (CommandAction::LeadTheFight, Moment::Melee) => left > self.reserve,
            (CommandAction::ReformTheRanks, Moment::Disordered { nearest_enemy }) => {
                nearest_enemy <= 16.0 && left > self.reserve
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pass_fail_rerolls_take_a_blank_first_then_a_single_never_a_six() {
        let p = StandardPolicy::default();
        // Two dice: a 1-success die and a blank; need 3.
        assert_eq!(
            p.reroll(&[1, 0], &[4, 2], &[false, false], 3, false),
            Some(1)
        );
        assert_eq!(
            p.reroll(&[1, 0], &[4, 2], &[false, true], 3, false),
            Some(0)
        );
        // Enough already: stop.
        assert_eq!(p.reroll(&[2, 0], &[6, 2], &[false, false], 2, false), None);
        // CHARGE tests never re-roll a success (L-8).
        assert_eq!(p.reroll(&[1, 1], &[4, 5], &[false, false], 3, true), None);
    }
}
