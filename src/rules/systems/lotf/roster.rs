//! The roster document `muster.lotf.roster/1`: model, parsing with clear
//! errors, and stable id assignment. See `docs/roster-format.md`.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::types::{ElementType, Mode, Nation, Size, Upgrade, War, Weapon};

/// The format tag every roster document carries.
pub const ROSTER_FORMAT: &str = "muster.lotf.roster/1";

/// A whole roster: one force.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RosterDoc {
    /// Always `muster.lotf.roster/1`.
    pub format: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default)]
    pub name: String,
    pub war: War,
    pub nation: Nation,
    /// Agreed points size of the game; may be absent in historical mode.
    #[serde(default)]
    pub points_limit: Option<u32>,
    #[serde(default)]
    pub mode: Mode,
    /// Catalogue version the roster was last saved with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub catalogue_version: Option<String>,
    #[serde(default)]
    pub force_commander: Option<CommanderDoc>,
    #[serde(default)]
    pub groups: Vec<GroupDoc>,
}

/// A Force or Group Commander (commanders cost no points, R-1).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommanderDoc {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default)]
    pub name: String,
}

/// A group: one Group Commander and its elements.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroupDoc {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Optional label for the group (e.g. "Right wing").
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    #[serde(default)]
    pub commander: Option<CommanderDoc>,
    #[serde(default)]
    pub elements: Vec<ElementDoc>,
}

/// One element.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ElementDoc {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default)]
    pub name: String,
    #[serde(rename = "type")]
    pub element_type: ElementType,
    pub size: Size,
    /// Weapon or gun class; absent means the type's default
    /// (smoothbore, mixed, light gun).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weapon: Option<Weapon>,
    #[serde(default)]
    pub upgrades: Vec<Upgrade>,
    /// The historical list entry this element represents (id or name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub historical_entry: Option<String>,
    /// Free text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The source gave no size; it was assumed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub size_assumed: bool,
    /// The gun class was assumed: howitzers, unstated calibre or a mixed battery.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub gun_class_assumed: bool,
}

impl ElementDoc {
    /// A plain element with no upgrades and the default weapon.
    pub fn new(name: &str, element_type: ElementType, size: Size) -> ElementDoc {
        ElementDoc {
            id: None,
            name: name.to_string(),
            element_type,
            size,
            weapon: None,
            upgrades: Vec::new(),
            historical_entry: None,
            note: None,
            size_assumed: false,
            gun_class_assumed: false,
        }
    }
}

impl RosterDoc {
    /// An empty standard-mode roster.
    pub fn new(name: &str, war: War, nation: Nation, points_limit: Option<u32>) -> RosterDoc {
        RosterDoc {
            format: ROSTER_FORMAT.to_string(),
            id: None,
            name: name.to_string(),
            war,
            nation,
            points_limit,
            mode: Mode::Standard,
            catalogue_version: None,
            force_commander: Some(CommanderDoc::default()),
            groups: Vec::new(),
        }
    }

    /// Number of elements in the whole force.
    pub fn element_count(&self) -> usize {
        self.groups.iter().map(|g| g.elements.len()).sum()
    }

