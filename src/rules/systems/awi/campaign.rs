//! The *AWI wargames rules* in a campaign: the catalogue answers the campaign engine's
//! questions ([`ForceRules`]) about a force kept as a `muster.awi.oob/1` order of battle.
//!
//! The source has no campaign rules; the brigadier's ability is the one value it makes a
//! property of the man (spec 3). Muster applies the spec's section 3 proposals behind the
//! campaign's switches:
//! * ratings: every brigadier's ability is rolled D6+2 once, at enlistment, unless the order of
//!   battle gives it (W-4, W-45), and kept from battle to battle; the CinC has none;
//! * experience: after a major victory each surviving brigadier of the winner gains 1 on a D6
//!   of 6 (at most 9); after a major defeat each brigadier of the beaten army loses 1 on a 1
//!   (at least 2) (W-45);
//! * a killed brigadier is replaced by a new man rolled D6+1 (W-29);
//! * losses: a unit gets back half the figures it lost (rounded down) and fields the whole
//!   bases left; one that left the table or was destroyed is lost on a D6 of 1–3, otherwise
//!   returns at half its starting bases (at least 1); a lost gun is gone, a gun's lost gunners
//!   come back on 4+ each (W-44).
//!
//! No points: battles are sized in bases, and nothing is bought between them.

use std::borrow::Cow;

use super::battle::{EndState as AwiEnd, Level, Outcome, OPEN_FIELD};
use super::catalogue::{Catalogue, Roll};
use super::record::prepare;
use super::roster::{RosterDoc, UnitDoc, UnitSpec, WAR};
use super::system::Awi;
use super::types::TroopType;
use super::validate::validate;
use crate::rules::campaign::aftermath::{Casualty, EndState};
use crate::rules::campaign::error::FieldProblem;
use crate::rules::campaign::forces_api::{
    move_between, BattleDoc, BattleReport, BattleResult, BattleSize, Bought, Choice, CommanderRef,
    ElementEnd, ElementRef, ForceRules, ForceShape, ForceWords, GroupRef, Purchase, PurchaseMenu,
    Reduction, RosterJson, SetupForce,
};
use crate::rules::dice::Dice;
use crate::rules::system::{BattleSide, Method, RuleSystem, Severity, SystemId};

/// The most bases a campaign's battles may be fought with, per side.
pub const MAX_BASES: u32 = 400;
/// The least: a brigade of one unit of two bases facing another.
pub const MIN_BASES: u32 = 2;

/// Experience never lifts a brigadier above 9 nor drops him below 2 (spec 3); 10 stays for a
/// man entered by hand.
pub const EXPERIENCE_MAX: u8 = 9;
pub const EXPERIENCE_MIN: u8 = 2;

crate::system_roster!(RosterDoc);

/// A campaign force's roster as the AWI document.
pub fn read(roster: &RosterJson) -> Result<Cow<'_, RosterDoc>, String> {
    roster.read_as::<RosterDoc>()
}

fn unit<'a>(doc: &'a RosterDoc, id: &str) -> Option<&'a UnitDoc> {
    doc.units()
        .map(|(_, _, u)| u)
        .find(|u| u.id.as_deref() == Some(id))
}

fn unit_mut<'a>(doc: &'a mut RosterDoc, id: &str) -> Option<&'a mut UnitDoc> {
    doc.brigades
        .iter_mut()
        .flat_map(|b| b.units.iter_mut())
        .find(|u| u.id.as_deref() == Some(id))
}

/// A unit's size as the campaign keeps it: bases, or a gun's gunners (which stand for its
/// bases, W-3).
fn strength(s: &UnitSpec) -> u32 {
    s.start_bases()
}

/// A size in words, as the campaign stores it: "6 bases", "1 base", "3 gunners".
fn size_words(n: u32, gun: bool) -> String {
    match (gun, n) {
        (true, 1) => "1 gunner".into(),
        (true, n) => format!("{n} gunners"),
        (false, 1) => "1 base".into(),
        (false, n) => format!("{n} bases"),
    }
}

