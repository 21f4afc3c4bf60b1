//! At the table (issue 19, item 8): what every rule system's table state shares. Each system
//! keeps its own state document (`systems/<id>/table.rs`: hits, markers and levels in its own
//! terms) and reads one tap at the table as a [`TableAction`]; the application layer stores the
//! document, versioned, and never looks inside it.

use serde::{Deserialize, Serialize};

/// One tap at the table: what changes (`turn`, `hits`, `disorder`, `level`, ..., as the system
/// names them), on what (an element's or commander's key, an objective's number, or empty), and
/// the value the button carries (a step of +1 or −1, or a choice).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct TableAction {
    pub what: String,
    pub target: String,
    pub value: i32,
}

/// A step of +1 or −1 applied to `now` within `low..=high`; a step that would leave the range is
/// refused with `why`.
pub fn step(now: u32, by: i32, low: u32, high: u32, why: &str) -> Result<u32, String> {
    if by != 1 && by != -1 {
        return Err("A tap changes a count by one at a time.".into());
    }
    let next = i64::from(now) + i64::from(by);
    if next < i64::from(low) || next > i64::from(high) {
        return Err(why.to_string());
    }
    u32::try_from(next).map_err(|_| why.to_string())
}

/// Who holds an objective.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Holder {
    #[default]
    Nobody,
    Attacker,
    Defender,
}

impl Holder {
    /// The value a button carries: 0 nobody, 1 the attacker, 2 the defender.
    pub fn from_value(value: i32) -> Option<Holder> {
        match value {
            0 => Some(Holder::Nobody),
            1 => Some(Holder::Attacker),
            2 => Some(Holder::Defender),
            _ => None,
        }
    }

    pub fn value(self) -> i32 {
        match self {
            Holder::Nobody => 0,
            Holder::Attacker => 1,
            Holder::Defender => 2,
        }
    }
}

/// A system's table state document, so that the stored-document steps below serve every
/// system alike.
pub trait TableDocument: Serialize + Sized {
    type Catalogue;
    type Setup;
    /// Reads the stored set-up the table belongs to.
    fn parse_setup(text: &str) -> Result<Self::Setup, String>;
    /// The table before the first tap.
    fn fresh(cat: &Self::Catalogue, setup: &Self::Setup) -> Self;
    /// Reads a stored state, checked against the set-up.
    fn stored(cat: &Self::Catalogue, setup: &Self::Setup, text: &str) -> Result<Self, String>;
    /// Applies one tap, or says why it is refused.
    fn tap(
        &mut self,
        cat: &Self::Catalogue,
        setup: &Self::Setup,
        action: &TableAction,
    ) -> Result<(), String>;
}

/// Implements [`TableDocument`] for a system's table state whose inherent `start`, `read` and
/// `apply` already do the work, with `$system`'s set-up reader: one line per system instead of
/// the same delegating block in each.
macro_rules! table_document {
    ($state:ty, $catalogue:ty, $setup:ty, $system:ty) => {
        impl $crate::rules::table::TableDocument for $state {
            type Catalogue = $catalogue;
            type Setup = $setup;

            fn parse_setup(text: &str) -> Result<$setup, String> {
                <$system as $crate::rules::system::RuleSystem>::parse_setup(text)
            }

            fn fresh(cat: &$catalogue, setup: &$setup) -> Self {
                <$state>::start(cat, setup)
            }

            fn stored(cat: &$catalogue, setup: &$setup, text: &str) -> Result<Self, String> {
                <$state>::read(cat, setup, text)
            }

            fn tap(
                &mut self,
                cat: &$catalogue,
                setup: &$setup,
                action: &$crate::rules::table::TableAction,
            ) -> Result<(), String> {
                self.apply(cat, setup, action)
            }
        }
    };
}
pub(crate) use table_document;

/// The table of a stored set-up before the first tap, as its JSON document; `Err` when the
/// set-up cannot be read.
pub fn start_stored<T: TableDocument>(cat: &T::Catalogue, setup: &str) -> Result<String, String> {
    let setup = T::parse_setup(setup)?;
    serde_json::to_string(&T::fresh(cat, &setup)).map_err(|e| e.to_string())
}

/// Applies a tap to a stored state (`None`: the table before the first tap) of a stored set-up:
/// the new document, or why the tap was refused (inner `Err`); the outer `Err` when the stored
/// set-up or state cannot be read.
pub fn apply_stored<T: TableDocument>(
    cat: &T::Catalogue,
    setup: &str,
    state: Option<&str>,
    action: &TableAction,
) -> Result<Result<String, String>, String> {
    let setup = T::parse_setup(setup)?;
    let mut table = match state {
        Some(text) => T::stored(cat, &setup, text)?,
        None => T::fresh(cat, &setup),
    };
    if let Err(why) = table.tap(cat, &setup, action) {
        return Ok(Err(why));
    }
    serde_json::to_string(&table)
        .map(Ok)
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_stays_in_its_range() {
        assert_eq!(step(0, 1, 0, 3, "no"), Ok(1));
        assert_eq!(step(3, 1, 0, 3, "full"), Err("full".into()));
        assert_eq!(step(0, -1, 0, 3, "empty"), Err("empty".into()));
        assert!(step(1, 2, 0, 3, "x").is_err());
    }

    #[test]
    fn holders_read_their_values() {
        for h in [Holder::Nobody, Holder::Attacker, Holder::Defender] {
            assert_eq!(Holder::from_value(h.value()), Some(h));
        }
        assert_eq!(Holder::from_value(3), None);
    }
}
