//! A campaign's state and its append-only log. The log is the truth: every entry stores an
//! outcome (a move made, a roll and what it did, a roster after a purchase), never a request to
//! compute one, so applying the entries from the start rebuilds the state exactly, whatever the
//! rules engine of the day would now roll. Seeds are kept in the entries for audit.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::error::CampaignError;
pub use super::forces_api::BattleResult;
use super::forces_api::{ForceRules, RosterJson};
use super::movement::{Map, Order};

/// Muster campaign rules v1, each of which the organiser may switch off (DESIGN.md).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct HouseRules {
    /// Opposing forces that pass each other on a route fight there.
    pub route_battles: bool,
    /// Casualty rolls after a battle remove or reduce elements.
    pub persistent_casualties: bool,
    /// A killed commander is replaced at −1 on his rating roll; off: at a full roll.
    pub field_promotion: bool,
    /// Commanders move up or down a rating band after a Major Victory or Defeat.
    pub experience: bool,
    /// Forces gain points at the end of each turn but the last (M-97).
    pub reinforcements: bool,
    /// A beaten force with nowhere to retreat surrenders; off: it falls back to its home place.
    pub surrender: bool,
    /// Places count their victory value in the standings.
    pub place_scoring: bool,
    /// Attacking a fort is always a Frontal Assault.
    pub fort_assault: bool,
    /// In a roll for the attack, the force with more Scout elements adds 1.
    pub scout_bonus: bool,
}

impl Default for HouseRules {
    fn default() -> Self {
        HouseRules {
            route_battles: true,
            persistent_casualties: true,
            field_promotion: true,
            experience: true,
            reinforcements: true,
            surrender: true,
            place_scoring: true,
            fort_assault: true,
            scout_bonus: true,
        }
    }
}

impl HouseRules {
    /// Every switch: its id, a short label in our words, and whether it is on.
    pub fn switches(&self) -> [(&'static str, &'static str, bool); 9] {
        [
            (
                "route_battles",
                "Forces that pass on a route fight there",
                self.route_battles,
            ),
            (
                "persistent_casualties",
                "Casualties carry over from battle to battle",
                self.persistent_casualties,
            ),
            (
                "field_promotion",
                "Killed commanders are replaced by field promotion (rating roll −1)",
                self.field_promotion,
            ),
            (
                "experience",
                "Commanders gain or lose a rating band after a major result",
                self.experience,
            ),
            (
                "reinforcements",
                "Forces gain reinforcement points at the end of every turn but the last",
                self.reinforcements,
            ),
            (
                "surrender",
                "A beaten force with nowhere to go surrenders (off: it falls back to the nearest place free of enemies)",
                self.surrender,
            ),
            (
                "place_scoring",
                "Places held at the end score their victory value",
                self.place_scoring,
            ),
            (
                "fort_assault",
                "Attacking a fort is a Frontal Assault",
                self.fort_assault,
            ),
            (
                "scout_bonus",
                "More Scout elements give +1 in the roll for the attack",
                self.scout_bonus,
            ),
        ]
    }

    /// Sets a switch by id; false if there is no such switch.
    pub fn set(&mut self, id: &str, on: bool) -> bool {
        let slot = match id {
            "route_battles" => &mut self.route_battles,
            "persistent_casualties" => &mut self.persistent_casualties,
            "field_promotion" => &mut self.field_promotion,
            "experience" => &mut self.experience,
            "reinforcements" => &mut self.reinforcements,
            "surrender" => &mut self.surrender,
            "place_scoring" => &mut self.place_scoring,
            "fort_assault" => &mut self.fort_assault,
            "scout_bonus" => &mut self.scout_bonus,
            _ => return false,
        };
        *slot = on;
        true
    }
}

/// One of the two sides.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideSetup {
    pub name: String,
    /// The place the side holds at the start and retreats towards.
    pub home: String,
}

/// What the organiser chose when creating the campaign.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    pub name: String,
    /// The rule system the forces are built for, by its id.
    pub rule_system: String,
    /// The war, as the rule system's id.
    pub war: String,
    /// Battle size in points: every force must stay legal at it.
    pub points: u32,
    /// Number of campaign turns (default 8).
    pub turns: u32,
    pub sides: [SideSetup; 2],
    #[serde(default)]
    pub rules: HouseRules,
    /// A fixed scenario id for every battle; none: rolled on the book's 2d6 table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Players join and enlist; the organiser edits the map.
    #[default]
    Enlisting,
    /// Players give orders for the current turn.
    Orders,
    /// The turn's battles are being fought.
    Battles,
    Ended,
}

/// A player's force as it stands now.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Force {
    pub id: String,
    pub user: i64,
    /// The player's name as shown in the campaign.
    pub player: String,
    pub side: u8,
    pub place: String,
    /// The force as it stands: casualties and purchases applied.
    #[serde(deserialize_with = "super::forces_api::roster_text")]
    pub roster: RosterJson,
    /// Each element's size at enlistment or purchase: a restore may not go above it.
    pub full_sizes: BTreeMap<String, String>,
    /// Commander rating rolls (1–6) by commander id.
    pub ratings: BTreeMap<String, u8>,
    /// Unspent reinforcement points.
    pub bank: u32,
    /// Why the force is out of the campaign (surrendered, destroyed); none while it fights on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub out: Option<String>,
    /// What happened to each element and commander, by id, in order.
    pub history: BTreeMap<String, Vec<String>>,
    /// Manual adjustments to the player's campaign points.
    pub adjustment: i32,
}

impl Force {
    pub fn active(&self) -> bool {
        self.out.is_none()
    }

    pub fn note(&mut self, id: &str, text: String) {
        self.history.entry(id.to_string()).or_default().push(text);
    }
}

