//! Exact odds for the AWI wargames rules: firing (4.2), melee with the losers test and the
//! optional entering tests (4.5, 4.6), and the tests (morale, uncontrolled, brigadier, entering,
//! losers, the general's risk). Every answer enumerates the dice (no sampling), names the rulings
//! it used and says how the dice were built. [`answer`] is the one entry point the web calls:
//! `POST /api/v1/awi/odds/<kind>` with `kind` = `firing`, `melee` or `test`.

pub mod dist;
pub mod firing;
pub mod melee;
pub mod test;

#[cfg(test)]
mod tests;

use serde::Serialize;

use super::Catalogue;

pub use firing::{firing, FiringAnswer, FiringRequest};
pub use melee::{melee, MeleeAnswer, MeleeRequest};
pub use test::{test, TestAnswer, TestRequest};

/// One modifier that went into a total: its id, its words and its value.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Term {
    pub id: String,
    pub label: String,
    pub value: i32,
}

/// A request the calculator cannot answer, with the field it concerns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{message}")]
pub struct OddsError {
    pub field: String,
    pub message: String,
}

impl OddsError {
    pub fn field(field: &str, message: impl Into<String>) -> OddsError {
        OddsError {
            field: field.to_string(),
            message: message.into(),
        }
    }
}

/// The kinds of odds, in the order pages list them.
pub const KINDS: [&str; 3] = ["firing", "melee", "test"];

fn read<T: serde::de::DeserializeOwned>(body: &serde_json::Value) -> Result<T, OddsError> {
    serde_json::from_value(body.clone())
        .map_err(|e| OddsError::field("request", format!("The request could not be read: {e}")))
}

fn to_json<T: Serialize>(v: T) -> Result<serde_json::Value, OddsError> {
    serde_json::to_value(v).map_err(|e| OddsError::field("request", e.to_string()))
}

/// Answers one odds request of `kind` (`firing`, `melee`, `test`) as JSON.
pub fn answer(
    cat: &Catalogue,
    kind: &str,
    body: &serde_json::Value,
) -> Result<serde_json::Value, OddsError> {
    match kind {
        "firing" => to_json(firing(cat, &read(body)?)?),
        "melee" => to_json(melee(cat, &read(body)?)?),
        "test" => to_json(test(cat, &read(body)?)?),
        other => Err(OddsError::field(
            "kind",
            format!("There are no '{other}' odds: ask firing, melee or test."),
        )),
    }
}
