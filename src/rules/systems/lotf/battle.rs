//! The battle set-up document `muster.lotf.battle/1`: two forces (each a
//! roster document with optional per-element and per-commander state), the
//! scenario, the game's points size, the seed and the engine version. Any
//! battle fought anywhere in Muster is replayed exactly from it. See
//! `docs/battle-format.md`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::catalogue::Catalogue;
use super::roster::{RosterDoc, ROSTER_FORMAT};
use super::types::{DisciplineLevel, Size};
use super::validate::price_roster;

/// The format tag of a set-up document.
pub const BATTLE_FORMAT: &str = "muster.lotf.battle/1";

/// The version of the rules engine (combat mechanics, simulator and
/// policy). It changes whenever the same set-up could give a different
/// battle.
pub const ENGINE_VERSION: &str = "muster-lotf-engine/2.4";

/// The eight scenarios of the book.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScenarioId {
    TakeTheField,
    Reconnoiter,
    HoldTheGround,
    FlankAttack,
    Surrounded,
    Ambush,
    FrontalAssault,
    MeetingEngagement,
}

impl ScenarioId {
    /// Every scenario.
    pub const ALL: [ScenarioId; 8] = [
        ScenarioId::TakeTheField,
        ScenarioId::Reconnoiter,
        ScenarioId::HoldTheGround,
        ScenarioId::FlankAttack,
        ScenarioId::Surrounded,
        ScenarioId::Ambush,
        ScenarioId::FrontalAssault,
        ScenarioId::MeetingEngagement,
    ];

    /// The id used in documents and the catalogue.
    pub fn id(self) -> &'static str {
        match self {
            ScenarioId::TakeTheField => "take_the_field",
            ScenarioId::Reconnoiter => "reconnoiter",
            ScenarioId::HoldTheGround => "hold_the_ground",
            ScenarioId::FlankAttack => "flank_attack",
            ScenarioId::Surrounded => "surrounded",
            ScenarioId::Ambush => "ambush",
            ScenarioId::FrontalAssault => "frontal_assault",
            ScenarioId::MeetingEngagement => "meeting_engagement",
        }
    }

    /// Parse an id.
    pub fn from_id(s: &str) -> Option<ScenarioId> {
        ScenarioId::ALL.iter().copied().find(|x| x.id() == s)
    }

    /// Whether objectives decide the game; otherwise victory points.
    pub fn uses_objectives(self) -> bool {
        matches!(
            self,
            ScenarioId::TakeTheField
                | ScenarioId::HoldTheGround
                | ScenarioId::FlankAttack
                | ScenarioId::Surrounded
                | ScenarioId::FrontalAssault
        )
    }
}

/// The state an element starts the battle in (campaign casualties, a
/// scenario that starts elements worn).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ElementState {
    /// A reduced size (campaign casualties).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<Size>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discipline_level: Option<DisciplineLevel>,
    #[serde(default)]
    pub hits: u32,
    #[serde(default)]
    pub disorder_markers: u32,
}

/// A commander's rating, rolled before the battle (campaign enlistment).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommanderState {
    /// The d6 roll of the rating (1–6, R-11).
    pub rating_roll: u8,
}

/// One side of the battle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForceSetup {
    pub roster: RosterDoc,
    /// Per-element state by element id.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub elements: BTreeMap<String, ElementState>,
    /// Rolled ratings by commander id; commanders not listed roll at the start.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub commanders: BTreeMap<String, CommanderState>,
}

impl ForceSetup {
    /// A force with no special state.
    pub fn new(mut roster: RosterDoc) -> ForceSetup {
        roster.assign_missing_ids();
        ForceSetup {
            roster,
            elements: BTreeMap::new(),
            commanders: BTreeMap::new(),
        }
    }
}

/// The whole set-up document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BattleSetup {
    /// Always `muster.lotf.battle/1`.
    pub format: String,
    pub scenario: ScenarioId,
    pub seed: u64,
    /// The game's points size; absent: the larger of the two points limits
    /// (or of the two forces' totals when neither has a limit, M-18).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<u32>,
    /// The engine that fought it (filled in by [`BattleSetup::new`]; a
    /// replay with another engine may differ).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine_version: Option<String>,
    pub attacker: ForceSetup,
    pub defender: ForceSetup,
}

/// Why a set-up document was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize)]
pub enum BattleError {
    #[error("not valid JSON for a battle set-up: {0}")]
    Json(String),
    #[error("format must be `{BATTLE_FORMAT}`, not `{0}`")]
    Format(String),
    #[error("{path}: {message}")]
    Invalid { path: String, message: String },
}

fn invalid(path: impl Into<String>, message: impl Into<String>) -> BattleError {
    BattleError::Invalid {
        path: path.into(),
        message: message.into(),
    }
}

