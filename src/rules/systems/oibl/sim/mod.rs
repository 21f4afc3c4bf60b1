//! The *One if by Land* simulator (spec 5, 4): the brigade-card deck (B-29), fire and melee on
//! the Combat Table, morale tests and Panic Markers (B-9, B-10, B-12), the charge chain (B-13 to
//! B-16), melee (B-17 to B-22), move or fire (B-27), rout, rally and reform (B-24, B-25),
//! destruction (B-33) and the risk to generals (B-32), on the shared abstract battlefield
//! (`rules::battlefield`: three sectors across, 48" deep). A battle ends under Muster's victory
//! rule (B-34, B-35) through [`decide`].
//!
//! One seeded generator draws every die, in a fixed order: the same set-up document gives the
//! same battle and the same log. The decisions are a [`Policy`]'s (swappable, `policy.rs`);
//! [`StandardPolicy`] is spec 5.4's. `docs/systems/oibl.md` says what the model leaves out.

pub mod policy;
#[cfg(test)]
mod tests;

use crate::rules::battlefield::{self, Edge, SECTOR_GAP};
use crate::rules::dice::Dice;
use crate::rules::system::Method;

use super::battle::{decide, BattleSetup, CommanderResult, Fate, Outcome, SideResult, UnitResult};
use super::catalogue::Catalogue;
use super::odds::TestKind;
use super::record::commanders;
use super::types::{Cover, Formation, Kind, MoraleResult, Quality};
use super::unit::{roster_units, UnitStats};

pub use policy::{Policy, StandardPolicy};

/// The most turns a battle may be set to last.
pub const MAX_TURNS: u32 = 99;

/// A unit on the abstract table: its roster statistics and its state in play (spec 1.7).
#[derive(Debug, Clone)]
pub struct Unit {
    /// 0 the attacker, 1 the defender.
    pub side: usize,
    /// Index into [`Battle::brigades`].
    pub brigade: usize,
    pub s: UnitStats,
    /// Figures now (artillery: crew).
    pub figures: u32,
    pub start: u32,
    pub formation: Formation,
    pub sector: i32,
    pub depth: f64,
    /// Progress toward the next sector while shifting across the table.
    pub lateral: f64,
    pub cover: Cover,
    pub panic: bool,
    /// Failed its last test by 1: restricted while it keeps its marker (B-23).
    pub failed_by_1: bool,
    pub routing: bool,
    /// Reforming this activation: stays in place, fires half rounded down (B-25).
    pub reforming: bool,
    /// Repulsed from a melee: reforms at its next activation.
    pub reform_next: bool,
    /// Fell back from a failed charge declaration: no move or fire this turn (B-13).
    pub fell_back: bool,
    pub moved: bool,
    pub fired: bool,
    /// Moved half its skirmish move and fires half its figures (B-27).
    pub move_fire: bool,
    /// Activated this turn (B-29: once per turn).
    pub activated: bool,
    /// Figures that fired at it this turn, after halving (B-31).
    pub fired_on: u32,
    pub guns: u32,
    pub guns_lost: u32,
    pub destroyed: bool,
    pub left_table: bool,
}

impl Unit {
    /// Still on the table.
    pub fn standing(&self) -> bool {
        !self.destroyed && !self.left_table
    }

    /// On the table and not routing.
    pub fn active(&self) -> bool {
        self.standing() && !self.routing
    }

    pub fn mounted(&self) -> bool {
        self.s.kind == Kind::Cavalry
    }

    pub fn pos(&self) -> (i32, f64) {
        (self.sector, self.depth)
    }

    /// Stands it still has (a gun battery: its guns).
    pub fn stands(&self) -> u32 {
        if self.s.kind == Kind::Artillery {
            self.guns
        } else {
            self.figures.div_ceil(self.s.figures_per_stand.max(1))
        }
    }

    /// Skirmishers without the Indians' privileges (B-17).
    pub fn plain_skirmisher(&self) -> bool {
        self.formation == Formation::Skirmish && self.s.kind != Kind::Indian
    }

    /// Stands in its front rank (spec 5.3's frontage abstraction).
    pub fn front(&self) -> u32 {
        let stands = self.stands();
        match self.formation {
            _ if self.s.kind == Kind::Artillery => stands,
            Formation::CloseOrder if !self.mounted() => stands.div_ceil(2),
            Formation::Column => stands.min(2),
            _ => stands,
        }
    }

    /// The movement rate it uses (spec 5.2, by its formation).
    pub fn move_rate(&self) -> &'static str {
        match (self.s.kind, self.routing, self.formation) {
            (Kind::Cavalry, true, _) => "cavalry_rout",
            (_, true, _) => "infantry_rout",
            (Kind::Cavalry, _, _) => "cavalry",
            (_, _, Formation::OpenOrder) => "open_order",
            (_, _, Formation::Column) => "column",
            (_, _, Formation::Skirmish) => "skirmish",
            _ => "close_order",
        }
    }

    /// Who may charge (spec 4.4): close- or open-order infantry, cavalry, Indians; never guns,
    /// other skirmishers, or infantry columns (B-28: the open field has no defile).
    pub fn may_charge(&self) -> bool {
        match self.s.kind {
            Kind::Artillery => false,
            Kind::Cavalry | Kind::Indian => true,
            Kind::Infantry => {
                matches!(self.formation, Formation::CloseOrder | Formation::OpenOrder)
            }
        }
    }

    /// Figures that fire before any halving (spec 4.2): lines all, a column its front stands,
    /// mounted cavalry none (B-44). Guns fire their own value each (B-3, B-7).
    pub fn firing_figures(&self) -> u32 {
        match self.formation {
            _ if self.mounted() || self.s.kind == Kind::Artillery => 0,
            Formation::Column => (self.front() * self.s.figures_per_stand).min(self.figures),
            _ => self.figures,
        }
    }
}

/// A brigade and its card.
#[derive(Debug, Clone)]
pub struct Brigade {
    pub side: usize,
    pub name: String,
    pub units: Vec<usize>,
    /// Index into [`Battle::commanders`].
    pub commander: Option<usize>,
}

/// A commander: the unit he is with (B-8) and what befell him (B-32).
#[derive(Debug, Clone)]
pub struct Commander {
    pub side: usize,
    pub id: String,
    pub name: String,
    pub rating: i32,
    pub fate: Fate,
    pub with: Option<usize>,
    /// The brigades beneath him (a killed commander panics their units, B-32).
    pub brigades: Vec<usize>,
}

/// A card of the deck (B-29; optional rule one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Card {
    Brigade(usize),
    /// A division commander's card: the brigades beneath him (index into `Battle::divisions`).
    Division(usize),
}

/// A division and the brigades beneath it.
#[derive(Debug, Clone)]
pub struct Division {
    pub side: usize,
    pub name: String,
    pub brigades: Vec<usize>,
}

