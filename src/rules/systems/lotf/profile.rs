//! The derived profile of one element: what its upgrades do to its numbers,
//! range, formations and starting discipline.

use serde::Serialize;

use super::catalogue::{skill_ids, Catalogue};
use super::combat::charges::{charge_sizes_in_words, sizes_may_charge, smaller_sizes_barred};
use super::roster::ElementDoc;
use super::types::{DisciplineLevel, ElementType, Formation, Size, Upgrade, Weapon};
use super::validate::{effective_weapon, price_element};

/// A skill as shown on a unit card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SkillRef {
    pub id: String,
    pub name: String,
    /// Our own summary.
    pub summary: String,
}

/// Shooting reach.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RangeProfile {
    /// Minimum range in inches (mortars, rockets).
    pub min: Option<u8>,
    /// Maximum range in inches.
    pub max: u8,
    /// What decided the range: a weapon id or a skill id.
    pub source: String,
}

/// Everything a unit card shows about an element.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ElementProfile {
    pub name: String,
    #[serde(rename = "type")]
    pub element_type: ElementType,
    pub size: Size,
    pub weapon: Weapon,
    pub upgrades: Vec<Upgrade>,
    /// False when the type does not come in this size (then the numbers are 0).
    pub stats_known: bool,
    pub maneuver: u8,
    /// Combat Orders when Fit.
    pub combat: u8,
    /// Combat Orders at the start of the game, after the starting discipline
    /// level (R-19: Shaken costs one, never below 1).
    pub combat_at_start: u8,
    pub discipline: u8,
    /// Morale target on 2d6.
    pub morale: u8,
    pub action: u8,
    /// Extra dice in every shooting and melee pool (Numbers, R-10).
    pub extra_dice: u8,
    /// Hits ignored at the start of the game (Resilient, R-10).
    pub ignores_first_hits: u8,
    pub range: RangeProfile,
    pub threat_zone: u8,
    pub formations: Vec<Formation>,
    /// The sizes of enemy element it may charge or counter-charge; none for artillery.
    pub may_charge: Vec<Size>,
    pub starting_discipline: DisciplineLevel,
    pub skills: Vec<SkillRef>,
    pub points: u32,
    /// Rulings that shaped this profile.
    pub rulings: Vec<String>,
    /// Reminders in our own words.
    pub notes: Vec<String>,
}

fn add_ruling(v: &mut Vec<String>, r: &str) {
    if !v.iter().any(|x| x == r) {
        v.push(r.to_string());
    }
}

