//! The roster document `muster.lod.roster/1`: an army of one list, its C-in-C, brigades under
//! their Generals, and units chosen from the lists' entries. `docs/systems/lod.md` documents it.
//! Reading refuses unknown fields by name; what the document says about the game (an unknown
//! list or entry, a size the entry does not offer) is the validator's to judge, so illegal
//! drafts still save.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::rules::system::DocumentError;

/// The format tag every roster document carries.
pub const ROSTER_FORMAT: &str = "muster.lod.roster/1";
/// The neutral tag of the specification's examples, read as [`ROSTER_FORMAT`].
pub const NEUTRAL_FORMAT: &str = "lod.roster/1";

/// The one war the game covers: rosters are stored with it, and campaigns match forces by it.
pub const WAR: &str = "american_revolution";

/// Most units, brigades and characters of text a roster may hold: far beyond any real army.
pub const MAX_BRIGADES: usize = 60;
pub const MAX_UNITS: usize = 400;
pub const MAX_TEXT: usize = 200;

/// A whole army.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RosterDoc {
    /// `muster.lod.roster/1`.
    pub format: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default)]
    pub name: String,
    /// `continental`, `british` or `hessian`.
    pub army_list: String,
    /// Catalogue version the roster was last saved with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub catalogue_version: Option<String>,
    /// The army's C-in-C: a vignette, always present (L-51).
    #[serde(default)]
    pub c_in_c: LeaderDoc,
    #[serde(default)]
    pub brigades: Vec<BrigadeDoc>,
}

/// A General or the C-in-C: a name, no rating (3.1).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeaderDoc {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default)]
    pub name: String,
}

/// A brigade: one General and its units.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BrigadeDoc {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default)]
    pub name: String,
    /// Exactly one per brigade (L-51); absent is an error the validator reports.
    #[serde(default)]
    pub general: Option<LeaderDoc>,
    #[serde(default)]
    pub units: Vec<UnitDoc>,
}

/// One unit: a list entry at one of its sizes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitDoc {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The player's name for it ("2nd Virginia"); empty shows the entry's name.
    #[serde(default)]
    pub name: String,
    /// An entry id of the army's list, or `list.entry` for an allied list (L-49).
    pub entry: String,
    /// The SIZE option chosen, before any detachment (L-50).
    pub bases: u32,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub grenadiers_detached: bool,
}

impl UnitDoc {
    pub fn new(entry: &str, bases: u32) -> UnitDoc {
        UnitDoc {
            id: None,
            name: String::new(),
            entry: entry.to_string(),
            bases,
            grenadiers_detached: false,
        }
    }
}

impl RosterDoc {
    /// An empty army of `army_list` with its C-in-C and one brigade under a General.
    pub fn new(name: &str, army_list: &str) -> RosterDoc {
        RosterDoc {
            format: ROSTER_FORMAT.to_string(),
            id: None,
            name: name.to_string(),
            army_list: army_list.to_string(),
            catalogue_version: None,
            c_in_c: LeaderDoc::default(),
            brigades: vec![BrigadeDoc {
                id: None,
                name: "1st Brigade".to_string(),
                general: Some(LeaderDoc::default()),
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

    /// Gives the army, its C-in-C, every brigade, General and unit a stable id where it has
    /// none, and a new one where an earlier part already uses its id (the first keeps it), so
    /// that battles and the editor can tell every part apart. The same document always gets the
    /// same ids.
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
        keep_first(&mut self.c_in_c.id);
        for b in &mut self.brigades {
            keep_first(&mut b.id);
            if let Some(g) = &mut b.general {
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
        fresh("cinc-", &mut self.c_in_c.id);
        for b in &mut self.brigades {
            fresh("brigade-", &mut b.id);
            if let Some(g) = &mut b.general {
                fresh("general-", &mut g.id);
            }
            for u in &mut b.units {
                fresh("unit-", &mut u.id);
            }
        }
    }
}

/// Reads a roster document: JSON with the right `format` and no unknown fields. The neutral tag
/// `lod.roster/1` reads as `muster.lod.roster/1`.
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
                "This is not a Liberty or Death! roster: its format is '{}', not '{ROSTER_FORMAT}'.",
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
            format!("An army may have at most {MAX_BRIGADES} brigades."),
        );
    }
    if doc.unit_count() > MAX_UNITS {
        return too(
            "brigades".into(),
            format!("An army may have at most {MAX_UNITS} units."),
        );
    }
    let long = |s: &str| s.chars().count() > MAX_TEXT;
    if long(&doc.name) {
        return too(
            "name".into(),
            format!("A name may be at most {MAX_TEXT} characters."),
        );
    }
    if long(&doc.c_in_c.name) {
        return too(
            "c_in_c.name".into(),
            format!("A name may be at most {MAX_TEXT} characters."),
        );
    }
    for (b, brigade) in doc.brigades.iter().enumerate() {
        let general_long = brigade.general.as_ref().is_some_and(|g| long(&g.name));
        if long(&brigade.name) || general_long {
            return too(
                format!("brigades[{b}]"),
                format!("A name may be at most {MAX_TEXT} characters."),
            );
        }
        for (u, unit) in brigade.units.iter().enumerate() {
            if long(&unit.name) || long(&unit.entry) {
                return too(
                    format!("brigades[{b}].units[{u}]"),
                    format!("A name may be at most {MAX_TEXT} characters."),
                );
            }
        }
    }
    Ok(())
}
