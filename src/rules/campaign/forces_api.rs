//! The campaign engine's only window on a rule system. A force's roster travels as the system's
//! own JSON document ([`RosterJson`]); everything the engine needs to know about it (its size,
//! its elements and commanders, what a casualty or a purchase does to it, how a battle is set up
//! and what a decided one means) it asks through [`ForceRules`]. Each system implements it in
//! its own folder (`rules/systems/<id>/campaign.rs`).

use serde::{Deserialize, Serialize};

use std::collections::BTreeMap;

use super::aftermath::EndState;
use super::error::FieldProblem;
use crate::rules::dice::Dice;
use crate::rules::system::{BattleSide, SystemId};

/// A roster as its system's JSON document. Stored campaign logs hold exactly these bytes, so
/// rosters saved before the seam read back unchanged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(transparent)]
pub struct RosterJson(pub serde_json::Value);

impl RosterJson {
    /// The roster's name: every Muster roster document has a top-level `name`.
    pub fn name(&self) -> &str {
        self.0.get("name").and_then(|n| n.as_str()).unwrap_or("")
    }
}

/// An element of a force, as the campaign shows and rolls for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ElementRef {
    pub id: String,
    pub name: String,
    /// The element's type, in words.
    pub kind: String,
    /// The size as the roster stores it, and in words.
    pub size: String,
    pub size_label: String,
    /// The size's rank among those its type comes in: 0 is the smallest.
    pub rank: u8,
    /// Its upgrades, in words.
    pub upgrades: Vec<String>,
    /// What it costs, for a system with points.
    pub points: Option<u32>,
}

/// A commander of a force.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommanderRef {
    pub id: String,
    pub name: String,
    /// The group he leads; none for the force's commander-in-chief.
    pub group: Option<String>,
}

/// A group of a force: its commander and its elements.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupRef {
    pub id: String,
    pub name: String,
    pub commander: Option<CommanderRef>,
    pub elements: Vec<ElementRef>,
}

/// A whole force as the campaign sees it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ForceShape {
    pub commander: Option<CommanderRef>,
    pub groups: Vec<GroupRef>,
}

impl ForceShape {
    pub fn elements(&self) -> impl Iterator<Item = &ElementRef> {
        self.groups.iter().flat_map(|g| &g.elements)
    }

    pub fn element(&self, id: &str) -> Option<&ElementRef> {
        self.elements().find(|e| e.id == id)
    }

    /// Every commander: the force's first, then the groups' in order.
    pub fn commanders(&self) -> impl Iterator<Item = &CommanderRef> {
        self.commander
            .iter()
            .chain(self.groups.iter().filter_map(|g| g.commander.as_ref()))
    }
}

/// What a casualty does to an element reduced to a smaller size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reduction {
    /// The new size as the roster stores it.
    pub size: String,
    /// Upgrades the new size cannot carry, by id.
    pub dropped: Vec<String>,
    /// What the dropped upgrades were worth.
    pub refund: u32,
}

/// Something a player buys for a force between battles. Fields are as the form sends them;
/// the system reads them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Purchase {
    /// One size back for a reduced element.
    Restore {
        element: String,
    },
    Upgrade {
        element: String,
        upgrade: String,
    },
    Element {
        group: String,
        name: String,
        element_type: String,
        size: String,
        weapon: Option<String>,
    },
}

/// A purchase as the system makes it: the roster it leads to, what it is in words, and the
/// element it concerns.
#[derive(Debug, Clone, PartialEq)]
pub struct Bought {
    pub roster: RosterJson,
    pub what: String,
    /// The element restored or upgraded, for its history.
    pub element: Option<String>,
    /// A new element: its id and the full size it joins at.
    pub joined: Option<(String, String)>,
}

/// A choice on a form: the value sent and its words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    pub value: String,
    pub label: String,
}

/// What a force can buy: the forms' choices.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PurchaseMenu {
    pub upgrades: Vec<Choice>,
    pub element_types: Vec<Choice>,
    pub sizes: Vec<Choice>,
}

/// How a battle ended, as the campaign needs it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleResult {
    /// `attacker`, `defender`, or none for a tie.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<String>,
    /// The victory level id (`major`, `minor`, `marginal`, `tie`).
    pub level: String,
    pub attacker_vp: u8,
    pub defender_vp: u8,
    /// `simulated` or `tabletop`.
    pub method: String,
    /// The engine that fought a simulated battle.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
}

/// How one element ended a battle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ElementEnd {
    pub side: BattleSide,
    pub id: String,
    pub end: EndState,
}