/// Every modifier value the simulator reads, looked up once from the catalogue.
#[derive(Debug, Clone, Copy)]
struct Mods {
    point_blank: i32,
    marksmen: i32,
    column_or_mounted: i32,
    firer_poor: i32,
    firer_wretched: i32,
    target_light_cover: i32,
    target_heavy_cover: i32,
    higher_quality: i32,
    opponent_panic: i32,
    attacking_flank: i32,
    attacked_flank: i32,
    bayonets: i32,
    defending_light: i32,
    defending_heavy: i32,
    cavalry_vs: i32,
    routing: i32,
    light_cover: i32,
    heavy_cover: i32,
    equal_friend: i32,
    higher_friend: i32,
    open_by_cavalry: i32,
    skirmish_by_cavalry: i32,
    skirmish_by_infantry: i32,
    artillery_by_cavalry: i32,
}

impl Mods {
    fn of(cat: &Catalogue) -> Mods {
        Mods {
            point_blank: cat.fire_mod("point_blank"),
            marksmen: cat.fire_mod("marksmen"),
            column_or_mounted: cat.fire_mod("target_column_or_mounted"),
            firer_poor: cat.fire_mod("firer_poor"),
            firer_wretched: cat.fire_mod("firer_wretched"),
            target_light_cover: cat.fire_mod("target_light_cover"),
            target_heavy_cover: cat.fire_mod("target_heavy_cover"),
            higher_quality: cat.melee_mod("higher_quality"),
            opponent_panic: cat.melee_mod("opponent_panic_marker"),
            attacking_flank: cat.melee_mod("attacking_flank_rear"),
            attacked_flank: cat.melee_mod("attacked_flank_rear"),
            bayonets: cat.melee_mod("bayonets_vs_none"),
            defending_light: cat.melee_mod("defending_light_cover"),
            defending_heavy: cat.melee_mod("defending_heavy_cover"),
            cavalry_vs: cat.melee_mod("cavalry_vs_non_cavalry"),
            routing: cat.melee_mod("routing"),
            light_cover: cat.morale_mod("light_cover"),
            heavy_cover: cat.morale_mod("heavy_cover"),
            equal_friend: cat.morale_mod("equal_friend_routing"),
            higher_friend: cat.morale_mod("higher_friend_routing"),
            open_by_cavalry: cat.morale_mod("open_charged_by_cavalry"),
            skirmish_by_cavalry: cat.morale_mod("skirmish_charged_by_cavalry"),
            skirmish_by_infantry: cat.morale_mod("skirmish_charged_by_infantry"),
            artillery_by_cavalry: cat.morale_mod("artillery_charged_by_cavalry"),
        }
    }
}

/// What a unit does in step 4 (all other movement).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Move {
    /// Stands (and may fire in step 5).
    Hold,
    /// Moves toward enemy `target`, stopping `stop_at` inches from it; `move_fire`: half its
    /// skirmish move, then fires half its figures (B-27's Light Infantry Move/Fire).
    Advance {
        target: usize,
        stop_at: f64,
        move_fire: bool,
    },
}

/// A charge in contact, fought in step 6.
#[derive(Debug, Clone, Copy)]
struct Contact {
    attacker: usize,
    defender: usize,
    flank: bool,
}

/// The whole battle state.
pub struct Battle<'c> {
    pub cat: &'c Catalogue,
    pub units: Vec<Unit>,
    pub brigades: Vec<Brigade>,
    pub divisions: Vec<Division>,
    pub commanders: Vec<Commander>,
    pub edges: [Edge; 2],
    pub names: [String; 2],
    pub turn: u32,
    pub scenario: String,
    pub narrate: bool,
    pub log: Vec<String>,
    /// Units of each side in roster order (for the results).
    pub order: [Vec<usize>; 2],
    dice: Dice,
    mods: Mods,
    /// Units already in a melee this activation (B-22: one unit a side).
    engaged: Vec<usize>,
}