/// The number a stored size starts with ("4 bases" → 4).
fn size_number(size: &str) -> Option<u32> {
    size.split_whitespace().next()?.parse().ok()
}

/// Rolls `roll` (D6+2, D6+1) on the campaign's dice.
fn roll_of(roll: Roll, dice: &mut Dice) -> u32 {
    let mut total = roll.plus;
    for _ in 0..roll.dice {
        total += dice.below(roll.sides) + 1;
    }
    total
}

/// How a unit's end reads to the campaign: routed off or gone, destroyed, routing at the end,
/// at or below half strength, or fit.
pub fn campaign_end(u: &super::battle::UnitResult) -> EndState {
    match u.state {
        AwiEnd::LeftTable => EndState::LeftTheField,
        AwiEnd::Destroyed => EndState::Shattered,
        AwiEnd::Routing => EndState::Exhausted,
        AwiEnd::Fighting if u.at_or_below_half => EndState::Shaken,
        AwiEnd::Fighting => EndState::Fit,
    }
}

/// What a battle leaves of one unit (spec 3, W-44): the unit's size after it (bases, or a
/// gun's gunners), or `None` when it is lost; and the die that decided it (0 for none).
pub fn after_battle(
    cat: &Catalogue,
    s: &UnitSpec,
    end: EndState,
    lost: u32,
    dice: &mut Dice,
) -> (Option<u32>, u8) {
    let size = strength(s);
    if s.troop_type == TroopType::Artillery {
        // A lost gun is gone; each lost gunner comes back on 4+.
        if matches!(end, EndState::Shattered) || lost >= size {
            return (None, 0);
        }
        let stay_away = (0..lost).filter(|_| dice.d6() < 4).count() as u32;
        return (Some(size - stay_away), 0);
    }
    if matches!(end, EndState::LeftTheField | EndState::Shattered) {
        let roll = dice.d6();
        return if roll <= 3 {
            (None, roll)
        } else {
            (Some((size / 2).max(1)), roll)
        };
    }
    // Half the lost figures come back (rounded down); the rest cost whole bases.
    let fpb = cat.troop(s.troop_type).figures_per_base.max(1);
    let gone = lost - lost / 2;
    (Some(size.saturating_sub(gone / fpb).max(1)), 0)
}

impl Catalogue {
    fn unit_ref(&self, u: &UnitDoc) -> ElementRef {
        let spec = u.spec();
        let (kind, size, rank) = match spec {
            Some(s) => {
                let gun = s.troop_type == TroopType::Artillery;
                let kind = match s.gun.filter(|_| gun) {
                    Some(g) => format!("{} {} gun", s.grade.id(), g.id()),
                    None => format!("{} {}", s.grade.id(), s.troop_type.label().to_lowercase()),
                };
                let n = strength(&s);
                (
                    kind,
                    size_words(n, gun),
                    u8::try_from(n.saturating_sub(1)).unwrap_or(u8::MAX),
                )
            }
            None => (u.troop_type.clone().unwrap_or_default(), String::new(), 0),
        };
        let size_label = match spec {
            Some(s) if s.troop_type != TroopType::Artillery => format!(
                "{size} ({} figures)",
                s.figures(self.troop(s.troop_type).figures_per_base)
            ),
            _ => size.clone(),
        };
        ElementRef {
            id: u.id.clone().unwrap_or_default(),
            name: if u.name.trim().is_empty() {
                spec.map_or("Unit", |s| s.troop_type.label()).to_string()
            } else {
                u.name.clone()
            },
            kind,
            size,
            size_label,
            rank,
            upgrades: match u.arms.as_deref() {
                Some("rifle") => vec!["Rifles".into()],
                _ => Vec::new(),
            },
            points: None,
        }
    }
}

impl ForceRules for Catalogue {
    fn system(&self) -> SystemId {
        SystemId::Awi
    }

    fn wars(&self) -> Vec<Choice> {
        vec![Choice {
            value: WAR.into(),
            label: "American War of Independence".into(),
        }]
    }