/// A fought battle as the campaign needs it, from the simulator or a tabletop report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleReport {
    pub result: BattleResult,
    pub elements: Vec<ElementEnd>,
    /// Commanders killed or captured, by side and id.
    pub killed: Vec<(BattleSide, String)>,
}

/// One side of a campaign battle: the force's roster as it stands and its commanders' rolled
/// ratings.
#[derive(Debug, Clone, Copy)]
pub struct SetupForce<'a> {
    pub roster: &'a RosterJson,
    pub ratings: &'a BTreeMap<String, u8>,
}

/// A campaign battle set up as the system's battle document, to fight or record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BattleDoc {
    pub setup: String,
}

/// The campaign engine's only window on a rule system.
pub trait ForceRules: Sync {
    fn system(&self) -> SystemId;

    // The campaign's settings.
    /// The wars the system's forces fight, as (id, words).
    fn wars(&self) -> Vec<Choice>;
    /// The scenarios an organiser may fix for every battle, as (id, words).
    fn scenarios(&self) -> Vec<Choice>;
    /// A scenario's name; `None` for an id the system does not know.
    fn scenario_name(&self, id: &str) -> Option<String>;
    /// The scenario every attack on a fort is fought as, when the system has one.
    fn fort_assault(&self) -> Option<String>;
    /// Rolls the scenario for a battle: its id and the roll in words.
    fn roll_scenario(&self, dice: &mut Dice) -> (String, String);

    // A force.
    /// Reads a roster to enlist: refuses one of another war, gives every part an id and sets
    /// the campaign's battle size on it.
    fn enlistment(&self, roster: &RosterJson, war: &str, points: u32)
        -> Result<RosterJson, String>;
    /// The force's size in the system's own measure; `None` for a system without points, which
    /// turns reinforcements and purchases off.
    fn points(&self, roster: &RosterJson) -> Option<u32>;
    /// What makes the force illegal at the battle size, in words. Once casualties have
    /// started, too few groups or elements are no longer errors (campaign rules v1).
    fn problems(&self, roster: &RosterJson, size: u32, casualties_started: bool) -> Vec<String>;
    /// The force's commanders, groups and elements; an error for a document the system
    /// cannot read.
    fn shape(&self, roster: &RosterJson) -> Result<ForceShape, String>;
    /// A size as the roster stores it, in words.
    fn size_label(&self, size: &str) -> String;
    /// Elements with the Scout skill, for the roll for the attack.
    fn scouts(&self, roster: &RosterJson) -> u32;
    /// A commander's rating roll and its band in words.
    fn rate_commander(&self, dice: &mut Dice) -> (u8, String);
    /// A rating roll's band in words.
    fn rating_words(&self, roll: u8) -> Option<String>;

    // What a battle does to a force.
    /// Element `element` reduced to the size of rank `rank`; `None` if it has no such size.
    fn reduce(&self, roster: &RosterJson, element: &str, rank: u8) -> Option<Reduction>;
    /// Applies a stored reduction; the new size in words.
    fn resize(
        &self,
        roster: &mut RosterJson,
        element: &str,
        size: &str,
        dropped: &[String],
    ) -> Result<String, String>;
    /// Takes an element off the force; its name.
    fn remove_element(&self, roster: &mut RosterJson, element: &str) -> Result<String, String>;
    /// A new man in a commander's post.
    fn rename_commander(
        &self,
        roster: &mut RosterJson,
        commander: &str,
        name: &str,
    ) -> Result<(), String>;

    // Purchases.
    /// What the force could buy, for the forms.
    fn purchase_menu(&self) -> PurchaseMenu;
    /// The roster after a purchase, before it is priced and checked. `full_size` is the size
    /// the element joined at (a restore goes no higher); `id_taken` says which element ids
    /// were ever used, so a new element never reuses a lost one's history.
    fn buy(
        &self,
        roster: &RosterJson,
        purchase: &Purchase,
        full_size: Option<&str>,
        id_taken: &dyn Fn(&str) -> bool,
    ) -> Result<Bought, FieldProblem>;

    // Battles.
    /// Sets up a campaign battle between the forces as they stand.
    fn battle_setup(
        &self,
        attacker: SetupForce,
        defender: SetupForce,
        scenario: &str,
        points: u32,
        seed: u64,
    ) -> Result<BattleDoc, String>;
    /// What a decided battle (the system's stored result) means for the campaign.
    fn battle_report(&self, result: &str) -> Result<BattleReport, String>;
}
