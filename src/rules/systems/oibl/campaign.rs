//! *One if by Land* in a campaign: the catalogue answers the campaign engine's questions
//! ([`ForceRules`]) about a force kept as a `muster.oibl.roster/1` order of battle.
//!
//! The rules have no campaign section; spec 3.3 lists what may persist and Muster's rulings B-70
//! to B-74 settle it:
//! * battle size is counted in figures (a battery counts its crew), as the set-up counts them;
//! * commander ratings X (B-8): a rating the roster gives is kept, a missing one is rolled once on
//!   B-8's table at enlistment, and the campaign keeps it from battle to battle; a killed
//!   commander's successor is rolled on the same table (B-70); after a decisive result
//!   commanders may rise or fall by one (B-73);
//! * figures carry over (B-71): a unit keeps the figures it ended with, plus half those it lost
//!   (rounded down) as replacements; its stands go as their figures go (B-38); a destroyed unit
//!   is gone; a battery counts its crew the same way and loses the guns taken from it;
//! * a fort is attacked as the defended line (B-72).
//!
//! No points: nothing is bought between battles.

use std::borrow::Cow;

use super::battle::{Level, Outcome, UnitResult, SCENARIOS};
use super::catalogue::Catalogue;
use super::record::prepare;
use super::roster::{CommanderDoc, RosterDoc, UnitDoc, WAR};
use super::system::Oibl;
use super::types::{Kind, Quality};
use super::unit::{roster_units, stats, UnitStats};
use super::validate::validate;
use crate::rules::campaign::aftermath::EndState;
use crate::rules::campaign::error::FieldProblem;
use crate::rules::campaign::forces_api::{
    camps_named, move_between, BattleDoc, BattleReport, BattleResult, BattleSize, Bought, Carried,
    Choice, CommanderRef, ElementEnd, ElementRef, ForceRules, ForceShape, ForceWords, GroupRef,
    Purchase, PurchaseMenu, Reduction, RosterJson, SetupForce,
};
use crate::rules::dice::Dice;
use crate::rules::system::{BattleSide, Method, RuleSystem, Severity, SystemId};

/// The most figures a side may bring to a campaign battle; far beyond a club's table.
pub const MAX_FIGURES: u32 = 3000;
/// The least: one unit of two figures, the smallest that can roll (B-33).
pub const MIN_FIGURES: u32 = 2;

/// The scenario a fort is attacked as (B-72).
pub const FORT_SCENARIO: &str = "defended_line";

crate::system_roster!(RosterDoc);

/// A campaign force's roster as the One if by Land document.
pub fn read(roster: &RosterJson) -> Result<Cow<'_, RosterDoc>, String> {
    roster.read_as::<RosterDoc>()
}

fn units_of(doc: &RosterDoc) -> impl Iterator<Item = &UnitDoc> {
    doc.brigades.iter().flat_map(|b| b.units.iter())
}

fn unit<'a>(doc: &'a RosterDoc, id: &str) -> Option<&'a UnitDoc> {
    units_of(doc).find(|u| u.id.as_deref() == Some(id))
}

fn unit_mut<'a>(doc: &'a mut RosterDoc, id: &str) -> Option<&'a mut UnitDoc> {
    doc.brigades
        .iter_mut()
        .flat_map(|b| b.units.iter_mut())
        .find(|u| u.id.as_deref() == Some(id))
}

/// Every commander of the order of battle, the army's first.
pub fn commanders_mut(doc: &mut RosterDoc) -> impl Iterator<Item = &mut CommanderDoc> {
    doc.army_commander
        .iter_mut()
        .chain(
            doc.divisions
                .iter_mut()
                .filter_map(|d| d.commander.as_mut()),
        )
        .chain(doc.brigades.iter_mut().filter_map(|b| b.commander.as_mut()))
}

fn commanders(doc: &RosterDoc) -> impl Iterator<Item = &CommanderDoc> {
    doc.army_commander
        .iter()
        .chain(doc.divisions.iter().filter_map(|d| d.commander.as_ref()))
        .chain(doc.brigades.iter().filter_map(|b| b.commander.as_ref()))
}

/// A unit's size as the campaign stores it: its figures (a battery's: its crew).
pub fn size_code(figures: u32) -> String {
    if figures == 1 {
        "1 figure".to_string()
    } else {
        format!("{figures} figures")
    }
}

