//! The arguments of `muster simulate`, shared by every system's simulator command (a module of
//! its own so that the systems' commands and the generic dispatch do not import each other).

use crate::rules::SystemId;

pub struct SimulateArgs {
    pub system: SystemId,
    pub attacker: Option<std::path::PathBuf>,
    pub defender: Option<std::path::PathBuf>,
    pub setup: Option<std::path::PathBuf>,
    pub scenario: Option<String>,
    pub seed: Option<u64>,
    pub points: Option<u32>,
    pub json: bool,
    pub runs: Option<u32>,
    pub save_setup: Option<std::path::PathBuf>,
}
