//! The simulator's decisions, behind a trait so another policy can be swapped in. The
//! standard policy ([`StandardPolicy`], spec 5.4):
//!
//! * **Charges:** a unit that may charge declares on the enemy in reach whose exact charge odds
//!   (the whole chain of spec 4.7, `odds::charge`) give the best margin of success over failure,
//!   when that margin is at least 0.35 (cavalry 0.25; spec 5.4's 0.15 and 0.05 raised by the
//!   calibration) (B-54). Routers are not charged, and
//!   skirmishers (who evade, B-30) only by cavalry.
//! * **Fire:** at the enemy in range where it expects to remove the most figures (routers count
//!   half), if it has not moved (B-27).
//! * **Movement:** if an enemy is in range it stands and fires; otherwise it advances toward the
//!   nearest enemy in its sector (stopping at its weapon's range; cavalry 9", outside musket
//!   range and inside its charge reach), else shifts toward the nearest enemy elsewhere. Units
//!   able to skirmish that would come into range with half their skirmish move use Light
//!   Infantry Move/Fire. Guns stay unlimbered where they deployed; defenders of a defended line
//!   hold their fences.
//! * **Skirmishers charged** fire before evading when they may.
//! * **Commanders** ride with the brigade's unit carrying a Panic Marker (the weakest first),
//!   else with its largest unit.

use std::cell::RefCell;
use std::collections::HashMap;

use crate::rules::systems::oibl::catalogue::Catalogue;
use crate::rules::systems::oibl::odds::{
    charge, ChargeAttacker, ChargeDefender, ChargeRequest, MeleeSide, Round2,
};
use crate::rules::systems::oibl::types::{Cover, Formation, GunClass, Kind, Quality};

use super::{Battle, Move};

/// What the simulator asks a side's commander. Implementations must be deterministic: any
/// randomness comes from the battle's dice.
pub trait Policy {
    /// The enemy (one of `candidates`, all in charge reach) unit `i` charges, if any.
    fn charge_target(&self, b: &Battle, i: usize, candidates: &[usize]) -> Option<usize>;
    /// What unit `i` does in step 4.
    fn movement(&self, b: &Battle, i: usize) -> Move;
    /// The enemy unit `i` fires at in step 5, if any.
    fn fire_target(&self, b: &Battle, i: usize) -> Option<usize>;
    /// Whether skirmishers `i`, charged by `by`, fire half before evading (B-30).
    fn evade_with_fire(&self, b: &Battle, i: usize, by: usize) -> bool;
    /// The unit the commander of brigade `brigade` rides with this activation.
    fn commander_post(&self, b: &Battle, brigade: usize) -> Option<usize>;
}

/// Muster's standard policy (documented above and in `docs/systems/oibl.md`).
#[derive(Debug, Clone, Copy, Default)]
pub struct StandardPolicy;

/// Margins a charge needs: spec 5.4's 0.15 and 0.05, raised by the calibration (B-54) so that
/// twice the figures reliably win (`docs/systems/oibl.md`).
pub const CHARGE_MARGIN: f64 = 0.35;
pub const CAVALRY_CHARGE_MARGIN: f64 = 0.25;
/// Where cavalry waits for a charge: outside musket range, inside its reach.
pub const CAVALRY_WAITS_AT: f64 = 9.0;

/// Everything a charge's odds depend on, as the battle shows it (the cache's key).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ChargeKey {
    a: SideKey,
    d: SideKey,
    flank: bool,
    d_fire: u32,
    d_gun: Option<GunClass>,
    d_marksmen: bool,
    d_charged_mod: i32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct SideKey {
    quality: Quality,
    start: u32,
    figures: u32,
    round1: u32,
    round2_cap: Option<u32>,
    kind: Kind,
    formation: Formation,
    armed: bool,
    panic: bool,
    cover: Cover,
    rating: Option<i32>,
    test_mod: i32,
}

impl SideKey {
    fn side(&self, flank: bool) -> MeleeSide {
        MeleeSide {
            quality: self.quality,
            start_figures: Some(self.start),
            figures: self.figures,
            round1_figures: Some(self.round1),
            round2: if self.round2_cap.is_some() {
                Round2::Cap
            } else {
                Round2::All
            },
            round2_figures: self.round2_cap,
            cavalry: self.kind == Kind::Cavalry,
            infantry: matches!(self.kind, Kind::Infantry | Kind::Indian),
            artillery: self.kind == Kind::Artillery,
            indian: self.kind == Kind::Indian,
            in_woods: false,
            bayonets: self.armed,
            panic_marker: self.panic,
            routing: false,
            cover: self.cover,
            flank_or_rear: flank,
            commander_rating: self.rating,
            other_test_modifiers: self.test_mod,
        }
    }
}

