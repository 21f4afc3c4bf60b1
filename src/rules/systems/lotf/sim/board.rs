//! The simulator's board: a 72" × 48" table on which every element is a
//! point (its leader) with a frontage and a facing toward one of the two long
//! edges (M-19 as amended: `docs/simulator.md`), the commanders and groups on
//! it, and the read-only geometry and queries a policy makes of it.

use std::sync::Arc;

use super::near::{Area, Near, NearIndex, Placed};

use crate::rules::systems::lotf::battle::ScenarioId;
use crate::rules::systems::lotf::catalogue::Catalogue;
use crate::rules::systems::lotf::combat::{
    charge_permission, counter_charge_allowed, element_counts_as_broken, group_is_broken,
    MeleeSide, Rating, Side, Supporter,
};
use crate::rules::systems::lotf::types::{DisciplineLevel, ElementType, Formation, Size, Weapon};

pub use super::near::sidx;
pub use crate::rules::battlefield::{TABLE_DEPTH, TABLE_WIDTH};

/// The table edge an element withdraws toward: the attacker's (near, depth
/// 0"), the defender's (far, 48"), or the left end (0" across) for a column
/// marching along the table in an Ambush.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Home {
    Near,
    Far,
    Left,
}

impl Home {
    /// A unit step toward the edge.
    pub fn toward(self) -> (f64, f64) {
        match self {
            Home::Near => (0.0, -1.0),
            Home::Far => (0.0, 1.0),
            Home::Left => (-1.0, 0.0),
        }
    }
    /// Whether a point is off the table past this edge.
    pub fn beyond(self, x: f64, y: f64) -> bool {
        match self {
            Home::Near => y < 0.0,
            Home::Far => y > TABLE_DEPTH,
            Home::Left => x < 0.0,
        }
    }
    /// The facing (+1 toward the far edge) of an element entering from this edge.
    pub fn facing(self) -> f64 {
        match self {
            Home::Far => -1.0,
            _ => 1.0,
        }
    }
}

/// Width of one of the three deployment sectors.
pub const SECTOR_WIDTH: f64 = 24.0;
/// Room each element takes in a line: elements stand this far apart, centre to centre.
/// Leaders this close front to back count as level with each other (M-98).
pub const LEVEL_INCHES: f64 = 0.5;
/// Enemies this little farther than the closest count as equally close
/// (M-99: the charging player picks among them), a tape measure's precision.
const CLOSEST_TIE_INCHES: f64 = 0.5;
pub const FILE_WIDTH: f64 = 8.0;

/// The sector (0 left, 1 centre, 2 right) of a point across the table.
pub fn sector_of(x: f64) -> i32 {
    ((x / SECTOR_WIDTH).floor() as i32).clamp(0, 2)
}

/// The centre of a file (0, 1, 2 …) of a sector.
pub fn file_x(sector: i32, file: usize) -> f64 {
    f64::from(sector) * SECTOR_WIDTH + FILE_WIDTH / 2.0 + FILE_WIDTH * (file % 3) as f64
}

/// The widest frontage of any element (a large one in a line): how far to one
/// side of a point an element it touches may have its leader, less half its
/// own frontage.
pub const MAX_FRONTAGE: f64 = 7.0;

/// Frontage of an element in inches: by size in a line, narrow in a column.
pub fn frontage(size: Size, formation: Formation) -> f64 {
    // A table by the enums' positions, not a match: every distance on the
    // table asks for two frontages, and the match showed in profiles.
    const BY_SIZE: [f64; 4] = [2.0, 4.0, 6.0, 7.0];
    const COLUMN: f64 = 2.0;
    const _: () = assert!(Size::Tiny as usize == 0 && Size::Large as usize == 3);
    const _: () = assert!(
        BY_SIZE[0] <= MAX_FRONTAGE
            && BY_SIZE[1] <= MAX_FRONTAGE
            && BY_SIZE[2] <= MAX_FRONTAGE
            && BY_SIZE[3] == MAX_FRONTAGE
            && COLUMN <= MAX_FRONTAGE
    );
    match formation {
        Formation::MarchColumn | Formation::Limbered => COLUMN,
        _ => BY_SIZE[size as usize],
    }
}

/// One element in the battle.
#[derive(Debug, Clone)]
pub struct Unit {
    /// Shared with every battle fought from the same [`Prepared`](super::engine::Prepared) set-up.
    pub id: Arc<str>,
    pub name: Arc<str>,
    pub side: Side,
    pub group: usize,
    pub et: ElementType,
    pub size: Size,
    pub weapon: Weapon,
    pub maneuver: u8,
    pub combat_base: u8,
    pub discipline: u8,
    pub morale: u8,
    pub action: u8,
    pub extra: u8,
    pub range: u8,
    pub min_range: u8,
    /// Threat Zone depth: 12", 18" with Rifles.
    pub threat_zone: u8,
    pub marksmen: bool,
    pub german_ranks: bool,
    pub esprit: bool,
    pub preserve: bool,
    pub self_pres: bool,
    pub fear: bool,
    pub inspirational: bool,
    pub vanguard: bool,
    pub carry_on: bool,
    pub scouts: bool,
    pub cumbersome: bool,
    pub fight_formation: Formation,
    pub points: u32,
    pub level: DisciplineLevel,
    pub hits: u32,
    pub dm: u32,
    pub resilient_left: u32,
    pub removed: bool,
    pub left_field: bool,
    pub on_table: bool,
    pub formation: Formation,
    pub loaded: bool,
    /// Across the table, 0" (left) to 72" (right).
    pub x: f64,
    /// Depth, 0" (the attacker's edge) to 48".
    pub y: f64,
    /// +1 when facing the far edge, −1 when facing the near edge.
    pub facing: f64,
    /// The edge it withdraws toward.
    pub home: Home,
    pub start: (f64, f64),
    pub engaged: Option<usize>,
    /// Behind a linear obstacle: cover and defences while it stays put.
    pub defenses: bool,
    pub cover: bool,
    /// The scenario keeps it where it stands (defenders of works and objectives).
    pub pinned: bool,
    /// A stored Maneuver Order (for a Counter-charge).
    pub stored_maneuver: bool,
    /// A stored Combat Order (for a Snap Fire).
    pub stored_combat: bool,
    pub flank_turn: u32,
    pub inspired: bool,
    pub shots_this_activation: u32,
    pub no_orders_turn: u32,
    pub rallied_turn: u32,
}