/// What a battle took from a battery besides its crew: its guns (B-71). Applied to the
/// battery as it stands, after its figures.
pub fn guns_lost_code(guns: u32) -> String {
    if guns == 1 {
        "1 gun lost".to_string()
    } else {
        format!("{guns} guns lost")
    }
}

/// A stored size: figures, or guns lost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Size {
    Figures(u32),
    GunsLost(u32),
}

/// Reads [`size_code`] and [`guns_lost_code`].
pub fn read_size(code: &str) -> Option<Size> {
    let words: Vec<&str> = code.split_whitespace().collect();
    let n = words.first()?.parse().ok()?;
    match words[1..] {
        ["figure" | "figures"] => Some(Size::Figures(n)),
        ["gun" | "guns", "lost"] if n > 0 => Some(Size::GunsLost(n)),
        _ => None,
    }
}

fn is_battery(s: &UnitStats) -> bool {
    s.kind == Kind::Artillery
}

fn quality_words(cat: &Catalogue, q: Quality) -> String {
    cat.quality(q).name.to_lowercase()
}

impl Catalogue {
    fn unit_ref(&self, u: &UnitDoc) -> ElementRef {
        let id = u.id.clone().unwrap_or_default();
        let Some(s) = stats(self, u, &id) else {
            return ElementRef {
                id,
                name: if u.name.trim().is_empty() {
                    "Unit".into()
                } else {
                    u.name.clone()
                },
                kind: u.class.clone(),
                size: String::new(),
                size_label: String::new(),
                rank: 0,
                upgrades: Vec::new(),
                points: None,
            };
        };
        let size = size_code(s.figures);
        let size_label = if is_battery(&s) {
            let gun = s.gun.map(|g| self.gun(g).name.to_lowercase());
            format!(
                "{size} crewing {} {}",
                s.guns,
                match (gun, s.guns) {
                    (Some(g), 1) => g,
                    (Some(g), _) => format!("{g}s"),
                    (None, 1) => "gun".into(),
                    (None, _) => "guns".into(),
                }
            )
        } else {
            format!(
                "{size} in {} stand{}",
                s.stands,
                if s.stands == 1 { "" } else { "s" }
            )
        };
        let mut upgrades = Vec::new();
        if s.marksmen {
            upgrades.push("Marksmen".to_string());
        }
        ElementRef {
            id,
            name: s.name.clone(),
            kind: format!("{} ({})", s.class_name, quality_words(self, s.quality)),
            size,
            size_label,
            // Rank 0 is the least it can be: 2 figures (B-33).
            rank: u8::try_from(s.figures.saturating_sub(self.destroyed_below)).unwrap_or(u8::MAX),
            upgrades,
            points: None,
        }
    }

    /// B-8's table: a d6 read as a rating X; the die and the rating.
    fn roll_rating(&self, dice: &mut Dice) -> (u8, u8) {
        let face = dice.d6();
        let r = self
            .commander_rating
            .roll
            .get(usize::from(face.saturating_sub(1)))
            .copied()
            .unwrap_or(self.commander_rating.default);
        (face, u8::try_from(r.max(0)).unwrap_or(0))
    }

    /// The highest rating experience may bring (B-73): the table's best roll; a higher rating
    /// comes only from a scenario (B-8).
    fn best_rolled_rating(&self) -> u8 {
        let best = self.commander_rating.roll.iter().copied().max();
        u8::try_from(best.unwrap_or(self.commander_rating.default).max(0)).unwrap_or(0)
    }
}

/// What a battle left of a unit that is not a battery (B-71): `None` when it is gone, else the
/// figures it has for the next battle: those it ended with plus half those it lost.
pub fn figures_after(cat: &Catalogue, u: &UnitResult) -> Option<u32> {
    if u.destroyed {
        return None;
    }
    let lost = u.figures_lost.min(u.start_figures);
    let left = u.start_figures - lost + lost / 2;
    (left >= cat.destroyed_below).then_some(left)
}

/// How a unit ended its battle, for the campaign's pages and rolls.
pub fn campaign_end(u: &UnitResult) -> EndState {
    if u.destroyed {
        EndState::Shattered
    } else if u.left_table {
        EndState::LeftTheField
    } else if u.routed {
        EndState::Exhausted
    } else if u.figures_lost > 0 || u.guns_lost > 0 {
        EndState::Shaken
    } else {
        EndState::Fit
    }
}

