//! The roster document `muster.oibl.roster/1` (spec 2.1): one side's order of battle, brigades
//! under their commanders (optionally grouped in divisions under an army commander), each unit
//! with its class, stands, figures, quality and the scenario's grants. `docs/systems/oibl.md`
//! documents it. Reading refuses unknown fields by name and values of the wrong type; what the
//! document says about the game (an unknown class or quality, a formation the class may not use)
//! is the validator's to judge, so illegal drafts still save.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::rules::system::DocumentError;

/// The format tag every roster document carries.
pub const ROSTER_FORMAT: &str = "muster.oibl.roster/1";
/// The specification's tag without Muster's prefix, read as [`ROSTER_FORMAT`].
pub const NEUTRAL_FORMAT: &str = "oibl.roster/1";

/// The one war the game covers.
pub const WAR: &str = "american_revolution";

/// The nations a roster may name.
pub const NATIONS: [&str; 6] = [
    "american", "british", "loyalist", "german", "french", "indian",
];

/// Far beyond any real order of battle.
pub const MAX_BRIGADES: usize = 60;
pub const MAX_UNITS: usize = 400;
pub const MAX_DIVISIONS: usize = 20;
pub const MAX_TEXT: usize = 200;
pub const MAX_STANDS: u32 = 200;

/// One side's order of battle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RosterDoc {
    /// `muster.oibl.roster/1`.
    pub format: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default)]
    pub name: String,
    /// american, british, loyalist, german, french or indian.
    #[serde(default)]
    pub nation: String,
    /// The scenario the order of battle is for (free text).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub scenario: String,
    /// Catalogue version the roster was last saved with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub catalogue_version: Option<String>,
    /// Matters only with the optional army card (spec 5.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub army_commander: Option<CommanderDoc>,
    /// Matters only with the optional division cards (spec 5.1).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub divisions: Vec<DivisionDoc>,
    #[serde(default)]
    pub brigades: Vec<BrigadeDoc>,
}

/// A commander: a name and a rating X (B-8).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommanderDoc {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default)]
    pub name: String,
    /// 0 to 3; left out, 1 (B-8).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<i32>,
    /// Campaign state: `light` or `serious` wound carried from the last battle (spec 3.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wound: Option<String>,
}

impl CommanderDoc {
    /// The rating X, the default when left out (B-8).
    pub fn rating_or_default(&self) -> i32 {
        self.rating.unwrap_or(1)
    }
}

/// A division or wing: a commander over some brigades (by id).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DivisionDoc {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default)]
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commander: Option<CommanderDoc>,
    #[serde(default)]
    pub brigades: Vec<String>,
}

/// A brigade: one card in the deck, its commander and its units.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BrigadeDoc {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default)]
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commander: Option<CommanderDoc>,
    #[serde(default)]
    pub units: Vec<UnitDoc>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// One unit as the scenario fixes it (spec 1.7, static part).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitDoc {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default)]
    pub name: String,
    /// A troop class id (spec 1.3).
    #[serde(default)]
    pub class: String,
    /// Stands (for artillery: ignored, the guns are its stands).
    #[serde(default)]
    pub stands: u32,
    /// elite, veteran, regular, poor or wretched.
    #[serde(default)]
    pub quality: String,
    /// Left out: the class's basing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub basing: Option<String>,
    /// Figures now; left out: stands × figures per stand (artillery: its crew).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub figures: Option<u32>,
    /// Left out: the class's first weapon.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weapon: Option<String>,
    /// Left out: the class's default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bayonets: Option<bool>,
    /// Left out: the class's default formations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub formations: Option<Vec<String>>,
    /// Formations the scenario grants: close_order, open_order, skirmish.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub authorizations: Vec<String>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub marksmen: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub light_infantry: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub grenadiers: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub legion: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub discharged_continentals: bool,
    /// Artillery: light, medium or heavy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gun: Option<String>,
    /// Artillery: guns in the battery (default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guns: Option<u32>,
    /// Artillery: crew figures per gun (default by gun class, B-7).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crew: Option<u32>,
}

impl UnitDoc {
    /// A unit of `class` with `stands` stands of `quality`, everything else from the class.
    pub fn new(name: &str, class: &str, stands: u32, quality: &str) -> UnitDoc {
        UnitDoc {
            name: name.to_string(),
            class: class.to_string(),
            stands,
            quality: quality.to_string(),
            ..UnitDoc::default()
        }
    }

    /// The flags set on it, by id.
    pub fn flags(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        for (on, id) in [
            (self.light_infantry, "light_infantry"),
            (self.grenadiers, "grenadiers"),
            (self.legion, "legion"),
            (self.discharged_continentals, "discharged_continentals"),
        ] {
            if on {
                out.push(id);
            }
        }
        out
    }
}

