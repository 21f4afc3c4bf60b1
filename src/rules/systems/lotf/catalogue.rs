//! The Land of the Free catalogue: every number and table the rules core
//! needs, read from JSON data files compiled into the binary and checked for
//! consistency before use.
//!
//! The data is the single source of truth for validation, pricing, element
//! profiles and (later) printing and combat. A test or a test server may
//! build a modified catalogue with [`Catalogue::from_json`].

use std::collections::BTreeSet;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use super::types::{ElementType, Formation, Nation, Size, Upgrade, War, Weapon};

const META_JSON: &str = include_str!("data/meta.json");
const ELEMENTS_JSON: &str = include_str!("data/elements.json");
const UPGRADES_JSON: &str = include_str!("data/upgrades.json");
const SKILLS_JSON: &str = include_str!("data/skills.json");
const COMMANDERS_JSON: &str = include_str!("data/commanders.json");
const TABLES_JSON: &str = include_str!("data/tables.json");
const HISTORICAL_LISTS_JSON: &str = include_str!("data/historical_lists.json");

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

/// Catalogue identity.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Meta {
    pub rule_system: String,
    pub title: String,
    pub version: String,
}

/// One size row of an element type's statistics.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SizeStats {
    pub size: Size,
    pub maneuver: u8,
    pub combat: u8,
    pub discipline: u8,
    /// Target on 2d6 (the book's "7+" is stored as 7).
    pub morale: u8,
    pub action: u8,
    pub points: i32,
}

/// An element type with its weapons, formations and statistics by size.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ElementTypeData {
    pub id: ElementType,
    pub name: String,
    pub weapons: Vec<Weapon>,
    pub default_weapon: Weapon,
    pub formations: Vec<Formation>,
    pub sizes: Vec<SizeStats>,
}

/// A weapon or gun class.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponData {
    pub id: Weapon,
    pub name: String,
    /// Minimum range in inches (mortars and rockets).
    pub min_range: Option<u8>,
    /// Maximum range in inches.
    pub range: u8,
    /// Extra points per element.
    pub points: i32,
    /// Wars it may be fielded in; `None` means every war.
    pub wars: Option<Vec<War>>,
    pub summary: String,
}

/// A formation and what it means, in our words.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FormationData {
    pub id: Formation,
    pub name: String,
    pub summary: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ElementsFile {
    types: Vec<ElementTypeData>,
    weapons: Vec<WeaponData>,
    formations: Vec<FormationData>,
    threat_zone: u8,
}

/// An element upgrade (special element rule).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UpgradeData {
    pub id: Upgrade,
    pub name: String,
    /// Points added (negative for Militia).
    pub points: i32,
    /// Element types that may take it.
    pub types: Vec<ElementType>,
    /// Sizes that may take it; `None` means any size.
    pub sizes: Option<Vec<Size>>,
    /// Whether the force-wide percentage cap applies.
    pub cap: bool,
    /// Formations it is limited to; `None` means the type's formations.
    pub formations: Option<Vec<Formation>>,
    /// Skills granted: the union of body text and chart.
    pub skills: Vec<String>,
    pub summary: String,
}

/// Upgrades that may be carried together.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UpgradeCombination {
    pub upgrades: Vec<Upgrade>,
    pub note: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct UpgradesFile {
    max_per_element: u8,
    combinations: Vec<UpgradeCombination>,
    cap_percent: u32,
    upgrades: Vec<UpgradeData>,
}

/// A special skill with our own summary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SkillData {
    pub id: String,
    pub name: String,
    /// Skills this one brings with it (Woodsmen: Indian Allies, Wilderness Guides).
    pub includes: Vec<String>,
    pub summary: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SkillsFile {
    skills: Vec<SkillData>,
}

/// One row of the commander rating table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommanderRating {
    pub id: String,
    pub name: String,
    pub roll_min: u8,
    pub roll_max: u8,
    pub morale: u8,
    /// Sphere of influence in inches.
    pub spi: u8,
    /// Command points as a dice expression.
    pub command_points: String,
    pub note: String,
}

/// A command-point order a commander may give.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecialOrder {
    pub id: String,
    pub name: String,
    /// Test kind it calls for, if any.
    pub test: Option<String>,
    /// Whether the commander attaches to the element.
    pub attaches: bool,
    pub summary: String,
}

/// Commander ratings and orders.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Commanders {
    pub rating_die: String,
    pub ratings: Vec<CommanderRating>,
    pub field_promotion_modifier: i8,
    pub special_orders: Vec<SpecialOrder>,
    pub notes: Vec<String>,
}

/// A dice modifier in the shooting or melee tables.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiceModifier {
    pub id: String,
    pub condition: String,
    pub dice: i8,
}

/// A modifier to a result or a roll.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValueModifier {
    pub id: String,
    pub condition: String,
    pub value: i8,
}

/// A named rule with its effect.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NamedEffect {
    pub id: String,
    pub name: String,
    pub effect: String,
}

/// Shooting table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShootingTable {
    pub to_hit: u8,
    pub base_dice: u8,
    pub dice: String,
    pub zero_pool: String,
    pub sequence: Vec<String>,
    pub modifiers: Vec<DiceModifier>,
    pub special: Vec<NamedEffect>,
}

/// Melee support dice.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SupportRule {
    pub id: String,
    pub condition: String,
    pub dice: String,
}

/// Melee tables.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeleeTable {
    pub to_hit: u8,
    pub base_dice: u8,
    pub sequence: Vec<String>,
    pub dice_modifiers: Vec<DiceModifier>,
    pub support: Vec<SupportRule>,
    pub support_note: String,
    pub resolution_modifiers: Vec<ValueModifier>,
    pub charge_size: String,
}