    // Muster's one set-up for these rules (W-32).
    fn scenarios(&self) -> Vec<Choice> {
        vec![Choice {
            value: OPEN_FIELD.into(),
            label: "An open field, 6 turns (W-32)".into(),
        }]
    }

    fn scenario_name(&self, id: &str) -> Option<String> {
        (id == OPEN_FIELD).then(|| "An open field".to_string())
    }

    fn fort_assault(&self) -> Option<String> {
        None
    }

    fn roll_scenario(&self, _: &mut Dice) -> (String, String) {
        (
            OPEN_FIELD.into(),
            "Scenario: an open field, the only set-up Muster has for the AWI rules (W-32).".into(),
        )
    }

    // Battles are sized in bases on the table: there are no points (spec 0).
    fn battle_size(&self) -> BattleSize {
        BattleSize {
            min: MIN_BASES,
            max: MAX_BASES,
            unit: "bases",
        }
    }

    fn enlistment(&self, roster: &RosterJson, war: &str, _: u32) -> Result<RosterJson, String> {
        if war != WAR {
            return Err(
                "Armies of the AWI wargames rules fight in the American War of Independence only."
                    .into(),
            );
        }
        let mut doc = read(roster)?.into_owned();
        doc.assign_ids();
        Ok(RosterJson::read(doc))
    }

    fn points(&self, _: &RosterJson) -> Option<u32> {
        None
    }

    // The bases it puts on the table (a gun is one).
    fn strength(&self, roster: &RosterJson) -> Option<u32> {
        Some(validate(self, &*read(roster).ok()?).bases)
    }

    fn problems(&self, roster: &RosterJson, size: u32, casualties_started: bool) -> Vec<String> {
        let doc = match read(roster) {
            Ok(doc) => doc,
            Err(e) => return vec![e],
        };
        let report = validate(self, &doc);
        let mut problems: Vec<String> = report
            .findings
            .into_iter()
            .filter(|f| f.severity == Severity::Error)
            .filter(|f| {
                !(casualties_started && matches!(f.code.as_str(), "empty_brigade" | "no_brigades"))
            })
            .map(|f| f.message)
            .collect();
        if report.bases > size {
            problems.push(format!(
                "The army has {} bases; this campaign's battles are fought with at most {size}.",
                report.bases
            ));
        }
        problems
    }

    fn shape(&self, roster: &RosterJson) -> Result<ForceShape, String> {
        let doc = read(roster)?;
        Ok(ForceShape {
            commander: doc.cinc.as_ref().and_then(|c| {
                c.id.clone().map(|id| CommanderRef {
                    id,
                    name: c.name.clone(),
                    group: None,
                })
            }),
            groups: doc
                .brigades
                .iter()
                .map(|b| GroupRef {
                    id: b.id.clone().unwrap_or_default(),
                    name: b.name.clone(),
                    commander: b.brigadier.as_ref().and_then(|g| {
                        g.id.clone().map(|id| CommanderRef {
                            id,
                            name: g.name.clone(),
                            group: b.id.clone(),
                        })
                    }),
                    elements: b.units.iter().map(|u| self.unit_ref(u)).collect(),
                })
                .collect(),
        })
    }

    fn size_label(&self, size: &str) -> String {
        size.to_string()
    }

    // The rules have no scouting skill; the switch that counts it is hidden.
    fn scouts(&self, _: &RosterJson) -> u32 {
        0
    }

