//! The *Liberty or Death!* battle simulator (spec 5.2): two armies on the shared abstract
//! battlefield (three sectors across, 48" deep, deployment 0–12" and 36–48", L-48), IGO-UGO
//! turns with the initiative player first (L-1), each turn Command (steps a–f, L-2), Shooting
//! and Melee. Every pool and test is built by [`super::mechanics`]; every decision comes from a
//! [`Policy`]; every roll from one seeded [`Dice`], so a set-up always gives the same battle.

pub mod policy;

use crate::rules::battlefield::{self, Edge};
use crate::rules::dice::Dice;
use crate::rules::system::{BattleSide, Method};

use super::battle::{
    score, BattleSetup, EndReason, EndState, Ending, LogLine, Outcome, SideEnd, TurnPositions,
    UnitEnd, UnitPosition,
};
use super::catalogue::{Catalogue, DiceRoll, Profile};
use super::mechanics::{self, Against, Fight, RerollSources, Shot, TestKind};
use super::types::{
    ArmyList, ChargeGrade, CommandAction, HitState, Kind, MoraleResult, MoraleTrigger, Order,
    RangeBand, SpecialRule,
};

pub use policy::{Moment, Plan, Policy, Response, StandardPolicy};

/// Where the front of each army deploys: the inner edges of the deployment zones (L-48, L-60).
const FRONT: [f64; 2] = [12.0, 36.0];

/// One unit on the battlefield (spec 1.7).
#[derive(Debug, Clone)]
pub struct Unit {
    pub id: String,
    pub name: String,
    /// 0 attacker, 1 defender.
    pub side: usize,
    pub brigade: usize,
    pub profile: Profile,
    pub hits: u32,
    pub disorder: u32,
    pub under_fire: u32,
    pub routing: bool,
    pub broken: bool,
    pub routed_off: bool,
    pub sector: i32,
    pub depth: f64,
    pub engaged: Vec<usize>,
    /// Charged into its melee and has not fought its first round yet (L-33).
    pub charging: bool,
    /// How it fights the enemy it charged.
    pub against: Against,
    pub order: Option<Order>,
    pub may_shoot: bool,
    pub breakthrough_used: bool,
    /// Unsaved shooting hits this Shooting phase (L-21).
    pub shot_hits: u32,
}

impl Unit {
    pub fn kind(&self) -> Kind {
        self.profile.kind()
    }

    pub fn in_melee(&self) -> bool {
        !self.engaged.is_empty()
    }

    pub fn gone(&self) -> bool {
        self.broken
    }

    fn facing(&self) -> f64 {
        if self.side == 0 {
            1.0
        } else {
            -1.0
        }
    }
}

/// A brigade's General.
#[derive(Debug, Clone)]
pub struct General {
    pub id: String,
    pub name: String,
    pub alive: bool,
    pub attached: Option<usize>,
    /// Where he stands when detached (the middle of his brigade).
    pub sector: i32,
    pub depth: f64,
}

/// The battle as it stands; policies read it, the engine changes it.
pub struct Battle<'a> {
    cat: &'a Catalogue,
    pub units: Vec<Unit>,
    /// Generals per side, by brigade.
    pub generals: [Vec<General>; 2],
    pub cp: [u32; 2],
    pub lists: [ArmyList; 2],
    names: [String; 2],
    pub turn: u32,
    /// The side whose turn it is.
    pub active: usize,
    dice: Dice,
    narrate: bool,
    log: Vec<LogLine>,
    phase: &'static str,
    over: bool,
    /// (unit, action) used this turn (L-42: once per unit per turn).
    used: Vec<(usize, CommandAction)>,
    /// Where the units stood at the end of each turn, when the caller asks for it (`Some`);
    /// never in odds runs.
    positions: Option<Vec<TurnPositions>>,
}

fn side_of(i: usize) -> BattleSide {
    if i == 0 {
        BattleSide::Attacker
    } else {
        BattleSide::Defender
    }
}

fn roll(dice: &mut Dice, expr: DiceRoll) -> i32 {
    let outcomes = expr.outcomes();
    let total: u32 = outcomes.iter().map(|(_, w)| w).sum();
    let mut pick = dice.below(total);
    for (value, weight) in outcomes {
        if pick < *weight {
            return *value;
        }
        pick -= weight;
    }
    0
}

/// Why a set-up cannot be fought.
pub fn check(cat: &Catalogue, setup: &BattleSetup) -> Result<(), String> {
    for f in [&setup.attacker, &setup.defender] {
        let list = ArmyList::from_id(&f.roster.army_list)
            .ok_or_else(|| format!("'{}' has no army list Muster knows.", f.roster.name))?;
        if f.roster.unit_count() == 0 {
            return Err(format!("'{}' has no units to fight with.", f.roster.name));
        }
        for (_, _, u) in f.roster.units() {
            let (l, e) = cat.find_entry(list, &u.entry).ok_or_else(|| {
                format!(
                    "'{}' names an entry Muster does not know: '{}'.",
                    f.roster.name, u.entry
                )
            })?;
            cat.profile(l, e, u.bases, u.grenadiers_detached)
                .ok_or_else(|| {
                    format!(
                        "'{}': {} cannot field {} bases.",
                        f.roster.name, e.name, u.bases
                    )
                })?;
        }
    }
    if setup.turns == 0 || setup.turns > 50 {
        return Err("A battle lasts from 1 to 50 turns.".into());
    }
    Ok(())
}

/// Fights the battle of `setup` with the standard policy; `narrate` keeps the log.
pub fn fight(cat: &Catalogue, setup: &BattleSetup, narrate: bool) -> Result<Outcome, String> {
    fight_with(cat, setup, &StandardPolicy::default(), narrate)
}

/// Fights the battle narrated with the standard policy, keeping where the units stood at the
/// end of each turn (for the report's diagrams). The battle is the one [`fight`] fights: the
/// positions are only read, and only here, so odds runs stay as fast as they were.
pub fn fight_with_positions(cat: &Catalogue, setup: &BattleSetup) -> Result<Outcome, String> {
    fight_keeping(cat, setup, &StandardPolicy::default(), true, true)
}

/// Fights the battle with `policy` deciding for both armies.
pub fn fight_with(
    cat: &Catalogue,
    setup: &BattleSetup,
    policy: &dyn Policy,
    narrate: bool,
) -> Result<Outcome, String> {
    fight_keeping(cat, setup, policy, narrate, false)
}

fn fight_keeping(
    cat: &Catalogue,
    setup: &BattleSetup,
    policy: &dyn Policy,
    narrate: bool,
    keep_positions: bool,
) -> Result<Outcome, String> {
    check(cat, setup)?;
    let mut b = Battle::new(cat, setup, narrate)?;
    if keep_positions {
        b.positions = Some(Vec::new());
    }
    let first = match setup.initiative {
        BattleSide::Attacker => 0,
        BattleSide::Defender => 1,
    };
    let mut ended_by = EndReason::TurnLimit;
    let mut played = 0;
    'turns: for turn in 1..=setup.turns {
        b.turn = turn;
        played = turn;
        for side in [first, 1 - first] {
            b.active = side;
            b.play_turn(policy);
            if b.over {
                ended_by = EndReason::BreakPoint;
                b.note_positions();
                break 'turns;
            }
        }
        b.note_positions();
    }
    Ok(b.finish(setup, played, ended_by))
}

