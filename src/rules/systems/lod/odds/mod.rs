//! Exact odds for *Liberty or Death!*: a shooting action, a melee round, and an ORDER or MORALE
//! test, worked out by enumerating and convolving the dice (never by sampling). Every pool is
//! built by [`super::mechanics`], the same code the simulator uses. Requests mirror the JSON
//! bodies of `POST /api/v1/lod/odds/{shooting,melee,test}` (spec 4.8); every answer names the
//! rulings it used.

mod dist;
mod melee;
mod shooting;
mod test;

#[cfg(test)]
mod tests;

pub use dist::at_least;
pub use melee::{melee_odds, MeleeOdds, MeleeRequest, MeleeSide, SideOdds};
pub use shooting::{shooting_odds, ShooterSpec, ShootingOdds, ShootingRequest, TargetSpec};
pub use test::{test_odds, TestOdds, TestRequest, TestRoll};

use serde::Serialize;

use super::catalogue::{Catalogue, Profile};
use super::types::{ArmyList, HitState};

/// Why the odds cannot be worked out: the field at fault and why, in plain words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize)]
#[error("{field}: {message}")]
pub struct OddsError {
    /// The request field at fault, e.g. `shooter.entry` or `range_inches`.
    pub field: String,
    /// `unknown_list`, `unknown_entry`, `no_such_size`, `out_of_range`, `not_allowed`,
    /// `invalid` or `missing`.
    pub code: &'static str,
    pub message: String,
}

impl OddsError {
    pub fn new(field: impl Into<String>, code: &'static str, message: impl Into<String>) -> Self {
        OddsError {
            field: field.into(),
            code,
            message: message.into(),
        }
    }
}

/// Reads a request from JSON, naming the field at fault when it does not fit (`target.bases`):
/// the culprit is the key whose removal makes the error go away.
pub fn read_request<T: serde::de::DeserializeOwned>(
    value: &serde_json::Value,
) -> Result<T, OddsError> {
    if !value.is_object() {
        return Err(OddsError::new(
            "",
            "invalid",
            "the request must be a JSON object",
        ));
    }
    let message = match serde_json::from_value::<T>(value.clone()) {
        Ok(t) => return Ok(t),
        Err(e) => e.to_string(),
    };
    let missing = message
        .strip_prefix("missing field `")
        .and_then(|m| m.split('`').next())
        .map(str::to_string);
    let field = match &missing {
        Some(f) => missing_at::<T>(value, f),
        None => culprit::<T>(value, &message),
    };
    let code = if missing.is_some() {
        "missing"
    } else {
        "invalid"
    };
    Err(OddsError::new(field, code, message))
}

fn fails_alike<T: serde::de::DeserializeOwned>(v: serde_json::Value, message: &str) -> bool {
    serde_json::from_value::<T>(v).is_err_and(|e| e.to_string() == message)
}

/// The path of the key whose removal changes the error (one level into objects).
fn culprit<T: serde::de::DeserializeOwned>(value: &serde_json::Value, message: &str) -> String {
    let Some(obj) = value.as_object() else {
        return String::new();
    };
    for (k, v) in obj {
        let mut without = value.clone();
        if let Some(o) = without.as_object_mut() {
            o.remove(k);
        }
        if fails_alike::<T>(without, message) {
            continue;
        }
        if let Some(inner) = v.as_object() {
            for j in inner.keys() {
                let mut w = value.clone();
                if let Some(o) = w.get_mut(k).and_then(|x| x.as_object_mut()) {
                    o.remove(j);
                }
                if !fails_alike::<T>(w, message) {
                    return format!("{k}.{j}");
                }
            }
        }
        return k.clone();
    }
    String::new()
}

/// Which object lacks the required field `f`: the one where supplying it changes the error.
fn missing_at<T: serde::de::DeserializeOwned>(value: &serde_json::Value, f: &str) -> String {
    let message = format!("missing field `{f}`");
    if let Some(obj) = value.as_object() {
        for (k, v) in obj {
            if v.as_object().is_some_and(|o| !o.contains_key(f)) {
                let mut w = value.clone();
                if let Some(o) = w.get_mut(k).and_then(|x| x.as_object_mut()) {
                    o.insert(f.to_string(), serde_json::Value::Null);
                }
                let still = serde_json::from_value::<T>(w)
                    .is_err_and(|e| e.to_string().starts_with(&message));
                if !still {
                    return format!("{k}.{f}");
                }
            }
        }
    }
    f.to_string()
}

/// A unit as a request names it: its list, entry, bases, detachment and hits.
pub(crate) struct UnitAt {
    pub profile: Profile,
    pub hits: u32,
    pub state: HitState,
}

/// Looks up a unit of a request in the catalogue; `at` names its object (`shooter`, `a`, …).
pub(crate) fn unit(
    cat: &Catalogue,
    at: &str,
    list: &str,
    entry: &str,
    bases: u32,
    grenadiers_detached: bool,
    hits: u32,
) -> Result<UnitAt, OddsError> {
    let field = |f: &str| {
        if at.is_empty() {
            f.to_string()
        } else {
            format!("{at}.{f}")
        }
    };
    let army = ArmyList::from_id(list).ok_or_else(|| {
        OddsError::new(
            field("list"),
            "unknown_list",
            format!("no army list \"{list}\" (continental, british or hessian)"),
        )
    })?;
    let (found_in, e) = cat.find_entry(army, entry).ok_or_else(|| {
        OddsError::new(
            field("entry"),
            "unknown_entry",
            format!("the {} list has no entry \"{entry}\"", army.label()),
        )
    })?;
    if grenadiers_detached && !e.offers(super::types::EntryOption::GrenadiersDetached) {
        return Err(OddsError::new(
            field("grenadiers_detached"),
            "not_allowed",
            format!("{} cannot detach its grenadiers (L-50)", e.name),
        ));
    }
    if !e.bases.contains(&bases) {
        return Err(OddsError::new(
            field("bases"),
            "no_such_size",
            format!(
                "{} is fielded with {}, not {bases}",
                e.name,
                e.bases_in_words()
            ),
        ));
    }
    let profile = cat
        .profile(found_in, e, bases, grenadiers_detached)
        .ok_or_else(|| {
            OddsError::new(
                field("bases"),
                "no_such_size",
                format!(
                    "{} of {bases} bases with its grenadiers detached has no row in the unit sizes table (L-50)",
                    e.name
                ),
            )
        })?;
    let state = profile.state(hits);
    if state == HitState::Broken {
        return Err(OddsError::new(
            field("hits"),
            "out_of_range",
            format!(
                "{hits} hits reach its AUTO BROKEN value of {}: the unit is already BROKEN (L-24)",
                profile.size.auto_broken
            ),
        ));
    }
    Ok(UnitAt {
        profile,
        hits,
        state,
    })
}

/// Adds `ruling` to `rulings` once, keeping them in L-number order.
pub(crate) fn cite(rulings: &mut Vec<&'static str>, more: &[&'static str]) {
    for r in more {
        if !rulings.contains(r) {
            rulings.push(r);
        }
    }
    rulings.sort_by_key(|r| r[2..].parse::<u32>().unwrap_or(0));
}

/// Chances of each hit-state, as the answers give them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct StateChances {
    pub steady: f64,
    pub worn: f64,
    pub shaken: f64,
    pub broken: f64,
}

impl StateChances {
    pub(crate) fn add(&mut self, state: HitState, p: f64) {
        match state {
            HitState::Steady => self.steady += p,
            HitState::Worn => self.worn += p,
            HitState::Shaken => self.shaken += p,
            HitState::Broken => self.broken += p,
        }
    }
}
