//! *All the King's Men* in a campaign: its catalogue answers the campaign engine's questions
//! ([`ForceRules`]) about an army kept as a `muster.atkm.roster/1` document. The book has no
//! campaign rules; the spec (section 3, "Campaign persistence") proposes what carries over, and
//! Muster's rulings K-51 to K-53 settle it: every unit's rank and file, officer and ensign come
//! out of a battle as the battle left them (no casualty roll), a unit that collapsed is gone (a
//! battery with its gun), generals keep the rating their roster gives them, and a winner's units
//! may rise a quality step. Battle size is counted in units: there are no points.

use std::any::Any;
use std::borrow::Cow;
use std::sync::Arc;

use super::battle::{prepare, Outcome, OPEN_BATTLE};
use super::catalogue::Catalogue;
use super::roster::{RosterDoc, UnitDoc};
use super::system::Atkm;
use super::types::{AdvancedRule, Period, Quality, Role};
use super::validate::{profile, validate};
use crate::rules::campaign::aftermath::EndState;
use crate::rules::campaign::error::FieldProblem;
use crate::rules::campaign::forces_api::{
    BattleDoc, BattleReport, BattleResult, BattleSize, Bought, Carried, Choice, CommanderRef,
    ElementEnd, ElementRef, ForceRules, ForceShape, ForceWords, GroupRef, Promotion, Purchase,
    PurchaseMenu, Reduction, RosterJson, SetupForce, SystemRoster,
};
use crate::rules::dice::Dice;
use crate::rules::system::{BattleSide, Method, RuleSystem, Severity, SystemId};

/// The most units a campaign's battles may be fought with (K-52).
pub const MAX_UNITS: u32 = 60;

/// The campaign wars and the roster periods each takes (K-52). A `generic` army takes the
/// period of the war it enlists in.
const WARS: &[(&str, &str, &[Period])] = &[
    (
        "french_indian_war",
        "French and Indian War (and the Seven Years' War)",
        &[Period::Fiw, Period::Sywar],
    ),
    ("american_revolution", "American Revolution", &[Period::Awi]),
    ("war_of_1812", "War of 1812", &[Period::WarOf1812]),
];

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

/// A campaign force's roster as All the King's Men's document.
pub fn read(roster: &RosterJson) -> Result<Cow<'_, RosterDoc>, String> {
    match roster.typed::<RosterDoc>() {
        Some(doc) => Ok(Cow::Borrowed(doc)),
        None => super::roster::parse_roster(&roster.text())
            .map(Cow::Owned)
            .map_err(|e| format!("unreadable roster: {}", e.message)),
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
    doc.units.iter_mut().find(|u| u.id.as_deref() == Some(id))
}

fn choice(value: &str, label: impl Into<String>) -> Choice {
    Choice {
        value: value.to_string(),
        label: label.into(),
    }
}

/// A unit's strength as a campaign stores it: rank and file, then `+O` with its officer and
/// `+E` with its ensign ("9+O+E", "11+O": colours taken).
pub fn size_code(rank_and_file: u32, officer: bool, ensign: bool) -> String {
    format!(
        "{rank_and_file}{}{}",
        if officer { "+O" } else { "" },
        if ensign { "+E" } else { "" }
    )
}

/// Reads [`size_code`]: rank and file, officer, ensign.
pub fn read_size(code: &str) -> Option<(u32, bool, bool)> {
    let mut parts = code.split('+');
    let rank_and_file = parts.next()?.trim().parse().ok()?;
    let (mut officer, mut ensign) = (false, false);
    for p in parts {
        match p {
            "O" if !officer => officer = true,
            "E" if !ensign => ensign = true,
            _ => return None,
        }
    }
    Some((rank_and_file, officer, ensign))
}

/// A strength in words: "9 rank and file, officer and ensign".
fn size_words(code: &str) -> String {
    match read_size(code) {
        Some((n, officer, ensign)) => format!(
            "{n} rank and file, {}",
            match (officer, ensign) {
                (true, true) => "officer and ensign",
                (true, false) => "officer, no ensign (colours taken)",
                (false, true) => "ensign, no officer",
                (false, false) => "no officer or ensign",
            }
        ),
        None => code.to_string(),
    }
}

