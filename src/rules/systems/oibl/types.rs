//! The small vocabularies of *One if by Land*: troop qualities, formations, kinds of unit and
//! gun classes, each with the id rosters and requests use.

use serde::{Deserialize, Serialize};

/// Troop quality (spec 1.4): gives the Morale Number and the firer's modifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Quality {
    Wretched,
    Poor,
    Regular,
    Veteran,
    Elite,
}

impl Quality {
    pub const ALL: [Quality; 5] = [
        Quality::Elite,
        Quality::Veteran,
        Quality::Regular,
        Quality::Poor,
        Quality::Wretched,
    ];

    pub fn id(self) -> &'static str {
        match self {
            Quality::Elite => "elite",
            Quality::Veteran => "veteran",
            Quality::Regular => "regular",
            Quality::Poor => "poor",
            Quality::Wretched => "wretched",
        }
    }

    pub fn from_id(id: &str) -> Option<Quality> {
        Quality::ALL.into_iter().find(|q| q.id() == id)
    }

    /// The step used by "each higher quality" (wretched 0 … elite 4).
    pub fn step(self) -> i32 {
        match self {
            Quality::Wretched => 0,
            Quality::Poor => 1,
            Quality::Regular => 2,
            Quality::Veteran => 3,
            Quality::Elite => 4,
        }
    }

    /// Poor and Wretched units: no overlap in melee round 1, no fire when failed by 1.
    pub fn is_low(self) -> bool {
        matches!(self, Quality::Poor | Quality::Wretched)
    }
}

/// A formation (spec 1.5) as rosters list it and the simulator tracks it. `close_order` is the
/// two-deep line for infantry and the one-deep line for cavalry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Formation {
    CloseOrder,
    OpenOrder,
    Column,
    Skirmish,
    Limbered,
    Unlimbered,
}

impl Formation {
    pub const ALL: [Formation; 6] = [
        Formation::CloseOrder,
        Formation::OpenOrder,
        Formation::Column,
        Formation::Skirmish,
        Formation::Limbered,
        Formation::Unlimbered,
    ];

    pub fn id(self) -> &'static str {
        match self {
            Formation::CloseOrder => "close_order",
            Formation::OpenOrder => "open_order",
            Formation::Column => "column",
            Formation::Skirmish => "skirmish",
            Formation::Limbered => "limbered",
            Formation::Unlimbered => "unlimbered",
        }
    }

    pub fn from_id(id: &str) -> Option<Formation> {
        // The specification's longer names are read too.
        let id = match id {
            "close_order_line" | "cavalry_line" => "close_order",
            "open_order_line" => "open_order",
            other => other,
        };
        Formation::ALL.into_iter().find(|f| f.id() == id)
    }

    pub fn words(self) -> &'static str {
        match self {
            Formation::CloseOrder => "close order",
            Formation::OpenOrder => "open order",
            Formation::Column => "column",
            Formation::Skirmish => "skirmish order",
            Formation::Limbered => "limbered",
            Formation::Unlimbered => "unlimbered",
        }
    }
}

/// What kind of troops a class is: decides melee, movement and firing rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Infantry,
    Indian,
    Cavalry,
    Artillery,
}

impl Kind {
    /// A foot unit (infantry, Indians, and the crews of guns for melee purposes).
    pub fn is_foot(self) -> bool {
        !matches!(self, Kind::Cavalry)
    }
}

/// A gun's class (spec 1.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GunClass {
    Light,
    Medium,
    Heavy,
}

impl GunClass {
    pub const ALL: [GunClass; 3] = [GunClass::Light, GunClass::Medium, GunClass::Heavy];

    pub fn id(self) -> &'static str {
        match self {
            GunClass::Light => "light",
            GunClass::Medium => "medium",
            GunClass::Heavy => "heavy",
        }
    }

    pub fn from_id(id: &str) -> Option<GunClass> {
        GunClass::ALL.into_iter().find(|g| g.id() == id)
    }
}

/// Cover a unit stands in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cover {
    #[default]
    None,
    Light,
    Heavy,
}

/// A morale test's result (B-10).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoraleResult {
    Pass,
    FailedBy1,
    FailedBy2,
}

impl MoraleResult {
    /// B-10: margin = modified roll − Morale Number.
    pub fn from_margin(margin: i32) -> MoraleResult {
        if margin <= 0 {
            MoraleResult::Pass
        } else if margin == 1 {
            MoraleResult::FailedBy1
        } else {
            MoraleResult::FailedBy2
        }
    }
}
