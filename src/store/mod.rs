//! Storage: diesel over SQLite (embedded default) or PostgreSQL (hosted), chosen at run time.
//!
//! Rule types never carry database derives; the row structs here convert to and from them.

pub mod backup;
pub mod battle_tables;
pub mod battles;
pub mod campaigns;
pub mod db;
pub mod jobs;
pub mod listing;
pub mod notifications;
pub mod own_data;
pub mod rosters;
pub mod schema;
pub mod sessions;
pub mod settings;
pub mod throttles;
pub mod users;

pub use db::{
    connect, run_migrations, write_transaction, Backend, DbConnection, DbPool, StoreError,
};