/// How a unit ended its battle, for the campaign: collapsed is gone (K-51); the rest stand at
/// what the battle left, told apart only for the pages.
fn campaign_end(u: &super::battle::UnitResult) -> EndState {
    if u.collapsed {
        EndState::Shattered
    } else if u.left_table {
        EndState::LeftTheField
    } else if u.rank_and_file_end < u.rank_and_file_start || u.officer_lost || u.ensign_lost {
        EndState::Shaken
    } else {
        EndState::Fit
    }
}

impl Catalogue {
    fn unit_ref(&self, unit: &UnitDoc) -> ElementRef {
        let id = unit.id.clone().unwrap_or_default();
        let Some(p) = profile(self, unit) else {
            return ElementRef {
                id,
                name: unit.name.clone(),
                kind: unit.unit_type.clone(),
                size: String::new(),
                size_label: String::new(),
                rank: 0,
                upgrades: Vec::new(),
                points: None,
            };
        };
        let kind = match p.quality {
            Quality::Regular => p.unit_type.label().to_string(),
            q => format!("{} {}", q.label(), p.unit_type.label().to_lowercase()),
        };
        let size = size_code(p.rank_and_file, p.officer, p.ensign);
        ElementRef {
            id,
            name: if unit.name.trim().is_empty() {
                p.unit_type.label().to_string()
            } else {
                unit.name.clone()
            },
            kind,
            size_label: size_words(&size),
            size,
            // Rank 0 is the least it stands at: one above its break point.
            rank: u8::try_from(p.rank_and_file.saturating_sub(p.break_point + 1))
                .unwrap_or(u8::MAX),
            upgrades: p
                .gun
                .map(|g| vec![format!("{} gun", g.label())])
                .unwrap_or_default(),
            points: None,
        }
    }
}

/// The war a campaign war id names, with the periods it takes.
fn war(id: &str) -> Option<&'static (&'static str, &'static str, &'static [Period])> {
    WARS.iter().find(|(w, _, _)| *w == id)
}

impl ForceRules for Catalogue {
    fn system(&self) -> SystemId {
        SystemId::Atkm
    }

    fn wars(&self) -> Vec<Choice> {
        WARS.iter()
            .map(|(id, label, _)| choice(id, *label))
            .collect()
    }

    // K-52: every campaign battle is an open battle. Cowpens' victory rule is the open
    // battle's (K-41 = K-16 with K-14's nightfall); Monmouth and North Point belong to their
    // own armies and sides.
    fn scenarios(&self) -> Vec<Choice> {
        vec![choice(
            OPEN_BATTLE,
            "An open battle: army collapse decides, or nightfall after turn 24 (K-14, K-16)",
        )]
    }

    fn scenario_name(&self, id: &str) -> Option<String> {
        (id == OPEN_BATTLE).then(|| "An open battle".to_string())
    }

    fn fort_assault(&self) -> Option<String> {
        None
    }

    fn roll_scenario(&self, _: &mut Dice) -> (String, String) {
        (
            OPEN_BATTLE.into(),
            "Scenario: an open battle, as every All the King's Men campaign battle is (K-52)."
                .into(),
        )
    }

    fn battle_size(&self) -> BattleSize {
        BattleSize {
            min: 2,
            max: MAX_UNITS,
            unit: "units",
        }
    }

    // K-52: a general keeps the rating his roster gives him; the campaign rolls none.
    fn rated_commanders(&self) -> bool {
        false
    }

    fn enlistment(&self, roster: &RosterJson, war_id: &str, _: u32) -> Result<RosterJson, String> {
        let mut doc = read(roster)?.into_owned();
        let (_, label, periods) =
            war(war_id).ok_or_else(|| format!("'{war_id}' is not a war of this game."))?;
        match Period::from_id(&doc.period) {
            Some(Period::Generic) => doc.period = periods[0].id().to_string(),
            Some(p) if periods.contains(&p) => {}
            p => {
                return Err(format!(
                    "This army is raised for the {}; this campaign is fought in the {label}.",
                    p.map_or(doc.period.as_str(), |p| p.label())
                ))
            }
        }
        doc.assign_ids();
        doc.carried_losses = false;
        Ok(RosterJson::read(doc))
    }

    fn points(&self, _: &RosterJson) -> Option<u32> {
        None
    }