/// Where a battle is fought.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "at", rename_all = "snake_case")]
pub enum BattleSite {
    Place {
        place: String,
    },
    /// On a route: each force's destination, where the winner goes on to.
    Route {
        route: String,
        attacker_to: String,
        defender_to: String,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BattleStatus {
    /// Set up; to be fought or recorded.
    Pending,
    Resolved,
}

/// A campaign battle: a contact on the map, linked to the battle record that fights it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CampaignBattle {
    pub no: u32,
    pub turn: u32,
    /// "Chadds Ford", "the road from Kennett Square to Chadds Ford".
    pub name: String,
    pub site: BattleSite,
    pub attacker: String,
    pub defender: String,
    /// Forces of each side in the place that did not fight; they share the loser's retreat.
    pub attacker_support: Vec<String>,
    pub defender_support: Vec<String>,
    pub scenario: String,
    /// The battle record (the `battles` table) that fights it.
    pub record: i64,
    pub status: BattleStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<BattleResult>,
}

/// Who holds a place, and which force took it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Holder {
    pub side: u8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub taken_by: Option<String>,
}

/// A move shown on the map as an arrow.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveMade {
    pub force: String,
    pub from: String,
    pub to: String,
}

/// The whole campaign as the log makes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct CampaignState {
    pub settings: Option<Settings>,
    pub map: Map,
    pub phase: Phase,
    /// The current turn (0 while enlisting).
    pub turn: u32,
    pub forces: BTreeMap<String, Force>,
    /// Orders given this turn, hidden from everyone but their giver until the turn closes.
    pub orders: BTreeMap<String, Order>,
    pub holders: BTreeMap<String, Holder>,
    pub battles: Vec<CampaignBattle>,
    /// The moves of the last closed turn.
    pub last_moves: Vec<MoveMade>,
    /// Manual adjustments to each side's campaign points.
    pub side_adjustment: [i32; 2],
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended: Option<String>,
    /// Archived by the organiser: hidden from lists and read-only until unarchived.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub archived: bool,
    /// Whether the public read-only page is on (its link lives with the campaign's row, never
    /// in the log).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub public: bool,
    /// How many forces left before the start (withdrawn or removed), so that force ids are
    /// never used twice.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub withdrawn: u32,
    /// The open turn's deadline, if it has one (`rules::campaign::deadlines`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline: Option<Deadline>,
    /// The default turn length in minutes: each new turn's deadline that long after it begins.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_length_minutes: Option<u32>,
}

/// The open turn's deadline (`rules::campaign::deadlines`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deadline {
    pub turn: u32,
    /// When the turn closes by itself (seconds since 1970, UTC).
    pub at: i64,
    /// When the deadline was set: a reminder comes halfway through short turns.
    pub set_at: i64,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// One log entry's content. Each variant stores the outcome it records.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    Created {
        settings: Settings,
        map: Map,
    },
    /// The organiser edited the map (and perhaps the sides' home places) before the start.
    MapChanged {
        map: Map,
        homes: [String; 2],
    },
    Enlisted {
        force: String,
        user: i64,
        player: String,
        side: u8,
        roster: RosterJson,
        /// Rolled ratings by commander id.
        ratings: BTreeMap<String, u8>,
        /// The rolls in words.
        rolls: Vec<String>,
        /// A warning the player enlisted over (a roster of a nation of the other side, M-104).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        warning: Option<String>,
    },
    Started,
    OrderGiven {
        force: String,
        order: Order,
    },
    /// The turn's orders revealed, holds included.
    TurnClosed {
        orders: BTreeMap<String, Order>,
    },
    Moved {
        force: String,
        from: String,
        to: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        route: Option<String>,
    },
    BattleSet {
        battle: CampaignBattle,
        /// The rolls that set it (attacker, scenario), in words.
        rolls: Vec<String>,
    },
    /// The organiser changed a battle before it was fought (which force of a side fights, or
    /// the scenario); it is fought on a fresh record.
    BattleRearranged {
        battle: CampaignBattle,
        what: String,
    },
    BattleFought {
        battle: u32,
        result: BattleResult,
    },
    Retreated {
        force: String,
        from: String,
        to: String,
    },
    Surrendered {
        force: String,
        at: String,
    },
    /// A force with no elements left is out of the campaign.
    Destroyed {
        force: String,
    },
    ElementReduced {
        force: String,
        element: String,
        size: String,
        roll: u8,
        battle: String,
        /// Upgrades the new size cannot carry, dropped; their points go to the bank.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        dropped: Vec<String>,
        #[serde(default)]
        refund: u32,
        /// The bank after the refund (stored, so a later change of the cap cannot alter it).
        #[serde(default)]
        bank: u32,
    },
    ElementLost {
        force: String,
        element: String,
        roll: u8,
        battle: String,
    },
    /// An element climbs its system's experience ladder (`to` as the system stores it).
    ElementPromoted {
        force: String,
        element: String,
        to: String,
        roll: u8,
        battle: String,
    },
    CommanderReplaced {
        force: String,
        commander: String,
        /// The fallen commander's name and the new one.
        fallen: String,
        name: String,
        rating_roll: u8,
        /// What was rolled, in words.
        roll: String,
        battle: String,
        /// The commander who left the post did not fall: he stepped up to lead the force.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        stepped_up: bool,
    },
    Experience {
        force: String,
        commander: String,
        roll: u8,
        rating_roll: u8,
        battle: String,
    },
    PlaceTaken {
        place: String,
        side: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        force: Option<String>,
    },
    Reinforced {
        force: String,
        gained: u32,
        bank: u32,
    },
    Purchased {
        force: String,
        what: String,
        cost: u32,
        roster: RosterJson,
        /// The element whose full size this sets (a bought element).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        full_size: Option<(String, String)>,
        /// The element restored or upgraded, for its history.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        element: Option<String>,
    },
    TurnBegan {
        turn: u32,
    },
    Ended {
        reason: String,
    },
    /// The organiser voids the latest battle: the entries from `from_seq` up to this one are
    /// set aside, and the battle is to be fought again on a fresh record.
    BattleVoided {
        battle: u32,
        from_seq: i64,
        record: i64,
        reason: String,
    },
    Adjusted {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        force: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        side: Option<u8>,
        #[serde(default)]
        points: i32,
        #[serde(default)]
        bank: i32,
        /// The force's bank after the adjustment.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bank_after: Option<u32>,
        reason: String,
    },
    PlayerReplaced {
        force: String,
        user: i64,
        player: String,
    },
    /// An element moved from one group to another of its force between battles (M-102).
    Reorganised {
        force: String,
        element: String,
        /// What moved where, in words ("1st Foot from Group 3 to Group 1").
        what: String,
        roster: RosterJson,
    },
    /// A player's word on letting the engine fight a battle between two players: asked for it,
    /// accepted the other player's request (the battle is fought at once), declined it, or
    /// withdrew their own request.
    EngineConsent {
        battle: u32,
        player: String,
        step: EngineStep,
    },
    /// The organiser had the engine decide a battle alone, saying why.
    EngineOrdered {
        battle: u32,
        reason: String,
    },
    /// A player withdrew their force before the start.
    ForceWithdrawn {
        force: String,
    },
    /// The organiser removed a player's force before the start.
    ForceRemoved {
        force: String,
        reason: String,
    },
    /// A player enlisted another of their rosters instead, before the start: the force keeps
    /// its id and side; its commanders' ratings are rolled afresh.
    ForceChanged {
        force: String,
        roster: RosterJson,
        ratings: BTreeMap<String, u8>,
        rolls: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        warning: Option<String>,
    },
    /// The organiser changed the house-rule switches before the start.
    HouseRulesChanged {
        rules: HouseRules,
        /// What changed, in words.
        changes: Vec<String>,
    },
    /// The organiser named an officer made by field promotion.
    OfficerRenamed {
        force: String,
        commander: String,
        from: String,
        name: String,
    },
    /// Archived: hidden from lists, every action refused until unarchived.
    Archived,
    Unarchived,
    /// The public read-only page was turned on (a new link) or off (the link no longer works).
    PublicPageOn,
    PublicPageOff,
    // ---- Turn deadlines (`rules::campaign::deadlines`) ----
    /// The open turn's deadline (seconds since 1970, UTC), set by the organiser or, with
    /// `by_default`, by the default turn length when the turn began.
    DeadlineSet {
        turn: u32,
        at: i64,
        set_at: i64,
        #[serde(default)]
        by_default: bool,
    },
    /// The organiser cleared the open turn's deadline.
    DeadlineCleared {
        turn: u32,
    },
    /// The organiser set (or, with none, cleared) the default turn length in minutes.
    TurnLengthSet {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        minutes: Option<u32>,
    },
    /// The deadline passed with the turn still open: the turn closes by itself (the entries
    /// closing it follow).
    DeadlinePassed {
        turn: u32,
        at: i64,
    },
    /// The organiser set the campaign's webhook (only its host is logged: the rest of a
    /// webhook's address is its secret) or, with none, removed it.
    WebhookChanged {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        host: Option<String>,
    },
}