    /// Serialise to pretty JSON.
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Give every force, group, commander and element a stable id.
    ///
    /// Existing ids are kept when they are unique within the document (the
    /// first holder of a duplicated id keeps it, later holders get a new one);
    /// empty ids count as missing. New ids are the prefix of the kind
    /// (`f` force, `g` group, `c` commander, `e` element) followed by the
    /// smallest number not used by any id in the document, so the same
    /// document always gets the same ids.
    pub fn assign_missing_ids(&mut self) {
        // First pass: decide which existing ids survive.
        let mut used: BTreeSet<String> = BTreeSet::new();
        let mut keep = |id: &mut Option<String>| {
            if let Some(s) = id {
                if !is_valid_id(s) || !used.insert(s.clone()) {
                    *id = None;
                }
            }
        };
        keep(&mut self.id);
        if let Some(c) = &mut self.force_commander {
            keep(&mut c.id);
        }
        for g in &mut self.groups {
            keep(&mut g.id);
            if let Some(c) = &mut g.commander {
                keep(&mut c.id);
            }
            for e in &mut g.elements {
                keep(&mut e.id);
            }
        }
        // Second pass: fill the gaps in document order. Each prefix keeps its own counter that
        // only moves forward, so a large document costs linear time.
        let mut next: std::collections::BTreeMap<&str, u64> = std::collections::BTreeMap::new();
        let mut fill = |id: &mut Option<String>, prefix: &'static str| {
            if id.is_none() {
                let n = next.entry(prefix).or_insert(1);
                loop {
                    let candidate = format!("{prefix}{n}");
                    *n += 1;
                    if !used.contains(&candidate) {
                        used.insert(candidate.clone());
                        *id = Some(candidate);
                        break;
                    }
                }
            }
        };
        fill(&mut self.id, "f");
        if let Some(c) = &mut self.force_commander {
            fill(&mut c.id, "c");
        }
        for g in &mut self.groups {
            fill(&mut g.id, "g");
            if let Some(c) = &mut g.commander {
                fill(&mut c.id, "c");
            }
            for e in &mut g.elements {
                fill(&mut e.id, "e");
            }
        }
    }
}

/// What kind of problem stopped a roster from being read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RosterParseErrorKind {
    /// Not well-formed JSON.
    Syntax,
    /// The text ended too early.
    Eof,
    /// Well-formed JSON that does not fit the roster format (unknown field,
    /// bad value, missing field, wrong type).
    Data,
    /// The `format` tag is not one this version reads.
    Format,
}

/// A roster that could not be read, with where and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{message} (line {line}, column {column})")]
pub struct RosterParseError {
    pub kind: RosterParseErrorKind,
    /// Plain-words description, naming the field and the allowed values
    /// where that applies.
    pub message: String,
    /// 1-based line of the problem (0 if unknown).
    pub line: usize,
    /// 1-based column of the problem (0 if unknown).
    pub column: usize,
    /// Path of the field concerned, e.g. `groups[0].elements[2].size`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
}

/// Read a roster document.
///
/// The largest roster Muster reads: far beyond the book's 6 groups of 6 (the largest historical
/// order of battle has 10 groups of at most 9 elements), small enough that no document can make
/// checking or pricing slow.
pub const MAX_GROUPS: usize = 20;
pub const MAX_ELEMENTS_PER_GROUP: usize = 20;
pub const MAX_UPGRADES_PER_ELEMENT: usize = 4;
pub const MAX_TEXT_CHARS: usize = 200;
/// The largest points limit Muster reads (the editor and the battle forms take the same).
pub const MAX_POINTS_LIMIT: u32 = 100_000;

/// Ids are short and safe in links: letters, digits, `-` and `_`, at most 40 characters.
/// Anything else is treated as missing and replaced when ids are assigned.
pub fn is_valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 40
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

fn too_large(message: String, path: String) -> RosterParseError {
    RosterParseError {
        kind: RosterParseErrorKind::Data,
        message,
        line: 0,
        column: 0,
        path: Some(path),
    }
}