    /// The roster's errors (losses carried from earlier battles are not errors once casualties
    /// have started, K-51), and more units than the battle size.
    fn problems(&self, roster: &RosterJson, size: u32, casualties_started: bool) -> Vec<String> {
        let mut doc = match read(roster) {
            Ok(doc) => doc.into_owned(),
            Err(e) => return vec![e],
        };
        doc.carried_losses = casualties_started;
        let mut problems: Vec<String> = validate(self, &doc)
            .findings
            .into_iter()
            .filter(|f| f.severity == Severity::Error)
            .filter(|f| !(casualties_started && f.code == "no_units"))
            .map(|f| f.message)
            .collect();
        let units = u32::try_from(doc.units.len()).unwrap_or(u32::MAX);
        if units > size {
            problems.push(format!(
                "The army has {units} units; this campaign's battles are fought with at most {size}."
            ));
        }
        problems
    }

    /// The Commanding General leads the force; each general's personal command is a group,
    /// led by him (the Commanding General's own group names him as its leader only once, as
    /// the force's commander).
    fn shape(&self, roster: &RosterJson) -> Result<ForceShape, String> {
        let doc = read(roster)?;
        let commanding = doc
            .generals
            .iter()
            .find(|g| Role::from_id(&g.role) == Some(Role::Commanding))
            .or_else(|| doc.generals.first());
        let cg_id = commanding.and_then(|g| g.id.clone());
        let known = |id: &Option<String>| {
            doc.generals
                .iter()
                .any(|g| g.id.is_some() && g.id.as_ref() == id.as_ref())
        };
        let groups = doc
            .generals
            .iter()
            .filter_map(|g| {
                let id = g.id.clone()?;
                let is_cg = Some(&id) == cg_id.as_ref();
                Some(GroupRef {
                    name: if g.name.trim().is_empty() {
                        String::new()
                    } else {
                        format!("{}'s command", g.name)
                    },
                    commander: (!is_cg).then(|| CommanderRef {
                        id: id.clone(),
                        name: g.name.clone(),
                        group: Some(id.clone()),
                    }),
                    // Units of no known general stand with the Commanding General.
                    elements: doc
                        .units
                        .iter()
                        .filter(|u| {
                            u.general.as_ref() == Some(&id) || (is_cg && !known(&u.general.clone()))
                        })
                        .map(|u| self.unit_ref(u))
                        .collect(),
                    id,
                })
            })
            .collect();
        Ok(ForceShape {
            commander: commanding.and_then(|g| {
                Some(CommanderRef {
                    id: g.id.clone()?,
                    name: g.name.clone(),
                    group: None,
                })
            }),
            groups,
        })
    }

    fn element_sizes(&self, roster: &RosterJson) -> Result<Vec<(String, String)>, String> {
        let doc = read(roster)?;
        Ok(doc
            .units
            .iter()
            .filter_map(|u| {
                let p = profile(self, u)?;
                Some((
                    u.id.clone()?,
                    size_code(p.rank_and_file, p.officer, p.ensign),
                ))
            })
            .collect())
    }

    fn size_label(&self, size: &str) -> String {
        size_words(size)
    }

    fn scouts(&self, _: &RosterJson) -> u32 {
        0
    }