impl ChargeKey {
    /// The odds request of spec 4.7 for this charge.
    pub fn request(&self) -> ChargeRequest {
        ChargeRequest {
            attacker: ChargeAttacker {
                side: self.a.side(false),
                formation: Some(self.a.formation.id().to_string()),
                declaration_test_modifiers: self.a.test_mod,
            },
            defender: ChargeDefender {
                side: self.d.side(self.flank),
                formation: Some(self.d.formation.id().to_string()),
                firing_figures: Some(self.d_fire),
                gun: self.d_gun,
                marksmen: self.d_marksmen,
                charged_test_modifiers: self.d_charged_mod,
            },
        }
    }
}

impl Battle<'_> {
    fn side_key(&self, i: usize, them: usize) -> SideKey {
        let u = &self.units[i];
        // Further test modifiers (friends routing, loss bands come from the figures).
        let band = self
            .cat
            .loss_band(u.start, u.start - u.figures.min(u.start))
            .map_or(0, |(_, v)| v);
        let rating = self.commander_with(i);
        let cover_mod = match u.cover {
            Cover::Light => self.cat.morale_mod("light_cover"),
            Cover::Heavy => self.cat.morale_mod("heavy_cover"),
            Cover::None => 0,
        };
        let test_mod = self.test_modifier(i) - band + rating.unwrap_or(0) - cover_mod;
        SideKey {
            quality: u.s.quality,
            start: u.start,
            figures: u.figures,
            round1: self.melee_figures(i, them, 1),
            round2_cap: u.plain_skirmisher().then(|| self.melee_figures(i, them, 2)),
            kind: u.s.kind,
            formation: u.formation,
            armed: u.s.melee_armed,
            panic: u.panic,
            cover: u.cover,
            rating,
            test_mod,
        }
    }

    /// The key of `i` charging `j` now.
    pub fn charge_key(&self, i: usize, j: usize) -> ChargeKey {
        let t = &self.units[j];
        ChargeKey {
            a: self.side_key(i, j),
            d: self.side_key(j, i),
            flank: self.units[i].sector != t.sector,
            d_fire: if t.s.kind == Kind::Artillery {
                0
            } else {
                t.firing_figures()
            },
            d_gun: if t.s.kind == Kind::Artillery && t.figures > 0 {
                t.s.gun
            } else {
                None
            },
            d_marksmen: t.s.marksmen,
            d_charged_mod: self.charged_modifier(i, j),
        }
    }
}

/// The charge's margin (B-54): the chance it succeeds (the defender routs before contact or
/// loses the melee) less the chance it ends with the charger routing (at declaration, closing,
/// losing the melee or both routing), when the charge move reaches its target with chance
/// `p_reach` (a charge that falls short counts neither way).
pub fn charge_margin(cat: &Catalogue, key: &ChargeKey, p_reach: f64) -> Option<f64> {
    let (routs_declaring, after) = charge_parts(cat, key)?;
    Some(p_reach * after - routs_declaring)
}

/// The two parts of [`charge_margin`]: the chance the charger routs at its declaration, and the
/// margin of everything after a passed declaration (both over the whole chain).
///
/// The odds are exact and the same situations recur from battle to battle, so each thread
/// keeps the answers it has worked out (for one catalogue version at a time).
pub fn charge_parts(cat: &Catalogue, key: &ChargeKey) -> Option<(f64, f64)> {
    type Cache = (String, HashMap<ChargeKey, Option<(f64, f64)>>);
    thread_local! {
        static CACHE: RefCell<Cache> = RefCell::new((String::new(), HashMap::new()));
    }
    let hit = CACHE.with(|c| {
        let c = c.borrow();
        (c.0 == cat.version())
            .then(|| c.1.get(key).copied())
            .flatten()
    });
    if let Some(v) = hit {
        return v;
    }
    let v = charge_parts_exact(cat, key);
    CACHE.with(|c| {
        let mut c = c.borrow_mut();
        if c.0 != cat.version() || c.1.len() > 200_000 {
            c.0 = cat.version().to_string();
            c.1.clear();
        }
        c.1.insert(*key, v);
    });
    v
}

