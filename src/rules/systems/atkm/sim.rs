//! The *All the King's Men* simulator (spec 5): the 28-card deck with its special cards, command
//! points and radius, resolve colours, opposed fire, the melee exchange, break points and army
//! collapse, on the shared abstract battlefield (`rules::battlefield`: three sectors, 48" deep).
//! Seeded and replayable: the same set-up document gives the same battle and the same log.
//! The decisions are a [`Policy`]'s (swappable); [`StandardPolicy`] is spec 5.3's minimum.
//! What it leaves out is listed in `docs/systems/atkm.md`.

use crate::rules::battlefield::{distance, on_table, SECTOR_GAP, TABLE_DEPTH};
use crate::rules::dice::Dice;
use crate::rules::system::{BattleSide, Method};

use super::battle::{
    army_collapsed, BattleSetup, GeneralResult, Outcome, SideResult, UnitResult, RESULT_FORMAT,
};
use super::catalogue::Catalogue;
use super::types::{AdvancedRule, Colour, Gun, Quality, UnitType};
use super::validate::profile;

/// A unit on the abstract table.
#[derive(Debug, Clone)]
pub struct SimUnit {
    pub side: BattleSide,
    pub id: String,
    pub name: String,
    pub t: UnitType,
    pub start: u32,
    pub figures: u32,
    pub break_point: u32,
    pub quality: Quality,
    pub gun: Option<Gun>,
    pub scrap: bool,
    pub officer: bool,
    pub ensign: bool,
    pub colour: Colour,
    pub disordered: bool,
    /// In column (moving) rather than formed for fire: infantry and cavalry line, artillery loose.
    pub column: bool,
    pub mob: bool,
    pub collapsed: bool,
    pub left_table: bool,
    pub arrived: bool,
    pub reinforcement: bool,
    pub sector: i32,
    pub depth: f64,
    /// Index of its general in the side's list.
    pub general: usize,
    pub gun_lost: bool,
}

impl SimUnit {
    fn standing(&self) -> bool {
        self.arrived && !self.collapsed && !self.left_table
    }
    fn pos(&self) -> (i32, f64) {
        (self.sector, self.depth)
    }
}

/// A general of one side.
#[derive(Debug, Clone)]
pub struct SimGeneral {
    pub id: String,
    pub name: String,
    pub rating: u32,
    pub start_rating: u32,
    pub radius: f64,
    pub commanding: bool,
}

/// The state of a battle being fought.
#[derive(Debug, Clone)]
pub struct State {
    pub units: Vec<SimUnit>,
    pub generals: [Vec<SimGeneral>; 2],
    pub cp: [u32; 2],
    pub turn: u32,
    pub rules: [Vec<AdvancedRule>; 2],
    pub log: Vec<String>,
    pub narrate: bool,
    /// The turn Monmouth's Main Army arrived.
    pub reinforced_on: Option<u32>,
}

fn idx(side: BattleSide) -> usize {
    match side {
        BattleSide::Attacker => 0,
        BattleSide::Defender => 1,
    }
}

/// The edge each side starts from and moves away from: the attacker the near one (depth 0).
fn forward(side: BattleSide) -> f64 {
    match side {
        BattleSide::Attacker => 1.0,
        BattleSide::Defender => -1.0,
    }
}

fn home(side: BattleSide) -> f64 {
    match side {
        BattleSide::Attacker => 0.0,
        BattleSide::Defender => TABLE_DEPTH,
    }
}

/// A card of the 28-card deck: its side and rank (1 ace … 13 king, 0 joker).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Card {
    pub side: BattleSide,
    pub rank: u8,
}

/// What a policy decides for one activation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Order {
    /// Reform a mob (nothing else).
    Reform,
    /// Charge unit `target` (an index into `State::units`).
    Charge(usize),
    /// Fire at `target`, after moving `advance` inches toward it.
    Fire { target: usize, advance: f64 },
    /// Move toward `target`, `inches`, then form up (`deploy`).
    Advance {
        target: usize,
        inches: f64,
        deploy: bool,
    },
    /// Stand (the activation still counts).
    Hold,
}

/// How a side decides: which unit acts and what it does, and the Joker's and 2's targets.
/// Swappable: the simulator asks only this.
pub trait Policy {
    /// Picks the unit to activate for `side` among `eligible` (indexes), or `None` to pass when
    /// the rules allow it (they do not: K-19, so the standard policy always picks one).
    fn pick(
        &self,
        cat: &Catalogue,
        st: &State,
        side: BattleSide,
        eligible: &[usize],
    ) -> Option<usize>;
    /// What the unit does.
    fn order(&self, cat: &Catalogue, st: &State, unit: usize) -> Order;
    /// The Joker: the enemy unit to disorder.
    fn joker(&self, st: &State, side: BattleSide) -> Option<usize>;
    /// The 2: one of the side's own units to disorder.
    fn two(&self, st: &State, side: BattleSide) -> Option<usize>;
}