/// A step of asking for the engine to fight a battle (`Event::EngineConsent`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EngineStep {
    Asked,
    Accepted,
    Declined,
    Withdrawn,
}

impl Event {
    /// The serde `kind` tag, as stored in the log's `kind` column.
    pub fn kind(&self) -> &'static str {
        match self {
            Event::Created { .. } => "created",
            Event::MapChanged { .. } => "map_changed",
            Event::Enlisted { .. } => "enlisted",
            Event::Started => "started",
            Event::OrderGiven { .. } => "order_given",
            Event::TurnClosed { .. } => "turn_closed",
            Event::Moved { .. } => "moved",
            Event::BattleSet { .. } => "battle_set",
            Event::BattleRearranged { .. } => "battle_rearranged",
            Event::BattleFought { .. } => "battle_fought",
            Event::Retreated { .. } => "retreated",
            Event::Surrendered { .. } => "surrendered",
            Event::Destroyed { .. } => "destroyed",
            Event::ElementReduced { .. } => "element_reduced",
            Event::ElementLost { .. } => "element_lost",
            Event::ElementPromoted { .. } => "element_promoted",
            Event::CommanderReplaced { .. } => "commander_replaced",
            Event::Experience { .. } => "experience",
            Event::PlaceTaken { .. } => "place_taken",
            Event::Reinforced { .. } => "reinforced",
            Event::Purchased { .. } => "purchased",
            Event::TurnBegan { .. } => "turn_began",
            Event::Ended { .. } => "ended",
            Event::BattleVoided { .. } => "battle_voided",
            Event::Adjusted { .. } => "adjusted",
            Event::PlayerReplaced { .. } => "player_replaced",
            Event::Reorganised { .. } => "reorganised",
            Event::EngineConsent { .. } => "engine_consent",
            Event::EngineOrdered { .. } => "engine_ordered",
            Event::ForceWithdrawn { .. } => "force_withdrawn",
            Event::ForceRemoved { .. } => "force_removed",
            Event::ForceChanged { .. } => "force_changed",
            Event::HouseRulesChanged { .. } => "house_rules_changed",
            Event::OfficerRenamed { .. } => "officer_renamed",
            Event::Archived => "archived",
            Event::Unarchived => "unarchived",
            Event::PublicPageOn => "public_page_on",
            Event::PublicPageOff => "public_page_off",
            Event::DeadlineSet { .. } => "deadline_set",
            Event::DeadlineCleared { .. } => "deadline_cleared",
            Event::TurnLengthSet { .. } => "turn_length_set",
            Event::DeadlinePassed { .. } => "deadline_passed",
            Event::WebhookChanged { .. } => "webhook_changed",
        }
    }

    /// The force an entry concerns (the log's `force_id` column, which the log is filtered by).
    /// Battle entries name no single force.
    pub fn force(&self) -> Option<&str> {
        match self {
            Event::Enlisted { force, .. }
            | Event::OrderGiven { force, .. }
            | Event::Moved { force, .. }
            | Event::Retreated { force, .. }
            | Event::Surrendered { force, .. }
            | Event::Destroyed { force }
            | Event::ElementReduced { force, .. }
            | Event::ElementLost { force, .. }
            | Event::ElementPromoted { force, .. }
            | Event::CommanderReplaced { force, .. }
            | Event::Experience { force, .. }
            | Event::Reinforced { force, .. }
            | Event::Purchased { force, .. }
            | Event::PlayerReplaced { force, .. }
            | Event::Reorganised { force, .. }
            | Event::ForceWithdrawn { force }
            | Event::ForceRemoved { force, .. }
            | Event::ForceChanged { force, .. }
            | Event::OfficerRenamed { force, .. } => Some(force),
            Event::PlaceTaken { force, .. } | Event::Adjusted { force, .. } => force.as_deref(),
            Event::Created { .. }
            | Event::MapChanged { .. }
            | Event::Started
            | Event::TurnClosed { .. }
            | Event::BattleSet { .. }
            | Event::BattleRearranged { .. }
            | Event::BattleFought { .. }
            | Event::TurnBegan { .. }
            | Event::Ended { .. }
            | Event::BattleVoided { .. }
            | Event::EngineConsent { .. }
            | Event::EngineOrdered { .. }
            | Event::HouseRulesChanged { .. }
            | Event::Archived
            | Event::Unarchived
            | Event::PublicPageOn
            | Event::PublicPageOff => None,
            Event::DeadlineSet { .. }
            | Event::DeadlineCleared { .. }
            | Event::TurnLengthSet { .. }
            | Event::DeadlinePassed { .. }
            | Event::WebhookChanged { .. } => None,
        }
    }
}

