//! The campaign engine's only window on a rule system. A force's roster travels as the system's
//! own JSON document ([`RosterJson`]); everything the engine needs to know about it (its size,
//! its elements and commanders, what a casualty or a purchase does to it, how a battle is set up
//! and what a decided one means) it asks through [`ForceRules`]. Each system implements it in
//! its own folder (`rules/systems/<id>/campaign.rs`).

use serde::{Deserialize, Serialize};

use std::any::Any;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use serde_json::value::RawValue;

use super::aftermath::{
    band_of_roll, experience_roll, promotion_rating, roll_of_band, Casualty, EndState,
};
use super::error::FieldProblem;
use crate::rules::dice::Dice;
use crate::rules::system::{BattleSide, SystemId};

/// What a system keeps of a roster it has read: its own typed form, written back as its JSON.
pub trait SystemRoster: Any + Send + Sync + fmt::Debug {
    fn to_json(&self) -> String;
    /// The name the player gave the force.
    fn name(&self) -> &str;
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
    fn clone_roster(&self) -> Arc<dyn SystemRoster>;
}

/// Implements [`SystemRoster`] for a system's roster document with a `name` field, written
/// back as its compact JSON.
#[macro_export]
macro_rules! system_roster {
    ($doc:ty) => {
        impl $crate::rules::campaign::forces_api::SystemRoster for $doc {
            fn to_json(&self) -> String {
                serde_json::to_string(self).unwrap_or_default()
            }
            fn name(&self) -> &str {
                &self.name
            }
            fn as_any(&self) -> &dyn std::any::Any {
                self
            }
            fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
                self
            }
            fn clone_roster(
                &self,
            ) -> std::sync::Arc<dyn $crate::rules::campaign::forces_api::SystemRoster> {
                std::sync::Arc::new(self.clone())
            }
        }
    };
}

#[derive(Clone)]
enum Repr {
    /// The stored text, untouched: reading a campaign's state only copies it.
    Text(Arc<RawValue>),
    /// The system's typed form, once it has read or changed the roster.
    Read(Arc<dyn SystemRoster>),
}

/// A roster as its system's JSON document. Stored campaign logs hold exactly these bytes, so
/// rosters saved before the seam read back unchanged. The text is kept as it was read, and
/// the system's typed form once the system has read it, so that reading a stored campaign and
/// replaying its log cost no more than when the engine knew one system's types.
#[derive(Clone)]
pub struct RosterJson(Repr);

impl RosterJson {
    /// A roster from its JSON.
    pub fn from_value(value: &serde_json::Value) -> Self {
        Self::from_text(value.to_string()).unwrap_or_else(|_| Self::empty())
    }

    /// A roster from its JSON text; refused when the text is not JSON.
    pub fn from_text(text: String) -> Result<Self, String> {
        RawValue::from_string(text)
            .map(|raw| RosterJson(Repr::Text(Arc::from(raw))))
            .map_err(|e| e.to_string())
    }

    /// A roster its system has read.
    pub fn read(roster: impl SystemRoster) -> Self {
        RosterJson(Repr::Read(Arc::new(roster)))
    }

    fn empty() -> Self {
        RosterJson(Repr::Text(Arc::from(
            RawValue::from_string("{}".into()).expect("{} is JSON"),
        )))
    }

    /// The document's JSON text.
    pub fn text(&self) -> Cow<'_, str> {
        match &self.0 {
            Repr::Text(raw) => Cow::Borrowed(raw.get()),
            Repr::Read(r) => Cow::Owned(r.to_json()),
        }
    }

    pub fn to_value(&self) -> serde_json::Value {
        serde_json::from_str(&self.text()).unwrap_or_default()
    }

    /// The roster's name: every Muster roster document has a top-level `name`.
    pub fn name(&self) -> String {
        #[derive(Deserialize)]
        struct Named {
            #[serde(default)]
            name: String,
        }
        match &self.0 {
            Repr::Text(raw) => serde_json::from_str::<Named>(raw.get())
                .map(|n| n.name)
                .unwrap_or_default(),
            Repr::Read(r) => r.name().to_string(),
        }
    }

    /// The system's typed form, if it has read the roster as a `T`.
    pub fn typed<T: 'static>(&self) -> Option<&T> {
        match &self.0 {
            Repr::Read(r) => r.as_any().downcast_ref(),
            Repr::Text(_) => None,
        }
    }

    /// The roster as a system's document `T`: the typed form when the system has read it,
    /// else parsed from the text.
    pub fn read_as<T>(&self) -> Result<Cow<'_, T>, String>
    where
        T: Clone + serde::de::DeserializeOwned + 'static,
    {
        match self.typed::<T>() {
            Some(doc) => Ok(Cow::Borrowed(doc)),
            None => serde_json::from_str(&self.text())
                .map(Cow::Owned)
                .map_err(|e| format!("unreadable roster: {e}")),
        }
    }

    /// The roster as a system's document `T` to change in place, read first if need be.
    pub fn read_mut_as<T>(&mut self) -> Result<&mut T, String>
    where
        T: SystemRoster + Clone + serde::de::DeserializeOwned,
    {
        if self.typed::<T>().is_none() {
            *self = RosterJson::read(self.read_as::<T>()?.into_owned());
        }
        self.typed_mut::<T>()
            .ok_or_else(|| "unreadable roster".to_string())
    }

    /// The typed form to change in place (copied first if another roster shares it).
    pub fn typed_mut<T: 'static>(&mut self) -> Option<&mut T> {
        let Repr::Read(r) = &mut self.0 else {
            return None;
        };
        if Arc::get_mut(r).is_none() {
            *r = r.clone_roster();
        }
        Arc::get_mut(r)?.as_any_mut().downcast_mut()
    }
}

