//! The Land of the Free catalogue: every number and table the rules core
//! needs, read from JSON data files compiled into the binary and checked for
//! consistency before use.
//!
//! The data is the single source of truth for validation, pricing, element
//! profiles and (later) printing and combat. A test or a test server may
//! build a modified catalogue with [`Catalogue::from_json`].
//!
//! The code is split by job: [`schema`] holds the data structures the JSON
//! files are read into, `modifiers` the typed ids of the modifier tables,
//! `accessors` the lookups the rules code uses, `check`
//! the consistency check run on every load and `text` the plain-text
//! rendering for `muster catalog`.

use serde::{Deserialize, Serialize};

mod accessors;
mod check;
mod modifiers;
pub mod schema;
mod text;

pub use modifiers::{MeleeDiceModifier, MeleeResolutionModifier, MoraleModifier, ShootingModifier};
pub use schema::{
    CommanderRating, Commanders, DiceModifier, DisciplineLevelData, ElementTypeData, FormationData,
    HistoricalEntry, MeleeTable, Meta, MoraleTable, MovementRow, NamedEffect, NationData,
    NationList, ObjectiveLevel, OrdersByType, ScenarioData, ScenarioRoll, ShootingTable, SizeStats,
    SkillData, SpecialOrder, SupportRule, TableNumbers, Tables, TerrainEffect, TestKind,
    UpgradeCombination, UpgradeData, ValueModifier, VictoryLevel, VictoryTable, WarData,
    WeaponData,
};
use schema::{ElementsFile, HistoricalListsFile, SkillsFile, UpgradesFile};

const META_JSON: &str = include_str!("../data/meta.json");
const ELEMENTS_JSON: &str = include_str!("../data/elements.json");
const UPGRADES_JSON: &str = include_str!("../data/upgrades.json");
const SKILLS_JSON: &str = include_str!("../data/skills.json");
const COMMANDERS_JSON: &str = include_str!("../data/commanders.json");
const TABLES_JSON: &str = include_str!("../data/tables.json");
const HISTORICAL_LISTS_JSON: &str = include_str!("../data/historical_lists.json");

/// Skill ids the rules code itself interprets (the rest are descriptive).
pub mod skill_ids {
    pub const RIFLES: &str = "rifles";
    pub const MIXED_WEAPONS: &str = "mixed_weapons";
    pub const GERMAN_RANKS: &str = "german_ranks";
    pub const NUMBERS: &str = "numbers";
    pub const RESILIENT: &str = "resilient";
    pub const SELF_PRESERVATION: &str = "self_preservation";
    pub const SCOUTS: &str = "scouts";
    pub const WILDERNESS_GUIDES: &str = "wilderness_guides";
}

/// Why the catalogue could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CatalogueError {
    /// A data file is not valid JSON or does not match the schema.
    #[error("catalogue data `{file}` could not be read: {message}")]
    Parse { file: String, message: String },
    /// The data parsed but contradicts itself; every problem is listed.
    #[error("catalogue data is inconsistent: {}", .problems.join("; "))]
    Inconsistent { problems: Vec<String> },
}

/// The whole catalogue. Serialises to the document served by
/// `GET /api/v1/lotf/catalog`; [`Catalogue::from_json`] reads that document back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Catalogue {
    meta: Meta,
    element_types: Vec<ElementTypeData>,
    weapons: Vec<WeaponData>,
    formations: Vec<FormationData>,
    threat_zone: u8,
    max_upgrades_per_element: u8,
    upgrade_combinations: Vec<UpgradeCombination>,
    cap_percent: u32,
    upgrades: Vec<UpgradeData>,
    skills: Vec<SkillData>,
    commanders: Commanders,
    tables: Tables,
    nations: Vec<NationData>,
    wars: Vec<WarData>,
    historical_notes: Vec<String>,
}

fn parse_file<T: for<'de> Deserialize<'de>>(file: &str, text: &str) -> Result<T, CatalogueError> {
    serde_json::from_str(text).map_err(|e| CatalogueError::Parse {
        file: file.to_string(),
        message: e.to_string(),
    })
}

impl Catalogue {
    /// The catalogue compiled into the binary, parsed and checked.
    pub fn builtin() -> Result<Catalogue, CatalogueError> {
        let meta: Meta = parse_file("meta.json", META_JSON)?;
        let elements: ElementsFile = parse_file("elements.json", ELEMENTS_JSON)?;
        let upgrades: UpgradesFile = parse_file("upgrades.json", UPGRADES_JSON)?;
        let skills: SkillsFile = parse_file("skills.json", SKILLS_JSON)?;
        let commanders: Commanders = parse_file("commanders.json", COMMANDERS_JSON)?;
        let tables: Tables = parse_file("tables.json", TABLES_JSON)?;
        let lists: HistoricalListsFile =
            parse_file("historical_lists.json", HISTORICAL_LISTS_JSON)?;
        let cat = Catalogue {
            meta,
            element_types: elements.types,
            weapons: elements.weapons,
            formations: elements.formations,
            threat_zone: elements.threat_zone,
            max_upgrades_per_element: upgrades.max_per_element,
            upgrade_combinations: upgrades.combinations,
            cap_percent: upgrades.cap_percent,
            upgrades: upgrades.upgrades,
            skills: skills.skills,
            commanders,
            tables,
            nations: lists.nations,
            wars: lists.wars,
            historical_notes: lists.notes,
        };
        cat.check()?;
        Ok(cat)
    }

    /// Read a whole catalogue document (the serialised form of a
    /// [`Catalogue`]) and check it. Use this to build a modified catalogue.
    pub fn from_json(json: &str) -> Result<Catalogue, CatalogueError> {
        let cat: Catalogue = parse_file("catalogue document", json)?;
        cat.check()?;
        Ok(cat)
    }

    /// Serialise to the whole catalogue document.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}