impl<'a> Battle<'a> {
    fn new(cat: &'a Catalogue, setup: &BattleSetup, narrate: bool) -> Result<Battle<'a>, String> {
        let mut units = Vec::new();
        let mut generals: [Vec<General>; 2] = [Vec::new(), Vec::new()];
        let mut lists = [ArmyList::Continental; 2];
        for (side, force) in [&setup.attacker, &setup.defender].into_iter().enumerate() {
            let list = ArmyList::from_id(&force.roster.army_list)
                .ok_or_else(|| format!("'{}' has no army list.", force.roster.name))?;
            lists[side] = list;
            let count = force.roster.brigades.len();
            for (bi, brigade) in force.roster.brigades.iter().enumerate() {
                let sector = battlefield::sector_for(bi, count);
                let depth = FRONT[side];
                let g = brigade.general.clone().unwrap_or_default();
                generals[side].push(General {
                    id: g.id.unwrap_or_else(|| format!("{side}-general-{bi}")),
                    name: if g.name.is_empty() {
                        format!("the General of {}", brigade.name)
                    } else {
                        g.name
                    },
                    alive: brigade.general.is_some(),
                    attached: None,
                    sector,
                    depth,
                });
                for (ui, u) in brigade.units.iter().enumerate() {
                    let (l, e) = cat
                        .find_entry(list, &u.entry)
                        .ok_or_else(|| format!("unknown entry '{}'", u.entry))?;
                    let profile = cat
                        .profile(l, e, u.bases, u.grenadiers_detached)
                        .ok_or_else(|| format!("{} cannot field {} bases", e.name, u.bases))?;
                    units.push(Unit {
                        id: u.id.clone().unwrap_or_else(|| format!("{side}-{bi}-{ui}")),
                        name: if u.name.is_empty() {
                            e.name.clone()
                        } else {
                            u.name.clone()
                        },
                        side,
                        brigade: bi,
                        profile,
                        hits: 0,
                        disorder: 0,
                        under_fire: 0,
                        routing: false,
                        broken: false,
                        routed_off: false,
                        sector,
                        depth,
                        engaged: Vec::new(),
                        charging: false,
                        against: Against::Front,
                        order: None,
                        may_shoot: false,
                        breakthrough_used: false,
                        shot_hits: 0,
                    });
                }
            }
        }
        let mut b = Battle {
            cat,
            units,
            generals,
            cp: [setup.attacker.command_points, setup.defender.command_points],
            lists,
            names: [
                setup.attacker.roster.name.clone(),
                setup.defender.roster.name.clone(),
            ],
            turn: 0,
            active: 0,
            dice: Dice::from_seed(setup.seed),
            narrate,
            log: Vec::new(),
            phase: "setup",
            over: false,
            used: Vec::new(),
            positions: None,
        };
        if narrate {
            for (side, f) in [&setup.attacker, &setup.defender].into_iter().enumerate() {
                let text = format!(
                    "{} ({}) deploys {} units in {} brigade{} and holds {} Command Points.",
                    f.roster.name,
                    side_of(side).id(),
                    f.roster.unit_count(),
                    f.roster.brigades.len(),
                    if f.roster.brigades.len() == 1 {
                        ""
                    } else {
                        "s"
                    },
                    f.command_points
                );
                b.say(text);
            }
            let first = match setup.initiative {
                BattleSide::Attacker => &setup.attacker.roster.name,
                BattleSide::Defender => &setup.defender.roster.name,
            };
            b.say(format!(
                "{first} has the initiative and moves first every turn (L-1)."
            ));
        }
        Ok(b)
    }

    // ----- what policies read -----

    pub fn unit(&self, u: usize) -> &Unit {
        &self.units[u]
    }

    pub fn state(&self, u: usize) -> HitState {
        let unit = &self.units[u];
        if unit.broken {
            HitState::Broken
        } else {
            unit.profile.state(unit.hits)
        }
    }

    pub fn command_points(&self, side: usize) -> u32 {
        self.cp[side]
    }

    pub fn brigade_units(&self, side: usize, brigade: usize) -> Vec<usize> {
        (0..self.units.len())
            .filter(|&u| {
                let x = &self.units[u];
                x.side == side && x.brigade == brigade && !x.broken
            })
            .collect()
    }

    pub fn distance(&self, a: usize, b: usize) -> f64 {
        let (x, y) = (&self.units[a], &self.units[b]);
        battlefield::distance((x.sector, x.depth), (y.sector, y.depth))
    }

    fn enemies(&self, u: usize) -> impl Iterator<Item = usize> + '_ {
        let side = self.units[u].side;
        (0..self.units.len()).filter(move |&e| self.units[e].side != side && !self.units[e].broken)
    }

