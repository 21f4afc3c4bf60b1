//! The rules core: pure and deterministic. No I/O, no web, no database; dice come from a
//! seeded generator passed in. Each rule system lives in its own folder under `systems/`
//! (`systems/lotf` for Land of the Free), dispatched from `systems/mod.rs`; the campaign engine
//! and the dice are shared. Web and storage only carry what this module decides.

pub mod battlefield;
pub mod campaign;
pub mod dice;
pub mod montecarlo;
pub mod system;
pub mod systems;
pub mod table;
pub mod vocab;

pub use system::SystemId;
pub use systems::Systems;