impl Serialize for RosterJson {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match &self.0 {
            Repr::Text(raw) => raw.serialize(s),
            Repr::Read(r) => RawValue::from_string(r.to_json())
                .map_err(serde::ser::Error::custom)?
                .serialize(s),
        }
    }
}

/// Reads any JSON value: works through every serde path (log entries are internally tagged, so
/// serde buffers them first).
impl<'de> Deserialize<'de> for RosterJson {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        serde_json::Value::deserialize(d).map(|v| RosterJson::from_value(&v))
    }
}

/// Reads a roster by copying its text, for documents serde_json parses directly (a stored
/// campaign's state, read on every request): the text is kept, not parsed into values.
pub fn roster_text<'de, D: serde::Deserializer<'de>>(d: D) -> Result<RosterJson, D::Error> {
    let raw = Box::<RawValue>::deserialize(d)?;
    Ok(RosterJson(Repr::Text(Arc::from(raw))))
}

/// Two rosters are equal when their documents are.
impl PartialEq for RosterJson {
    fn eq(&self, other: &Self) -> bool {
        self.to_value() == other.to_value()
    }
}

impl fmt::Debug for RosterJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
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

/// The words a system uses for the parts of a force ("Force Commander", "C-in-C", …).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ForceWords {
    pub commander_in_chief: &'static str,
    pub group_commander: &'static str,
    pub group: &'static str,
    pub elements: &'static str,
    pub element: &'static str,
    pub options: &'static str,
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

/// How a system measures a campaign's battles: the size's range and its word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BattleSize {
    pub min: u32,
    pub max: u32,
    /// `points`, or `units` for a system without points.
    pub unit: &'static str,
}

impl BattleSize {
    /// "200-point battles", "8-unit battles".
    pub fn battles(&self, size: u32) -> String {
        format!("{size}-{} battles", self.unit.trim_end_matches('s'))
    }
}

/// A unit's roll to gain experience after a battle (a system's own ladders).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Promotion {
    pub element: String,
    /// What it becomes, as the system stores it; `None`: the roll failed.
    pub to: Option<String>,
    pub roll: u8,
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
    /// For a system whose losses carry over exactly as the battle left them (All the King's
    /// Men: figures, officer and ensign): what the element comes out of the battle as. With
    /// casualties carrying over, it takes that size or is gone, and no casualty roll is made;
    /// `None`: the campaign's casualty roll decides from `end`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub carried: Option<Carried>,
    /// What the element lost in the battle in its system's own count (figures for the AWI
    /// rules), for a system whose campaign casualties depend on it; 0 otherwise.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub lost: u32,
}

