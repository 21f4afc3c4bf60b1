//! Lookups the rules code uses on a loaded catalogue.

use super::*;
use crate::rules::systems::lotf::types::{
    ElementType, Formation, Nation, Size, Upgrade, War, Weapon,
};

// A catalogue that loaded has exactly one row for every modifier id (the
// check), so the 0 below is never reached.
fn find_dice<Id: PartialEq>(list: &[DiceModifier<Id>], id: Id) -> i32 {
    list.iter()
        .find(|m| m.id == id)
        .map(|m| i32::from(m.dice))
        .unwrap_or(0)
}

fn find_value<Id: PartialEq>(list: &[ValueModifier<Id>], id: Id) -> i32 {
    list.iter()
        .find(|m| m.id == id)
        .map(|m| i32::from(m.value))
        .unwrap_or(0)
}

impl Catalogue {
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

    /// A shooting dice modifier (a loaded catalogue has a row for every
    /// value: the check refuses data without one).
    pub fn shooting_modifier(&self, id: ShootingModifier) -> i32 {
        find_dice(&self.tables.shooting.modifiers, id)
    }

    /// A melee dice modifier.
    pub fn melee_dice_modifier(&self, id: MeleeDiceModifier) -> i32 {
        find_dice(&self.tables.melee.dice_modifiers, id)
    }

    /// A melee resolution modifier.
    pub fn melee_resolution_modifier(&self, id: MeleeResolutionModifier) -> i32 {
        find_value(&self.tables.melee.resolution_modifiers, id)
    }

    /// A Morale Test modifier.
    pub fn morale_modifier(&self, id: MoraleModifier) -> i32 {
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
}
