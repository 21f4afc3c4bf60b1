//! The simulator's board: the abstract battlefield of three sectors across
//! the table and a depth axis between the two edges (see
//! `docs/simulator.md`), the elements, commanders and groups on it, and the
//! read-only queries a policy makes of it.

use crate::rules::systems::lotf::battle::ScenarioId;
use crate::rules::systems::lotf::catalogue::Catalogue;
use crate::rules::systems::lotf::combat::{
    charge_permission, counter_charge_allowed, element_counts_as_broken, group_is_broken,
    MeleeSide, Rating, Side, Supporter,
};
use crate::rules::systems::lotf::types::{DisciplineLevel, ElementType, Formation, Size, Weapon};

use crate::rules::battlefield::{self, Edge};
pub use crate::rules::battlefield::{sector_for, TABLE_DEPTH};

/// How a side plays a scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Posture {
    /// Move on the enemy and the objectives.
    Advance,
    /// Stay on the objectives or behind the defences and shoot.
    Hold,
}

/// One element in the battle.
#[derive(Debug, Clone)]
pub struct Unit {
    pub id: String,
    pub name: String,
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
    pub sector: i32,
    pub y: f64,
    pub start_y: f64,
    pub engaged: Option<usize>,
    pub defenses: bool,
    pub cover: bool,
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
    /// The attacker starts from the near edge of the battlefield, the defender from the far.
    pub(super) fn start_edge(&self) -> Edge {
        match self.side {
            Side::Attacker => Edge::Near,
            Side::Defender => Edge::Far,
        }
    }
    pub(super) fn forward(&self) -> f64 {
        self.start_edge().forward()
    }
    pub(super) fn edge(&self) -> f64 {
        self.start_edge().depth()
    }
}

/// A commander.
#[derive(Debug, Clone)]
pub struct Cmd {
    pub id: String,
    pub name: String,
    pub side: Side,
    /// `None` for the Force Commander.
    pub group: Option<usize>,
    pub rating: Rating,
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
    pub name: String,
    pub commander: Option<usize>,
    pub units: Vec<usize>,
    pub arrives_turn: u32,
    pub entry_sector: i32,
    pub entry_y: Option<f64>,
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
    pub objectives: Vec<(i32, f64)>,
    pub postures: [Posture; 2],
    pub force_commander: [Option<usize>; 2],
}

pub(super) fn sidx(s: Side) -> usize {
    match s {
        Side::Attacker => 0,
        Side::Defender => 1,
    }
}

impl View {
    pub fn element(&self, i: usize) -> &Unit {
        &self.units[i]
    }

    /// Distance between two elements (M-19).
    pub fn distance(&self, a: usize, b: usize) -> f64 {
        let (x, y) = (&self.units[a], &self.units[b]);
        battlefield::distance((x.sector, x.y), (y.sector, y.y))
    }