/// Refuses documents larger than any real force (see [`MAX_GROUPS`] and friends).
pub fn check_roster_size(doc: &RosterDoc) -> Result<(), RosterParseError> {
    if let Some(limit) = doc.points_limit.filter(|&l| l > MAX_POINTS_LIMIT) {
        return Err(too_large(
            format!(
                "points_limit: at most {MAX_POINTS_LIMIT} ({limit} given); 0 or no limit at all \
                 means none in historical mode"
            ),
            "points_limit".into(),
        ));
    }
    if doc.groups.len() > MAX_GROUPS {
        return Err(too_large(
            format!(
                "a roster has at most {MAX_GROUPS} groups in Muster; this one has {}",
                doc.groups.len()
            ),
            "groups".into(),
        ));
    }
    let long = |text: &str, path: String| -> Result<(), RosterParseError> {
        let n = text.chars().count();
        if n > MAX_TEXT_CHARS {
            return Err(too_large(
                format!("{path}: at most {MAX_TEXT_CHARS} characters ({n} given)"),
                path,
            ));
        }
        Ok(())
    };
    long(&doc.name, "name".into())?;
    if let Some(c) = &doc.force_commander {
        long(&c.name, "force_commander.name".into())?;
    }
    for (gi, g) in doc.groups.iter().enumerate() {
        if g.elements.len() > MAX_ELEMENTS_PER_GROUP {
            return Err(too_large(
                format!("a group has at most {MAX_ELEMENTS_PER_GROUP} elements in Muster; group {} has {}", gi + 1, g.elements.len()),
                format!("groups[{gi}].elements"),
            ));
        }
        long(&g.name, format!("groups[{gi}].name"))?;
        if let Some(c) = &g.commander {
            long(&c.name, format!("groups[{gi}].commander.name"))?;
        }
        for (ei, e) in g.elements.iter().enumerate() {
            long(&e.name, format!("groups[{gi}].elements[{ei}].name"))?;
            if let Some(note) = &e.note {
                long(note, format!("groups[{gi}].elements[{ei}].note"))?;
            }
            if let Some(key) = &e.historical_entry {
                long(key, format!("groups[{gi}].elements[{ei}].historical_entry"))?;
            }
            if e.upgrades.len() > MAX_UPGRADES_PER_ELEMENT {
                return Err(too_large(
                    format!("groups[{gi}].elements[{ei}].upgrades: at most {MAX_UPGRADES_PER_ELEMENT} listed"),
                    format!("groups[{gi}].elements[{ei}].upgrades"),
                ));
            }
        }
    }
    Ok(())
}

/// Unknown fields and unknown values are rejected; the error names the field
/// (as a path), the offending value and what is allowed, with the position.
pub fn parse_roster(json: &str) -> Result<RosterDoc, RosterParseError> {
    // A list, a number or a string is not a roster: say so plainly rather than in serde's
    // words about struct lengths.
    let first = json.trim_start().chars().next();
    if first.is_some_and(|c| c != '{') {
        return Err(RosterParseError {
            kind: RosterParseErrorKind::Data,
            message: format!(
                "a roster is one JSON object, {{ … }}, with \"format\": \"{ROSTER_FORMAT}\""
            ),
            line: 1,
            column: 1,
            path: None,
        });
    }
    let doc: RosterDoc = match serde_json::from_str(json) {
        Ok(doc) => doc,
        Err(e) => return Err(describe_serde_error(json, &e)),
    };
    if doc.format != ROSTER_FORMAT {
        let (line, column) = find_key_position(json, "format").unwrap_or((1, 1));
        return Err(RosterParseError {
            kind: RosterParseErrorKind::Format,
            message: format!(
                "format: `{}` is not a roster format this version reads; expected `{ROSTER_FORMAT}`",
                doc.format
            ),
            line,
            column,
            path: Some("format".into()),
        });
    }
    check_roster_size(&doc)?;
    Ok(doc)
}

fn describe_serde_error(json: &str, e: &serde_json::Error) -> RosterParseError {
    use serde_json::error::Category;
    let kind = match e.classify() {
        Category::Syntax | Category::Io => RosterParseErrorKind::Syntax,
        Category::Eof => RosterParseErrorKind::Eof,
        Category::Data => RosterParseErrorKind::Data,
    };
    let (line, column) = (e.line(), e.column());
    // serde_json's Display appends " at line L column C"; keep the bare text.
    let full = e.to_string();
    let bare = match full.rfind(" at line ") {
        Some(i) => full[..i].to_string(),
        None => full,
    };
    let path = if kind == RosterParseErrorKind::Data {
        // A missing field concerns the object, not the last key read in it.
        path_at(json, line, column, bare.starts_with("missing field"))
    } else {
        None
    };
    let message = match kind {
        RosterParseErrorKind::Eof => format!("the document ends too early: {bare}"),
        RosterParseErrorKind::Syntax => format!("not valid JSON: {bare}"),
        _ => {
            let bare = friendlier(&bare);
            match &path {
                Some(p) if !p.is_empty() => format!("{p}: {bare}"),
                _ => bare,
            }
        }
    };
    RosterParseError {
        kind,
        message,
        line,
        column,
        path,
    }
}

