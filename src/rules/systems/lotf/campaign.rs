//! Land of the Free in a campaign: its catalogue answers the campaign engine's questions
//! ([`ForceRules`]) about a force kept as a `muster.lotf.roster/1` document.

use std::any::Any;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

use super::battle::{CommanderState, ScenarioId};
use super::record::{scouts, CommanderFate, FinalState};
use super::roster::{ElementDoc, RosterDoc, MAX_TEXT_CHARS};
use super::types::{ElementType, Size, Upgrade, War, Weapon};
use super::validate::{
    price_element, price_roster, sizes_for, validate_caps_on, FindingCode, Severity,
};
use super::{BattleSetup, Catalogue, DisciplineLevel, Outcome, Side};
use crate::rules::campaign::aftermath::EndState;
use crate::rules::campaign::error::FieldProblem;
use crate::rules::campaign::forces_api::{
    move_between, BattleDoc, BattleReport, BattleResult, Bought, Choice, CommanderRef, ElementEnd,
    ElementRef, ForceRules, ForceShape, GroupRef, Purchase, PurchaseMenu, Reduction, RosterJson,
    SetupForce, SystemRoster,
};
use crate::rules::dice::Dice;
use crate::rules::system::{BattleSide, SystemId};

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

/// A campaign force's roster as Land of the Free's document.
pub fn read(roster: &RosterJson) -> Result<Cow<'_, RosterDoc>, String> {
    match roster.typed::<RosterDoc>() {
        Some(doc) => Ok(Cow::Borrowed(doc)),
        None => serde_json::from_str(&roster.text())
            .map(Cow::Owned)
            .map_err(|e| format!("unreadable roster: {e}")),
    }
}

/// The roster's document to change in place, read once.
fn read_mut(roster: &mut RosterJson) -> Result<&mut RosterDoc, String> {
    if roster.typed::<RosterDoc>().is_none() {
        *roster = RosterJson::read(read(roster)?.into_owned());
    }
    roster
        .typed_mut::<RosterDoc>()
        .ok_or_else(|| "unreadable roster".to_string())
}

fn write(doc: &RosterDoc) -> Result<RosterJson, String> {
    Ok(RosterJson::read(doc.clone()))
}

fn element_mut<'a>(doc: &'a mut RosterDoc, id: &str) -> Option<&'a mut ElementDoc> {
    doc.groups
        .iter_mut()
        .flat_map(|g| g.elements.iter_mut())
        .find(|e| e.id.as_deref() == Some(id))
}

fn no_element() -> FieldProblem {
    FieldProblem::new("element", "There is no such element in the force.")
}

fn choice(value: &str, label: impl Into<String>) -> Choice {
    Choice {
        value: value.to_string(),
        label: label.into(),
    }
}

fn battle_side(s: Side) -> BattleSide {
    match s {
        Side::Attacker => BattleSide::Attacker,
        Side::Defender => BattleSide::Defender,
    }
}

fn end_of(level: DisciplineLevel) -> EndState {
    match level {
        DisciplineLevel::Fit => EndState::Fit,
        DisciplineLevel::Shaken => EndState::Shaken,
        DisciplineLevel::Exhausted => EndState::Exhausted,
        DisciplineLevel::Shattered => EndState::Shattered,
    }
}

fn winner_id(s: Option<Side>) -> Option<String> {
    s.map(|s| battle_side(s).id().to_string())
}

impl Catalogue {
    fn scenario_label(&self, s: ScenarioId) -> String {
        self.tables()
            .scenarios
            .iter()
            .find(|x| x.id == s.id())
            .map(|x| x.name.clone())
            .unwrap_or_else(|| s.id().into())
    }

