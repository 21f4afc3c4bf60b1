//! The battle engine: sets up the [`board`](super::board) from a set-up
//! document and plays the turns, applying the rules; a [`Policy`] makes the
//! choices.

use super::board::{sector_for, sidx, u_marksmen, Cmd, Group, Posture, Unit, View, TABLE_DEPTH};
use super::log::{LogKind, LogLine};
use super::policy::{Action, Policy, Reaction};
use crate::rules::battlefield;
use crate::rules::dice::{Dice, DiceExpr};
use crate::rules::systems::lotf::battle::{BattleSetup, ScenarioId};
use crate::rules::systems::lotf::catalogue::{skill_ids, Catalogue};
use crate::rules::systems::lotf::combat::{
    charge_permission, combat_orders, commander_killed, degrade, morale_modifier, resolve_melee,
    roll_command_points, roll_morale, roll_rating, roll_volley, shooting_pool, take_hits,
    withdraw_reaction_expr, MeleeOutcome, MeleeSide, MoraleSituation, MoraleTest, ShooterState,
    ShotSituation, ShotSpec, Side, TestKind,
};
use crate::rules::systems::lotf::odds::has_skill;
use crate::rules::systems::lotf::profile::profile;
use crate::rules::systems::lotf::types::{DisciplineLevel, ElementType, Formation, Weapon};
use crate::rules::systems::lotf::validate::price_element;

/// The engine: state, dice and log.
pub struct Engine<'c> {
    pub cat: &'c Catalogue,
    pub v: View,
    pub dice: Dice,
    pub narrate: bool,
    pub log: Vec<LogLine>,
    pub turn_points: Vec<(u32, u32, u32)>,
    pub ended_by_break: Option<(Side, u32)>,
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