    fn switch_label(&self, id: &str, label: &'static str) -> Option<&'static str> {
        match id {
            "persistent_casualties" => Some(
                "Figures, officers and ensigns lost carry over from battle to battle; a unit that collapsed is gone, a battery with its gun (K-51)",
            ),
            "experience" => Some(
                "After a victory, each of the winner's units that stood rises one quality step on a 6: militia, regular, elite (K-53)",
            ),
            // Generals cannot fall in this game and are not rated by the campaign (K-52); no
            // points, no forts, no scouts.
            "field_promotion" | "reinforcements" | "fort_assault" | "scout_bonus" => None,
            _ => Some(label),
        }
    }

    fn words(&self) -> ForceWords {
        ForceWords {
            commander_in_chief: "Commanding General",
            group_commander: "Lieutenant General",
            group: "Command",
            elements: "Units",
            element: "Unit",
            options: "Guns",
        }
    }

    fn rate_commander(&self, _: &mut Dice) -> (u8, String) {
        (0, "Generals keep the rating of their roster".into())
    }

    fn rating_words(&self, _: u8) -> Option<String> {
        None
    }

    /// Rank `rank` is that many rank and file above the break point; the officer and ensign
    /// stay as they are. Only smaller than the unit is now.
    fn reduce(&self, roster: &RosterJson, element: &str, rank: u8) -> Option<Reduction> {
        let doc = read(roster).ok()?;
        let unit = doc
            .units
            .iter()
            .find(|u| u.id.as_deref() == Some(element))?;
        let p = profile(self, unit)?;
        let rank_and_file = p.break_point + 1 + u32::from(rank);
        (rank_and_file < p.rank_and_file).then(|| Reduction {
            size: size_code(rank_and_file, p.officer, p.ensign),
            dropped: Vec::new(),
            refund: 0,
        })
    }

    /// Sets a unit's strength; its break point stays what it was (K-51), written down so that
    /// a war party's half-strength does not follow it down.
    fn resize(
        &self,
        roster: &mut RosterJson,
        element: &str,
        size: &str,
        _: &[String],
    ) -> Result<String, String> {
        let (rank_and_file, officer, ensign) =
            read_size(size).ok_or_else(|| format!("unknown strength {size}"))?;
        let unit =
            unit_mut(read_mut(roster)?, element).ok_or_else(|| format!("no unit {element}"))?;
        let break_point = profile(self, unit)
            .map(|p| p.break_point)
            .ok_or_else(|| format!("unit {element} is of no known type"))?;
        unit.break_point = Some(break_point);
        unit.rank_and_file = Some(rank_and_file);
        unit.officer = officer;
        unit.ensign = ensign;
        Ok(size_words(size))
    }

    fn remove_element(&self, roster: &mut RosterJson, element: &str) -> Result<String, String> {
        let doc = read_mut(roster)?;
        let at = doc
            .units
            .iter()
            .position(|u| u.id.as_deref() == Some(element))
            .ok_or_else(|| format!("no unit {element}"))?;
        let name = self.unit_ref(&doc.units[at]).name;
        doc.units.remove(at);
        Ok(name)
    }

    fn rename_commander(
        &self,
        roster: &mut RosterJson,
        commander: &str,
        name: &str,
    ) -> Result<(), String> {
        let g = read_mut(roster)?
            .generals
            .iter_mut()
            .find(|g| g.id.as_deref() == Some(commander))
            .ok_or_else(|| format!("no general {commander}"))?;
        g.name = name.to_string();
        Ok(())
    }

    /// A unit passes into another general's personal command.
    fn move_element(
        &self,
        roster: &RosterJson,
        element: &str,
        group: &str,
    ) -> Result<RosterJson, FieldProblem> {
        let mut doc = read(roster)
            .map_err(|e| FieldProblem::new("roster", e))?
            .into_owned();
        if !doc.generals.iter().any(|g| g.id.as_deref() == Some(group)) {
            return Err(FieldProblem::new(
                "group",
                "There is no such command in the force.",
            ));
        }
        let from = self
            .shape(roster)
            .map_err(|e| FieldProblem::new("roster", e))?
            .groups
            .into_iter()
            .find(|g| g.elements.iter().any(|e| e.id == element))
            .map(|g| g.id);
        let unit = unit_mut(&mut doc, element)
            .ok_or_else(|| FieldProblem::new("element", "There is no such unit in the force."))?;
        if from.as_deref() == Some(group) {
            return Err(FieldProblem::new(
                "group",
                "That unit is in that command already.",
            ));
        }
        unit.general = Some(group.to_string());
        // The unit goes to the end of its new command, as a move between groups does.
        if let Some(at) = doc
            .units
            .iter()
            .position(|u| u.id.as_deref() == Some(element))
        {
            let moved = doc.units.remove(at);
            doc.units.push(moved);
        }
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
            "All the King's Men has no points, so its armies buy nothing between battles.",
        ))
    }

    /// K-53: after a victory (any level), each unit of the winner that did not collapse rolls
    /// a d6 and on a 6 rises one quality step (militia to regular, regular to elite).
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
        if report.result.winner.as_deref() != Some(side.id()) {
            return Vec::new();
        }
        let mut out = Vec::new();
        for el in report.elements.iter().filter(|e| e.side == side) {
            if el.carried == Some(Carried::Lost) || el.end == EndState::Shattered {
                continue;
            }
            let Some(p) = doc
                .units
                .iter()
                .find(|u| u.id.as_deref() == Some(el.id.as_str()))
                .and_then(|u| profile(self, u))
            else {
                continue;
            };
            let next = match p.quality {
                Quality::Militia => Quality::Regular,
                Quality::Regular => Quality::Elite,
                Quality::Elite => continue,
            };
            let roll = dice.d6();
            out.push(Promotion {
                element: el.id.clone(),
                to: (roll == 6).then(|| next.id().to_string()),
                roll,
            });
        }
        out
    }

    /// A new quality; the army takes up the optional rule 'elite and militia units' if it had
    /// not, since quality is read only under it (spec 1.3).
    fn promote(&self, roster: &mut RosterJson, element: &str, to: &str) -> Result<String, String> {
        let quality = Quality::from_id(to).ok_or_else(|| format!("unknown quality {to}"))?;
        let doc = read_mut(roster)?;
        if !doc.uses(AdvancedRule::EliteMilitia) {
            doc.advanced_rules
                .push(AdvancedRule::EliteMilitia.id().to_string());
        }
        let unit = unit_mut(doc, element).ok_or_else(|| format!("no unit {element}"))?;
        unit.quality = Some(quality.id().to_string());
        // The book's own word no longer fits a promoted unit.
        unit.label = None;
        Ok(format!(
            "{} ({})",
            quality.label(),
            self.unit_ref(unit).name
        ))
    }

    fn battle_setup(
        &self,
        attacker: SetupForce,
        defender: SetupForce,
        _: &str,
        _: u32,
        seed: u64,
    ) -> Result<BattleDoc, String> {
        // The armies as the campaign keeps them (K-51), with no sample battle's side or
        // scenario to swap them: the campaign decided who attacks.
        let fielded = |roster: &RosterJson| -> Result<RosterDoc, String> {
            let mut doc = read(roster)?.into_owned();
            doc.carried_losses = true;
            doc.scenario = None;
            doc.side = None;
            Ok(doc)
        };
        let prepared = prepare(
            self,
            fielded(attacker.roster)?,
            fielded(defender.roster)?,
            Some(OPEN_BATTLE),
            false,
            seed,
        )?;
        Ok(BattleDoc {
            setup: Atkm::write_setup(&prepared.setup),
        })
    }

    fn battle_report(&self, result: &str) -> Result<BattleReport, String> {
        let o: Outcome =
            serde_json::from_str(result).map_err(|e| format!("unreadable battle result: {e}"))?;
        Ok(report_of(&o))
    }
}