/// Spec 5.3's minimum policy: charge when the exact melee edge is good enough (0.15, cavalry
/// 0.05), else fire at the target with the best expected result, else advance in column and
/// form line within 12"; artillery deploys and stays; mobs reform at once; green units first.
pub struct StandardPolicy;

fn p_of(cat: &Catalogue, c: Colour) -> f64 {
    f64::from(7 - cat.succeeds_on(c)) / 6.0
}

fn binom(n: u32, p: f64) -> Vec<f64> {
    super::odds::binomial(n, p)
}

/// Attacker wins − defender wins of a melee, exact (K-17, K-18).
fn melee_edge(a: (u32, f64, u32, u32), d: (u32, f64, u32, u32)) -> f64 {
    let (ad, ap, af, abp) = a;
    let (dd, dp, df, dbp) = d;
    let x = binom(ad, ap);
    let y = binom(dd, dp);
    let mut edge = 0.0;
    for (i, px) in x.iter().enumerate() {
        for (j, py) in y.iter().enumerate() {
            let dl = (i as u32).min(df);
            let al = (j as u32).min(af);
            let ac = af - al <= abp;
            let dc = df - dl <= dbp;
            let s = match (ac, dc) {
                (true, true) => 0.0,
                (true, false) => -1.0,
                (false, true) => 1.0,
                _ => match al.cmp(&dl) {
                    std::cmp::Ordering::Less => 1.0,
                    std::cmp::Ordering::Greater => -1.0,
                    std::cmp::Ordering::Equal => 0.0,
                },
            };
            edge += s * px * py;
        }
    }
    edge
}

/// Dice a melee brings: (attack dice, attack p, defence dice, defence p), or `None` if not allowed.
fn melee_dice(cat: &Catalogue, st: &State, a: usize, d: usize) -> Option<(u32, f64, u32, f64)> {
    let (ua, ud) = (&st.units[a], &st.units[d]);
    let per = cat.melee_dice(ua.t, cat.unit(ud.t).melee_defends_as)?;
    let mut adice = per * ua.figures;
    if ud.mob {
        adice += cat.bonus("mob");
    }
    if ua.t == UnitType::WoodlandIndians {
        adice += cat.bonus("indian_melee");
    }
    let mut ddice = ud.figures;
    if ud.t == UnitType::WoodlandIndians {
        ddice += cat.bonus("indian_melee");
    }
    let base =
        if (ud.t.is_skirmishing() && ud.t != UnitType::WoodlandIndians) || ud.t.is_artillery() {
            Colour::Red
        } else {
            ud.colour
        };
    let dcol = base.shifted(cat.quality(ud.quality).shift);
    Some((adice, p_of(cat, Colour::Green), ddice, p_of(cat, dcol)))
}

fn move_allowance(cat: &Catalogue, u: &SimUnit) -> f64 {
    let m = cat.unit(u.t).moves;
    let v = if u.t.is_skirmishing() {
        m.loose
    } else if u.column || u.t.is_artillery() {
        m.column.or(m.loose)
    } else {
        m.line.or(m.column)
    };
    f64::from(v.unwrap_or(0))
}

fn range_of(cat: &Catalogue, u: &SimUnit) -> Option<f64> {
    cat.range(u.t, u.gun).map(f64::from)
}

/// Fire dice (attack dice, p, defence dice, p) of `a` firing at `d` at `dist`.
fn fire_dice(cat: &Catalogue, st: &State, a: usize, d: usize, dist: f64) -> (u32, f64, u32, f64) {
    let (ua, ud) = (&st.units[a], &st.units[d]);
    let row = cat.unit(ua.t);
    let close = dist <= f64::from(cat.tables.fire_dice.artillery_close_range);
    let (per, bonus) = match ua.gun.map(|g| cat.gun(g)) {
        Some(g) if close => (g.close_dice, g.close_bonus),
        _ => (row.fire_dice, 0),
    };
    // K-26: a line fires with everyone, a column with its first 4.
    let firing = if ua.t == UnitType::Infantry && ua.column {
        ua.figures.min(4)
    } else {
        ua.figures
    };
    let mut adice = per * firing + bonus;
    if ud.mob {
        adice += cat.bonus("mob");
    }
    let mut acol = ua.colour;
    if let Some(cap) = ua.gun.and_then(|g| cat.gun(g).colour_cap) {
        if (acol as u8) < (cap as u8) {
            acol = cap;
        }
    }
    let mut ddice = ud.figures;
    if ud.t == UnitType::Cavalry {
        ddice += cat.bonus("cavalry_under_fire");
    }
    if ud.t.is_skirmishing() || (ud.t.is_artillery() && !ud.column) {
        ddice += cat.bonus("loose_under_fire");
    }
    if ua.scrap && !close {
        ddice += cat.bonus("scrap_ammunition");
    }
    let dcol = ud.colour.shifted(cat.quality(ud.quality).shift);
    (adice, p_of(cat, acol), ddice, p_of(cat, dcol))
}