impl<'c> Battle<'c> {
    /// Sets the table (spec 5.3): each side's brigades fill the centre then the wings, within
    /// 8" of their own edge: skirmishers in front, the line, the guns, cavalry behind (B-53).
    pub fn new(
        cat: &'c Catalogue,
        setup: &BattleSetup,
        narrate: bool,
    ) -> Result<Battle<'c>, String> {
        if setup.turns == 0 || setup.turns > MAX_TURNS {
            return Err(format!(
                "A battle lasts from 1 to {MAX_TURNS} turns, not {}.",
                setup.turns
            ));
        }
        let edges = [Edge::Near, Edge::Far];
        let mut b = Battle {
            cat,
            units: Vec::new(),
            brigades: Vec::new(),
            divisions: Vec::new(),
            commanders: Vec::new(),
            edges,
            names: [
                setup.attacker.roster.name.clone(),
                setup.defender.roster.name.clone(),
            ],
            turn: 0,
            scenario: setup.scenario.clone(),
            narrate,
            log: Vec::new(),
            order: [Vec::new(), Vec::new()],
            dice: Dice::from_seed(setup.seed),
            mods: Mods::of(cat),
            engaged: Vec::new(),
        };
        let division_cards = setup.division_cards.unwrap_or(
            !setup.attacker.roster.divisions.is_empty()
                || !setup.defender.roster.divisions.is_empty(),
        );
        for (side, force) in [&setup.attacker, &setup.defender].into_iter().enumerate() {
            let r = &force.roster;
            let edge = edges[side];
            let first_brigade = b.brigades.len();
            let nb = r.brigades.len();
            // Commanders in the order the results list them (record::commanders).
            let ids = commanders(r);
            let mut k = 0;
            let mut push = |b: &mut Battle, c: &super::roster::CommanderDoc| -> usize {
                let (id, name) = ids.get(k).cloned().unwrap_or_default();
                k += 1;
                b.commanders.push(Commander {
                    side,
                    id,
                    name: if name.is_empty() {
                        c.name.clone()
                    } else {
                        name
                    },
                    rating: c.rating_or_default(),
                    fate: Fate::Unhurt,
                    with: None,
                    brigades: Vec::new(),
                });
                b.commanders.len() - 1
            };
            if let Some(c) = &r.army_commander {
                let i = push(&mut b, c);
                b.commanders[i].brigades = (first_brigade..first_brigade + nb).collect();
            }
            let mut division_of_brigade: Vec<Option<usize>> = vec![None; nb];
            for d in &r.divisions {
                let ci = d.commander.as_ref().map(|c| push(&mut b, c));
                let members: Vec<usize> = d
                    .brigades
                    .iter()
                    .filter_map(|id| {
                        r.brigades
                            .iter()
                            .position(|x| x.id.as_deref() == Some(id.as_str()))
                    })
                    .collect();
                if let Some(ci) = ci {
                    b.commanders[ci].brigades = members.iter().map(|m| first_brigade + m).collect();
                }
                if division_cards {
                    b.divisions.push(Division {
                        side,
                        name: d.name.clone(),
                        brigades: members.iter().map(|m| first_brigade + m).collect(),
                    });
                }
                for m in members {
                    division_of_brigade[m] = Some(b.divisions.len());
                }
            }
            for (bi, brigade) in r.brigades.iter().enumerate() {
                let commander = brigade.commander.as_ref().map(|c| push(&mut b, c));
                if let Some(ci) = commander {
                    b.commanders[ci].brigades = vec![first_brigade + bi];
                }
                b.brigades.push(Brigade {
                    side,
                    name: brigade.name.clone(),
                    units: Vec::new(),
                    commander,
                });
            }
            for (bi, s) in roster_units(cat, r) {
                let sector = battlefield::sector_for(bi, nb);
                // B-53: deployment depths within 8" of the edge.
                let from_edge = match (s.kind, s.start_formation()) {
                    (Kind::Cavalry, _) => 3.0,
                    (Kind::Artillery, _) => 6.0,
                    (_, Formation::Skirmish) => 8.0,
                    _ => 7.0,
                };
                let cover =
                    if setup.scenario == "defended_line" && side == 1 && s.kind != Kind::Cavalry {
                        Cover::Light
                    } else {
                        Cover::None
                    };
                let i = b.units.len();
                b.brigades[first_brigade + bi].units.push(i);
                b.order[side].push(i);
                b.units.push(Unit {
                    side,
                    brigade: first_brigade + bi,
                    figures: s.figures,
                    start: s.figures,
                    formation: s.start_formation(),
                    sector,
                    depth: edge.depth() + edge.forward() * from_edge,
                    lateral: 0.0,
                    cover,
                    panic: false,
                    failed_by_1: false,
                    routing: false,
                    reforming: false,
                    reform_next: false,
                    fell_back: false,
                    moved: false,
                    fired: false,
                    move_fire: false,
                    activated: false,
                    fired_on: 0,
                    guns: s.guns,
                    guns_lost: 0,
                    destroyed: false,
                    left_table: false,
                    s,
                });
            }
        }
        if b.order[0].is_empty() || b.order[1].is_empty() {
            return Err("Each side needs at least one unit that can fight.".into());
        }
        Ok(b)
    }

    fn say(&mut self, f: impl FnOnce(&Battle) -> String) {
        if self.narrate {
            let line = f(self);
            self.log.push(line);
        }
    }

    fn d10(&mut self) -> i32 {
        self.dice.below(10) as i32
    }

    fn d6(&mut self) -> u32 {
        u32::from(self.dice.d6())
    }

    /// Distance between two units (M-19's abstract battlefield).
    pub fn dist(&self, i: usize, j: usize) -> f64 {
        battlefield::distance(self.units[i].pos(), self.units[j].pos())
    }

    /// A rate's roll: its inches plus a d6 when it has one (spec 5.2, variable movement).
    fn roll_move(&mut self, rate: &str) -> f64 {
        let (base, die) = self
            .cat
            .move_rate(rate)
            .map_or((0.0, false), |m| (m.base, m.die));
        base + if die { f64::from(self.d6()) } else { 0.0 }
    }

    /// The longest a unit could charge (B-16: the maximum roll, B-26: +3").
    pub fn charge_reach(&self, i: usize) -> f64 {
        let m = self.cat.move_rate(self.units[i].move_rate());
        m.map_or(0.0, |m| m.base + if m.die { 6.0 } else { 0.0 }) + self.cat.movement_bonus.charge
    }

    /// The chance `i`'s charge move (its roll + 3", B-26) reaches `j` (B-58).
    pub fn p_reach(&self, i: usize, j: usize) -> f64 {
        let Some(m) = self.cat.move_rate(self.units[i].move_rate()) else {
            return 0.0;
        };
        let need = self.dist(i, j) - m.base - self.cat.movement_bonus.charge;
        if !m.die {
            return if need <= 1e-9 { 1.0 } else { 0.0 };
        }
        f64::from((1..=6u32).filter(|&f| f64::from(f) + 1e-9 >= need).count() as u32) / 6.0
    }

    /// Whether `i` may shoot at `j` now: in range, and for small arms in its own sector (B-47);
    /// guns reach across sectors (spec 5.3).
    pub fn in_range(&self, i: usize, j: usize) -> bool {
        let (u, t) = (&self.units[i], &self.units[j]);
        if !t.standing() || t.side == u.side {
            return false;
        }
        if u.s.kind != Kind::Artillery && u.sector != t.sector {
            return false;
        }
        self.dist(i, j) <= u.s.range + 1e-9
    }

    /// The best rating of a commander with the unit (B-8: the best only).
    pub fn commander_with(&self, i: usize) -> Option<i32> {
        self.commanders
            .iter()
            .filter(|c| c.with == Some(i) && c.fate != Fate::Killed)
            .map(|c| c.rating)
            .max()
    }

    /// Fire modifier of `i` shooting at `j` (B-4, B-5): the firer's quality and Marksmen, the
    /// target's column, mount and cover, point blank, the cannon's band. `at` overrides the range.
    pub fn fire_modifier(&self, i: usize, j: usize, at: Option<f64>) -> i32 {
        let (u, t) = (&self.units[i], &self.units[j]);
        let m = &self.mods;
        let d = at.unwrap_or_else(|| self.dist(i, j));
        let cannon = u.s.kind == Kind::Artillery;
        let mut total = 0;
        if !cannon && d <= self.cat.point_blank + 1e-9 {
            total += m.point_blank;
        }
        if u.s.marksmen && !cannon {
            total += m.marksmen;
        }
        if t.formation == Formation::Column || t.mounted() {
            total += m.column_or_mounted;
        }
        total += match u.s.quality {
            Quality::Poor => m.firer_poor,
            Quality::Wretched => m.firer_wretched,
            _ => 0,
        };
        total += match t.cover {
            Cover::Light => m.target_light_cover,
            Cover::Heavy => m.target_heavy_cover,
            Cover::None => 0,
        };
        if cannon && at.is_none() {
            if let Some(band) = self.cat.cannon_band(d) {
                total += self.cat.fire_mod(band);
            }
        }
        total
    }

    /// Mean figures removed by `figures` rolling with `modifier` against `cap` figures.
    pub fn expected_hits(&self, figures: u32, modifier: i32, cap: u32) -> f64 {
        let t = &self.cat.combat_table;
        let mut sum = 0.0;
        for chunk in t.chunks(figures) {
            for face in 0..10 {
                sum += f64::from(t.cell(chunk, face + modifier));
            }
        }
        (sum / 10.0).min(f64::from(cap))
    }

    /// One roll of `figures` on the Combat Table (B-2: chunks of 30 each roll their own d10).
    fn roll_table(&mut self, figures: u32, modifier: i32) -> (u32, Vec<i32>) {
        let mut hits = 0;
        let mut faces = Vec::new();
        for chunk in self.cat.combat_table.chunks(figures) {
            if chunk < self.cat.destroyed_below {
                continue; // B-2: below 2 figures, no roll.
            }
            let face = self.d10();
            if self.narrate {
                faces.push(face);
            }
            hits += self.cat.combat_table.cell(chunk, face + modifier);
        }
        (hits, faces)
    }

    /// Modifiers of every morale test of `i` (spec 4.3): the commander with it, cover, friends
    /// seen routing, its loss band.
    fn test_modifier(&self, i: usize) -> i32 {
        let u = &self.units[i];
        let m = &self.mods;
        let mut total = -self.commander_with(i).unwrap_or(0);
        total += match u.cover {
            Cover::Light => m.light_cover,
            Cover::Heavy => m.heavy_cover,
            Cover::None => 0,
        };
        // The highest of the two "friend seen routing" modifiers.
        let mut friend = 0;
        for (k, f) in self.units.iter().enumerate() {
            if k == i
                || f.side != u.side
                || !f.standing()
                || !f.routing
                || !matches!(f.formation, Formation::CloseOrder | Formation::OpenOrder)
                || self.dist(i, k) > 12.0
            {
                continue;
            }
            if f.s.quality > u.s.quality {
                friend = friend.max(m.higher_friend);
            } else if f.s.quality == u.s.quality {
                friend = friend.max(m.equal_friend);
            }
        }
        total += friend;
        if let Some((_, v)) = self
            .cat
            .loss_band(u.start, u.start - u.figures.min(u.start))
        {
            total += v;
        }
        total
    }

    /// A morale test (B-10; Indians one step higher for charge and melee tests, B-11).
    fn test(&mut self, i: usize, kind: TestKind, extra: i32, why: &str) -> MoraleResult {
        let u = &self.units[i];
        let mut number = u.s.morale_number;
        if u.s.kind == Kind::Indian && kind != TestKind::General {
            number = (number + 1).min(self.cat.morale_number(Quality::Elite));
        }
        let m = self.test_modifier(i) + extra;
        let face = self.d10();
        let r = MoraleResult::from_margin(face + m - number);
        self.say(|b| {
            format!(
                "  {} tests {why}: rolls {face}{m:+} against {number}: {}.",
                b.units[i].s.name,
                match r {
                    MoraleResult::Pass => "passes",
                    MoraleResult::FailedBy1 => "fails by 1",
                    MoraleResult::FailedBy2 => "fails by 2 or more",
                }
            )
        });
        r
    }

    /// The ordinary consequence of a test (spec 4.3, B-12, B-23): a pass removes the marker;
    /// failing by 1 keeps it and restricts; by 2 or more the unit routs.
    fn apply_test(&mut self, i: usize, r: MoraleResult) {
        match r {
            MoraleResult::Pass => {
                self.units[i].panic = false;
                self.units[i].failed_by_1 = false;
            }
            MoraleResult::FailedBy1 => {
                self.units[i].panic = true;
                self.units[i].failed_by_1 = true;
            }
            MoraleResult::FailedBy2 => self.rout(i),
        }
    }

    /// The unit routs (spec 4.3, B-24): a marker, no formation, its rout move away from the
    /// enemy at once; off the table it is lost. Friends within 12" whose quality is not higher
    /// than the router's receive a marker (trigger 2), tested at their next activation (B-12).
    fn rout(&mut self, i: usize) {
        if !self.units[i].standing() {
            return;
        }
        let already = self.units[i].routing;
        {
            let u = &mut self.units[i];
            u.routing = true;
            u.panic = true;
            u.failed_by_1 = false;
            u.reforming = false;
            u.reform_next = false;
            u.cover = Cover::None;
        }
        if !already {
            self.say(|b| format!("  {} routs!", b.units[i].s.name));
            let (side, q) = (self.units[i].side, self.units[i].s.quality);
            for k in 0..self.units.len() {
                let f = &self.units[k];
                if k != i
                    && f.side == side
                    && f.active()
                    && f.s.quality <= q
                    && self.dist(i, k) <= 12.0
                {
                    self.units[k].panic = true;
                }
            }
        }
        self.rout_move(i);
    }

    /// A rout move toward the unit's own edge (B-24); past the edge it has left the table.
    fn rout_move(&mut self, i: usize) {
        let rate = self.units[i].move_rate();
        let inches = self.roll_move(rate);
        let edge = self.edges[self.units[i].side];
        let u = &mut self.units[i];
        u.moved = true;
        let depth = u.depth - edge.forward() * inches;
        if (depth - edge.depth()) * edge.forward() < 0.0 {
            u.left_table = true;
            u.depth = edge.depth();
            self.say(|b| {
                format!(
                    "  {} runs {inches}\" and leaves the table.",
                    b.units[i].s.name
                )
            });
        } else {
            u.depth = depth;
            self.say(|b| format!("  {} runs {inches}\" to the rear.", b.units[i].s.name));
        }
    }

    /// Removes `hits` figures from `j` (capped at what it has), with the marker of trigger 1
    /// when `mark` (B-12: deferred to its next Morale Phase), the risk to a general with it
    /// (B-32) and destruction below 2 figures or with no crew (B-33).
    fn casualties(&mut self, j: usize, hits: u32, mark: bool) {
        let hits = hits.min(self.units[j].figures);
        if hits == 0 {
            return;
        }
        self.units[j].figures -= hits;
        if mark {
            self.units[j].panic = true;
        }
        self.risk_to_generals(j, hits);
        self.check_destroyed(j);
    }

    fn check_destroyed(&mut self, j: usize) {
        let u = &self.units[j];
        if !u.standing() {
            return;
        }
        let gone = if u.s.kind == Kind::Artillery {
            u.figures == 0 || u.guns == 0
        } else {
            u.figures < self.cat.destroyed_below
        };
        if gone {
            self.units[j].destroyed = true;
            self.say(|b| format!("  {} is destroyed and removed (B-33).", b.units[j].s.name));
            for c in &mut self.commanders {
                if c.with == Some(j) {
                    c.with = None;
                }
            }
        }
    }

    /// B-32: one d10 per two casualties (rounded up) for each general with the unit; each 1
    /// reads a d6 on the wound table; the worst result counts. A killed commander panics the
    /// units beneath him.
    fn risk_to_generals(&mut self, j: usize, hits: u32) {
        let risk = &self.cat.general_risk;
        let dice_n = hits.div_ceil(risk.hits_per_die.max(1));
        for c in 0..self.commanders.len() {
            if self.commanders[c].with != Some(j) || self.commanders[c].fate == Fate::Killed {
                continue;
            }
            let mut worst: Option<super::catalogue::Wound> = None;
            for _ in 0..dice_n {
                if self.dice.below(10) == self.cat.general_risk.trigger {
                    let face = usize::from(self.dice.d6()) - 1;
                    if let Some(&w) = self.cat.general_risk.wounds.get(face) {
                        worst = worst.max(Some(w));
                    }
                }
            }
            let Some(w) = worst else { continue };
            let fate = Fate::from_wound(w);
            let rank = |f: Fate| match f {
                Fate::Unhurt => 0,
                Fate::LightWound => 1,
                Fate::SeriousWound => 2,
                Fate::Killed => 3,
            };
            if rank(fate) > rank(self.commanders[c].fate) {
                self.commanders[c].fate = fate;
            }
            self.say(|b| {
                format!(
                    "  {} is {} (B-32).",
                    b.commanders[c].name_or("The commander"),
                    fate.words()
                )
            });
            if fate == Fate::Killed {
                self.commanders[c].with = None;
                let brigades = self.commanders[c].brigades.clone();
                for bi in brigades {
                    for k in self.brigades[bi].units.clone() {
                        if self.units[k].active() {
                            self.units[k].panic = true;
                        }
                    }
                }
            }
        }
    }

    /// The figures `i` fires with now, after B-45's halving: failed by 1 (Elite to Regular
    /// half up; Poor and Wretched none), reforming (half down), Light Infantry Move/Fire (half up).
    fn shot_figures(&self, i: usize, base: u32) -> u32 {
        let u = &self.units[i];
        let mut f = base;
        if u.failed_by_1 {
            if u.s.quality.is_low() {
                return 0;
            }
            f = f.div_ceil(2);
        }
        if u.reforming {
            f /= 2;
        }
        if u.move_fire {
            f = f.div_ceil(2);
        }
        f
    }

    /// One unit's fire at `j` (step 5 or reaction fire at 2" with `at`): small arms in one
    /// roll; each gun on its own (B-3); counter-battery (B-6); the 6+ figures marker for Poor
    /// and Wretched targets (B-31). Returns the figures removed.
    fn shoot(&mut self, i: usize, j: usize, figures: u32, at: Option<f64>, mark: bool) -> u32 {
        let cannon = self.units[i].s.kind == Kind::Artillery;
        let modifier = self.fire_modifier(i, j, at);
        let shots: Vec<u32> = if cannon {
            let per = self.units[i].s.gun_figures;
            if self.units[i].figures == 0 {
                Vec::new()
            } else {
                vec![per; self.units[i].guns as usize]
            }
        } else if figures >= self.cat.destroyed_below {
            vec![figures]
        } else {
            Vec::new()
        };
        let mut total = 0;
        for f in shots {
            if !self.units[j].standing() {
                break;
            }
            let (hits, faces) = self.roll_table(f, modifier);
            let hits = hits.min(self.units[j].figures);
            self.units[j].fired_on += f;
            self.say(|b| {
                format!(
                    "  {} fires {f} figures at {} ({:.0}\"): d10 {faces:?} {modifier:+}: {hits} figure{} down.",
                    b.units[i].s.name,
                    b.units[j].s.name,
                    at.unwrap_or_else(|| b.dist(i, j)),
                    if hits == 1 { "" } else { "s" }
                )
            });
            total += hits;
            if hits > 0 && self.units[j].s.kind == Kind::Artillery {
                let face = self.dice.below(10);
                if self.cat.counter_battery.destroys_on.contains(&face) {
                    let t = &mut self.units[j];
                    t.guns = t.guns.saturating_sub(1);
                    t.guns_lost += 1;
                    self.say(|b| format!("  A gun of {} is knocked out (B-6).", b.units[j].s.name));
                }
            }
            self.casualties(j, hits, mark);
        }
        if mark
            && self.units[j].standing()
            && self.units[j].s.quality.is_low()
            && self.units[j].fired_on >= 6
        {
            self.units[j].panic = true; // B-31
        }
        total
    }

    /// Whether `i` in its Morale Phase may test to rally: behind a friendly unit that is not
    /// routing, in its sector (B-24 in the abstract).
    fn may_rally(&self, i: usize) -> bool {
        let u = &self.units[i];
        let fwd = self.edges[u.side].forward();
        self.units.iter().enumerate().any(|(k, f)| {
            k != i
                && f.side == u.side
                && f.active()
                && f.sector == u.sector
                && (f.depth - u.depth) * fwd > 0.0
        })
    }

    /// Moves `i` toward `target`, at most `allowance`, stopping `stop_at` from it and never
    /// nearer than 2" to an enemy in its sector. Into another sector, the move goes to the
    /// side until it has covered the gap (M-19). Returns the inches moved.
    fn move_toward(&mut self, i: usize, target: usize, stop_at: f64, allowance: f64) -> f64 {
        let (ts, td) = self.units[target].pos();
        let (s, d) = self.units[i].pos();
        let side = self.units[i].side;
        if ts != s {
            let u = &mut self.units[i];
            u.lateral += allowance;
            if u.lateral >= SECTOR_GAP {
                u.lateral = 0.0;
                u.sector = battlefield::clamp_sector(s + (ts - s).signum());
            }
            u.cover = Cover::None;
            return allowance;
        }
        let gap = (td - d).abs();
        let step = allowance.min(gap - stop_at).max(0.0);
        if step <= 0.0 {
            return 0.0;
        }
        let dir = (td - d).signum();
        let mut nd = d + dir * step;
        for e in self
            .units
            .iter()
            .filter(|e| e.side != side && e.standing() && e.sector == s)
        {
            let ahead = (e.depth - nd) * dir;
            if (e.depth - d) * dir > 0.0 && ahead < 2.0 {
                nd = e.depth - dir * 2.0;
            }
        }
        if (nd - d) * dir <= 0.0 {
            return 0.0;
        }
        let u = &mut self.units[i];
        u.depth = battlefield::on_table(nd);
        u.cover = Cover::None;
        (nd - d).abs()
    }

    /// Standing units of `side`'s brigade `bi`.
    fn brigade_alive(&self, bi: usize) -> bool {
        self.brigades[bi]
            .units
            .iter()
            .any(|&k| self.units[k].standing())
    }

    /// The deck of this turn: a card per brigade with units left, a card per division (B-29,
    /// optional rule one), shuffled.
    fn deck(&mut self) -> Vec<Card> {
        let mut deck: Vec<Card> = (0..self.brigades.len())
            .filter(|&bi| self.brigade_alive(bi))
            .map(Card::Brigade)
            .collect();
        for di in 0..self.divisions.len() {
            if self.divisions[di]
                .brigades
                .iter()
                .any(|&bi| self.brigade_alive(bi))
            {
                deck.push(Card::Division(di));
            }
        }
        // Fisher–Yates with the battle's dice.
        for k in (1..deck.len()).rev() {
            let r = self.dice.below(k as u32 + 1) as usize;
            deck.swap(k, r);
        }
        deck
    }

    /// The side's results now.
    pub fn side_result(&self, side: usize) -> SideResult {
        let units = self.order[side]
            .iter()
            .map(|&k| {
                let u = &self.units[k];
                UnitResult {
                    id: u.s.id.clone(),
                    name: u.s.name.clone(),
                    start_figures: u.start,
                    // A removed unit's last figure goes with it (B-33).
                    figures_lost: if u.destroyed {
                        u.start
                    } else {
                        u.start - u.figures.min(u.start)
                    },
                    routed: u.routing && u.standing(),
                    left_table: u.left_table,
                    destroyed: u.destroyed,
                    guns_lost: u.guns_lost,
                }
            })
            .collect();
        let commanders = self
            .commanders
            .iter()
            .filter(|c| c.side == side)
            .map(|c| CommanderResult {
                id: c.id.clone(),
                name: c.name.clone(),
                fate: c.fate,
            })
            .collect();
        let mut r = SideResult {
            name: self.names[side].clone(),
            units,
            commanders,
            defeated: false,
        };
        r.defeated = r.broken(self.cat);
        r
    }
}

