//! The rule systems Muster serves, and the one place that dispatches on them. Each system is a
//! folder here (`lotf/` for *Land of the Free*); adding one adds a folder and one arm per match
//! in this file. Generic code names [`SystemId`] and asks [`Systems`], never a system's types.

pub mod lotf;

use crate::rules::vocab::vocabulary;

vocabulary!(
    /// A rule system, as rosters, battles and campaigns record it (`rule_system`).
    SystemId {
        Lotf => "lotf", "Land of the Free";
        Lod => "lod", "Liberty or Death!";
        Awi => "awi", "AWI wargames rules";
        Oibl => "oibl", "One if by Land";
        Atkm => "atkm", "All the King's Men";
    }
);

/// What a rule system offers; generic pages and services show or refuse by these.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Capabilities {
    /// Rosters are priced in points (a battle size in points, reinforcements bought with them).
    pub points: bool,
    /// Army lists or historical forces to start a roster from.
    pub lists: bool,
    /// Exact odds for the system's dice tests.
    pub odds: bool,
    /// The engine can fight a battle.
    pub simulator: bool,
    /// A game played on the table can be recorded and assessed.
    pub tabletop_record: bool,
    /// Forces can fight club campaigns.
    pub campaigns: bool,
}

impl SystemId {
    /// What this build offers for the system; `None` for a system it does not serve yet.
    pub fn capabilities(self) -> Option<Capabilities> {
        match self {
            SystemId::Lotf => Some(Capabilities {
                points: true,
                lists: true,
                odds: true,
                simulator: true,
                tabletop_record: true,
                campaigns: true,
            }),
            SystemId::Lod | SystemId::Awi | SystemId::Oibl | SystemId::Atkm => None,
        }
    }

    /// The systems this build serves, in the order pages list them.
    pub fn served() -> impl Iterator<Item = SystemId> {
        SystemId::ALL
            .iter()
            .copied()
            .filter(|s| s.capabilities().is_some())
    }
}

/// The catalogues of the rule systems this build serves, loaded and checked once at start-up.
#[derive(Debug, Clone)]
pub struct Systems {
    pub lotf: lotf::Catalogue,
}

impl Systems {
    /// The built-in data of every rule system, parsed and checked for consistency.
    pub fn builtin() -> Result<Self, lotf::CatalogueError> {
        Ok(Self {
            lotf: lotf::Catalogue::builtin()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_system_reads_back_from_its_stored_id() {
        for s in SystemId::ALL {
            assert_eq!(SystemId::from_id(s.id()), Some(*s));
        }
        assert_eq!(SystemId::from_id("Lotf"), None);
    }

    #[test]
    fn this_build_serves_land_of_the_free() {
        let served: Vec<SystemId> = SystemId::served().collect();
        assert_eq!(served, vec![SystemId::Lotf]);
        assert!(SystemId::Lotf
            .capabilities()
            .is_some_and(|c| c.points && c.campaigns));
    }
}