impl StandardPolicy {
    fn nearest_enemy(st: &State, u: usize) -> Option<(usize, f64)> {
        let me = &st.units[u];
        st.units
            .iter()
            .enumerate()
            .filter(|(_, e)| e.side != me.side && e.standing())
            .map(|(i, e)| (i, distance(me.pos(), e.pos())))
            .min_by(|a, b| a.1.total_cmp(&b.1))
    }
}

impl Policy for StandardPolicy {
    fn pick(
        &self,
        cat: &Catalogue,
        st: &State,
        _side: BattleSide,
        eligible: &[usize],
    ) -> Option<usize> {
        // Mobs reform first; then green units with something to shoot or charge; then the
        // greenest, nearest to the enemy.
        let score = |i: &usize| {
            let u = &st.units[*i];
            let near = Self::nearest_enemy(st, *i).map_or(999.0, |(_, d)| d);
            let colour = u.colour as u8 as f64;
            let has_target = range_of(cat, u).is_some_and(|r| near <= r);
            let mut s = -colour * 30.0 - near * 0.1;
            if u.mob {
                s += 1000.0;
            }
            if has_target {
                s += 20.0;
            }
            s
        };
        eligible
            .iter()
            .copied()
            .max_by(|a, b| score(a).total_cmp(&score(b)))
    }

    fn order(&self, cat: &Catalogue, st: &State, i: usize) -> Order {
        let u = &st.units[i];
        if u.mob {
            return Order::Reform;
        }
        let Some((near, near_d)) = Self::nearest_enemy(st, i) else {
            return Order::Hold;
        };
        let allowance = move_allowance(cat, u);
        // Charge when the exact edge is good enough and the target is within reach.
        if cat.unit(u.t).can_attack_in_melee {
            let mut best: Option<(usize, f64)> = None;
            for (j, e) in st.units.iter().enumerate() {
                if e.side == u.side || !e.standing() || distance(u.pos(), e.pos()) > allowance {
                    continue;
                }
                if let Some((ad, ap, dd, dp)) = melee_dice(cat, st, i, j) {
                    let edge = melee_edge(
                        (ad, ap, u.figures, u.break_point),
                        (dd, dp, e.figures, e.break_point),
                    );
                    if best.is_none_or(|(_, b)| edge > b) {
                        best = Some((j, edge));
                    }
                }
            }
            let need = if u.t == UnitType::Cavalry { 0.05 } else { 0.15 };
            if let Some((j, edge)) = best {
                if edge >= need {
                    return Order::Charge(j);
                }
            }
        }
        // Fire at the best target in range, moving first if that brings one into range.
        if let Some(range) = range_of(cat, u) {
            let heavy_static = u.gun.is_some_and(|g| !cat.gun(g).move_and_fire);
            let reach = if heavy_static || (u.t.is_artillery() && !u.column) {
                0.0
            } else {
                allowance
            };
            let mut best: Option<(usize, f64, f64)> = None;
            for (j, e) in st.units.iter().enumerate() {
                if e.side == u.side || !e.standing() {
                    continue;
                }
                let d = distance(u.pos(), e.pos());
                let advance = (d - range).max(0.0);
                if advance > reach {
                    continue;
                }
                let (ad, ap, dd, dp) = fire_dice(cat, st, i, j, d - advance);
                let value = f64::from(ad) * ap - f64::from(dd) * dp;
                if best.is_none_or(|(_, v, _)| value > v) {
                    best = Some((j, value, advance));
                }
            }
            if let Some((j, value, advance)) = best {
                if value > 0.0 || u.t.is_artillery() {
                    return Order::Fire { target: j, advance };
                }
            }
        }
        // Artillery deployed stays; cavalry and skirmishers close in; others advance in column.
        if u.t.is_artillery() && !u.column {
            return Order::Hold;
        }
        let stop = range_of(cat, u).map_or(1.0, |r| (r - 2.0).max(1.0));
        let inches = (near_d - stop).clamp(0.0, allowance);
        let deploy = near_d - inches <= 12.0
            || u.t.is_artillery() && range_of(cat, u).is_some_and(|r| near_d - inches <= r);
        Order::Advance {
            target: near,
            inches,
            deploy,
        }
    }

