//! The rules core: pure and deterministic. No I/O, no web, no database; dice come from a
//! seeded generator passed in. Each rule system lives in its own module (`lotf` for Land of
//! the Free); web and storage only carry what this module decides.

pub mod campaign;
pub mod dice;
pub mod lotf;

/// The catalogues of the rule systems this build serves, loaded once at start-up.
#[derive(Debug, Clone)]
pub struct RuleSystems {
    pub lotf: lotf::Catalogue,
}

impl RuleSystems {
    /// The built-in data of every rule system, parsed and checked for consistency.
    pub fn builtin() -> Result<Self, lotf::CatalogueError> {
        Ok(Self {
            lotf: lotf::Catalogue::builtin()?,
        })
    }
}