impl ForceRules for Catalogue {
    fn system(&self) -> SystemId {
        SystemId::Oibl
    }

    fn wars(&self) -> Vec<Choice> {
        vec![Choice {
            value: WAR.into(),
            label: "American War of Independence".into(),
        }]
    }

    fn scenarios(&self) -> Vec<Choice> {
        SCENARIOS
            .iter()
            .map(|(id, words)| Choice {
                value: (*id).into(),
                label: format!("{words} (B-51)"),
            })
            .collect()
    }

    fn scenario_name(&self, id: &str) -> Option<String> {
        SCENARIOS
            .iter()
            .find(|(s, _)| *s == id)
            .and_then(|(_, words)| words.split(':').next())
            .map(str::to_string)
    }

    // B-72: a fort's walls are the defended line's fences.
    fn fort_assault(&self) -> Option<String> {
        Some(FORT_SCENARIO.into())
    }

    // B-51: each set-up is as likely as the other.
    fn roll_scenario(&self, dice: &mut Dice) -> (String, String) {
        let roll = dice.d6();
        let (id, words) = if roll <= 3 {
            SCENARIOS[0]
        } else {
            SCENARIOS[1]
        };
        (
            id.into(),
            format!("Scenario rolled {roll} (1–3 open field, 4–6 defended line): {words}."),
        )
    }

