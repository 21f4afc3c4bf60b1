//! The battle engine: sets up the [`board`](super::board) from a set-up
//! document and plays the turns, applying the rules; a [`Policy`] makes the
//! choices a player makes.

use super::board::{
    contact_point, norm, sidx, u_marksmen, Cmd, Group, Home, Unit, View, TABLE_DEPTH, TABLE_WIDTH,
};
use super::log::{LogKind, LogLine};
use super::near::{Near, NearIndex};
use super::policy::{Action, Policy, Reaction};
use super::{BattleStats, ElementPosition, TurnPositions};
use crate::rules::dice::{Dice, DiceExpr};
use crate::rules::systems::lotf::battle::{BattleSetup, ScenarioId};
use crate::rules::systems::lotf::catalogue::{skill_ids, Catalogue};
use crate::rules::systems::lotf::combat::victory::{broken_force_verdict, BrokenForces};
use crate::rules::systems::lotf::combat::{
    charge_permission, combat_orders, commander_killed, degrade, morale_modifier_total,
    rating_for_roll, resolve_melee_round, roll_command_points, roll_morale, roll_rating,
    roll_volley_effect, shooting_pool, shooting_pool_unexplained, take_hits,
    withdraw_reaction_expr, MeleeOutcome, MoraleSituation, MoraleTest, Rating, ShooterState,
    ShotSituation, ShotSpec, Side, TestKind,
};
use crate::rules::systems::lotf::odds::has_skill;
use crate::rules::systems::lotf::profile::profile;
use crate::rules::systems::lotf::types::{DisciplineLevel, ElementType, Formation, Weapon};
use crate::rules::systems::lotf::validate::price_element;
use std::sync::Arc;

/// The engine: state, dice, the policy and the log.
pub struct Engine<'c> {
    pub cat: &'c Catalogue,
    pub v: View,
    pub dice: Dice,
    pub policy: &'c mut dyn Policy,
    pub narrate: bool,
    pub log: Vec<LogLine>,
    pub turn_points: Vec<(u32, u32, u32)>,
    /// The count of broken groups that ended the battle, and the turn at whose start it was made.
    pub ended_by_break: Option<(BrokenForces, u32)>,
    pub stats: BattleStats,
    /// Where the elements stood at the end of each turn, when the caller asks for it
    /// (`Some`); never in odds runs.
    pub positions: Option<Vec<TurnPositions>>,
    /// Forced Orders given to the active element so far (each after the first costs 1).
    forced: u32,
    /// The catalogue's dice expressions, read once (not on every roll).
    exprs: Exprs,
}

/// The catalogue's dice expressions the engine rolls most.
#[derive(Debug, Clone, Copy)]
struct Exprs {
    shooting_withdrawal: DiceExpr,
    rout_withdrawal: DiceExpr,
    initiative: DiceExpr,
}

impl Exprs {
    fn of(cat: &Catalogue) -> Exprs {
        let n = cat.numbers();
        Exprs {
            shooting_withdrawal: DiceExpr::parse(&n.shooting_withdrawal).unwrap_or(DiceExpr::D3),
            rout_withdrawal: DiceExpr::parse(&n.rout_withdrawal).unwrap_or(DiceExpr::D3),
            initiative: DiceExpr::parse(&n.initiative_roll).unwrap_or(DiceExpr::D6),
        }
    }
}

macro_rules! say {
    ($eng:expr, $kind:expr, $el:expr, $($arg:tt)*) => {
        if $eng.narrate {
            let el: Option<usize> = $el;
            let line = LogLine {
                turn: $eng.v.turn,
                kind: $kind,
                element: el.map(|i| $eng.v.units[i].key()),
                level: None,
                text: format!($($arg)*),
            };
            $eng.log.push(line);
        }
    };
}

/// Why a battle could not be set up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, serde::Serialize)]
pub enum SimError {
    #[error("the set-up document is invalid: {0}")]
    Setup(#[from] crate::rules::systems::lotf::battle::BattleError),
    #[error("{0}")]
    Force(String),
}

impl From<String> for SimError {
    fn from(message: String) -> Self {
        SimError::Force(message)
    }
}

/// How a charge ended for the charger.
enum ChargeEnd {
    Fought(bool),
    Locked,
    Stopped,
    EndActivation,
}

#[derive(Debug, Clone, Copy)]
enum SpecialOrder {
    Volley(u32),
    Charge,
}

/// What kind of shot is fired (for the log and the counts).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fire {
    Volley,
    Snap,
    Closing,
}

/// A battle read from its set-up once: the forces built and deployed,
/// everything but the dice. An odds run fights thousands of battles from one
/// [`Prepared`], each with its own seed, instead of reading the rosters again
/// for every battle; a battle fought from it is the battle [`Engine::new`]
/// sets up from the same document and seed.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The deployed board (its per-decision cache is left out, so that a
    /// prepared battle may be shared by the threads of an odds run).
    scenario: ScenarioId,
    units: Vec<Unit>,
    cmds: Vec<Cmd>,
    groups: Vec<Group>,
    objectives: Vec<(f64, f64)>,
    force_commander: [Option<usize>; 2],
    side_units: [Arc<[usize]>; 2],
    /// Commanders whose rating is rolled when a battle starts (the rest were
    /// given one in the set-up), in the order the dice are drawn for them.
    rolled_ratings: Vec<usize>,
    /// The rating of each d6 roll (index 1–6), read from the catalogue once
    /// instead of for every commander of every battle.
    ratings_by_roll: Vec<Option<Arc<Rating>>>,
    points_size: u32,
    exprs: Exprs,
}

impl Prepared {
    /// Check the set-up and build its forces.
    pub fn new(cat: &Catalogue, setup: &BattleSetup) -> Result<Prepared, SimError> {
        setup.check()?;
        let mut v = View {
            scenario: setup.scenario,
            turn: 0,
            units: Vec::new(),
            cmds: Vec::new(),
            groups: Vec::new(),
            objectives: Vec::new(),
            force_commander: [None, None],
            active_group: None,
            active_orders: (0, 0),
            nearest_cache: std::cell::Cell::new(None),
            side_units: [Arc::from([]), Arc::from([])],
            near: NearIndex::default(),
        };
        let mut rolled_ratings = Vec::new();
        let mut add_cmd = |v: &mut View, cmd: (Cmd, bool)| {
            if cmd.1 {
                rolled_ratings.push(v.cmds.len());
            }
            v.cmds.push(cmd.0);
            v.cmds.len() - 1
        };
        for (side, force) in [
            (Side::Attacker, &setup.attacker),
            (Side::Defender, &setup.defender),
        ] {
            let r = &force.roster;
            let fc_doc = r.force_commander.clone().unwrap_or_default();
            let fc = make_cmd(cat, force, &fc_doc, side, None, "Force Commander")?;
            v.force_commander[sidx(side)] = Some(add_cmd(&mut v, fc));
            let home = match side {
                Side::Attacker => Home::Near,
                Side::Defender => Home::Far,
            };
            for (gi, g) in r.groups.iter().enumerate() {
                let gidx = v.groups.len();
                let cmd = match &g.commander {
                    Some(cd) => {
                        let c = make_cmd(cat, force, cd, side, Some(gidx), "Group Commander")?;
                        Some(add_cmd(&mut v, c))
                    }
                    None => None,
                };
                let mut units = Vec::new();
                for e in &g.elements {
                    units.push(v.units.len());
                    v.units.push(make_unit(cat, force, e, side, gidx, home)?);
                }
                v.groups.push(Group {
                    side,
                    name: if g.name.is_empty() {
                        format!("group {}", gi + 1).into()
                    } else {
                        g.name.as_str().into()
                    },
                    commander: cmd,
                    units,
                    arrives_turn: 0,
                    // Overwritten by the scenario for a group held in reserve.
                    entry: (
                        TABLE_WIDTH / 2.0,
                        if home == Home::Near { 0.0 } else { TABLE_DEPTH },
                    ),
                    entry_home: home,
                    flank_entry: false,
                });
            }
        }
        let of_side = |s: Side| -> Arc<[usize]> {
            (0..v.units.len())
                .filter(|&i| v.units[i].side == s)
                .collect()
        };
        v.side_units = [of_side(Side::Attacker), of_side(Side::Defender)];
        number_repeated_names(&mut v.units);
        // Deployment draws no dice: it is part of the set-up, not of a battle.
        super::scenario::deploy(cat, &mut v);
        Ok(Prepared {
            scenario: v.scenario,
            units: v.units,
            cmds: v.cmds,
            groups: v.groups,
            objectives: v.objectives,
            force_commander: v.force_commander,
            side_units: v.side_units,
            rolled_ratings,
            ratings_by_roll: (0..=6u8)
                .map(|roll| rating_for_roll(cat, roll).map(Arc::new))
                .collect(),
            points_size: setup.points_size(cat),
            exprs: Exprs::of(cat),
        })
    }