impl BattleSetup {
    /// A set-up from two rosters (roles as given), a scenario and a seed.
    /// Missing ids are assigned so that per-element state can refer to them.
    pub fn new(
        attacker: RosterDoc,
        defender: RosterDoc,
        scenario: ScenarioId,
        seed: u64,
    ) -> BattleSetup {
        BattleSetup {
            format: BATTLE_FORMAT.to_string(),
            scenario,
            seed,
            points: None,
            engine_version: Some(ENGINE_VERSION.to_string()),
            attacker: ForceSetup::new(attacker),
            defender: ForceSetup::new(defender),
        }
    }

    /// The same battle with another seed.
    pub fn with_seed(&self, seed: u64) -> BattleSetup {
        let mut s = self.clone();
        s.seed = seed;
        s
    }

    /// The game's points size (M-18).
    pub fn points_size(&self, cat: &Catalogue) -> u32 {
        if let Some(p) = self.points.filter(|p| *p > 0) {
            return p;
        }
        let limits = [
            self.attacker.roster.points_limit,
            self.defender.roster.points_limit,
        ];
        let best = limits.iter().flatten().copied().max().unwrap_or(0);
        if best > 0 {
            return best;
        }
        price_roster(cat, &self.attacker.roster)
            .total
            .max(price_roster(cat, &self.defender.roster).total)
            .max(1)
    }

    /// Check the document: format, rosters, and that state refers to
    /// existing elements and commanders. Every problem is a domain error;
    /// nothing panics.
    pub fn check(&self) -> Result<(), BattleError> {
        if self.format != BATTLE_FORMAT {
            return Err(BattleError::Format(self.format.clone()));
        }
        for (name, f) in [("attacker", &self.attacker), ("defender", &self.defender)] {
            if f.roster.format != ROSTER_FORMAT {
                return Err(invalid(
                    format!("{name}.roster.format"),
                    format!("must be `{ROSTER_FORMAT}`"),
                ));
            }
            if f.roster.groups.is_empty() || f.roster.element_count() == 0 {
                return Err(invalid(
                    format!("{name}.roster"),
                    "the force has no elements",
                ));
            }
            if f.roster.groups.len() > 50 || f.roster.element_count() > 500 {
                return Err(invalid(
                    format!("{name}.roster"),
                    "the force is too large to simulate",
                ));
            }
            let mut ids = std::collections::BTreeSet::new();
            let mut cmd_ids = std::collections::BTreeSet::new();
            if let Some(c) = &f.roster.force_commander {
                if let Some(id) = &c.id {
                    cmd_ids.insert(id.clone());
                }
            }
            for g in &f.roster.groups {
                if let Some(id) = g.commander.as_ref().and_then(|c| c.id.clone()) {
                    cmd_ids.insert(id);
                }
                for e in &g.elements {
                    if let Some(id) = &e.id {
                        ids.insert(id.clone());
                    }
                }
            }
            for (id, st) in &f.elements {
                if !ids.contains(id) {
                    return Err(invalid(
                        format!("{name}.elements.{id}"),
                        "no element of the roster has this id",
                    ));
                }
                if st.hits > 100 || st.disorder_markers > 100 {
                    return Err(invalid(
                        format!("{name}.elements.{id}"),
                        "hits or markers out of range",
                    ));
                }
            }
            for (id, st) in &f.commanders {
                if !cmd_ids.contains(id) {
                    return Err(invalid(
                        format!("{name}.commanders.{id}"),
                        "no commander of the roster has this id",
                    ));
                }
                if !(1..=6).contains(&st.rating_roll) {
                    return Err(invalid(
                        format!("{name}.commanders.{id}.rating_roll"),
                        "a rating roll is 1 to 6 (R-11)",
                    ));
                }
            }
        }
        Ok(())
    }

    /// Pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

/// Parse and check a set-up document. Ids missing from the rosters are
/// assigned (document order), so state keyed by them must use the ids the
/// document already carries.
pub fn parse_battle(json: &str) -> Result<BattleSetup, BattleError> {
    let mut s: BattleSetup =
        serde_json::from_str(json).map_err(|e| BattleError::Json(e.to_string()))?;
    for (side, force) in [("attacker", &s.attacker), ("defender", &s.defender)] {
        super::roster::check_roster_size(&force.roster)
            .map_err(|e| invalid(format!("{side}.roster"), e.message))?;
    }
    s.attacker.roster.assign_missing_ids();
    s.defender.roster.assign_missing_ids();
    s.check()?;
    Ok(s)
}

/// Serialise a set-up document.
pub fn serialize_battle(s: &BattleSetup) -> String {
    s.to_json()
}
