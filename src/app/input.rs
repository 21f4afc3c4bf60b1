//! Input hygiene shared by every way in (pages, API, command line): which characters text may
//! hold, and how display names are normalised and compared.
//!
//! PostgreSQL refuses a NUL in text outright and other control characters only confuse the
//! people who read them later, so they are refused with a field error before anything is
//! stored. Line breaks and tabs stay allowed, because notes, descriptions, dispute comments and
//! imported documents are legitimately multi-line; single-line fields refuse them on their own.

use unicode_normalization::UnicodeNormalization;

/// The message beside a field that holds a control character.
pub const CONTROL_MESSAGE: &str =
    "Remove the control character (such as a NUL byte) from this field; only ordinary text, \
     line breaks and tabs are allowed.";

/// Whether `c` may appear in text a user sends. Everything but control characters, and of
/// those only line breaks and tabs.
pub fn allowed_in_text(c: char) -> bool {
    !c.is_control() || matches!(c, '\n' | '\r' | '\t')
}

/// Whether the text holds a character `allowed_in_text` refuses.
pub fn has_forbidden_control(text: &str) -> bool {
    !text.chars().all(allowed_in_text)
}

/// The first place in a JSON value (a dotted path, `$` for the root) whose key or string holds
/// a refused character.
pub fn json_control_path(value: &serde_json::Value) -> Option<String> {
    fn walk(value: &serde_json::Value, path: &mut String) -> Option<String> {
        match value {
            serde_json::Value::String(s) if has_forbidden_control(s) => Some(path.clone()),
            serde_json::Value::Array(items) => items.iter().enumerate().find_map(|(i, item)| {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                let found = walk(item, path);
                path.truncate(len);
                found
            }),
            serde_json::Value::Object(map) => map.iter().find_map(|(key, item)| {
                let len = path.len();
                path.push('.');
                path.push_str(key);
                let found = if has_forbidden_control(key) {
                    Some(path.clone())
                } else {
                    walk(item, path)
                };
                path.truncate(len);
                found
            }),
            _ => None,
        }
    }
    walk(value, &mut "$".to_string())
}

/// Where an imported document (JSON, or plain text) holds a refused character, if it does: the
/// JSON path, or `document` for text that is not JSON.
pub fn document_control_location(text: &str) -> Option<String> {
    if has_forbidden_control(text) {
        return Some("document".into());
    }
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    json_control_path(&value)
}

/// Characters that change the direction of the text around them or are invisible: in a name
/// they let one player pose as another or scramble the page around the name.
fn is_invisible_or_bidi(c: char) -> bool {
    matches!(
        c,
        '\u{202A}'..='\u{202E}'
            | '\u{2066}'..='\u{2069}'
            | '\u{200E}'
            | '\u{200F}'
            | '\u{061C}'
            | '\u{200B}'..='\u{200D}'
            | '\u{2060}'
            | '\u{FEFF}'
    )
}

pub const MAX_DISPLAY_NAME_CHARS: usize = 60;

/// A display name as it is stored: Unicode NFC, bidi and zero-width characters removed, trimmed
/// and with every run of white space inside made one space.
pub fn normalise_display_name(name: &str) -> String {
    let composed: String = name.nfc().filter(|c| !is_invisible_or_bidi(*c)).collect();
    composed.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// What makes two display names the same name: the normalised name without case.
pub fn display_name_key(name: &str) -> String {
    normalise_display_name(name).to_lowercase().nfc().collect()
}

/// Why a display name (already normalised) cannot be used, if it cannot.
pub fn display_name_problem(normalised: &str) -> Option<&'static str> {
    if normalised.is_empty() {
        return Some("Give a display name of 1 to 60 characters.");
    }
    if normalised.chars().count() > MAX_DISPLAY_NAME_CHARS {
        return Some("Keep the display name to 60 characters or fewer.");
    }
    if normalised.chars().any(char::is_control) {
        return Some("A display name cannot hold control characters.");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_composed_trimmed_and_collapsed() {
        // "e" + combining acute accent becomes the one character é.
        assert_eq!(
            normalise_display_name("  Jose\u{301}   da\tSilva "),
            "José da Silva"
        );
        assert_eq!(normalise_display_name("Al\u{200B}ice\u{202E}"), "Alice");
        assert_eq!(display_name_key("ALICE"), display_name_key("alice "));
        assert_ne!(display_name_key("Alice"), display_name_key("Alicia"));
    }

    #[test]
    fn control_characters_are_found_but_line_breaks_pass() {
        assert!(has_forbidden_control("a\0b"));
        assert!(has_forbidden_control("bell\u{7}"));
        assert!(has_forbidden_control("c1\u{85}"));
        assert!(!has_forbidden_control("two\nlines\r\n\tand a tab"));
        let doc = serde_json::json!({"units": [{"name": "ok"}, {"name": "bad\u{0}"}]});
        assert_eq!(json_control_path(&doc).as_deref(), Some("$.units[1].name"));
        assert_eq!(json_control_path(&serde_json::json!({"a": "fine"})), None);
    }

    #[test]
    fn display_name_problems() {
        assert!(display_name_problem("").is_some());
        assert!(display_name_problem(&"x".repeat(61)).is_some());
        assert!(display_name_problem("Marshal Ney").is_none());
    }
}
