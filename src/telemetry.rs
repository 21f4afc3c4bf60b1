//! Logging with `tracing`; the filter comes from `MUSTER_LOG`.

use tracing_subscriber::EnvFilter;

/// Installs the global subscriber once; later calls (tests) do nothing.
pub fn init(filter: &str) {
    let filter =
        EnvFilter::try_new(filter).unwrap_or_else(|_| EnvFilter::new(crate::config::DEFAULT_LOG));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_target(false)
        .try_init();
}