    fn element_ref(&self, e: &ElementDoc) -> ElementRef {
        let rank = sizes_for(self, e.element_type)
            .iter()
            .position(|s| *s == e.size)
            .unwrap_or(0);
        ElementRef {
            id: e.id.clone().unwrap_or_default(),
            name: e.name.clone(),
            kind: e.element_type.label().into(),
            size: e.size.id().into(),
            size_label: e.size.label().into(),
            rank: u8::try_from(rank).unwrap_or(u8::MAX),
            upgrades: e.upgrades.iter().map(|u| u.label().to_string()).collect(),
            points: Some(price_element(self, e)),
        }
    }

    /// Upgrades an element cannot carry at a smaller size, and the points they were worth.
    fn drop_upgrades(&self, e: &ElementDoc, new_size: Size) -> (Vec<String>, u32) {
        let mut dropped = Vec::new();
        let mut kept = e.clone();
        kept.size = new_size;
        let before = price_element(self, &kept);
        kept.upgrades.retain(|u| {
            let ok = self
                .upgrade(*u)
                .and_then(|d| d.sizes.as_ref())
                .is_none_or(|sizes| sizes.contains(&new_size));
            if !ok {
                dropped.push(u.id().to_string());
            }
            ok
        });
        let after = price_element(self, &kept);
        (dropped, before.saturating_sub(after))
    }

    /// A campaign force's errors at the battle size: once casualties have started, too few
    /// groups or elements are no longer errors (campaign rules v1), and the R-6 caps are judged
    /// on at least `raised` elements, lost ones included (M-96).
    fn campaign_problems(
        &self,
        roster: &RosterJson,
        size: u32,
        casualties_started: bool,
        raised: usize,
    ) -> Vec<String> {
        let mut doc = match read(roster) {
            Ok(doc) => doc.into_owned(),
            Err(e) => return vec![e],
        };
        doc.points_limit = Some(size);
        validate_caps_on(self, &doc, raised)
            .findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
            .filter(|f| {
                !(casualties_started
                    && matches!(
                        f.code,
                        FindingCode::TooFewGroups | FindingCode::TooFewElements
                    ))
            })
            .map(|f| f.message.clone())
            .collect()
    }

    fn restore(
        &self,
        mut doc: RosterDoc,
        element: &str,
        full_size: Option<&str>,
    ) -> Result<Bought, FieldProblem> {
        let e = element_mut(&mut doc, element).ok_or_else(no_element)?;
        let full = full_size.and_then(Size::from_id).unwrap_or(e.size);
        if e.size >= full {
            return Err(FieldProblem::new(
                "element",
                format!("{} is already at full size.", e.name),
            ));
        }
        let next = sizes_for(self, e.element_type)
            .iter()
            .copied()
            .find(|s| *s > e.size)
            .ok_or_else(|| FieldProblem::new("element", "That element cannot grow."))?;
        e.size = next;
        let what = format!("Restored {} to {}", e.name, next.label());
        Ok(Bought {
            roster: write(&doc).map_err(|e| FieldProblem::new("roster", e))?,
            what,
            element: Some(element.to_string()),
            joined: None,
        })
    }

