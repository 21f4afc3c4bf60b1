//! The roster document `muster.atkm.roster/1`: one army, its generals (one Commanding General,
//! any Lieutenant Generals with their personal commands), its units, and the optional rules the
//! game uses (spec 2.1). `docs/systems/atkm.md` documents it with complete examples.
//!
//! Reading refuses unknown fields by name and wrong JSON types; everything the document says
//! about the game (an unknown type, a size the rules do not allow, a rule not enabled) is the
//! validator's to judge, so illegal drafts still save.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::rules::system::DocumentError;

/// The format tag every roster document carries.
pub const ROSTER_FORMAT: &str = "muster.atkm.roster/1";
/// The specification's tag without the prefix, read as [`ROSTER_FORMAT`].
pub const NEUTRAL_FORMAT: &str = "atkm.roster/1";

/// Most units, generals and characters of text a roster may hold: far beyond any real army.
pub const MAX_UNITS: usize = 200;
pub const MAX_GENERALS: usize = 30;
pub const MAX_TEXT: usize = 200;

/// A whole army.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RosterDoc {
    /// `muster.atkm.roster/1`.
    pub format: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default)]
    pub name: String,
    /// `sywar`, `fiw`, `awi`, `napoleonic`, `war_of_1812`, `acw` or `generic`.
    #[serde(default = "generic")]
    pub period: String,
    /// The sample battle this force belongs to, if any (`cowpens_1781`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario: Option<String>,
    /// Its side in that battle (`americans`, `british`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    /// Catalogue version the roster was last saved with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub catalogue_version: Option<String>,
    /// The book's optional rules this army is built and played with (ids of spec 2.1).
    #[serde(default)]
    pub advanced_rules: Vec<String>,
    #[serde(default)]
    pub generals: Vec<GeneralDoc>,
    #[serde(default)]
    pub units: Vec<UnitDoc>,
    /// How the random force generator made this army, when it did: the seed and every roll.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub random: Option<RandomRecord>,
    /// A campaign's army as an earlier battle left it (K-51): units may stand below their
    /// strength (keeping their break point) and without their officer or ensign. Set on the
    /// armies of a campaign battle's set-up, never by the editor.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub carried_losses: bool,
}

fn generic() -> String {
    "generic".to_string()
}

fn two() -> i64 {
    2
}

fn yes() -> bool {
    true
}

/// A general: a rating of 1 to 3, a role and a command radius.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeneralDoc {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default)]
    pub name: String,
    /// 1 competent, 2 capable, 3 excellent.
    #[serde(default = "two")]
    pub rating: i64,
    /// `commanding` or `lieutenant`.
    #[serde(default = "lieutenant")]
    pub role: String,
    /// Inches; 12 unless the `command_radius` rule changes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command_radius: Option<u32>,
    /// The d6 the rating came from, when it was rolled (K-4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating_roll: Option<u8>,
}

fn lieutenant() -> String {
    "lieutenant".to_string()
}

/// One unit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitDoc {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default)]
    pub name: String,
    /// A unit type id (spec 1.1).
    #[serde(rename = "type")]
    pub unit_type: String,
    /// The id of the general whose personal command it is.
    #[serde(default)]
    pub general: Option<String>,
    /// Privates, troopers, gunners or warriors; absent: the type's standard.
    #[serde(default)]
    pub rank_and_file: Option<u32>,
    /// Collapses at this many rank and file or fewer; absent: the type's standard.
    #[serde(default)]
    pub break_point: Option<u32>,
    #[serde(default = "yes")]
    pub officer: bool,
    #[serde(default = "yes")]
    pub ensign: bool,
    /// `elite`, `regular` or `militia`; absent: regular.
    #[serde(default)]
    pub quality: Option<String>,
    /// The book's own word for its quality ("guard", "treat as militia").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// `light`, `medium`, `heavy` or `rockets` (artillery only).
    #[serde(default)]
    pub gun: Option<String>,
    /// A sub-organisation name, for display ("Scott's Detachment").
    #[serde(default)]
    pub group: Option<String>,
    #[serde(default)]
    pub variations: Variations,
    /// The dice the random force generator rolled for it.
    #[serde(default)]
    pub random_roll: Option<UnitRolls>,
    /// `start` or `reinforcement` (arrives during the battle, as Monmouth's Main Army).
    #[serde(default = "start")]
    pub arrives: String,
}

fn start() -> String {
    "start".to_string()
}

/// The advanced unit variations (spec 2.3), all optional.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Variations {
    /// Colour steps on its attack rolls: −1 one better, +1 one worse (`roll_modifiers`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attack_shift: Option<i32>,
    /// Colour steps on its defence rolls (`roll_modifiers`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defence_shift: Option<i32>,
    /// One roll type made twice (`rerolls`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reroll: Option<Reroll>,
    /// An extra resolve counter of this colour (`extra_resolve_counters`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extra_counter: Option<String>,
    /// Scrap ammunition (North Point): targets beyond 12" get 2 more defence dice (K-22).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub scrap_ammunition: bool,
    /// Repeating rifles (`repeating_rifles`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub repeating_rifles: bool,
    /// Marksmen (`marksmen`): two dice for the officer and ensign roll (K-8).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub marksmen: bool,
}

impl Variations {
    pub fn is_empty(&self) -> bool {
        *self == Variations::default()
    }
}