/// The campaign's word for a result's level (K-53): "major", "clear", "minor" victories and
/// ties.
fn level_word(level: &str) -> &'static str {
    match level {
        "major" => "major",
        "victory" => "clear",
        "minor" => "minor",
        _ => "tie",
    }
}

/// Victory points (K-53): each side scores one for every enemy unit that collapsed; the winner
/// adds 3 for a major victory, 2 for a victory and 1 for a minor one.
fn victory_points(o: &Outcome, side: BattleSide) -> u8 {
    let enemy = o.side(match side {
        BattleSide::Attacker => BattleSide::Defender,
        BattleSide::Defender => BattleSide::Attacker,
    });
    let broken = enemy.units.iter().filter(|u| u.collapsed).count();
    let bonus = if o.winner == Some(side) {
        match o.level.as_str() {
            "major" => 3,
            "victory" => 2,
            "minor" => 1,
            _ => 0,
        }
    } else {
        0
    };
    u8::try_from(broken + bonus).unwrap_or(u8::MAX)
}

/// What a decided battle means for the campaign: the result, and each unit as the battle left
/// it (K-51).
pub fn report_of(o: &Outcome) -> BattleReport {
    let sides = [
        (BattleSide::Attacker, &o.attacker),
        (BattleSide::Defender, &o.defender),
    ];
    BattleReport {
        result: BattleResult {
            winner: o.winner.map(|s| s.id().to_string()),
            level: if o.winner.is_none() {
                "tie".into()
            } else {
                level_word(&o.level).into()
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
            .flat_map(|(side, r)| {
                r.units.iter().map(|u| ElementEnd {
                    side: *side,
                    id: u.id.clone(),
                    end: campaign_end(u),
                    lost: 0,
                    // A collapsed unit is gone, a battery with its gun; the rest carry their
                    // rank and file, officer and ensign as they ended.
                    carried: Some(if u.collapsed || u.gun_lost {
                        Carried::Lost
                    } else {
                        Carried::Size(size_code(
                            u.rank_and_file_end,
                            !u.officer_lost,
                            !u.ensign_lost,
                        ))
                    }),
                })
            })
            .collect(),
        killed: Vec::new(),
    }
}