    fn joker(&self, st: &State, side: BattleSide) -> Option<usize> {
        // The enemy unit most likely to attack next: the nearest to our units, green first.
        st.units
            .iter()
            .enumerate()
            .filter(|(_, e)| e.side != side && e.standing() && !e.disordered)
            .min_by(|a, b| {
                let da = nearest_foe(st, a.0);
                let db = nearest_foe(st, b.0);
                da.total_cmp(&db)
            })
            .map(|(i, _)| i)
    }

    fn two(&self, st: &State, side: BattleSide) -> Option<usize> {
        // The unit least likely to be needed: the farthest from the enemy.
        st.units
            .iter()
            .enumerate()
            .filter(|(_, u)| u.side == side && u.standing() && !u.disordered)
            .max_by(|a, b| nearest_foe(st, a.0).total_cmp(&nearest_foe(st, b.0)))
            .map(|(i, _)| i)
    }
}

fn nearest_foe(st: &State, i: usize) -> f64 {
    let me = &st.units[i];
    st.units
        .iter()
        .filter(|e| e.side != me.side && e.standing())
        .map(|e| distance(me.pos(), e.pos()))
        .fold(f64::INFINITY, f64::min)
}

/// Builds the opening state from a set-up: every arriving unit deployed in sectors (centre,
/// then the wings) within 12" of its edge.
pub fn start(cat: &Catalogue, setup: &BattleSetup) -> Result<State, String> {
    let mut units = Vec::new();
    let mut generals: [Vec<SimGeneral>; 2] = [Vec::new(), Vec::new()];
    let mut rules: [Vec<AdvancedRule>; 2] = [Vec::new(), Vec::new()];
    for side in [BattleSide::Attacker, BattleSide::Defender] {
        let r = &setup.force(side).roster;
        let report = super::validate::validate(cat, r);
        if !report.legal {
            let first = report
                .findings
                .iter()
                .find(|f| f.severity == crate::rules::system::Severity::Error);
            return Err(format!(
                "{} is not a legal army: {}",
                r.name,
                first.map_or(String::new(), |f| f.message.clone())
            ));
        }
        rules[idx(side)] = r
            .advanced_rules
            .iter()
            .filter_map(|x| AdvancedRule::from_id(x))
            .collect();
        for g in &r.generals {
            let rating = u32::try_from(g.rating.clamp(1, 3)).unwrap_or(2);
            generals[idx(side)].push(SimGeneral {
                id: g.id.clone().unwrap_or_default(),
                name: g.name.clone(),
                rating,
                start_rating: rating,
                radius: f64::from(
                    g.command_radius
                        .unwrap_or(cat.tables.command.default_radius),
                ),
                commanding: g.role == "commanding",
            });
        }
        let mut placed = 0usize;
        for u in &r.units {
            let Some(p) = profile(cat, u) else { continue };
            let general = generals[idx(side)]
                .iter()
                .position(|g| Some(&g.id) == u.general.as_ref())
                .unwrap_or(0);
            let reinforcement = u.arrives == "reinforcement";
            let sector = [1, 0, 2][placed % 3];
            let row_back = (placed / 3) as f64 * 2.0;
            if !reinforcement {
                placed += 1;
            }
            let depth = on_table(home(side) + forward(side) * (12.0 - row_back).max(1.0));
            units.push(SimUnit {
                side,
                id: u.id.clone().unwrap_or_default(),
                name: if u.name.is_empty() {
                    p.unit_type.label().to_string()
                } else {
                    u.name.clone()
                },
                t: p.unit_type,
                start: p.rank_and_file,
                figures: p.rank_and_file,
                break_point: p.break_point,
                quality: p.quality,
                gun: p.gun,
                scrap: u.variations.scrap_ammunition,
                officer: p.officer,
                ensign: p.ensign,
                colour: Colour::Green,
                disordered: false,
                column: !p.unit_type.is_skirmishing(),
                mob: false,
                collapsed: false,
                left_table: false,
                arrived: !reinforcement,
                reinforcement,
                sector,
                depth,
                general,
                gun_lost: false,
            });
        }
    }
    Ok(State {
        units,
        generals,
        cp: [0, 0],
        turn: 0,
        rules,
        log: Vec::new(),
        narrate: true,
        reinforced_on: None,
    })
}

/// Units counted for army collapse: those that started plus reinforcements once arrived (K-16,
/// K-39); (start, remaining).
pub fn army_count(st: &State, side: BattleSide) -> (u32, u32) {
    let mut start = 0;
    let mut left = 0;
    for u in st
        .units
        .iter()
        .filter(|u| u.side == side && (u.arrived || !u.reinforcement))
    {
        start += 1;
        if !u.collapsed {
            left += 1;
        }
    }
    (start, left)
}

fn roll(dice: &mut Dice, n: u32, p_face: u8) -> u32 {
    (0..n).filter(|_| dice.d6() >= p_face).count() as u32
}