/// The derived profile of an element. Never panics; an impossible element
/// (tiny artillery) gets zero statistics and `stats_known: false`.
pub fn profile(cat: &Catalogue, e: &ElementDoc) -> ElementProfile {
    let mut rulings: Vec<String> = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    let stats = cat.stats(e.element_type, e.size);
    let (maneuver, combat, discipline, morale, action) = stats
        .map(|s| (s.maneuver, s.combat, s.discipline, s.morale, s.action))
        .unwrap_or((0, 0, 0, 0, 0));
    let mut upgrades: Vec<Upgrade> = Vec::new();
    for u in &e.upgrades {
        if !upgrades.contains(u) {
            upgrades.push(*u);
        }
    }
    let skill_list = cat.skills_for_upgrades(&upgrades);
    let has = |id: &str| skill_list.iter().any(|s| s == id);

    // Maneuver: Rifles and German Ranks each cost one.
    let mut maneuver = maneuver;
    if has(skill_ids::RIFLES) {
        maneuver = maneuver.saturating_sub(1);
        add_ruling(&mut rulings, "R-10");
    }
    if has(skill_ids::GERMAN_RANKS) {
        maneuver = maneuver.saturating_sub(1);
        add_ruling(&mut rulings, "R-10");
    }

    // Starting discipline: Self-preservation starts Shaken.
    let starting_discipline = if has(skill_ids::SELF_PRESERVATION) {
        add_ruling(&mut rulings, "R-10");
        add_ruling(&mut rulings, "R-19");
        DisciplineLevel::Shaken
    } else {
        DisciplineLevel::Fit
    };
    let combat_at_start = if starting_discipline == DisciplineLevel::Fit || combat == 0 {
        combat
    } else {
        combat.saturating_sub(1).max(1)
    };

    let extra_dice = if has(skill_ids::NUMBERS) {
        add_ruling(&mut rulings, "R-10");
        2
    } else {
        0
    };
    let ignores_first_hits = if has(skill_ids::RESILIENT) {
        add_ruling(&mut rulings, "R-10");
        2
    } else {
        0
    };

    // Range and Threat Zone: Rifles beats Mixed Weapons beats the weapon (M-5).
    let weapon = effective_weapon(cat, e);
    let tz = cat.threat_zone();
    let (range, threat_zone) = if e.element_type == ElementType::Artillery {
        let w = cat.weapon(weapon);
        (
            RangeProfile {
                min: w.and_then(|w| w.min_range),
                max: w.map(|w| w.range).unwrap_or(0),
                source: weapon.id().to_string(),
            },
            tz,
        )
    } else if has(skill_ids::RIFLES) {
        add_ruling(&mut rulings, "R-10");
        add_ruling(&mut rulings, "M-5");
        (
            RangeProfile {
                min: None,
                max: 18,
                source: skill_ids::RIFLES.to_string(),
            },
            18,
        )
    } else if has(skill_ids::MIXED_WEAPONS) {
        add_ruling(&mut rulings, "M-5");
        let six = cat.weapon(Weapon::Mixed).map(|w| w.range).unwrap_or(6);
        (
            RangeProfile {
                min: None,
                max: six,
                source: skill_ids::MIXED_WEAPONS.to_string(),
            },
            tz,
        )
    } else {
        if weapon == Weapon::Rifled {
            // The rifled-musket option lengthens the range only.
            add_ruling(&mut rulings, "R-5");
        }
        let w = cat.weapon(weapon);
        (
            RangeProfile {
                min: w.and_then(|w| w.min_range),
                max: w.map(|w| w.range).unwrap_or(0),
                source: weapon.id().to_string(),
            },
            tz,
        )
    };

    // Formations: the type's, narrowed by each upgrade's list; Scouts and
    // Wilderness Guides never form Battle Line.
    let mut formations: Vec<Formation> = cat
        .element_type(e.element_type)
        .map(|t| t.formations.clone())
        .unwrap_or_default();
    for u in &upgrades {
        if let Some(list) = cat.upgrade(*u).and_then(|d| d.formations.as_ref()) {
            formations.retain(|f| list.contains(f));
            add_ruling(&mut rulings, "R-9");
        }
    }
    if (has(skill_ids::SCOUTS) || has(skill_ids::WILDERNESS_GUIDES))
        && formations.contains(&Formation::BattleLine)
    {
        formations.retain(|f| *f != Formation::BattleLine);
        add_ruling(&mut rulings, "R-9");
    }
    // The roster does not record stands, so small elements get a reminder (M-11).
    if e.element_type != ElementType::Artillery && matches!(e.size, Size::Tiny | Size::Small) {
        notes.push(
            "If the element is a single stand it always counts as Open Order and can change only to March Column (R-9)."
                .into(),
        );
        add_ruling(&mut rulings, "R-9");
    }
    if e.element_type == ElementType::Infantry && upgrades.contains(&Upgrade::LightDragoons) {
        notes.push(
            "Light Dragoons bought for infantry stay infantry: they never mount (R-7).".into(),
        );
        add_ruling(&mut rulings, "R-7");
    }
    if e.element_type == ElementType::Artillery {
        notes.push("Unlimbered artillery counts as Open Order and never charges (R-9).".into());
    }
    // Charge sizes (R-28 as amended), from the rule the simulator and the odds apply.
    let may_charge = if e.element_type == ElementType::Artillery {
        Vec::new()
    } else {
        sizes_may_charge(e.size)
    };
    if !may_charge.is_empty() && may_charge.len() < Size::ALL.len() {
        let barred: Vec<&str> = smaller_sizes_barred(e.size)
            .iter()
            .map(|s| s.id())
            .collect();
        let never = if barred.is_empty() {
            String::new()
        } else {
            format!(", never a {} one", barred.join(" or "))
        };
        notes.push(format!(
            "May charge or counter-charge only {} elements{never} (R-28).",
            charge_sizes_in_words(e.size)
        ));
        add_ruling(&mut rulings, "R-28");
    }
    if starting_discipline == DisciplineLevel::Shaken {
        notes.push(
            "Starts the game Shaken: one Combat Order fewer and -1 to Morale Tests (R-19).".into(),
        );
    }

    let skills = skill_list
        .iter()
        .map(|id| match cat.skill(id) {
            Some(s) => SkillRef {
                id: s.id.clone(),
                name: s.name.clone(),
                summary: s.summary.clone(),
            },
            None => SkillRef {
                id: id.clone(),
                name: id.clone(),
                summary: String::new(),
            },
        })
        .collect();

    ElementProfile {
        name: e.name.clone(),
        element_type: e.element_type,
        size: e.size,
        weapon,
        upgrades,
        stats_known: stats.is_some(),
        maneuver,
        combat,
        combat_at_start,
        discipline,
        morale,
        action,
        extra_dice,
        ignores_first_hits,
        range,
        threat_zone,
        formations,
        may_charge,
        starting_discipline,
        skills,
        points: price_element(cat, e),
        rulings,
        notes,
    }
}