/// What a battle left of an element whose losses carry over as they stood.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "as", content = "size", rename_all = "snake_case")]
pub enum Carried {
    /// It stands at this size (as the roster stores it).
    Size(String),
    /// It did not survive the battle as a unit.
    Lost,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
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

/// Moves the item with id `item` to the end of the container with id `to` (M-102), for a
/// system's [`ForceRules::move_element`]: groups and elements, brigades and units. `words` are
/// the system's (group, element) nouns for the messages.
pub fn move_between<C, I>(
    containers: &mut [C],
    container_id: impl Fn(&C) -> Option<&str>,
    items: impl Fn(&mut C) -> &mut Vec<I>,
    item_id: impl Fn(&I) -> Option<&str>,
    item: &str,
    to: &str,
    words: (&str, &str),
) -> Result<(), FieldProblem> {
    let (group, element) = words;
    let target = containers
        .iter()
        .position(|c| container_id(c) == Some(to))
        .ok_or_else(|| {
            FieldProblem::new("group", format!("There is no such {group} in the force."))
        })?;
    let mut from = None;
    for (ci, c) in containers.iter_mut().enumerate() {
        if let Some(at) = items(c).iter().position(|i| item_id(i) == Some(item)) {
            from = Some((ci, at));
            break;
        }
    }
    let (ci, at) = from.ok_or_else(|| {
        FieldProblem::new(
            "element",
            format!("There is no such {element} in the force."),
        )
    })?;
    if ci == target {
        return Err(FieldProblem::new(
            "group",
            format!("That {element} is in that {group} already."),
        ));
    }
    let moved = items(&mut containers[ci]).remove(at);
    items(&mut containers[target]).push(moved);
    Ok(())
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

    /// How a campaign rule switch reads for this system: `label` as it stands, the system's own
    /// words for it, or `None` for a switch that does nothing here (hidden).
    fn switch_label(&self, id: &str, label: &'static str) -> Option<&'static str> {
        let _ = id;
        Some(label)
    }

    /// What the system calls the parts of a force, for the campaign's pages.
    fn words(&self) -> ForceWords {
        ForceWords {
            commander_in_chief: "Force Commander",
            group_commander: "Group Commander",
            group: "Group",
            elements: "Elements",
            element: "Element",
            options: "Upgrades",
        }
    }

    /// How the system measures a battle's size (points unless it says otherwise).
    fn battle_size(&self) -> BattleSize {
        BattleSize {
            min: 50,
            max: 2000,
            unit: "points",
        }
    }
    /// Whether the system's commanders carry a rating: rolled on enlisting, rolled again for a
    /// replacement, moved by experience. A system without ratings only renames a fallen one.
    fn rated_commanders(&self) -> bool {
        true
    }

    // A force.
    /// Reads a roster to enlist: refuses one of another war, gives every part an id and sets
    /// the campaign's battle size on it.
    fn enlistment(&self, roster: &RosterJson, war: &str, points: u32)
        -> Result<RosterJson, String>;
    /// A warning in words when the roster's nation did not fight for the side called
    /// `side_name` in `war` (M-104: the side's camp is read from its name, [`camps_named`]);
    /// `None` when it did, or when the system or the name cannot tell.
    fn allegiance_warning(
        &self,
        roster: &RosterJson,
        war: &str,
        side_name: &str,
    ) -> Option<String> {
        let _ = (roster, war, side_name);
        None
    }
    /// The force's size in the system's own measure; `None` for a system without points, which
    /// turns reinforcements and purchases off.
    fn points(&self, roster: &RosterJson) -> Option<u32>;
    /// The force's size in the measure of [`Self::battle_size`] for a system without points
    /// (the AWI rules count bases); `None`: its elements are counted.
    fn strength(&self, roster: &RosterJson) -> Option<u32> {
        let _ = roster;
        None
    }
    /// What makes the force illegal at the battle size, in words. Once casualties have
    /// started, too few groups or elements are no longer errors (campaign rules v1).
    fn problems(&self, roster: &RosterJson, size: u32, casualties_started: bool) -> Vec<String>;
    /// What makes a force in a running campaign illegal (casualties started), with any
    /// percentage caps judged on `raised` elements: every element the force has enlisted or
    /// bought, those it lost included, so its caps do not shrink with its losses (M-96).
    fn problems_in_campaign(&self, roster: &RosterJson, size: u32, raised: usize) -> Vec<String> {
        let _ = raised;
        self.problems(roster, size, true)
    }
    /// The force's commanders, groups and elements; an error for a document the system
    /// cannot read.
    fn shape(&self, roster: &RosterJson) -> Result<ForceShape, String>;
    /// A size as the roster stores it, in words.
    fn size_label(&self, size: &str) -> String;
    /// Each element's id and size as the roster stores it: what replaying an enlistment needs,
    /// cheaper than the whole shape.
    fn element_sizes(&self, roster: &RosterJson) -> Result<Vec<(String, String)>, String> {
        Ok(self
            .shape(roster)?
            .elements()
            .map(|e| (e.id.clone(), e.size.clone()))
            .collect())
    }
    /// Elements with the Scout skill, for the roll for the attack.
    fn scouts(&self, roster: &RosterJson) -> u32;
    /// A commander's rating roll and its band in words.
    fn rate_commander(&self, dice: &mut Dice) -> (u8, String);
    /// A rating the force brings with it instead of a roll at enlistment: one the roster
    /// gives, or 0 for a post the system does not rate. `None`: rolled (the default).
    fn given_rating(&self, roster: &RosterJson, commander: &CommanderRef) -> Option<u8> {
        let _ = (roster, commander);
        None
    }
    /// A fallen commander's successor's rating and the roll in words, for a rated system.
    /// Campaign rules v1: a d6 at −1 with field promotion, a full d6 without.
    fn replacement_rating(&self, dice: &mut Dice, field_promotion: bool) -> (u8, String) {
        if field_promotion {
            let r = promotion_rating(dice);
            (r, format!("field promotion: rating roll {r} (d6 −1, R-12)"))
        } else {
            let r = dice.d6();
            (r, format!("rating roll {r}"))
        }
    }
    /// A rated commander's experience after a major victory (`won`) or defeat: his rating
    /// after it and the die, or `None` when he does not roll. Campaign rules v1: a band up on
    /// a 6, a band down on a 1.
    fn experience(&self, rating: u8, won: bool, dice: &mut Dice) -> Option<(u8, u8)> {
        let (band, roll) = experience_roll(dice, band_of_roll(rating), 3, won);
        Some(if band == band_of_roll(rating) {
            (rating, roll)
        } else {
            (roll_of_band(band), roll)
        })
    }
    /// Whether every commander of a force beaten in a major defeat rolls for experience;
    /// campaign rules v1: only its Force Commander.
    fn defeat_tests_every_commander(&self) -> bool {
        false
    }
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
    /// The system's own casualty rule for an element after a battle, when it has one: the
    /// outcome and the die (0 when none decided it). `None`: the campaign rules' roll on the
    /// element's end state ([`super::aftermath::casualty_roll`]).
    fn casualty(
        &self,
        roster: &RosterJson,
        end: &ElementEnd,
        dice: &mut Dice,
    ) -> Option<(Casualty, u8)> {
        let _ = (roster, end, dice);
        None
    }
    /// Takes an element off the force; its name.
    fn remove_element(&self, roster: &mut RosterJson, element: &str) -> Result<String, String>;
    /// A new man in a commander's post.
    fn rename_commander(
        &self,
        roster: &mut RosterJson,
        commander: &str,
        name: &str,
    ) -> Result<(), String>;

    /// The system's own experience for elements after a battle, for the force on `side`:
    /// each roll, whether it succeeded or not. None by default.
    fn unit_experience(
        &self,
        _roster: &RosterJson,
        _report: &BattleReport,
        _side: BattleSide,
        _dice: &mut Dice,
    ) -> Vec<Promotion> {
        Vec::new()
    }
    /// Applies a stored promotion; what the element became, in words.
    fn promote(
        &self,
        _roster: &mut RosterJson,
        element: &str,
        _to: &str,
    ) -> Result<String, String> {
        Err(format!("this rule system promotes no element ({element})"))
    }

    /// The roster with element `element` moved to the end of group `group` (M-102): the
    /// game's own reorganisation between battles. A group it leaves empty stays, with its
    /// commander, for later moves. Whether the force is legal after it is for the caller.
    /// A system that does not say how gets none.
    fn move_element(
        &self,
        roster: &RosterJson,
        element: &str,
        group: &str,
    ) -> Result<RosterJson, FieldProblem> {
        let _ = (roster, element, group);
        Err(FieldProblem::new(
            "group",
            "Forces of this rule system are not reorganised in a campaign.",
        ))
    }

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

/// The camps a side's name says it belongs to (M-104): `crown` (British, Crown, King's,
/// Royal, Loyalist, Canadian, Provincial, Hessian, German), `american` (American,
/// Continental, Congress, United States, Patriot, Rebel) and `french` (French, France). A
/// side's camp is known when its name names exactly one.
pub fn camps_named(name: &str) -> Option<&'static str> {
    const CAMPS: [(&str, &[&str]); 3] = [
        (
            "crown",
            &[
                "british",
                "britain",
                "crown",
                "king",
                "royal",
                "loyalist",
                "canad",
                "provincial",
                "hessian",
                "german",
            ],
        ),
        (
            "american",
            &[
                "american",
                "continental",
                "congress",
                "united states",
                "patriot",
                "rebel",
            ],
        ),
        ("french", &["french", "france"]),
    ];
    let name = name.to_lowercase();
    let mut named = CAMPS
        .iter()
        .filter(|(_, words)| words.iter().any(|w| name.contains(w)))
        .map(|(camp, _)| *camp);
    match (named.next(), named.next()) {
        (Some(camp), None) => Some(camp),
        _ => None,
    }
}