struct Fight<'a, P: Policy> {
    cat: &'a Catalogue,
    policy: &'a P,
    dice: Dice,
    st: State,
    scenario: String,
}

/// Why a battle ended, decided during play.
#[derive(Debug, Clone)]
struct Ended {
    winner: Option<BattleSide>,
    level: &'static str,
    reason: String,
}

impl<P: Policy> Fight<'_, P> {
    fn say(&mut self, line: impl FnOnce() -> String) {
        if self.st.narrate {
            let t = self.st.turn;
            self.st.log.push(format!("Turn {t}: {}", line()));
        }
    }

    fn face(&self, c: Colour) -> u8 {
        self.cat.succeeds_on(c)
    }

    fn downgrade(&mut self, i: usize) {
        let u = &mut self.st.units[i];
        if u.colour == Colour::Red {
            u.disordered = true;
        } else {
            u.colour = u.colour.worse();
        }
    }

    fn collapse(&mut self, i: usize, why: &str) {
        let u = &mut self.st.units[i];
        if u.collapsed {
            return;
        }
        u.collapsed = true;
        if u.t.is_artillery() {
            u.gun_lost = true;
        }
        let name = u.name.clone();
        let why = why.to_string();
        self.say(|| format!("{name} collapses ({why})."));
    }

    fn leader_check(&mut self, target: usize, losses: u32) {
        let side = self.st.units[target].side;
        if !self.st.rules[idx(side)].contains(&AdvancedRule::OfficerEnsignCasualties) {
            return;
        }
        let u = &self.st.units[target];
        let trigger = if u.t.is_artillery() {
            1
        } else {
            self.cat.unit(u.t).break_point.max(1)
        };
        if losses < trigger {
            return;
        }
        let d = self.dice.d6();
        let ll = &self.cat.tables.leader_loss;
        let u = &mut self.st.units[target];
        if d == ll.ensign_on && u.ensign {
            u.ensign = false;
            u.colour = Colour::Red;
        } else if d == ll.officer_on && u.officer {
            u.officer = false;
            u.colour = Colour::Red;
        }
    }

    fn check_collapse(&mut self, i: usize) {
        let u = &self.st.units[i];
        if !u.collapsed && u.figures <= u.break_point {
            self.collapse(i, "its break point");
        }
    }

    fn fire(&mut self, a: usize, d: usize) {
        let dist = distance(self.st.units[a].pos(), self.st.units[d].pos());
        let (ad, ap, dd, dp) = fire_dice(self.cat, &self.st, a, d, dist);
        let face = |p: f64| 7 - (p * 6.0).round() as u8;
        let hits = roll(&mut self.dice, ad, face(ap));
        let saves = roll(&mut self.dice, dd, face(dp));
        let lost = hits.saturating_sub(saves).min(self.st.units[d].figures);
        let rockets = self.st.units[a].gun == Some(Gun::Rockets);
        let (an, dn) = (self.st.units[a].name.clone(), self.st.units[d].name.clone());
        self.say(|| format!("{an} fires on {dn} at {dist:.0}\": {hits} of {ad} against {saves} of {dd}, {lost} lost."));
        if lost > 0 {
            self.st.units[d].figures -= lost;
            if rockets {
                if self.st.units[d].disordered {
                    self.escape(d, 12.0);
                }
                self.st.units[d].disordered = true;
            }
            self.downgrade(d);
            self.leader_check(d, lost);
            self.check_collapse(d);
        }
    }

    /// A beaten unit runs 12" toward its edge as a mob; off the table it is gone (K-13).
    fn escape(&mut self, i: usize, inches: f64) {
        let u = &mut self.st.units[i];
        let to = u.depth - forward(u.side) * inches;
        if !(0.0..=TABLE_DEPTH).contains(&to) {
            self.collapse(i, "it fled off the table (K-13)");
            return;
        }
        u.depth = to;
        u.mob = true;
    }

    fn melee(&mut self, a: usize, d: usize) {
        let Some((mut ad, mut ap, dd, dp)) = melee_dice(self.cat, &self.st, a, d) else {
            return;
        };
        // Advanced square: infantry charged by cavalry rolls its general's rating.
        let side_d = self.st.units[d].side;
        if self.st.units[a].t == UnitType::Cavalry
            && self.st.units[d].t == UnitType::Infantry
            && !self.st.units[d].mob
            && self.st.rules[idx(side_d)].contains(&AdvancedRule::Square)
        {
            let g = self.st.units[d].general;
            let rating = self.st.generals[idx(side_d)].get(g).map_or(1, |g| g.rating);
            let col = self.st.units[d]
                .colour
                .shifted(self.cat.quality(self.st.units[d].quality).shift);
            let face = self.face(col);
            if roll(&mut self.dice, rating, face) > 0 {
                ap = p_of(self.cat, Colour::Red);
                ad = ad.saturating_sub(0);
                let n = self.st.units[d].name.clone();
                self.say(|| format!("{n} forms square in time."));
            }
        }
        let face = |p: f64| 7 - (p * 6.0).round() as u8;
        let x = roll(&mut self.dice, ad, face(ap));
        let y = roll(&mut self.dice, dd, face(dp));
        let dl = x.min(self.st.units[d].figures);
        let al = y.min(self.st.units[a].figures);
        self.st.units[d].figures -= dl;
        self.st.units[a].figures -= al;
        let (an, dn) = (self.st.units[a].name.clone(), self.st.units[d].name.clone());
        self.say(|| format!("{an} charges {dn}: {an} loses {al}, {dn} loses {dl}."));
        for i in [a, d] {
            let u = &mut self.st.units[i];
            if u.colour == Colour::Red {
                u.disordered = true;
            }
            u.colour = Colour::Red; // K-25
        }
        self.leader_check(d, dl);
        self.leader_check(a, al);
        let ac = self.st.units[a].figures <= self.st.units[a].break_point;
        let dc = self.st.units[d].figures <= self.st.units[d].break_point;
        // K-17: a unit that collapses loses; both collapsing, both go.
        if ac {
            self.collapse(a, "broken in the melee");
        }
        if dc {
            self.collapse(d, "broken in the melee");
        }
        if ac || dc {
            return;
        }
        match al.cmp(&dl) {
            std::cmp::Ordering::Less => self.escape(d, 12.0),
            std::cmp::Ordering::Greater => self.escape(a, 12.0),
            std::cmp::Ordering::Equal => {
                let u = &mut self.st.units[d];
                u.depth = on_table(u.depth - forward(u.side) * 6.0);
            }
        }
    }

    /// Moves unit `i` up to `inches` toward `target`: across a sector first (12"), then in depth.
    fn move_toward(&mut self, i: usize, target: (i32, f64), inches: f64) {
        let u = &mut self.st.units[i];
        let mut left = inches;
        if u.sector != target.0 && left >= SECTOR_GAP {
            u.sector += (target.0 - u.sector).signum();
            left -= SECTOR_GAP;
        }
        let gap = target.1 - u.depth;
        let step = gap.abs().min(left);
        u.depth = on_table(u.depth + gap.signum() * step);
    }

    fn activate(&mut self, i: usize, queen: bool) {
        let order = self.policy.order(self.cat, &self.st, i);
        let mut meleed = false;
        match order {
            Order::Reform => {
                let u = &mut self.st.units[i];
                u.mob = false;
                u.column = u.t.is_artillery();
                let n = u.name.clone();
                self.say(|| format!("{n} reforms."));
            }
            Order::Charge(j) => {
                let to = self.st.units[j].pos();
                let u = &mut self.st.units[i];
                u.sector = to.0;
                u.depth = to.1;
                self.melee(i, j);
                meleed = true;
            }
            Order::Fire { target, advance } => {
                if advance > 0.0 {
                    let to = self.st.units[target].pos();
                    self.move_toward(i, to, advance);
                }
                let u = &mut self.st.units[i];
                if u.t.is_artillery() || u.t == UnitType::Infantry {
                    u.column = false; // deploys or forms line before firing (K-43)
                }
                self.fire(i, target);
            }
            Order::Advance {
                target,
                inches,
                deploy,
            } => {
                let to = self.st.units[target].pos();
                self.move_toward(i, to, inches);
                if deploy {
                    self.st.units[i].column = false;
                }
            }
            Order::Hold => {}
        }
        if !meleed && !queen && !self.st.units[i].collapsed {
            self.downgrade(i);
        }
    }

    fn eligible(&self, side: BattleSide) -> Vec<usize> {
        let mut out = Vec::new();
        for (i, u) in self.st.units.iter().enumerate() {
            if u.side != side || !u.standing() || u.disordered {
                continue;
            }
            if self.cost(i) > self.st.cp[idx(side)] {
                continue;
            }
            out.push(i);
        }
        out
    }

    /// Command points an activation of unit `i` costs (spec 5.1, K-44).
    fn cost(&self, i: usize) -> u32 {
        let u = &self.st.units[i];
        match self.cat.unit(u.t).cp {
            super::types::CpRule::Free => 0,
            super::types::CpRule::Always => 1,
            super::types::CpRule::Radius => {
                if u.colour == Colour::Green {
                    return 0;
                }
                // The general stands with his units: at their centre (K-34).
                let mine: Vec<&SimUnit> = self
                    .st
                    .units
                    .iter()
                    .filter(|o| o.side == u.side && o.general == u.general && o.standing())
                    .collect();
                let n = mine.len().max(1) as f64;
                let depth = mine.iter().map(|o| o.depth).sum::<f64>() / n;
                let sector =
                    mine.iter().map(|o| o.sector).sum::<i32>() / (mine.len().max(1) as i32);
                let radius = self.st.generals[idx(u.side)]
                    .get(u.general)
                    .map_or(12.0, |g| g.radius);
                if distance(u.pos(), (sector, depth)) <= radius {
                    0
                } else {
                    1
                }
            }
        }
    }

    fn play_card(&mut self, card: Card) -> Option<Ended> {
        let s = card.side;
        match card.rank {
            0 => {
                if let Some(j) = self.policy.joker(&self.st, s) {
                    self.st.units[j].disordered = true;
                    let n = self.st.units[j].name.clone();
                    self.say(|| format!("Joker: {n} is thrown into disorder."));
                }
                None
            }
            2 => {
                if let Some(j) = self.policy.two(&self.st, s) {
                    self.st.units[j].disordered = true;
                    let n = self.st.units[j].name.clone();
                    self.say(|| format!("A 2: {n} falls into disorder."));
                }
                None
            }
            rank => {
                let times = if rank == 1 { 2 } else { 1 };
                for _ in 0..times {
                    let eligible = self.eligible(s);
                    let Some(i) = self.policy.pick(self.cat, &self.st, s, &eligible) else {
                        break;
                    };
                    let cost = self.cost(i);
                    self.st.cp[idx(s)] -= cost.min(self.st.cp[idx(s)]);
                    self.activate(i, rank == 12);
                    if let Some(end) = self.decided() {
                        return Some(end);
                    }
                }
                None
            }
        }
    }

    /// The battle's end by army collapse or the scenario (K-16, K-39, K-40, K-41).
    fn decided(&mut self) -> Option<Ended> {
        let (as_, al) = army_count(&self.st, BattleSide::Attacker);
        let (ds, dl) = army_count(&self.st, BattleSide::Defender);
        let a = army_collapsed(as_, al);
        let d = army_collapsed(ds, dl);
        if self.scenario == "monmouth_1778" && self.st.reinforced_on.is_none() {
            // The Advance Corps alone: collapse at 9 of 19 ends the battle (K-39).
            if d {
                return Some(Ended {
                    winner: Some(BattleSide::Attacker),
                    level: "victory",
                    reason: "the Advance Corps collapsed before the Main Army came up (K-39)"
                        .into(),
                });
            }
        }
        match (a, d) {
            (true, true) => Some(Ended {
                winner: None,
                level: "draw",
                reason: "both armies collapsed together (K-16)".into(),
            }),
            (true, false) => Some(Ended {
                winner: Some(BattleSide::Defender),
                level: self.collapse_level(BattleSide::Defender),
                reason: "the attacking army collapsed (K-16)".into(),
            }),
            (false, true) => Some(Ended {
                winner: Some(BattleSide::Attacker),
                level: self.collapse_level(BattleSide::Attacker),
                reason: "the defending army collapsed (K-16)".into(),
            }),
            _ => None,
        }
    }

    fn collapse_level(&self, winner: BattleSide) -> &'static str {
        if self.scenario == "north_point_1814"
            && winner == BattleSide::Defender
            && self.collapsed_infantry(BattleSide::Defender) >= 3
        {
            "minor"
        } else {
            "victory"
        }
    }

    fn collapsed_infantry(&self, side: BattleSide) -> usize {
        self.st
            .units
            .iter()
            .filter(|u| u.side == side && u.t == UnitType::Infantry && u.collapsed)
            .count()
    }
}