/// A stored log entry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    pub seq: i64,
    pub event: Event,
}

/// The entries voided battles set aside: each void covers its battle's entries from `from_seq`
/// up to the void entry itself, which stays.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SetAside(Vec<(i64, i64)>);

impl SetAside {
    pub fn of(entries: &[Entry]) -> SetAside {
        SetAside(
            entries
                .iter()
                .filter_map(|e| match &e.event {
                    Event::BattleVoided { from_seq, .. } => Some((*from_seq, e.seq)),
                    _ => None,
                })
                .collect(),
        )
    }

    pub fn contains(&self, seq: i64) -> bool {
        self.0
            .iter()
            .any(|(from, void)| seq >= *from && seq < *void)
    }
}

fn bad(seq: i64, message: impl Into<String>) -> CampaignError {
    CampaignError::BadEntry {
        seq,
        message: message.into(),
    }
}

impl CampaignState {
    pub fn settings(&self) -> Option<&Settings> {
        self.settings.as_ref()
    }

    /// The battle size, 0 before creation.
    pub fn points(&self) -> u32 {
        self.settings.as_ref().map_or(0, |s| s.points)
    }

    pub fn rules(&self) -> HouseRules {
        self.settings
            .as_ref()
            .map(|s| s.rules.clone())
            .unwrap_or_default()
    }

    pub fn side_name(&self, side: u8) -> &str {
        self.settings
            .as_ref()
            .and_then(|s| s.sides.get(usize::from(side)))
            .map_or("?", |s| s.name.as_str())
    }

    pub fn place_name<'a>(&'a self, id: &'a str) -> &'a str {
        self.map
            .places
            .iter()
            .find(|p| p.id == id)
            .map_or(id, |p| p.name.as_str())
    }

    pub fn force_of_user(&self, user: i64) -> Option<&Force> {
        self.forces.values().find(|f| f.user == user)
    }

    pub fn active_forces(&self) -> impl Iterator<Item = &Force> {
        self.forces.values().filter(|f| f.active())
    }

    /// How many forces still in the field have given an order this turn, and how many there are.
    pub fn orders_in(&self) -> (usize, usize) {
        let (mut given, mut all) = (0, 0);
        for f in self.active_forces() {
            all += 1;
            if self.orders.contains_key(&f.id) {
                given += 1;
            }
        }
        (given, all)
    }

    pub fn pending_battles(&self) -> impl Iterator<Item = &CampaignBattle> {
        self.battles
            .iter()
            .filter(|b| b.status == BattleStatus::Pending)
    }

    pub fn battle(&self, no: u32) -> Option<&CampaignBattle> {
        self.battles.iter().find(|b| b.no == no)
    }

    pub fn battle_by_record(&self, record: i64) -> Option<&CampaignBattle> {
        self.battles.iter().find(|b| b.record == record)
    }

    /// The next force id: `f1`, `f2`, … in order of enlistment; the id of a force that left
    /// before the start is not used again.
    pub fn next_force_id(&self) -> String {
        let n = self.forces.len() + self.withdrawn as usize + 1;
        // A stored state from before `withdrawn` was kept cannot collide either.
        let taken = |n: usize| self.forces.contains_key(&format!("f{n}"));
        let n = (n..).find(|&n| !taken(n)).unwrap_or(n);
        format!("f{n}")
    }

    fn force_mut(&mut self, seq: i64, id: &str) -> Result<&mut Force, CampaignError> {
        self.forces
            .get_mut(id)
            .ok_or_else(|| bad(seq, format!("no force {id}")))
    }