impl<'c> Engine<'c> {
    /// Build the battle from a checked set-up.
    pub fn new(
        cat: &'c Catalogue,
        setup: &BattleSetup,
        narrate: bool,
    ) -> Result<Engine<'c>, SimError> {
        setup.check()?;
        let mut dice = Dice::from_seed(setup.seed);
        let scenario = setup.scenario;
        let mut v = View {
            scenario,
            turn: 0,
            units: Vec::new(),
            cmds: Vec::new(),
            groups: Vec::new(),
            objectives: Vec::new(),
            postures: [Posture::Advance, Posture::Advance],
            force_commander: [None, None],
        };
        for (side, force) in [
            (Side::Attacker, &setup.attacker),
            (Side::Defender, &setup.defender),
        ] {
            let r = &force.roster;
            let fc_doc = r.force_commander.clone().unwrap_or_default();
            let fc = Self::make_cmd(
                cat,
                &mut dice,
                force,
                &fc_doc,
                side,
                None,
                "Force Commander",
            )?;
            v.force_commander[sidx(side)] = Some(v.cmds.len());
            v.cmds.push(fc);
            let ngroups = r.groups.len();
            for (gi, g) in r.groups.iter().enumerate() {
                let gidx = v.groups.len();
                let cmd = match &g.commander {
                    Some(cd) => {
                        let c = Self::make_cmd(
                            cat,
                            &mut dice,
                            force,
                            cd,
                            side,
                            Some(gidx),
                            "Group Commander",
                        )?;
                        v.cmds.push(c);
                        Some(v.cmds.len() - 1)
                    }
                    None => None,
                };
                let sector = sector_for(gi, ngroups);
                let mut units = Vec::new();
                for e in &g.elements {
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
                    let u = Unit {
                        id: e.id.clone().unwrap_or_default(),
                        name: if e.name.is_empty() {
                            format!("{} {}", doc.size.label(), doc.element_type.label())
                        } else {
                            e.name.clone()
                        },
                        side,
                        group: gidx,
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
                        sector,
                        y: 0.0,
                        start_y: 0.0,
                        engaged: None,
                        defenses: false,
                        cover: false,
                        flank_turn: 0,
                        inspired: false,
                        shots_this_activation: 0,
                        no_orders_turn: 0,
                        rallied_turn: 0,
                    };
                    units.push(v.units.len());
                    v.units.push(u);
                }
                v.groups.push(Group {
                    side,
                    name: if g.name.is_empty() {
                        format!("group {}", gi + 1)
                    } else {
                        g.name.clone()
                    },
                    commander: cmd,
                    units,
                    arrives_turn: 0,
                    entry_sector: sector,
                    entry_y: None,
                    flank_entry: false,
                });
            }
        }
        super::scenario::deploy(cat, &mut v, &mut dice);
        Ok(Engine {
            cat,
            v,
            dice,
            narrate,
            log: Vec::new(),
            turn_points: Vec::new(),
            ended_by_break: None,
        })
    }

    fn make_cmd(
        cat: &Catalogue,
        dice: &mut Dice,
        force: &crate::rules::systems::lotf::battle::ForceSetup,
        doc: &crate::rules::systems::lotf::roster::CommanderDoc,
        side: Side,
        group: Option<usize>,
        role: &str,
    ) -> Result<Cmd, SimError> {
        let preset = doc
            .id
            .as_ref()
            .and_then(|id| force.commanders.get(id))
            .map(|c| c.rating_roll);
        let rating = match preset {
            Some(r) => crate::rules::systems::lotf::combat::rating_for_roll(cat, r),
            None => roll_rating(cat, dice, false),
        }
        .ok_or_else(|| SimError::Force("the commander rating table is incomplete".into()))?;
        Ok(Cmd {
            id: doc.id.clone().unwrap_or_default(),
            name: if doc.name.is_empty() {
                format!("{} {}", side.id(), role)
            } else {
                doc.name.clone()
            },
            side,
            group,
            rating,
            alive: true,
            killed_turn: None,
            promoted: false,
            cp: 0,
            attached_to: None,
            on_table: true,
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
        self.v.units[i].left_field = left_field;
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

    fn morale_target(&self, i: usize) -> i32 {
        match self.v.attached_commander(i) {
            Some(c) => i32::from(self.v.cmds[c].rating.morale),
            None => i32::from(self.v.units[i].morale),
        }
    }

    fn situation(&self, i: usize) -> MoraleSituation {
        let u = &self.v.units[i];
        let supported = self.v.units.iter().enumerate().any(|(j, o)| {
            j != i
                && o.side == u.side
                && o.active()
                && o.level == DisciplineLevel::Fit
                && o.sector == u.sector
                && (o.y - u.y).abs() <= f64::from(self.cat.numbers().morale_support_inches)
        });
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
            supported,
            battle_line: u.formation == Formation::BattleLine,
            commander_attached: self.v.attached_commander(i).is_some(),
            in_cover: u.cover && (u.y - u.start_y).abs() < 0.01,
            in_defenses: u.defenses && (u.y - u.start_y).abs() < 0.01,
            preserve_the_nation: u.preserve,
        }
    }

    /// Take a test for element `i`; returns whether it passed.
    fn test(&mut self, i: usize, kind: TestKind, excess: u32, what: &str) -> bool {
        let mut s = self.situation(i);
        s.excess_hits = excess;
        let (m, _) = morale_modifier(self.cat, &s, kind);
        let u = &self.v.units[i];
        let t = MoraleTest {
            target: self.morale_target(i),
            modifier: m,
            esprit_de_corps: u.esprit,
            encouraging_words: false,
            automatic_pass: kind == TestKind::Discipline
                && u.et == ElementType::Artillery
                && u.formation == Formation::Unlimbered,
        };
        let r = roll_morale(&t, &mut self.dice);
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
        r.passed
    }

    /// Move an element back toward its own edge; handles leaving the table.
    fn fall_back(&mut self, i: usize, maneuvers: i32, rout: bool) {
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
        let ny = u.y - u.forward() * dist;
        if let Some(f) = self.v.units[i].engaged.take() {
            self.v.units[f].engaged = None;
        }
        say!(
            self,
            LogKind::Withdraw,
            Some(i),
            "{} falls back {:.0}\"{}.",
            self.v.units[i].name,
            dist,
            if rout {
                " in disorder"
            } else {
                " in good order"
            }
        );
        if !(0.0..=TABLE_DEPTH).contains(&ny) {
            self.v.units[i].y = self.v.units[i].edge();
            let exhausted = self.v.units[i].level == DisciplineLevel::Exhausted;
            if exhausted || !self.test(i, TestKind::Morale, 0, "staying on the field") {
                self.remove(i, true);
            }
        } else {
            self.v.units[i].y = ny;
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
                let m = DiceExpr::parse(&self.cat.numbers().shooting_withdrawal)
                    .unwrap_or(DiceExpr::D3)
                    .roll(&mut self.dice);
                self.fall_back(i, m, false);
            }
            return true;
        }
        false
    }

    /// Fire one shooting order (or a closing fire) from `s` at `t`.
    fn shoot(&mut self, p: &mut dyn Policy, s: usize, t: usize, spend_cp: bool) -> bool {
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
        let sit = ShotSituation {
            range_inches: d,
            target_in_cover: tg.cover && (tg.y - tg.start_y).abs() < 0.01,
            target_open_order: matches!(tg.formation, Formation::OpenOrder | Formation::Unlimbered),
            flank: u.flank_turn == self.v.turn,
            ammunition: if grape {
                crate::rules::systems::lotf::combat::Ammunition::Grapeshot
            } else {
                crate::rules::systems::lotf::combat::Ammunition::SolidShot
            },
        };
        let Ok((pool, kind)) = shooting_pool(self.cat, &shooter, &sit) else {
            return false;
        };
        let mut spec = ShotSpec::from_pool(&pool, kind, sit.flank);
        spec.marksmen = u.marksmen;
        // German Ranks: the first volley of an activation counts as a
        // Concentrated Volley; otherwise a commander may order one.
        let german_first = u.german_ranks && u.shots_this_activation == 0;
        if spend_cp && (german_first || self.try_special(p, s, SpecialOrder::Volley(pool.dice()))) {
            spec.reroll_misses = true;
            spec.ignore_ragged = true;
        }
        self.v.units[s].loaded = false;
        self.v.units[s].shots_this_activation += 1;
        let r = roll_volley(self.cat, &spec, &mut self.dice);
        say!(
            self,
            LogKind::Shoot,
            Some(s),
            "{} ({}) fires at {} from {}\" with {}: {} hit{}{}{}.",
            self.v.units[s].name,
            self.v.units[s].side.id(),
            self.v.units[t].name,
            d,
            pool.explanation(),
            r.effect.hits,
            if r.effect.hits == 1 { "" } else { "s" },
            if r.effect.ragged {
                ", a ragged volley"
            } else {
                ""
            },
            if r.effect.punishing {
                ", a punishing volley"
            } else {
                ""
            }
        );
        self.v.units[t].dm += r.effect.disorder_markers;
        self.land_hits(t, r.effect.hits, u_marksmen(&self.v, s), true)
    }

    /// Spend a Command Point of the ordering commander on a special order
    /// that attaches him and needs a Morale Test. Returns whether it passed.
    fn try_special(&mut self, p: &mut dyn Policy, i: usize, order: SpecialOrder) -> bool {
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
            SpecialOrder::Volley(d) => p.concentrated_volley(&self.v, i, d),
            SpecialOrder::Charge => p.inspirational_charge(&self.v, i),
        };
        if !want {
            return false;
        }
        self.v.cmds[c].cp -= 1;
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

    fn ordering_commander(&self, i: usize) -> Option<usize> {
        let g = self.v.units[i].group;
        match self.v.groups[g].commander {
            Some(c) if self.v.cmds[c].alive => Some(c),
            _ => {
                self.v.force_commander[sidx(self.v.units[i].side)].filter(|&c| self.v.cmds[c].alive)
            }
        }
    }

    /// Resolve a melee round between `a` (the active element) and `d`.
    /// Returns whether the active element won and stays able to act.
    fn melee(&mut self, a: usize, d: usize, counter: bool) -> bool {
        let (mut sa, mut sd) = self.v.melee_sides(self.cat, a, d, true);
        if counter {
            sd.counter_charged = true;
        }
        sa.initiated = true;
        sd.initiated = false;
        let r = resolve_melee(self.cat, &sa, &sd, &mut self.dice);
        say!(
            self,
            LogKind::Melee,
            Some(a),
            "Melee: {} ({} dice) against {} ({} dice): {} hits to {}, results {} to {}.",
            self.v.units[a].name,
            r.attacker_faces.len(),
            self.v.units[d].name,
            r.defender_faces.len(),
            r.attacker_hits,
            r.defender_hits,
            r.attacker_result,
            r.defender_result
        );
        let loser_supporters = |v: &View, who: usize, side: &MeleeSide| -> Vec<usize> {
            let _ = side;
            (0..v.units.len())
                .filter(|&i| {
                    i != who && v.units[i].side == v.units[who].side && v.units[i].active()
                })
                .filter(|&i| {
                    v.units[i].engaged.is_none() && v.units[i].sector == v.units[who].sector
                })
                .filter(|&i| (v.units[i].y - v.units[who].y).abs() <= 6.0)
                .take(3)
                .collect()
        };
        let (hit_a, hit_d) = (r.defender_hits, r.attacker_hits);
        match r.outcome {
            MeleeOutcome::Tie => {
                self.v.units[a].dm += 1;
                self.v.units[d].dm += 1;
                let fa = self.land_hits(a, hit_a, false, false);
                let fd = self.land_hits(d, hit_d, false, false);
                let rout =
                    DiceExpr::parse(&self.cat.numbers().rout_withdrawal).unwrap_or(DiceExpr::D3);
                if fa {
                    let m = rout.roll(&mut self.dice);
                    self.fall_back(a, m, true);
                }
                if fd {
                    let m = rout.roll(&mut self.dice);
                    self.fall_back(d, m, true);
                }
                if !self.v.units[a].removed && !self.v.units[d].removed && !fa && !fd {
                    self.v.units[a].engaged = Some(d);
                    self.v.units[d].engaged = Some(a);
                }
                false
            }
            o => {
                let (w, l, sl) = if o == MeleeOutcome::AttackerWins {
                    (a, d, &sd)
                } else {
                    (d, a, &sa)
                };
                let sups = loser_supporters(&self.v, l, sl);
                self.v.units[a].engaged = None;
                self.v.units[d].engaged = None;
                let lu = &self.v.units[l];
                if lu.et == ElementType::Artillery {
                    say!(
                        self,
                        LogKind::Melee,
                        Some(l),
                        "The guns of {} are overrun.",
                        self.v.units[l].name
                    );
                    self.set_level(l, DisciplineLevel::Shattered);
                } else {
                    self.fall_back(l, r.margin.min(50) as i32, true);
                    for &s in &sups {
                        self.fall_back(s, r.margin.min(50) as i32, true);
                    }
                    self.v.units[l].dm += 1;
                    let failed =
                        self.land_hits(l, if l == a { hit_a } else { hit_d }, false, false);
                    if failed && !self.v.units[l].removed {
                        let m = DiceExpr::parse(&self.cat.numbers().rout_withdrawal)
                            .unwrap_or(DiceExpr::D3)
                            .roll(&mut self.dice);
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
                    let m = DiceExpr::parse(&self.cat.numbers().rout_withdrawal)
                        .unwrap_or(DiceExpr::D3)
                        .roll(&mut self.dice);
                    self.fall_back(w, m, true);
                }
                w == a && !wf && !self.v.units[a].removed
            }
        }
    }

    /// Run the whole battle.
    pub fn run(&mut self, p: &mut dyn Policy) {
        let last = u32::from(self.cat.tables().game_length_turns);
        for turn in 1..=last {
            self.v.turn = turn;
            say!(self, LogKind::Turn, None, "Turn {turn} begins.");
            // a broken force concedes before initiative.
            for side in [Side::Attacker, Side::Defender] {
                if turn > 1 && self.v.force_broken(side) {
                    self.ended_by_break = Some((side, turn));
                    say!(
                        self,
                        LogKind::Broken,
                        None,
                        "The {} force is broken and gives up the field.",
                        side.id()
                    );
                    return;
                }
            }
            self.promote_force_commanders();
            let first = self.initiative();
            self.play_turn(p, first);
            let a = self.v.points_lost(Side::Attacker);
            let d = self.v.points_lost(Side::Defender);
            self.turn_points.push((turn, a, d));
            for c in self.v.cmds.iter_mut() {
                c.cp = 0;
            }
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
        let roll_expr =
            DiceExpr::parse(&self.cat.numbers().initiative_roll).unwrap_or(DiceExpr::D6);
        let mut scouts = [0usize; 2];
        for u in &self.v.units {
            if u.active() && u.scouts {
                scouts[sidx(u.side)] += 1;
            }
        }
        let mut bonus = [0i32; 2];
        // Hold the Ground: Force Commanders arrive at the end of turn 1 with no points.
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

    fn play_turn(&mut self, p: &mut dyn Policy, first: Side) {
        let mut queue: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
        for (g, gr) in self.v.groups.iter().enumerate() {
            let arrived = gr.arrives_turn <= self.v.turn;
            let alive = gr.units.iter().any(|&i| !self.v.units[i].removed);
            if arrived && alive {
                queue[sidx(gr.side)].push(g);
            }
        }
        // Reserves: at most one new group a side each turn (the book's rule).
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
        let mut side = first;
        let mut idx = [0usize; 2];
        while idx[0] < queue[0].len() || idx[1] < queue[1].len() {
            let s = sidx(side);
            if idx[s] < queue[s].len() {
                let g = queue[s][idx[s]];
                idx[s] += 1;
                self.activate_group(p, g);
            }
            side = side.other();
        }
    }

    fn activate_group(&mut self, p: &mut dyn Policy, g: usize) {
        let side = self.v.groups[g].side;
        // Arrival from reserve.
        let waiting: Vec<usize> = self.v.groups[g]
            .units
            .iter()
            .copied()
            .filter(|&i| !self.v.units[i].on_table && !self.v.units[i].removed)
            .collect();
        if !waiting.is_empty() {
            let gr = &self.v.groups[g];
            let y = gr.entry_y.unwrap_or(match side {
                Side::Attacker => 0.0,
                Side::Defender => TABLE_DEPTH,
            });
            let (sector, flank) = (gr.entry_sector, gr.flank_entry);
            for &i in &waiting {
                let u = &mut self.v.units[i];
                u.on_table = true;
                u.sector = sector;
                u.y = y;
                u.start_y = f64::NAN;
                if flank {
                    u.flank_turn = self.v.turn;
                }
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
                            id: format!("{}-promoted-{n}", side.id()),
                            name: format!(
                                "a newly promoted officer of the {}",
                                self.v.groups[g].name
                            ),
                            side,
                            group: Some(g),
                            rating,
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
                let r = self.v.cmds[c].rating.clone();
                self.v.cmds[c].cp = roll_command_points(&r, &mut self.dice);
            }
        }
        // a broken group tests every element first.
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
                let passed = self.test(i, TestKind::Discipline, 0, "a broken group");
                self.v.units[i].hits = 0;
                let next = degrade(self.v.units[i].level);
                self.set_level(i, next);
                if !passed && !self.v.units[i].removed {
                    self.v.units[i].no_orders_turn = self.v.turn;
                    let m = DiceExpr::parse(&self.cat.numbers().rout_withdrawal)
                        .unwrap_or(DiceExpr::D3)
                        .roll(&mut self.dice);
                    self.fall_back(i, m, true);
                }
            }
        }
        let units = self.v.groups[g].units.clone();
        for i in units {
            if self.v.units[i].active() {
                self.activate(p, i);
            }
        }
    }

    fn activate(&mut self, p: &mut dyn Policy, i: usize) {
        // Commanders attached to it step away (they stay until its next activation).
        for c in self.v.cmds.iter_mut() {
            if c.attached_to == Some(i) {
                c.attached_to = None;
            }
        }
        let turn = self.v.turn;
        self.v.units[i].inspired = false;
        self.v.units[i].shots_this_activation = 0;
        if self.v.units[i].no_orders_turn == turn {
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
        if let Some(c) = self.ordering_commander(i) {
            if self.v.cmds[c].cp > 0
                && self.v.cmds[c].attached_to.is_none()
                && self.v.in_spi_or_fc(i, c)
                && p.rally(&self.v, i)
            {
                self.v.cmds[c].cp -= 1;
                self.v.cmds[c].attached_to = Some(i);
                maneuvers = 1;
                combats = 1;
                let passed = self.test(i, TestKind::Morale, 0, "a rally");
                if passed {
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
            }
        }
        // Leaderless elements without Carry On only tidy their ranks (M-21).
        let leaderless = self.ordering_commander(i).is_none();
        let outside = !self.v.in_spi(i) && !self.v.units[i].vanguard && !leaderless;
        let _ = outside;
        // Disorder Markers go first.
        while self.v.units[i].dm > 0 && maneuvers > 0 {
            self.v.units[i].dm -= 1;
            maneuvers -= 1;
        }
        if leaderless && !self.v.units[i].carry_on {
            return;
        }
        let mut steps = 0;
        while (maneuvers > 0 || combats > 0) && self.v.units[i].active() && steps < 20 {
            steps += 1;
            // Locked in melee: the active element must fight.
            if let Some(f) = self.v.units[i].engaged {
                if combats > 0 {
                    combats -= 1;
                    let won = self.melee(i, f, false);
                    if won && maneuvers == 0 {
                        maneuvers = 1; // the winner's free Maneuver
                    } else if won {
                        maneuvers += 1;
                    }
                    continue;
                }
                break;
            }
            let act = p.act(self.cat, &self.v, i);
            match act {
                Action::Charge(t) if maneuvers > 0 => {
                    maneuvers -= 1;
                    match self.charge(p, i, t, combats > 0) {
                        ChargeEnd::Fought(won) => {
                            combats -= 1;
                            if won {
                                maneuvers += 1;
                            }
                        }
                        ChargeEnd::Locked | ChargeEnd::Stopped => {}
                        ChargeEnd::EndActivation => break,
                    }
                }
                Action::Shoot(t) if combats > 0 => {
                    combats -= 1;
                    if self.shoot(p, i, t, true) && self.v.units[i].side != self.v.units[t].side {
                        // the target's fate does not stop the shooter
                    }
                }
                Action::Reload if maneuvers > 0 => {
                    maneuvers -= 1;
                    self.v.units[i].loaded = true;
                }
                Action::Deploy if maneuvers > 0 => {
                    maneuvers -= 1;
                    let f = self.v.units[i].fight_formation;
                    self.v.units[i].formation = f;
                    say!(
                        self,
                        LogKind::Move,
                        Some(i),
                        "{} forms {}.",
                        self.v.units[i].name,
                        f.label()
                    );
                }
                Action::Shift(dir) if maneuvers > 0 => {
                    maneuvers -= 1;
                    let u = &mut self.v.units[i];
                    u.sector = battlefield::clamp_sector(u.sector + i32::from(dir));
                    say!(
                        self,
                        LogKind::Move,
                        Some(i),
                        "{} sidesteps to sector {}.",
                        self.v.units[i].name,
                        self.v.units[i].sector + 1
                    );
                }
                Action::Advance if maneuvers > 0 => {
                    maneuvers -= 1;
                    self.advance(i);
                }
                _ => break,
            }
        }
    }

    fn advance(&mut self, i: usize) {
        let rate = self.v.advance_rate(self.cat, i);
        let gap = self.v.gap_ahead(i);
        let goal = self.v.goal_y(i);
        let u = &self.v.units[i];
        let fwd = u.forward();
        let mut step = rate.min((gap - 1.0).max(0.0));
        if let Some(g) = goal {
            step = step.min(((g - u.y) * fwd).abs());
            if (g - u.y) * fwd < 0.0 {
                step = -step.min(rate);
            }
        }
        let ny = battlefield::on_table(u.y + fwd * step);
        self.v.units[i].y = ny;
        say!(
            self,
            LogKind::Move,
            Some(i),
            "{} advances {:.0}\".",
            self.v.units[i].name,
            step.abs()
        );
    }

    fn charge(&mut self, p: &mut dyn Policy, i: usize, t: usize, has_combat: bool) -> ChargeEnd {
        let u = &self.v.units[i];
        let tg = &self.v.units[t];
        let flank = u.flank_turn == self.v.turn;
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
        if self.try_special(p, i, SpecialOrder::Charge) {
            self.v.units[i].inspired = true;
        }
        say!(
            self,
            LogKind::Charge,
            Some(i),
            "{} ({}) charges {}!",
            self.v.units[i].name,
            self.v.units[i].side.id(),
            self.v.units[t].name
        );
        let reach = self.v.charge_reach(self.cat, i);
        // First half of the charge.
        let fwd = self.v.units[i].forward();
        let gap = (self.v.units[t].y - self.v.units[i].y).abs();
        let first = (reach / 2.0).min((gap - 1.0).max(0.0));
        self.v.units[i].y += fwd * first;
        let mut counter = false;
        let reaction = p.react(self.cat, &self.v, t, i);
        match reaction {
            Reaction::Withdraw if self.v.may_withdraw(t) => {
                let gc = self.v.groups[self.v.units[t].group]
                    .commander
                    .filter(|&c| self.v.cmds[c].alive);
                let rating = gc.map(|c| self.v.cmds[c].rating.clone());
                let (expr, bonus) =
                    withdraw_reaction_expr(self.cat, rating.as_ref(), self.v.units[t].level);
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
                self.v.units[t].dm += 1;
            }
            Reaction::ClosingFire if self.v.can_closing_fire(t, i) => {
                say!(
                    self,
                    LogKind::Reaction,
                    Some(t),
                    "{} meets the charge with a volley.",
                    self.v.units[t].name
                );
                let failed = self.shoot(p, t, i, false);
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
                counter = true;
            }
            _ => {
                if self.v.units[t].formation == Formation::MarchColumn && self.v.units[t].dm == 0 {
                    if self.test(t, TestKind::Disorder, 0, "forming up under a charge") {
                        let f = self.v.units[t].fight_formation;
                        self.v.units[t].formation = f;
                    } else {
                        self.v.units[t].dm += 1;
                    }
                }
            }
        }
        if !self.v.units[t].active() || !self.v.units[i].active() {
            return ChargeEnd::Stopped;
        }
        // Contact.
        self.v.units[i].y = self.v.units[t].y;
        self.v.units[i].engaged = Some(t);
        self.v.units[t].engaged = Some(i);
        if !has_combat {
            self.v.units[i].dm += 1;
            return ChargeEnd::Locked;
        }
        ChargeEnd::Fought(self.melee(i, t, counter))
    }
}

#[derive(Debug, Clone, Copy)]
enum SpecialOrder {
    Volley(u32),
    Charge,
}

enum ChargeEnd {
    Fought(bool),
    Locked,
    Stopped,
    EndActivation,
}
