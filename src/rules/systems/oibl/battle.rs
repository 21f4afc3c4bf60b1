//! A *One if by Land* battle: the set-up document `muster.oibl.battle/1` (both orders of battle
//! with every commander's rating fixed, the seed), the decided battle in the game's own terms
//! (per unit figures lost, routed, left the table, destroyed, guns lost; commanders wounded or
//! killed; turns played) and Muster's victory rule (B-34, B-35: the rules have none).

use serde::{Deserialize, Serialize};

use crate::rules::system::{BattleSide, Method};

use super::catalogue::{Catalogue, Wound};
use super::roster::RosterDoc;

pub const BATTLE_FORMAT: &str = "muster.oibl.battle/1";

/// Scenarios Muster knows for this system: the rules ship none (spec 2.3).
pub const SCENARIOS: [(&str, &str); 2] = [
    (
        "open_field",
        "Open field: both sides deploy within 8\" of their own edge",
    ),
    (
        "defended_line",
        "Defended line: the defender's units stand behind fences (light cover)",
    ),
];

/// One side of a battle: its order of battle as fought (every commander's rating set).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideSetup {
    pub roster: RosterDoc,
}

/// A battle ready to fight or to record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BattleSetup {
    /// `muster.oibl.battle/1`.
    pub format: String,
    pub attacker: SideSetup,
    pub defender: SideSetup,
    /// `open_field` or `defended_line`.
    pub scenario: String,
    /// Game length in turns (B-35: 12 unless the scenario says otherwise).
    pub turns: u32,
    /// The battle's own dice.
    pub seed: u64,
    /// Optional rule one: a card for each division commander (spec 5.1). On when a roster has
    /// divisions unless set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub division_cards: Option<bool>,
}

impl BattleSetup {
    pub fn side(&self, side: BattleSide) -> &SideSetup {
        match side {
            BattleSide::Attacker => &self.attacker,
            BattleSide::Defender => &self.defender,
        }
    }
}

/// What befell a commander.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fate {
    #[default]
    Unhurt,
    LightWound,
    SeriousWound,
    Killed,
}

impl Fate {
    pub fn from_wound(w: Wound) -> Fate {
        match w {
            Wound::Light => Fate::LightWound,
            Wound::Serious => Fate::SeriousWound,
            Wound::Killed => Fate::Killed,
        }
    }

    pub fn words(self) -> &'static str {
        match self {
            Fate::Unhurt => "unhurt",
            Fate::LightWound => "lightly wounded",
            Fate::SeriousWound => "seriously wounded",
            Fate::Killed => "killed",
        }
    }
}

/// A unit at the end of a battle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitResult {
    pub id: String,
    pub name: String,
    pub start_figures: u32,
    pub figures_lost: u32,
    /// Routing when the battle ended (or routed off the table).
    pub routed: bool,
    pub left_table: bool,
    /// Removed under B-33.
    pub destroyed: bool,
    #[serde(default)]
    pub guns_lost: u32,
}

impl UnitResult {
    /// Lost for B-34: destroyed, off the table or routing.
    pub fn lost(&self) -> bool {
        self.destroyed || self.left_table || self.routed
    }
}

/// A commander at the end of a battle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommanderResult {
    /// The commander's id in the roster, else `brigades[i]`.
    pub id: String,
    pub name: String,
    pub fate: Fate,
}

/// One side's battle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideResult {
    pub name: String,
    pub units: Vec<UnitResult>,
    pub commanders: Vec<CommanderResult>,
    /// B-34: lost units reached half the starting units at a turn's end.
    pub defeated: bool,
}

impl SideResult {
    pub fn start_units(&self) -> u32 {
        u32::try_from(self.units.len()).unwrap_or(u32::MAX)
    }

    pub fn lost_units(&self) -> u32 {
        u32::try_from(self.units.iter().filter(|u| u.lost()).count()).unwrap_or(u32::MAX)
    }

    pub fn start_figures(&self) -> u32 {
        self.units.iter().map(|u| u.start_figures).sum()
    }

    pub fn figures_lost(&self) -> u32 {
        self.units.iter().map(|u| u.figures_lost).sum()
    }

    pub fn guns_lost(&self) -> u32 {
        self.units.iter().map(|u| u.guns_lost).sum()
    }

    /// B-34: at least half its starting units lost.
    pub fn broken(&self, cat: &Catalogue) -> bool {
        let v = &cat.victory;
        self.start_units() > 0
            && u64::from(self.lost_units()) * u64::from(v.lost_share_den)
                >= u64::from(self.start_units()) * u64::from(v.lost_share_num)
    }
}

/// How the battle was decided, in Muster's own terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    /// The loser's army morale failed (B-34).
    Decisive,
    /// Neither broke by the last turn; the smaller share of figures lost wins (B-35).
    Marginal,
    Draw,
}

impl Level {
    pub fn id(self) -> &'static str {
        match self {
            Level::Decisive => "decisive",
            Level::Marginal => "marginal",
            Level::Draw => "draw",
        }
    }
}

/// A decided battle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Outcome {
    pub method: Method,
    pub winner: Option<BattleSide>,
    pub level: Level,
    pub turns: u32,
    pub attacker: SideResult,
    pub defender: SideResult,
    /// Why it ended, in words.
    pub reason: String,
    /// The narrated battle (simulated battles).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub log: Vec<String>,
}

/// Muster's victory rule (B-34, B-35): a broken side loses decisively, both broken is a draw;
/// at the end of the last turn the side with the smaller share of its starting figures lost wins
/// a marginal victory, equal shares draw.
pub fn decide(
    cat: &Catalogue,
    attacker: &SideResult,
    defender: &SideResult,
    last_turn: bool,
) -> Option<(Option<BattleSide>, Level, String)> {
    match (attacker.broken(cat), defender.broken(cat)) {
        (true, true) => Some((
            None,
            Level::Draw,
            "Both armies lost half their units in the same turn (B-34): a draw.".into(),
        )),
        (true, false) => Some((
            Some(BattleSide::Defender),
            Level::Decisive,
            format!("{} lost half its units (B-34).", attacker.name),
        )),
        (false, true) => Some((
            Some(BattleSide::Attacker),
            Level::Decisive,
            format!("{} lost half its units (B-34).", defender.name),
        )),
        (false, false) if last_turn => {
            // Shares compared exactly: lost_a / start_a against lost_d / start_d.
            let a = u64::from(attacker.figures_lost()) * u64::from(defender.start_figures().max(1));
            let d = u64::from(defender.figures_lost()) * u64::from(attacker.start_figures().max(1));
            Some(match a.cmp(&d) {
                std::cmp::Ordering::Less => (
                    Some(BattleSide::Attacker),
                    Level::Marginal,
                    format!(
                        "Time ran out; {} lost the smaller share of its figures (B-35).",
                        attacker.name
                    ),
                ),
                std::cmp::Ordering::Greater => (
                    Some(BattleSide::Defender),
                    Level::Marginal,
                    format!(
                        "Time ran out; {} lost the smaller share of its figures (B-35).",
                        defender.name
                    ),
                ),
                std::cmp::Ordering::Equal => (
                    None,
                    Level::Draw,
                    "Time ran out with equal shares of figures lost (B-35): a draw.".into(),
                ),
            })
        }
        (false, false) => None,
    }
}
