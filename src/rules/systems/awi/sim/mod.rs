//! The AWI simulator on the shared abstract battlefield (`rules::battlefield`): three sectors
//! across, 48" deep, deployment zones 0–12" and 36–48" (W-32). A battle is a series of *moves*
//! (W-1): side A moves, side B fires, then they swap; a turn is two moves. Each move follows
//! the sequence of spec 5.1: control and brigadier tests, charges and their morale tests, other
//! morale tests, evade and rout moves, charge moves, A's normal moves, B's fire, entering
//! tests, melees, losers tests and pursuits. The battle ends when an army breaks at the end of a
//! turn, or after 6 turns (W-31, W-32, Muster's rules).
//!
//! One seeded generator draws every die, and every roll is in the narrated log: the same
//! set-up and seed give the same battle. The decisions are the [`Policy`]'s (see `policy.rs`).
//! `docs/systems/awi.md` lists what the model leaves out.

pub mod policy;
#[cfg(test)]
mod tests;

use crate::rules::battlefield::{self, Edge};
use crate::rules::dice::Dice;
use crate::rules::system::{BattleSide, Method};

use super::battle::{
    score, BattleSetup, EndState, Ending, Outcome, SideResult, UnitResult, RESULT_FORMAT,
};
use super::catalogue::{band_at, Catalogue};
use super::odds::dist::hit_chance;
use super::record::fresh_units;
use super::roster::RosterDoc;
use super::types::{Arms, Grade, GunClass, MoveRow, TroopType};
use super::validate::dead_steps;

pub use policy::{Policy, Standard};

/// Control of a unit this move (4.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Marker {
    Full,
    Half,
    None,
}

/// A unit on the abstract table.
#[derive(Debug, Clone)]
pub struct Unit {
    pub side: usize,
    pub brigade: usize,
    /// Index into the side's fresh unit list (results).
    pub slot: usize,
    pub name: String,
    pub t: TroopType,
    pub g: Grade,
    pub arms: Arms,
    pub gun: Option<GunClass>,
    /// Bases at the start (a gun: gunners, W-3).
    pub start_bases: u32,
    pub fpb: u32,
    pub start_figures: u32,
    pub lost: u32,
    pub sector: i32,
    pub depth: f64,
    pub column: bool,
    pub disordered: bool,
    /// Below half strength: disordered for good (W-26).
    pub below_half: bool,
    pub routing: bool,
    pub off_table: bool,
    pub destroyed: bool,
    pub first_volley_fired: bool,
    pub moved_own_move: bool,
    pub fire_hits_last: u32,
    pub fired_on_last: bool,
    pub fire_hits_now: u32,
    pub fired_on_now: bool,
    pub won_melee_last: bool,
    pub lost_melee_last: bool,
    pub won_melee_now: bool,
    pub lost_melee_now: bool,
    /// Halted until its side's next normal-move step (W-9).
    pub halted: bool,
    pub marker: Marker,
    /// The enemy unit it is in melee contact with (follow-ups, W-24).
    pub engaged: Option<usize>,
    pub charging: bool,
    pub charge_target: Option<usize>,
    /// Winners that did not charge halt for one move (4.6).
    pub halt_next_move: bool,
}

impl Unit {
    pub fn gone(&self) -> bool {
        self.off_table || self.destroyed
    }
    pub fn active(&self) -> bool {
        !self.gone() && !self.routing
    }
    pub fn bases_lost(&self) -> u32 {
        (self.lost / self.fpb.max(1)).min(self.start_bases)
    }
    pub fn bases_left(&self) -> u32 {
        self.start_bases - self.bases_lost()
    }
    pub fn steps10(&self) -> u32 {
        dead_steps(self.bases_lost(), self.start_bases).0
    }
    pub fn steps20(&self) -> u32 {
        dead_steps(self.bases_lost(), self.start_bases).1
    }
    pub fn at_or_below_half(&self) -> bool {
        2 * self.bases_left() <= self.start_bases
    }
    pub fn pos(&self) -> (i32, f64) {
        (self.sector, self.depth)
    }
    pub fn foot(&self) -> bool {
        matches!(self.t, TroopType::Infantry | TroopType::Skirmishers)
    }
    /// Bases in its front rank: a column shows 2 (W-16), a gun 1.
    pub fn front(&self) -> u32 {
        match self.t {
            TroopType::Artillery => 1,
            TroopType::Infantry if self.column => self.bases_left().min(2),
            _ => self.bases_left(),
        }
    }
    pub fn move_row(&self) -> MoveRow {
        match self.t {
            TroopType::Infantry if self.column => MoveRow::InfantryColumn,
            TroopType::Infantry => MoveRow::InfantryLine,
            TroopType::Skirmishers => MoveRow::Skirmishers,
            TroopType::Cavalry => MoveRow::Cavalry,
            TroopType::Artillery => match self.gun {
                Some(GunClass::Medium) => MoveRow::ManHandledMedium,
                _ => MoveRow::ManHandledLight,
            },
        }
    }
}

/// A brigadier (or the CinC, `brigade` = None).
#[derive(Debug, Clone)]
pub struct General {
    pub side: usize,
    pub brigade: Option<usize>,
    /// His id in the order of battle.
    pub id: String,
    pub name: String,
    pub ability: u32,
    pub alive: bool,
}