/// Shuffles the 28-card deck: per side ace to king and a Joker.
fn deck(dice: &mut Dice) -> Vec<Card> {
    let mut cards = Vec::with_capacity(28);
    for side in [BattleSide::Attacker, BattleSide::Defender] {
        for rank in 0..=13u8 {
            cards.push(Card { side, rank });
        }
    }
    for i in (1..cards.len()).rev() {
        let j = dice.below(i as u32 + 1) as usize;
        cards.swap(i, j);
    }
    cards
}

/// Fights a battle with the standard policy, narrated.
pub fn fight(cat: &Catalogue, setup: &BattleSetup) -> Result<Outcome, String> {
    fight_with(cat, setup, &StandardPolicy, true)
}

/// Fights a battle with `policy`; `narrate` false keeps no log (Monte Carlo).
pub fn fight_with<P: Policy>(
    cat: &Catalogue,
    setup: &BattleSetup,
    policy: &P,
    narrate: bool,
) -> Result<Outcome, String> {
    let mut st = start(cat, setup)?;
    st.narrate = narrate;
    let mut f = Fight {
        cat,
        policy,
        dice: Dice::from_seed(setup.seed),
        st,
        scenario: setup.scenario.clone(),
    };
    let turns = setup.turns.clamp(1, 100);
    let mut ended: Option<Ended> = None;
    'turns: for turn in 1..=turns {
        f.st.turn = turn;
        // Monmouth's Main Army: from turn 3 a yellow die, 5 or 6 brings it on (K-39).
        if f.st.reinforced_on.is_none() && turn >= 3 && f.st.units.iter().any(|u| u.reinforcement) {
            let d = f.dice.d6();
            if d >= f.cat.succeeds_on(Colour::Yellow) {
                f.st.reinforced_on = Some(turn);
                for u in f.st.units.iter_mut().filter(|u| u.reinforcement) {
                    u.arrived = true;
                }
                f.say(|| format!("the reinforcements arrive (rolled {d})."));
            }
        }
        // Command points: the Commanding General rolls his rating, keeps the best die; each
        // Lieutenant General adds his rating (spec 3).
        for side in [BattleSide::Attacker, BattleSide::Defender] {
            let gens = f.st.generals[idx(side)].clone();
            let mut cp = 0;
            for g in &gens {
                if g.commanding {
                    cp += (0..g.rating)
                        .map(|_| u32::from(f.dice.d6()))
                        .max()
                        .unwrap_or(1);
                } else {
                    cp += g.rating;
                }
            }
            f.st.cp[idx(side)] = cp;
        }
        // K-10: colours reset by the officer and ensign still with the unit.
        for u in f.st.units.iter_mut() {
            u.disordered = false;
            u.colour = match (u.officer, u.ensign) {
                (true, true) => Colour::Green,
                (true, false) => Colour::Yellow,
                _ => Colour::Red,
            };
        }
        for card in deck(&mut f.dice) {
            if f.eligible(BattleSide::Attacker).is_empty()
                && f.eligible(BattleSide::Defender).is_empty()
            {
                break;
            }
            if let Some(end) = f.play_card(card) {
                ended = Some(end);
                break 'turns;
            }
        }
    }
    let end = ended.unwrap_or_else(|| {
        match f.scenario.as_str() {
            // North Point: the British kept off the edge to the end of turn 3 (K-40).
            "north_point_1814" => Ended {
                winner: Some(BattleSide::Defender),
                level: if f.collapsed_infantry(BattleSide::Defender) >= 3 {
                    "minor"
                } else {
                    "victory"
                },
                reason: "the British did not reach the American edge by the end of turn 3 (K-40)"
                    .into(),
            },
            "monmouth_1778" => Ended {
                winner: None,
                level: "draw",
                reason:
                    "nothing decided by the end of turn 8: the British got away in the dark (K-39)"
                        .into(),
            },
            _ => Ended {
                winner: None,
                level: "draw",
                reason: format!("nightfall after turn {turns} (K-14)"),
            },
        }
    });
    let turn = f.st.turn;
    f.say(|| format!("the battle ends: {}.", end.reason));
    Ok(outcome(
        setup,
        &f.st,
        end.winner,
        end.level,
        &end.reason,
        turn,
        Method::Simulated,
    ))
}

