//! The roster document `muster.awi.oob/1`: an order of battle of one side (its CinC, brigades
//! under brigadiers with an ability rating, units with a troop type, grade, bases and arms,
//! guns with their gunners). `docs/systems/awi.md` documents it with complete examples.
//!
//! The document is read loosely on purpose: what it says about the game (an unknown type, a
//! size of 2.5 bases, an ability of 11, a field the format does not know) is the validator's to
//! judge, so an illegal draft still saves and every problem is reported at once.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::types::{Arms, Grade, GunClass, TroopType};
use crate::rules::system::DocumentError;

/// The format tag every roster document carries.
pub const ROSTER_FORMAT: &str = "muster.awi.oob/1";
/// The neutral tag of the specification's examples, read as [`ROSTER_FORMAT`].
pub const NEUTRAL_FORMAT: &str = "awi.oob/1";

/// The one war the rules cover: rosters are stored with it, and campaigns match forces by it.
pub const WAR: &str = "american_revolution";

/// Most brigades, units and characters of text a roster may hold: far beyond any real army.
pub const MAX_BRIGADES: usize = 60;
pub const MAX_UNITS: usize = 400;
pub const MAX_TEXT: usize = 200;

/// Fields the document does not define, kept as they came so nothing is lost on saving; the
/// validator names each one.
pub type Extra = BTreeMap<String, Value>;

/// A whole order of battle.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct RosterDoc {
    /// `muster.awi.oob/1`.
    pub format: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default)]
    pub name: String,
    /// The side or nation in the player's words ("British", "Continental").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    /// Catalogue version the roster was last saved with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub catalogue_version: Option<String>,
    /// The army's commander-in-chief; absent is an error the validator reports (W-36).
    #[serde(default)]
    pub cinc: Option<LeaderDoc>,
    #[serde(default)]
    pub brigades: Vec<BrigadeDoc>,
    #[serde(flatten)]
    pub extra: Extra,
}

/// The CinC: a name, no rating (spec 3).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct LeaderDoc {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default)]
    pub name: String,
    #[serde(flatten)]
    pub extra: Extra,
}

/// A brigadier: a name and his ability rating, 1–10, rolled D6+2 when absent (W-4).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct BrigadierDoc {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default)]
    pub name: String,
    /// Kept as written: the validator judges whether it is a whole number 1–10.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ability: Option<Value>,
    #[serde(flatten)]
    pub extra: Extra,
}

impl BrigadierDoc {
    /// The ability when it is a whole number in 1–10 (W-4).
    pub fn ability_value(&self) -> Option<u32> {
        whole(self.ability.as_ref()).filter(|a| (1..=10).contains(a))
    }
}

/// A brigade: one brigadier and his units (W-36).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct BrigadeDoc {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub brigadier: Option<BrigadierDoc>,
    #[serde(default)]
    pub units: Vec<UnitDoc>,
    #[serde(flatten)]
    pub extra: Extra,
}

/// One unit: a troop type, grade, bases and arms, or a gun with its gunners.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct UnitDoc {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default)]
    pub name: String,
    /// `infantry`, `skirmishers`, `cavalry` or `artillery`.
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub troop_type: Option<String>,
    /// `elite`, `trained`, `raw` or `militia`; required for every unit, guns included.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grade: Option<String>,
    /// Bases of infantry, skirmishers or cavalry (a gun is one base).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bases: Option<Value>,
    /// `musket` (the default for foot) or `rifle` (skirmishers only, W-34).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arms: Option<String>,
    /// A gun's class: `light` or `medium`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gun: Option<String>,
    /// A gun's gunner figures, 1–4 (default 4, W-17).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gunners: Option<Value>,
    #[serde(flatten)]
    pub extra: Extra,
}

/// A whole number, if the value is one (2.0 counts, 2.5 and "2" do not).
pub fn whole(v: Option<&Value>) -> Option<u32> {
    let v = v?;
    if let Some(n) = v.as_u64() {
        return u32::try_from(n).ok();
    }
    let f = v.as_f64()?;
    (f.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&f)).then_some(f as u32)
}

/// A unit read in the game's terms, once its document is legal (or near enough to fight).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitSpec {
    pub troop_type: TroopType,
    pub grade: Grade,
    /// Bases at the start (1 for a gun).
    pub bases: u32,
    pub arms: Option<Arms>,
    pub gun: Option<GunClass>,
    /// A gun's gunners (0 for other types).
    pub gunners: u32,
}

impl UnitSpec {
    /// Figures at full strength: bases × figures per base, or a gun's gunners (W-2, W-17).
    pub fn figures(&self, figures_per_base: u32) -> u32 {
        if self.troop_type == TroopType::Artillery {
            self.gunners
        } else {
            self.bases * figures_per_base
        }
    }

    /// What the tests count as bases: a gun's gunners stand for bases (W-3).
    pub fn start_bases(&self) -> u32 {
        if self.troop_type == TroopType::Artillery {
            self.gunners
        } else {
            self.bases
        }
    }
}

impl UnitDoc {
    pub fn new(troop_type: TroopType, grade: Grade, bases: u32) -> UnitDoc {
        let mut u = UnitDoc {
            name: troop_type.label().to_string(),
            troop_type: Some(troop_type.id().to_string()),
            grade: Some(grade.id().to_string()),
            ..UnitDoc::default()
        };
        if troop_type == TroopType::Artillery {
            u.gun = Some(GunClass::Light.id().to_string());
            u.gunners = Some(Value::from(4));
        } else {
            u.bases = Some(Value::from(bases));
        }
        u
    }