    fn switch_label(&self, id: &str, label: &'static str) -> Option<&'static str> {
        match id {
            "persistent_casualties" => Some(
                "Losses carry over: half the lost figures come back; a unit that left the table or was destroyed is lost on a D6 of 1–3, otherwise returns at half its bases; a lost gun is gone, lost gunners return on 4+",
            ),
            "experience" => Some(
                "Brigadiers gain 1 ability on a 6 after a major victory (at most 9) and lose 1 on a 1 after a major defeat (at least 2)",
            ),
            // A killed brigadier's successor always rolls D6+1 (W-29); no points to earn; one
            // set-up; no scouts.
            "field_promotion" | "reinforcements" | "fort_assault" | "scout_bonus" => None,
            _ => Some(label),
        }
    }

    fn words(&self) -> ForceWords {
        ForceWords {
            commander_in_chief: "CinC",
            group_commander: "Brigadier",
            group: "Brigade",
            elements: "Units",
            element: "Unit",
            options: "Arms",
        }
    }

    /// A brigadier's ability, D6+2 (W-4).
    fn rate_commander(&self, dice: &mut Dice) -> (u8, String) {
        let r = u8::try_from(roll_of(self.command.ability_roll, dice)).unwrap_or(u8::MAX);
        (r, self.rating_words(r).unwrap_or_default())
    }

    fn rating_words(&self, roll: u8) -> Option<String> {
        (roll > 0).then(|| format!("ability {roll} (passes his test on a D10 of {roll} or less)"))
    }

    /// The CinC has no rating (spec 3); a brigadier whose ability the order of battle gives
    /// keeps it (W-4).
    fn given_rating(&self, roster: &RosterJson, commander: &CommanderRef) -> Option<u8> {
        if commander.group.is_none() {
            return Some(0);
        }
        let doc = read(roster).ok()?;
        let a = doc
            .brigades
            .iter()
            .filter_map(|b| b.brigadier.as_ref())
            .find(|g| g.id.as_deref() == Some(commander.id.as_str()))?
            .ability_value()?;
        u8::try_from(a).ok()
    }

    /// A new brigadier for one killed: D6+1, whatever the switch (W-29).
    fn replacement_rating(&self, dice: &mut Dice, _: bool) -> (u8, String) {
        let r = u8::try_from(roll_of(self.command.replacement_roll, dice)).unwrap_or(u8::MAX);
        (
            r,
            format!(
                "ability rolled {}: {r} (W-29)",
                self.command.replacement_roll.label()
            ),
        )
    }

    /// Spec 3: +1 on a 6 after a major victory (at most 9), −1 on a 1 after a major defeat (at
    /// least 2); the unrated CinC does not roll.
    fn experience(&self, rating: u8, won: bool, dice: &mut Dice) -> Option<(u8, u8)> {
        if rating == 0 {
            return None;
        }
        let roll = dice.d6();
        let after = match (won, roll) {
            (true, 6) if rating < EXPERIENCE_MAX => rating + 1,
            (false, 1) if rating > EXPERIENCE_MIN => rating - 1,
            _ => rating,
        };
        Some((after, roll))
    }

    // Every brigadier of the beaten army rolls (spec 3), not only its commander.
    fn defeat_tests_every_commander(&self) -> bool {
        true
    }

    fn casualty(
        &self,
        roster: &RosterJson,
        end: &ElementEnd,
        dice: &mut Dice,
    ) -> Option<(Casualty, u8)> {
        let doc = read(roster).ok()?;
        let s = unit(&doc, &end.id)?.spec()?;
        let (after, roll) = after_battle(self, &s, end.end, end.lost, dice);
        Some(match after {
            None => (Casualty::Lost, roll),
            Some(n) if n >= strength(&s) => (Casualty::Unchanged, roll),
            Some(n) => (
                Casualty::Reduced {
                    size: u8::try_from(n - 1).unwrap_or(u8::MAX),
                },
                roll,
            ),
        })
    }

    /// A unit brought down to `rank + 1` bases (a gun: gunners); never more than it has.
    fn reduce(&self, roster: &RosterJson, element: &str, rank: u8) -> Option<Reduction> {
        let doc = read(roster).ok()?;
        let s = unit(&doc, element)?.spec()?;
        let n = u32::from(rank) + 1;
        (n < strength(&s)).then(|| Reduction {
            size: size_words(n, s.troop_type == TroopType::Artillery),
            dropped: Vec::new(),
            refund: 0,
        })
    }

    fn resize(
        &self,
        roster: &mut RosterJson,
        element: &str,
        size: &str,
        _: &[String],
    ) -> Result<String, String> {
        let n = size_number(size)
            .filter(|n| *n >= 1)
            .ok_or_else(|| format!("unknown size {size}"))?;
        let doc = roster.read_mut_as::<RosterDoc>()?;
        let u = unit_mut(doc, element).ok_or_else(|| format!("no unit {element}"))?;
        let gun = u.troop() == Some(TroopType::Artillery);
        if gun {
            u.gunners = Some(n.into());
        } else {
            u.bases = Some(n.into());
        }
        Ok(size_words(n, gun))
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

    fn rename_commander(
        &self,
        roster: &mut RosterJson,
        commander: &str,
        name: &str,
    ) -> Result<(), String> {
        let doc = roster.read_mut_as::<RosterDoc>()?;
        if let Some(c) = doc
            .cinc
            .as_mut()
            .filter(|c| c.id.as_deref() == Some(commander))
        {
            c.name = name.to_string();
            return Ok(());
        }
        let g = doc
            .brigades
            .iter_mut()
            .filter_map(|b| b.brigadier.as_mut())
            .find(|g| g.id.as_deref() == Some(commander))
            .ok_or_else(|| format!("no general {commander}"))?;
        g.name = name.to_string();
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
            "The AWI wargames rules have no points, so their armies buy nothing between battles.",
        ))
    }

