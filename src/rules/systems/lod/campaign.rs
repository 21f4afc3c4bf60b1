//! *Liberty or Death!* in a campaign: its catalogue answers the campaign engine's questions
//! ([`ForceRules`]) about a force kept as a `muster.lod.roster/1` document. The source has no
//! campaign rules; these are Muster's (spec 3.4, "Muster campaign rules"): BROKEN or routed-off
//! units are lost on a D6 of 1–3 or come back one size smaller, SHAKEN units shrink on 1–2,
//! hits never carry over, fallen Generals are replaced, and the Continental list's units may
//! climb its two experience ladders. Battle size is counted in units: there are no points.

use std::any::Any;
use std::borrow::Cow;
use std::sync::Arc;

use super::battle::{EndState as LodEnd, Outcome, OPEN_FIELD};
use super::catalogue::Catalogue;
use super::record::prepare;
use super::roster::{RosterDoc, UnitDoc};
use super::types::{ArmyList, Band, SpecialRule};
use super::validate::{units as unit_views, validate, Setting};
use super::Lod;
use crate::rules::campaign::aftermath::EndState;
use crate::rules::campaign::error::FieldProblem;
use crate::rules::campaign::forces_api::{
    move_between, BattleDoc, BattleReport, BattleResult, BattleSize, Bought, Choice, CommanderRef,
    ElementEnd, ElementRef, ForceRules, ForceShape, ForceWords, GroupRef, Promotion, Purchase,
    PurchaseMenu, Reduction, RosterJson, SetupForce, SystemRoster,
};
use crate::rules::dice::Dice;
use crate::rules::system::{BattleSide, Method, RuleSystem, Severity, SystemId};

pub use super::roster::WAR;

/// The most units a campaign's battles may be fought with.
pub const MAX_UNITS: u32 = 60;

impl SystemRoster for RosterDoc {
    fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }

    fn clone_roster(&self) -> Arc<dyn SystemRoster> {
        Arc::new(self.clone())
    }
}

/// A campaign force's roster as Liberty or Death!'s document.
pub fn read(roster: &RosterJson) -> Result<Cow<'_, RosterDoc>, String> {
    match roster.typed::<RosterDoc>() {
        Some(doc) => Ok(Cow::Borrowed(doc)),
        None => serde_json::from_str(&roster.text())
            .map(Cow::Owned)
            .map_err(|e| format!("unreadable roster: {e}")),
    }
}

fn read_mut(roster: &mut RosterJson) -> Result<&mut RosterDoc, String> {
    if roster.typed::<RosterDoc>().is_none() {
        *roster = RosterJson::read(read(roster)?.into_owned());
    }
    roster
        .typed_mut::<RosterDoc>()
        .ok_or_else(|| "unreadable roster".to_string())
}

fn unit_mut<'a>(doc: &'a mut RosterDoc, id: &str) -> Option<&'a mut UnitDoc> {
    doc.brigades
        .iter_mut()
        .flat_map(|b| b.units.iter_mut())
        .find(|u| u.id.as_deref() == Some(id))
}

fn choice(value: &str, label: impl Into<String>) -> Choice {
    Choice {
        value: value.to_string(),
        label: label.into(),
    }
}

/// How a unit's end state reads to the campaign's casualty rolls (3.4): BROKEN and routed off
/// roll to be lost, SHAKEN rolls to shrink (the engine's "exhausted"), WORN and STEADY roll
/// nothing.
pub fn campaign_end(end: LodEnd) -> EndState {
    match end {
        LodEnd::Steady => EndState::Fit,
        LodEnd::Worn => EndState::Shaken,
        LodEnd::Shaken => EndState::Exhausted,
        LodEnd::Broken => EndState::Shattered,
        LodEnd::RoutedOff => EndState::LeftTheField,
    }
}

/// The Continental list's experience ladders (3.4, L-66), each entry's next step up.
const LADDERS: &[(&str, &str)] = &[
    ("green_militia_regiment", "militia_regiment"),
    ("militia_regiment", "experienced_militia_regiment"),
    ("green_continental_regiment", "continental_regiment"),
    ("continental_regiment", "experienced_infantry_regiment"),
];