impl Unit {
    /// A key unique in the battle: `attacker:e3`.
    pub fn key(&self) -> String {
        format!("{}:{}", self.side.id(), self.id)
    }

    /// In play: on the table and not removed.
    pub fn active(&self) -> bool {
        self.on_table && !self.removed
    }
    pub fn is_cavalry(&self) -> bool {
        self.et == ElementType::Cavalry
    }
    pub fn inspiring(&self) -> bool {
        self.inspirational
    }
    /// In March Column and able to form up.
    pub fn needs_deploy(&self) -> bool {
        self.formation == Formation::MarchColumn
    }
    /// Limbered artillery must withdraw from a charge.
    pub fn must_withdraw_from_charge(&self) -> bool {
        self.formation == Formation::Limbered
    }
    pub fn width(&self) -> f64 {
        frontage(self.size, self.formation)
    }
    /// It has a Threat Zone: not in March Column or limbered.
    pub fn threatens(&self) -> bool {
        self.active() && !matches!(self.formation, Formation::MarchColumn | Formation::Limbered)
    }
    /// Still where it started (cover and defences hold only there).
    pub fn unmoved(&self) -> bool {
        (self.x - self.start.0).abs() < 0.01 && (self.y - self.start.1).abs() < 0.01
    }
}

/// A commander.
#[derive(Debug, Clone)]
pub struct Cmd {
    pub id: Arc<str>,
    pub name: Arc<str>,
    pub side: Side,
    /// `None` for the Force Commander.
    pub group: Option<usize>,
    /// Shared: a battle starts from copies of its commanders (see `Prepared`).
    pub rating: Arc<Rating>,
    pub alive: bool,
    pub killed_turn: Option<u32>,
    pub promoted: bool,
    pub cp: u32,
    pub attached_to: Option<usize>,
    pub on_table: bool,
}

/// A group.
#[derive(Debug, Clone)]
pub struct Group {
    pub side: Side,
    pub name: Arc<str>,
    pub commander: Option<usize>,
    pub units: Vec<usize>,
    pub arrives_turn: u32,
    /// Where its elements come on: the first file's point and the edge they face from.
    pub entry: (f64, f64),
    pub entry_home: Home,
    pub flank_entry: bool,
}

/// The battle state the policy may read.
#[derive(Debug, Clone)]
pub struct View {
    pub scenario: ScenarioId,
    pub turn: u32,
    pub units: Vec<Unit>,
    pub cmds: Vec<Cmd>,
    pub groups: Vec<Group>,
    /// Objective markers (x, y).
    pub objectives: Vec<(f64, f64)>,
    pub force_commander: [Option<usize>; 2],
    /// The group being activated, whose commander may spend points now.
    pub active_group: Option<usize>,
    /// Maneuver and Combat Orders the active element has left.
    pub active_orders: (i32, i32),
    /// The nearest enemy of the element a policy is deciding for, and its
    /// distance: set by the engine for the length of one decision (nothing
    /// moves meanwhile), so the policy's many questions scan the table once.
    pub nearest_cache: std::cell::Cell<Option<(usize, usize, f64)>>,
    /// Each side's elements (indexes into `units`, in order), so that a scan
    /// of the enemy or of friends reads only that side.
    pub side_units: [Arc<[usize]>; 2],
    /// Where each side's elements stand, coarsely, so that a scan for
    /// elements near a point reads only those (see [`super::near`]). The
    /// engine keeps it up to date; off for a board built by hand.
    pub near: NearIndex,
}

impl Placed for Unit {
    fn side(&self) -> Side {
        self.side
    }
    fn in_play_at(&self) -> Option<(f64, f64)> {
        self.active().then_some((self.x, self.y))
    }
    fn threat_zone(&self) -> f64 {
        f64::from(self.threat_zone)
    }
}

/// Length of a vector (plain `sqrt`: `f64::hypot` guards against overflow
/// we cannot have on a table, and costs a third of a battle's time).
pub fn norm(dx: f64, dy: f64) -> f64 {
    (dx * dx + dy * dy).sqrt()
}

/// Distance from a point to an element's frontage.
fn point_gap(u: &Unit, p: (f64, f64)) -> f64 {
    let dx = ((u.x - p.0).abs() - u.width() / 2.0).max(0.0);
    norm(dx, u.y - p.1)
}

impl View {
    pub fn element(&self, i: usize) -> &Unit {
        &self.units[i]
    }

    /// Closest distance between two elements' frontages.
    pub fn distance(&self, a: usize, b: usize) -> f64 {
        let (p, q) = (&self.units[a], &self.units[b]);
        let dx = ((p.x - q.x).abs() - (p.width() + q.width()) / 2.0).max(0.0);
        norm(dx, p.y - q.y)
    }

    /// `b` stands in `a`'s Threat Zone: in the strip as wide as `a`'s frontage,
    /// ahead of it, within its Threat Zone depth.
    pub fn in_threat_zone(&self, a: usize, b: usize) -> bool {
        let (p, q) = (&self.units[a], &self.units[b]);
        if !p.threatens() || p.engaged.is_some() {
            return false;
        }
        let ahead = (q.y - p.y) * p.facing;
        ahead > -0.5
            && ahead <= f64::from(p.threat_zone)
            && (q.x - p.x).abs() <= (p.width() + q.width()) / 2.0
    }

    /// `a` is in `t`'s flank: its leader level with or behind `t`'s front.
    pub fn in_flank_of(&self, a: usize, t: usize) -> bool {
        let (p, q) = (&self.units[a], &self.units[t]);
        (p.y - q.y) * q.facing <= 0.0
    }