/// The whole battle state.
pub struct Battle<'c> {
    pub cat: &'c Catalogue,
    pub units: Vec<Unit>,
    pub generals: Vec<General>,
    pub edges: [Edge; 2],
    pub dice: Dice,
    pub narrate: bool,
    pub log: Vec<String>,
    pub results: [Vec<UnitResult>; 2],
    pub names: [String; 2],
}

fn side_of(s: BattleSide) -> usize {
    match s {
        BattleSide::Attacker => 0,
        BattleSide::Defender => 1,
    }
}

impl<'c> Battle<'c> {
    fn say(&mut self, f: impl FnOnce() -> String) {
        if self.narrate {
            self.log.push(f());
        }
    }

    fn d(&mut self, sides: u32) -> i32 {
        self.dice.below(sides) as i32 + 1
    }

    /// Sets the table: brigades fill the centre then the wings; guns and line infantry at the
    /// front of the zone, skirmishers ahead of them, cavalry behind (W-32).
    pub fn new(cat: &'c Catalogue, setup: &BattleSetup, narrate: bool) -> Battle<'c> {
        let mut units = Vec::new();
        let mut generals = Vec::new();
        let edges = [Edge::Near, Edge::Far];
        let mut results = [Vec::new(), Vec::new()];
        for (side, force) in [&setup.attacker, &setup.defender].into_iter().enumerate() {
            let r: &RosterDoc = &force.roster;
            results[side] = fresh_units(cat, r);
            let edge = edges[side];
            let nb = r.brigades.len();
            let mut slot = 0;
            generals.push(General {
                side,
                brigade: None,
                id: r
                    .cinc
                    .as_ref()
                    .and_then(|c| c.id.clone())
                    .unwrap_or_default(),
                name: r.cinc.as_ref().map(|c| c.name.clone()).unwrap_or_default(),
                ability: 10,
                alive: r.cinc.is_some(),
            });
            for (b, brigade) in r.brigades.iter().enumerate() {
                let sector = battlefield::sector_for(b, nb);
                if let Some(g) = &brigade.brigadier {
                    generals.push(General {
                        side,
                        brigade: Some(b),
                        id: g.id.clone().unwrap_or_default(),
                        name: g.name.clone(),
                        ability: g.ability_value().unwrap_or(5),
                        alive: true,
                    });
                }
                for u in &brigade.units {
                    let Some(s) = u.spec() else { continue };
                    let fpb = cat.troop(s.troop_type).figures_per_base;
                    let from_edge = match s.troop_type {
                        TroopType::Skirmishers => 12.0,
                        TroopType::Infantry => 10.0,
                        TroopType::Artillery => 11.0,
                        TroopType::Cavalry => 4.0,
                    };
                    units.push(Unit {
                        side,
                        brigade: b,
                        slot,
                        name: if u.name.is_empty() {
                            s.troop_type.label().to_string()
                        } else {
                            u.name.clone()
                        },
                        t: s.troop_type,
                        g: s.grade,
                        arms: s.arms.unwrap_or(Arms::Musket),
                        gun: s.gun,
                        start_bases: s.start_bases(),
                        fpb: if s.troop_type == TroopType::Artillery {
                            1
                        } else {
                            fpb
                        },
                        start_figures: s.figures(fpb),
                        lost: 0,
                        sector,
                        depth: edge.depth() + edge.forward() * from_edge,
                        column: s.troop_type == TroopType::Infantry,
                        disordered: false,
                        below_half: false,
                        routing: false,
                        off_table: false,
                        destroyed: false,
                        first_volley_fired: false,
                        moved_own_move: false,
                        fire_hits_last: 0,
                        fired_on_last: false,
                        fire_hits_now: 0,
                        fired_on_now: false,
                        won_melee_last: false,
                        lost_melee_last: false,
                        won_melee_now: false,
                        lost_melee_now: false,
                        halted: false,
                        marker: Marker::Full,
                        engaged: None,
                        charging: false,
                        charge_target: None,
                        halt_next_move: false,
                    });
                    slot += 1;
                }
            }
        }
        Battle {
            cat,
            units,
            generals,
            edges,
            dice: Dice::from_seed(setup.seed),
            narrate,
            log: Vec::new(),
            results,
            names: [
                setup.attacker.roster.name.clone(),
                setup.defender.roster.name.clone(),
            ],
        }
    }

    pub fn dist(&self, a: usize, b: usize) -> f64 {
        battlefield::distance(self.units[a].pos(), self.units[b].pos())
    }

    /// The nearest enemy able to fight or be shot, and its distance.
    pub fn nearest_enemy(&self, i: usize, include_routing: bool) -> Option<(usize, f64)> {
        let side = self.units[i].side;
        self.units
            .iter()
            .enumerate()
            .filter(|(_, u)| u.side != side && !u.gone() && (include_routing || !u.routing))
            .map(|(j, _)| (j, self.dist(i, j)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
    }

    fn brigade_centre(&self, side: usize, brigade: usize) -> Option<(i32, f64)> {
        let members: Vec<&Unit> = self
            .units
            .iter()
            .filter(|u| u.side == side && u.brigade == brigade && u.active())
            .collect();
        if members.is_empty() {
            return None;
        }
        let mut sectors: Vec<i32> = members.iter().map(|u| u.sector).collect();
        sectors.sort_unstable();
        let depth = members.iter().map(|u| u.depth).sum::<f64>() / members.len() as f64;
        Some((sectors[sectors.len() / 2], depth))
    }

    fn army_centre(&self, side: usize) -> Option<(i32, f64)> {
        let members: Vec<&Unit> = self
            .units
            .iter()
            .filter(|u| u.side == side && u.active())
            .collect();
        if members.is_empty() {
            return None;
        }
        let mut sectors: Vec<i32> = members.iter().map(|u| u.sector).collect();
        sectors.sort_unstable();
        let depth = members.iter().map(|u| u.depth).sum::<f64>() / members.len() as f64;
        Some((sectors[sectors.len() / 2], depth))
    }

    fn general(&self, side: usize, brigade: Option<usize>) -> Option<&General> {
        self.generals
            .iter()
            .find(|g| g.side == side && g.brigade == brigade)
    }

    /// Step 1: control states, brigadier tests and uncontrolled tests (4.4, W-4, W-5).
    fn control(&mut self, side: usize) {
        let cat = self.cat;
        let cinc_at = self
            .general(side, None)
            .filter(|g| g.alive)
            .and_then(|_| self.army_centre(side));
        let brigades: Vec<usize> = {
            let mut v: Vec<usize> = self
                .units
                .iter()
                .filter(|u| u.side == side)
                .map(|u| u.brigade)
                .collect();
            v.dedup();
            v.sort_unstable();
            v.dedup();
            v
        };
        for b in brigades {
            let centre = self.brigade_centre(side, b);
            let brig = self.general(side, Some(b)).filter(|g| g.alive).cloned();
            let commanded = match (cinc_at, centre) {
                (Some(c), Some(p)) => {
                    battlefield::distance(c, p) <= f64::from(cat.command.cinc_span)
                }
                _ => false,
            };
            let mut influence_roll: Option<bool> = None;
            let members: Vec<usize> = (0..self.units.len())
                .filter(|&i| {
                    let u = &self.units[i];
                    u.side == side && u.brigade == b && u.active()
                })
                .collect();
            for i in members {
                let within = match (&brig, centre) {
                    (Some(_), Some(p)) => {
                        battlefield::distance(self.units[i].pos(), p)
                            <= f64::from(cat.command.brigadier_span)
                    }
                    _ => false,
                };
                let marker = if within && commanded {
                    Marker::Full
                } else if within {
                    let pass = match influence_roll {
                        Some(p) => p,
                        None => {
                            let ability = brig.as_ref().map_or(0, |g| g.ability) as i32;
                            let roll = self.d(10);
                            let pass = roll <= ability;
                            let name = brig.as_ref().map(|g| g.name.clone()).unwrap_or_default();
                            self.say(|| {
                                format!(
                                    "Brigadier {name} is out of the CinC's reach and tests: D10 {roll} against ability {ability}: {} (W-4).",
                                    if pass { "his units move fully" } else { "his units move at half speed" }
                                )
                            });
                            influence_roll = Some(pass);
                            pass
                        }
                    };
                    if pass {
                        Marker::Full
                    } else {
                        Marker::Half
                    }
                } else {
                    let u = &self.units[i];
                    let mut m = cat.grade(u.g).uncontrolled
                        + cat.uncontrolled_mod("per_10pct_dead") * u.steps10() as i32;
                    if u.disordered {
                        m += cat.uncontrolled_mod("disordered");
                    }
                    if u.t == TroopType::Cavalry {
                        m += cat.uncontrolled_mod("cavalry");
                    }
                    let roll = self.d(10);
                    let band = cat.uncontrolled_band(roll + m).id.clone();
                    let name = self.units[i].name.clone();
                    self.say(|| {
                        format!(
                            "{name} is uncontrolled: D10 {roll} {m:+} = {}: {band} move.",
                            roll + m
                        )
                    });
                    match band.as_str() {
                        "full" => Marker::Full,
                        "half" => Marker::Half,
                        _ => Marker::None,
                    }
                };
                self.units[i].marker = marker;
            }
        }
    }

    /// Rolls a morale test (4.3) for unit `i`: the band id.
    fn morale(&mut self, i: usize, why: &str) -> String {
        let cat = self.cat;
        let u = &self.units[i];
        let g = cat.grade(u.g);
        let sides = g.morale_dice.sides();
        let mut m = g.morale + cat.morale_mod("per_10pct_dead") * u.steps10() as i32;
        let near_enemy = self.nearest_enemy(i, false).is_some_and(|(_, d)| d <= 12.0);
        if !near_enemy {
            m += cat.morale_mod("no_enemy_within_12");
        }
        if u.won_melee_last {
            m += cat.morale_mod("won_melee");
        }
        if u.lost_melee_last {
            m += cat.morale_mod("lost_melee");
        }
        if u.routing {
            m += cat.morale_mod("in_rout");
        }
        for (j, f) in self.units.iter().enumerate() {
            if j == i || f.side != u.side || !f.routing || f.gone() {
                continue;
            }
            if battlefield::distance(f.pos(), u.pos()) > 12.0 {
                continue;
            }
            if f.g.rank() < u.g.rank() {
                m += cat.morale_mod("per_routing_higher_class");
            } else if f.g == u.g && f.t.close_order() {
                m += cat.morale_mod("per_routing_same_class");
            }
        }
        // A D5 is ⌈D10/2⌉ (W-6).
        let a = if sides == 5 {
            let (x, y) = (self.d(10), self.d(10));
            (x + 1) / 2 + (y + 1) / 2
        } else {
            self.d(6) + self.d(6)
        };
        let total = a + m;
        let band = cat.morale_band(total).id.clone();
        let name = self.units[i].name.clone();
        let dice = g.morale_dice.label();
        self.say(|| format!("{name} tests morale ({why}): {dice} {a} {m:+} = {total}: {band}."));
        band
    }

    fn start_rout(&mut self, i: usize) {
        let u = &mut self.units[i];
        u.routing = true;
        u.disordered = true;
        u.charging = false;
        u.charge_target = None;
        if let Some(e) = u.engaged.take() {
            if self.units[e].engaged == Some(i) {
                self.units[e].engaged = None;
            }
        }
        self.rout_move(i);
    }

    fn rout_move(&mut self, i: usize) {
        let cat = self.cat;
        let u = &self.units[i];
        let dist = cat.movement_row(u.move_row()).rout.unwrap_or(10);
        let edge = self.edges[u.side];
        let depth = u.depth - edge.forward() * f64::from(dist);
        let name = u.name.clone();
        if (edge == Edge::Near && depth < 0.0)
            || (edge == Edge::Far && depth > battlefield::TABLE_DEPTH)
        {
            self.units[i].off_table = true;
            self.units[i].engaged = None;
            self.say(|| format!("{name} routs off the table (W-27)."));
        } else {
            self.units[i].depth = depth;
            self.say(|| format!("{name} routs {dist}\" toward its own edge."));
        }
    }

    /// Removes `n` casualties (figures, W-2); disorder below half strength; destruction.
    fn casualties(&mut self, i: usize, n: u32) {
        if n == 0 {
            return;
        }
        let u = &mut self.units[i];
        u.lost = (u.lost + n).min(u.start_figures);
        if u.lost >= u.start_figures {
            u.destroyed = true;
            u.engaged = None;
        }
        if 2 * u.bases_left() < u.start_bases {
            u.below_half = true;
            u.disordered = true;
        }
        let name = u.name.clone();
        let destroyed = u.destroyed;
        if destroyed {
            self.say(|| format!("{name} has no figures left and is destroyed (W-2)."));
        }
    }

    fn general_risk(&mut self, _i: usize, _casualties: u32) {
        // Generals stay with their brigades in this model (they never attach), so no attached
        // general is at risk (see docs/systems/awi.md, "What the simulator leaves out").
    }

    /// The score needed for `i` firing at `j` and the dice, or `None` if it cannot fire.
    pub fn fire_odds(&self, i: usize, j: usize) -> Option<(u32, i32)> {
        let cat = self.cat;
        let u = &self.units[i];
        let t = &self.units[j];
        if !u.active() || u.t == TroopType::Cavalry || u.engaged.is_some() || t.engaged.is_some() {
            return None;
        }
        let d = self.dist(i, j);
        let (dice, bands) = match u.t {
            TroopType::Artillery => (
                cat.gun_dice_for(u.start_figures - u.lost),
                &cat.gun(u.gun.unwrap_or(GunClass::Light)).bands,
            ),
            TroopType::Infantry => (u.front(), &cat.weapon(u.arms).bands),
            _ => (u.bases_left(), &cat.weapon(u.arms).bands),
        };
        if dice == 0 {
            return None;
        }
        let band = band_at(bands, d)?;
        let mut need = cat.hit.base_need + cat.grade(u.g).firing_need;
        need += match band {
            super::types::RangeBand::Canister => cat.firing_mod("canister"),
            super::types::RangeBand::Close => 0,
            super::types::RangeBand::Long => cat.firing_mod("long"),
            super::types::RangeBand::Extreme => cat.firing_mod("extreme"),
        };
        if u.t == TroopType::Infantry && !u.first_volley_fired && !u.disordered {
            need += cat.firing_mod("first_volley");
        }
        if u.t == TroopType::Infantry && u.moved_own_move {
            need += cat.firing_mod("moving_and_firing");
        }
        if u.disordered {
            need += cat.firing_mod("disordered");
        }
        if t.t == TroopType::Skirmishers {
            need += cat.firing_mod("skirmishers");
        }
        if t.column && t.t == TroopType::Infantry {
            need += cat.firing_mod("column_or_enfilade");
        }
        Some((dice, need))
    }

    /// Step 7: side `side` fires with every unit able to (W-16), casualties at the end (W-2).
    fn fire(&mut self, side: usize, policy: &dyn Policy) {
        let mut hits: Vec<(usize, u32)> = Vec::new();
        for i in 0..self.units.len() {
            if self.units[i].side != side {
                continue;
            }
            let Some(j) = policy.fire_target(self, i) else {
                continue;
            };
            let Some((dice, need)) = self.fire_odds(i, j) else {
                continue;
            };
            let mut n = 0;
            let mut rolls = Vec::new();
            for _ in 0..dice {
                let r = self.d(10);
                if self.narrate {
                    rolls.push(r);
                }
                if need <= 1 || (need <= 10 && r >= need) {
                    n += 1;
                }
            }
            if self.units[i].t == TroopType::Infantry {
                self.units[i].first_volley_fired = true;
            }
            self.units[j].fired_on_now = true;
            let (a, b) = (self.units[i].name.clone(), self.units[j].name.clone());
            self.say(|| {
                format!("{a} fires at {b}: {dice} D10 needing {need}: {rolls:?}, {n} hit(s).")
            });
            hits.push((j, n));
        }
        for (j, n) in hits {
            self.units[j].fire_hits_now += n;
            self.casualties(j, n);
            self.general_risk(j, n);
        }
    }

    /// The melee score needed for `me` against `them` (4.6).
    pub fn melee_need(&self, me: usize, them: usize) -> i32 {
        let cat = self.cat;
        let u = &self.units[me];
        let o = &self.units[them];
        let mut need = cat.hit.base_need + cat.grade(u.g).melee_need;
        if u.charging {
            if u.foot() {
                need += cat.melee_mod("infantry_charging");
            } else if u.t == TroopType::Cavalry {
                need += cat.melee_mod("cavalry_charging");
            }
        }
        if u.t.close_order() && o.t == TroopType::Skirmishers {
            need += cat.melee_mod("close_order_v_skirmishers");
        }
        if o.t == TroopType::Artillery {
            need += cat.melee_mod("v_unsupported_gunners");
        }
        if u.arms == Arms::Rifle {
            need += cat.melee_mod("rifle");
        }
        if u.disordered || (u.t == TroopType::Infantry && u.column) {
            need += cat.melee_mod("disordered");
        }
        need
    }

    /// Elements `me` fights with against `them`: its front against theirs plus one overlap each
    /// side (W-22).
    pub fn elements(&self, me: usize, them: usize) -> u32 {
        let a = self.units[me].front();
        let b = self.units[them].front();
        a.min(b + 2)
    }

    /// The entering-melee test's modifier (4.5).
    pub fn entering_mod(&self, me: usize, them: usize, charger: bool) -> i32 {
        let cat = self.cat;
        let u = &self.units[me];
        let o = &self.units[them];
        let mut m = cat.grade(u.g).entering
            + cat.entering_mod("per_figure_killed_by_fire") * u.fire_hits_now as i32
            + cat.entering_mod("per_20pct_dead") * u.steps20() as i32;
        if u.disordered {
            m += cat.entering_mod("disordered");
        }
        if u.t == TroopType::Infantry && u.column {
            m += cat.entering_mod("in_column");
        }
        if charger && o.t == TroopType::Artillery {
            m += cat.entering_mod("charging_unsupported_gunners");
        }
        if charger && u.t == TroopType::Cavalry && o.t == TroopType::Infantry && !o.disordered {
            m += cat.entering_mod("cavalry_v_ordered_infantry");
        }
        if u.t == TroopType::Artillery {
            m += cat.entering_mod("unsupported_gunners");
        }
        m
    }

    fn legal_charge(&self, i: usize, j: usize) -> bool {
        let u = &self.units[i];
        let t = &self.units[j];
        if !u.active() || t.gone() || t.side == u.side || u.engaged.is_some() {
            return false;
        }
        if u.t == TroopType::Artillery || u.marker != Marker::Full || u.halted || u.halt_next_move {
            return false;
        }
        if u.t == TroopType::Skirmishers && t.t.close_order() {
            return false;
        }
        if u.foot() && t.t == TroopType::Cavalry {
            return false;
        }
        let reach = self.cat.movement_row(u.move_row()).charge().unwrap_or(0);
        self.dist(i, j) <= f64::from(reach)
    }

    fn move_toward(&mut self, i: usize, j: usize, stop_at: f64, allowance: f64) -> f64 {
        let (ts, td) = self.units[j].pos();
        let u = &mut self.units[i];
        let mut left = allowance;
        if u.sector != ts {
            let cost = battlefield::SECTOR_GAP * f64::from((u.sector - ts).abs());
            let depth_gap = (u.depth - td).abs();
            if depth_gap + cost <= stop_at || cost > left {
                // Closing in depth only.
            } else {
                u.sector = ts;
                left -= cost;
            }
        }
        let gap = (u.depth - td).abs() + battlefield::SECTOR_GAP * f64::from((u.sector - ts).abs());
        let step = (gap - stop_at).clamp(0.0, left);
        let dir = if td > u.depth { 1.0 } else { -1.0 };
        u.depth = battlefield::on_table(u.depth + dir * step);
        allowance - left + step
    }

    /// One move with side `a` moving (steps 1–11 of 5.1).
    pub fn play_move(&mut self, a: usize, policy: &dyn Policy, number: u32) {
        let cat = self.cat;
        let b = 1 - a;
        let name_a = self.names[a].clone();
        self.say(|| format!("— Move {number}: {name_a} moves, the other side fires (W-1)."));
        for u in self.units.iter_mut() {
            u.fire_hits_last = u.fire_hits_now;
            u.fired_on_last = u.fired_on_now;
            u.fire_hits_now = 0;
            u.fired_on_now = false;
            u.won_melee_last = u.won_melee_now;
            u.lost_melee_last = u.lost_melee_now;
            u.won_melee_now = false;
            u.lost_melee_now = false;
            u.charging = false;
            u.charge_target = None;
        }
        // 1. Control.
        self.control(a);
        // 2. Charges and their morale tests (W-10).
        let mut charges: Vec<(usize, usize)> = Vec::new();
        for i in 0..self.units.len() {
            if self.units[i].side != a {
                continue;
            }
            let Some(j) = policy.charge_target(self, i) else {
                continue;
            };
            if !self.legal_charge(i, j) || charges.iter().any(|&(_, t)| t == j) {
                continue;
            }
            match self.morale(i, "wishing to charge").as_str() {
                "ok" => charges.push((i, j)),
                "halt" => self.units[i].halted = true,
                "halt_disordered" => {
                    self.units[i].halted = true;
                    self.units[i].disordered = true;
                }
                _ => self.start_rout(i),
            }
        }
        let mut evaded: Vec<usize> = Vec::new();
        let mut counter: Vec<usize> = Vec::new();
        let mut going: Vec<(usize, usize)> = Vec::new();
        for (i, j) in charges {
            if self.units[j].routing {
                going.push((i, j));
                continue;
            }
            let band = self.morale(j, "being charged");
            match band.as_str() {
                "ok" | "halt" => {
                    let t = self.units[j].t;
                    if band == "ok" && t == TroopType::Skirmishers && self.units[i].t.close_order()
                    {
                        evaded.push(j);
                    } else if t == TroopType::Cavalry && policy.counter_charge(self, j, i) {
                        counter.push(j);
                    }
                    if band == "halt" {
                        self.units[j].halted = true;
                    }
                    going.push((i, j));
                }
                _ => {
                    self.start_rout(j);
                    going.push((i, j));
                }
            }
        }
        // 3. Other morale tests, both sides (reasons 3–5).
        for i in 0..self.units.len() {
            if self.units[i].gone() || self.units[i].engaged.is_some() {
                continue;
            }
            let u = &self.units[i];
            let routing_friend_near = self.units.iter().any(|f| {
                f.side == u.side
                    && f.routing
                    && !f.gone()
                    && battlefield::distance(f.pos(), u.pos()) <= 12.0
            });
            let reason = if u.routing {
                let near = self.nearest_enemy(i, false).is_some_and(|(_, d)| d <= 12.0);
                (!near).then_some("routing with no enemy in sight")
            } else if u.fire_hits_last >= 2 {
                Some("took 2 or more hits last move")
            } else if u.at_or_below_half() && (u.fired_on_last || routing_friend_near) {
                Some("at or below half strength")
            } else {
                None
            };
            let Some(reason) = reason else { continue };
            let band = self.morale(i, reason);
            if self.units[i].routing {
                if band == "ok" {
                    self.units[i].routing = false;
                    self.units[i].disordered = true;
                    let n = self.units[i].name.clone();
                    self.say(|| format!("{n} rallies from its rout and stays disordered (W-26)."));
                }
                continue;
            }
            match band.as_str() {
                "ok" => {}
                "halt" => self.units[i].halted = true,
                "halt_disordered" => {
                    self.units[i].halted = true;
                    self.units[i].disordered = true;
                }
                _ => self.start_rout(i),
            }
        }
        // 4. Evade and rout moves (routers every move, W-27).
        for &j in &evaded {
            let u = &self.units[j];
            let back = f64::from(cat.movement_row(u.move_row()).charge().unwrap_or(12));
            let edge = self.edges[u.side];
            let n = u.name.clone();
            self.units[j].depth = battlefield::on_table(u.depth - edge.forward() * back);
            self.say(|| format!("{n} evades {back}\" (W-11)."));
        }
        for i in 0..self.units.len() {
            if self.units[i].routing && !self.units[i].gone() {
                self.rout_move(i);
            }
        }
        // 5. Charge moves to contact (to 1", contact at step 9).
        let mut contacts: Vec<(usize, usize)> = Vec::new();
        for (i, j) in going {
            if self.units[i].routing || self.units[i].gone() {
                continue;
            }
            let reach = f64::from(
                cat.movement_row(self.units[i].move_row())
                    .charge()
                    .unwrap_or(0),
            );
            if evaded.contains(&j) || self.units[j].gone() || self.dist(i, j) > reach {
                self.units[i].disordered = true;
                let n = self.units[i].name.clone();
                self.say(|| format!("{n} charges without making contact and is disordered."));
                continue;
            }
            self.units[i].charging = true;
            self.units[i].charge_target = Some(j);
            let (s, d) = self.units[j].pos();
            self.units[i].sector = s;
            self.units[i].depth = d;
            if counter.contains(&j) {
                self.units[j].charging = true;
            }
            contacts.push((i, j));
        }
        // 6. A's normal moves (rallying units stay put, W-26).
        for i in 0..self.units.len() {
            let u = &self.units[i];
            if u.side != a || !u.active() || u.engaged.is_some() || u.charging {
                continue;
            }
            self.units[i].moved_own_move = false;
            if self.units[i].halt_next_move {
                self.units[i].halt_next_move = false;
                continue;
            }
            if self.units[i].halted {
                self.units[i].halted = false;
                continue;
            }
            if self.units[i].disordered && !self.units[i].below_half {
                self.units[i].disordered = false;
                let n = self.units[i].name.clone();
                self.say(|| format!("{n} rallies from its disorder and does not move (W-26)."));
                continue;
            }
            policy.normal_move(self, i);
        }
        // 7. B fires.
        self.fire(b, policy);
        // 8–9. Entering tests and contact.
        let mut melees: Vec<(usize, usize)> = Vec::new();
        for (i, j) in contacts {
            if !self.units[i].active() || self.units[j].gone() {
                continue;
            }
            let m = self.entering_mod(i, j, true);
            let roll = self.d(6);
            let ni = self.units[i].name.clone();
            let pass = roll + m > cat.entering.pass_above;
            self.say(|| {
                format!(
                    "{ni} tests to enter melee: D6 {roll} {m:+}: {}.",
                    if pass { "goes in" } else { "halts disordered" }
                )
            });
            if !pass {
                self.units[i].disordered = true;
                self.units[i].charging = false;
                let edge = self.edges[self.units[i].side];
                self.units[i].depth =
                    battlefield::on_table(self.units[i].depth - edge.forward() * 1.0);
                continue;
            }
            if self.units[j].routing {
                melees.push((i, j));
                continue;
            }
            let m = self.entering_mod(j, i, self.units[j].charging);
            let roll = self.d(6);
            let nj = self.units[j].name.clone();
            let stand = roll + m > cat.entering.pass_above;
            self.say(|| {
                format!(
                    "{nj} tests to receive the charge: D6 {roll} {m:+}: {}.",
                    if stand { "stands" } else { "breaks (W-28)" }
                )
            });
            if !stand {
                self.start_rout(j);
                continue;
            }
            self.units[i].engaged = Some(j);
            self.units[j].engaged = Some(i);
            melees.push((i, j));
        }
        // Follow-up melees carried from earlier moves (W-24).
        for i in 0..self.units.len() {
            if let Some(j) = self.units[i].engaged {
                if i < j
                    && self.units[j].engaged == Some(i)
                    && !melees
                        .iter()
                        .any(|&(x, y)| (x == i && y == j) || (x == j && y == i))
                {
                    melees.push((i, j));
                }
            }
        }
        // 10–11. Melees, losers tests, draws, pursuits.
        for (i, j) in melees {
            self.melee(i, j);
        }
    }

    fn melee(&mut self, i: usize, j: usize) {
        let cat = self.cat;
        if self.units[i].gone() || self.units[j].gone() {
            return;
        }
        let j_fights = !self.units[j].routing;
        let ei = self.elements(i, j);
        let ej = if j_fights { self.elements(j, i) } else { 0 };
        let ni_need = self.melee_need(i, j);
        let nj_need = self.melee_need(j, i);
        let roll = |b: &mut Battle, n: u32, need: i32| {
            let mut h = 0;
            for _ in 0..n {
                let r = b.d(10);
                if need <= 1 || (need <= 10 && r >= need) {
                    h += 1;
                }
            }
            h
        };
        let hj = roll(self, ei, ni_need); // casualties j suffers
        let hi = roll(self, ej, nj_need);
        let (a, b) = (self.units[i].name.clone(), self.units[j].name.clone());
        self.say(|| format!("Melee: {a} ({ei} elements, need {ni_need}) inflicts {hj}; {b} ({ej} elements, need {nj_need}) inflicts {hi}."));
        self.casualties(i, hi);
        self.casualties(j, hj);
        if !j_fights {
            return;
        }
        let (winner, loser, diff) = if hi > hj {
            (j, i, hi - hj)
        } else if hj > hi {
            (i, j, hj - hi)
        } else {
            self.draw(i, j);
            return;
        };
        self.units[winner].won_melee_now = true;
        self.units[loser].lost_melee_now = true;
        if self.units[loser].gone() {
            self.units[winner].engaged = None;
            return;
        }
        let lu = &self.units[loser];
        let wu = &self.units[winner];
        let auto = lu.t == TroopType::Artillery
            || (lu.t == TroopType::Infantry && wu.t == TroopType::Cavalry && wu.charging);
        let breaks = if auto {
            true
        } else {
            let mut m = cat.grade(lu.g).losers + diff as i32;
            if lu.charging {
                if lu.foot() {
                    m += cat.losers_mod("infantry_charged");
                } else if lu.t == TroopType::Cavalry {
                    m += cat.losers_mod("cavalry_charged");
                }
            }
            let r = self.d(10);
            let n = self.units[loser].name.clone();
            self.say(|| format!("{n} lost the melee: D10 {r} {m:+} = {} (6+ breaks).", r + m));
            r + m >= cat.losers.break_at
        };
        let winner_charged = self.units[winner].charging;
        self.units[winner].engaged = None;
        self.units[loser].engaged = None;
        if breaks {
            if self.units[loser].t == TroopType::Artillery {
                self.units[loser].destroyed = true;
                let n = self.units[loser].name.clone();
                self.say(|| format!("{n} is overrun and lost (W-17)."));
            } else {
                self.start_rout(loser);
            }
            if winner_charged {
                // Pursuit: disordered, no contact modelled beyond the chase (W-24).
                let w = &self.units[winner];
                let dist = f64::from(cat.movement_row(w.move_row()).pursuit.unwrap_or(0));
                let (ls, ld) = self.units[loser].pos();
                let u = &mut self.units[winner];
                u.disordered = true;
                u.sector = ls;
                let dir = if ld > u.depth { 1.0 } else { -1.0 };
                let gap = (ld - u.depth).abs();
                u.depth = battlefield::on_table(u.depth + dir * gap.min(dist));
                let caught = gap <= dist && !self.units[loser].gone();
                if caught {
                    // The router suffers a round it cannot answer.
                    let e = self.elements(winner, loser);
                    let need = self.melee_need(winner, loser);
                    let h = roll(self, e, need);
                    let n = self.units[loser].name.clone();
                    self.say(|| format!("The pursuit catches {n}: {h} more casualties (W-24)."));
                    self.casualties(loser, h);
                }
            } else {
                self.units[winner].halt_next_move = true;
            }
        } else {
            let l = &self.units[loser];
            let back = match l.t {
                TroopType::Cavalry => cat.losers.fall_back.cavalry,
                TroopType::Skirmishers => cat.losers.fall_back.skirmishers,
                _ => cat.losers.fall_back.infantry,
            };
            let edge = self.edges[l.side];
            let d = battlefield::on_table(l.depth - edge.forward() * f64::from(back));
            self.units[loser].depth = d;
            self.units[loser].disordered = true;
            let n = self.units[loser].name.clone();
            self.say(|| format!("{n} falls back {back}\" disordered."));
            if winner_charged {
                // Follow-up: back into contact, fought again next move (W-24).
                self.units[winner].depth = d;
                self.units[winner].engaged = Some(loser);
                self.units[loser].engaged = Some(winner);
            } else {
                self.units[winner].halt_next_move = true;
            }
        }
    }

    fn draw(&mut self, i: usize, j: usize) {
        let (ti, tj) = (self.units[i].t, self.units[j].t);
        let back = |b: &mut Battle, k: usize, inches: f64| {
            let edge = b.edges[b.units[k].side];
            b.units[k].depth = battlefield::on_table(b.units[k].depth - edge.forward() * inches);
            b.units[k].engaged = None;
        };
        match (ti == TroopType::Cavalry, tj == TroopType::Cavalry) {
            (true, true) => {
                back(self, i, 6.0);
                back(self, j, 6.0);
                self.units[i].disordered = true;
                self.units[j].disordered = true;
            }
            (true, false) | (false, true) => {
                let (c, o) = if ti == TroopType::Cavalry {
                    (i, j)
                } else {
                    (j, i)
                };
                back(self, c, 12.0);
                self.units[c].disordered = true;
                self.units[o].engaged = None;
                if self.units[o].t != TroopType::Artillery {
                    self.units[o].disordered = true;
                }
            }
            _ => {
                if ti != TroopType::Artillery {
                    back(self, i, 1.0);
                }
                if tj != TroopType::Artillery {
                    back(self, j, 1.0);
                }
                self.units[i].engaged = None;
                self.units[j].engaged = None;
            }
        }
        self.say(|| "The melee is drawn; both sides part (W-25).".to_string());
    }

    /// Whether side `s` is broken (W-31).
    pub fn broken(&self, s: usize) -> bool {
        let counted: Vec<&Unit> = self
            .units
            .iter()
            .filter(|u| u.side == s && u.t != TroopType::Artillery)
            .collect();
        if counted.is_empty() {
            return false;
        }
        let gone = counted.iter().filter(|u| u.gone() || u.routing).count() as u32;
        gone >= super::validate::break_threshold(counted.len() as u32)
    }

    fn side_result(&self, s: usize) -> SideResult {
        let mut units = self.results[s].clone();
        for u in self.units.iter().filter(|u| u.side == s) {
            if let Some(r) = units.get_mut(u.slot) {
                r.figures_lost = u.lost;
                r.state = if u.destroyed {
                    EndState::Destroyed
                } else if u.off_table {
                    EndState::LeftTable
                } else if u.routing {
                    EndState::Routing
                } else {
                    EndState::Fighting
                };
                r.at_or_below_half = u.at_or_below_half();
            }
        }
        SideResult {
            name: self.names[s].clone(),
            units,
            generals_killed: self
                .generals
                .iter()
                .filter(|g| g.side == s && !g.alive)
                .map(|g| g.name.clone())
                .collect(),
            generals_killed_ids: self
                .generals
                .iter()
                .filter(|g| g.side == s && !g.alive && !g.id.is_empty())
                .map(|g| g.id.clone())
                .collect(),
            broke: false,
            vp: 0,
            vp_lines: Vec::new(),
        }
    }
}

/// Fights a battle with the standard policy, narrated.
pub fn fight(cat: &Catalogue, setup: &BattleSetup) -> Result<Outcome, String> {
    fight_with(cat, setup, &Standard, true)
}

/// Fights a battle with `policy`; `narrate` keeps the log (off for Monte Carlo runs).
pub fn fight_with(
    cat: &Catalogue,
    setup: &BattleSetup,
    policy: &dyn Policy,
    narrate: bool,
) -> Result<Outcome, String> {
    let mut b = Battle::new(cat, setup, narrate);
    if b.units.iter().filter(|u| u.side == 0).count() == 0
        || b.units.iter().filter(|u| u.side == 1).count() == 0
    {
        return Err("Each side needs at least one unit that can fight.".into());
    }
    let v = &cat.victory;
    let mut a = side_of(setup.first_side_a);
    let mut moves = 0;
    let mut ending = Ending::GameLength;
    b.say(|| {
        format!(
            "Battle of {} against {}: seed {}, {} turns at most (W-32).",
            setup.attacker.roster.name, setup.defender.roster.name, setup.seed, setup.turns
        )
    });
    'turns: for turn in 1..=setup.turns {
        for _ in 0..v.moves_per_turn {
            moves += 1;
            b.play_move(a, policy, moves);
            a = 1 - a;
        }
        let (ba, bd) = (b.broken(0), b.broken(1));
        if ba || bd {
            b.say(|| format!("End of turn {turn}: an army has broken (W-31)."));
            ending = Ending::ArmyBreak;
            break 'turns;
        }
    }
    let mut attacker = b.side_result(0);
    let mut defender = b.side_result(1);
    let (winner, level, verdict) = score(cat, &mut attacker, &mut defender);
    b.say(|| verdict.clone());
    Ok(Outcome {
        format: RESULT_FORMAT.to_string(),
        method: Method::Simulated,
        ending,
        moves,
        winner,
        level,
        attacker,
        defender,
        verdict,
        log: std::mem::take(&mut b.log),
    })
}

/// The chance one die hits at `need` (W-19), for policies.
pub fn p_hit(need: i32) -> f64 {
    hit_chance(need)
}