impl Commander {
    fn name_or<'a>(&'a self, fallback: &'a str) -> &'a str {
        if self.name.is_empty() {
            fallback
        } else {
            &self.name
        }
    }
}

/// Fights the battle with the standard policy, narrated.
pub fn fight(cat: &Catalogue, setup: &BattleSetup) -> Result<Outcome, String> {
    fight_with(cat, setup, &StandardPolicy, true)
}

/// Fights the battle with `policy`; `narrate` keeps the log.
pub fn fight_with<P: Policy>(
    cat: &Catalogue,
    setup: &BattleSetup,
    policy: &P,
    narrate: bool,
) -> Result<Outcome, String> {
    let mut b = Battle::new(cat, setup, narrate)?;
    b.say(|b| {
        format!(
            "{} attacks {} ({}); at most {} turns. Seed {}.",
            b.names[0],
            b.names[1],
            b.scenario.replace('_', " "),
            setup.turns,
            setup.seed
        )
    });
    for turn in 1..=setup.turns {
        b.turn = turn;
        b.play_turn(policy);
        let (a, d) = (b.side_result(0), b.side_result(1));
        if let Some((winner, level, reason)) = decide(cat, &a, &d, turn == setup.turns) {
            b.say(|_| format!("End of turn {turn}: {reason}"));
            return Ok(Outcome {
                method: Method::Simulated,
                winner,
                level,
                turns: turn,
                attacker: a,
                defender: d,
                reason,
                log: std::mem::take(&mut b.log),
            });
        }
    }
    Err("The battle did not end.".into())
}