impl RosterDoc {
    /// An empty order of battle of `nation` with one brigade under a commander of rating 1.
    pub fn new(name: &str, nation: &str) -> RosterDoc {
        RosterDoc {
            format: ROSTER_FORMAT.to_string(),
            id: None,
            name: name.to_string(),
            nation: nation.to_string(),
            scenario: String::new(),
            catalogue_version: None,
            army_commander: None,
            divisions: Vec::new(),
            brigades: vec![BrigadeDoc {
                id: None,
                name: "1st Brigade".to_string(),
                commander: Some(CommanderDoc {
                    rating: Some(1),
                    ..CommanderDoc::default()
                }),
                units: Vec::new(),
            }],
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

    /// Gives the roster, every commander, division, brigade and unit a stable id where it has
    /// none, and a new one where an earlier part already uses its id (the first keeps it).
    /// Division brigade lists keep naming the brigades they named. The same document always
    /// gets the same ids.
    pub fn assign_ids(&mut self) {
        let mut taken: BTreeSet<String> = BTreeSet::new();
        let mut keep = |id: &mut Option<String>| {
            if let Some(text) = id.as_ref().filter(|s| !s.is_empty()) {
                if !taken.insert(text.clone()) {
                    *id = None;
                }
            } else {
                *id = None;
            }
        };
        keep(&mut self.id);
        if let Some(c) = self.army_commander.as_mut() {
            keep(&mut c.id);
        }
        for d in &mut self.divisions {
            keep(&mut d.id);
            if let Some(c) = d.commander.as_mut() {
                keep(&mut c.id);
            }
        }
        for b in &mut self.brigades {
            keep(&mut b.id);
            if let Some(c) = b.commander.as_mut() {
                keep(&mut c.id);
            }
            for u in &mut b.units {
                keep(&mut u.id);
            }
        }
        let mut fresh = |prefix: &str, id: &mut Option<String>| {
            if id.is_none() {
                let mut n = 1;
                while taken.contains(&format!("{prefix}{n}")) {
                    n += 1;
                }
                let text = format!("{prefix}{n}");
                taken.insert(text.clone());
                *id = Some(text);
            }
        };
        fresh("f", &mut self.id);
        if let Some(c) = self.army_commander.as_mut() {
            fresh("c", &mut c.id);
        }
        for d in &mut self.divisions {
            fresh("d", &mut d.id);
            if let Some(c) = d.commander.as_mut() {
                fresh("c", &mut c.id);
            }
        }
        for b in &mut self.brigades {
            fresh("b", &mut b.id);
            if let Some(c) = b.commander.as_mut() {
                fresh("c", &mut c.id);
            }
            for u in &mut b.units {
                fresh("u", &mut u.id);
            }
        }
    }
}

/// Reads a roster document: the JSON must be an object of this format; values of the wrong
/// type or unknown fields are refused with the path.
pub fn parse_roster(json: &str) -> Result<RosterDoc, DocumentError> {
    let value: serde_json::Value = serde_json::from_str(json).map_err(|e| DocumentError {
        path: None,
        message: format!("This is not JSON: {e}"),
    })?;
    let format = value
        .get("format")
        .and_then(|f| f.as_str())
        .ok_or_else(|| DocumentError {
            path: Some("format".into()),
            message: format!("A One if by Land roster says \"format\": \"{ROSTER_FORMAT}\"."),
        })?;
    if format != ROSTER_FORMAT && format != NEUTRAL_FORMAT {
        return Err(DocumentError {
            path: Some("format".into()),
            message: format!(
                "The format is '{format}'; a One if by Land roster is '{ROSTER_FORMAT}'."
            ),
        });
    }
    let mut doc: RosterDoc = serde_json::from_value(value).map_err(|e| DocumentError {
        path: None,
        message: format!("This roster cannot be read: {e}"),
    })?;
    doc.format = ROSTER_FORMAT.to_string();
    Ok(doc)
}

/// Refuses a roster larger than any real order of battle, naming the part.
pub fn check_roster_size(doc: &RosterDoc) -> Result<(), DocumentError> {
    let too = |path: &str, message: String| {
        Err(DocumentError {
            path: Some(path.to_string()),
            message,
        })
    };
    if doc.brigades.len() > MAX_BRIGADES {
        return too("brigades", format!("At most {MAX_BRIGADES} brigades."));
    }
    if doc.divisions.len() > MAX_DIVISIONS {
        return too("divisions", format!("At most {MAX_DIVISIONS} divisions."));
    }
    if doc.unit_count() > MAX_UNITS {
        return too("brigades", format!("At most {MAX_UNITS} units in all."));
    }
    let long = |s: &str| s.chars().count() > MAX_TEXT;
    if long(&doc.name) || long(&doc.scenario) || long(&doc.nation) {
        return too("name", format!("Names are at most {MAX_TEXT} characters."));
    }
    for (b, brigade) in doc.brigades.iter().enumerate() {
        if long(&brigade.name) || brigade.commander.as_ref().is_some_and(|c| long(&c.name)) {
            return too(
                &format!("brigades[{b}].name"),
                format!("Names are at most {MAX_TEXT} characters."),
            );
        }
        for (u, unit) in brigade.units.iter().enumerate() {
            let path = format!("brigades[{b}].units[{u}]");
            if long(&unit.name) || long(&unit.class) || long(&unit.quality) {
                return too(&path, format!("Names are at most {MAX_TEXT} characters."));
            }
            if unit.stands > MAX_STANDS
                || unit.figures.is_some_and(|f| f > MAX_STANDS * 4)
                || unit.guns.is_some_and(|g| g > 50)
                || unit.crew.is_some_and(|c| c > 50)
            {
                return too(&path, "No unit is that large.".to_string());
            }
            if unit.authorizations.len() > 10
                || unit.formations.as_ref().is_some_and(|f| f.len() > 10)
            {
                return too(&path, "Too many formations listed.".to_string());
            }
        }
    }
    Ok(())
}