    fn enemies(&self, me: usize) -> impl Iterator<Item = usize> + '_ {
        let side = self.units[me].side;
        (0..self.units.len()).filter(move |&i| self.units[i].side != side && self.units[i].active())
    }

    pub fn nearest_enemy(&self, me: usize) -> Option<usize> {
        self.enemies(me).min_by(|&a, &b| {
            self.distance(me, a)
                .partial_cmp(&self.distance(me, b))
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(a.cmp(&b))
        })
    }

    pub fn nearest_enemy_distance(&self, me: usize) -> f64 {
        self.nearest_enemy(me)
            .map(|e| self.distance(me, e))
            .unwrap_or(f64::INFINITY)
    }

    /// Charge reach of the element's formation (0: cannot charge).
    pub fn charge_reach(&self, cat: &Catalogue, me: usize) -> f64 {
        let u = &self.units[me];
        cat.movement(u.et, u.formation, u.weapon)
            .map(|m| f64::from(m.charge))
            .unwrap_or(0.0)
    }

    pub(super) fn advance_rate(&self, cat: &Catalogue, me: usize) -> f64 {
        let u = &self.units[me];
        cat.movement(u.et, u.formation, u.weapon)
            .map(|m| f64::from(m.advance))
            .unwrap_or(0.0)
    }

    /// The enemy this element could charge now, if any: the nearest in its
    /// sector, within reach, not already fighting, and of a size it may charge
    ///
    pub fn charge_target(&self, cat: &Catalogue, me: usize) -> Option<usize> {
        let u = &self.units[me];
        if u.engaged.is_some() {
            return None;
        }
        let reach = self.charge_reach(cat, me);
        if reach <= 0.0 {
            return None;
        }
        let t = self
            .enemies(me)
            .filter(|&t| self.units[t].sector == u.sector && self.units[t].engaged.is_none())
            .min_by(|&a, &b| {
                self.distance(me, a)
                    .partial_cmp(&self.distance(me, b))
                    .unwrap_or(std::cmp::Ordering::Equal)
            })?;
        if self.distance(me, t) > reach {
            return None;
        }
        let flank = u.flank_turn == self.turn;
        charge_permission(
            u.et,
            u.size,
            u.formation,
            u.level,
            u.fear,
            self.units[t].size,
            flank,
        )
        .ok()
        .map(|_| t)
    }

    /// The target a shot must take: the nearest enemy in range that is not
    /// locked in a melee.
    pub fn shoot_target(&self, me: usize) -> Option<usize> {
        let u = &self.units[me];
        if !u.loaded
            || u.engaged.is_some()
            || u.formation == Formation::MarchColumn
            || u.formation == Formation::Limbered
        {
            return None;
        }
        self.enemies(me)
            .filter(|&t| self.units[t].engaged.is_none())
            .filter(|&t| {
                let d = self.distance(me, t);
                d <= f64::from(u.range) && d >= f64::from(u.min_range)
            })
            .min_by(|&a, &b| {
                self.distance(me, a)
                    .partial_cmp(&self.distance(me, b))
                    .unwrap_or(std::cmp::Ordering::Equal)
            })
    }

    /// Worth spending a Maneuver on reloading: unloaded, and an enemy within
    /// reach of its weapon or closing.
    pub fn can_reload(&self, me: usize) -> bool {
        let u = &self.units[me];
        !u.loaded
            && u.formation != Formation::Limbered
            && self.nearest_enemy_distance(me) <= f64::from(u.range) + 12.0
    }

    /// Whether the element should stay where it is.
    pub fn should_hold_ground(&self, me: usize) -> bool {
        let u = &self.units[me];
        if self.postures[sidx(u.side)] == Posture::Hold {
            return true;
        }
        if u.et == ElementType::Artillery {
            return self.nearest_enemy_distance(me) <= f64::from(u.range);
        }
        // Riflemen and others that fear cold steel keep their distance.
        u.fear && self.nearest_enemy_distance(me) <= f64::from(u.range)
    }

    /// Shift sector when no enemy is in this one but some are elsewhere.
    pub fn shift_direction(&self, me: usize) -> Option<i8> {
        let u = &self.units[me];
        if self.enemies(me).any(|t| self.units[t].sector == u.sector) {
            return None;
        }
        // An objective still to take in this sector comes first.
        if self.objective_goal(me).is_some() {
            return None;
        }
        let t = self.nearest_enemy(me)?;
        let ts = self.units[t].sector;
        if ts > u.sector {
            Some(1)
        } else if ts < u.sector {
            Some(-1)
        } else {
            None
        }
    }

    fn objective_goal(&self, me: usize) -> Option<f64> {
        let u = &self.units[me];
        if !self.scenario.uses_objectives() {
            return None;
        }
        self.objectives
            .iter()
            .filter(|(s, y)| *s == u.sector && (u.y - y).abs() > 3.0)
            .map(|(_, y)| *y)
            .min_by(|a, b| {
                (u.y - a)
                    .abs()
                    .partial_cmp(&(u.y - b).abs())
                    .unwrap_or(std::cmp::Ordering::Equal)
            })
    }

    /// Whether a forward move is possible and useful.
    pub fn can_advance(&self, me: usize) -> bool {
        let u = &self.units[me];
        if u.engaged.is_some() || self.advance_rate_raw(me) <= 0.0 {
            return false;
        }
        let gap = self.gap_ahead(me);
        if gap <= 1.0 {
            return false;
        }
        // Exhausted elements inside a Threat Zone may not close (R-19 table).
        if u.level == DisciplineLevel::Exhausted && self.nearest_enemy_distance(me) <= 12.0 {
            return false;
        }
        self.goal_y(me)
            .map(|g| (g - u.y).abs() > 0.5)
            .unwrap_or(false)
    }

    fn advance_rate_raw(&self, me: usize) -> f64 {
        let u = &self.units[me];
        if u.et == ElementType::Artillery && u.formation == Formation::Unlimbered {
            return 0.0; // guns stay in battery in this abstraction (M-19)
        }
        1.0
    }

    /// Free ground ahead before touching an enemy in the sector.
    pub(super) fn gap_ahead(&self, me: usize) -> f64 {
        let u = &self.units[me];
        self.enemies(me)
            .filter(|&t| self.units[t].sector == u.sector)
            .map(|t| (self.units[t].y - u.y) * u.forward())
            .filter(|d| *d >= 0.0)
            .fold(f64::INFINITY, f64::min)
    }

    pub(super) fn goal_y(&self, me: usize) -> Option<f64> {
        let u = &self.units[me];
        let in_sector = self
            .enemies(me)
            .filter(|&t| self.units[t].sector == u.sector)
            .min_by(|&a, &b| {
                self.distance(me, a)
                    .partial_cmp(&self.distance(me, b))
                    .unwrap_or(std::cmp::Ordering::Equal)
            });
        if let Some(t) = in_sector {
            return Some(self.units[t].y);
        }
        if let Some(y) = self.objective_goal(me) {
            return Some(y);
        }
        None
    }

    /// Both sides of a melee between `a` (charging when `a_charges`) and `b`.
    pub fn melee_sides(
        &self,
        cat: &Catalogue,
        a: usize,
        b: usize,
        a_charges: bool,
    ) -> (MeleeSide, MeleeSide) {
        let mut sa = self.melee_side(cat, a, b);
        let mut sb = self.melee_side(cat, b, a);
        sa.initiated = a_charges;
        if a_charges {
            sa.reroll_misses = self.units[a].inspired || self.units[a].inspirational;
        } else {
            sa.counter_charged = true;
        }
        sb.initiated = false;
        (sa, sb)
    }

    fn melee_side(&self, cat: &Catalogue, me: usize, foe: usize) -> MeleeSide {
        let u = &self.units[me];
        let n = cat.numbers();
        let mut supporters: Vec<Supporter> = (0..self.units.len())
            .filter(|&i| i != me && self.units[i].side == u.side && self.units[i].active())
            .filter(|&i| self.units[i].engaged.is_none() && self.units[i].sector == u.sector)
            .filter(|&i| (self.units[i].y - u.y).abs() <= f64::from(n.support_inches))
            .map(|i| {
                let s = &self.units[i];
                Supporter {
                    action: s.action,
                    extra_dice: s.extra,
                    disorder_markers: s.dm,
                    close: (s.y - self.units[foe].y).abs() <= f64::from(n.close_support_inches),
                    level: s.level,
                    formation: s.formation,
                }
            })
            .filter(|s| s.eligible())
            .collect();
        supporters.sort_by_key(|s| std::cmp::Reverse(s.dice()));
        supporters.truncate(usize::from(n.max_supporters));
        MeleeSide {
            element_type: u.et,
            action: u.action,
            extra_dice: u.extra,
            level: u.level,
            formation: u.formation,
            disorder_markers: u.dm,
            initiated: false,
            flank: u.flank_turn == self.turn,
            counter_charged: false,
            supporters,
            in_spi: self.in_spi(me),
            commander_attached: self.attached_commander(me).is_some(),
            defenses: u.defenses && (u.y - u.start_y).abs() < 0.01,
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
    fn group_centre(&self, g: usize) -> Option<(i32, f64)> {
        let mut ys: Vec<(i32, f64)> = self.groups[g]
            .units
            .iter()
            .filter(|&&i| self.units[i].active())
            .map(|&i| (self.units[i].sector, self.units[i].y))
            .collect();
        if ys.is_empty() {
            return None;
        }
        ys.sort_by(|a, b| a.1.partial_cmp(&b.1).unwrap_or(std::cmp::Ordering::Equal));
        Some(ys[ys.len() / 2])
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
            return a == me;
        }
        match self.group_centre(u.group) {
            Some((s, y)) => {
                battlefield::distance((u.sector, u.y), (s, y)) <= f64::from(cmd.rating.spi)
            }
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

    pub fn may_counter_charge(&self, cat: &Catalogue, target: usize, charger: usize) -> bool {
        let t = &self.units[target];
        let c = &self.units[charger];
        counter_charge_allowed(t.et, c.et)
            && self.charge_reach(cat, target) > 0.0
            && charge_permission(t.et, t.size, t.formation, t.level, t.fear, c.size, false)
                .map(|p| !p.disorder_test && !p.morale_test)
                .unwrap_or(false)
    }

    pub fn can_closing_fire(&self, target: usize, charger: usize) -> bool {
        let t = &self.units[target];
        t.loaded
            && !matches!(t.formation, Formation::MarchColumn | Formation::Limbered)
            && self.distance(target, charger) <= f64::from(t.range)
            && self.distance(target, charger) >= f64::from(t.min_range)
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

    /// more broken groups than unbroken ones.
    pub fn force_broken(&self, side: Side) -> bool {
        let gs: Vec<usize> = (0..self.groups.len())
            .filter(|&g| self.groups[g].side == side)
            .collect();
        let broken = gs.iter().filter(|&&g| self.group_broken(g)).count();
        broken > gs.len() - broken
    }

    /// Points lost so far.
    pub fn points_lost(&self, side: Side) -> u32 {
        self.units
            .iter()
            .filter(|u| u.side == side && element_counts_as_broken(u.level, u.removed))
            .map(|u| u.points)
            .sum()
    }

    /// Objectives held: an element Fit or Shaken within 6" in the sector, and none of the enemy's.
    pub fn objectives_held(&self, cat: &Catalogue, side: Side) -> u32 {
        let r = f64::from(cat.numbers().objective_inches);
        let near = |s: Side, o: &(i32, f64)| {
            self.units.iter().any(|u| {
                u.side == s
                    && u.active()
                    && matches!(u.level, DisciplineLevel::Fit | DisciplineLevel::Shaken)
                    && u.sector == o.0
                    && (u.y - o.1).abs() <= r
            })
        };
        self.objectives
            .iter()
            .filter(|o| near(side, o) && !near(side.other(), o))
            .count() as u32
    }
}

pub(super) fn u_marksmen(v: &View, s: usize) -> bool {
    v.units[s].marksmen
}