    fn switch_label(&self, id: &str, label: &'static str) -> Option<&'static str> {
        match id {
            "persistent_casualties" => Some(
                "Figures and guns carry over: a unit keeps the figures it ended with and gets half of those it lost back as replacements (B-71); stands go as their figures go; a destroyed unit and a lost gun are gone",
            ),
            "experience" => Some(
                "After a decisive result a commander's rating X rises by 1 on a 6 for the winner (to at most 2) and falls by 1 on a 1 for the loser (B-73)",
            ),
            "fort_assault" => Some(
                "Attacking a fort is fought as the defended line: the defenders stand in light cover (B-72)",
            ),
            // A successor is always rolled on B-8's table (B-70); no points to earn or spend;
            // no scouts.
            "field_promotion" | "reinforcements" | "scout_bonus" => None,
            _ => Some(label),
        }
    }

    fn words(&self) -> ForceWords {
        ForceWords {
            commander_in_chief: "Army commander",
            group_commander: "Brigade commander",
            group: "Brigade",
            elements: "Units",
            element: "Unit",
            options: "Marksmen",
        }
    }

    // Battles are sized in figures on the table (spec 0: no points).
    fn battle_size(&self) -> BattleSize {
        BattleSize {
            min: MIN_FIGURES,
            max: MAX_FIGURES,
            unit: "figures",
        }
    }

    fn enlistment(&self, roster: &RosterJson, war: &str, _: u32) -> Result<RosterJson, String> {
        if war != WAR {
            return Err(
                "Orders of battle of One if by Land fight in the American War of Independence only."
                    .into(),
            );
        }
        let mut doc = read(roster)?.into_owned();
        doc.assign_ids();
        Ok(RosterJson::read(doc))
    }

    /// M-104: American, French and Indian forces are the American camp's allies; British,
    /// Loyalist and German ones the Crown's.
    fn allegiance_warning(
        &self,
        roster: &RosterJson,
        _war: &str,
        side_name: &str,
    ) -> Option<String> {
        let doc = read(roster).ok()?;
        let camp = match doc.nation.as_str() {
            "american" | "french" => "american",
            "british" | "loyalist" | "german" => "crown",
            _ => return None,
        };
        let side = camps_named(side_name)?;
        let allied = camp == side || (camp == "american" && side == "french");
        (!allied).then(|| {
            format!(
                "{} is a {} order of battle; {side_name} fought on the other side.",
                doc.name, doc.nation
            )
        })
    }

    fn points(&self, _: &RosterJson) -> Option<u32> {
        None
    }

    /// The figures it puts on the table (a battery: its crew), as a battle's set-up counts them.
    fn strength(&self, roster: &RosterJson) -> Option<u32> {
        let doc = read(roster).ok()?;
        Some(
            roster_units(self, &doc)
                .iter()
                .map(|(_, u)| u.figures)
                .sum(),
        )
    }

    fn problems(&self, roster: &RosterJson, size: u32, casualties_started: bool) -> Vec<String> {
        let doc = match read(roster) {
            Ok(doc) => doc,
            Err(e) => return vec![e],
        };
        let mut problems: Vec<String> = validate(self, &doc)
            .findings
            .into_iter()
            .filter(|f| f.severity == Severity::Error)
            .filter(|f| {
                !(casualties_started
                    && matches!(f.code.as_str(), "brigade_without_units" | "no_brigades"))
            })
            .map(|f| f.message)
            .collect();
        let figures = self.strength(roster).unwrap_or(0);
        if figures > size {
            problems.push(format!(
                "The order of battle has {figures} figures; this campaign's battles are fought with at most {size}."
            ));
        }
        problems
    }

    /// The army commander leads the force; each brigade is a group under its commander.
    fn shape(&self, roster: &RosterJson) -> Result<ForceShape, String> {
        let doc = read(roster)?;
        let commander_ref = |c: &CommanderDoc, group: Option<&String>| {
            c.id.clone().map(|id| CommanderRef {
                id,
                name: c.name.clone(),
                group: group.cloned(),
            })
        };
        Ok(ForceShape {
            commander: doc
                .army_commander
                .as_ref()
                .and_then(|c| commander_ref(c, None)),
            groups: doc
                .brigades
                .iter()
                .map(|b| GroupRef {
                    id: b.id.clone().unwrap_or_default(),
                    name: b.name.clone(),
                    commander: b
                        .commander
                        .as_ref()
                        .and_then(|c| commander_ref(c, b.id.as_ref())),
                    elements: b.units.iter().map(|u| self.unit_ref(u)).collect(),
                })
                .collect(),
        })
    }

    fn size_label(&self, size: &str) -> String {
        match read_size(size) {
            Some(Size::GunsLost(1)) => "one gun fewer".into(),
            Some(Size::GunsLost(n)) => format!("{n} guns fewer"),
            _ => size.to_string(),
        }
    }

    // The rules have no scouting: the switch that counts scouts is hidden.
    fn scouts(&self, _: &RosterJson) -> u32 {
        0
    }

    /// B-8's table once, at enlistment, for a commander the roster leaves unrated.
    fn rate_commander(&self, dice: &mut Dice) -> (u8, String) {
        let (face, r) = self.roll_rating(dice);
        (r, format!("X = {r} (a d6 of {face} on B-8's table)"))
    }

    fn rating_words(&self, rating: u8) -> Option<String> {
        Some(if rating == 0 {
            "X = 0: no help to the morale of a unit he is with (B-8)".to_string()
        } else {
            format!("X = {rating}: a unit he is with tests its morale at −{rating} (B-8)")
        })
    }

    /// The rating the order of battle gives him (B-8), kept; none given: rolled.
    fn given_rating(&self, roster: &RosterJson, commander: &CommanderRef) -> Option<u8> {
        let doc = read(roster).ok()?;
        let c = commanders(&doc).find(|c| c.id.as_deref() == Some(commander.id.as_str()))?;
        u8::try_from(c.rating?).ok()
    }

    /// B-70: the successor's X is rolled on B-8's table as he takes the post, whatever the
    /// field-promotion switch says (it is hidden for this system).
    fn replacement_rating(&self, dice: &mut Dice, _: bool) -> (u8, String) {
        let (face, r) = self.roll_rating(dice);
        (
            r,
            format!("his rating rolled on B-8's table: a d6 of {face}, X = {r} (B-70)"),
        )
    }

    /// B-73: after a decisive victory a commander's X rises by 1 on a 6 (never above B-8's
    /// best roll, 2); after a decisive defeat it falls by 1 on a 1 (never below 0).
    fn experience(&self, rating: u8, won: bool, dice: &mut Dice) -> Option<(u8, u8)> {
        let roll = dice.d6();
        let after = match (won, roll) {
            (true, 6) if rating < self.best_rolled_rating() => rating + 1,
            (false, 1) if rating > 0 => rating - 1,
            _ => rating,
        };
        Some((after, roll))
    }

    // B-73: most orders of battle have no army commander, so every brigade commander of the
    // beaten army answers for the defeat.
    fn defeat_tests_every_commander(&self) -> bool {
        true
    }

    /// A unit brought down to rank `rank`: `rank + 2` figures (B-33's least); only smaller than
    /// it is.
    fn reduce(&self, roster: &RosterJson, element: &str, rank: u8) -> Option<Reduction> {
        let doc = read(roster).ok()?;
        let s = stats(self, unit(&doc, element)?, element)?;
        let figures = u32::from(rank) + self.destroyed_below;
        (figures < s.figures).then(|| Reduction {
            size: size_code(figures),
            dropped: Vec::new(),
            refund: 0,
        })
    }

    /// Sets a unit's figures, its stands following them (whole stands go first, B-38), or a
    /// battery's crew; or takes the guns a battle took off a battery (B-71).
    fn resize(
        &self,
        roster: &mut RosterJson,
        element: &str,
        size: &str,
        _: &[String],
    ) -> Result<String, String> {
        let asked = read_size(size).ok_or_else(|| format!("unknown size {size}"))?;
        let doc = roster.read_mut_as::<RosterDoc>()?;
        let u = unit_mut(doc, element).ok_or_else(|| format!("no unit {element}"))?;
        let s = stats(self, u, element).ok_or_else(|| format!("unit {element} is unreadable"))?;
        match (asked, is_battery(&s)) {
            (Size::Figures(n), _) if n < 1 => return Err(format!("unknown size {size}")),
            (Size::Figures(n), true) => u.figures = Some(n),
            (Size::Figures(n), false) => {
                u.figures = Some(n);
                u.stands = n.div_ceil(s.figures_per_stand.max(1));
            }
            (Size::GunsLost(n), true) if n < s.guns => {
                let guns = s.guns - n;
                let crew = s
                    .gun
                    .map_or(1, |g| u.crew.unwrap_or(self.gun(g).default_crew));
                u.guns = Some(guns);
                u.figures = Some(s.figures.min(guns.saturating_mul(crew)).max(1));
            }
            (Size::GunsLost(_), _) => return Err(format!("{} cannot lose {size}", s.name)),
        }
        Ok(self.size_label(size))
    }

    fn remove_element(&self, roster: &mut RosterJson, element: &str) -> Result<String, String> {
        let doc = roster.read_mut_as::<RosterDoc>()?;
        let name = unit(doc, element)
            .map(|u| self.unit_ref(u).name)
            .ok_or_else(|| format!("no unit {element}"))?;
        for b in &mut doc.brigades {
            b.units.retain(|u| u.id.as_deref() != Some(element));
        }
        Ok(name)
    }

    /// A new man in the post: his own name, no wound, and the rating the campaign rolled for
    /// him (B-70), written in at the next battle.
    fn rename_commander(
        &self,
        roster: &mut RosterJson,
        commander: &str,
        name: &str,
    ) -> Result<(), String> {
        let doc = roster.read_mut_as::<RosterDoc>()?;
        let c = commanders_mut(doc)
            .find(|c| c.id.as_deref() == Some(commander))
            .ok_or_else(|| format!("no commander {commander}"))?;
        c.name = name.to_string();
        c.wound = None;
        Ok(())
    }

    fn move_element(
        &self,
        roster: &RosterJson,
        element: &str,
        group: &str,
    ) -> Result<RosterJson, FieldProblem> {
        let mut doc = read(roster)
            .map_err(|e| FieldProblem::new("roster", e))?
            .into_owned();
        move_between(
            &mut doc.brigades,
            |b| b.id.as_deref(),
            |b| &mut b.units,
            |u| u.id.as_deref(),
            element,
            group,
            ("brigade", "unit"),
        )?;
        Ok(RosterJson::read(doc))
    }

    fn purchase_menu(&self) -> PurchaseMenu {
        PurchaseMenu::default()
    }

    fn buy(
        &self,
        _: &RosterJson,
        _: &Purchase,
        _: Option<&str>,
        _: &dyn Fn(&str) -> bool,
    ) -> Result<Bought, FieldProblem> {
        Err(FieldProblem::new(
            "purchase",
            "One if by Land has no points, so its orders of battle buy nothing between battles.",
        ))
    }

    /// The battle between the forces as they stand: every commander at the rating the
    /// campaign keeps for him (B-8, B-70); a brigade its losses left empty stays home.
    fn battle_setup(
        &self,
        attacker: SetupForce,
        defender: SetupForce,
        scenario: &str,
        _: u32,
        seed: u64,
    ) -> Result<BattleDoc, String> {
        let fielded = |force: SetupForce| -> Result<RosterDoc, String> {
            let mut doc = fielded(read(force.roster)?.into_owned());
            let (min, max) = (self.commander_rating.min, self.commander_rating.max);
            for c in commanders_mut(&mut doc) {
                let kept =
                    c.id.as_ref()
                        .and_then(|id| force.ratings.get(id))
                        .map(|r| i32::from(*r))
                        .filter(|r| (min..=max).contains(r));
                if let Some(r) = kept {
                    c.rating = Some(r);
                }
            }
            Ok(doc)
        };
        let prepared = prepare(
            self,
            fielded(attacker)?,
            fielded(defender)?,
            Some(scenario),
            false,
            seed,
        )?;
        Ok(BattleDoc {
            setup: Oibl::write_setup(&prepared.setup),
        })
    }

    fn battle_report(&self, result: &str) -> Result<BattleReport, String> {
        let o: Outcome =
            serde_json::from_str(result).map_err(|e| format!("unreadable battle result: {e}"))?;
        Ok(report_of(self, &o))
    }
}

/// The order of battle as it takes the field: brigades with no unit left stay home, and the
/// divisions name only the brigades that came.
pub fn fielded(mut doc: RosterDoc) -> RosterDoc {
    doc.brigades.retain(|b| !b.units.is_empty());
    let present: Vec<String> = doc.brigades.iter().filter_map(|b| b.id.clone()).collect();
    for d in &mut doc.divisions {
        d.brigades.retain(|b| present.contains(b));
    }
    doc.divisions.retain(|d| !d.brigades.is_empty());
    doc
}

/// The campaign's level for a result (B-72): a side broken by B-34 (or beaten on the players'
/// objectives) is a major defeat, a marginal victory on time (B-35) a marginal one.
fn level_word(level: Level) -> &'static str {
    match level {
        Level::Decisive => "major",
        Level::Marginal => "marginal",
        Level::Draw => "tie",
    }
}