    fn add_upgrade(
        &self,
        mut doc: RosterDoc,
        element: &str,
        upgrade: &str,
    ) -> Result<Bought, FieldProblem> {
        let upgrade = Upgrade::from_id(upgrade)
            .ok_or_else(|| FieldProblem::new("upgrade", "Choose an upgrade from the list."))?;
        let e = element_mut(&mut doc, element).ok_or_else(no_element)?;
        if e.upgrades.contains(&upgrade) {
            return Err(FieldProblem::new(
                "upgrade",
                format!("{} already has that upgrade.", e.name),
            ));
        }
        e.upgrades.push(upgrade);
        let name = self
            .upgrade(upgrade)
            .map_or(upgrade.label().to_string(), |u| u.name.clone());
        let what = format!("{name} for {}", e.name);
        Ok(Bought {
            roster: write(&doc).map_err(|e| FieldProblem::new("roster", e))?,
            what,
            element: Some(element.to_string()),
            joined: None,
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn add_element(
        &self,
        mut doc: RosterDoc,
        group: &str,
        name: &str,
        element_type: &str,
        size: &str,
        weapon: Option<&str>,
        id_taken: &dyn Fn(&str) -> bool,
    ) -> Result<Bought, FieldProblem> {
        let element_type = ElementType::from_id(element_type)
            .ok_or_else(|| FieldProblem::new("type", "Choose an element type from the list."))?;
        let size = Size::from_id(size)
            .ok_or_else(|| FieldProblem::new("size", "Choose a size from the list."))?;
        let weapon = match weapon.filter(|w| !w.is_empty()) {
            Some(w) => Some(
                Weapon::from_id(w)
                    .ok_or_else(|| FieldProblem::new("weapon", "Choose a weapon from the list."))?,
            ),
            None => None,
        };
        let name = name.trim();
        if name.chars().count() > MAX_TEXT_CHARS {
            return Err(FieldProblem::new(
                "name",
                format!("A name is at most {MAX_TEXT_CHARS} characters."),
            ));
        }
        let name = if name.is_empty() {
            format!("New {}", element_type.label())
        } else {
            name.to_string()
        };
        let g = doc
            .groups
            .iter_mut()
            .find(|g| g.id.as_deref() == Some(group))
            .ok_or_else(|| FieldProblem::new("group", "There is no such group in the force."))?;
        let mut e = ElementDoc::new(&name, element_type, size);
        e.weapon = weapon;
        g.elements.push(e);
        doc.assign_missing_ids();
        let last = |doc: &mut RosterDoc| {
            doc.groups
                .iter_mut()
                .find(|g| g.id.as_deref() == Some(group))
                .and_then(|g| g.elements.last_mut())
                .map(|e| e.id.get_or_insert_with(String::new).clone())
        };
        let mut id = last(&mut doc).unwrap_or_default();
        // History ids are never reused: an id an element lost earlier used gets a new one.
        if id_taken(&id) {
            let in_roster = |doc: &RosterDoc, c: &str| {
                doc.groups
                    .iter()
                    .flat_map(|g| &g.elements)
                    .any(|e| e.id.as_deref() == Some(c))
            };
            if let Some(fresh) = (1..)
                .map(|n| format!("e{n}"))
                .find(|c| !id_taken(c) && !in_roster(&doc, c))
            {
                if let Some(e) = doc
                    .groups
                    .iter_mut()
                    .find(|g| g.id.as_deref() == Some(group))
                    .and_then(|g| g.elements.last_mut())
                {
                    e.id = Some(fresh.clone());
                }
                id = fresh;
            }
        }
        Ok(Bought {
            roster: write(&doc).map_err(|e| FieldProblem::new("roster", e))?,
            what: format!("{name}, {} {}", size.label(), element_type.label()),
            element: None,
            joined: Some((id, size.id().to_string())),
        })
    }
}

impl ForceRules for Catalogue {
    fn system(&self) -> SystemId {
        SystemId::Lotf
    }

    fn wars(&self) -> Vec<Choice> {
        War::ALL.iter().map(|w| choice(w.id(), w.label())).collect()
    }

    fn scenarios(&self) -> Vec<Choice> {
        ScenarioId::ALL
            .iter()
            .map(|s| choice(s.id(), self.scenario_label(*s)))
            .collect()
    }

    fn scenario_name(&self, id: &str) -> Option<String> {
        ScenarioId::from_id(id).map(|s| self.scenario_label(s))
    }

    fn fort_assault(&self) -> Option<String> {
        Some(ScenarioId::FrontalAssault.id().into())
    }

    fn roll_scenario(&self, dice: &mut Dice) -> (String, String) {
        let roll = dice.two_d6();
        let found = self
            .scenario_for_roll(roll)
            .and_then(|s| ScenarioId::from_id(&s.id))
            .unwrap_or(ScenarioId::TakeTheField);
        (
            found.id().into(),
            format!(
                "Scenario: 2d6 rolled {roll}, {}.",
                self.scenario_label(found)
            ),
        )
    }

    // M-104: who fought with whom, by war; Native Confederation contingents fought on both
    // sides of every war here, so they are never warned about.
    fn allegiance_warning(
        &self,
        roster: &RosterJson,
        war: &str,
        side_name: &str,
    ) -> Option<String> {
        use super::types::Nation;
        let doc = read(roster).ok()?;
        let camp = crate::rules::campaign::forces_api::camps_named(side_name)?;
        let war = War::from_id(war)?;
        let allowed: &[&str] = match (war, doc.nation) {
            (_, Nation::NativeConfederation) => return None,
            (War::FrenchIndianWar, Nation::French) => &["french"],
            (War::FrenchIndianWar, _) => &["crown"],
            (War::AmericanRevolution, Nation::American | Nation::French) => &["american", "french"],
            (_, Nation::British | Nation::Hessian) => &["crown"],
            (_, Nation::American) => &["american"],
            (_, Nation::French) => &["french", "american"],
        };
        if allowed.contains(&camp) {
            return None;
        }
        Some(format!(
            "This roster is {}, and {} forces did not fight for {side_name} in the {}.",
            doc.nation.label(),
            doc.nation.label(),
            war.label()
        ))
    }

    fn enlistment(
        &self,
        roster: &RosterJson,
        war: &str,
        points: u32,
    ) -> Result<RosterJson, String> {
        let mut doc = read(roster)?.into_owned();
        if doc.war.id() != war {
            let war = War::from_id(war).map_or(war.to_string(), |w| w.label().into());
            return Err(format!(
                "This campaign is fought in the {war}; the roster is for the {}.",
                doc.war.label()
            ));
        }
        doc.assign_missing_ids();
        doc.points_limit = Some(points);
        write(&doc)
    }

    fn points(&self, roster: &RosterJson) -> Option<u32> {
        read(roster).ok().map(|doc| price_roster(self, &doc).total)
    }

    fn problems(&self, roster: &RosterJson, size: u32, casualties_started: bool) -> Vec<String> {
        self.campaign_problems(roster, size, casualties_started, 0)
    }

    fn problems_in_campaign(&self, roster: &RosterJson, size: u32, raised: usize) -> Vec<String> {
        self.campaign_problems(roster, size, true, raised)
    }

    fn shape(&self, roster: &RosterJson) -> Result<ForceShape, String> {
        let doc = read(roster)?;
        let commander = |c: &super::CommanderDoc, group: Option<String>| {
            c.id.clone().map(|id| CommanderRef {
                id,
                name: c.name.clone(),
                group,
            })
        };
        Ok(ForceShape {
            commander: doc
                .force_commander
                .as_ref()
                .and_then(|c| commander(c, None)),
            groups: doc
                .groups
                .iter()
                .map(|g| GroupRef {
                    id: g.id.clone().unwrap_or_default(),
                    name: g.name.clone(),
                    commander: g
                        .commander
                        .as_ref()
                        .and_then(|c| commander(c, g.id.clone())),
                    elements: g.elements.iter().map(|e| self.element_ref(e)).collect(),
                })
                .collect(),
        })
    }

    fn element_sizes(&self, roster: &RosterJson) -> Result<Vec<(String, String)>, String> {
        Ok(read(roster)?
            .groups
            .iter()
            .flat_map(|g| &g.elements)
            .filter_map(|e| e.id.clone().map(|id| (id, e.size.id().to_string())))
            .collect())
    }

    fn size_label(&self, size: &str) -> String {
        Size::from_id(size).map_or(size.to_string(), |s| s.label().into())
    }

    fn scouts(&self, roster: &RosterJson) -> u32 {
        read(roster).map_or(0, |doc| {
            u32::try_from(scouts(self, &doc)).unwrap_or(u32::MAX)
        })
    }

    fn rate_commander(&self, dice: &mut Dice) -> (u8, String) {
        let roll = dice.d6();
        (roll, self.rating_words(roll).unwrap_or_default())
    }

    fn rating_words(&self, roll: u8) -> Option<String> {
        self.commander_rating_for_roll(roll).map(|r| r.name.clone())
    }

    fn reduce(&self, roster: &RosterJson, element: &str, rank: u8) -> Option<Reduction> {
        let doc = read(roster).ok()?;
        let e = doc
            .groups
            .iter()
            .flat_map(|g| &g.elements)
            .find(|e| e.id.as_deref() == Some(element))?;
        let size = *sizes_for(self, e.element_type).get(usize::from(rank))?;
        let (dropped, refund) = self.drop_upgrades(e, size);
        Some(Reduction {
            size: size.id().into(),
            dropped,
            refund,
        })
    }

    fn resize(
        &self,
        roster: &mut RosterJson,
        element: &str,
        size: &str,
        dropped: &[String],
    ) -> Result<String, String> {
        let size = Size::from_id(size).ok_or_else(|| format!("unknown size {size}"))?;
        let e = element_mut(read_mut(roster)?, element)
            .ok_or_else(|| format!("no element {element}"))?;
        e.size = size;
        e.upgrades.retain(|u| !dropped.iter().any(|d| d == u.id()));
        Ok(size.label().into())
    }

    fn remove_element(&self, roster: &mut RosterJson, element: &str) -> Result<String, String> {
        let doc = read_mut(roster)?;
        let name = doc
            .groups
            .iter()
            .flat_map(|g| &g.elements)
            .find(|e| e.id.as_deref() == Some(element))
            .map(|e| e.name.clone())
            .ok_or_else(|| format!("no element {element}"))?;
        for g in &mut doc.groups {
            g.elements.retain(|e| e.id.as_deref() != Some(element));
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
        let slot = doc
            .force_commander
            .iter_mut()
            .chain(doc.groups.iter_mut().filter_map(|g| g.commander.as_mut()))
            .find(|c| c.id.as_deref() == Some(commander))
            .ok_or_else(|| format!("no commander {commander}"))?;
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
            &mut doc.groups,
            |g| g.id.as_deref(),
            |g| &mut g.elements,
            |e| e.id.as_deref(),
            element,
            group,
            ("group", "element"),
        )?;
        write(&doc).map_err(|e| FieldProblem::new("roster", e))
    }

    fn purchase_menu(&self) -> PurchaseMenu {
        PurchaseMenu {
            upgrades: Upgrade::ALL
                .iter()
                .map(|u| {
                    choice(
                        u.id(),
                        self.upgrade(*u).map_or(u.label().to_string(), |d| {
                            // Which types may take it, so a player does not pick one for an
                            // element that cannot carry it.
                            if d.types.len() >= ElementType::ALL.len() {
                                format!("{} ({:+} points)", d.name, d.points)
                            } else {
                                let types: Vec<String> =
                                    d.types.iter().map(|t| t.label().to_lowercase()).collect();
                                format!(
                                    "{} ({:+} points; {} only)",
                                    d.name,
                                    d.points,
                                    types.join(" or ")
                                )
                            }
                        }),
                    )
                })
                .collect(),
            element_types: ElementType::ALL
                .iter()
                .map(|t| choice(t.id(), t.label()))
                .collect(),
            sizes: Size::ALL
                .iter()
                .map(|s| choice(s.id(), s.label()))
                .collect(),
        }
    }

    fn buy(
        &self,
        roster: &RosterJson,
        purchase: &Purchase,
        full_size: Option<&str>,
        id_taken: &dyn Fn(&str) -> bool,
    ) -> Result<Bought, FieldProblem> {
        let doc = read(roster)
            .map_err(|e| FieldProblem::new("roster", e))?
            .into_owned();
        match purchase {
            Purchase::Restore { element } => self.restore(doc, element, full_size),
            Purchase::Upgrade { element, upgrade } => self.add_upgrade(doc, element, upgrade),
            Purchase::Element {
                group,
                name,
                element_type,
                size,
                weapon,
            } => self.add_element(
                doc,
                group,
                name,
                element_type,
                size,
                weapon.as_deref(),
                id_taken,
            ),
        }
    }

    fn battle_setup(
        &self,
        attacker: SetupForce,
        defender: SetupForce,
        scenario: &str,
        points: u32,
        seed: u64,
    ) -> Result<BattleDoc, String> {
        let scenario = ScenarioId::from_id(scenario).unwrap_or(ScenarioId::TakeTheField);
        let mut setup = BattleSetup::new(
            read(attacker.roster)?.into_owned(),
            read(defender.roster)?.into_owned(),
            scenario,
            seed,
        );
        setup.points = Some(points);
        for (side, f) in [
            (&mut setup.attacker, attacker),
            (&mut setup.defender, defender),
        ] {
            // A group that losses or a reorganisation left empty takes no part: on the table
            // it would count as an unbroken group for R-23 (M-102). Its commander stays home.
            side.roster.groups.retain(|g| !g.elements.is_empty());
            let present: Vec<String> = side
                .roster
                .force_commander
                .iter()
                .chain(
                    side.roster
                        .groups
                        .iter()
                        .filter_map(|g| g.commander.as_ref()),
                )
                .filter_map(|c| c.id.clone())
                .collect();
            side.commanders = f
                .ratings
                .iter()
                .filter(|(id, _)| present.contains(id))
                .map(|(id, r)| (id.clone(), CommanderState { rating_roll: *r }))
                .collect::<BTreeMap<_, _>>();
        }
        setup.check().map_err(|e| e.to_string())?;
        Ok(BattleDoc {
            setup: super::serialize_battle(&setup),
        })
    }

    fn battle_report(&self, result: &str) -> Result<BattleReport, String> {
        let stored: Outcome =
            serde_json::from_str(result).map_err(|e| format!("unreadable battle result: {e}"))?;
        Ok(report_of(&stored))
    }
}

/// What a decided battle means for the campaign.
fn report_of(stored: &Outcome) -> BattleReport {
    match stored {
        Outcome::Simulated { outcome } => BattleReport {
            result: BattleResult {
                winner: winner_id(outcome.winner),
                level: outcome.victory_level.id().into(),
                attacker_vp: outcome.attacker_vp,
                defender_vp: outcome.defender_vp,
                method: "simulated".into(),
                engine: Some(outcome.engine_version.clone()),
            },
            elements: outcome
                .elements
                .iter()
                .map(|e| ElementEnd {
                    lost: 0,
                    side: battle_side(e.side),
                    id: e.id.clone(),
                    carried: None,
                    end: if e.never_arrived {
                        EndState::Fit
                    } else if e.left_the_field || e.removed {
                        EndState::LeftTheField
                    } else {
                        end_of(e.discipline_level)
                    },
                })
                .collect(),
            killed: outcome
                .commanders
                .iter()
                .filter(|c| c.killed)
                .map(|c| (battle_side(c.side), c.id.clone()))
                .collect(),
        },
        Outcome::Tabletop { report, outcome } => BattleReport {
            result: BattleResult {
                winner: winner_id(outcome.victory.winner),
                level: outcome.victory.level.id().into(),
                attacker_vp: outcome.victory.attacker_vp,
                defender_vp: outcome.victory.defender_vp,
                method: "tabletop".into(),
                engine: None,
            },
            elements: report
                .elements
                .iter()
                .map(|e| ElementEnd {
                    lost: 0,
                    side: battle_side(e.side),
                    id: e.id.clone(),
                    carried: None,
                    end: match e.state {
                        FinalState::Fit => EndState::Fit,
                        FinalState::Shaken => EndState::Shaken,
                        FinalState::Exhausted => EndState::Exhausted,
                        FinalState::Shattered => EndState::Shattered,
                        FinalState::LeftTheField => EndState::LeftTheField,
                    },
                })
                .collect(),
            killed: report
                .commanders
                .iter()
                .filter(|c| matches!(c.fate, CommanderFate::Killed | CommanderFate::Captured))
                .map(|c| (battle_side(c.side), c.id.clone()))
                .collect(),
        },
    }
}