    /// The game's points size (R-21's denominator).
    pub fn points_size(&self) -> u32 {
        self.points_size
    }

    /// The elements as set up, in the order a finished battle lists them.
    pub fn units(&self) -> &[Unit] {
        &self.units
    }
}

/// An element of a force, from its roster entry and the state the set-up gives it.
fn make_unit(
    cat: &Catalogue,
    force: &crate::rules::systems::lotf::battle::ForceSetup,
    e: &crate::rules::systems::lotf::roster::ElementDoc,
    side: Side,
    group: usize,
    home: Home,
) -> Result<Unit, SimError> {
    let mut doc = e.clone();
    let st =
        e.id.as_ref()
            .and_then(|id| force.elements.get(id))
            .cloned()
            .unwrap_or_default();
    if let Some(s) = st.size {
        doc.size = s;
    }
    if cat.stats(doc.element_type, doc.size).is_none() {
        return Err(SimError::Force(format!(
            "{}: element `{}` is a {} {}, which does not exist (R-2)",
            side.id(),
            doc.name,
            doc.size,
            doc.element_type
        )));
    }
    let p = profile(cat, &doc);
    let fight = if p.formations.contains(&Formation::BattleLine) {
        Formation::BattleLine
    } else if p.formations.contains(&Formation::OpenOrder) {
        Formation::OpenOrder
    } else {
        Formation::Unlimbered
    };
    let level = st.discipline_level.unwrap_or(p.starting_discipline);
    Ok(Unit {
        id: e.id.as_deref().unwrap_or_default().into(),
        name: if e.name.is_empty() {
            format!("{} {}", doc.size.label(), doc.element_type.label()).into()
        } else {
            e.name.as_str().into()
        },
        side,
        group,
        et: doc.element_type,
        size: doc.size,
        weapon: p.weapon,
        maneuver: p.maneuver,
        combat_base: p.combat,
        discipline: p.discipline,
        morale: p.morale,
        action: p.action,
        extra: p.extra_dice,
        range: p.range.max,
        min_range: p.range.min.unwrap_or(0),
        threat_zone: p.threat_zone,
        marksmen: has_skill(&p, "marksmen"),
        german_ranks: has_skill(&p, skill_ids::GERMAN_RANKS),
        esprit: has_skill(&p, "esprit_de_corps"),
        preserve: has_skill(&p, "preserve_the_nation"),
        self_pres: has_skill(&p, skill_ids::SELF_PRESERVATION),
        fear: has_skill(&p, "fear_of_cold_steel"),
        inspirational: has_skill(&p, "inspirational_charge"),
        vanguard: has_skill(&p, "vanguard"),
        carry_on: has_skill(&p, "carry_on"),
        scouts: has_skill(&p, skill_ids::SCOUTS),
        cumbersome: has_skill(&p, "cumbersome"),
        fight_formation: fight,
        points: price_element(cat, &doc),
        level,
        hits: st.hits.min(u32::from(p.discipline.saturating_sub(1))),
        dm: st.disorder_markers,
        resilient_left: u32::from(p.ignores_first_hits),
        removed: level == DisciplineLevel::Shattered,
        left_field: false,
        on_table: false,
        formation: fight,
        loaded: true,
        x: 0.0,
        y: 0.0,
        facing: home.facing(),
        home,
        start: (f64::NAN, f64::NAN),
        engaged: None,
        defenses: false,
        cover: false,
        pinned: false,
        stored_maneuver: false,
        stored_combat: false,
        flank_turn: 0,
        inspired: false,
        shots_this_activation: 0,
        no_orders_turn: 0,
        rallied_turn: 0,
    })
}

/// A commander from the roster, and whether his rating is still to be rolled
/// (the set-up gives a rating roll only to commanders who have one already).
/// Elements of one side that share a name are numbered in the order of the roster ("British
/// Line Infantry (2)"), so that the narrative and the outcome tell them apart.
fn number_repeated_names(units: &mut [Unit]) {
    let mut seen: std::collections::HashMap<(Side, Arc<str>), usize> =
        std::collections::HashMap::new();
    for u in units.iter() {
        *seen.entry((u.side, Arc::clone(&u.name))).or_default() += 1;
    }
    let mut counted: std::collections::HashMap<(Side, Arc<str>), usize> =
        std::collections::HashMap::new();
    for u in units.iter_mut() {
        let key = (u.side, Arc::clone(&u.name));
        if seen.get(&key).is_some_and(|&n| n > 1) {
            let k = counted.entry(key).or_default();
            *k += 1;
            u.name = format!("{} ({k})", u.name).into();
        }
    }
}

fn make_cmd(
    cat: &Catalogue,
    force: &crate::rules::systems::lotf::battle::ForceSetup,
    doc: &crate::rules::systems::lotf::roster::CommanderDoc,
    side: Side,
    group: Option<usize>,
    role: &str,
) -> Result<(Cmd, bool), SimError> {
    let preset = doc
        .id
        .as_ref()
        .and_then(|id| force.commanders.get(id))
        .map(|c| c.rating_roll);
    // A commander to be rolled holds the first rating until the battle starts.
    let rating = rating_for_roll(cat, preset.unwrap_or(1)).ok_or_else(incomplete_rating_table)?;
    let cmd = Cmd {
        id: doc.id.as_deref().unwrap_or_default().into(),
        // An unnamed commander is called by his side and post, capitalised, since log lines
        // start with his name ("Defender's Force Commander steadies …").
        name: if doc.name.is_empty() {
            let side = match side {
                Side::Attacker => "Attacker",
                Side::Defender => "Defender",
            };
            format!("{side}'s {role}").into()
        } else {
            doc.name.as_str().into()
        },
        side,
        group,
        rating: Arc::new(rating),
        alive: true,
        killed_turn: None,
        promoted: false,
        cp: 0,
        attached_to: None,
        on_table: true,
    };
    Ok((cmd, preset.is_none()))
}

fn incomplete_rating_table() -> SimError {
    SimError::Force("the commander rating table is incomplete".into())
}