    /// Applies one entry. Entries are trusted outcomes: this only checks that they fit. What an
    /// entry does to a roster, the campaign's rule system says.
    pub fn apply(
        &mut self,
        rules: &dyn ForceRules,
        seq: i64,
        event: &Event,
    ) -> Result<(), CampaignError> {
        match event {
            Event::Created { settings, map } => {
                if self.settings.is_some() {
                    return Err(bad(seq, "the campaign was already created"));
                }
                self.settings = Some(settings.clone());
                self.map = map.clone();
                for (i, s) in settings.sides.iter().enumerate() {
                    self.holders.insert(
                        s.home.clone(),
                        Holder {
                            side: i as u8,
                            taken_by: None,
                        },
                    );
                }
            }
            Event::MapChanged { map, homes } => {
                self.map = map.clone();
                if let Some(settings) = &mut self.settings {
                    for (side, home) in settings.sides.iter_mut().zip(homes) {
                        side.home = home.clone();
                    }
                }
                self.holders.clear();
                if let Some(settings) = &self.settings {
                    for (i, s) in settings.sides.iter().enumerate() {
                        self.holders.insert(
                            s.home.clone(),
                            Holder {
                                side: i as u8,
                                taken_by: None,
                            },
                        );
                    }
                }
                let homes: Vec<(u8, String)> = self
                    .settings
                    .iter()
                    .flat_map(|s| s.sides.iter().enumerate())
                    .map(|(i, s)| (i as u8, s.home.clone()))
                    .collect();
                for f in self.forces.values_mut() {
                    if let Some((_, home)) = homes.iter().find(|(i, _)| *i == f.side) {
                        f.place = home.clone();
                    }
                }
            }
            Event::Enlisted {
                force,
                user,
                player,
                side,
                roster,
                ratings,
                ..
            } => {
                let home = self
                    .settings
                    .as_ref()
                    .and_then(|s| s.sides.get(usize::from(*side)))
                    .map(|s| s.home.clone())
                    .ok_or_else(|| bad(seq, "no such side"))?;
                let full_sizes = rules
                    .element_sizes(roster)
                    .map_err(|e| bad(seq, e))?
                    .into_iter()
                    .collect();
                self.forces.insert(
                    force.clone(),
                    Force {
                        id: force.clone(),
                        user: *user,
                        player: player.clone(),
                        side: *side,
                        place: home,
                        roster: roster.clone(),
                        full_sizes,
                        ratings: ratings.clone(),
                        bank: 0,
                        out: None,
                        history: BTreeMap::new(),
                        adjustment: 0,
                    },
                );
            }
            Event::Started => {
                self.phase = Phase::Orders;
                self.turn = 1;
            }
            Event::OrderGiven { force, order } => {
                if self.phase != Phase::Orders {
                    return Err(bad(seq, "orders are only given while a turn is open"));
                }
                self.force_mut(seq, force)?;
                self.orders.insert(force.clone(), order.clone());
            }
            Event::TurnClosed { .. } => {
                self.orders.clear();
                self.last_moves.clear();
                self.phase = Phase::Battles;
            }
            Event::Moved {
                force, from, to, ..
            } => {
                let f = self.force_mut(seq, force)?;
                f.place = to.clone();
                self.last_moves.push(MoveMade {
                    force: force.clone(),
                    from: from.clone(),
                    to: to.clone(),
                });
            }
            Event::BattleSet { battle, .. } => {
                self.battles.retain(|b| b.no != battle.no);
                self.battles.push(battle.clone());
            }
            Event::BattleRearranged { battle, .. } => {
                let b = self
                    .battles
                    .iter_mut()
                    .find(|b| b.no == battle.no)
                    .ok_or_else(|| bad(seq, format!("no battle {}", battle.no)))?;
                *b = battle.clone();
            }
            Event::BattleFought { battle, result } => {
                let b = self
                    .battles
                    .iter_mut()
                    .find(|b| b.no == *battle)
                    .ok_or_else(|| bad(seq, format!("no battle {battle}")))?;
                b.status = BattleStatus::Resolved;
                b.result = Some(result.clone());
            }
            Event::Retreated { force, to, .. } => {
                self.force_mut(seq, force)?.place = to.clone();
            }
            Event::Surrendered { force, at } => {
                let name = self.place_name(at).to_string();
                self.force_mut(seq, force)?.out = Some(format!("surrendered at {name}"));
            }
            Event::Destroyed { force } => {
                self.force_mut(seq, force)?.out = Some("destroyed: no elements left".into());
            }
            Event::ElementReduced {
                force,
                element,
                size,
                battle,
                dropped,
                refund,
                bank,
                ..
            } => {
                let f = self.force_mut(seq, force)?;
                let size = rules
                    .resize(&mut f.roster, element, size, dropped)
                    .map_err(|e| bad(seq, e))?;
                f.bank = *bank;
                let mut text = format!("Reduced to {size} after {battle}");
                if !dropped.is_empty() {
                    text.push_str(&format!(
                        "; lost {} ({refund} points to the bank)",
                        dropped.join(", ")
                    ));
                }
                f.note(element, text);
            }
            Event::ElementLost {
                force,
                element,
                battle,
                ..
            } => {
                let f = self.force_mut(seq, force)?;
                let name = rules
                    .remove_element(&mut f.roster, element)
                    .map_err(|e| bad(seq, e))?;
                f.note(element, format!("{name}: lost after {battle}"));
            }
            Event::ElementPromoted {
                force,
                element,
                to,
                battle,
                ..
            } => {
                let f = self.force_mut(seq, force)?;
                let now = rules
                    .promote(&mut f.roster, element, to)
                    .map_err(|e| bad(seq, e))?;
                f.note(
                    element,
                    format!("Gained experience after {battle}: now {now}"),
                );
            }
            Event::CommanderReplaced {
                force,
                commander,
                fallen,
                name,
                rating_roll,
                battle,
                stepped_up,
                ..
            } => {
                let lead = rules.words().commander_in_chief;
                let f = self.force_mut(seq, force)?;
                rules
                    .rename_commander(&mut f.roster, commander, name)
                    .map_err(|e| bad(seq, e))?;
                f.ratings.insert(commander.clone(), *rating_roll);
                let left = if *stepped_up {
                    format!("{fallen} left to become {lead} after {battle}")
                } else {
                    format!("{fallen} fell in {battle}")
                };
                f.note(commander, format!("{left}; {name} took command"));
            }
            Event::Experience {
                force,
                commander,
                rating_roll,
                battle,
                ..
            } => {
                let f = self.force_mut(seq, force)?;
                let before = f.ratings.get(commander).copied().unwrap_or(0);
                f.ratings.insert(commander.clone(), *rating_roll);
                if before != *rating_roll {
                    let word = if *rating_roll > before {
                        "Rose"
                    } else {
                        "Fell"
                    };
                    f.note(commander, format!("{word} a rating band after {battle}"));
                }
            }
            Event::PlaceTaken { place, side, force } => {
                self.holders.insert(
                    place.clone(),
                    Holder {
                        side: *side,
                        taken_by: force.clone(),
                    },
                );
            }
            Event::Reinforced { force, bank, .. } => {
                self.force_mut(seq, force)?.bank = *bank;
            }
            Event::Purchased {
                force,
                what,
                cost,
                roster,
                full_size,
                element,
            } => {
                let turn = self.turn;
                let f = self.force_mut(seq, force)?;
                f.bank = f
                    .bank
                    .checked_sub(*cost)
                    .ok_or_else(|| bad(seq, "a purchase costs more than the bank holds"))?;
                f.roster = roster.clone();
                if let Some((id, size)) = full_size {
                    f.full_sizes.insert(id.clone(), size.clone());
                    f.note(id, format!("Joined the force in turn {turn}"));
                }
                if let Some(id) = element {
                    f.note(id, format!("{what}, turn {turn}"));
                }
            }
            Event::TurnBegan { turn } => {
                self.turn = *turn;
                self.phase = Phase::Orders;
                self.orders.clear();
            }
            Event::Ended { reason } => {
                self.phase = Phase::Ended;
                self.ended = Some(reason.clone());
            }
            Event::BattleVoided { battle, record, .. } => {
                // The entries this reverses are skipped by `rebuild`; here the battle is set to
                // be fought again on its fresh record.
                let b = self
                    .battles
                    .iter_mut()
                    .find(|b| b.no == *battle)
                    .ok_or_else(|| bad(seq, format!("no battle {battle}")))?;
                b.status = BattleStatus::Pending;
                b.result = None;
                b.record = *record;
                self.phase = Phase::Battles;
                self.ended = None;
            }
            Event::Adjusted {
                force,
                side,
                points,
                bank_after,
                ..
            } => {
                if let Some(id) = force {
                    let f = self.force_mut(seq, id)?;
                    f.adjustment += points;
                    if let Some(b) = bank_after {
                        f.bank = *b;
                    }
                } else if let Some(s) = side {
                    let slot = self
                        .side_adjustment
                        .get_mut(usize::from(*s))
                        .ok_or_else(|| bad(seq, "no such side"))?;
                    *slot += points;
                }
            }
            Event::PlayerReplaced {
                force,
                user,
                player,
            } => {
                let f = self.force_mut(seq, force)?;
                f.user = *user;
                f.player = player.clone();
            }
            Event::Reorganised {
                force,
                element,
                what,
                roster,
            } => {
                let turn = self.turn;
                let f = self.force_mut(seq, force)?;
                f.roster = roster.clone();
                f.note(element, format!("Moved {what}, turn {turn}"));
            }
            // Words on the record only: the battle's decision comes in as `BattleFought`.
            Event::EngineConsent { .. } | Event::EngineOrdered { .. } => {}
            Event::ForceWithdrawn { force } | Event::ForceRemoved { force, .. } => {
                if self.phase != Phase::Enlisting {
                    return Err(bad(seq, "a force only leaves before the start"));
                }
                self.forces
                    .remove(force)
                    .ok_or_else(|| bad(seq, format!("no force {force}")))?;
                self.withdrawn += 1;
            }
            Event::ForceChanged {
                force,
                roster,
                ratings,
                ..
            } => {
                if self.phase != Phase::Enlisting {
                    return Err(bad(seq, "a force is only changed before the start"));
                }
                let full_sizes = rules
                    .element_sizes(roster)
                    .map_err(|e| bad(seq, e))?
                    .into_iter()
                    .collect();
                let f = self.force_mut(seq, force)?;
                f.roster = roster.clone();
                f.full_sizes = full_sizes;
                f.ratings = ratings.clone();
                f.history.clear();
            }
            Event::HouseRulesChanged { rules: house, .. } => {
                let s = self
                    .settings
                    .as_mut()
                    .ok_or_else(|| bad(seq, "no campaign"))?;
                s.rules = house.clone();
            }
            Event::OfficerRenamed {
                force,
                commander,
                from,
                name,
            } => {
                let turn = self.turn;
                let f = self.force_mut(seq, force)?;
                rules
                    .rename_commander(&mut f.roster, commander, name)
                    .map_err(|e| bad(seq, e))?;
                f.note(
                    commander,
                    format!("{from} was named {name} by the organiser, turn {turn}"),
                );
            }
            Event::Archived => self.archived = true,
            Event::Unarchived => self.archived = false,
            Event::PublicPageOn => self.public = true,
            Event::PublicPageOff => self.public = false,
            Event::DeadlineSet { .. }
            | Event::DeadlineCleared { .. }
            | Event::TurnLengthSet { .. }
            | Event::DeadlinePassed { .. }
            | Event::WebhookChanged { .. } => {}
        }
        self.apply_deadline(event);
        Ok(())
    }