/// The outcome document from a final state.
pub fn outcome(
    setup: &BattleSetup,
    st: &State,
    winner: Option<BattleSide>,
    level: &str,
    reason: &str,
    turns: u32,
    method: Method,
) -> Outcome {
    let side = |s: BattleSide| {
        let (start, left) = army_count(st, s);
        SideResult {
            name: setup.force(s).roster.name.clone(),
            starting_units: start,
            remaining_units: left,
            army_collapsed: army_collapsed(start, left),
            units: st
                .units
                .iter()
                .filter(|u| u.side == s)
                .map(|u| UnitResult {
                    id: u.id.clone(),
                    name: u.name.clone(),
                    unit_type: u.t.id().to_string(),
                    rank_and_file_start: u.start,
                    rank_and_file_end: u.figures,
                    officer_lost: !u.officer,
                    ensign_lost: !u.ensign,
                    collapsed: u.collapsed,
                    left_table: u.left_table,
                    gun_lost: u.gun_lost,
                    arrived: u.arrived,
                })
                .collect(),
            generals: st.generals[idx(s)]
                .iter()
                .map(|g| GeneralResult {
                    id: g.id.clone(),
                    name: g.name.clone(),
                    rating_start: g.start_rating,
                    rating_end: g.rating,
                })
                .collect(),
        }
    };
    Outcome {
        format: RESULT_FORMAT.into(),
        method,
        scenario: setup.scenario.clone(),
        winner,
        level: level.into(),
        reason: reason.into(),
        turns_played: turns,
        attacker: side(BattleSide::Attacker),
        defender: side(BattleSide::Defender),
        log: st.log.clone(),
        rulings: ["K-13", "K-14", "K-16", "K-17", "K-18", "K-25"]
            .iter()
            .map(|k| k.to_string())
            .collect(),
    }
}