/// A unit's next step on a ladder: the entry it becomes and its bases (bases above the new
/// entry's largest option drop to it). Only Continental entries climb.
pub fn ladder_step(cat: &Catalogue, doc: &RosterDoc, unit: &UnitDoc) -> Option<(String, u32)> {
    if ArmyList::from_id(&doc.army_list) != Some(ArmyList::Continental) {
        return None;
    }
    let id = unit
        .entry
        .strip_prefix("continental.")
        .unwrap_or(&unit.entry);
    let next = LADDERS.iter().find(|(from, _)| *from == id)?.1;
    let (_, entry) = cat.find_entry(ArmyList::Continental, next)?;
    let largest = entry.bases.iter().copied().max()?;
    Some((next.to_string(), unit.bases.min(largest)))
}

impl Catalogue {
    fn unit_ref(&self, army: Option<ArmyList>, unit: &UnitDoc) -> ElementRef {
        let found = army.and_then(|a| self.find_entry(a, &unit.entry));
        let fielded = unit
            .bases
            .saturating_sub(u32::from(unit.grenadiers_detached));
        let (kind, rank, name) = match found {
            Some((_, e)) => (
                format!("{} {}", e.quality.label(), e.kind.label()),
                self.kind(e.kind)
                    .sizes
                    .iter()
                    .position(|r| r.bases == fielded)
                    .unwrap_or(0),
                e.name.clone(),
            ),
            None => (unit.entry.clone(), 0, unit.entry.clone()),
        };
        ElementRef {
            id: unit.id.clone().unwrap_or_default(),
            name: if unit.name.trim().is_empty() {
                name
            } else {
                unit.name.clone()
            },
            kind,
            size: unit.bases.to_string(),
            // The bases it fields (one fewer with its grenadiers detached, L-50) and its values.
            size_label: match found.and_then(|(_, e)| self.size(e.kind, fielded)) {
                Some(row) => format!(
                    "{} ({}/{}/{})",
                    self.bases_label(&fielded.to_string()),
                    row.worn,
                    row.shaken,
                    row.auto_broken
                ),
                None => self.bases_label(&unit.bases.to_string()),
            },
            rank: u8::try_from(rank).unwrap_or(u8::MAX),
            upgrades: if unit.grenadiers_detached {
                vec!["Grenadiers Detached".into()]
            } else {
                Vec::new()
            },
            points: None,
        }
    }

    fn bases_label(&self, size: &str) -> String {
        match size.parse::<u32>() {
            Ok(1) => "1 base".into(),
            Ok(n) => format!("{n} bases"),
            Err(_) => size.to_string(),
        }
    }
}

impl ForceRules for Catalogue {
    fn system(&self) -> SystemId {
        SystemId::Lod
    }

    fn wars(&self) -> Vec<Choice> {
        vec![choice(WAR, "American War of Independence")]
    }