/// Victory points by level, as every system's campaign scores them (B-72): major 6 to 2,
/// marginal 4 to 2, a draw 3 each.
fn victory_points(o: &Outcome, side: BattleSide) -> u8 {
    match (o.winner, o.level) {
        (None, _) | (_, Level::Draw) => 3,
        (Some(w), _) if w != side => 2,
        (_, Level::Decisive) => 6,
        (_, Level::Marginal) => 4,
    }
}

/// What a decided battle means for the campaign (B-71): the result, every unit as the battle
/// left it with its replacements (a battery also losing the guns taken from it), and the
/// commanders killed.
pub fn report_of(cat: &Catalogue, o: &Outcome) -> BattleReport {
    let sides = [
        (BattleSide::Attacker, &o.attacker),
        (BattleSide::Defender, &o.defender),
    ];
    let ends = |side: BattleSide, u: &UnitResult| {
        let after = figures_after(cat, u);
        let end = |carried| ElementEnd {
            side,
            id: u.id.clone(),
            end: campaign_end(u),
            lost: u.figures_lost,
            carried: Some(carried),
        };
        let mut out = vec![end(match after {
            None => Carried::Lost,
            Some(n) => Carried::Size(size_code(n)),
        })];
        // Only a battery loses guns; a destroyed one is gone already.
        if after.is_some() && u.guns_lost > 0 {
            out.push(end(Carried::Size(guns_lost_code(u.guns_lost))));
        }
        out
    };
    BattleReport {
        result: BattleResult {
            winner: o.winner.map(|s| s.id().to_string()),
            level: if o.winner.is_none() {
                "tie".into()
            } else {
                level_word(o.level).into()
            },
            attacker_vp: victory_points(o, BattleSide::Attacker),
            defender_vp: victory_points(o, BattleSide::Defender),
            method: match o.method {
                Method::Simulated => "simulated",
                Method::Tabletop => "tabletop",
            }
            .into(),
            engine: None,
        },
        elements: sides
            .iter()
            .flat_map(|(side, r)| r.units.iter().flat_map(move |u| ends(*side, u)))
            .collect(),
        killed: sides
            .iter()
            .flat_map(|(side, r)| {
                r.commanders
                    .iter()
                    .filter(|c| c.fate == super::battle::Fate::Killed)
                    .map(|c| (*side, c.id.clone()))
            })
            .collect(),
    }
}