    /// What an entry does to the open turn's deadline and the default turn length.
    pub fn apply_deadline(&mut self, event: &Event) {
        match event {
            Event::DeadlineSet {
                turn, at, set_at, ..
            } => {
                self.deadline = Some(Deadline {
                    turn: *turn,
                    at: *at,
                    set_at: *set_at,
                })
            }
            Event::DeadlineCleared { .. } => self.deadline = None,
            Event::TurnLengthSet { minutes } => self.turn_length_minutes = *minutes,
            // A turn that closes, begins or ends the campaign leaves its deadline behind.
            Event::TurnClosed { .. }
            | Event::TurnBegan { .. }
            | Event::Started
            | Event::Ended { .. } => self.deadline = None,
            _ => {}
        }
    }

    /// Rebuilds a campaign from its log. Entries set aside by a voided battle are skipped.
    pub fn rebuild(
        rules: &dyn ForceRules,
        entries: &[Entry],
    ) -> Result<CampaignState, CampaignError> {
        let aside = SetAside::of(entries);
        let mut state = CampaignState::default();
        for e in entries {
            if aside.contains(e.seq) {
                continue;
            }
            state.apply(rules, e.seq, &e.event)?;
        }
        Ok(state)
    }

    /// Places each side holds.
    pub fn places_held(&self, side: u8) -> Vec<&str> {
        self.holders
            .iter()
            .filter(|(_, h)| h.side == side)
            .map(|(p, _)| p.as_str())
            .collect()
    }

    /// Supply places a side holds.
    pub fn supply_held(&self, side: u8) -> u32 {
        self.map
            .places
            .iter()
            .filter(|p| p.supply && self.holders.get(&p.id).is_some_and(|h| h.side == side))
            .count() as u32
    }