/// A re-rolled roll type and which result is kept.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reroll {
    /// `fire`, `fire_defence`, `melee_attack` or `melee_defence`.
    pub roll: String,
    /// `best` or `worst`.
    pub keep: String,
}

/// What the random force generator rolled for one unit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitRolls {
    /// The 2d6 on the unit type table.
    pub unit_type: [u8; 2],
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub artillery_kind: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub artillery_size: Option<[u8; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quality: Option<u8>,
}

/// How a random army was made: the seed and the rolls in words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RandomRecord {
    pub seed: u64,
    pub rolls: Vec<String>,
}

impl RosterDoc {
    /// An empty army with a Commanding General rated 2 (the book's default).
    pub fn new(name: &str) -> RosterDoc {
        RosterDoc {
            format: ROSTER_FORMAT.to_string(),
            id: None,
            name: name.to_string(),
            period: generic(),
            scenario: None,
            side: None,
            catalogue_version: None,
            advanced_rules: Vec::new(),
            generals: vec![GeneralDoc {
                id: Some("g1".into()),
                name: "Commanding General".into(),
                rating: 2,
                role: "commanding".into(),
                command_radius: Some(12),
                rating_roll: None,
            }],
            units: Vec::new(),
            random: None,
            carried_losses: false,
        }
    }

    pub fn uses(&self, rule: super::types::AdvancedRule) -> bool {
        self.advanced_rules.iter().any(|r| r == rule.id())
    }

    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Gives the army, every general and unit a stable id where it has none, and a new one where
    /// an earlier part already uses its id (the first keeps it). The same document always gets
    /// the same ids.
    pub fn assign_ids(&mut self) {
        let mut taken: BTreeSet<String> = BTreeSet::new();
        let mut keep_first = |id: &mut Option<String>| {
            if let Some(text) = id.as_ref().filter(|s| !s.is_empty()) {
                if !taken.insert(text.clone()) {
                    *id = None;
                }
            }
        };
        keep_first(&mut self.id);
        for g in &mut self.generals {
            keep_first(&mut g.id);
        }
        for u in &mut self.units {
            keep_first(&mut u.id);
        }
        let mut fresh = |prefix: &str, slot: &mut Option<String>| {
            if slot.as_deref().is_some_and(|s| !s.is_empty()) {
                return;
            }
            let mut n = 1;
            loop {
                let candidate = format!("{prefix}{n}");
                if taken.insert(candidate.clone()) {
                    *slot = Some(candidate);
                    return;
                }
                n += 1;
            }
        };
        fresh("army-", &mut self.id);
        for g in &mut self.generals {
            fresh("g", &mut g.id);
        }
        for u in &mut self.units {
            fresh("u", &mut u.id);
        }
    }
}

/// Reads a roster document: JSON with the right `format` and no unknown fields. The neutral tag
/// `atkm.roster/1` reads as `muster.atkm.roster/1`.
pub fn parse_roster(json: &str) -> Result<RosterDoc, DocumentError> {
    let mut doc: RosterDoc = serde_json::from_str(json).map_err(|e| DocumentError {
        path: None,
        message: format!("{e}"),
    })?;
    if doc.format == NEUTRAL_FORMAT {
        doc.format = ROSTER_FORMAT.to_string();
    }
    if doc.format != ROSTER_FORMAT {
        return Err(DocumentError {
            path: Some("format".to_string()),
            message: format!(
                "This is not an All the King's Men roster: its format is '{}', not '{ROSTER_FORMAT}'.",
                doc.format
            ),
        });
    }
    Ok(doc)
}

/// Refuses a roster larger than any real army, naming the part.
pub fn check_roster_size(doc: &RosterDoc) -> Result<(), DocumentError> {
    let too = |path: String, message: String| {
        Err(DocumentError {
            path: Some(path),
            message,
        })
    };
    if doc.units.len() > MAX_UNITS {
        return too(
            "units".into(),
            format!("An army may have at most {MAX_UNITS} units."),
        );
    }
    if doc.generals.len() > MAX_GENERALS {
        return too(
            "generals".into(),
            format!("An army may have at most {MAX_GENERALS} generals."),
        );
    }
    if doc.advanced_rules.len() > 100 {
        return too(
            "advanced_rules".into(),
            "An army may name at most 100 optional rules.".into(),
        );
    }
    let long = |s: &str| s.chars().count() > MAX_TEXT;
    if long(&doc.name) {
        return too(
            "name".into(),
            format!("A name may be at most {MAX_TEXT} characters."),
        );
    }
    for (i, g) in doc.generals.iter().enumerate() {
        if long(&g.name) || g.id.as_deref().is_some_and(long) {
            return too(
                format!("generals[{i}]"),
                format!("A name may be at most {MAX_TEXT} characters."),
            );
        }
    }
    for (i, u) in doc.units.iter().enumerate() {
        let texts = [
            Some(u.name.as_str()),
            u.id.as_deref(),
            u.label.as_deref(),
            u.group.as_deref(),
            u.general.as_deref(),
            Some(u.unit_type.as_str()),
        ];
        if texts.into_iter().flatten().any(long) {
            return too(
                format!("units[{i}]"),
                format!("A name may be at most {MAX_TEXT} characters."),
            );
        }
    }
    if let Some(r) = &doc.random {
        if r.rolls.len() > 4 * MAX_UNITS + MAX_GENERALS {
            return too("random".into(), "Too many recorded rolls.".into());
        }
    }
    Ok(())
}