impl<'c> Engine<'c> {
    /// Build the battle from a checked set-up.
    pub fn new(
        cat: &'c Catalogue,
        setup: &BattleSetup,
        narrate: bool,
        policy: &'c mut dyn Policy,
    ) -> Result<Engine<'c>, SimError> {
        let prepared = Prepared::new(cat, setup)?;
        Engine::start(cat, &prepared, setup.seed, narrate, policy)
    }

    /// Start a battle of a prepared set-up with the dice of `seed`: the
    /// commanders' ratings are rolled first, in the order of the rosters.
    pub fn start(
        cat: &'c Catalogue,
        prepared: &Prepared,
        seed: u64,
        narrate: bool,
        policy: &'c mut dyn Policy,
    ) -> Result<Engine<'c>, SimError> {
        let mut dice = Dice::from_seed(seed);
        let mut v = View {
            scenario: prepared.scenario,
            turn: 0,
            units: prepared.units.clone(),
            cmds: prepared.cmds.clone(),
            groups: prepared.groups.clone(),
            objectives: prepared.objectives.clone(),
            force_commander: prepared.force_commander,
            active_group: None,
            active_orders: (0, 0),
            nearest_cache: std::cell::Cell::new(None),
            side_units: prepared.side_units.clone(),
            near: NearIndex::default(),
        };
        v.near = NearIndex::build(&v.units, &v.side_units);
        // As `roll_rating` rolls outside a field promotion: one d6, its row.
        for &c in &prepared.rolled_ratings {
            let roll = usize::from(dice.d6());
            v.cmds[c].rating = prepared
                .ratings_by_roll
                .get(roll)
                .cloned()
                .flatten()
                .ok_or_else(incomplete_rating_table)?;
        }
        Ok(Engine {
            cat,
            v,
            dice,
            policy,
            narrate,
            log: Vec::new(),
            turn_points: Vec::new(),
            ended_by_break: None,
            stats: BattleStats::default(),
            positions: None,
            forced: 0,
            exprs: prepared.exprs,
        })
    }

    fn set_level(&mut self, i: usize, level: DisciplineLevel) {
        let before = self.v.units[i].level;
        if before == level {
            return;
        }
        self.v.units[i].level = level;
        if self.narrate {
            let u = &self.v.units[i];
            self.log.push(LogLine {
                turn: self.v.turn,
                kind: LogKind::Discipline,
                element: Some(u.key()),
                level: Some(level),
                text: format!("{} ({}) is now {}.", u.name, u.side.id(), level.label()),
            });
        }
        if level == DisciplineLevel::Shattered {
            self.remove(i, false);
        }
    }

    fn remove(&mut self, i: usize, left_field: bool) {
        if self.v.units[i].removed {
            return;
        }
        let foe = self.v.units[i].engaged.take();
        if let Some(f) = foe {
            self.v.units[f].engaged = None;
        }
        self.v.units[i].removed = true;
        self.v.relocated(i);
        self.v.units[i].left_field = left_field;
        self.v.units[i].stored_maneuver = false;
        self.v.units[i].stored_combat = false;
        say!(
            self,
            LogKind::Removed,
            Some(i),
            "{} ({}) {}.",
            self.v.units[i].name,
            self.v.units[i].side.id(),
            if left_field {
                "leaves the field"
            } else {
                "is broken and out of the fight"
            }
        );
        if let Some(c) = self.v.attached_commander(i) {
            self.kill_commander(c, "falls with the men he led");
        }
    }

    fn kill_commander(&mut self, c: usize, why: &str) {
        self.v.cmds[c].alive = false;
        self.v.cmds[c].attached_to = None;
        self.v.cmds[c].killed_turn = Some(self.v.turn);
        self.v.cmds[c].cp = 0;
        say!(
            self,
            LogKind::Commander,
            None,
            "{} ({}) {}.",
            self.v.cmds[c].name,
            self.v.cmds[c].side.id(),
            why
        );
    }

    /// an attached commander's Morale replaces the element's.
    fn morale_target(&self, i: usize) -> i32 {
        match self.v.attached_commander(i) {
            Some(c) => i32::from(self.v.cmds[c].rating.morale),
            None => i32::from(self.v.units[i].morale),
        }
    }

    fn situation(&self, i: usize) -> MoraleSituation {
        let u = &self.v.units[i];
        MoraleSituation {
            march_column: u.formation == Formation::MarchColumn,
            forced_orders: 0,
            excess_hits: 0,
            shaken_or_exhausted: matches!(
                u.level,
                DisciplineLevel::Shaken | DisciplineLevel::Exhausted
            ),
            disordered: u.dm > 0,
            group_broken: self.v.group_broken(u.group),
            supported: self.v.supported(self.cat, i),
            battle_line: u.formation == Formation::BattleLine,
            commander_attached: self.v.attached_commander(i).is_some(),
            in_cover: u.cover && u.unmoved(),
            in_defenses: u.defenses && u.unmoved(),
            preserve_the_nation: u.preserve,
        }
    }

    /// A commander who may spend a Command Point on element `i` now: its
    /// group's commander with points left, not attached elsewhere, with the
    /// element in his SPI; else the Force Commander.
    fn spending_commander(&self, i: usize) -> Option<usize> {
        let g = self.v.units[i].group;
        let free = |c: usize| {
            let k = &self.v.cmds[c];
            k.alive && k.on_table && k.cp > 0 && k.attached_to.is_none()
        };
        if let Some(c) = self.v.groups[g].commander {
            if free(c) && self.v.in_spi(i) {
                return Some(c);
            }
        }
        self.v.force_commander[sidx(self.v.units[i].side)].filter(|&c| free(c))
    }

    /// Take a test for element `i`; returns whether it passed. A commander
    /// may spend a point on Encouraging Words to re-roll a die of a failed test.
    fn test(&mut self, i: usize, kind: TestKind, excess: u32, what: &str) -> bool {
        self.test_forced(i, kind, excess, 0, what)
    }

    /// [`test`](Self::test) for the `forced`-th Forced Order of the activation
    /// (each after the first costs 1); 0 for any other test.
    fn test_forced(
        &mut self,
        i: usize,
        kind: TestKind,
        excess: u32,
        forced: u32,
        what: &str,
    ) -> bool {
        let mut s = self.situation(i);
        s.excess_hits = excess;
        s.forced_orders = forced;
        let m = morale_modifier_total(self.cat, &s, kind);
        let u = &self.v.units[i];
        let mut t = MoraleTest {
            target: self.morale_target(i),
            modifier: m,
            esprit_de_corps: u.esprit,
            encouraging_words: false,
            automatic_pass: kind == TestKind::Discipline
                && u.et == ElementType::Artillery
                && u.formation == Formation::Unlimbered,
        };
        if t.automatic_pass {
            say!(
                self,
                LogKind::Test,
                Some(i),
                "{} stands by its guns whatever happens.",
                self.v.units[i].name
            );
            return true;
        }
        // Encouraging Words is decided before the roll (the point is spent
        // only if the re-roll is used); Esprit de Corps comes first.
        let ew = match self.spending_commander(i) {
            Some(c) if !t.esprit_de_corps && self.policy.encouraging_words(&self.v, i, kind) => {
                Some(c)
            }
            _ => None,
        };
        t.encouraging_words = ew.is_some();
        let r = roll_morale(&t, &mut self.dice);
        if let (Some(c), Some("encouraging_words")) = (ew, r.reroll) {
            self.v.cmds[c].cp -= 1;
            self.v.cmds[c].attached_to = Some(i);
            self.stats.command_points += 1;
            say!(
                self,
                LogKind::Commander,
                Some(i),
                "{} steadies {} with a word (a die rolled again).",
                self.v.cmds[c].name,
                self.v.units[i].name
            );
        }
        say!(
            self,
            LogKind::Test,
            Some(i),
            "{} tests for {what}: rolls {} and {} with {:+}, needing {} — {}.",
            self.v.units[i].name,
            r.dice[0],
            r.dice[1],
            m,
            t.target,
            if r.passed { "steady" } else { "it wavers" }
        );
        if !r.passed {
            // A failed Morale Test clears stored orders.
            self.v.units[i].stored_maneuver = false;
            self.v.units[i].stored_combat = false;
        }
        r.passed
    }

    /// Move an element back toward its own edge, in rout step (`rout`) or
    /// in good order; handles leaving the table.
    pub(crate) fn fall_back(&mut self, i: usize, maneuvers: i32, rout: bool) {
        if maneuvers <= 0 || self.v.units[i].removed {
            return;
        }
        let u = &self.v.units[i];
        if u.et == ElementType::Artillery && u.formation == Formation::Unlimbered {
            return; // unlimbered guns do not withdraw
        }
        let rate = self
            .cat
            .movement(u.et, u.formation, u.weapon)
            .map(|m| f64::from(m.advance))
            .unwrap_or(3.0);
        let dist = rate * f64::from(maneuvers);
        let (dx, dy) = u.home.toward();
        let (nx, ny) = (u.x + dx * dist, u.y + dy * dist);
        let home = u.home;
        // M-100: rout step faces the way it runs, and nothing turns it back
        // but a turn of its own; good order turns to face the enemy again.
        // (A column marching along the table, home at its left end, keeps
        // the only facings the board has.)
        let turns_its_back = rout && dy != 0.0 && u.facing != dy;
        if turns_its_back {
            self.v.units[i].facing = dy;
        }
        if let Some(f) = self.v.units[i].engaged.take() {
            self.v.units[f].engaged = None;
        }
        self.v.units[i].stored_maneuver = false;
        self.v.units[i].stored_combat = false;
        say!(
            self,
            LogKind::Withdraw,
            Some(i),
            "{}{} falls back {:.0}\"{}.",
            self.v.units[i].name,
            if turns_its_back {
                " turns its back and"
            } else {
                ""
            },
            dist,
            if rout {
                " in disorder"
            } else {
                " in good order"
            }
        );
        if home.beyond(nx, ny) {
            let u = &mut self.v.units[i];
            u.x = nx.clamp(0.0, TABLE_WIDTH);
            u.y = ny.clamp(0.0, TABLE_DEPTH);
            self.v.relocated(i);
            let exhausted = self.v.units[i].level == DisciplineLevel::Exhausted;
            if exhausted || !self.test(i, TestKind::Morale, 0, "staying on the field") {
                self.remove(i, true);
            }
        } else {
            self.v.units[i].x = nx.clamp(0.0, TABLE_WIDTH);
            self.v.units[i].y = ny.clamp(0.0, TABLE_DEPTH);
            self.v.relocated(i);
        }
    }

    /// Land hits on element `i`. Returns whether it failed a Discipline Test.
    fn land_hits(&mut self, i: usize, hits: u32, marksmen: bool, from_shooting: bool) -> bool {
        if self.v.units[i].removed || hits == 0 {
            return false;
        }
        let u = &self.v.units[i];
        let r = take_hits(u.hits, u.discipline.into(), u.resilient_left, hits);
        self.v.units[i].resilient_left = r.resilient_left;
        self.v.units[i].hits = r.hits_now;
        if r.suffered > 0 {
            if let Some(c) = self.v.attached_commander(i) {
                let (_, killed) = commander_killed(self.cat, r.suffered, marksmen, &mut self.dice);
                if killed {
                    self.kill_commander(c, "is struck down");
                }
            }
        }
        if !r.test_due {
            return false;
        }
        let passed = self.test(i, TestKind::Discipline, r.excess, "its discipline");
        self.v.units[i].hits = 0;
        let next = degrade(self.v.units[i].level);
        self.set_level(i, next);
        if !passed && !self.v.units[i].removed {
            if from_shooting {
                let m = self.exprs.shooting_withdrawal.roll(&mut self.dice);
                self.fall_back(i, m, false);
            }
            return true;
        }
        false
    }

    /// Fire one shot from `s` at `t`: a volley of the active element, a
    /// Snap Fire from a stored Combat Order, or a Closing Fire. Returns
    /// whether the target failed a Discipline Test.
    fn shoot(&mut self, s: usize, t: usize, fire: Fire) -> bool {
        let u = &self.v.units[s];
        let tg = &self.v.units[t];
        let shooter = ShooterState {
            element_type: u.et,
            weapon: u.weapon,
            action: u.action,
            extra_dice: u.extra,
            range: u.range,
            min_range: u.min_range,
            exhausted: u.level == DisciplineLevel::Exhausted,
            disorder_markers: u.dm,
        };
        let d = self.v.distance(s, t).round() as u32;
        let grape = u.et == ElementType::Artillery
            && d <= u32::from(self.cat.numbers().grapeshot_max_inches)
            && matches!(u.weapon, Weapon::LightGun | Weapon::HeavyGun);
        let flank = self.v.in_flank_of(s, t) || u.flank_turn == self.v.turn;
        let sit = ShotSituation {
            range_inches: d,
            target_in_cover: tg.cover && tg.unmoved(),
            target_open_order: matches!(tg.formation, Formation::OpenOrder | Formation::Unlimbered),
            flank,
            ammunition: if grape {
                crate::rules::systems::lotf::combat::Ammunition::Grapeshot
            } else {
                crate::rules::systems::lotf::combat::Ammunition::SolidShot
            },
        };
        // The pool's terms are read only by the narration.
        let pool = if self.narrate {
            shooting_pool(self.cat, &shooter, &sit)
        } else {
            shooting_pool_unexplained(self.cat, &shooter, &sit)
        };
        let Ok((pool, kind)) = pool else {
            return false;
        };
        let mut spec = ShotSpec::from_pool(&pool, kind, sit.flank);
        spec.marksmen = u.marksmen;
        // German Ranks: the first volley of an activation counts as a
        // Concentrated Volley; otherwise a commander may order one.
        let german_first = u.german_ranks && u.shots_this_activation == 0;
        if fire == Fire::Volley
            && (german_first || self.try_special(s, SpecialOrder::Volley(pool.dice())))
        {
            spec.reroll_misses = true;
            spec.ignore_ragged = true;
        }
        self.v.units[s].loaded = false;
        self.v.units[s].shots_this_activation += 1;
        self.stats.volleys += 1;
        if fire == Fire::Snap {
            self.stats.snap_fires += 1;
        }
        if flank {
            self.stats.flank_attacks += 1;
        }
        let effect = roll_volley_effect(self.cat, &spec, &mut self.dice);
        say!(
            self,
            LogKind::Shoot,
            Some(s),
            "{} ({}) {} {} from {}\"{} with {}: {} hit{}{}{}.",
            self.v.units[s].name,
            self.v.units[s].side.id(),
            match fire {
                Fire::Volley => "fires at",
                Fire::Snap => "snaps a volley at",
                Fire::Closing => "meets the charge of",
            },
            self.v.units[t].name,
            d,
            if flank { " into its flank" } else { "" },
            pool.explanation(),
            effect.hits,
            if effect.hits == 1 { "" } else { "s" },
            if effect.ragged {
                ", a ragged volley"
            } else {
                ""
            },
            if effect.punishing {
                ", a punishing volley"
            } else {
                ""
            }
        );
        self.v.units[t].dm += effect.disorder_markers;
        self.land_hits(t, effect.hits, u_marksmen(&self.v, s), true)
    }

    /// Spend a Command Point of the ordering commander on a special order
    /// that attaches him and needs a Morale Test. Returns whether it passed.
    fn try_special(&mut self, i: usize, order: SpecialOrder) -> bool {
        let Some(c) = self.ordering_commander(i) else {
            return false;
        };
        if self.v.cmds[c].cp == 0
            || self.v.cmds[c].attached_to.is_some()
            || !self.v.in_spi_or_fc(i, c)
        {
            return false;
        }
        let want = match order {
            SpecialOrder::Volley(d) => self.policy.concentrated_volley(&self.v, i, d),
            SpecialOrder::Charge => self.policy.inspirational_charge(&self.v, i),
        };
        if !want {
            return false;
        }
        self.v.cmds[c].cp -= 1;
        self.stats.command_points += 1;
        self.v.cmds[c].attached_to = Some(i);
        let what = match order {
            SpecialOrder::Volley(_) => "a Concentrated Volley",
            SpecialOrder::Charge => "an Inspirational Charge",
        };
        say!(
            self,
            LogKind::Commander,
            Some(i),
            "{} joins {} for {what}.",
            self.v.cmds[c].name,
            self.v.units[i].name
        );
        self.test(i, TestKind::Morale, 0, what)
    }

    /// The commander who gives element `i` its orders: its Group Commander,
    /// else the Force Commander.
    fn ordering_commander(&self, i: usize) -> Option<usize> {
        let g = self.v.units[i].group;
        match self.v.groups[g].commander {
            Some(c) if self.v.cmds[c].alive => Some(c),
            _ => self.v.force_commander[sidx(self.v.units[i].side)]
                .filter(|&c| self.v.cmds[c].alive && self.v.cmds[c].on_table),
        }
    }

    /// Resolve a melee between `a` (the active element, which spends the
    /// Combat Order) and `d`. `counter`: `d` counter-charged into it.
    /// Returns whether the active element won and stays able to act.
    fn melee(&mut self, a: usize, d: usize, counter: bool) -> bool {
        self.stats.melees += 1;
        // Limbered guns caught by a charge are Shattered when the melee begins.
        if self.v.units[d].formation == Formation::Limbered {
            say!(
                self,
                LogKind::Melee,
                Some(d),
                "The limbered guns of {} are caught and taken.",
                self.v.units[d].name
            );
            self.set_level(d, DisciplineLevel::Shattered);
            self.v.units[a].engaged = None;
            self.v.units[a].dm += 1;
            return true;
        }
        let flank_a = self.v.in_flank_of(a, d) || self.v.units[a].flank_turn == self.v.turn;
        let flank_d = self.v.in_flank_of(d, a);
        let (mut sa, sup_a) = self.v.melee_side(self.cat, a, d, flank_a);
        let (mut sd, sup_d) = self.v.melee_side(self.cat, d, a, flank_d);
        sa.initiated = true;
        sa.reroll_misses = self.v.units[a].inspired;
        sd.initiated = false;
        sd.counter_charged = counter;
        if flank_a || flank_d {
            self.stats.flank_attacks += 1;
        }
        let r = resolve_melee_round(self.cat, &sa, &sd, &mut self.dice);
        say!(
            self,
            LogKind::Melee,
            Some(a),
            "Melee: {} ({} dice{}{}) against {} ({} dice{}): {} hits to {}, results {} to {}.",
            self.v.units[a].name,
            r.attacker_dice,
            if flank_a { ", into the flank" } else { "" },
            if sup_a.is_empty() {
                String::new()
            } else {
                format!(", {} supporting", sup_a.len())
            },
            self.v.units[d].name,
            r.defender_dice,
            if sup_d.is_empty() {
                String::new()
            } else {
                format!(", {} supporting", sup_d.len())
            },
            r.attacker_hits,
            r.defender_hits,
            r.attacker_result,
            r.defender_result
        );
        let (hit_a, hit_d) = (r.defender_hits, r.attacker_hits);
        let rout_expr = self.exprs.rout_withdrawal;
        match r.outcome {
            MeleeOutcome::Tie => {
                self.v.units[a].dm += 1;
                self.v.units[d].dm += 1;
                let fa = self.land_hits(a, hit_a, false, false);
                let fd = self.land_hits(d, hit_d, false, false);
                if fa {
                    let m = rout_expr.roll(&mut self.dice);
                    self.fall_back(a, m, true);
                }
                if fd {
                    let m = rout_expr.roll(&mut self.dice);
                    self.fall_back(d, m, true);
                }
                if !self.v.units[a].removed && !self.v.units[d].removed && !fa && !fd {
                    self.v.units[a].engaged = Some(d);
                    self.v.units[d].engaged = Some(a);
                }
                false
            }
            o => {
                let (w, l, sups) = if o == MeleeOutcome::AttackerWins {
                    (a, d, sup_d)
                } else {
                    (d, a, sup_a)
                };
                self.v.units[a].engaged = None;
                self.v.units[d].engaged = None;
                if self.v.units[l].et == ElementType::Artillery {
                    say!(
                        self,
                        LogKind::Melee,
                        Some(l),
                        "The guns of {} are overrun.",
                        self.v.units[l].name
                    );
                    self.set_level(l, DisciplineLevel::Shattered);
                } else {
                    // one Maneuver per point lost; the supporters that
                    // fought withdraw with it and take a hit each.
                    let back = r.margin.min(50) as i32;
                    self.fall_back(l, back, true);
                    for &s in &sups {
                        self.fall_back(s, back, true);
                    }
                    self.v.units[l].dm += 1;
                    let failed =
                        self.land_hits(l, if l == a { hit_a } else { hit_d }, false, false);
                    if failed && !self.v.units[l].removed {
                        let m = rout_expr.roll(&mut self.dice);
                        self.fall_back(l, m, true);
                    }
                    if r.margin > u32::from(self.v.units[l].discipline) && !self.v.units[l].removed
                    {
                        let next = degrade(self.v.units[l].level);
                        self.set_level(l, next);
                    }
                    for s in sups {
                        self.land_hits(s, 1, false, false);
                    }
                }
                self.v.units[w].dm += 1;
                let wf = self.land_hits(w, if w == a { hit_a } else { hit_d }, false, false);
                if wf && !self.v.units[w].removed {
                    let m = rout_expr.roll(&mut self.dice);
                    self.fall_back(w, m, true);
                }
                w == a && !wf && !self.v.units[a].removed
            }
        }
    }

    /// Move `i` toward `to`, at most `dist`, and never closer than 1" to an
    /// enemy it is not charging.
    fn step_toward(&mut self, i: usize, to: (f64, f64), dist: f64, keep_off: bool) -> f64 {
        let (x0, y0) = (self.v.units[i].x, self.v.units[i].y);
        let (dx, dy) = (to.0 - x0, to.1 - y0);
        let len = norm(dx, dy);
        if len < 1e-9 || dist <= 0.0 {
            return 0.0;
        }
        let mut step = dist.min(len);
        for _ in 0..12 {
            let (nx, ny) = (x0 + dx / len * step, y0 + dy / len * step);
            self.v.units[i].x = nx.clamp(0.0, TABLE_WIDTH);
            self.v.units[i].y = ny.clamp(0.0, TABLE_DEPTH);
            self.v.relocated(i);
            if !keep_off || !self.v.enemy_closer_than(i, 1.0) {
                return step;
            }
            step *= 0.6;
        }
        self.v.units[i].x = x0;
        self.v.units[i].y = y0;
        self.v.relocated(i);
        0.0
    }

    /// Move `i` one Maneuver toward its goal. `nearest`: its nearest enemy
    /// as the decision to advance found it (nothing has moved since).
    fn advance(&mut self, i: usize, nearest: Option<(usize, usize, f64)>) {
        // Nothing moves until `step_toward`: the policy's questions about the
        // nearest enemy share one scan.
        match nearest {
            Some(found) if found.0 == i => self.v.nearest_cache.set(Some(found)),
            _ => self.v.cache_nearest(i),
        }
        let Some(goal) = self.policy.goal(self.cat, &self.v, i) else {
            self.v.nearest_cache.set(None);
            return;
        };
        let rate = self.v.advance_rate(self.cat, i);
        // Stop at the distance the policy wants from an enemy goal.
        let standoff = self.policy.standoff(self.cat, &self.v, i);
        let target_gap = match self.v.nearest_enemy(i) {
            Some(t) => self.v.distance(i, t),
            None => f64::INFINITY,
        };
        self.v.nearest_cache.set(None);
        let dist = if target_gap.is_finite() {
            rate.min((target_gap - standoff).max(0.0))
        } else {
            rate
        };
        let moved = self.step_toward(i, goal, dist, true);
        if moved > 0.0 {
            say!(
                self,
                LogKind::Move,
                Some(i),
                "{} advances {:.0}\".",
                self.v.units[i].name,
                moved
            );
        }
    }

    /// Every enemy of the active element `a` with a stored order and `a` in
    /// its Threat Zone may interrupt: Snap Fires, then Counter-charges.
    /// Returns whether the active element's activation must end.
    fn interrupts(&mut self, a: usize) -> bool {
        if !self.v.units[a].active() {
            return true;
        }
        debug_assert!(
            self.v.near_index_in_step(),
            "the index of where elements stand"
        );
        let side = self.v.units[a].side.other();
        let enemies = Arc::clone(&self.v.side_units[sidx(side)]);
        // The stored-order flags first: most elements hold none, and they
        // are cheaper to read than the Threat Zone's geometry.
        let reacts = |v: &View, r: usize| v.units[r].active() && v.in_threat_zone(r, a);
        // Only enemies that may have `a` in their Threat Zone are read, in
        // order; after an interruption the board has changed, so the box is
        // found again and the scan goes on after the last enemy it read.
        let near = |v: &View| {
            if v.near.indexed(side) {
                v.near.mask(side, v.threat_zones_over(a, side))
            } else {
                None
            }
        };
        let mut read: Option<usize> = None;
        // Whether `a` is still free to be interrupted only changes when an
        // interruption happens, so it is checked only for elements that may.
        'snap: loop {
            let (mask, after) = (near(&self.v), read);
            for r in Near::new(&enemies, mask).filter(|&r| after.is_none_or(|l| r > l)) {
                read = Some(r);
                if !self.v.units[r].stored_combat {
                    continue;
                }
                if !self.v.units[a].active() || self.v.units[a].engaged.is_some() {
                    break 'snap;
                }
                if reacts(&self.v, r)
                    && self.v.may_shoot_at(self.cat, r, a)
                    && self.policy.snap_fire(self.cat, &self.v, r, a)
                {
                    self.v.units[r].stored_combat = false;
                    if self.shoot(r, a, Fire::Snap) {
                        // The active element withdrew: its activation ends.
                        return true;
                    }
                    continue 'snap;
                }
            }
            break;
        }
        let mut read: Option<usize> = None;
        'counter: loop {
            let (mask, after) = (near(&self.v), read);
            for r in Near::new(&enemies, mask).filter(|&r| after.is_none_or(|l| r > l)) {
                read = Some(r);
                if !self.v.units[r].stored_maneuver {
                    continue;
                }
                if !self.v.units[a].active() || self.v.units[a].engaged.is_some() {
                    break 'counter;
                }
                if reacts(&self.v, r)
                    && self.v.stored_counter_charge(self.cat, r, a)
                    && self.policy.counter_charge(self.cat, &self.v, r, a)
                {
                    self.v.units[r].stored_maneuver = false;
                    self.stats.counter_charges += 1;
                    say!(
                        self,
                        LogKind::Reaction,
                        Some(r),
                        "{} ({}) counter-charges {} from a stored order!",
                        self.v.units[r].name,
                        self.v.units[r].side.id(),
                        self.v.units[a].name
                    );
                    match self.charge(r, a, false, true) {
                        ChargeEnd::Stopped => continue 'counter,
                        _ => return true,
                    }
                }
            }
            break;
        }
        !self.v.units[a].active() || self.v.units[a].engaged.is_some()
    }

    /// A charge by `i` against `t`. `has_combat`: the charger has a Combat
    /// Order to start the melee. `counter`: a Counter-charge by a passive
    /// element from a stored order, against the active element `t`.
    fn charge(&mut self, i: usize, t: usize, has_combat: bool, counter: bool) -> ChargeEnd {
        let u = &self.v.units[i];
        let tg = &self.v.units[t];
        let flank = self.v.in_flank_of(i, t) || u.flank_turn == self.v.turn;
        let Ok(perm) =
            charge_permission(u.et, u.size, u.formation, u.level, u.fear, tg.size, flank)
        else {
            return ChargeEnd::Stopped;
        };
        if perm.morale_test && !self.test(i, TestKind::Morale, 0, "the nerve to charge") {
            return ChargeEnd::Stopped;
        }
        if perm.disorder_test && !self.test(i, TestKind::Disorder, 0, "the will to charge") {
            self.v.units[i].dm += 1;
            return ChargeEnd::Stopped;
        }
        if !counter && self.try_special(i, SpecialOrder::Charge) {
            self.v.units[i].inspired = true;
        }
        self.stats.charges += 1;
        if flank {
            self.stats.flank_attacks += 1;
        }
        say!(
            self,
            LogKind::Charge,
            Some(i),
            "{} ({}) charges {}{}!",
            self.v.units[i].name,
            self.v.units[i].side.id(),
            self.v.units[t].name,
            if flank { " in the flank" } else { "" }
        );
        let reach = self.v.charge_reach(self.cat, i);
        // First half of the charge, stopping 1" short.
        let gap = self.v.distance(i, t);
        let first = (reach / 2.0).min((gap - 1.0).max(0.0));
        let to = (self.v.units[t].x, self.v.units[t].y);
        self.step_toward(i, to, first, false);
        // The target's reaction. Riflemen must pass a Morale Test for any
        // reaction but Withdraw (Fear of Cold Steel).
        let mut met_by_counter = false;
        let mut reaction = self.policy.react(self.cat, &self.v, t, i);
        if self.v.units[t].must_withdraw_from_charge() {
            reaction = Reaction::Withdraw;
        }
        if self.v.units[t].engaged.is_some() {
            reaction = Reaction::Hold;
        }
        if self.v.units[t].fear
            && reaction != Reaction::Withdraw
            && reaction != Reaction::Hold
            && !self.test(t, TestKind::Morale, 0, "facing cold steel")
        {
            reaction = Reaction::Hold;
        }
        match reaction {
            Reaction::Withdraw if self.v.may_withdraw(t) => {
                let gc = self.v.groups[self.v.units[t].group]
                    .commander
                    .filter(|&c| self.v.cmds[c].alive);
                let rating = gc.map(|c| &*self.v.cmds[c].rating);
                let (expr, bonus) = withdraw_reaction_expr(self.cat, rating, self.v.units[t].level);
                let m = expr.roll(&mut self.dice) + bonus;
                say!(
                    self,
                    LogKind::Reaction,
                    Some(t),
                    "{} pulls back before the charge.",
                    self.v.units[t].name
                );
                self.fall_back(t, m, true);
                if self.v.units[t].removed || self.v.distance(i, t) > reach / 2.0 {
                    return ChargeEnd::Stopped;
                }
                if self.v.units[t].formation != Formation::Limbered {
                    self.v.units[t].dm += 1;
                }
            }
            Reaction::ClosingFire if self.v.can_closing_fire(t, i) => {
                let failed = self.shoot(t, i, Fire::Closing);
                if failed || !self.v.units[i].active() {
                    return ChargeEnd::EndActivation;
                }
            }
            Reaction::CounterCharge if self.v.may_counter_charge(self.cat, t, i) => {
                say!(
                    self,
                    LogKind::Reaction,
                    Some(t),
                    "{} counter-charges!",
                    self.v.units[t].name
                );
                self.stats.charges += 1;
                self.stats.counter_charges += 1;
                met_by_counter = true;
            }
            _ => {
                if self.v.units[t].formation == Formation::MarchColumn && self.v.units[t].dm == 0 {
                    if self.test(t, TestKind::Morale, 0, "forming up under a charge") {
                        let f = self.v.units[t].fight_formation;
                        self.v.units[t].formation = f;
                        self.face(t, i);
                    } else {
                        self.v.units[t].dm += 1;
                    }
                }
            }
        }
        if !self.v.units[t].active() || !self.v.units[i].active() {
            return ChargeEnd::Stopped;
        }
        // Snap Fires and Counter-charges of the target's friends at the end of
        // the first move (not against a passive counter-charger).
        if !counter {
            let side = self.v.units[t].side;
            let others: Vec<usize> = self
                .v
                .side_near(side, || self.v.threat_zones_over(i, side))
                .filter(|&r| r != t)
                .filter(|&r| self.v.units[r].stored_combat && self.v.in_threat_zone(r, i))
                .collect();
            for r in others {
                if !self.v.units[i].active() {
                    break;
                }
                if self.v.may_shoot_at(self.cat, r, i)
                    && self.policy.snap_fire(self.cat, &self.v, r, i)
                {
                    self.v.units[r].stored_combat = false;
                    if self.shoot(r, i, Fire::Snap) {
                        return ChargeEnd::EndActivation;
                    }
                }
            }
            if !self.v.units[i].active() {
                return ChargeEnd::EndActivation;
            }
            // Still allowed to charge after the fire (R-28 by its new level)?
            let u = &self.v.units[i];
            if charge_permission(
                u.et,
                u.size,
                u.formation,
                u.level,
                u.fear,
                self.v.units[t].size,
                flank,
            )
            .is_err()
            {
                return ChargeEnd::Stopped;
            }
        }
        // Contact.
        let (x, y) = contact_point(&self.v.units[i], &self.v.units[t]);
        self.v.units[i].x = x;
        self.v.units[i].y = y;
        self.v.relocated(i);
        self.v.units[i].stored_maneuver = false;
        self.v.units[i].stored_combat = false;
        self.v.units[i].engaged = Some(t);
        self.v.units[t].engaged = Some(i);
        if counter {
            // The passive counter-charger: the active element `t` must spend
            // a Combat Order on the melee, which it does at once if it can.
            let fought = self.melee(t, i, true);
            return ChargeEnd::Fought(!fought);
        }
        if !has_combat {
            self.v.units[i].dm += 1;
            return ChargeEnd::Locked;
        }
        ChargeEnd::Fought(self.melee(i, t, met_by_counter))
    }

    /// Turn `i` to face `toward` (±y).
    fn face(&mut self, i: usize, toward: usize) {
        let dy = self.v.units[toward].y - self.v.units[i].y;
        if dy.abs() > 0.01 {
            self.v.units[i].facing = dy.signum();
        }
    }

    fn promote_force_commanders(&mut self) {
        for side in [Side::Attacker, Side::Defender] {
            let Some(fc) = self.v.force_commander[sidx(side)] else {
                continue;
            };
            if self.v.cmds[fc].alive {
                continue;
            }
            // M-20: the first living Group Commander takes over, keeping his rating.
            let next = (0..self.v.cmds.len()).find(|&c| {
                self.v.cmds[c].side == side
                    && self.v.cmds[c].alive
                    && self.v.cmds[c].group.is_some()
            });
            if let Some(c) = next {
                if let Some(g) = self.v.cmds[c].group {
                    self.v.groups[g].commander = None;
                }
                self.v.cmds[c].group = None;
                self.v.cmds[c].promoted = true;
                self.v.force_commander[sidx(side)] = Some(c);
                say!(
                    self,
                    LogKind::Commander,
                    None,
                    "{} takes command of the {} force.",
                    self.v.cmds[c].name,
                    side.id()
                );
            }
        }
    }

    fn initiative(&mut self) -> Side {
        let roll_expr = self.exprs.initiative;
        let mut scouts = [0usize; 2];
        for u in &self.v.units {
            if u.active() && u.scouts {
                scouts[sidx(u.side)] += 1;
            }
        }
        let mut bonus = [0i32; 2];
        // Hold the Ground: Force Commanders arrive at the end of turn 1 with
        // no points; a Force Commander still in reserve adds nothing.
        let no_fc_points = self.v.scenario == ScenarioId::HoldTheGround && self.v.turn == 1;
        for (s, b) in bonus.iter_mut().enumerate() {
            if let Some(fc) = self.v.force_commander[s] {
                let c = &mut self.v.cmds[fc];
                if c.alive && c.on_table && !no_fc_points {
                    c.cp = roll_command_points(&c.rating, &mut self.dice);
                    *b = c.cp as i32;
                }
            }
        }
        if scouts[0] > scouts[1] {
            bonus[0] += i32::from(self.cat.numbers().scout_initiative_bonus);
        } else if scouts[1] > scouts[0] {
            bonus[1] += i32::from(self.cat.numbers().scout_initiative_bonus);
        }
        loop {
            let a = roll_expr.roll(&mut self.dice) + bonus[0];
            let d = roll_expr.roll(&mut self.dice) + bonus[1];
            if a != d {
                let w = if a > d {
                    Side::Attacker
                } else {
                    Side::Defender
                };
                say!(
                    self,
                    LogKind::Initiative,
                    None,
                    "Initiative: attacker {a}, defender {d}; the {} moves first.",
                    w.id()
                );
                return w;
            }
        }
    }

    fn play_turn(&mut self, first: Side) {
        let mut queue: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
        for (g, gr) in self.v.groups.iter().enumerate() {
            let arrived = gr.arrives_turn <= self.v.turn;
            let alive = gr.units.iter().any(|&i| !self.v.units[i].removed);
            if arrived && alive {
                queue[sidx(gr.side)].push(g);
            }
        }
        // Reserves: one new group a side each turn (the book's rule), except
        // in an Ambush, where the rest come on together (M-22).
        if self.v.scenario != ScenarioId::Ambush {
            for q in queue.iter_mut() {
                let mut entered = false;
                q.retain(|&g| {
                    let gr = &self.v.groups[g];
                    let waiting = gr
                        .units
                        .iter()
                        .all(|&i| !self.v.units[i].on_table && !self.v.units[i].removed);
                    if waiting {
                        if entered {
                            return false;
                        }
                        entered = true;
                    }
                    true
                });
            }
        }
        let mut side = first;
        let mut idx = [0usize; 2];
        while idx[0] < queue[0].len() || idx[1] < queue[1].len() {
            let s = sidx(side);
            if idx[s] < queue[s].len() {
                let g = queue[s][idx[s]];
                idx[s] += 1;
                self.activate_group(g);
            }
            side = side.other();
        }
        self.v.active_group = None;
    }

    /// Bring a reserve group on at its entry point: from a long edge in a
    /// line along it, from an end of the table in a line along that end;
    /// each element faces the enemy.
    fn arrive(&mut self, g: usize, waiting: &[usize]) {
        let gr = &self.v.groups[g];
        let (ex, ey) = gr.entry;
        let home = gr.entry_home;
        let flank = gr.flank_entry;
        let side = gr.side;
        let n = waiting.len() as f64;
        let from_end = ex <= 0.0 || ex >= TABLE_WIDTH;
        for (k, &i) in waiting.iter().enumerate() {
            let off = (k as f64 - (n - 1.0) / 2.0) * super::board::FILE_WIDTH;
            let (x, y) = if from_end {
                (ex.clamp(2.0, TABLE_WIDTH - 2.0), ey + off)
            } else {
                (ex + off, ey)
            };
            let u = &mut self.v.units[i];
            u.on_table = true;
            u.x = x.clamp(0.0, TABLE_WIDTH);
            u.y = y.clamp(0.0, TABLE_DEPTH);
            u.home = home;
            u.facing = home.facing();
            u.start = (f64::NAN, f64::NAN);
            if flank {
                u.flank_turn = self.v.turn;
            }
            self.v.relocated(i);
            if let Some(t) = self.v.nearest_enemy(i) {
                self.face(i, t);
            }
        }
        // A Force Commander in reserve comes on with his side's first group.
        if let Some(fc) = self.v.force_commander[sidx(side)] {
            self.v.cmds[fc].on_table = true;
        }
        say!(
            self,
            LogKind::Arrival,
            None,
            "The {} {} marches onto the field{}.",
            side.id(),
            self.v.groups[g].name,
            if flank { " on the enemy's flank" } else { "" }
        );
    }

    fn activate_group(&mut self, g: usize) {
        let side = self.v.groups[g].side;
        self.v.active_group = Some(g);
        let waiting: Vec<usize> = self.v.groups[g]
            .units
            .iter()
            .copied()
            .filter(|&i| !self.v.units[i].on_table && !self.v.units[i].removed)
            .collect();
        if !waiting.is_empty() {
            self.arrive(g, &waiting);
        }
        // Field promotion: the Force Commander spends a point.
        let leaderless = self.v.groups[g]
            .commander
            .map(|c| !self.v.cmds[c].alive)
            .unwrap_or(true);
        if leaderless {
            if let Some(fc) = self.v.force_commander[sidx(side)] {
                if self.v.cmds[fc].alive
                    && self.v.cmds[fc].cp > 0
                    && self.v.cmds[fc].attached_to.is_none()
                {
                    if let Some(rating) = roll_rating(self.cat, &mut self.dice, true) {
                        self.v.cmds[fc].cp -= 1;
                        let n = self.v.cmds.len();
                        self.v.cmds.push(Cmd {
                            id: format!("{}-promoted-{n}", side.id()).into(),
                            name: format!(
                                "a newly promoted officer of the {}",
                                self.v.groups[g].name
                            )
                            .into(),
                            side,
                            group: Some(g),
                            rating: Arc::new(rating),
                            alive: true,
                            killed_turn: None,
                            promoted: true,
                            cp: 0,
                            attached_to: None,
                            on_table: true,
                        });
                        self.v.groups[g].commander = Some(n);
                        say!(
                            self,
                            LogKind::Commander,
                            None,
                            "A field promotion gives the {} a new commander ({}).",
                            self.v.groups[g].name,
                            self.v.cmds[n].rating.name
                        );
                    }
                }
            }
        }
        if let Some(c) = self.v.groups[g].commander {
            if self.v.cmds[c].alive {
                let cp = roll_command_points(&self.v.cmds[c].rating, &mut self.dice);
                self.v.cmds[c].cp = cp;
            }
        }
        // as amended: a broken group tests every element first.
        // Passing, the element activates as usual with its level and hits;
        // failing, it drops a level and retires d3 Maneuvers in rout step,
        // with no orders this turn.
        if self.v.group_broken(g) {
            say!(
                self,
                LogKind::Broken,
                None,
                "The {} {} is broken.",
                side.id(),
                self.v.groups[g].name
            );
            let units = self.v.groups[g].units.clone();
            for i in units {
                if !self.v.units[i].active() {
                    continue;
                }
                if self.test(i, TestKind::Discipline, 0, "a broken group") {
                    continue;
                }
                let next = degrade(self.v.units[i].level);
                self.set_level(i, next);
                if !self.v.units[i].removed {
                    self.v.units[i].no_orders_turn = self.v.turn;
                    let m = self.exprs.rout_withdrawal.roll(&mut self.dice);
                    self.fall_back(i, m, true);
                }
            }
        }
        let units = self.v.groups[g].units.clone();
        for i in units {
            if self.v.units[i].active() {
                self.activate(i);
            }
        }
    }

    fn rally(&mut self, i: usize) -> bool {
        let Some(c) = self.ordering_commander(i) else {
            return false;
        };
        if self.v.cmds[c].cp == 0
            || self.v.cmds[c].attached_to.is_some()
            || !self.v.in_spi_or_fc(i, c)
            || !self.policy.rally(&self.v, i)
        {
            return false;
        }
        let turn = self.v.turn;
        self.v.cmds[c].cp -= 1;
        self.stats.command_points += 1;
        self.v.cmds[c].attached_to = Some(i);
        if self.test(i, TestKind::Morale, 0, "a rally") {
            let u = &self.v.units[i];
            if u.level == DisciplineLevel::Exhausted && u.hits == 0 {
                if self.narrate {
                    let u = &self.v.units[i];
                    self.log.push(LogLine {
                        turn,
                        kind: LogKind::Rally,
                        element: Some(u.key()),
                        level: Some(DisciplineLevel::Shaken),
                        text: format!("{} rallies and steadies to Shaken.", u.name),
                    });
                }
                self.v.units[i].level = DisciplineLevel::Shaken;
                self.v.units[i].rallied_turn = turn;
            } else if u.hits > 0 {
                self.v.units[i].hits = 0;
                say!(
                    self,
                    LogKind::Rally,
                    Some(i),
                    "{} rallies and shakes off its losses.",
                    self.v.units[i].name
                );
            } else {
                self.v.units[i].dm = 0;
                say!(
                    self,
                    LogKind::Rally,
                    Some(i),
                    "{} rallies and dresses its ranks.",
                    self.v.units[i].name
                );
            }
        }
        true
    }

    /// A Forced Order (a Command Point and a Morale Test, −1 for each after
    /// the first): passing grants one more order of the kind; failing adds a
    /// Disorder Marker and ends the activation. `None`: no order was forced.
    fn force_order(&mut self, i: usize, action: Action) -> Option<bool> {
        let c = self.ordering_commander(i)?;
        if self.v.cmds[c].cp == 0
            || self.v.cmds[c].attached_to.is_some()
            || !self.v.in_spi_or_fc(i, c)
            || !self.policy.force_order(self.cat, &self.v, i, action)
        {
            return None;
        }
        self.v.cmds[c].cp -= 1;
        self.stats.command_points += 1;
        self.stats.forced_orders += 1;
        self.forced += 1;
        say!(
            self,
            LogKind::Commander,
            Some(i),
            "{} pushes {} beyond its orders.",
            self.v.cmds[c].name,
            self.v.units[i].name
        );
        if self.test_forced(i, TestKind::Morale, 0, self.forced, "a forced order") {
            Some(true)
        } else {
            self.v.units[i].dm += 1;
            Some(false)
        }
    }

    fn activate(&mut self, i: usize) {
        // Commanders attached to it step away (they stay until its next activation).
        for c in self.v.cmds.iter_mut() {
            if c.attached_to == Some(i) {
                c.attached_to = None;
            }
        }
        let turn = self.v.turn;
        let u = &mut self.v.units[i];
        u.inspired = false;
        u.shots_this_activation = 0;
        // Stored orders are lost when the element activates.
        u.stored_maneuver = false;
        u.stored_combat = false;
        self.forced = 0;
        if u.no_orders_turn == turn {
            return;
        }
        say!(
            self,
            LogKind::Activation,
            Some(i),
            "{} ({}) takes its orders.",
            self.v.units[i].name,
            self.v.units[i].side.id()
        );
        let mut maneuvers = i32::from(self.v.units[i].maneuver);
        let mut combats = i32::from(combat_orders(
            self.v.units[i].combat_base,
            self.v.units[i].level,
        ));
        // Rally (before acting): one plain Maneuver and Combat Order after it.
        if self.rally(i) {
            maneuvers = 1;
            combats = 1;
        }
        // Leaderless elements without Carry On only tidy their ranks (M-21).
        let leaderless = self.ordering_commander(i).is_none();
        // Outside its commander's SPI an element takes no orders but a move
        // back toward him, unless it is Vanguard (it needs no SPI) or the
        // Force Commander orders it.
        let fc_orders = self.v.groups[self.v.units[i].group]
            .commander
            .map(|c| !self.v.cmds[c].alive)
            .unwrap_or(true);
        let outside = !leaderless && !fc_orders && !self.v.in_spi(i) && !self.v.units[i].vanguard;
        // Disorder Markers go first.
        while self.v.units[i].dm > 0 && maneuvers > 0 {
            self.v.units[i].dm -= 1;
            maneuvers -= 1;
        }
        if leaderless && !self.v.units[i].carry_on {
            return;
        }
        if outside {
            if maneuvers > 0 && self.v.units[i].engaged.is_none() {
                if let Some(p) = self.v.group_centre(self.v.units[i].group) {
                    let rate = self.v.advance_rate(self.cat, i);
                    let moved = self.step_toward(i, p, rate, true);
                    if moved > 0.0 {
                        self.stats.out_of_command += 1;
                        say!(
                            self,
                            LogKind::Move,
                            Some(i),
                            "{} is out of its commander's reach and closes on him {:.0}\".",
                            self.v.units[i].name,
                            moved
                        );
                    }
                }
            }
            return;
        }
        let mut steps = 0;
        while self.v.units[i].active() && steps < 24 {
            steps += 1;
            // Locked in melee: the active element must fight.
            if let Some(f) = self.v.units[i].engaged {
                if combats > 0 {
                    combats -= 1;
                    let won = self.melee(i, f, false);
                    if won {
                        maneuvers += 1; // the winner's free Maneuver
                    }
                    continue;
                }
                break;
            }
            self.v.active_orders = (maneuvers, combats);
            debug_assert!(
                self.v.near_index_in_step(),
                "the index of where elements stand"
            );
            self.v.cache_nearest(i);
            let act = self.policy.act(self.cat, &self.v, i);
            // Kept for an advance, which asks the same question before anything moves.
            let nearest = self.v.nearest_cache.take();
            let needs_maneuver = matches!(
                act,
                Action::Charge(_)
                    | Action::Reload
                    | Action::Deploy
                    | Action::Advance
                    | Action::Face
            );
            let needs_combat = matches!(act, Action::Shoot(_));
            if (needs_maneuver && maneuvers == 0) || (needs_combat && combats == 0) {
                match self.force_order(i, act) {
                    Some(true) => {
                        if needs_maneuver {
                            maneuvers += 1;
                        } else {
                            combats += 1;
                        }
                    }
                    Some(false) => return,
                    None => break,
                }
            }
            match act {
                Action::Charge(t) => {
                    maneuvers -= 1;
                    match self.charge(i, t, combats > 0, false) {
                        ChargeEnd::Fought(won) => {
                            combats -= 1;
                            if won {
                                maneuvers += 1;
                            } else {
                                break;
                            }
                        }
                        ChargeEnd::Locked => break,
                        ChargeEnd::Stopped => {
                            if self.interrupts(i) {
                                return;
                            }
                        }
                        ChargeEnd::EndActivation => return,
                    }
                }
                Action::Shoot(t) => {
                    combats -= 1;
                    self.shoot(i, t, Fire::Volley);
                    if self.interrupts(i) {
                        return;
                    }
                }
                Action::Reload => {
                    maneuvers -= 1;
                    self.v.units[i].loaded = true;
                    if self.interrupts(i) {
                        return;
                    }
                }
                Action::Deploy => {
                    maneuvers -= 1;
                    let f = self.v.units[i].fight_formation;
                    self.v.units[i].formation = f;
                    if let Some(t) = self.v.nearest_enemy(i) {
                        self.face(i, t);
                    }
                    say!(
                        self,
                        LogKind::Move,
                        Some(i),
                        "{} forms {}.",
                        self.v.units[i].name,
                        f.label()
                    );
                    if self.interrupts(i) {
                        return;
                    }
                }
                Action::Face => {
                    maneuvers -= 1;
                    self.v.units[i].facing = -self.v.units[i].facing;
                    say!(
                        self,
                        LogKind::Move,
                        Some(i),
                        "{} turns about.",
                        self.v.units[i].name
                    );
                    if self.interrupts(i) {
                        return;
                    }
                }
                Action::Advance => {
                    maneuvers -= 1;
                    self.advance(i, nearest);
                    if self.interrupts(i) {
                        return;
                    }
                }
                Action::Hold => break,
            }
        }
        self.store_orders(i, maneuvers, combats);
    }

    /// At the end of its activation an element keeps one Maneuver Order (for
    /// a Counter-charge) and one Combat Order (for a Snap Fire, if loaded) it
    /// did not use; a commander may spend a point on Wait For My Command to
    /// store a Combat Order it no longer has.
    fn store_orders(&mut self, i: usize, maneuvers: i32, combats: i32) {
        let u = &self.v.units[i];
        if !u.active() || u.engaged.is_some() || u.no_orders_turn == self.v.turn {
            return;
        }
        let can_counter = u.et != ElementType::Artillery
            && !matches!(u.formation, Formation::MarchColumn | Formation::Limbered);
        let can_snap =
            u.loaded && !matches!(u.formation, Formation::MarchColumn | Formation::Limbered);
        if maneuvers > 0 && can_counter {
            self.v.units[i].stored_maneuver = true;
        }
        if combats > 0 && can_snap {
            self.v.units[i].stored_combat = true;
        } else if can_snap {
            if let Some(c) = self.ordering_commander(i) {
                if self.v.cmds[c].cp > 0
                    && self.v.cmds[c].attached_to.is_none()
                    && self.v.in_spi_or_fc(i, c)
                    && self.policy.wait_for_my_command(self.cat, &self.v, i)
                {
                    self.v.cmds[c].cp -= 1;
                    self.stats.command_points += 1;
                    self.v.units[i].stored_combat = true;
                    say!(
                        self,
                        LogKind::Commander,
                        Some(i),
                        "{} tells {} to wait for his command (a volley held back).",
                        self.v.cmds[c].name,
                        self.v.units[i].name
                    );
                }
            }
        }
        if self.v.units[i].stored_maneuver || self.v.units[i].stored_combat {
            self.stats.stored_orders += 1;
        }
    }

    /// Run the whole battle.
    pub fn run(&mut self) {
        let last = u32::from(self.cat.tables().game_length_turns);
        for turn in 1..=last {
            self.v.turn = turn;
            say!(self, LogKind::Turn, None, "Turn {turn} begins.");
            // a broken force concedes before initiative.
            if turn > 1 && self.concede(turn) {
                // The conceding turn is one of the turns played: it gets its picture too.
                self.note_positions();
                return;
            }
            self.promote_force_commanders();
            let first = self.initiative();
            self.play_turn(first);
            let a = self.v.points_lost(Side::Attacker);
            let d = self.v.points_lost(Side::Defender);
            self.turn_points.push((turn, a, d));
            self.note_positions();
            for c in self.v.cmds.iter_mut() {
                c.cp = 0;
            }
        }
        // A force broken when the last turn ends concedes as it would at the
        // start of the next (the recorder judges the same way).
        self.concede(last + 1);
    }

    /// Where the elements on the table stand now, kept when positions are asked for.
    fn note_positions(&mut self) {
        let Some(turns) = self.positions.as_mut() else {
            return;
        };
        let tenth = |v: f64| (v * 10.0).round() / 10.0;
        turns.push(TurnPositions {
            turn: self.v.turn,
            elements: self
                .v
                .units
                .iter()
                .filter(|u| u.active())
                .map(|u| ElementPosition {
                    element: u.key(),
                    x: tenth(u.x),
                    y: tenth(u.y),
                    facing: if u.facing < 0.0 { -1 } else { 1 },
                    discipline_level: u.level,
                })
                .collect(),
        });
    }

    /// R-23 and M-26: a count of broken groups; a force that is broken
    /// concedes, and both broken at once end the battle for victory points.
    fn concede(&mut self, turn: u32) -> bool {
        let a = self.v.broken_groups(Side::Attacker);
        let d = self.v.broken_groups(Side::Defender);
        let verdict = broken_force_verdict(a, d);
        match verdict {
            BrokenForces::Neither => return false,
            BrokenForces::Concedes(side) => say!(
                self,
                LogKind::Broken,
                None,
                "The {} force is broken and gives up the field.",
                side.id()
            ),
            BrokenForces::Both => say!(
                self,
                LogKind::Broken,
                None,
                "Both forces are broken; the battle ends and the losses decide it."
            ),
        }
        self.ended_by_break = Some((verdict, turn));
        true
    }
}
