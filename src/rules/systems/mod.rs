//! The rule systems Muster serves, and the one place that dispatches on them. Each system is a
//! folder here (`lotf/` for *Land of the Free*); adding one adds a folder and one arm per match
//! in this file. Generic code names [`SystemId`] and asks [`Systems`], never a system's types.

pub mod lotf;

use crate::rules::system::{Capabilities, RuleSystem, SystemId};

/// Answered here, in the dispatch file, so that adding a system adds one arm.
impl SystemId {
    /// What this build offers for the system; `None` for a system it does not serve yet.
    pub fn capabilities(self) -> Option<Capabilities> {
        match self {
            SystemId::Lotf => Some(lotf::Lotf::capabilities()),
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
