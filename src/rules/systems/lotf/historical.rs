//! The book's 20 historical refights as data: each side's forces are roster
//! documents in historical mode.
//!
//! The files under `data/historical/` are compiled in; names, dates and
//! numbers are facts, every note is in our own words.

use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

use super::roster::RosterDoc;
use super::types::{Nation, War};

/// Every order of battle, by id, in chronological order.
const FILES: &[(&str, &str)] = &[
    (
        "monongahela",
        include_str!("data/historical/monongahela.json"),
    ),
    (
        "ticonderoga",
        include_str!("data/historical/ticonderoga.json"),
    ),
    (
        "plains_of_abraham",
        include_str!("data/historical/plains_of_abraham.json"),
    ),
    (
        "sainte_foy",
        include_str!("data/historical/sainte_foy.json"),
    ),
    (
        "second_trenton",
        include_str!("data/historical/second_trenton.json"),
    ),
    ("princeton", include_str!("data/historical/princeton.json")),
    (
        "brandywine",
        include_str!("data/historical/brandywine.json"),
    ),
    (
        "germantown",
        include_str!("data/historical/germantown.json"),
    ),
    (
        "kings_mountain",
        include_str!("data/historical/kings_mountain.json"),
    ),
    ("cowpens", include_str!("data/historical/cowpens.json")),
    (
        "guilford_court_house",
        include_str!("data/historical/guilford_court_house.json"),
    ),
    ("wabash", include_str!("data/historical/wabash.json")),
    (
        "fallen_timbers",
        include_str!("data/historical/fallen_timbers.json"),
    ),
    ("thames", include_str!("data/historical/thames.json")),
    (
        "cryslers_farm",
        include_str!("data/historical/cryslers_farm.json"),
    ),
    ("chippawa", include_str!("data/historical/chippawa.json")),
    (
        "niagara_falls",
        include_str!("data/historical/niagara_falls.json"),
    ),
    (
        "bladensburg",
        include_str!("data/historical/bladensburg.json"),
    ),
    (
        "plattsburgh",
        include_str!("data/historical/plattsburgh.json"),
    ),
    (
        "new_orleans",
        include_str!("data/historical/new_orleans.json"),
    ),
];

/// Attacker or defender.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Attacker,
    Defender,
}

/// One side of a refight: one or more forces of one nation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HistoricalSide {
    pub role: Role,
    pub nation: Nation,
    /// How many elements the book lists for this side.
    pub book_element_count: u32,
    /// Each force is its own roster (Brandywine and Germantown have several).
    pub forces: Vec<RosterDoc>,
}

impl HistoricalSide {
    /// Elements in all of this side's forces.
    pub fn element_count(&self) -> usize {
        self.forces.iter().map(|f| f.element_count()).sum()
    }
}

/// A whole refight.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HistoricalBattle {
    pub id: String,
    pub name: String,
    /// ISO date, e.g. `1777-09-11`.
    pub date: String,
    pub war: War,
    /// Scenario id of the book's scenario list (snake_case).
    pub scenario: String,
    pub attacker: Nation,
    pub defender: Nation,
    pub sides: Vec<HistoricalSide>,
    /// Decisions taken while transcribing (our words).
    #[serde(default)]
    pub notes: Vec<String>,
}

impl HistoricalBattle {
    /// Elements on both sides.
    pub fn element_count(&self) -> usize {
        self.sides.iter().map(|s| s.element_count()).sum()
    }
}

/// A line of the list of refights.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HistoricalSummary {
    pub id: String,
    pub name: String,
    pub date: String,
    pub war: War,
    pub scenario: String,
    pub attacker: Nation,
    pub defender: Nation,
    /// Number of roster documents over both sides.
    pub forces: usize,
    pub elements: usize,
}

/// A refight file that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("historical order of battle `{id}` could not be read: {message}")]
pub struct HistoricalError {
    pub id: String,
    pub message: String,
}

fn parse(id: &str, text: &str) -> Result<HistoricalBattle, HistoricalError> {
    let battle: HistoricalBattle = serde_json::from_str(text).map_err(|e| HistoricalError {
        id: id.to_string(),
        message: e.to_string(),
    })?;
    if battle.id != id {
        return Err(HistoricalError {
            id: id.to_string(),
            message: format!("the file declares id `{}`", battle.id),
        });
    }
    Ok(battle)
}

/// Every refight, or the first file that fails to parse. The test suite
/// keeps this an `Ok`.
pub fn historical_battles_checked() -> Result<Vec<HistoricalBattle>, HistoricalError> {
    FILES.iter().map(|(id, text)| parse(id, text)).collect()
}

/// Every refight that parses, parsed once: the files are built into the program and never
/// change while it runs, so reading them again on every request was waste.
fn parsed() -> &'static [HistoricalBattle] {
    static PARSED: OnceLock<Vec<HistoricalBattle>> = OnceLock::new();
    PARSED.get_or_init(|| {
        FILES
            .iter()
            .filter_map(|(id, text)| parse(id, text).ok())
            .collect()
    })
}

/// The list of refights (any file that failed to parse is left out; see
/// [`historical_battles_checked`]).
pub fn historical_battles() -> Vec<HistoricalSummary> {
    parsed()
        .iter()
        .map(|b| HistoricalSummary {
            forces: b.sides.iter().map(|s| s.forces.len()).sum(),
            elements: b.element_count(),
            id: b.id.clone(),
            name: b.name.clone(),
            date: b.date.clone(),
            war: b.war,
            scenario: b.scenario.clone(),
            attacker: b.attacker,
            defender: b.defender,
        })
        .collect()
}

/// One refight by id.
pub fn historical_battle(id: &str) -> Option<HistoricalBattle> {
    parsed().iter().find(|b| b.id == id).cloned()
}

/// One force of a refight, named `battle:side:force` (e.g. `cowpens:0:0`): the reference
/// forms and requests use to pick a historical force.
pub fn historical_force(reference: &str) -> Option<RosterDoc> {
    let mut parts = reference.split(':');
    let (id, side, force) = (
        parts.next()?,
        parts.next()?.parse::<usize>().ok()?,
        parts.next()?.parse::<usize>().ok()?,
    );
    if parts.next().is_some() {
        return None;
    }
    historical_battle(id)?
        .sides
        .get(side)?
        .forces
        .get(force)
        .cloned()
}

/// Ids of all refights, in order.
pub fn historical_ids() -> Vec<&'static str> {
    FILES.iter().map(|(id, _)| *id).collect()
}