/// [`charge_parts`] worked out afresh from `odds::charge`.
pub fn charge_parts_exact(cat: &Catalogue, key: &ChargeKey) -> Option<(f64, f64)> {
    let a = charge(cat, &key.request()).ok()?;
    let after = a.p_charge_succeeds
        - a.ends.charger_routs_closing
        - a.melee_outcomes.defender_wins
        - a.melee_outcomes.both_rout;
    Some((a.ends.charger_routs_at_declaration, after))
}

impl Policy for StandardPolicy {
    fn charge_target(&self, b: &Battle, i: usize, candidates: &[usize]) -> Option<usize> {
        let need = if b.units[i].mounted() {
            CAVALRY_CHARGE_MARGIN
        } else {
            CHARGE_MARGIN
        };
        let mut best: Option<(usize, f64)> = None;
        for &j in candidates {
            // Skirmishers only evade foot (B-30): not worth a charge but for cavalry.
            if b.units[j].plain_skirmisher() && !b.units[i].mounted() {
                continue;
            }
            let Some(m) = charge_margin(b.cat, &b.charge_key(i, j), b.p_reach(i, j)) else {
                continue;
            };
            if m >= need && best.is_none_or(|(_, v)| m > v) {
                best = Some((j, m));
            }
        }
        best.map(|(j, _)| j)
    }

    fn movement(&self, b: &Battle, i: usize) -> Move {
        let u = &b.units[i];
        if u.s.kind == Kind::Artillery || (u.cover != Cover::None && u.side == 1) {
            return Move::Hold;
        }
        if (0..b.units.len()).any(|j| b.in_range(i, j) && b.units[j].active()) && !u.mounted() {
            return Move::Hold;
        }
        // The nearest enemy not routing: in its sector first.
        let mut best: Option<(usize, f64, bool)> = None;
        for (j, t) in b.units.iter().enumerate() {
            if t.side == u.side || !t.active() {
                continue;
            }
            let same = t.sector == u.sector;
            let d = b.dist(i, j);
            let better = match best {
                None => true,
                Some((_, bd, bs)) => (same && !bs) || (same == bs && d < bd),
            };
            if better {
                best = Some((j, d, same));
            }
        }
        let Some((target, d, _)) = best else {
            return Move::Hold;
        };
        let stop_at = if u.mounted() {
            CAVALRY_WAITS_AT
        } else {
            u.s.range.max(2.0)
        };
        // B-27: Light Infantry Move/Fire when half a skirmish move brings it into range.
        let half_skirmish = b
            .cat
            .move_rate("skirmish")
            .map_or(0.0, |m| (m.base + if m.die { 1.0 } else { 0.0 }) / 2.0);
        let move_fire = u.s.can_skirmish()
            && !u.mounted()
            && b.units[target].sector == u.sector
            && d - half_skirmish <= u.s.range;
        Move::Advance {
            target,
            stop_at,
            move_fire,
        }
    }

    fn fire_target(&self, b: &Battle, i: usize) -> Option<usize> {
        let u = &b.units[i];
        let figures = if u.s.kind == Kind::Artillery {
            u.s.gun_figures
        } else {
            u.firing_figures()
        };
        let mut best: Option<(usize, f64)> = None;
        for j in 0..b.units.len() {
            if !b.in_range(i, j) {
                continue;
            }
            let t = &b.units[j];
            let mut value = b.expected_hits(figures, b.fire_modifier(i, j, None), t.figures);
            if t.routing {
                value /= 2.0;
            }
            // Nearer first among equals.
            value -= b.dist(i, j) * 1e-6;
            if best.is_none_or(|(_, v)| value > v) {
                best = Some((j, value));
            }
        }
        best.map(|(j, _)| j)
    }

    fn evade_with_fire(&self, _b: &Battle, _i: usize, _by: usize) -> bool {
        true
    }

    fn commander_post(&self, b: &Battle, brigade: usize) -> Option<usize> {
        let units = &b.brigades[brigade].units;
        let marked = units
            .iter()
            .copied()
            .filter(|&k| b.units[k].active() && b.units[k].panic)
            .min_by_key(|&k| (b.units[k].s.quality, k));
        marked.or_else(|| {
            units
                .iter()
                .copied()
                .filter(|&k| b.units[k].active() && b.units[k].s.kind != Kind::Artillery)
                .max_by_key(|&k| (b.units[k].figures, std::cmp::Reverse(k)))
        })
    }
}