    fn scenarios(&self) -> Vec<Choice> {
        vec![choice(OPEN_FIELD, "An open field (L-48)")]
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
            "Scenario: an open field, the only one Liberty or Death! has in Muster.".into(),
        )
    }

    // Battles are sized in units, with nothing to buy (L-63).
    fn battle_size(&self) -> BattleSize {
        BattleSize {
            min: 2,
            max: MAX_UNITS,
            unit: "units",
        }
    }

    fn rated_commanders(&self) -> bool {
        false
    }

    // M-104: the British and Hessian lists fought for the Crown, the Continental list against it.
    fn allegiance_warning(&self, roster: &RosterJson, _: &str, side_name: &str) -> Option<String> {
        let doc = read(roster).ok()?;
        let camp = crate::rules::campaign::forces_api::camps_named(side_name)?;
        let (allowed, label): (&[&str], &str) = match doc.army_list.as_str() {
            "british" => (&["crown"], "British"),
            "hessian" => (&["crown"], "Hessian"),
            "continental" => (&["american", "french"], "Continental"),
            _ => return None,
        };
        if allowed.contains(&camp) {
            return None;
        }
        Some(format!(
            "This army is of the {label} list, which did not fight for {side_name}."
        ))
    }

    fn enlistment(&self, roster: &RosterJson, war: &str, _: u32) -> Result<RosterJson, String> {
        let mut doc = read(roster)?.into_owned();
        if war != WAR {
            return Err(
                "Liberty or Death! armies fight in the American War of Independence only.".into(),
            );
        }
        doc.assign_ids();
        Ok(RosterJson::read(doc))
    }

    fn points(&self, _: &RosterJson) -> Option<u32> {
        None
    }

    fn problems(&self, roster: &RosterJson, size: u32, casualties_started: bool) -> Vec<String> {
        let doc = match read(roster) {
            Ok(doc) => doc,
            Err(e) => return vec![e],
        };
        let mut problems: Vec<String> = validate(self, &doc, Setting::Campaign)
            .findings
            .into_iter()
            .filter(|f| f.severity == Severity::Error)
            .filter(|f| {
                !(casualties_started && matches!(f.code.as_str(), "empty_brigade" | "no_brigades"))
            })
            .map(|f| f.message)
            .collect();
        let units = doc.unit_count() as u32;
        if units > size {
            problems.push(format!(
                "The army has {units} units; this campaign's battles are fought with at most {size}."
            ));
        }
        problems
    }

    fn shape(&self, roster: &RosterJson) -> Result<ForceShape, String> {
        let doc = read(roster)?;
        let army = ArmyList::from_id(&doc.army_list);
        Ok(ForceShape {
            commander: doc.c_in_c.id.clone().map(|id| CommanderRef {
                id,
                name: doc.c_in_c.name.clone(),
                group: None,
            }),
            groups: doc
                .brigades
                .iter()
                .map(|b| GroupRef {
                    id: b.id.clone().unwrap_or_default(),
                    name: b.name.clone(),
                    commander: b.general.as_ref().and_then(|g| {
                        g.id.clone().map(|id| CommanderRef {
                            id,
                            name: g.name.clone(),
                            group: b.id.clone(),
                        })
                    }),
                    elements: b.units.iter().map(|u| self.unit_ref(army, u)).collect(),
                })
                .collect(),
        })
    }

    fn element_sizes(&self, roster: &RosterJson) -> Result<Vec<(String, String)>, String> {
        Ok(read(roster)?
            .units()
            .filter_map(|(_, _, u)| u.id.clone().map(|id| (id, u.bases.to_string())))
            .collect())
    }

    fn size_label(&self, size: &str) -> String {
        self.bases_label(size)
    }

    fn scouts(&self, roster: &RosterJson) -> u32 {
        read(roster).map_or(0, |doc| {
            unit_views(self, &doc)
                .iter()
                .filter(|v| {
                    v.profile
                        .as_ref()
                        .is_some_and(|p| p.has(SpecialRule::Scouts))
                })
                .count() as u32
        })
    }

    fn switch_label(&self, id: &str, label: &'static str) -> Option<&'static str> {
        match id {
            "field_promotion" => Some("Killed Generals are replaced by a new General (no rating to roll)"),
            "experience" => Some(
                "After a minor or major victory, Continental units may climb their experience ladder (a 6 on a D6)",
            ),
            "scout_bonus" => Some("More SCOUTS units give +1 in the roll for the attack"),
            // No points to earn, and every battle is on the open field.
            "reinforcements" | "fort_assault" => None,
            _ => Some(label),
        }
    }

    fn words(&self) -> ForceWords {
        ForceWords {
            commander_in_chief: "C-in-C",
            group_commander: "General",
            group: "Brigade",
            elements: "Units",
            element: "Unit",
            options: "Options",
        }
    }

    fn rate_commander(&self, _: &mut Dice) -> (u8, String) {
        (0, "Generals have no rating".into())
    }

    fn rating_words(&self, _: u8) -> Option<String> {
        None
    }

    /// One size smaller is the kind's next smaller row of the Unit Sizes table (3.4), whatever
    /// the entry offers; a unit with its grenadiers detached keeps them detached (L-64).
    fn reduce(&self, roster: &RosterJson, element: &str, rank: u8) -> Option<Reduction> {
        let doc = read(roster).ok()?;
        let army = ArmyList::from_id(&doc.army_list)?;
        let unit = doc
            .units()
            .map(|(_, _, u)| u)
            .find(|u| u.id.as_deref() == Some(element))?;
        let (_, entry) = self.find_entry(army, &unit.entry)?;
        let row = self.kind(entry.kind).sizes.get(usize::from(rank))?;
        Some(Reduction {
            size: (row.bases + u32::from(unit.grenadiers_detached)).to_string(),
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
        let bases: u32 = size.parse().map_err(|_| format!("unknown size {size}"))?;
        let unit =
            unit_mut(read_mut(roster)?, element).ok_or_else(|| format!("no unit {element}"))?;
        unit.bases = bases;
        Ok(self.bases_label(size))
    }

    fn remove_element(&self, roster: &mut RosterJson, element: &str) -> Result<String, String> {
        let doc = read_mut(roster)?;
        let army = ArmyList::from_id(&doc.army_list);
        let name = doc
            .units()
            .map(|(_, _, u)| u)
            .find(|u| u.id.as_deref() == Some(element))
            .map(|u| self.unit_ref(army, u).name)
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
        let doc = read_mut(roster)?;
        let slot = std::iter::once(&mut doc.c_in_c)
            .chain(doc.brigades.iter_mut().filter_map(|b| b.general.as_mut()))
            .find(|c| c.id.as_deref() == Some(commander))
            .ok_or_else(|| format!("no General {commander}"))?;
        slot.name = name.to_string();
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
            "Liberty or Death! has no points, so its forces buy nothing between battles.",
        ))
    }

    /// After a minor or major victory, each surviving Continental unit on a ladder that ended
    /// STEADY or WORN moves up one step on a D6 of 6 (3.4).
    fn unit_experience(
        &self,
        roster: &RosterJson,
        report: &BattleReport,
        side: BattleSide,
        dice: &mut Dice,
    ) -> Vec<Promotion> {
        let Ok(doc) = read(roster) else {
            return Vec::new();
        };
        let won = report.result.winner.as_deref() == Some(side.id())
            && matches!(report.result.level.as_str(), "minor" | "major");
        if !won {
            return Vec::new();
        }
        let mut out = Vec::new();
        for el in report.elements.iter().filter(|e| e.side == side) {
            if !matches!(el.end, EndState::Fit | EndState::Shaken) {
                continue;
            }
            let Some(unit) = doc
                .units()
                .map(|(_, _, u)| u)
                .find(|u| u.id.as_deref() == Some(el.id.as_str()))
            else {
                continue;
            };
            let Some((entry, bases)) = ladder_step(self, &doc, unit) else {
                continue;
            };
            let roll = dice.d6();
            out.push(Promotion {
                element: el.id.clone(),
                to: (roll == 6).then(|| format!("{entry}:{bases}")),
                roll,
            });
        }
        out
    }

    fn promote(&self, roster: &mut RosterJson, element: &str, to: &str) -> Result<String, String> {
        let (entry, bases) = to
            .split_once(':')
            .and_then(|(e, b)| Some((e, b.parse::<u32>().ok()?)))
            .ok_or_else(|| format!("unreadable promotion {to}"))?;
        let name = self
            .find_entry(ArmyList::Continental, entry)
            .map_or(entry.to_string(), |(_, e)| e.name.clone());
        let unit =
            unit_mut(read_mut(roster)?, element).ok_or_else(|| format!("no unit {element}"))?;
        unit.entry = entry.to_string();
        unit.bases = bases;
        Ok(format!("{name}, {}", self.bases_label(&bases.to_string())))
    }

    fn battle_setup(
        &self,
        attacker: SetupForce,
        defender: SetupForce,
        _: &str,
        _: u32,
        seed: u64,
    ) -> Result<BattleDoc, String> {
        // A brigade that losses or a reorganisation left empty stays home: on the table it
        // would still bring its Command Point (M-102).
        let fielded = |roster: &RosterJson| -> Result<RosterDoc, String> {
            let mut doc = read(roster)?.into_owned();
            doc.brigades.retain(|b| !b.units.is_empty());
            Ok(doc)
        };
        let prepared = prepare(
            self,
            fielded(attacker.roster)?,
            fielded(defender.roster)?,
            Some(OPEN_FIELD),
            false,
            seed,
        )?;
        Ok(BattleDoc {
            setup: Lod::write_setup(&prepared.setup),
        })
    }

    fn battle_report(&self, result: &str) -> Result<BattleReport, String> {
        let o: Outcome =
            serde_json::from_str(result).map_err(|e| format!("unreadable battle result: {e}"))?;
        Ok(report_of(&o))
    }
}

/// What a decided battle means for the campaign.
pub fn report_of(o: &Outcome) -> BattleReport {
    let vp = |v: u32| u8::try_from(v).unwrap_or(u8::MAX);
    let sides = [
        (BattleSide::Attacker, &o.attacker),
        (BattleSide::Defender, &o.defender),
    ];
    BattleReport {
        result: BattleResult {
            winner: o.winner.map(|s| s.id().to_string()),
            level: match (o.winner, o.band) {
                (None, _) | (_, Band::Draw) => "tie".into(),
                (_, band) => band.id().into(),
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
                    lost: 0,
                    side: *side,
                    id: u.unit.clone(),
                    carried: None,
                    end: campaign_end(u.end),
                })
            })
            .collect(),
        killed: sides
            .iter()
            .flat_map(|(side, r)| r.generals_killed.iter().map(|g| (*side, g.clone())))
            .collect(),
    }
}