    /// The elements of a side in play, in order.
    pub fn active_of(&self, side: Side) -> impl Iterator<Item = usize> + '_ {
        self.side_units[sidx(side)]
            .iter()
            .copied()
            .filter(move |&i| self.units[i].active())
    }

    pub fn enemies(&self, me: usize) -> impl Iterator<Item = usize> + '_ {
        self.active_of(self.units[me].side.other())
    }

    fn friends(&self, me: usize) -> impl Iterator<Item = usize> + '_ {
        self.active_of(self.units[me].side)
            .filter(move |&i| i != me)
    }

    /// Keep the index of where elements stand in step after element `i`
    /// moved, came on the table or left play.
    pub fn relocated(&mut self, i: usize) {
        self.near.relocate(&self.units, i);
    }

    /// Whether the index of where elements stand agrees with the elements.
    pub fn near_index_in_step(&self) -> bool {
        self.near.in_step_with(&self.units, &self.side_units)
    }

    /// The elements of a side in play that may stand in `area`: every one
    /// that does and perhaps others, in order (so the caller still tests each).
    /// (The box is worked out only for an indexed side.)
    pub(super) fn side_near(
        &self,
        side: Side,
        area: impl FnOnce() -> Area,
    ) -> impl Iterator<Item = usize> + '_ {
        let mask = if self.near.indexed(side) {
            self.near.mask(side, area())
        } else {
            None
        };
        Near::new(&self.side_units[sidx(side)], mask).filter(move |&i| self.units[i].active())
    }

    /// [`enemies`](Self::enemies) that may stand in `area`.
    fn enemies_near(
        &self,
        me: usize,
        area: impl FnOnce() -> Area,
    ) -> impl Iterator<Item = usize> + '_ {
        self.side_near(self.units[me].side.other(), area)
    }

    /// [`friends`](Self::friends) that may stand in `area`.
    fn friends_near(
        &self,
        me: usize,
        area: impl FnOnce() -> Area,
    ) -> impl Iterator<Item = usize> + '_ {
        self.side_near(self.units[me].side, area)
            .filter(move |&i| i != me)
    }

    /// The box around element `me` in which any element within `inches` of
    /// it (frontage to frontage) has its leader.
    fn reach_of(&self, me: usize, inches: f64) -> Area {
        let u = &self.units[me];
        Area::around(u.x, u.y, inches + (u.width() + MAX_FRONTAGE) / 2.0, inches)
    }

    /// The box in which stands every element of `side` that may have `me` in
    /// its Threat Zone: ahead of it within its Threat Zone's depth, and across
    /// within their two frontages.
    pub(super) fn threat_zones_over(&self, me: usize, side: Side) -> Area {
        let u = &self.units[me];
        let depth = self.near.deepest_threat_zone(side).max(0.5);
        Area::around(u.x, u.y, (u.width() + MAX_FRONTAGE) / 2.0, depth)
    }

    /// The closest of some elements (the first on a tie), and its distance.
    fn closest_with_distance(
        &self,
        me: usize,
        it: impl Iterator<Item = usize>,
    ) -> Option<(usize, f64)> {
        let mut best: Option<(usize, f64)> = None;
        // The best distance squared: a candidate whose squared distance is
        // larger is no nearer (the square root never reverses an order), so
        // the root is taken only for the few that may be.
        let mut best_sq = f64::INFINITY;
        let p = &self.units[me];
        let width = p.width();
        for i in it {
            let q = &self.units[i];
            let dy = q.y - p.y;
            // The depth apart is a floor of the distance: no nearer than the best, skip the rest.
            if best.is_some_and(|(_, bd)| dy.abs() >= bd) {
                continue;
            }
            let dx = ((p.x - q.x).abs() - (width + q.width()) / 2.0).max(0.0);
            let sq = dx * dx + dy * dy;
            if sq > best_sq {
                continue;
            }
            // Exactly `distance(me, i)` (the same sum of the same squares:
            // the depth apart only has its sign turned), so ties fall as they
            // always did.
            let d = sq.sqrt();
            if best.is_none_or(|(_, bd)| d < bd) {
                best = Some((i, d));
                best_sq = sq;
            }
        }
        best
    }

    fn nearest_enemy_with_distance(&self, me: usize) -> Option<(usize, f64)> {
        if let Some((m, t, d)) = self.nearest_cache.get() {
            if m == me {
                return Some((t, d));
            }
        }
        self.find_nearest_enemy(me)
    }

    /// The nearest enemy, as a scan of all of them finds it. The one found
    /// last time, if still in play, bounds the search: no enemy farther than
    /// it can be nearer, so only those in the box of that reach are read (all
    /// the enemies at the least distance among them, in order, so a tie still
    /// falls to the first).
    fn find_nearest_enemy(&self, me: usize) -> Option<(usize, f64)> {
        let side = self.units[me].side;
        let hint = self
            .near
            .nearest_hint
            .get(me)
            .filter(|_| self.near.indexed(side.other()));
        let guess = hint
            .and_then(|h| h.get())
            .filter(|&t| self.units[t].active() && self.units[t].side != side);
        let found = match guess {
            Some(t) => {
                let bound = self.distance(me, t);
                self.closest_with_distance(me, self.enemies_near(me, || self.reach_of(me, bound)))
            }
            None => self.closest_with_distance(me, self.enemies(me)),
        };
        if let (Some(h), Some((t, _))) = (hint, found) {
            h.set(Some(t));
        }
        found
    }

    /// Remember `me`'s nearest enemy while nothing moves (see `nearest_cache`).
    pub fn cache_nearest(&self, me: usize) {
        self.nearest_cache.set(None);
        let found = self.find_nearest_enemy(me);
        self.nearest_cache.set(found.map(|(t, d)| (me, t, d)));
    }

    pub fn nearest_enemy(&self, me: usize) -> Option<usize> {
        self.nearest_enemy_with_distance(me).map(|(t, _)| t)
    }

    pub fn nearest_enemy_distance(&self, me: usize) -> f64 {
        self.nearest_enemy_with_distance(me)
            .map(|(_, d)| d)
            .unwrap_or(f64::INFINITY)
    }

    /// Charge reach of the element's formation (0: cannot charge): twice its move.
    pub fn charge_reach(&self, cat: &Catalogue, me: usize) -> f64 {
        let u = &self.units[me];
        cat.movement(u.et, u.formation, u.weapon)
            .map(|m| f64::from(m.charge))
            .unwrap_or(0.0)
    }

    pub fn advance_rate(&self, cat: &Catalogue, me: usize) -> f64 {
        let u = &self.units[me];
        cat.movement(u.et, u.formation, u.weapon)
            .map(|m| f64::from(m.advance))
            .unwrap_or(0.0)
    }

    /// Enemies in the element's arc of sight: ahead of its front, not level
    /// with it or behind (its flank, which it must turn to face).
    fn ahead(&self, me: usize, t: usize) -> bool {
        let (u, q) = (&self.units[me], &self.units[t]);
        (q.y - u.y) * u.facing > 0.0 || !self.in_flank_of(t, me)
    }

    /// Enemies it may charge by wheeling: ahead of it, or level with its
    /// front to one side (M-98: a wheel of up to a quarter turn into the
    /// enemy's flank, which is how an element beside the end of a line
    /// charges it).
    fn wheels_onto(&self, me: usize, t: usize) -> bool {
        let (u, q) = (&self.units[me], &self.units[t]);
        self.ahead(me, t) || (q.y - u.y).abs() <= LEVEL_INCHES
    }

    /// Every enemy this element may charge now: not already fighting, ahead of it or level
    /// with it (M-98), within its charge reach, of a size and in a state it may charge (R-28;
    /// an Exhausted element only into a flank).
    pub fn charge_targets<'a>(
        &'a self,
        cat: &Catalogue,
        me: usize,
    ) -> impl Iterator<Item = usize> + 'a {
        let u = &self.units[me];
        let reach = if u.engaged.is_some() {
            0.0
        } else {
            self.charge_reach(cat, me)
        };
        // M-99: the charge goes in against the closest enemy (found only
        // once some enemy is in reach).
        let closest = std::cell::OnceCell::new();
        self.enemies_near(me, move || self.reach_of(me, reach))
            .filter(move |&t| {
                let q = &self.units[t];
                // The depth apart first: it is a floor of the distance and cheap.
                reach > 0.0
                    && q.engaged.is_none()
                    && (q.y - u.y).abs() <= reach
                    && self.wheels_onto(me, t)
                    && self.distance(me, t) <= reach
                    && {
                        let flank = self.in_flank_of(me, t) || u.flank_turn == self.turn;
                        charge_permission(u.et, u.size, u.formation, u.level, u.fear, q.size, flank)
                            .is_ok()
                    }
                    && {
                        let (in_zone, bound) =
                            *closest.get_or_init(|| self.closest_charge_bound(me));
                        (!in_zone || self.in_threat_zone(me, t))
                            && self.distance(me, t) <= bound + CLOSEST_TIE_INCHES
                    }
            })
    }

    /// M-99: whether an enemy stands in `me`'s Threat Zone, and the distance
    /// of the closest enemy there (or, with none there, the closest it may
    /// wheel onto): a charge may only go in against an enemy that close.
    /// Enemies locked in melee are left out (the simulator never charges
    /// into a melee).
    fn closest_charge_bound(&self, me: usize) -> (bool, f64) {
        // The nearest enemy, when it is free and in the zone, is the answer.
        if let Some((t, d)) = self.nearest_enemy_with_distance(me) {
            if self.units[t].engaged.is_none() && self.in_threat_zone(me, t) {
                return (true, d);
            }
        }
        let free = |t: &usize| self.units[*t].engaged.is_none();
        let in_zone = self
            .enemies(me)
            .filter(free)
            .filter(|&t| self.in_threat_zone(me, t))
            .map(|t| self.distance(me, t))
            .reduce(f64::min);
        if let Some(d) = in_zone {
            return (true, d);
        }
        let d = self
            .enemies(me)
            .filter(free)
            .filter(|&t| self.wheels_onto(me, t))
            .map(|t| self.distance(me, t))
            .fold(f64::INFINITY, f64::min);
        (false, d)
    }

    /// Whether a friend stands in the fire zone between `me` and `t`.
    fn fire_zone_blocked(&self, me: usize, t: usize) -> bool {
        let (u, q) = (&self.units[me], &self.units[t]);
        let (dx, dy) = (q.x - u.x, q.y - u.y);
        let len2 = dx * dx + dy * dy;
        if len2 < 1e-9 {
            return false;
        }
        // A friend can only stand in the lane within its box (widened by an
        // inch, more than the half-inch the test allows and any rounding):
        // outside it the test below cannot pass, so it is not taken.
        let (lo_y, hi_y) = (u.y.min(q.y) - 1.0, u.y.max(q.y) + 1.0);
        let (lo_x, hi_x) = (u.x.min(q.x) - 1.0, u.x.max(q.x) + 1.0);
        let widest = (MAX_FRONTAGE + u.width()) / 2.0;
        let lane = || Area {
            x: (lo_x - widest - 1.0, hi_x + widest + 1.0),
            y: (lo_y - 1.0, hi_y + 1.0),
        };
        self.friends_near(me, lane).any(|f| {
            let p = &self.units[f];
            let reach = (p.width() + u.width()) / 2.0;
            if p.y < lo_y || p.y > hi_y || p.x < lo_x - reach || p.x > hi_x + reach {
                return false;
            }
            let s = ((p.x - u.x) * dx + (p.y - u.y) * dy) / len2;
            if s <= 0.0 || s >= 1.0 {
                return false;
            }
            let (cx, cy) = (u.x + s * dx, u.y + s * dy);
            let off = ((p.x - cx).abs() - (p.width() + u.width()) / 2.0).max(0.0);
            norm(off, p.y - cy) < 0.5
        })
    }

    /// Whether `me` may shoot at `t` now: loaded, formed, in range and arc,
    /// the target not in a melee, no friend in the fire zone, and for mortars
    /// and rockets no friend within 6" of the target.
    pub fn may_shoot_at(&self, cat: &Catalogue, me: usize, t: usize) -> bool {
        let u = &self.units[me];
        let q = &self.units[t];
        if !u.loaded
            || u.engaged.is_some()
            || matches!(u.formation, Formation::MarchColumn | Formation::Limbered)
            || !q.active()
            || q.engaged.is_some()
        {
            return false;
        }
        let d = self.distance(me, t);
        if d > f64::from(u.range) || d < f64::from(u.min_range) || !self.ahead(me, t) {
            return false;
        }
        if self.fire_zone_blocked(me, t) {
            return false;
        }
        if matches!(u.weapon, Weapon::SiegeMortar | Weapon::Rockets)
            && self.friends(me).any(|f| {
                self.distance(f, t) <= f64::from(cat.numbers().indirect_fire_clearance_inches)
            })
        {
            return false;
        }
        true
    }

    /// The target a shot must take: the closest enemy it may shoot at (the
    /// first in the list on a tie).
    pub fn shoot_target(&self, cat: &Catalogue, me: usize) -> Option<usize> {
        let u = &self.units[me];
        if !u.loaded
            || u.engaged.is_some()
            || matches!(u.formation, Formation::MarchColumn | Formation::Limbered)
        {
            return None;
        }
        // Candidates in order of (distance, index), each checked in full
        // only until one passes: the full check scans every friend for the
        // fire zone, so it runs once or twice, not per enemy.
        let in_reach = |t: usize| {
            let q = &self.units[t];
            if (q.y - u.y).abs() > f64::from(u.range) {
                return None;
            }
            let d = self.distance(me, t);
            (q.engaged.is_none()
                && d <= f64::from(u.range)
                && d >= f64::from(u.min_range)
                && self.ahead(me, t))
            .then_some((d, t))
        };
        // The next candidate after `after` in that order, found by a scan
        // (nothing to allocate; the first candidate nearly always passes).
        // Its distance is taken only for enemies that may be nearer than the
        // best so far: a larger squared distance never has a smaller root.
        let range = f64::from(u.range);
        let width = u.width();
        // Only enemies within range of it may be shot at.
        let area = || self.reach_of(me, range);
        let next_after = |after: Option<(f64, usize)>| {
            let mut best: Option<(f64, usize)> = None;
            let mut best_sq = f64::INFINITY;
            for t in self.enemies_near(me, area) {
                let q = &self.units[t];
                let dy = q.y - u.y;
                if dy.abs() > range {
                    continue;
                }
                let dx = ((u.x - q.x).abs() - (width + q.width()) / 2.0).max(0.0);
                let sq = dx * dx + dy * dy;
                if dx > range || sq > best_sq {
                    continue;
                }
                let Some(c) = in_reach(t) else {
                    continue;
                };
                let later = after.is_none_or(|a| c.0.total_cmp(&a.0).then(c.1.cmp(&a.1)).is_gt());
                // Enemies come in index order, so an equal distance is no better.
                if later && best.is_none_or(|b| c.0 < b.0) {
                    best = Some(c);
                    best_sq = sq;
                }
            }
            best
        };
        let mut after = None;
        while let Some(c) = next_after(after) {
            if self.may_shoot_at(cat, me, c.1) {
                return Some(c.1);
            }
            after = Some(c);
        }
        None
    }

    /// Whether an enemy stands within `inches` of `me` (closer than it, not
    /// at it): the question a move that must keep off the enemy asks after
    /// every step, cheaper than finding the nearest.
    pub fn enemy_closer_than(&self, me: usize, inches: f64) -> bool {
        let y = self.units[me].y;
        self.enemies_near(me, || self.reach_of(me, inches))
            .any(|t| (self.units[t].y - y).abs() < inches && self.distance(me, t) < inches)
    }

    /// Worth spending a Maneuver on reloading: unloaded, able to, and an enemy
    /// within reach of its weapon or closing.
    pub fn can_reload(&self, me: usize) -> bool {
        let u = &self.units[me];
        !u.loaded
            && u.formation != Formation::Limbered
            && !(u.cumbersome && u.et == ElementType::Cavalry)
            && self.nearest_enemy_distance(me) <= f64::from(u.range) + 12.0
    }

    /// Whether the element should stay where it is: the scenario pins it, or it
    /// is a gun or a rifle element with a target in range.
    pub fn should_hold_ground(&self, me: usize) -> bool {
        let u = &self.units[me];
        if u.pinned {
            return true;
        }
        if u.et == ElementType::Artillery || u.fear {
            return self.nearest_enemy_distance(me) <= f64::from(u.range);
        }
        false
    }

    /// Where the element heads: the closest enemy, else the closest objective
    /// it does not hold yet.
    pub fn goal(&self, me: usize) -> Option<(f64, f64)> {
        if let Some(t) = self.nearest_enemy(me) {
            let q = &self.units[t];
            return Some((q.x, q.y));
        }
        let u = &self.units[me];
        self.objectives
            .iter()
            .copied()
            .filter(|o| point_gap(u, *o) > 3.0)
            .min_by(|a, b| {
                point_gap(u, *a)
                    .partial_cmp(&point_gap(u, *b))
                    .unwrap_or(std::cmp::Ordering::Equal)
            })
    }

    /// Whether a friend of `t` stands at its end on side `s` (±1 along the
    /// table's width), so that end is no open flank.
    fn end_covered(&self, t: usize, s: f64) -> bool {
        let q = &self.units[t];
        let beside = || Area::around(q.x, q.y, (q.width() + MAX_FRONTAGE) / 2.0 + 4.0, 6.0);
        self.friends_near(t, beside).any(|f| {
            let o = &self.units[f];
            (o.x - q.x) * s > 0.0
                && (o.x - q.x).abs() < q.width() / 2.0 + o.width() / 2.0 + 4.0
                && (o.y - q.y).abs() < 6.0
        })
    }

    /// Points level with enemy `t` beyond an open end of its line, from which
    /// `me` can wheel into its flank (M-98): within `me`'s charge reach of it,
    /// as near to `me` as that allows. The side nearer `me` comes first.
    pub fn flank_stations(
        &self,
        cat: &Catalogue,
        me: usize,
        t: usize,
    ) -> impl Iterator<Item = (f64, f64)> + '_ {
        let (u, q) = (&self.units[me], &self.units[t]);
        let reach = self.charge_reach(cat, me);
        let mut sides = [-1.0, 1.0];
        if u.x > q.x {
            sides.swap(0, 1);
        }
        sides
            .into_iter()
            .filter(move |&s| reach > 0.0 && !self.end_covered(t, s))
            .filter_map(move |s: f64| {
                let beside = q.width() / 2.0 + u.width() / 2.0;
                let gap = ((u.x - q.x) * s - beside).clamp(1.0, (reach - 1.5).max(1.0));
                let x = q.x + s * (beside + gap);
                (0.0..=TABLE_WIDTH).contains(&x).then_some((x, q.y))
            })
    }

    /// Whether `t` is worn: not Fit, disordered, or halfway to a Discipline Test.
    pub fn worn(&self, t: usize) -> bool {
        let q = &self.units[t];
        q.level != DisciplineLevel::Fit || q.dm > 0 || 2 * q.hits >= u32::from(q.discipline)
    }

    /// An objective this element stands on and should keep: no other friend
    /// holds it.
    pub fn guards_objective(&self, cat: &Catalogue, me: usize) -> bool {
        let r = f64::from(cat.numbers().objective_inches);
        let u = &self.units[me];
        let last = u32::from(cat.tables().game_length_turns);
        if u.is_cavalry()
            || self.turn + 1 < last
            || !matches!(u.level, DisciplineLevel::Fit | DisciplineLevel::Shaken)
        {
            return false;
        }
        self.objectives.iter().any(|o| {
            point_gap(u, *o) <= r
                && !self.friends(me).any(|f| {
                    f < me
                        && matches!(
                            self.units[f].level,
                            DisciplineLevel::Fit | DisciplineLevel::Shaken
                        )
                        && point_gap(&self.units[f], *o) <= r
                })
        })
    }

    /// Whether a move toward its goal is possible and useful.
    pub fn can_advance(&self, cat: &Catalogue, me: usize) -> bool {
        let u = &self.units[me];
        if u.engaged.is_some() || !self.moves_at_all(me) || self.advance_rate(cat, me) <= 0.0 {
            return false;
        }
        // Exhausted elements inside a Threat Zone may not close (R-19 table).
        if u.level == DisciplineLevel::Exhausted
            && self.enemies(me).any(|t| self.in_threat_zone(t, me))
        {
            return false;
        }
        match self.goal(me) {
            Some(g) => {
                let near = self
                    .nearest_enemy(me)
                    .map(|t| self.distance(me, t))
                    .unwrap_or(f64::INFINITY);
                near > 1.5 && point_gap(u, g) > 1.5
            }
            None => false,
        }
    }

    fn moves_at_all(&self, me: usize) -> bool {
        let u = &self.units[me];
        // Guns in battery stay there (M-19).
        !(u.et == ElementType::Artillery && u.formation == Formation::Unlimbered)
    }

    /// The element faces away from the closest enemy, which is behind it.
    pub fn enemy_behind(&self, me: usize) -> bool {
        match self.nearest_enemy(me) {
            Some(t) => {
                let (u, q) = (&self.units[me], &self.units[t]);
                (q.y - u.y) * u.facing < -1.0 && self.distance(me, t) <= 24.0
            }
            None => false,
        }
    }

    /// Both sides of a melee between `a` (charging when `a_charges`) and `b`.
    pub fn melee_sides(
        &self,
        cat: &Catalogue,
        a: usize,
        b: usize,
        a_charges: bool,
    ) -> (MeleeSide, MeleeSide) {
        let flank = self.in_flank_of(a, b) || self.units[a].flank_turn == self.turn;
        let mut sa = self.melee_side_with(cat, a, b, flank, None, None);
        let mut sb = self.melee_side_with(cat, b, a, false, None, None);
        sa.initiated = a_charges;
        if a_charges {
            sa.reroll_misses = self.units[a].inspired || self.units[a].inspirational;
        } else {
            sa.counter_charged = true;
        }
        sb.initiated = false;
        (sa, sb)
    }

    /// The melee a Counter-charge by `counter` brings on, as the engine fights
    /// it: the active element `active` starts it with its Combat Order, the
    /// counter-charger adds its die (sides in that order).
    pub fn counter_charge_sides(
        &self,
        cat: &Catalogue,
        counter: usize,
        active: usize,
    ) -> (MeleeSide, MeleeSide) {
        let flank_a =
            self.in_flank_of(active, counter) || self.units[active].flank_turn == self.turn;
        let mut sa = self.melee_side_with(cat, active, counter, flank_a, None, None);
        let flank_c = self.in_flank_of(counter, active);
        let mut sc = self.melee_side_with(cat, counter, active, flank_c, None, None);
        sa.initiated = true;
        sa.reroll_misses = self.units[active].inspired;
        sc.initiated = false;
        sc.counter_charged = true;
        (sa, sc)
    }

    /// The melee as it will be fought if `a` charges `b` from where it
    /// stands: `a` moved into contact first, so its support is counted from
    /// there (the charge is judged at the positions it is fought from).
    pub fn charge_sides(&self, cat: &Catalogue, a: usize, b: usize) -> (MeleeSide, MeleeSide) {
        let flank = self.in_flank_of(a, b) || self.units[a].flank_turn == self.turn;
        let (x, y) = contact_point(&self.units[a], &self.units[b]);
        let moved = Some((a, (x, y)));
        let mut sa = self.melee_side_with(cat, a, b, flank, moved, None);
        let sb = self.melee_side_with(cat, b, a, false, moved, None);
        sa.initiated = true;
        sa.reroll_misses = self.units[a].inspired || self.units[a].inspirational;
        (sa, sb)
    }

    /// One side of a melee, and which friends support it: up to three,
    /// in the engaged element's flank (level with or behind its front) and
    /// within 6" of it; close support (all its Action dice, compulsory) for a
    /// supporter within 1" of, or in the Threat Zone of, the enemy in the melee.
    pub fn melee_side(
        &self,
        cat: &Catalogue,
        me: usize,
        foe: usize,
        flank: bool,
    ) -> (MeleeSide, Vec<usize>) {
        self.melee_side_at(cat, me, foe, flank, None)
    }

    /// [`melee_side`](Self::melee_side) with one element (the charger)
    /// standing somewhere else: `moved` is its index and position.
    fn melee_side_at(
        &self,
        cat: &Catalogue,
        me: usize,
        foe: usize,
        flank: bool,
        moved: Option<(usize, (f64, f64))>,
    ) -> (MeleeSide, Vec<usize>) {
        let mut ids = Vec::new();
        let side = self.melee_side_with(cat, me, foe, flank, moved, Some(&mut ids));
        (side, ids)
    }

    /// One side of a melee; its supporters' indexes go to `ids` when asked
    /// for (the policy's many judgements of a charge do not need them).
    fn melee_side_with(
        &self,
        cat: &Catalogue,
        me: usize,
        foe: usize,
        flank: bool,
        moved: Option<(usize, (f64, f64))>,
        ids: Option<&mut Vec<usize>>,
    ) -> MeleeSide {
        let pos = |i: usize| -> (f64, f64) {
            match moved {
                Some((m, p)) if m == i => p,
                _ => (self.units[i].x, self.units[i].y),
            }
        };
        let u = &self.units[me];
        let n = cat.numbers();
        let (ux, uy) = pos(me);
        let (fx, fy) = pos(foe);
        // Frontage-to-frontage distance from element `i` (where it stands) to a point.
        let gap = |i: usize, px: f64, py: f64, w: f64| -> f64 {
            let o = &self.units[i];
            let dx = ((o.x - px).abs() - (o.width() + w) / 2.0).max(0.0);
            norm(dx, o.y - py)
        };
        let foe_u = &self.units[foe];
        let support = f64::from(n.support_inches);
        let within = || Area::around(ux, uy, support + (u.width() + MAX_FRONTAGE) / 2.0, support);
        let candidates = self
            .friends_near(me, within)
            .filter(|&i| self.units[i].engaged.is_none())
            .filter(|&i| (self.units[i].y - uy) * u.facing <= 0.5)
            // The depth apart is a floor of the gap: a cheap first look.
            .filter(|&i| (self.units[i].y - uy).abs() <= support)
            .filter(|&i| gap(i, ux, uy, u.width()) <= support)
            .map(|i| {
                let s = &self.units[i];
                let ahead = (s.y - fy) * foe_u.facing;
                let in_foe_tz = foe_u.threatens()
                    && ahead > -0.5
                    && ahead <= f64::from(foe_u.threat_zone)
                    && (s.x - fx).abs() <= (foe_u.width() + s.width()) / 2.0;
                let close =
                    gap(i, fx, fy, foe_u.width()) <= f64::from(n.close_support_inches) || in_foe_tz;
                (
                    i,
                    Supporter {
                        action: s.action,
                        extra_dice: s.extra,
                        disorder_markers: s.dm,
                        close,
                        level: s.level,
                        formation: s.formation,
                    },
                )
            })
            .filter(|(_, s)| s.eligible());
        // The first `max_supporters` by R-18's choice — close support first,
        // then more dice, then the earlier in the list — kept in order as they
        // come: what sorting all of them by that key and cutting the list gives.
        let keep = usize::from(n.max_supporters);
        let mut supporters: Vec<Supporter> = Vec::new();
        let mut ids = ids;
        let rank = |s: &Supporter| (s.close, s.dice());
        for (i, c) in candidates {
            // Candidates come in list order: one ranked equal to a kept one goes after it.
            let at = supporters
                .iter()
                .position(|b| rank(&c) > rank(b))
                .unwrap_or(supporters.len());
            if at >= keep {
                continue;
            }
            if supporters.len() == keep {
                supporters.pop();
                if let Some(ids) = ids.as_deref_mut() {
                    ids.pop();
                }
            }
            if supporters.capacity() == 0 {
                supporters.reserve_exact(keep);
            }
            supporters.insert(at, c);
            if let Some(ids) = ids.as_deref_mut() {
                ids.insert(at, i);
            }
        }
        MeleeSide {
            element_type: u.et,
            action: u.action,
            extra_dice: u.extra,
            level: u.level,
            formation: u.formation,
            disorder_markers: u.dm,
            initiated: false,
            flank,
            counter_charged: false,
            supporters,
            in_spi: self.in_spi(me),
            commander_attached: self.attached_commander(me).is_some(),
            defenses: u.defenses && u.unmoved(),
            high_ground: false,
            self_preservation: u.self_pres,
            in_building: false,
            reroll_misses: false,
        }
    }

    pub fn attached_commander(&self, me: usize) -> Option<usize> {
        self.cmds
            .iter()
            .position(|c| c.alive && c.attached_to == Some(me))
    }

    /// The group commander's position: the middle of the group's elements
    /// on the table (M-19).
    pub fn group_centre(&self, g: usize) -> Option<(f64, f64)> {
        // From −0.0, as `Iterator::sum` starts, so the result is the same to the bit.
        let (mut n, mut x, mut y) = (0usize, -0.0f64, -0.0f64);
        for u in self.groups[g].units.iter().map(|&i| &self.units[i]) {
            if u.active() {
                n += 1;
                x += u.x;
                y += u.y;
            }
        }
        (n > 0).then(|| (x / n as f64, y / n as f64))
    }

    /// Inside its Group Commander's sphere of influence.
    pub fn in_spi(&self, me: usize) -> bool {
        let u = &self.units[me];
        let Some(c) = self.groups[u.group].commander else {
            return false;
        };
        let cmd = &self.cmds[c];
        if !cmd.alive {
            return false;
        }
        if let Some(a) = cmd.attached_to {
            return a == me || self.distance(a, me) <= f64::from(cmd.rating.spi);
        }
        match self.group_centre(u.group) {
            Some(p) => point_gap(u, p) <= f64::from(cmd.rating.spi),
            None => false,
        }
    }

    /// The commander may use special orders on the element: it is inside
    /// his SPI (Group Commander) or he is the Force Commander (M-19).
    pub fn in_spi_or_fc(&self, i: usize, c: usize) -> bool {
        if self.cmds[c].group.is_none() {
            return true;
        }
        self.in_spi(i)
    }

    /// Whether `target` may counter-charge `charger` (R-28 and the
    /// Counter-charge rules): its type may, it can charge at all and reach
    /// it, and it passes no test to do so.
    pub fn may_counter_charge(&self, cat: &Catalogue, target: usize, charger: usize) -> bool {
        let t = &self.units[target];
        let c = &self.units[charger];
        t.engaged.is_none()
            && counter_charge_allowed(t.et, c.et)
            && self.charge_reach(cat, target) >= self.distance(target, charger)
            && charge_permission(t.et, t.size, t.formation, t.level, t.fear, c.size, false)
                .map(|p| !p.disorder_test && !p.morale_test)
                .unwrap_or(false)
    }

    /// Whether an element with a stored Maneuver Order may counter-charge the
    /// active element that ended an order in its Threat Zone: infantry only
    /// against infantry within 6", cavalry against infantry or cavalry within
    /// 12" (the book's Counter-charge conditions).
    pub fn stored_counter_charge(&self, cat: &Catalogue, me: usize, active: usize) -> bool {
        let u = &self.units[me];
        if !u.stored_maneuver || !self.in_threat_zone(me, active) {
            return false;
        }
        let n = cat.numbers();
        let limit = f64::from(if u.is_cavalry() {
            n.cavalry_counter_charge_inches
        } else {
            n.infantry_counter_charge_inches
        });
        self.distance(me, active) <= limit && self.may_counter_charge(cat, me, active)
    }

    pub fn can_closing_fire(&self, target: usize, charger: usize) -> bool {
        let t = &self.units[target];
        t.loaded
            && !matches!(t.formation, Formation::MarchColumn | Formation::Limbered)
            && self.distance(target, charger) <= f64::from(t.range)
            && self.distance(target, charger) >= f64::from(t.min_range)
            && self.ahead(target, charger)
    }

    pub fn may_withdraw(&self, target: usize) -> bool {
        let t = &self.units[target];
        !(t.et == ElementType::Artillery && t.formation == Formation::Unlimbered)
    }

    pub fn worth_rallying(&self, me: usize) -> bool {
        let u = &self.units[me];
        (u.level == DisciplineLevel::Exhausted && u.hits == 0)
            || (u.discipline > 1 && u.hits + 1 >= u.discipline.into())
            || u.dm >= 2
    }

    /// A Fit friend within 6" in its flank (R-20's support for Morale Tests).
    pub fn supported(&self, cat: &Catalogue, me: usize) -> bool {
        let u = &self.units[me];
        let inches = f64::from(cat.numbers().morale_support_inches);
        self.friends_near(me, || self.reach_of(me, inches))
            .any(|f| {
                let o = &self.units[f];
                o.level == DisciplineLevel::Fit
                    && (o.y - u.y) * u.facing <= 0.5
                    && self.distance(f, me) <= f64::from(cat.numbers().morale_support_inches)
            })
    }

    /// Whether an element is broken for its group.
    fn unit_broken(&self, i: usize) -> bool {
        let u = &self.units[i];
        element_counts_as_broken(u.level, u.removed)
    }

    /// broken elements outnumber the rest (reserves count).
    pub fn group_broken(&self, g: usize) -> bool {
        let total = self.groups[g].units.len();
        let broken = self.groups[g]
            .units
            .iter()
            .filter(|&&i| self.unit_broken(i))
            .count();
        group_is_broken(broken, total)
    }

    /// Broken groups and all groups of a side.
    pub fn broken_groups(&self, side: Side) -> (usize, usize) {
        let (mut broken, mut all) = (0, 0);
        for g in (0..self.groups.len()).filter(|&g| self.groups[g].side == side) {
            all += 1;
            if self.group_broken(g) {
                broken += 1;
            }
        }
        (broken, all)
    }

    /// more broken groups than unbroken ones.
    pub fn force_broken(&self, side: Side) -> bool {
        let (broken, all) = self.broken_groups(side);
        broken > all - broken
    }

    /// Points lost so far.
    pub fn points_lost(&self, side: Side) -> u32 {
        self.units
            .iter()
            .filter(|u| u.side == side && element_counts_as_broken(u.level, u.removed))
            .map(|u| u.points)
            .sum()
    }

    /// Objectives held: an element Fit or Shaken within 6", and none of the enemy's.
    pub fn objectives_held(&self, cat: &Catalogue, side: Side) -> u32 {
        let r = f64::from(cat.numbers().objective_inches);
        let near = |s: Side, o: &(f64, f64)| {
            self.units.iter().any(|u| {
                u.side == s
                    && u.active()
                    && matches!(u.level, DisciplineLevel::Fit | DisciplineLevel::Shaken)
                    && point_gap(u, *o) <= r
            })
        };
        self.objectives
            .iter()
            .filter(|o| near(side, o) && !near(side.other(), o))
            .count() as u32
    }
}

/// Where a charger ends up in contact with its target: against the side of
/// the target it comes from, its frontage overlapping the target's.
pub fn contact_point(a: &Unit, t: &Unit) -> (f64, f64) {
    let reach_x = (a.width() + t.width()) / 2.0 - 0.5;
    let dx = (a.x - t.x).clamp(-reach_x.max(0.0), reach_x.max(0.0));
    let dy = a.y - t.y;
    let y = if dy.abs() < 0.5 {
        t.y
    } else {
        t.y + dy.signum() * 0.5
    };
    (t.x + dx, y)
}

pub(super) fn u_marksmen(v: &View, s: usize) -> bool {
    v.units[s].marksmen
}