/// A kind of morale test.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TestKind {
    pub id: String,
    pub name: String,
    pub failure: String,
    pub when: Vec<String>,
}

/// Morale tables.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoraleTable {
    pub roll: String,
    pub test_kinds: Vec<TestKind>,
    pub modifiers: Vec<ValueModifier>,
}

/// A discipline level and its effects.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DisciplineLevelData {
    pub id: super::types::DisciplineLevel,
    pub name: String,
    pub effects: Vec<String>,
}

/// Orders available to an element type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrdersByType {
    #[serde(rename = "type")]
    pub element_type: ElementType,
    pub maneuver: Vec<String>,
    pub combat: Vec<String>,
}

/// A terrain effect.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainEffect {
    pub id: String,
    pub terrain: String,
    pub who: String,
    pub effect: String,
}

/// A victory-point level.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VictoryLevel {
    pub id: String,
    pub name: String,
    pub winner: u8,
    pub loser: u8,
    /// The level applies when the percentage is strictly above this; `None` for the tie.
    pub above_percent: Option<u32>,
}

/// An objective victory level.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObjectiveLevel {
    pub id: String,
    pub name: String,
    pub winner: Option<u8>,
    pub loser: Option<u8>,
    pub condition: String,
}

/// Victory tables.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VictoryTable {
    pub formula: String,
    pub levels: Vec<VictoryLevel>,
    pub objective_levels: Vec<ObjectiveLevel>,
    pub points_lost: String,
}

/// A scenario of the book.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioData {
    pub id: String,
    pub name: String,
}

/// One row of the 2d6 scenario table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioRoll {
    pub roll_min: u8,
    pub roll_max: u8,
    pub scenario: String,
}

/// All the game's tables.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tables {
    pub game_length_turns: u8,
    /// Single numbers the combat rules use (ranges, thresholds, dice).
    pub numbers: TableNumbers,
    /// Inches per Maneuver Order by type and formation (heavy guns apart).
    pub movement: Vec<MovementRow>,
    pub shooting: ShootingTable,
    pub melee: MeleeTable,
    pub charge_reactions: Vec<NamedEffect>,
    pub morale: MoraleTable,
    pub discipline_levels: Vec<DisciplineLevelData>,
    pub orders: Vec<OrdersByType>,
    pub turn_sequence: Vec<String>,
    pub terrain: Vec<TerrainEffect>,
    pub victory_points: VictoryTable,
    pub scenarios: Vec<ScenarioData>,
    pub scenario_table: Vec<ScenarioRoll>,
}

/// The game's single numbers, as data so that code never repeats them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableNumbers {
    pub point_blank_inches: u8,
    pub long_range_over_inches: u8,
    pub grapeshot_max_inches: u8,
    /// A pool of zero or fewer rolls one die hitting only on this.
    pub zero_pool_to_hit: u8,
    /// Two or more 1s (ragged) or 6s (punishing).
    pub volley_doubles: u8,
    /// Solid-shot penetration face, and the raking-fire face.
    pub penetration_face: u8,
    pub raking_penetration_face: u8,
    pub max_supporters: u8,
    pub support_inches: u8,
    pub close_support_inches: u8,
    /// 2d6 + hits at or above this kills an attached commander.
    pub commander_casualty_target: u8,
    pub morale_roll: String,
    pub commander_casualty_roll: String,
    pub initiative_roll: String,
    pub scout_initiative_bonus: u8,
    /// Withdrawal after a failed Discipline Test from shooting.
    pub shooting_withdrawal: String,
    /// Withdrawal in rout step after a failed test after melee or in a broken group.
    pub rout_withdrawal: String,
    pub withdraw_reaction_fit_bonus: u8,
    pub withdraw_reaction_without_commander: String,
    pub morale_support_inches: u8,
    pub objective_inches: u8,
    pub reserves_default_turn: u8,
    pub deployment_inches: u8,
    pub infantry_counter_charge_inches: u8,
    pub cavalry_counter_charge_inches: u8,
}

impl TableNumbers {
    /// The dice expressions named in the table, with their field names.
    pub fn dice_fields(&self) -> [(&'static str, &str); 6] {
        [
            ("morale_roll", &self.morale_roll),
            ("commander_casualty_roll", &self.commander_casualty_roll),
            ("initiative_roll", &self.initiative_roll),
            ("shooting_withdrawal", &self.shooting_withdrawal),
            ("rout_withdrawal", &self.rout_withdrawal),
            (
                "withdraw_reaction_without_commander",
                &self.withdraw_reaction_without_commander,
            ),
        ]
    }
}

/// Inches moved per Maneuver Order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MovementRow {
    #[serde(rename = "type")]
    pub element_type: ElementType,
    pub formation: Formation,
    /// Only for this gun class (heavy guns move 1" unlimbered).
    pub weapon: Option<Weapon>,
    pub advance: u8,
    pub back: u8,
    /// Full charge reach (two halves); 0 when the formation cannot charge.
    pub charge: u8,
}

/// A nation's name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NationData {
    pub id: Nation,
    pub name: String,
    pub note: String,
}

/// One entry of a historical element list with its suggested upgrade(s).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HistoricalEntry {
    pub id: String,
    pub name: String,
    #[serde(rename = "type")]
    pub element_type: ElementType,
    /// Suggested upgrades (empty for standard troops).
    pub upgrades: Vec<Upgrade>,
    /// For artillery: the gun classes a player may choose.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gun_classes: Option<Vec<Weapon>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The historical element list of one nation in one war.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NationList {
    pub nation: Nation,
    pub entries: Vec<HistoricalEntry>,
}