    /// Sides with at least one force still in the field.
    pub fn sides_in_field(&self) -> BTreeSet<u8> {
        self.active_forces().map(|f| f.side).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::system::SystemId;

    fn settings() -> Settings {
        let side = |name: &str, home: &str| SideSetup {
            name: name.into(),
            home: home.into(),
        };
        Settings {
            name: "Brandywine".into(),
            rule_system: SystemId::Lotf.id().into(),
            war: "american_revolution".into(),
            points: 200,
            turns: 3,
            sides: [side("Crown", "a"), side("Congress", "b")],
            rules: HouseRules::default(),
            scenario: None,
        }
    }

    /// These tests never look inside a roster.
    fn roster() -> RosterJson {
        RosterJson::from_value(&serde_json::json!({ "name": "Force" }))
    }

    fn battle() -> CampaignBattle {
        CampaignBattle {
            no: 1,
            turn: 1,
            name: "Chadds Ford".into(),
            site: BattleSite::Place { place: "b".into() },
            attacker: "f1".into(),
            defender: "f2".into(),
            attacker_support: Vec::new(),
            defender_support: Vec::new(),
            scenario: "take_the_field".into(),
            record: 7,
            status: BattleStatus::Pending,
            result: None,
        }
    }

    fn result() -> BattleResult {
        BattleResult {
            winner: Some("attacker".into()),
            level: "major".into(),
            attacker_vp: 6,
            defender_vp: 2,
            method: "tabletop".into(),
            engine: None,
        }
    }

    /// One entry of every kind.
    fn one_of_each() -> Vec<Event> {
        let f = || "f1".to_string();
        vec![
            Event::Created {
                settings: settings(),
                map: Map::default(),
            },
            Event::MapChanged {
                map: Map::default(),
                homes: ["a".into(), "b".into()],
            },
            Event::Enlisted {
                force: f(),
                user: 1,
                player: "Howe".into(),
                side: 0,
                roster: roster(),
                ratings: BTreeMap::new(),
                rolls: Vec::new(),
                warning: None,
            },
            Event::Started,
            Event::OrderGiven {
                force: f(),
                order: Order::Hold,
            },
            Event::TurnClosed {
                orders: BTreeMap::new(),
            },
            Event::Moved {
                force: f(),
                from: "a".into(),
                to: "b".into(),
                route: Some("r1".into()),
            },
            Event::BattleSet {
                battle: battle(),
                rolls: Vec::new(),
            },
            Event::BattleRearranged {
                battle: battle(),
                what: "scenario".into(),
            },
            Event::BattleFought {
                battle: 1,
                result: result(),
            },
            Event::Retreated {
                force: f(),
                from: "b".into(),
                to: "a".into(),
            },
            Event::Surrendered {
                force: f(),
                at: "a".into(),
            },
            Event::Destroyed { force: f() },
            Event::ElementReduced {
                force: f(),
                element: "e1".into(),
                size: "small".into(),
                roll: 4,
                battle: "the battle at Chadds Ford".into(),
                dropped: Vec::new(),
                refund: 0,
                bank: 0,
            },
            Event::ElementLost {
                force: f(),
                element: "e1".into(),
                roll: 1,
                battle: "the battle at Chadds Ford".into(),
            },
            Event::ElementPromoted {
                force: f(),
                element: "e1".into(),
                to: "veteran".into(),
                roll: 6,
                battle: "the battle at Chadds Ford".into(),
            },
            Event::CommanderReplaced {
                force: f(),
                commander: "c1".into(),
                fallen: "Grey".into(),
                name: "Officer".into(),
                rating_roll: 3,
                roll: "rolled 4, −1".into(),
                battle: "the battle at Chadds Ford".into(),
                stepped_up: false,
            },
            Event::Experience {
                force: f(),
                commander: "c1".into(),
                roll: 6,
                rating_roll: 4,
                battle: "the battle at Chadds Ford".into(),
            },
            Event::PlaceTaken {
                place: "b".into(),
                side: 0,
                force: Some(f()),
            },
            Event::Reinforced {
                force: f(),
                gained: 10,
                bank: 10,
            },
            Event::Purchased {
                force: f(),
                what: "Elite for Regiment (5 points)".into(),
                cost: 5,
                roster: roster(),
                full_size: None,
                element: Some("e1".into()),
            },
            Event::TurnBegan { turn: 2 },
            Event::Ended {
                reason: "The last turn is over.".into(),
            },
            Event::BattleVoided {
                battle: 1,
                from_seq: 9,
                record: 8,
                reason: "wrong report".into(),
            },
            Event::Adjusted {
                force: Some(f()),
                side: None,
                points: 2,
                bank: 0,
                bank_after: None,
                reason: "late".into(),
            },
            Event::PlayerReplaced {
                force: f(),
                user: 2,
                player: "Clinton".into(),
            },
            Event::Reorganised {
                force: f(),
                element: "e1".into(),
                what: "from Group 2 to Group 1".into(),
                roster: roster(),
            },
            Event::EngineConsent {
                battle: 1,
                player: "Howe".into(),
                step: EngineStep::Asked,
            },
            Event::EngineOrdered {
                battle: 1,
                reason: "Howe is away".into(),
            },
            Event::ForceWithdrawn { force: f() },
            Event::ForceRemoved {
                force: f(),
                reason: "never turned up".into(),
            },
            Event::ForceChanged {
                force: f(),
                roster: roster(),
                ratings: BTreeMap::new(),
                rolls: Vec::new(),
                warning: None,
            },
            Event::HouseRulesChanged {
                rules: HouseRules::default(),
                changes: vec!["Surrender: off".into()],
            },
            Event::OfficerRenamed {
                force: f(),
                commander: "c1".into(),
                from: "Officer".into(),
                name: "Major André".into(),
            },
            Event::Archived,
            Event::Unarchived,
            Event::PublicPageOn,
            Event::PublicPageOff,
            // Turn deadlines.
            Event::DeadlineSet {
                turn: 1,
                at: 1_795_111_200,
                set_at: 1_795_000_000,
                by_default: false,
            },
            Event::DeadlineCleared { turn: 1 },
            Event::TurnLengthSet { minutes: Some(60) },
            Event::DeadlinePassed {
                turn: 1,
                at: 1_795_111_200,
            },
            Event::WebhookChanged {
                host: Some("discord.com".into()),
            },
        ]
    }

    /// A number per variant; a new variant fails to compile here until it has a sample above.
    fn variant_no(e: &Event) -> usize {
        match e {
            Event::Created { .. } => 0,
            Event::MapChanged { .. } => 1,
            Event::Enlisted { .. } => 2,
            Event::Started => 3,
            Event::OrderGiven { .. } => 4,
            Event::TurnClosed { .. } => 5,
            Event::Moved { .. } => 6,
            Event::BattleSet { .. } => 7,
            Event::BattleRearranged { .. } => 8,
            Event::BattleFought { .. } => 9,
            Event::Retreated { .. } => 10,
            Event::Surrendered { .. } => 11,
            Event::Destroyed { .. } => 12,
            Event::ElementReduced { .. } => 13,
            Event::ElementLost { .. } => 14,
            Event::ElementPromoted { .. } => 15,
            Event::CommanderReplaced { .. } => 16,
            Event::Experience { .. } => 17,
            Event::PlaceTaken { .. } => 18,
            Event::Reinforced { .. } => 19,
            Event::Purchased { .. } => 20,
            Event::TurnBegan { .. } => 21,
            Event::Ended { .. } => 22,
            Event::BattleVoided { .. } => 23,
            Event::Adjusted { .. } => 24,
            Event::PlayerReplaced { .. } => 25,
            Event::Reorganised { .. } => 26,
            Event::EngineConsent { .. } => 27,
            Event::EngineOrdered { .. } => 28,
            Event::ForceWithdrawn { .. } => 29,
            Event::ForceRemoved { .. } => 30,
            Event::ForceChanged { .. } => 31,
            Event::HouseRulesChanged { .. } => 32,
            Event::OfficerRenamed { .. } => 33,
            Event::Archived => 34,
            Event::Unarchived => 35,
            Event::PublicPageOn => 36,
            Event::PublicPageOff => 37,
            // Turn deadlines.
            Event::DeadlineSet { .. } => 38,
            Event::DeadlineCleared { .. } => 39,
            Event::TurnLengthSet { .. } => 40,
            Event::DeadlinePassed { .. } => 41,
            Event::WebhookChanged { .. } => 42,
        }
    }

    #[test]
    fn every_kind_is_the_tag_the_log_stores() {
        let events = one_of_each();
        let covered: Vec<usize> = events.iter().map(variant_no).collect();
        assert_eq!(
            covered,
            (0..43).collect::<Vec<_>>(),
            "one sample per variant"
        );
        for e in &events {
            let stored = serde_json::to_value(e).expect("serialises");
            assert_eq!(stored["kind"].as_str(), Some(e.kind()), "{e:?}");
            let back: Event = serde_json::from_value(stored).expect("reads back");
            assert_eq!(back.kind(), e.kind());
        }
    }

    #[test]
    fn the_log_filtered_by_a_force_keeps_what_happened_to_it() {
        let events = one_of_each();
        let of_f1: Vec<&str> = events
            .iter()
            .filter(|e| e.force() == Some("f1"))
            .map(Event::kind)
            .collect();
        assert_eq!(
            of_f1,
            [
                "enlisted",
                "order_given",
                "moved",
                "retreated",
                "surrendered",
                "destroyed",
                "element_reduced",
                "element_lost",
                "element_promoted",
                "commander_replaced",
                "experience",
                "place_taken",
                "reinforced",
                "purchased",
                "adjusted",
                "player_replaced",
                "reorganised",
                "force_withdrawn",
                "force_removed",
                "force_changed",
                "officer_renamed",
            ]
        );
        // Campaign-wide entries and battles name no single force.
        for e in &events {
            if matches!(
                e,
                Event::Created { .. }
                    | Event::Started
                    | Event::TurnClosed { .. }
                    | Event::BattleSet { .. }
                    | Event::BattleFought { .. }
                    | Event::BattleVoided { .. }
            ) {
                assert_eq!(e.force(), None, "{}", e.kind());
            }
        }
    }

    #[test]
    fn a_side_adjustment_or_a_place_held_from_the_start_is_no_force_s() {
        let side = Event::Adjusted {
            force: None,
            side: Some(1),
            points: -3,
            bank: 0,
            bank_after: None,
            reason: "conceded".into(),
        };
        assert_eq!(side.force(), None);
        let taken = Event::PlaceTaken {
            place: "b".into(),
            side: 1,
            force: None,
        };
        assert_eq!(taken.force(), None);
    }

    fn force(id: &str, out: Option<&str>) -> Force {
        Force {
            id: id.into(),
            user: 0,
            player: id.into(),
            side: 0,
            place: "a".into(),
            roster: roster(),
            full_sizes: BTreeMap::new(),
            ratings: BTreeMap::new(),
            bank: 0,
            out: out.map(String::from),
            history: BTreeMap::new(),
            adjustment: 0,
        }
    }

    #[test]
    fn orders_in_counts_only_forces_still_in_the_field() {
        let mut st = CampaignState {
            phase: Phase::Orders,
            turn: 2,
            ..CampaignState::default()
        };
        for (id, out) in [
            ("f1", None),
            ("f2", None),
            ("f3", Some("surrendered at Iron Hill")),
            ("f4", None),
        ] {
            st.forces.insert(id.into(), force(id, out));
        }
        assert_eq!(st.orders_in(), (0, 3), "a surrendered force gives no order");
        st.orders.insert("f1".into(), Order::Hold);
        st.orders
            .insert("f4".into(), Order::Move { route: "r1".into() });
        assert_eq!(st.orders_in(), (2, 3));
        st.orders.insert("f2".into(), Order::Hold);
        assert_eq!(st.orders_in(), (3, 3), "every order is in");
    }
}