    pub fn troop(&self) -> Option<TroopType> {
        TroopType::from_id(self.troop_type.as_deref()?)
    }

    pub fn grade_value(&self) -> Option<Grade> {
        Grade::from_id(self.grade.as_deref()?)
    }

    /// The unit in the game's terms; `None` when its type, grade, size or gun is not one the
    /// rules allow (the validator says which).
    pub fn spec(&self) -> Option<UnitSpec> {
        let troop_type = self.troop()?;
        let grade = self.grade_value()?;
        if troop_type == TroopType::Artillery {
            let gun = GunClass::from_id(self.gun.as_deref()?)?;
            let gunners = match &self.gunners {
                None => 4,
                Some(v) => whole(Some(v)).filter(|g| (1..=4).contains(g))?,
            };
            if self.bases.is_some() && whole(self.bases.as_ref()) != Some(1) {
                return None;
            }
            return Some(UnitSpec {
                troop_type,
                grade,
                bases: 1,
                arms: None,
                gun: Some(gun),
                gunners,
            });
        }
        let bases = whole(self.bases.as_ref()).filter(|b| *b >= 1)?;
        let arms = match (&self.arms, troop_type) {
            (_, TroopType::Cavalry) => None,
            (None, _) => Some(Arms::Musket),
            (Some(a), _) => Some(Arms::from_id(a)?),
        };
        Some(UnitSpec {
            troop_type,
            grade,
            bases,
            arms,
            gun: None,
            gunners: 0,
        })
    }
}

impl RosterDoc {
    /// An empty order of battle: a CinC and one brigade under a brigadier whose ability is
    /// rolled when the force first fights or enlists (W-4).
    pub fn new(name: &str) -> RosterDoc {
        RosterDoc {
            format: ROSTER_FORMAT.to_string(),
            name: name.to_string(),
            cinc: Some(LeaderDoc {
                name: "Commander-in-chief".to_string(),
                ..LeaderDoc::default()
            }),
            brigades: vec![BrigadeDoc {
                name: "1st Brigade".to_string(),
                brigadier: Some(BrigadierDoc {
                    name: "Brigadier".to_string(),
                    ..BrigadierDoc::default()
                }),
                ..BrigadeDoc::default()
            }],
            ..RosterDoc::default()
        }
    }

    pub fn unit_count(&self) -> usize {
        self.brigades.iter().map(|b| b.units.len()).sum()
    }

    /// Every unit with its brigade's index and its own.
    pub fn units(&self) -> impl Iterator<Item = (usize, usize, &UnitDoc)> {
        self.brigades.iter().enumerate().flat_map(|(b, brigade)| {
            brigade
                .units
                .iter()
                .enumerate()
                .map(move |(u, unit)| (b, u, unit))
        })
    }

    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Gives the army, its CinC, every brigade, brigadier and unit a stable id where it has
    /// none, and a new one where an earlier part already uses its id (the first keeps it). The
    /// same document always gets the same ids.
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
        if let Some(c) = &mut self.cinc {
            keep_first(&mut c.id);
        }
        for b in &mut self.brigades {
            keep_first(&mut b.id);
            if let Some(g) = &mut b.brigadier {
                keep_first(&mut g.id);
            }
            for u in &mut b.units {
                keep_first(&mut u.id);
            }
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
        if let Some(c) = &mut self.cinc {
            fresh("cinc-", &mut c.id);
        }
        for b in &mut self.brigades {
            fresh("brigade-", &mut b.id);
            if let Some(g) = &mut b.brigadier {
                fresh("brigadier-", &mut g.id);
            }
            for u in &mut b.units {
                fresh("unit-", &mut u.id);
            }
        }
    }
}

/// Reads a roster document: JSON with the right `format`. The neutral tag `awi.oob/1` reads
/// as `muster.awi.oob/1`. Anything the game judges is left to the validator.
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
                "This is not an AWI order of battle: its format is '{}', not '{ROSTER_FORMAT}'.",
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
    if doc.brigades.len() > MAX_BRIGADES {
        return too(
            "brigades".into(),
            format!("An order of battle may have at most {MAX_BRIGADES} brigades."),
        );
    }
    if doc.unit_count() > MAX_UNITS {
        return too(
            "brigades".into(),
            format!("An order of battle may have at most {MAX_UNITS} units."),
        );
    }
    let long = |s: &str| s.chars().count() > MAX_TEXT;
    let message = || format!("A name may be at most {MAX_TEXT} characters.");
    if long(&doc.name) || doc.side.as_deref().is_some_and(long) {
        return too("name".into(), message());
    }
    if doc.cinc.as_ref().is_some_and(|c| long(&c.name)) {
        return too("cinc.name".into(), message());
    }
    for (b, brigade) in doc.brigades.iter().enumerate() {
        let brigadier_long = brigade.brigadier.as_ref().is_some_and(|g| long(&g.name));
        if long(&brigade.name) || brigadier_long {
            return too(format!("brigades[{b}]"), message());
        }
        for (u, unit) in brigade.units.iter().enumerate() {
            let texts = [&unit.troop_type, &unit.grade, &unit.arms, &unit.gun];
            if long(&unit.name) || texts.iter().any(|t| t.as_deref().is_some_and(long)) {
                return too(format!("brigades[{b}].units[{u}]"), message());
            }
        }
    }
    Ok(())
}