    fn friends(&self, u: usize) -> impl Iterator<Item = usize> + '_ {
        let side = self.units[u].side;
        (0..self.units.len())
            .filter(move |&f| f != u && self.units[f].side == side && !self.units[f].broken)
    }

    /// The nearest enemy unit and its distance.
    pub fn nearest_enemy(&self, u: usize) -> Option<(usize, f64)> {
        self.enemies(u)
            .map(|e| (e, self.distance(u, e)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
    }

    pub fn enemies_within(&self, u: usize, reach: f64) -> Vec<usize> {
        self.enemies(u)
            .filter(|&e| self.distance(u, e) <= reach)
            .collect()
    }

    fn movement(&self, u: usize) -> (u32, Option<u32>, DiceRoll) {
        let unit = &self.units[u];
        let formation = match unit.kind() {
            Kind::MountedCavalry => "mounted",
            Kind::DismountedCavalry => "dismounted",
            Kind::Artillery => "unlimbered",
            _ => "any",
        };
        match self.cat.movement(unit.kind(), formation) {
            Some(m) => (m.advance, m.run, m.charge_bonus),
            None => (0, None, DiceRoll::D3),
        }
    }

    fn slowed(&self, u: usize) -> f64 {
        let unit = &self.units[u];
        if unit.profile.has(SpecialRule::Stalwart) {
            0.0
        } else {
            f64::from(unit.under_fire)
        }
    }

    pub fn advance_rate(&self, u: usize) -> f64 {
        f64::from(self.movement(u).0)
    }

    /// The longest charge the unit could make now (L-12).
    pub fn charge_reach(&self, u: usize) -> f64 {
        let (advance, run, bonus) = self.movement(u);
        let top = bonus.outcomes().iter().map(|o| o.0).max().unwrap_or(0);
        (f64::from(run.unwrap_or(advance)) + f64::from(top) - self.slowed(u)).max(0.0)
    }

    /// The far end of the unit's effective band.
    pub fn effective_reach(&self, u: usize) -> f64 {
        f64::from(
            self.cat
                .weapon(self.units[u].profile.entry.weapon)
                .effective[1],
        )
    }

    fn band(&self, shooter: usize, inches: f64) -> Option<RangeBand> {
        // Ranges round down (L-18).
        self.cat
            .weapon(self.units[shooter].profile.entry.weapon)
            .band(inches.max(0.0).floor() as u32)
    }

    fn able_to_shoot(&self, u: usize) -> bool {
        let x = &self.units[u];
        !x.broken && !x.routing && x.disorder == 0 && !x.in_melee()
    }

    /// Whether `shooter` could shoot `target` now (in range, neither in melee, L-22).
    pub fn can_shoot_at(&self, shooter: usize, target: usize) -> bool {
        self.able_to_shoot(shooter)
            && !self.units[target].in_melee()
            && self.band(shooter, self.distance(shooter, target)).is_some()
    }

    fn in_command(&self, u: usize) -> bool {
        let x = &self.units[u];
        let Some(g) = self.generals[x.side].get(x.brigade) else {
            return false;
        };
        if !g.alive {
            return false;
        }
        match g.attached {
            Some(a) => a == u,
            None => {
                let range = if x.profile.has(SpecialRule::Independent) {
                    self.cat.general.independent_range
                } else {
                    self.cat.general.command_range
                };
                battlefield::distance((g.sector, g.depth), (x.sector, x.depth)) <= f64::from(range)
            }
        }
    }

    fn supported(&self, u: usize) -> bool {
        let d = &self.cat.tables.distances;
        let (reach, needed) = if self.units[u].profile.has(SpecialRule::Steady) {
            (d.steady_rule_support, 1)
        } else {
            (d.support, d.supporters_needed)
        };
        self.friends(u)
            .filter(|&f| {
                !self.units[f].routing
                    && matches!(self.state(f), HitState::Steady | HitState::Worn)
                    && self.distance(u, f) <= f64::from(reach)
            })
            .count() as u32
            >= needed
    }

    fn general_attached(&self, u: usize) -> Option<usize> {
        let x = &self.units[u];
        self.generals[x.side]
            .get(x.brigade)
            .filter(|g| g.alive && g.attached == Some(u))
            .map(|_| x.brigade)
    }

    /// The bases of `u` in contact: an enemy's frontage on one arc is split evenly among the
    /// units fighting it there (4.4; the first named get the odd base), and `u` fights with
    /// no more bases than it has (L-60); the rest support.
    fn direct_bases(&self, u: usize) -> u32 {
        let x = &self.units[u];
        let frontage: u32 = x
            .engaged
            .iter()
            .map(|&e| {
                let sharing: Vec<usize> = self.units[e]
                    .engaged
                    .iter()
                    .copied()
                    .filter(|&o| self.units[o].side == x.side && self.units[o].against == x.against)
                    .collect();
                let n = u32::try_from(sharing.len().max(1)).unwrap_or(1);
                let bases = self.units[e].profile.bases();
                let place = sharing.iter().position(|&o| o == u).unwrap_or(0);
                bases / n + u32::from((place as u32) < bases % n)
            })
            .sum();
        x.profile.bases().min(frontage.max(1))
    }

    /// First-round melee dice of `unit` against `enemy`.
    fn melee_dice(&self, unit: usize, enemy: usize, charging: bool, against: Against) -> u32 {
        let (x, e) = (&self.units[unit], &self.units[enemy]);
        let direct = x.profile.bases().min(e.profile.bases());
        let fight = Fight {
            direct_bases: direct,
            supporting_bases: x.profile.bases() - direct,
            state: self.state(unit),
            disordered: x.disorder > 0,
            charging,
            against,
            enemy_kind: e.kind(),
            in_the_open: true,
            enemy_defending_obstacle: false,
            enemy_uphill: false,
            limbered: false,
            general_attached: self.general_attached(unit).is_some(),
            lead_the_fight: false,
        };
        mechanics::melee_pool(self.cat, &x.profile, &fight).dice
    }

    fn unsaved_per_melee_die(&self, unit: usize) -> f64 {
        let p = &self.units[unit].profile;
        let mut hit = f64::from(mechanics::melee_hit_faces(self.cat, p)) / 6.0;
        if p.has(SpecialRule::ToughFighters) {
            hit += (1.0 - hit) * hit;
        }
        hit * f64::from(6 - mechanics::save_faces(self.cat.tables.saves.melee)) / 6.0
    }

    /// How much better `charger`'s expected first-round melee score is than `target`'s if it
    /// charged it now, in hits (positive favours the charger): what the standard policy charges
    /// on.
    pub fn charge_edge(&self, charger: usize, target: usize) -> f64 {
        let mine = f64::from(self.melee_dice(charger, target, true, Against::Front))
            * self.unsaved_per_melee_die(charger);
        let theirs = f64::from(self.melee_dice(target, charger, false, Against::Front))
            * self.unsaved_per_melee_die(target);
        let size = |a: usize, b: usize| {
            let bonus = f64::from(self.cat.tables.melee_score.more_bases);
            if self.units[a].profile.bases() > self.units[b].profile.bases() {
                bonus
            } else {
                0.0
            }
        };
        // A charger near breaking gains little by winning a round it may not survive.
        let fragile = |u: usize| {
            let x = &self.units[u];
            if x.profile.size.auto_broken.saturating_sub(x.hits) as f64 <= theirs {
                2.0
            } else {
                0.0
            }
        };
        mine + size(charger, target) - theirs - size(target, charger) - fragile(charger)
    }

    // ----- narration -----

    fn say(&mut self, text: String) {
        let side = (self.phase != "setup" && self.phase != "end").then(|| side_of(self.active));
        self.log.push(LogLine {
            turn: self.turn,
            phase: self.phase.to_string(),
            side,
            text,
        });
    }

    fn name(&self, u: usize) -> String {
        let x = &self.units[u];
        format!("{} ({})", x.name, side_of(x.side).id())
    }

    fn narrate(&self) -> bool {
        self.narrate
    }

    // ----- dice -----

    fn d6(&mut self) -> u32 {
        u32::from(self.dice.d6())
    }

    fn roll(&mut self, expr: DiceRoll) -> i32 {
        roll(&mut self.dice, expr)
    }

    fn spend(&mut self, policy: &dyn Policy, u: usize, action: CommandAction, m: Moment) -> bool {
        let side = self.units[u].side;
        if self.cp[side] == 0 || self.used.contains(&(u, action)) {
            return false;
        }
        if !policy.spend(self, u, action, m) {
            return false;
        }
        self.cp[side] -= 1;
        self.used.push((u, action));
        if self.narrate() {
            let text = format!(
                "The C-in-C spends a Command Point: {} for {} ({} left).",
                action.label(),
                self.name(u),
                self.cp[side]
            );
            self.say(text);
        }
        true
    }

    /// Rolls an ORDER or MORALE test once with the unit's die re-rolls (L-8); the successes.
    fn test_once(
        &mut self,
        policy: &dyn Policy,
        u: usize,
        kind: TestKind,
        need: u32,
        graded: bool,
    ) -> u32 {
        let state = self.state(u);
        let (n, _) = mechanics::test_dice(self.cat, &self.units[u].profile, state, kind);
        let sources = RerollSources {
            in_command: self.in_command(u),
            supported: self.supported(u),
            fortified: false,
        };
        let (mut rerolls, _) = mechanics::test_rerolls(&self.units[u].profile, kind, sources);
        let quality = self.cat.quality(self.units[u].profile.quality());
        let unreliable = self.units[u].profile.has(SpecialRule::Unreliable);
        let mut faces: Vec<u8> = (0..n).map(|_| self.dice.d6()).collect();
        let mut scores: Vec<u32> = faces
            .iter()
            .map(|&f| quality.successes(f, unreliable))
            .collect();
        let mut rerolled = vec![false; faces.len()];
        while rerolls > 0 {
            let Some(i) = policy.reroll(&scores, &faces, &rerolled, need, graded) else {
                break;
            };
            faces[i] = self.dice.d6();
            scores[i] = quality.successes(faces[i], unreliable);
            rerolled[i] = true;
            rerolls -= 1;
        }
        scores.iter().sum()
    }

    /// A MORALE test with its whole-test re-takes (STUBBORN, Hold The Line!, L-9); the result
    /// by the table, already applied.
    fn morale(&mut self, policy: &dyn Policy, u: usize, trigger: MoraleTrigger) -> MoraleResult {
        let t = self.cat.tables.trigger(trigger);
        let (need, melee) = (t.need, t.melee);
        let state = self.state(u);
        let mut got = self.test_once(policy, u, TestKind::Morale, need, false);
        let fail_result = self.cat.tables.morale_results.result(state, melee, false);
        let bad = matches!(fail_result, MoraleResult::Broken | MoraleResult::Route);
        if got < need && self.units[u].profile.has(SpecialRule::Stubborn) {
            got = self.test_once(policy, u, TestKind::Morale, need, false);
        }
        if got < need
            && self.spend(
                policy,
                u,
                CommandAction::HoldTheLine,
                Moment::FailedMorale {
                    broken_or_route: bad,
                },
            )
        {
            got = self.test_once(policy, u, TestKind::Morale, need, false);
        }
        let passed = got >= need;
        let result = self.cat.tables.morale_results.result(state, melee, passed);
        if self.narrate() {
            let text = format!(
                "{} tests MORALE ({}, needs {need}): {got} success{}, {} — {}.",
                self.name(u),
                t.name.to_lowercase(),
                if got == 1 { "" } else { "es" },
                if passed { "passed" } else { "failed" },
                result.label()
            );
            self.say(text);
        }
        result
    }

    /// Applies a test's result away from melee (the "other" column, and RETIRE / ROUTE /
    /// BROKEN from anywhere).
    fn apply(&mut self, policy: &dyn Policy, u: usize, result: MoraleResult) {
        match result {
            MoraleResult::Disordered => self.disorder(u),
            MoraleResult::Retire => {
                self.leave_melee(u);
                self.retire_move(u, false);
            }
            MoraleResult::Route => {
                self.leave_melee(u);
                self.units[u].routing = true;
                self.route_move(policy, u);
            }
            MoraleResult::Broken => self.break_unit(policy, u, "fails its test and breaks"),
            MoraleResult::NoEffect | MoraleResult::Holds => {}
        }
    }

    /// DISORDERED: 1 marker in the unit's own turn, 2 in the enemy's (L-3). Routing units
    /// ignore it.
    fn disorder(&mut self, u: usize) {
        if self.units[u].routing {
            return;
        }
        let m = &self.cat.tables.disorder_markers;
        let n = if self.units[u].side == self.active {
            m.own_turn
        } else {
            m.enemy_turn
        };
        self.units[u].disorder += n;
        if self.narrate() {
            let text = format!(
                "{} is DISORDERED ({} marker{}).",
                self.name(u),
                n,
                if n == 1 { "" } else { "s" }
            );
            self.say(text);
        }
    }

    fn leave_melee(&mut self, u: usize) {
        let others = std::mem::take(&mut self.units[u].engaged);
        for o in others {
            self.units[o].engaged.retain(|&x| x != u);
            if self.units[o].engaged.is_empty() {
                self.units[o].charging = false;
                self.units[o].against = Against::Front;
            }
        }
        self.units[u].charging = false;
        self.units[u].against = Against::Front;
    }

    /// Marks hits; AUTO BROKEN breaks the unit at once (L-24).
    fn mark_hits(&mut self, policy: &dyn Policy, u: usize, hits: u32, cause: &str) {
        if hits == 0 || self.units[u].broken {
            return;
        }
        self.units[u].hits += hits;
        if self.state(u) == HitState::Broken
            || self.units[u].hits >= self.units[u].profile.size.auto_broken
        {
            self.break_unit(policy, u, &format!("reaches its AUTO BROKEN value {cause}"));
        }
    }

    /// A unit BROKEN: removed at once, friends within 6" test (L-36), the break point checked
    /// (L-47).
    fn break_unit(&mut self, policy: &dyn Policy, u: usize, why: &str) {
        if self.units[u].broken {
            return;
        }
        self.leave_melee(u);
        self.units[u].broken = true;
        self.units[u].routing = false;
        if let Some(g) = self.general_attached(u) {
            self.generals[self.units[u].side][g].attached = None;
        }
        if self.narrate() {
            let text = format!("{} {why}: BROKEN and removed.", self.name(u));
            self.say(text);
        }
        let side = self.units[u].side;
        let total = self.units.iter().filter(|x| x.side == side).count() as u32;
        let lost = self
            .units
            .iter()
            .filter(|x| x.side == side && x.broken)
            .count() as u32;
        if !self.over && lost >= super::battle::break_point(total) {
            self.over = true;
            if self.narrate() {
                let text = format!(
                    "The {} army has lost {lost} of its {total} units and reaches its break point: the battle ends (L-47).",
                    side_of(side).id()
                );
                self.say(text);
            }
            return;
        }
        if self.over {
            return;
        }
        let reach = f64::from(self.cat.tables.distances.broken_friend);
        let near: Vec<usize> = self
            .friends(u)
            .filter(|&f| self.distance(u, f) <= reach)
            .collect();
        for f in near {
            if self.over || self.units[f].broken {
                continue;
            }
            let r = self.morale(policy, f, MoraleTrigger::BrokenFriend);
            self.apply(policy, f, r);
        }
    }

    // ----- movement -----

    /// Moves `u` up to `inches` toward `target`, stopping `keep_off` inches from any enemy in
    /// the sector it ends in; a sector change costs the sector gap.
    fn move_toward(&mut self, u: usize, target: usize, inches: f64, keep_off: f64) {
        let mut left = inches.max(0.0);
        let (ts, td) = (self.units[target].sector, self.units[target].depth);
        let f = self.units[u].facing();
        let depth_gap = (td - self.units[u].depth) * f;
        if self.units[u].sector != ts
            && depth_gap <= keep_off + battlefield::SECTOR_GAP
            && left >= battlefield::SECTOR_GAP
        {
            self.units[u].sector += (ts - self.units[u].sector).signum();
            left -= battlefield::SECTOR_GAP;
        }
        let mut limit = f64::MAX;
        for e in self.enemies(u) {
            let x = &self.units[e];
            if x.sector == self.units[u].sector {
                let ahead = (x.depth - self.units[u].depth) * f;
                if ahead >= 0.0 {
                    limit = limit.min(ahead - keep_off);
                }
            }
        }
        // Never past the target's depth: a target in another sector is reached by the gap.
        let step = left.min(limit.max(0.0)).min(depth_gap.max(0.0));
        let d = battlefield::on_table(self.units[u].depth + f * step);
        self.units[u].depth = d;
    }

    fn retire_move(&mut self, u: usize, slowed: bool) {
        let rate = self.advance_rate(u) - if slowed { self.slowed(u) } else { 0.0 };
        let f = self.units[u].facing();
        self.units[u].depth = battlefield::on_table(self.units[u].depth - f * rate.max(0.0).ceil());
        if self.narrate() {
            let text = format!("{} retires {:.0}\".", self.name(u), rate.max(0.0).ceil());
            self.say(text);
        }
    }

    /// A route move (L-38): away toward its own edge; one that starts at the edge breaks.
    fn route_move(&mut self, policy: &dyn Policy, u: usize) {
        let edge = if self.units[u].side == 0 {
            Edge::Near
        } else {
            Edge::Far
        };
        if (self.units[u].depth - edge.depth()).abs() < 0.01 {
            self.units[u].routed_off = true;
            self.break_unit(policy, u, "routes off the table");
            return;
        }
        let (advance, run, bonus) = self.movement(u);
        let dist = if self.units[u].kind() == Kind::Artillery {
            4 + self.roll(DiceRoll::D3)
        } else {
            run.unwrap_or(advance) as i32 + self.roll(bonus)
        };
        let f = self.units[u].facing();
        self.units[u].depth = battlefield::on_table(self.units[u].depth - f * f64::from(dist));
        if self.narrate() {
            let text = format!("{} routes {dist}\" toward its own edge.", self.name(u));
            self.say(text);
        }
    }

    // ----- the turn -----

    fn play_turn(&mut self, policy: &dyn Policy) {
        self.used.clear();
        self.phase = "command";
        if self.narrate {
            let text = format!("{} begins its turn.", self.names[self.active]);
            self.say(text);
        }
        self.command(policy);
        if self.over {
            return;
        }
        self.phase = "shooting";
        self.shooting(policy);
        if self.over {
            return;
        }
        self.phase = "melee";
        self.melee_phase(policy);
    }

    fn own_units(&self) -> Vec<usize> {
        let side = self.active;
        (0..self.units.len())
            .filter(|&u| self.units[u].side == side && !self.units[u].broken)
            .collect()
    }

    fn command(&mut self, policy: &dyn Policy) {
        let side = self.active;
        for u in self.own_units() {
            let x = &mut self.units[u];
            x.order = None;
            x.may_shoot = false;
            x.breakthrough_used = false;
        }
        // (a) Generals join a unit or stand among their brigade (L-2).
        for g in 0..self.generals[side].len() {
            if !self.generals[side][g].alive {
                continue;
            }
            let units = self.brigade_units(side, g);
            if units.is_empty() {
                continue;
            }
            let choice = policy.attach_general(self, side, g);
            let (sector, depth) = match choice {
                Some(u) => (self.units[u].sector, self.units[u].depth),
                None => {
                    let n = units.len() as f64;
                    let depth = units.iter().map(|&u| self.units[u].depth).sum::<f64>() / n;
                    let mut sectors: Vec<i32> =
                        units.iter().map(|&u| self.units[u].sector).collect();
                    sectors.sort_unstable();
                    (sectors[sectors.len() / 2], depth)
                }
            };
            let before = self.generals[side][g].attached;
            let gen = &mut self.generals[side][g];
            gen.attached = choice;
            gen.sector = sector;
            gen.depth = depth;
            if self.narrate() && before != choice {
                if let Some(u) = choice {
                    let text = format!("{} joins {}.", self.generals[side][g].name, self.name(u));
                    self.say(text);
                }
            }
        }
        // (b) One disorder marker off each unit (L-3); VETERANS (L-41); Reform The Ranks!.
        for u in self.own_units() {
            if self.units[u].disorder == 0 {
                continue;
            }
            self.units[u].disorder -= 1;
            if self.units[u].disorder > 0 && self.units[u].profile.has(SpecialRule::Veterans) {
                let r = self.d6();
                if r >= u32::from(self.cat.tables.veterans_on) {
                    self.units[u].disorder = 0;
                    if self.narrate() {
                        let text = format!(
                            "{} are veterans and shake off their disorder (D6 {r}).",
                            self.name(u)
                        );
                        self.say(text);
                    }
                }
            }
            if self.units[u].disorder > 0 && !self.units[u].routing {
                let near = self.nearest_enemy(u).map_or(f64::MAX, |(_, d)| d);
                if self.spend(
                    policy,
                    u,
                    CommandAction::ReformTheRanks,
                    Moment::Disordered {
                        nearest_enemy: near,
                    },
                ) {
                    let got = self.test_once(policy, u, TestKind::Morale, 2, false);
                    if got >= 2 {
                        self.units[u].disorder = 0;
                    }
                    if self.narrate() {
                        let text = format!(
                            "{} {} its ranks ({got} success{}).",
                            self.name(u),
                            if got >= 2 { "reforms" } else { "cannot reform" },
                            if got == 1 { "" } else { "es" }
                        );
                        self.say(text);
                    }
                }
            }
        }
        // (c) RALLY, routing units first and always; (d) failed routers route on.
        for u in self.own_units() {
            if self.over {
                return;
            }
            let x = &self.units[u];
            if x.broken || x.in_melee() {
                continue;
            }
            let routing = x.routing;
            if !routing && (x.disorder > 0 || !policy.rally(self, u)) {
                continue;
            }
            self.rally(policy, u);
        }
        // (e) Charges, in the order of the roster.
        for u in self.own_units() {
            if self.over {
                return;
            }
            let x = &self.units[u];
            if x.broken || x.routing || x.disorder > 0 || x.in_melee() || x.order.is_some() {
                continue;
            }
            if !self.cat.tables.order(Order::Charge).allowed(self.state(u))
                || !matches!(
                    x.kind(),
                    Kind::Infantry
                        | Kind::MountedCavalry
                        | Kind::DismountedCavalry
                        | Kind::Skirmishers
                )
            {
                continue;
            }
            if let Some(target) = policy.charge(self, u) {
                self.charge(policy, u, target);
            }
        }
        // (f) One order for every other unit.
        for u in self.own_units() {
            if self.over {
                return;
            }
            let x = &self.units[u];
            if x.broken || x.routing || x.disorder > 0 || x.in_melee() || x.order.is_some() {
                continue;
            }
            let plan = policy.order(self, u);
            self.give_order(policy, u, plan);
        }
    }

    fn rally(&mut self, policy: &dyn Policy, u: usize) {
        let routing = self.units[u].routing;
        self.units[u].order = Some(Order::Rally);
        self.units[u].under_fire = 0;
        let need = self
            .cat
            .tables
            .order(Order::Rally)
            .need(self.state(u))
            .unwrap_or(2);
        let mut got = self.test_once(policy, u, TestKind::Order, need, false);
        let mut reinforced = false;
        if got < need && routing {
            if self.spend(
                policy,
                u,
                CommandAction::Reinforce,
                Moment::FailedRoutingRally { successes: got },
            ) {
                reinforced = true;
            } else if self.spend(
                policy,
                u,
                CommandAction::DirectOrder,
                Moment::FailedRoutingRally { successes: got },
            ) {
                got = self.test_once(policy, u, TestKind::Order, need, false);
            }
        }
        let passed = got >= need || (reinforced && got >= 1);
        if self.narrate() {
            let text = format!(
                "{} {}tries to RALLY (needs {need}): {got} success{}, {}.",
                self.name(u),
                if routing { "is routing and " } else { "" },
                if got == 1 { "" } else { "es" },
                if passed { "rallied" } else { "failed" }
            );
            self.say(text);
        }
        if passed {
            let back = if reinforced {
                self.roll(DiceRoll::D3) as u32 + 2
            } else if routing {
                0
            } else {
                self.roll(self.cat.tables.rally_recovers) as u32
            };
            let x = &mut self.units[u];
            x.routing = false;
            x.hits = x.hits.saturating_sub(back);
            x.may_shoot = !routing;
            if back > 0 && self.narrate() {
                let text = format!(
                    "{} recovers {back} hit{}.",
                    self.name(u),
                    if back == 1 { "" } else { "s" }
                );
                self.say(text);
            }
        } else if routing {
            self.route_move(policy, u);
            if !self.units[u].broken {
                let extra = self.roll(self.cat.tables.failed_rally_hits) as u32;
                self.mark_hits(policy, u, extra, "from the failed rally");
                if self.narrate() && !self.units[u].broken {
                    let text = format!(
                        "{} takes {extra} more hit{} as it flees.",
                        self.name(u),
                        if extra == 1 { "" } else { "s" }
                    );
                    self.say(text);
                }
            }
        } else {
            self.disorder(u);
        }
    }

    /// An ORDER test for `order` by the table; `true` when it may be carried out.
    fn order_test(&mut self, policy: &dyn Policy, u: usize, order: Order) -> bool {
        let Some(need) = self.cat.tables.order(order).need(self.state(u)) else {
            return true;
        };
        let got = self.test_once(policy, u, TestKind::Order, need, false);
        let passed = got >= need;
        if self.narrate() {
            let text = format!(
                "{} tests to {} (needs {need}): {got} success{}, {}.",
                self.name(u),
                order.label(),
                if got == 1 { "" } else { "es" },
                if passed { "passed" } else { "failed" }
            );
            self.say(text);
        }
        if !passed {
            self.disorder(u);
        }
        passed
    }

    fn give_order(&mut self, policy: &dyn Policy, u: usize, plan: Plan) {
        self.units[u].order = Some(plan.order);
        let passed = self.order_test(policy, u, plan.order);
        let slow = self.slowed(u);
        self.units[u].under_fire = 0;
        if !passed {
            return;
        }
        self.units[u].may_shoot = self.cat.tables.order(plan.order).may_shoot;
        let (advance, run, _) = self.movement(u);
        match plan.order {
            Order::Advance | Order::Run => {
                let Some(t) = plan.toward else { return };
                let rate = if plan.order == Order::Run {
                    run.unwrap_or(advance)
                } else {
                    advance
                };
                let want = (self.distance(u, t) - self.effective_reach(u)).max(1.0);
                let inches = (f64::from(rate) - slow).max(0.0).ceil().min(want.ceil());
                let before = self.distance(u, t);
                self.move_toward(u, t, inches, f64::from(self.cat.tables.distances.proximity));
                if self.narrate() {
                    let text = format!(
                        "{} is ordered to {} and closes from {:.0}\" to {:.0}\" of {}.",
                        self.name(u),
                        plan.order.label(),
                        before,
                        self.distance(u, t),
                        self.name(t)
                    );
                    self.say(text);
                }
            }
            Order::Retire => {
                self.units[u].depth = battlefield::on_table(
                    self.units[u].depth
                        - self.units[u].facing() * (f64::from(advance) - slow).max(0.0).ceil(),
                );
                if self.narrate() {
                    let text = format!("{} is ordered to RETIRE and falls back.", self.name(u));
                    self.say(text);
                }
            }
            _ => {}
        }
    }

    /// Step e for one charger (4.4).
    fn charge(&mut self, policy: &dyn Policy, u: usize, t: usize) {
        self.units[u].order = Some(Order::Charge);
        let slow = self.slowed(u);
        self.units[u].under_fire = 0;
        let state = self.state(u);
        let (dice, _) =
            mechanics::test_dice(self.cat, &self.units[u].profile, state, TestKind::Order);
        let pressed = self.spend(
            policy,
            u,
            CommandAction::PressTheCharge,
            Moment::BeforeCharge { dice },
        );
        let got = self.test_once(policy, u, TestKind::Order, 1, true);
        let grade = if pressed && got >= 1 {
            ChargeGrade::DeterminedCharge
        } else {
            self.cat.tables.charge_grade(got)
        };
        if self.narrate() {
            let text = format!(
                "{} is ordered to CHARGE {} ({:.0}\" away): {got} success{}, {}.",
                self.name(u),
                self.name(t),
                self.distance(u, t),
                if got == 1 { "" } else { "es" },
                grade.label()
            );
            self.say(text);
        }
        match grade {
            ChargeGrade::Failed => self.disorder(u),
            ChargeGrade::Falters => {
                self.units[u].may_shoot = true;
                let half = (self.distance(u, t) / 2.0).ceil();
                self.move_toward(u, t, half, f64::from(self.cat.tables.distances.proximity));
            }
            ChargeGrade::Charge | ChargeGrade::DeterminedCharge => {
                self.charge_home(policy, u, t, grade == ChargeGrade::DeterminedCharge, slow);
            }
        }
    }

    /// The target's response and the charge move (4.4 steps 3–4); also breakthroughs (L-32).
    fn charge_home(
        &mut self,
        policy: &dyn Policy,
        u: usize,
        t: usize,
        determined: bool,
        slow: f64,
    ) {
        let start = self.distance(u, t);
        let f = self.units[t].facing();
        let behind = (self.units[u].depth - self.units[t].depth) * f < -0.5
            && self.units[u].sector == self.units[t].sector;
        let against = if behind {
            Against::Rear
        } else if self.units[u].sector != self.units[t].sector && self.units[t].in_melee() {
            Against::Flank
        } else {
            Against::Front
        };
        let limit = f64::from(self.cat.tables.distances.response_limit);
        let tx = &self.units[t];
        let may_respond = start > limit
            && against == Against::Front
            && tx.disorder == 0
            && !tx.routing
            && !tx.in_melee();
        let response = if may_respond {
            policy.respond(self, t, u)
        } else {
            Response::Hold
        };
        let mut meet_halfway = false;
        match response {
            Response::Hold => {}
            Response::DefensiveFire => {
                if self.can_shoot_at(t, u) {
                    if self.narrate() {
                        let text = format!("{} answers with defensive fire.", self.name(t));
                        self.say(text);
                    }
                    let unsaved = self.shoot(policy, t, u, true);
                    if self.units[u].broken || self.over {
                        return;
                    }
                    if unsaved > 0 && !determined {
                        // L-14: the charger tests at once, in its own turn.
                        let r = self.morale(policy, u, MoraleTrigger::DefensiveFire);
                        if r != MoraleResult::NoEffect {
                            self.apply(policy, u, r);
                            if self.narrate() {
                                let text = format!("{}'s charge is stopped.", self.name(u));
                                self.say(text);
                            }
                            return;
                        }
                    }
                }
            }
            Response::CavalryRetire => {
                if self.units[t].kind() == Kind::MountedCavalry {
                    self.retire_move(t, false);
                }
            }
            Response::CounterCharge => {
                if self.units[t].kind() == Kind::MountedCavalry && self.state(t) != HitState::Shaken
                {
                    let got = self.test_once(policy, t, TestKind::Order, 1, true);
                    if self.narrate() {
                        let text = format!(
                            "{} counter-charges: {got} success{}.",
                            self.name(t),
                            if got == 1 { "" } else { "es" }
                        );
                        self.say(text);
                    }
                    match got {
                        0 => self.disorder(t),
                        1 => {}
                        _ => meet_halfway = true,
                    }
                }
            }
        }
        let (advance, run, bonus) = self.movement(u);
        let reach = (f64::from(run.unwrap_or(advance) as i32 + self.roll(bonus)) - slow)
            .max(0.0)
            .ceil();
        let dist = self.distance(u, t);
        if meet_halfway || reach >= dist {
            let (s, d) = (self.units[t].sector, self.units[t].depth);
            if meet_halfway {
                let mid = (self.units[u].depth + d) / 2.0;
                self.units[t].depth = mid;
                self.units[t].sector = self.units[u].sector;
                self.units[u].depth = mid;
                self.units[t].charging = true;
            } else {
                self.units[u].sector = s;
                self.units[u].depth = d;
            }
            self.units[u].engaged.push(t);
            self.units[t].engaged.push(u);
            self.units[u].charging = true;
            self.units[u].against = against;
            if self.narrate() {
                let how = match against {
                    Against::Front => "",
                    Against::Flank => " in the flank",
                    Against::Rear => " in the rear",
                };
                let text = format!("{} charges home into {}{how}.", self.name(u), self.name(t));
                self.say(text);
            }
        } else {
            // L-12: it falls short and stops.
            self.move_toward(u, t, reach, 0.5);
            if self.narrate() {
                let text = format!(
                    "{} falls short of {} ({reach:.0}\" rolled).",
                    self.name(u),
                    self.name(t)
                );
                self.say(text);
            }
        }
    }

    /// One shooting action; answers the unsaved hits (4.3).
    fn shoot(&mut self, policy: &dyn Policy, s: usize, t: usize, defensive: bool) -> u32 {
        let dist = self.distance(s, t);
        let Some(band) = self.band(s, dist) else {
            return 0;
        };
        let shooter_state = self.state(s);
        let target = &self.units[t];
        let shot = Shot {
            firing_bases: self.units[s].profile.bases(),
            shooter_state,
            band,
            target_skirmishers_or_guns: mechanics::hard_target(target.kind(), false),
            cover: false,
            obscured: false,
            enfiladed: false,
        };
        let pool = mechanics::shooting_pool(self.cat, &self.units[s].profile, &shot);
        let faces = mechanics::shooting_hit_faces(self.cat, &self.units[s].profile);
        let mut hits = 0;
        let mut misses = 0;
        for _ in 0..pool.dice {
            if self.dice.below(6) < faces {
                hits += 1;
            } else {
                misses += 1;
            }
        }
        if misses > 0
            && !defensive
            && self.spend(
                policy,
                s,
                CommandAction::ConcentrateFire,
                Moment::Volley { dice: pool.dice },
            )
        {
            for _ in 0..misses {
                if self.dice.below(6) < faces {
                    hits += 1;
                }
            }
        }
        let weapon = self.cat.weapon(self.units[s].profile.entry.weapon);
        let mut total = hits;
        if weapon.artillery && hits > 0 {
            let canister = dist.floor() as u32 <= self.cat.canister.range[1];
            let expr = if canister {
                Some(self.cat.canister.explodes)
            } else {
                weapon.explodes
            };
            if let Some(expr) = expr {
                total = (0..hits)
                    .map(|_| roll(&mut self.dice, expr).max(0) as u32)
                    .sum();
            }
        }
        let save = mechanics::save_faces(self.cat.tables.saves.shooting);
        let unsaved = (0..total).filter(|_| self.dice.below(6) >= save).count() as u32;
        if hits > 0 && !self.units[t].profile.has(SpecialRule::Stalwart) {
            self.units[t].under_fire += 1;
        }
        if self.narrate() {
            let text = format!(
                "{} shoots at {} at {:.0}\" ({} range): {} dice, {hits} hit{}{}, {unsaved} unsaved.",
                self.name(s),
                self.name(t),
                dist.floor(),
                band.label(),
                pool.dice,
                if hits == 1 { "" } else { "s" },
                if total != hits { format!(" becoming {total}") } else { String::new() },
            );
            self.say(text);
        }
        self.units[t].shot_hits += unsaved;
        self.mark_hits(policy, t, unsaved, "under fire");
        unsaved
    }

    fn shooting(&mut self, policy: &dyn Policy) {
        for u in 0..self.units.len() {
            self.units[u].shot_hits = 0;
        }
        for u in self.own_units() {
            if self.over {
                return;
            }
            if !self.units[u].may_shoot || !self.able_to_shoot(u) {
                continue;
            }
            let targets: Vec<usize> = self
                .enemies(u)
                .filter(|&t| self.can_shoot_at(u, t))
                .collect();
            if targets.is_empty() {
                continue;
            }
            let t = policy.shooting_target(self, u, &targets);
            self.shoot(policy, u, t, false);
        }
        // L-21: one test per unit hit, after all shooting.
        for t in 0..self.units.len() {
            if self.over {
                return;
            }
            if self.units[t].side == self.active
                || self.units[t].broken
                || self.units[t].shot_hits == 0
            {
                continue;
            }
            let r = self.morale(policy, t, MoraleTrigger::Shooting);
            self.apply(policy, t, r);
        }
    }

    fn melee_groups(&self) -> Vec<Vec<usize>> {
        let mut seen = vec![false; self.units.len()];
        let mut groups = Vec::new();
        for start in 0..self.units.len() {
            if seen[start] || !self.units[start].in_melee() || self.units[start].broken {
                continue;
            }
            let mut group = vec![start];
            seen[start] = true;
            let mut i = 0;
            while i < group.len() {
                for &o in &self.units[group[i]].engaged {
                    if !seen[o] {
                        seen[o] = true;
                        group.push(o);
                    }
                }
                i += 1;
            }
            groups.push(group);
        }
        groups
    }

    fn melee_phase(&mut self, policy: &dyn Policy) {
        for group in self.melee_groups() {
            if self.over {
                return;
            }
            self.melee(policy, &group);
        }
    }

    /// Rolls `dice` melee dice of `u`: unsaved hits (TOUGH FIGHTERS re-roll misses, L-27;
    /// saves on 6).
    fn melee_hits(&mut self, u: usize, dice: u32) -> u32 {
        let faces = mechanics::melee_hit_faces(self.cat, &self.units[u].profile);
        let tough = self.units[u].profile.has(SpecialRule::ToughFighters);
        let save = mechanics::save_faces(self.cat.tables.saves.melee);
        let mut unsaved = 0;
        for _ in 0..dice {
            let mut hit = self.dice.below(6) < faces;
            if !hit && tough {
                hit = self.dice.below(6) < faces;
            }
            if hit && self.dice.below(6) >= save {
                unsaved += 1;
            }
        }
        unsaved
    }

    /// Splits `hits` among `among` evenly, odd hits where the policy puts them (L-35).
    fn split(&self, policy: &dyn Policy, hits: u32, among: &[usize]) -> Vec<(usize, u32)> {
        let n = among.len() as u32;
        let mut out: Vec<(usize, u32)> = among.iter().map(|&t| (t, hits / n)).collect();
        let mut odd = hits % n;
        let mut left: Vec<usize> = among.to_vec();
        while odd > 0 && !left.is_empty() {
            let pick = policy.odd_hit(self, &left);
            if let Some(e) = out.iter_mut().find(|e| e.0 == pick) {
                e.1 += 1;
            }
            left.retain(|&x| x != pick);
            odd -= 1;
        }
        out
    }

    /// One round of one melee (4.5).
    fn melee(&mut self, policy: &dyn Policy, group: &[usize]) {
        let group: Vec<usize> = group
            .iter()
            .copied()
            .filter(|&u| !self.units[u].broken && self.units[u].in_melee())
            .collect();
        let sides: [Vec<usize>; 2] = [0, 1].map(|s| {
            group
                .iter()
                .copied()
                .filter(|&u| self.units[u].side == s)
                .collect()
        });
        if sides[0].is_empty() || sides[1].is_empty() {
            return;
        }
        let mut inflicted = [0u32; 2];
        let mut flank_rear = [0u32; 2];
        let ms = &self.cat.tables.melee_score;
        let (flank_bonus, rear_bonus) = (ms.against_flank, ms.against_rear);
        let mut rolls = Vec::new();
        for s in 0..2 {
            for &u in &sides[s] {
                let enemy = self.units[u]
                    .engaged
                    .first()
                    .copied()
                    .unwrap_or(sides[1 - s][0]);
                let direct = self.direct_bases(u);
                let lead = self.general_attached(u).is_some()
                    && self.spend(policy, u, CommandAction::LeadTheFight, Moment::Melee);
                let x = &self.units[u];
                let fight = Fight {
                    direct_bases: direct,
                    supporting_bases: x.profile.bases() - direct,
                    state: self.state(u),
                    disordered: x.disorder > 0,
                    charging: x.charging,
                    against: x.against,
                    enemy_kind: self.units[enemy].kind(),
                    in_the_open: true,
                    enemy_defending_obstacle: false,
                    enemy_uphill: false,
                    limbered: false,
                    general_attached: self.general_attached(u).is_some(),
                    lead_the_fight: lead,
                };
                let pool = mechanics::melee_pool(self.cat, &x.profile, &fight);
                flank_rear[s] = flank_rear[s].max(match x.against {
                    Against::Front => 0,
                    Against::Flank => flank_bonus,
                    Against::Rear => rear_bonus,
                });
                let h = self.melee_hits(u, pool.dice);
                inflicted[s] += h;
                rolls.push((u, pool.dice, h));
            }
        }
        if self.narrate() {
            for &(u, dice, h) in &rolls {
                let text = format!(
                    "{} fights with {dice} dice: {h} unsaved hit{}.",
                    self.name(u),
                    if h == 1 { "" } else { "s" }
                );
                self.say(text);
            }
        }
        for u in group.iter().copied() {
            self.units[u].charging = false;
        }
        // Mark both sides' hits (L-35 split), then judge (L-29: the size bonus after them).
        let mut splits = Vec::new();
        for s in 0..2 {
            splits.extend(self.split(policy, inflicted[s], &sides[1 - s]));
        }
        for (t, h) in splits {
            self.mark_hits(policy, t, h, "in melee");
            if self.over {
                return;
            }
        }
        let standing: [Vec<usize>; 2] = [0, 1].map(|s| {
            sides[s]
                .iter()
                .copied()
                .filter(|&u| !self.units[u].broken)
                .collect()
        });
        let bases = |s: usize| {
            standing[s]
                .iter()
                .map(|&u| self.units[u].profile.bases())
                .sum::<u32>()
        };
        let no_shaken = |s: usize| {
            standing[s]
                .iter()
                .all(|&u| self.state(u) != HitState::Shaken)
        };
        let mut score = [inflicted[0] + flank_rear[0], inflicted[1] + flank_rear[1]];
        for s in 0..2 {
            if bases(s) > bases(1 - s) && no_shaken(s) && !standing[s].is_empty() {
                score[s] += ms.more_bases;
            }
        }
        // General risk (L-34).
        for (s, units) in sides.iter().enumerate() {
            for &u in units {
                if let Some(g) = self.general_attached(u) {
                    let r = self.d6();
                    if self.cat.general.killed_on.contains(&(r as u8)) {
                        let gen = &mut self.generals[s][g];
                        gen.alive = false;
                        gen.attached = None;
                        if self.narrate() {
                            let text = format!("{} falls in the fighting (D6 {r}); his brigade is out of command for the rest of the battle.", self.generals[s][g].name);
                            self.say(text);
                        }
                    }
                }
            }
        }
        let winner = match score[0].cmp(&score[1]) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        };
        if self.narrate() {
            let text = match winner {
                Some(w) => format!(
                    "The {} side wins the melee {}–{}.",
                    side_of(w).id(),
                    score[w],
                    score[1 - w]
                ),
                None => format!("The melee is drawn {}–{} and goes on.", score[0], score[1]),
            };
            self.say(text);
        }
        let Some(w) = winner else { return };
        let l = 1 - w;
        let mut loser_held = false;
        let mut fled: Vec<(usize, bool)> = Vec::new();
        for &u in &standing[l] {
            if self.over || self.units[u].broken {
                continue;
            }
            let r = self.morale(policy, u, MoraleTrigger::LostMelee);
            match r {
                MoraleResult::Holds | MoraleResult::NoEffect => loser_held = true,
                MoraleResult::Retire => {
                    self.leave_melee(u);
                    self.retire_move(u, false);
                }
                MoraleResult::Route => {
                    self.leave_melee(u);
                    self.units[u].routing = true;
                    self.route_move(policy, u);
                    fled.push((u, false));
                }
                MoraleResult::Broken => {
                    self.break_unit(policy, u, "loses the melee and breaks");
                    fled.push((u, true));
                }
                MoraleResult::Disordered => self.disorder(u),
            }
        }
        for &u in &sides[l] {
            if self.units[u].broken && !fled.iter().any(|f| f.0 == u) {
                fled.push((u, true));
            }
        }
        if self.over {
            return;
        }
        // A SHAKEN winner still locked with a loser that held routes (L-30).
        for &u in &standing[w] {
            if self.units[u].broken {
                continue;
            }
            if loser_held && self.units[u].in_melee() && self.state(u) == HitState::Shaken {
                if self.narrate() {
                    let text = format!("{} wins but is SHAKEN and routes.", self.name(u));
                    self.say(text);
                }
                self.leave_melee(u);
                self.units[u].routing = true;
                self.route_move(policy, u);
                if self.over {
                    return;
                }
            }
        }
        // Pursuit and breakthrough by unengaged winners.
        for &u in &standing[w] {
            if self.over {
                return;
            }
            let x = &self.units[u];
            if x.broken || x.routing || x.in_melee() || self.state(u) == HitState::Shaken {
                continue;
            }
            if !matches!(
                x.kind(),
                Kind::Infantry | Kind::MountedCavalry | Kind::DismountedCavalry
            ) {
                continue;
            }
            let Some(&(victim, broke)) = fled.first() else {
                continue;
            };
            let need = if broke {
                self.cat.tables.breakthrough_on
            } else {
                self.cat.tables.pursuit_on
            };
            let impetuous = x.profile.has(SpecialRule::Impetuous);
            let r = self.d6();
            if !impetuous && r < u32::from(need) {
                continue;
            }
            if broke {
                if self.units[u].breakthrough_used {
                    continue;
                }
                self.units[u].breakthrough_used = true;
                let reach = self.charge_reach(u);
                let f = self.units[u].facing();
                let target = self
                    .enemies(u)
                    .filter(|&e| {
                        self.distance(u, e) <= reach
                            && (self.units[e].depth - self.units[u].depth) * f >= -0.5
                    })
                    .min_by(|&a, &b| self.distance(u, a).total_cmp(&self.distance(u, b)));
                if let Some(t) = target {
                    if self.narrate() {
                        let text = format!(
                            "{} breaks through (D6 {r}) and charges {}.",
                            self.name(u),
                            self.name(t)
                        );
                        self.say(text);
                    }
                    self.charge_home(policy, u, t, true, 0.0);
                }
            } else if !self.units[victim].broken {
                self.pursue(policy, u, victim, r);
            }
        }
    }

    /// A pursuit (4.5, L-31): one free round only the pursuer rolls.
    fn pursue(&mut self, policy: &dyn Policy, u: usize, victim: usize, r: u32) {
        let (advance, run, bonus) = self.movement(u);
        let reach = f64::from(run.unwrap_or(advance) as i32 + self.roll(bonus));
        let dist = self.distance(u, victim);
        if reach < dist {
            self.move_toward(u, victim, reach, 0.5);
            if self.narrate() {
                let text = format!(
                    "{} pursues (D6 {r}) but cannot catch {}.",
                    self.name(u),
                    self.name(victim)
                );
                self.say(text);
            }
            return;
        }
        self.units[u].sector = self.units[victim].sector;
        self.units[u].depth = self.units[victim].depth;
        if self.state(victim) == HitState::Shaken {
            self.break_unit(policy, victim, "is caught by the pursuit");
            return;
        }
        let direct = self.units[u]
            .profile
            .bases()
            .min(self.units[victim].profile.bases());
        let x = &self.units[u];
        let fight = Fight {
            direct_bases: direct,
            supporting_bases: x.profile.bases() - direct,
            state: self.state(u),
            disordered: x.disorder > 0,
            charging: true,
            against: Against::Rear,
            enemy_kind: self.units[victim].kind(),
            in_the_open: true,
            enemy_defending_obstacle: false,
            enemy_uphill: false,
            limbered: false,
            general_attached: self.general_attached(u).is_some(),
            lead_the_fight: false,
        };
        let dice = mechanics::melee_pool(self.cat, &x.profile, &fight).dice;
        let h = self.melee_hits(u, dice);
        if self.narrate() {
            let text = format!(
                "{} pursues (D6 {r}) and cuts into {}: {dice} dice, {h} unsaved hits.",
                self.name(u),
                self.name(victim)
            );
            self.say(text);
        }
        self.mark_hits(policy, victim, h, "in the pursuit");
        if !self.units[victim].broken && !self.over {
            self.route_move(policy, victim);
        }
    }

    /// Where the units on the table stand now, kept when positions are asked for.
    fn note_positions(&mut self) {
        let Some(turns) = self.positions.as_mut() else {
            return;
        };
        let units = self
            .units
            .iter()
            .filter(|u| !u.gone())
            .map(|u| UnitPosition {
                side: side_of(u.side),
                unit: u.id.clone(),
                sector: u8::try_from(battlefield::clamp_sector(u.sector)).unwrap_or(1),
                depth: (u.depth * 10.0).round() / 10.0,
                state: match u.profile.state(u.hits) {
                    HitState::Steady => EndState::Steady,
                    HitState::Worn => EndState::Worn,
                    HitState::Shaken => EndState::Shaken,
                    HitState::Broken => EndState::Broken,
                },
                routing: u.routing,
                hits: u.hits,
            })
            .collect();
        turns.push(TurnPositions {
            turn: self.turn,
            units,
        });
    }

    fn finish(mut self, setup: &BattleSetup, turns_played: u32, ended_by: EndReason) -> Outcome {
        self.phase = "end";
        let sides: Vec<SideEnd> = (0..2)
            .map(|s| SideEnd {
                army_list: self.lists[s],
                units: self
                    .units
                    .iter()
                    .filter(|u| u.side == s)
                    .map(|u| UnitEnd {
                        unit: u.id.clone(),
                        name: u.name.clone(),
                        end: if u.routed_off {
                            EndState::RoutedOff
                        } else if u.broken {
                            EndState::Broken
                        } else {
                            match u.profile.state(u.hits) {
                                HitState::Steady => EndState::Steady,
                                HitState::Worn => EndState::Worn,
                                HitState::Shaken => EndState::Shaken,
                                HitState::Broken => EndState::Broken,
                            }
                        },
                        hits: Some(u.hits),
                    })
                    .collect(),
                generals_killed: self.generals[s]
                    .iter()
                    .filter(|g| !g.alive)
                    .map(|g| g.id.clone())
                    .collect(),
            })
            .collect();
        if self.narrate {
            let text = match ended_by {
                EndReason::BreakPoint => {
                    format!("The battle ends in turn {turns_played} at a break point.")
                }
                _ => format!("The battle ends after {turns_played} turns."),
            };
            self.say(text);
        }
        let mut it = sides.into_iter();
        let (a, d) = (it.next(), it.next());
        let ending = Ending {
            method: Method::Simulated,
            seed: Some(setup.seed),
            turns_played,
            ended_by,
            log: std::mem::take(&mut self.log),
        };
        let empty = |list| SideEnd {
            army_list: list,
            units: Vec::new(),
            generals_killed: Vec::new(),
        };
        let mut outcome = score(
            self.cat,
            ending,
            a.unwrap_or_else(|| empty(self.lists[0])),
            d.unwrap_or_else(|| empty(self.lists[1])),
        );
        outcome.positions = self.positions.take().unwrap_or_default();
        outcome
    }
}

#[cfg(test)]
mod tests;
