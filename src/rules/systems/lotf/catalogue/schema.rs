//! The catalogue's data structures, exactly as the JSON files hold them.

use serde::{Deserialize, Serialize};

use super::modifiers::{
    MeleeDiceModifier, MeleeResolutionModifier, MoraleModifier, ShootingModifier,
};
use crate::rules::systems::lotf::types::{
    ElementType, Formation, Nation, Size, Upgrade, War, Weapon,
};

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
pub(super) struct ElementsFile {
    pub(super) types: Vec<ElementTypeData>,
    pub(super) weapons: Vec<WeaponData>,
    pub(super) formations: Vec<FormationData>,
    pub(super) threat_zone: u8,
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
pub(super) struct UpgradesFile {
    pub(super) max_per_element: u8,
    pub(super) combinations: Vec<UpgradeCombination>,
    pub(super) cap_percent: u32,
    pub(super) upgrades: Vec<UpgradeData>,
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
pub(super) struct SkillsFile {
    pub(super) skills: Vec<SkillData>,
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

/// A dice modifier in the shooting or melee tables, keyed by a typed id
/// ([`ShootingModifier`] or [`MeleeDiceModifier`]): an id the code does not
/// know fails to load.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiceModifier<Id> {
    pub id: Id,
    pub condition: String,
    pub dice: i8,
}

/// A modifier to a result or a roll, keyed by a typed id
/// ([`MeleeResolutionModifier`] or [`MoraleModifier`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValueModifier<Id> {
    pub id: Id,
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
    pub modifiers: Vec<DiceModifier<ShootingModifier>>,
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
    pub dice_modifiers: Vec<DiceModifier<MeleeDiceModifier>>,
    pub support: Vec<SupportRule>,
    pub support_note: String,
    pub resolution_modifiers: Vec<ValueModifier<MeleeResolutionModifier>>,
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
    pub modifiers: Vec<ValueModifier<MoraleModifier>>,
}

/// A discipline level and its effects.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DisciplineLevelData {
    pub id: crate::rules::systems::lotf::types::DisciplineLevel,
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
    /// Mortars and rockets may not fire at a target with a friend this close to it.
    pub indirect_fire_clearance_inches: u8,
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
pub(super) struct HistoricalListsFile {
    pub(super) nations: Vec<NationData>,
    pub(super) wars: Vec<WarData>,
    pub(super) notes: Vec<String>,
}