impl Battle<'_> {
    /// One turn (B-29): fresh flags, the shuffled deck drawn card by card.
    fn play_turn<P: Policy>(&mut self, policy: &P) {
        for u in &mut self.units {
            u.activated = false;
            u.fell_back = false;
            u.fired_on = 0;
        }
        let deck = self.deck();
        self.say(|b| format!("Turn {}.", b.turn));
        for card in deck {
            let (units, name) = match card {
                Card::Brigade(bi) => (
                    self.brigades[bi].units.clone(),
                    self.brigades[bi].name.clone(),
                ),
                Card::Division(di) => (
                    self.divisions[di]
                        .brigades
                        .iter()
                        .flat_map(|&bi| self.brigades[bi].units.clone())
                        .collect(),
                    self.divisions[di].name.clone(),
                ),
            };
            let units: Vec<usize> = units
                .into_iter()
                .filter(|&k| self.units[k].standing() && !self.units[k].activated)
                .collect();
            if units.is_empty() {
                continue;
            }
            self.say(|b| {
                format!(
                    "{}'s card: {} ({}).",
                    b.names[b.units[units[0]].side],
                    if name.is_empty() { "a brigade" } else { &name },
                    units.len()
                )
            });
            self.activate(&units, policy);
        }
    }

    /// A card's units go through steps 1–6 together (B-29).
    fn activate<P: Policy>(&mut self, units: &[usize], policy: &P) {
        self.engaged.clear();
        for &i in units {
            let u = &mut self.units[i];
            u.activated = true;
            u.moved = false;
            u.fired = false;
            u.move_fire = false;
            if u.reform_next {
                u.reform_next = false;
                u.reforming = true;
            }
        }
        // Commanders ride to where the policy wants them.
        let brigades: Vec<usize> = {
            let mut v: Vec<usize> = units.iter().map(|&i| self.units[i].brigade).collect();
            v.dedup();
            v
        };
        for bi in brigades {
            if let Some(c) = self.brigades[bi].commander {
                if self.commanders[c].fate != Fate::Killed {
                    self.commanders[c].with = policy.commander_post(self, bi);
                }
            }
        }
        // 1. Morale Phase: markers are tested (B-12); routers behind friends test to rally (B-24).
        for &i in units {
            if !self.units[i].standing() {
                continue;
            }
            if self.units[i].routing {
                if self.may_rally(i) {
                    let r = self.test(i, TestKind::General, 0, "to rally");
                    if r == MoraleResult::Pass {
                        let u = &mut self.units[i];
                        u.routing = false;
                        u.panic = false;
                        u.reforming = true;
                        self.say(|b| {
                            format!("  {} rallies and reforms (B-25).", b.units[i].s.name)
                        });
                    }
                }
            } else if self.units[i].panic {
                let r = self.test(i, TestKind::General, 0, "its Panic Marker");
                self.apply_test(i, r);
            }
        }
        // 2–3. Charges, with the reaction tests and fire (B-13 to B-16).
        let mut contacts = Vec::new();
        for &i in units {
            if let Some(c) = self.try_charge(i, policy) {
                contacts.push(c);
            }
        }
        // 4. All other movement.
        for &i in units {
            let u = &self.units[i];
            if !u.standing() || u.moved || u.fell_back || self.engaged.contains(&i) {
                continue;
            }
            if u.routing {
                self.rout_move(i);
                continue;
            }
            if u.reforming || u.failed_by_1 {
                continue; // B-25 in place; B-23 may not advance.
            }
            if let Move::Advance {
                target,
                stop_at,
                move_fire,
            } = policy.movement(self, i)
            {
                let rate = self.units[i].move_rate();
                let mut inches = self.roll_move(rate);
                if move_fire {
                    // B-27: half the skirmish move, then half the figures fire.
                    inches = self.roll_move("skirmish") / 2.0;
                }
                let moved = self.move_toward(i, target, stop_at, inches);
                if moved > 0.0 {
                    self.units[i].moved = true;
                    self.units[i].move_fire = move_fire;
                    self.say(|b| {
                        format!(
                            "  {} advances {moved:.1}\" toward {}.",
                            b.units[i].s.name, b.units[target].s.name
                        )
                    });
                }
            }
        }
        // 5. Fire (B-27: units that moved do not, except Light Infantry Move/Fire).
        for &i in units {
            let u = &self.units[i];
            if !u.active()
                || u.fell_back
                || u.fired
                || (u.moved && !u.move_fire)
                || self.engaged.contains(&i)
            {
                continue;
            }
            let Some(j) = policy.fire_target(self, i) else {
                continue;
            };
            if !self.in_range(i, j) {
                continue;
            }
            let figures = self.shot_figures(i, self.units[i].firing_figures());
            if figures == 0 && self.units[i].s.kind != Kind::Artillery {
                continue;
            }
            self.units[i].fired = true;
            self.shoot(i, j, figures, None, true);
        }
        // 6. Melee.
        for c in contacts {
            self.melee(c);
        }
        for &i in units {
            self.units[i].reforming = false;
        }
    }

    /// Step 2–3 for unit `i`: the policy's charge, then the declaration test, the move, the
    /// defender's test and fire, the closing test (spec 4.4). A contact for step 6, if any.
    fn try_charge<P: Policy>(&mut self, i: usize, policy: &P) -> Option<Contact> {
        let u = &self.units[i];
        if !u.active()
            || u.reforming
            || u.failed_by_1
            || u.fell_back
            || !u.may_charge()
            || self.engaged.contains(&i)
        {
            return None;
        }
        let reach = self.charge_reach(i);
        let candidates: Vec<usize> = (0..self.units.len())
            .filter(|&j| {
                let t = &self.units[j];
                t.side != u.side
                    && t.active()
                    && !self.engaged.contains(&j)
                    && self.dist(i, j) <= reach
            })
            .collect();
        if candidates.is_empty() {
            return None;
        }
        let j = policy.charge_target(self, i, &candidates)?;
        if !candidates.contains(&j) {
            return None;
        }
        let flank = self.units[i].sector != self.units[j].sector;
        self.say(|b| {
            format!(
                "  {} declares a charge on {}.",
                b.units[i].s.name, b.units[j].s.name
            )
        });
        // 1. Declaration test (B-13): trigger 5, taken at once.
        let r = self.test(i, TestKind::Charge, 0, "to charge");
        match r {
            MoraleResult::Pass => self.units[i].panic = false,
            MoraleResult::FailedBy1 => {
                // Falls back a full move facing the enemy, keeps the marker, does nothing more.
                let rate = self.units[i].move_rate();
                let inches = self.roll_move(rate);
                let edge = self.edges[self.units[i].side];
                let u = &mut self.units[i];
                u.depth = battlefield::on_table(u.depth - edge.forward() * inches);
                u.panic = true;
                u.fell_back = true;
                u.moved = true;
                u.cover = Cover::None;
                self.say(|b| format!("  {} falls back {inches}\" (B-13).", b.units[i].s.name));
                return None;
            }
            MoraleResult::FailedBy2 => {
                self.rout(i);
                return None;
            }
        }
        // 2. The move (B-26: +3" for the charge).
        let rate = self.units[i].move_rate();
        let inches = self.roll_move(rate) + self.cat.movement_bonus.charge;
        let distance = self.dist(i, j);
        self.units[i].moved = true;
        self.units[i].cover = Cover::None;
        // Skirmishers evade (B-30); skirmishing cavalry evade infantry without a test.
        if self.units[j].formation == Formation::Skirmish && self.units[j].s.kind != Kind::Indian {
            self.evade(i, j, inches, policy);
            return None;
        }
        if inches + 1e-9 < distance {
            // Fell short: marker for failing to contact (trigger 8, deferred).
            let target = j;
            self.move_toward(i, target, 0.0, inches);
            self.units[i].panic = true;
            self.say(|b| {
                format!(
                    "  {} rolls {inches}\" and falls short of {}.",
                    b.units[i].s.name, b.units[j].s.name
                )
            });
            return None;
        }
        // 3. The defender's test (B-14): trigger 6, at once.
        let extra = self.charged_modifier(i, j);
        let r = self.test(j, TestKind::Charged, extra, "on being charged");
        let fire = match r {
            MoraleResult::Pass => {
                self.units[j].panic = false;
                self.units[j].failed_by_1 = false;
                Some(self.units[j].firing_figures())
            }
            MoraleResult::FailedBy1 => {
                // Stands (B-36) with its marker; E/V/R infantry fire half rounded down.
                self.units[j].panic = true;
                self.units[j].failed_by_1 = true;
                let t = &self.units[j];
                (matches!(t.s.kind, Kind::Infantry | Kind::Indian) && !t.s.quality.is_low())
                    .then(|| t.firing_figures() / 2)
            }
            MoraleResult::FailedBy2 => {
                // Routs before contact: the charge has succeeded.
                self.rout(j);
                self.place_in_contact(i, j);
                self.say(|b| format!("  {} takes the ground.", b.units[i].s.name));
                return None;
            }
        };
        // Reaction fire at 2" (B-14), never barred by having moved or fired (B-27).
        let mut hits = 0;
        if let Some(f) = fire {
            let is_gun = self.units[j].s.kind == Kind::Artillery;
            if f >= self.cat.destroyed_below || is_gun {
                hits = self.shoot(j, i, f, Some(self.cat.point_blank), false);
            }
        }
        if !self.units[i].standing() {
            return None;
        }
        // 4. The closing test after any casualty (B-15): trigger 7, at once.
        if hits > 0 {
            let r = self.test(i, TestKind::Closing, 0, "to close");
            match r {
                MoraleResult::Pass => self.units[i].panic = false,
                MoraleResult::FailedBy1 => {
                    self.units[i].panic = true;
                    self.move_toward(i, j, 2.0, inches);
                    self.say(|b| format!("  {} halts 2\" short (B-15).", b.units[i].s.name));
                    return None;
                }
                MoraleResult::FailedBy2 => {
                    self.rout(i);
                    return None;
                }
            }
        }
        self.place_in_contact(i, j);
        self.engaged.push(i);
        self.engaged.push(j);
        Some(Contact {
            attacker: i,
            defender: j,
            flank,
        })
    }

    /// Puts the charger on the target's ground (same sector and depth).
    fn place_in_contact(&mut self, i: usize, j: usize) {
        let (s, d) = self.units[j].pos();
        let u = &mut self.units[i];
        u.sector = s;
        u.depth = d;
        u.lateral = 0.0;
    }

    /// The modifier of the test taken on being charged (spec 4.3).
    fn charged_modifier(&self, i: usize, j: usize) -> i32 {
        let (a, d) = (&self.units[i], &self.units[j]);
        let m = &self.mods;
        match (a.mounted(), d.s.kind, d.formation) {
            (true, Kind::Artillery, _) => m.artillery_by_cavalry,
            (true, _, Formation::OpenOrder) => m.open_by_cavalry,
            (true, _, Formation::Skirmish) => m.skirmish_by_cavalry,
            (false, _, Formation::Skirmish) if a.s.kind == Kind::Infantry => m.skirmish_by_infantry,
            _ => 0,
        }
    }

    /// Skirmishers charged (B-30): skirmishing cavalry evade infantry outright; otherwise a
    /// test: a pass evades (first firing half, rounded down, when they have neither fired nor
    /// moved and the policy wants it), any failure routs. Evaders take a marker; the charger
    /// is not marked for missing them.
    fn evade<P: Policy>(&mut self, i: usize, j: usize, inches: f64, policy: &P) {
        let auto = self.units[j].mounted() && !self.units[i].mounted();
        let fresh = !self.units[j].fired && !self.units[j].moved;
        let passed = if auto {
            true
        } else {
            let extra = self.charged_modifier(i, j);
            let r = self.test(j, TestKind::Charged, extra, "on being charged");
            r == MoraleResult::Pass
        };
        if !passed {
            self.rout(j);
            self.move_toward(i, j, 2.0, inches);
            return;
        }
        if fresh && !auto && policy.evade_with_fire(self, j, i) {
            let f = self.units[j].firing_figures() / 2;
            if f >= self.cat.destroyed_below {
                self.shoot(j, i, f, Some(self.cat.point_blank), false);
            }
        }
        let retreat = if self.units[j].mounted() {
            "cavalry_retreat"
        } else {
            "infantry_retreat"
        };
        let back = self.roll_move(retreat) / 2.0;
        let edge = self.edges[self.units[j].side];
        let t = &mut self.units[j];
        t.depth = battlefield::on_table(t.depth - edge.forward() * back);
        t.panic = true;
        t.moved = true;
        t.cover = Cover::None;
        self.say(|b| format!("  {} evades {back}\" (B-30).", b.units[j].s.name));
        if self.units[i].standing() && !self.units[i].routing {
            self.move_toward(i, j, 2.0, inches);
        }
    }

    /// Figures of `me` fighting `them` in a round (B-17, spec 5.3's frontage).
    pub fn melee_figures(&self, me: usize, them: usize, round: u32) -> u32 {
        let (u, t) = (&self.units[me], &self.units[them]);
        let fps = if u.s.kind == Kind::Artillery {
            1
        } else {
            u.s.figures_per_stand.max(1)
        };
        if u.s.kind == Kind::Artillery {
            return u.figures;
        }
        let front = u.front();
        let contact = if u.plain_skirmisher() {
            front.min(t.front().div_ceil(2))
        } else {
            front.min(t.front())
        };
        let flanks = 2u32.min(front - contact.min(front));
        if round == 2 {
            return if u.plain_skirmisher() {
                u.figures.min((contact + 2) * fps)
            } else {
                u.figures
            };
        }
        let overlap = if u.s.quality.is_low() || u.plain_skirmisher() {
            0
        } else if u.s.kind == Kind::Indian {
            flanks * 2 // B-17: two figures a flank.
        } else {
            flanks * fps
        };
        u.figures.min(contact * fps + overlap)
    }

    /// Melee modifier of `me` against `them` (B-18), fixed for both rounds (B-19).
    pub fn melee_modifier(&self, me: usize, them: usize, attacker: bool, flank: bool) -> i32 {
        let (u, t) = (&self.units[me], &self.units[them]);
        let m = &self.mods;
        let mut total = 0;
        let steps = u.s.quality.step() - t.s.quality.step();
        if steps > 0 {
            total += steps * m.higher_quality;
        }
        if t.panic {
            total += m.opponent_panic;
        }
        if flank {
            total += if attacker {
                m.attacking_flank
            } else {
                m.attacked_flank
            };
        }
        let armed = |x: &Unit| x.s.melee_armed;
        if !u.mounted() && !t.mounted() && armed(u) && !armed(t) {
            total += m.bayonets;
        }
        if !attacker {
            total += match u.cover {
                Cover::Light => m.defending_light,
                Cover::Heavy => m.defending_heavy,
                Cover::None => 0,
            };
        }
        if u.mounted() && !t.mounted() {
            total += m.cavalry_vs;
        }
        if u.routing {
            total += m.routing;
        }
        total
    }

    /// Step 6: the melee of a charge in contact (B-17 to B-21), its winner and the tests
    /// (B-20), the repulse.
    fn melee(&mut self, c: Contact) {
        let (a, d) = (c.attacker, c.defender);
        if !self.units[a].active() || !self.units[d].standing() {
            return;
        }
        let am = self.melee_modifier(a, d, true, c.flank);
        let dm = self.melee_modifier(d, a, false, c.flank);
        // B-21: mounted cavalry against foot (not guns) fight one round.
        let (ua, ud) = (&self.units[a], &self.units[d]);
        let one_round = (ua.mounted() && !ud.mounted() && ud.s.kind != Kind::Artillery)
            || (ud.mounted() && !ua.mounted() && ua.s.kind != Kind::Artillery);
        self.say(|b| {
            format!(
                "  Melee: {} ({:+}) against {} ({:+}){}.",
                b.units[a].s.name,
                am,
                b.units[d].s.name,
                dm,
                if one_round { ", one round (B-21)" } else { "" }
            )
        });
        let (mut la, mut ld) = (0, 0);
        for round in 1..=if one_round { 1 } else { 2 } {
            if !self.units[a].standing() || !self.units[d].standing() {
                break;
            }
            let fa = self.melee_figures(a, d, round);
            let fd = self.melee_figures(d, a, round);
            let (hd, _) = self.roll_table(fa, am);
            let (ha, _) = self.roll_table(fd, dm);
            let hd = hd.min(self.units[d].figures);
            let ha = ha.min(self.units[a].figures);
            self.say(|b| {
                format!(
                    "  Round {round}: {} with {fa} figures takes {ha}; {} with {fd} figures takes {hd}.",
                    b.units[a].s.name, b.units[d].s.name
                )
            });
            la += ha;
            ld += hd;
            // Removed together; no markers mid-melee (B-19): the tests below stand for them.
            self.casualties(a, ha, false);
            self.casualties(d, hd, false);
        }
        // B-20: more losses routs outright; the other tests if it lost any; equal, both test.
        let a_alive = self.units[a].standing();
        let d_alive = self.units[d].standing();
        let mut a_routs = !a_alive;
        let mut d_routs = !d_alive;
        if a_alive && d_alive {
            if la > ld {
                a_routs = true;
                if ld > 0 {
                    d_routs = self.post_melee(d) == MoraleResult::FailedBy2;
                }
            } else if ld > la {
                d_routs = true;
                if la > 0 {
                    a_routs = self.post_melee(a) == MoraleResult::FailedBy2;
                }
            } else {
                a_routs = self.post_melee(a) == MoraleResult::FailedBy2;
                d_routs = self.post_melee(d) == MoraleResult::FailedBy2;
            }
        }
        if a_routs && a_alive {
            self.rout(a);
        }
        if d_routs && d_alive {
            self.rout(d);
        }
        if !a_routs && !d_routs && self.units[a].standing() {
            // Repulsed: back a full column move, facing the enemy; reforms next turn.
            let rate = if self.units[a].mounted() {
                "cavalry"
            } else {
                "column"
            };
            let back = self.roll_move(rate);
            let edge = self.edges[self.units[a].side];
            let u = &mut self.units[a];
            u.depth = battlefield::on_table(u.depth - edge.forward() * back);
            u.reform_next = true;
            self.say(|b| {
                format!(
                    "  {} is repulsed and falls back {back}\".",
                    b.units[a].s.name
                )
            });
        }
    }

    /// A post-melee test (B-20) with its consequences; a routing result is left to the caller.
    fn post_melee(&mut self, i: usize) -> MoraleResult {
        let r = self.test(i, TestKind::PostMelee, 0, "after the melee");
        match r {
            MoraleResult::Pass => {
                self.units[i].panic = false;
                self.units[i].failed_by_1 = false;
            }
            MoraleResult::FailedBy1 => {
                self.units[i].panic = true;
                self.units[i].failed_by_1 = true;
            }
            MoraleResult::FailedBy2 => {}
        }
        r
    }
}