/// Rephrase serde's wording a little for people ("variant" means "value").
fn friendlier(msg: &str) -> String {
    if msg.starts_with("unknown field") {
        msg.replace("expected one of", "allowed fields are")
            .replace(", expected", ", allowed fields are")
            .replace("there are no fields", "no fields are allowed here")
    } else if msg.starts_with("unknown variant") {
        msg.replace("unknown variant", "unknown value")
            .replace("expected one of", "allowed values are")
            .replace(", expected", ", allowed values are")
    } else if msg.starts_with("invalid value: integer") && msg.contains("expected u32") {
        // Only a number too large for the field gets here (a negative one too).
        msg.replace("invalid value: ", "").replace(
            ", expected u32",
            " is out of range, expected a whole number from 0 to 4294967295",
        )
    } else {
        msg.replace("expected u32", "expected a whole number, 0 or more")
            .replace("invalid type: ", "wrong kind of value: ")
    }
}

/// Byte offset of a 1-based line/column position (column counts bytes, as serde_json does).
fn offset_of(json: &str, line: usize, column: usize) -> usize {
    let mut offset = 0usize;
    for (i, l) in json.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            return (offset + column).min(json.len());
        }
        offset += l.len();
    }
    json.len()
}

enum Frame {
    Object {
        key: Option<String>,
        expecting_key: bool,
    },
    Array {
        index: usize,
    },
}

/// The JSON path of the innermost field being read at a position, found by
/// scanning the text up to that point. Returns `None` if the text cannot be
/// followed (it is only a hint for the message).
fn path_at(json: &str, line: usize, column: usize, container_only: bool) -> Option<String> {
    let end = offset_of(json, line, column);
    let bytes = json.as_bytes();
    let mut stack: Vec<Frame> = Vec::new();
    let mut i = 0usize;
    while i < end && i < bytes.len() {
        match bytes[i] {
            b'{' => stack.push(Frame::Object {
                key: None,
                expecting_key: true,
            }),
            b'[' => stack.push(Frame::Array { index: 0 }),
            b'}' | b']' => {
                // A position right after a closing bracket concerns that container.
                if i + 1 >= end {
                    break;
                }
                stack.pop();
            }
            b',' => match stack.last_mut() {
                Some(Frame::Array { index }) => *index += 1,
                Some(Frame::Object { key, expecting_key }) => {
                    *key = None;
                    *expecting_key = true;
                }
                None => {}
            },
            b':' => {
                if let Some(Frame::Object { expecting_key, .. }) = stack.last_mut() {
                    *expecting_key = false;
                }
            }
            b'"' => {
                // Read the string, honouring escapes.
                let start = i + 1;
                let mut j = start;
                let mut escaped = false;
                while j < bytes.len() {
                    let b = bytes[j];
                    if escaped {
                        escaped = false;
                    } else if b == b'\\' {
                        escaped = true;
                    } else if b == b'"' {
                        break;
                    }
                    j += 1;
                }
                if let Some(Frame::Object { key, expecting_key }) = stack.last_mut() {
                    if *expecting_key {
                        *key = json.get(start..j.min(bytes.len())).map(str::to_string);
                    }
                }
                i = j;
            }
            _ => {}
        }
        i += 1;
    }
    if container_only {
        if let Some(Frame::Object { key, .. }) = stack.last_mut() {
            *key = None;
        }
    }
    let mut path = String::new();
    for f in &stack {
        match f {
            Frame::Object { key: Some(k), .. } => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(k);
            }
            Frame::Object { key: None, .. } => {}
            Frame::Array { index } => path.push_str(&format!("[{index}]")),
        }
    }
    Some(path)
}

/// Line and column of the first occurrence of `"key"` followed by a colon.
fn find_key_position(json: &str, key: &str) -> Option<(usize, usize)> {
    let needle = format!("\"{key}\"");
    let at = json.find(&needle)?;
    let before = &json[..at];
    let line = before.matches('\n').count() + 1;
    let column = at - before.rfind('\n').map(|i| i + 1).unwrap_or(0) + 1;
    Some((line, column))
}