/// A war with its nations' element lists.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WarData {
    pub id: War,
    pub name: String,
    pub years: String,
    pub nations: Vec<NationList>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct HistoricalListsFile {
    nations: Vec<NationData>,
    wars: Vec<WarData>,
    notes: Vec<String>,
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

fn find_dice(list: &[DiceModifier], id: &str) -> i32 {
    list.iter()
        .find(|m| m.id == id)
        .map(|m| i32::from(m.dice))
        .unwrap_or(0)
}

fn find_value(list: &[ValueModifier], id: &str) -> i32 {
    list.iter()
        .find(|m| m.id == id)
        .map(|m| i32::from(m.value))
        .unwrap_or(0)
}

/// Modifier ids the combat code looks up; the consistency check requires them.
pub mod modifier_ids {
    pub const SHOOTING: &[&str] = &[
        "cover",
        "open_order",
        "long_range",
        "point_blank",
        "flank",
        "disorder",
        "grapeshot",
        "exhausted",
    ];
    pub const MELEE_DICE: &[&str] = &[
        "initiated",
        "battle_line",
        "flank",
        "counter_charged",
        "disorder",
        "exhausted",
    ];
    pub const MELEE_RESOLUTION: &[&str] = &[
        "vs_unlimbered_or_column",
        "line_vs_open",
        "hits",
        "flank_attack",
        "fit_vs_exhausted",
        "fit_vs_shaken",
        "in_spi",
        "commander_attached",
        "defenses",
        "high_ground",
    ];
    pub const MORALE: &[&str] = &[
        "march_column",
        "forced_order",
        "excess_hits",
        "shaken_or_exhausted",
        "disordered",
        "group_broken",
        "supported",
        "battle_line",
        "commander_attached",
        "cover",
        "defenses",
    ];
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

    /// Catalogue version, stored with every roster (e.g. `lotf-2026.1`).
    pub fn version(&self) -> &str {
        &self.meta.version
    }

    /// Rule system id (`lotf`).
    pub fn rule_system(&self) -> &str {
        &self.meta.rule_system
    }

    /// Title of the rule system.
    pub fn title(&self) -> &str {
        &self.meta.title
    }

    /// All element types.
    pub fn element_types(&self) -> &[ElementTypeData] {
        &self.element_types
    }

    /// One element type.
    pub fn element_type(&self, t: ElementType) -> Option<&ElementTypeData> {
        self.element_types.iter().find(|d| d.id == t)
    }

    /// Statistics of a type at a size; `None` when the size does not exist
    /// for the type (tiny artillery, R-2).
    pub fn stats(&self, t: ElementType, size: Size) -> Option<&SizeStats> {
        self.element_type(t)?.sizes.iter().find(|s| s.size == size)
    }

    /// All weapons and gun classes.
    pub fn weapons(&self) -> &[WeaponData] {
        &self.weapons
    }

    /// One weapon.
    pub fn weapon(&self, w: Weapon) -> Option<&WeaponData> {
        self.weapons.iter().find(|d| d.id == w)
    }

    /// All formations.
    pub fn formations(&self) -> &[FormationData] {
        &self.formations
    }

    /// Standard Threat Zone depth in inches.
    pub fn threat_zone(&self) -> u8 {
        self.threat_zone
    }

    /// All upgrades.
    pub fn upgrades(&self) -> &[UpgradeData] {
        &self.upgrades
    }

    /// One upgrade.
    pub fn upgrade(&self, u: Upgrade) -> Option<&UpgradeData> {
        self.upgrades.iter().find(|d| d.id == u)
    }

    /// How many upgrades an element may carry in general.
    pub fn max_upgrades_per_element(&self) -> u8 {
        self.max_upgrades_per_element
    }

    /// The permitted multi-upgrade combinations.
    pub fn upgrade_combinations(&self) -> &[UpgradeCombination] {
        &self.upgrade_combinations
    }

    /// The percentage cap for capped upgrades.
    pub fn cap_percent(&self) -> u32 {
        self.cap_percent
    }

    /// How many elements of a force of `total_elements` may carry one capped
    /// upgrade: the percentage with remainders dropped.
    pub fn cap_allowance(&self, total_elements: usize) -> usize {
        let total = u64::try_from(total_elements).unwrap_or(u64::MAX);
        let allowed = total.saturating_mul(u64::from(self.cap_percent)) / 100;
        usize::try_from(allowed).unwrap_or(usize::MAX)
    }

    /// All special skills.
    pub fn skills(&self) -> &[SkillData] {
        &self.skills
    }

    /// One skill by id.
    pub fn skill(&self, id: &str) -> Option<&SkillData> {
        self.skills.iter().find(|s| s.id == id)
    }

    /// Commander ratings and orders.
    pub fn commanders(&self) -> &Commanders {
        &self.commanders
    }

    /// The commander rating table.
    pub fn commander_ratings(&self) -> &[CommanderRating] {
        &self.commanders.ratings
    }

    /// The rating for a d6 roll; rolls outside 1–6 give `None`.
    pub fn commander_rating_for_roll(&self, roll: u8) -> Option<&CommanderRating> {
        self.commanders
            .ratings
            .iter()
            .find(|r| r.roll_min <= roll && roll <= r.roll_max)
    }

    /// The game's tables.
    pub fn tables(&self) -> &Tables {
        &self.tables
    }

    /// Movement of a type in a formation, for a gun class where it matters.
    pub fn movement(&self, t: ElementType, f: Formation, w: Weapon) -> Option<&MovementRow> {
        let rows = || {
            self.tables
                .movement
                .iter()
                .filter(move |r| r.element_type == t && r.formation == f)
        };
        rows()
            .find(|r| r.weapon == Some(w))
            .or_else(|| rows().find(|r| r.weapon.is_none()))
    }

    /// A shooting dice modifier by id (0 when absent; the check makes sure
    /// every id the rules code uses is present).
    pub fn shooting_modifier(&self, id: &str) -> i32 {
        find_dice(&self.tables.shooting.modifiers, id)
    }

    /// A melee dice modifier by id.
    pub fn melee_dice_modifier(&self, id: &str) -> i32 {
        find_dice(&self.tables.melee.dice_modifiers, id)
    }

    /// A melee resolution modifier by id.
    pub fn melee_resolution_modifier(&self, id: &str) -> i32 {
        find_value(&self.tables.melee.resolution_modifiers, id)
    }

    /// A Morale Test modifier by id.
    pub fn morale_modifier(&self, id: &str) -> i32 {
        find_value(&self.tables.morale.modifiers, id)
    }

    /// The single numbers of the combat rules.
    pub fn numbers(&self) -> &TableNumbers {
        &self.tables.numbers
    }

    /// The scenario for a 2d6 roll.
    pub fn scenario_for_roll(&self, roll: u8) -> Option<&ScenarioData> {
        let row = self
            .tables
            .scenario_table
            .iter()
            .find(|r| r.roll_min <= roll && roll <= r.roll_max)?;
        self.tables.scenarios.iter().find(|s| s.id == row.scenario)
    }

    /// All nations.
    pub fn nations(&self) -> &[NationData] {
        &self.nations
    }

    /// One nation.
    pub fn nation(&self, n: Nation) -> Option<&NationData> {
        self.nations.iter().find(|d| d.id == n)
    }

    /// All wars with their historical element lists.
    pub fn wars(&self) -> &[WarData] {
        &self.wars
    }

    /// One war.
    pub fn war(&self, w: War) -> Option<&WarData> {
        self.wars.iter().find(|d| d.id == w)
    }

    /// Whether the book lists `nation` among the forces of `war`.
    pub fn nation_in_war(&self, war: War, nation: Nation) -> bool {
        self.war(war)
            .map(|w| w.nations.iter().any(|n| n.nation == nation))
            .unwrap_or(false)
    }

    /// The historical element list of a nation in a war (empty if none).
    pub fn historical_entries(&self, war: War, nation: Nation) -> &[HistoricalEntry] {
        self.war(war)
            .and_then(|w| w.nations.iter().find(|n| n.nation == nation))
            .map(|n| n.entries.as_slice())
            .unwrap_or(&[])
    }

    /// Find a historical entry of a war by id or by name (case-insensitive),
    /// preferring the given nation's list, then any other nation of the war
    /// (allied contingents, M-7).
    pub fn find_historical_entry(
        &self,
        war: War,
        nation: Nation,
        key: &str,
    ) -> Option<&HistoricalEntry> {
        let key = key.trim();
        let matches = |e: &&HistoricalEntry| e.id == key || e.name.eq_ignore_ascii_case(key);
        if let Some(e) = self.historical_entries(war, nation).iter().find(matches) {
            return Some(e);
        }
        self.war(war)?
            .nations
            .iter()
            .flat_map(|n| n.entries.iter())
            .find(matches)
    }

    /// General notes on the historical lists.
    pub fn historical_notes(&self) -> &[String] {
        &self.historical_notes
    }

    /// Skills an element gets from its upgrades, expanded with included
    /// skills, without duplicates, in first-seen order (R-7: union of skills).
    pub fn skills_for_upgrades(&self, upgrades: &[Upgrade]) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for u in upgrades {
            if let Some(data) = self.upgrade(*u) {
                for s in &data.skills {
                    self.push_skill(&mut out, s, 0);
                }
            }
        }
        out
    }

    fn push_skill(&self, out: &mut Vec<String>, id: &str, depth: u8) {
        if depth > 4 || out.iter().any(|s| s == id) {
            return;
        }
        out.push(id.to_string());
        if let Some(skill) = self.skill(id) {
            for inc in &skill.includes {
                self.push_skill(out, inc, depth + 1);
            }
        }
    }

    /// Formations an element of type `t` may take with upgrade `u`: the
    /// type's formations narrowed by the upgrade's list, and never Battle
    /// Line when the upgrade brings Scouts or Wilderness Guides.
    pub fn upgrade_formations(&self, u: Upgrade, t: ElementType) -> Vec<Formation> {
        let mut forms: Vec<Formation> = self
            .element_type(t)
            .map(|d| d.formations.clone())
            .unwrap_or_default();
        if let Some(list) = self.upgrade(u).and_then(|d| d.formations.as_ref()) {
            forms.retain(|f| list.contains(f));
        }
        let skills = self.skills_for_upgrades(&[u]);
        if skills
            .iter()
            .any(|s| s == skill_ids::SCOUTS || s == skill_ids::WILDERNESS_GUIDES)
        {
            forms.retain(|f| *f != Formation::BattleLine);
        }
        forms
    }

    /// Check the data for consistency; every problem is reported at once.
    pub fn check(&self) -> Result<(), CatalogueError> {
        let mut p: Vec<String> = Vec::new();
        if self.meta.version.trim().is_empty() {
            p.push("the catalogue version is empty".into());
        }
        if self.threat_zone == 0 {
            p.push("the Threat Zone depth is 0".into());
        }

        // Element types: one entry per type, sizes unique, weapons and formations known.
        for t in ElementType::ALL {
            let n = self.element_types.iter().filter(|d| d.id == *t).count();
            if n != 1 {
                p.push(format!(
                    "element type {t} appears {n} times (expected once)"
                ));
            }
        }
        for d in &self.element_types {
            if d.sizes.is_empty() {
                p.push(format!("element type {} has no sizes", d.id));
            }
            let sizes: BTreeSet<Size> = d.sizes.iter().map(|s| s.size).collect();
            if sizes.len() != d.sizes.len() {
                p.push(format!("element type {} lists a size twice", d.id));
            }
            for s in &d.sizes {
                if s.morale < 2 || s.morale > 12 {
                    p.push(format!(
                        "{} {} has morale {} outside 2..12",
                        s.size, d.id, s.morale
                    ));
                }
                if s.discipline == 0 {
                    p.push(format!("{} {} has discipline 0", s.size, d.id));
                }
            }
            if d.weapons.is_empty() {
                p.push(format!("element type {} has no weapons", d.id));
            }
            if !d.weapons.contains(&d.default_weapon) {
                p.push(format!(
                    "element type {}: default weapon {} is not among its weapons",
                    d.id, d.default_weapon
                ));
            }
            for f in &d.formations {
                if !self.formations.iter().any(|x| x.id == *f) {
                    p.push(format!("element type {}: unknown formation {f}", d.id));
                }
            }
        }
        for w in Weapon::ALL {
            let n = self.weapons.iter().filter(|d| d.id == *w).count();
            if n != 1 {
                p.push(format!("weapon {w} appears {n} times (expected once)"));
            }
            if !self.element_types.iter().any(|t| t.weapons.contains(w)) {
                p.push(format!("weapon {w} is not allowed for any element type"));
            }
        }
        for w in &self.weapons {
            if let Some(min) = w.min_range {
                if min >= w.range {
                    p.push(format!(
                        "weapon {}: minimum range is not below maximum",
                        w.id
                    ));
                }
            }
        }
        for f in Formation::ALL {
            let n = self.formations.iter().filter(|d| d.id == *f).count();
            if n != 1 {
                p.push(format!("formation {f} appears {n} times (expected once)"));
            }
        }

        // Skills: unique ids, includes known.
        let mut skill_ids = BTreeSet::new();
        for s in &self.skills {
            if !skill_ids.insert(s.id.as_str()) {
                p.push(format!("skill {} is listed twice", s.id));
            }
            if s.summary.trim().is_empty() {
                p.push(format!("skill {} has no summary", s.id));
            }
        }
        for s in &self.skills {
            for inc in &s.includes {
                if !skill_ids.contains(inc.as_str()) || inc == &s.id {
                    p.push(format!("skill {} includes unknown skill {inc}", s.id));
                }
            }
        }
        for id in [
            skill_ids::RIFLES,
            skill_ids::MIXED_WEAPONS,
            skill_ids::GERMAN_RANKS,
            skill_ids::NUMBERS,
            skill_ids::RESILIENT,
            skill_ids::SELF_PRESERVATION,
            skill_ids::SCOUTS,
            skill_ids::WILDERNESS_GUIDES,
        ] {
            if !skill_ids.contains(id) {
                p.push(format!(
                    "skill {id}, which the rules code relies on, is missing"
                ));
            }
        }

        // Upgrades: one entry each, references known.
        for u in Upgrade::ALL {
            let n = self.upgrades.iter().filter(|d| d.id == *u).count();
            if n != 1 {
                p.push(format!("upgrade {u} appears {n} times (expected once)"));
            }
        }
        for u in &self.upgrades {
            if u.types.is_empty() {
                p.push(format!("upgrade {} allows no element type", u.id));
            }
            for s in &u.skills {
                if !skill_ids.contains(s.as_str()) {
                    p.push(format!("upgrade {} grants unknown skill {s}", u.id));
                }
            }
            if let Some(sizes) = &u.sizes {
                if sizes.is_empty() {
                    p.push(format!("upgrade {} allows no size", u.id));
                }
                let usable = u
                    .types
                    .iter()
                    .any(|t| sizes.iter().any(|s| self.stats(*t, *s).is_some()));
                if !usable {
                    p.push(format!("upgrade {} fits no existing type and size", u.id));
                }
            }
            if let Some(forms) = &u.formations {
                for f in forms {
                    let some_type_has = u.types.iter().any(|t| {
                        self.element_type(*t)
                            .map(|d| d.formations.contains(f))
                            .unwrap_or(false)
                    });
                    if !some_type_has {
                        p.push(format!(
                            "upgrade {} lists formation {f}, which none of its types can take",
                            u.id
                        ));
                    }
                }
            }
        }
        if self.max_upgrades_per_element == 0 {
            p.push("elements may carry no upgrade at all".into());
        }
        for c in &self.upgrade_combinations {
            if c.upgrades.len() < 2 {
                p.push("an upgrade combination lists fewer than two upgrades".into());
            }
            let set: BTreeSet<Upgrade> = c.upgrades.iter().copied().collect();
            if set.len() != c.upgrades.len() {
                p.push("an upgrade combination lists an upgrade twice".into());
            }
            let common_type = ElementType::ALL.iter().any(|t| {
                c.upgrades.iter().all(|u| {
                    self.upgrade(*u)
                        .map(|d| d.types.contains(t))
                        .unwrap_or(false)
                })
            });
            if !common_type {
                p.push("an upgrade combination has no element type in common".into());
            }
        }
        if self.cap_percent == 0 || self.cap_percent > 100 {
            p.push(format!(
                "cap percentage {} outside 1..100",
                self.cap_percent
            ));
        }

        // Commander ratings cover 1..=6 exactly once.
        for roll in 1..=6u8 {
            let n = self
                .commanders
                .ratings
                .iter()
                .filter(|r| r.roll_min <= roll && roll <= r.roll_max)
                .count();
            if n != 1 {
                p.push(format!("commander rating roll {roll} matches {n} rows"));
            }
        }
        for r in &self.commanders.ratings {
            if r.roll_min > r.roll_max || r.roll_min < 1 || r.roll_max > 6 {
                p.push(format!("commander rating {} has a bad roll range", r.id));
            }
        }

        // Tables.
        let t = &self.tables;
        if t.game_length_turns == 0 {
            p.push("game length is 0 turns".into());
        }
        for (name, to_hit) in [("shooting", t.shooting.to_hit), ("melee", t.melee.to_hit)] {
            if !(2..=6).contains(&to_hit) {
                p.push(format!("{name} to-hit number {to_hit} is not a d6 result"));
            }
        }
        if t.shooting.modifiers.is_empty() || t.melee.dice_modifiers.is_empty() {
            p.push("shooting or melee dice modifiers are missing".into());
        }
        for id in modifier_ids::SHOOTING {
            if !t.shooting.modifiers.iter().any(|m| m.id == *id) {
                p.push(format!(
                    "shooting modifier {id}, which the combat code uses, is missing"
                ));
            }
        }
        for id in modifier_ids::MELEE_DICE {
            if !t.melee.dice_modifiers.iter().any(|m| m.id == *id) {
                p.push(format!(
                    "melee dice modifier {id}, which the combat code uses, is missing"
                ));
            }
        }
        for id in modifier_ids::MELEE_RESOLUTION {
            if !t.melee.resolution_modifiers.iter().any(|m| m.id == *id) {
                p.push(format!(
                    "melee resolution modifier {id}, which the combat code uses, is missing"
                ));
            }
        }
        for id in modifier_ids::MORALE {
            if !t.morale.modifiers.iter().any(|m| m.id == *id) {
                p.push(format!(
                    "morale modifier {id}, which the combat code uses, is missing"
                ));
            }
        }
        for (field, text) in t.numbers.dice_fields() {
            if crate::rules::dice::DiceExpr::parse(text).is_none() {
                p.push(format!(
                    "numbers.{field}: `{text}` is not a dice expression"
                ));
            }
        }
        for r in &self.commanders.ratings {
            if crate::rules::dice::DiceExpr::parse(&r.command_points).is_none() {
                p.push(format!(
                    "commander rating {}: `{}` is not a dice expression",
                    r.id, r.command_points
                ));
            }
        }
        for ty in ElementType::ALL {
            let forms = self
                .element_type(*ty)
                .map(|d| d.formations.clone())
                .unwrap_or_default();
            for f in forms {
                if !t
                    .movement
                    .iter()
                    .any(|m| m.element_type == *ty && m.formation == f && m.weapon.is_none())
                {
                    p.push(format!("movement for {ty} in {f} is missing"));
                }
            }
        }
        let n = &t.numbers;
        if !(1..=6).contains(&n.zero_pool_to_hit)
            || !(1..=6).contains(&n.penetration_face)
            || !(1..=6).contains(&n.raking_penetration_face)
        {
            p.push("a die face in the numbers table is not 1-6".into());
        }
        if n.volley_doubles < 2 {
            p.push("volley_doubles must be at least 2".into());
        }
        if t.melee.resolution_modifiers.is_empty() {
            p.push("melee resolution modifiers are missing".into());
        }
        if t.charge_reactions.is_empty() {
            p.push("charge reactions are missing".into());
        }
        let kinds: BTreeSet<&str> = t.morale.test_kinds.iter().map(|k| k.id.as_str()).collect();
        for k in ["morale", "discipline", "disorder"] {
            if !kinds.contains(k) {
                p.push(format!("morale test kind {k} is missing"));
            }
        }
        if t.morale.modifiers.is_empty() {
            p.push("morale modifiers are missing".into());
        }
        let levels: Vec<_> = t.discipline_levels.iter().map(|l| l.id).collect();
        if levels != super::types::DisciplineLevel::ALL {
            p.push("discipline levels must be fit, shaken, exhausted, shattered in order".into());
        }
        for ty in ElementType::ALL {
            let n = t.orders.iter().filter(|o| o.element_type == *ty).count();
            if n != 1 {
                p.push(format!("orders for {ty} appear {n} times (expected once)"));
            }
        }
        if t.turn_sequence.is_empty() {
            p.push("the turn sequence is empty".into());
        }
        if t.terrain.is_empty() {
            p.push("the terrain table is empty".into());
        }
        let vl = &t.victory_points.levels;
        if vl.len() != 4 || vl.iter().filter(|l| l.above_percent.is_none()).count() != 1 {
            p.push("victory levels must be major, minor, marginal and tie".into());
        }
        let mut last = u32::MAX;
        for l in vl.iter().filter_map(|l| l.above_percent) {
            if l >= last {
                p.push("victory level thresholds must fall from major to marginal".into());
            }
            last = l;
        }
        let scen_ids: BTreeSet<&str> = t.scenarios.iter().map(|s| s.id.as_str()).collect();
        if scen_ids.len() != t.scenarios.len() {
            p.push("a scenario is listed twice".into());
        }
        for roll in 2..=12u8 {
            let n = t
                .scenario_table
                .iter()
                .filter(|r| r.roll_min <= roll && roll <= r.roll_max)
                .count();
            if n != 1 {
                p.push(format!("scenario table roll {roll} matches {n} rows"));
            }
        }
        for r in &t.scenario_table {
            if !scen_ids.contains(r.scenario.as_str()) {
                p.push(format!(
                    "scenario table names unknown scenario {}",
                    r.scenario
                ));
            }
            if r.roll_min > r.roll_max || r.roll_min < 2 || r.roll_max > 12 {
                p.push(format!(
                    "scenario table row for {} has a bad roll range",
                    r.scenario
                ));
            }
        }

        // Nations and wars with their historical lists.
        for n in Nation::ALL {
            let c = self.nations.iter().filter(|d| d.id == *n).count();
            if c != 1 {
                p.push(format!("nation {n} appears {c} times (expected once)"));
            }
        }
        for w in War::ALL {
            let c = self.wars.iter().filter(|d| d.id == *w).count();
            if c != 1 {
                p.push(format!("war {w} appears {c} times (expected once)"));
            }
        }
        for w in &self.wars {
            if w.nations.is_empty() {
                p.push(format!("war {} has no nations", w.id));
            }
            let mut seen_nations = BTreeSet::new();
            for nl in &w.nations {
                if !seen_nations.insert(nl.nation) {
                    p.push(format!("war {}: nation {} listed twice", w.id, nl.nation));
                }
                let mut ids = BTreeSet::new();
                for e in &nl.entries {
                    if !ids.insert(e.id.as_str()) {
                        p.push(format!(
                            "{} {}: entry {} listed twice",
                            w.id, nl.nation, e.id
                        ));
                    }
                    self.check_entry(w.id, nl.nation, e, &mut p);
                }
            }
        }

        if p.is_empty() {
            Ok(())
        } else {
            Err(CatalogueError::Inconsistent { problems: p })
        }
    }

    fn check_entry(&self, war: War, nation: Nation, e: &HistoricalEntry, p: &mut Vec<String>) {
        let at = format!("{war} {nation} entry {}", e.id);
        for u in &e.upgrades {
            match self.upgrade(*u) {
                Some(d) if !d.types.contains(&e.element_type) => p.push(format!(
                    "{at}: upgrade {u} is not allowed for {}",
                    e.element_type
                )),
                None => p.push(format!("{at}: unknown upgrade {u}")),
                _ => {}
            }
        }
        if e.upgrades.len() > usize::from(self.max_upgrades_per_element) {
            let allowed = self.upgrade_combinations.iter().any(|c| {
                c.upgrades.len() == e.upgrades.len()
                    && e.upgrades.iter().all(|u| c.upgrades.contains(u))
            });
            if !allowed {
                p.push(format!(
                    "{at}: suggests more upgrades than an element may carry"
                ));
            }
        }
        match (&e.gun_classes, e.element_type) {
            (Some(guns), ElementType::Artillery) => {
                for g in guns {
                    let ok = self
                        .element_type(ElementType::Artillery)
                        .map(|t| t.weapons.contains(g))
                        .unwrap_or(false);
                    if !ok {
                        p.push(format!("{at}: {g} is not an artillery gun class"));
                    }
                    let war_ok = self
                        .weapon(*g)
                        .and_then(|w| w.wars.as_ref())
                        .map(|wars| wars.contains(&war))
                        .unwrap_or(true);
                    if !war_ok {
                        p.push(format!("{at}: {g} cannot be fielded in {war}"));
                    }
                }
            }
            (None, ElementType::Artillery) => {
                p.push(format!("{at}: artillery entry lists no gun classes"))
            }
            (Some(_), _) => p.push(format!("{at}: gun classes on a non-artillery entry")),
            (None, _) => {}
        }
    }

    /// Human-readable tables for `muster catalog`.
    pub fn render_text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "{} catalogue {}", self.meta.title, self.meta.version);
        let _ = writeln!(s);
        let _ = writeln!(s, "ELEMENT STATISTICS");
        for t in &self.element_types {
            let weapons: Vec<&str> = t.weapons.iter().map(|w| w.id()).collect();
            let _ = writeln!(s, "{} (weapons: {})", t.name, weapons.join(", "));
            let _ = writeln!(
                s,
                "  {:<8} {:>8} {:>6} {:>10} {:>6} {:>6} {:>6}",
                "size", "maneuver", "combat", "discipline", "morale", "action", "points"
            );
            for r in &t.sizes {
                let _ = writeln!(
                    s,
                    "  {:<8} {:>8} {:>6} {:>10} {:>5}+ {:>6} {:>6}",
                    r.size.id(),
                    r.maneuver,
                    r.combat,
                    r.discipline,
                    r.morale,
                    r.action,
                    r.points
                );
            }
        }
        let _ = writeln!(s);
        let _ = writeln!(s, "WEAPONS");
        for w in &self.weapons {
            let range = match w.min_range {
                Some(min) => format!("{min}\"-{}\"", w.range),
                None => format!("{}\"", w.range),
            };
            let wars = match &w.wars {
                Some(ws) => {
                    let v: Vec<&str> = ws.iter().map(|w| w.label()).collect();
                    format!(" ({} only)", v.join(", "))
                }
                None => String::new(),
            };
            let _ = writeln!(
                s,
                "  {:<28} {:>9} {:>+4} pts{}",
                w.name, range, w.points, wars
            );
        }
        let _ = writeln!(s);
        let _ = writeln!(
            s,
            "UPGRADES (one per element; Hessians + Grenadiers together; capped ones: at most {}% of the force's elements each)",
            self.cap_percent
        );
        for u in &self.upgrades {
            let types: Vec<&str> = u.types.iter().map(|t| t.id()).collect();
            let mut restr = types.join("/");
            if let Some(sizes) = &u.sizes {
                let v: Vec<&str> = sizes.iter().map(|x| x.id()).collect();
                restr.push_str(&format!(", {} only", v.join("/")));
            }
            if u.cap {
                restr.push_str(&format!(", max {}%", self.cap_percent));
            }
            let first_type = u.types.first().copied().unwrap_or(ElementType::Infantry);
            let effective = self.upgrade_formations(u.id, first_type);
            let all = self
                .element_type(first_type)
                .map(|d| d.formations.clone())
                .unwrap_or_default();
            let forms = if effective == all {
                "any".to_string()
            } else {
                let v: Vec<&str> = effective.iter().map(|x| x.label()).collect();
                let mut s = v.join(", ");
                if u.formations.is_none() {
                    s.push_str(" (never Battle Line, R-9)");
                }
                s
            };
            let skills: Vec<&str> = u
                .skills
                .iter()
                .map(|id| self.skill(id).map(|k| k.name.as_str()).unwrap_or(id))
                .collect();
            let _ = writeln!(s, "  {:<24} {:>+4} pts  {}", u.name, u.points, restr);
            let _ = writeln!(
                s,
                "      formations: {forms}; skills: {}",
                skills.join(", ")
            );
        }
        let _ = writeln!(s);
        let _ = writeln!(s, "SPECIAL SKILLS");
        for k in &self.skills {
            let _ = writeln!(s, "  {:<22} {}", k.name, k.summary);
        }
        let _ = writeln!(s);
        let _ = writeln!(s, "COMMANDER RATINGS ({})", self.commanders.rating_die);
        for r in &self.commanders.ratings {
            let roll = if r.roll_min == r.roll_max {
                r.roll_min.to_string()
            } else {
                format!("{}-{}", r.roll_min, r.roll_max)
            };
            let _ = writeln!(
                s,
                "  {:<4} {:<15} morale {:>2}  SPI {:>2}\"  CP {}",
                roll, r.name, r.morale, r.spi, r.command_points
            );
        }
        let t = &self.tables;
        let _ = writeln!(s);
        let _ = writeln!(
            s,
            "SHOOTING: {}; hits on {}+",
            t.shooting.dice, t.shooting.to_hit
        );
        for m in &t.shooting.modifiers {
            let _ = writeln!(s, "  {:>+3} dice  {}", m.dice, m.condition);
        }
        for x in &t.shooting.special {
            let _ = writeln!(s, "  {}: {}", x.name, x.effect);
        }
        let _ = writeln!(s);
        let _ = writeln!(
            s,
            "MELEE DICE (2 + Action dice + modifiers, hits on {}+)",
            t.melee.to_hit
        );
        for m in &t.melee.dice_modifiers {
            let _ = writeln!(s, "  {:>+3} dice  {}", m.dice, m.condition);
        }
        for m in &t.melee.support {
            let _ = writeln!(s, "  {}: {}", m.condition, m.dice);
        }
        let _ = writeln!(s, "MELEE RESULT");
        for m in &t.melee.resolution_modifiers {
            let _ = writeln!(s, "  {:>+3}  {}", m.value, m.condition);
        }
        let _ = writeln!(s, "CHARGE REACTIONS");
        for c in &t.charge_reactions {
            let _ = writeln!(s, "  {:<17} {}", c.name, c.effect);
        }
        let _ = writeln!(s);
        let _ = writeln!(s, "MORALE: {}", t.morale.roll);
        for k in &t.morale.test_kinds {
            let _ = writeln!(
                s,
                "  {}: when {}; on failure: {}",
                k.name,
                k.when.join(", "),
                k.failure
            );
        }
        for m in &t.morale.modifiers {
            let _ = writeln!(s, "  {:>+3}  {}", m.value, m.condition);
        }
        let _ = writeln!(s, "DISCIPLINE LEVELS");
        for l in &t.discipline_levels {
            let _ = writeln!(s, "  {:<10} {}", l.name, l.effects.join("; "));
        }
        let _ = writeln!(s);
        let _ = writeln!(s, "ORDERS");
        for o in &t.orders {
            let _ = writeln!(
                s,
                "  {}: maneuver: {}",
                o.element_type.label(),
                o.maneuver.join("; ")
            );
            let _ = writeln!(
                s,
                "  {}: combat: {}",
                o.element_type.label(),
                o.combat.join("; ")
            );
        }
        let _ = writeln!(s, "TURN SEQUENCE");
        for (i, step) in t.turn_sequence.iter().enumerate() {
            let _ = writeln!(s, "  {}. {}", i + 1, step);
        }
        let _ = writeln!(s, "TERRAIN");
        for x in &t.terrain {
            let _ = writeln!(s, "  {} / {}: {}", x.terrain, x.who, x.effect);
        }
        let _ = writeln!(s);
        let _ = writeln!(s, "VICTORY POINTS: {}", t.victory_points.formula);
        for l in &t.victory_points.levels {
            let when = match l.above_percent {
                Some(p) => format!("more than {p}%"),
                None => "no difference".into(),
            };
            let _ = writeln!(s, "  {:<17} {}:{}  {}", l.name, l.winner, l.loser, when);
        }
        let _ = writeln!(
            s,
            "SCENARIOS (2d6, game length {} turns)",
            t.game_length_turns
        );
        for r in &t.scenario_table {
            let roll = if r.roll_min == r.roll_max {
                r.roll_min.to_string()
            } else {
                format!("{}-{}", r.roll_min, r.roll_max)
            };
            let name = t
                .scenarios
                .iter()
                .find(|x| x.id == r.scenario)
                .map(|x| x.name.as_str())
                .unwrap_or(r.scenario.as_str());
            let _ = writeln!(s, "  {roll:<6} {name}");
        }
        let _ = writeln!(s);
        let _ = writeln!(s, "HISTORICAL ELEMENT LISTS");
        for w in &self.wars {
            let _ = writeln!(s, "{} ({})", w.name, w.years);
            for nl in &w.nations {
                let nation = self
                    .nation(nl.nation)
                    .map(|n| n.name.as_str())
                    .unwrap_or(nl.nation.id());
                let _ = writeln!(s, "  {nation}");
                for e in &nl.entries {
                    let mut sugg: Vec<String> = e
                        .upgrades
                        .iter()
                        .map(|u| self.upgrade(*u).map(|d| d.name.clone()).unwrap_or_default())
                        .collect();
                    if let Some(g) = &e.gun_classes {
                        let v: Vec<&str> = g.iter().map(|x| x.label()).collect();
                        sugg.push(format!("gun class: {}", v.join(" / ")));
                    }
                    let sugg = if sugg.is_empty() {
                        "standard".to_string()
                    } else {
                        sugg.join(" + ")
                    };
                    let _ = writeln!(s, "    {:<62} {:<9} {}", e.name, e.element_type.id(), sugg);
                }
            }
        }
        s
    }
}