    /// The AWI set-up between the forces as they stand, every brigadier at the ability the
    /// campaign keeps for him (W-4); a brigade its losses left empty stays home.
    fn battle_setup(
        &self,
        attacker: SetupForce,
        defender: SetupForce,
        _: &str,
        _: u32,
        seed: u64,
    ) -> Result<BattleDoc, String> {
        let fielded = |force: SetupForce| -> Result<RosterDoc, String> {
            let mut doc = read(force.roster)?.into_owned();
            doc.brigades.retain(|b| !b.units.is_empty());
            for g in doc.brigades.iter_mut().filter_map(|b| b.brigadier.as_mut()) {
                let kept =
                    g.id.as_ref()
                        .and_then(|id| force.ratings.get(id))
                        .filter(|r| (1..=10).contains(*r));
                if let Some(r) = kept {
                    g.ability = Some(serde_json::Value::from(*r));
                }
            }
            Ok(doc)
        };
        let prepared = prepare(
            self,
            fielded(attacker)?,
            fielded(defender)?,
            Some(OPEN_FIELD),
            false,
            seed,
        )?;
        Ok(BattleDoc {
            setup: Awi::write_setup(&prepared.setup),
        })
    }

    fn battle_report(&self, result: &str) -> Result<BattleReport, String> {
        let o: Outcome =
            serde_json::from_str(result).map_err(|e| format!("unreadable battle result: {e}"))?;
        Ok(report_of(&o))
    }
}

/// What a decided battle means for the campaign: the W-31 result, each unit's end and the
/// figures it lost, and the generals killed.
pub fn report_of(o: &Outcome) -> BattleReport {
    let vp = |v: u32| u8::try_from(v).unwrap_or(u8::MAX);
    let sides = [
        (BattleSide::Attacker, &o.attacker),
        (BattleSide::Defender, &o.defender),
    ];
    BattleReport {
        result: BattleResult {
            winner: o.winner.map(|s| s.id().to_string()),
            level: match (o.winner, o.level) {
                (None, _) | (_, Level::Draw) => "tie".into(),
                (_, level) => level.id().into(),
            },
            attacker_vp: vp(o.attacker.vp),
            defender_vp: vp(o.defender.vp),
            method: match o.method {
                Method::Simulated => "simulated",
                Method::Tabletop => "tabletop",
            }
            .into(),
            engine: None,
        },
        elements: sides
            .iter()
            .flat_map(|(side, r)| {
                r.units.iter().map(|u| ElementEnd {
                    side: *side,
                    id: u.id.clone(),
                    end: campaign_end(u),
                    lost: u.figures_lost,
                    carried: None,
                })
            })
            .collect(),
        killed: sides
            .iter()
            .flat_map(|(side, r)| r.generals_killed_ids.iter().map(|g| (*side, g.clone())))
            .collect(),
    }
}
