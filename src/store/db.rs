//! Connections, the pool and migrations.

use std::time::Duration;

use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use diesel::r2d2::{self, ManageConnection};
use diesel_migrations::{embed_migrations, EmbeddedMigrations, MigrationHarness};

use crate::config::DatabaseConfig;

pub const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/sqlite");
pub const POSTGRES_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/postgres");

/// One connection type for both backends; queries are written once against it.
#[derive(diesel::MultiConnection)]
pub enum DbConnection {
    Postgresql(diesel::PgConnection),
    Sqlite(diesel::SqliteConnection),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl std::fmt::Display for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Backend::Sqlite => "SQLite",
            Backend::Postgres => "PostgreSQL",
        })
    }
}

pub type DbPool = r2d2::Pool<Manager>;
pub type PooledConnection = r2d2::PooledConnection<Manager>;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("could not prepare the data directory {path}: {source}")]
    DataDir {
        path: String,
        source: std::io::Error,
    },
    #[error("could not connect to the database ({what}): {message}")]
    Connect { what: String, message: String },
    #[error("database migrations failed: {0}")]
    Migrate(String),
    #[error(transparent)]
    Query(#[from] diesel::result::Error),
    #[error("no database connection available: {0}")]
    Pool(#[from] r2d2::PoolError),
}

/// Opens connections of the configured backend and prepares each new one. Written by hand
/// (instead of diesel's `ConnectionManager`) so a PostgreSQL URL can never fall through to
/// SQLite and create a stray file, and so SQLite connections get their pragmas.
#[derive(Debug, Clone)]
pub struct Manager {
    database: DatabaseConfig,
}

impl Manager {
    fn open(&self) -> Result<DbConnection, ConnectionError> {
        match &self.database {
            DatabaseConfig::Postgres { url } => {
                diesel::PgConnection::establish(url).map(DbConnection::Postgresql)
            }
            DatabaseConfig::Sqlite { path } => {
                let mut conn = diesel::SqliteConnection::establish(&path.to_string_lossy())?;
                // WAL keeps readers and the writer apart and survives a killed process;
                // synchronous=FULL makes every commit durable before we answer the request.
                // The busy timeout only matters against another process (the command line, a
                // second server): inside this one, writers queue on `write_transaction`'s lock.
                // It matches the pool's wait for a connection.
                conn.batch_execute(
                    "PRAGMA busy_timeout = 10000;
                     PRAGMA journal_mode = WAL;
                     PRAGMA synchronous = FULL;
                     PRAGMA foreign_keys = ON;",
                )
                .map_err(ConnectionError::CouldntSetupConfiguration)?;
                // SQLite's own lower() folds only ASCII; the lists' searches compare names
                // through lower() with the search text lowercased by Rust's Unicode rules
                // (PostgreSQL's lower() already folds "É" to "é"), so both sides use those.
                crate::store::listing::lower_utils::register_impl(&mut conn, |x: String| {
                    x.to_lowercase()
                })
                .map_err(ConnectionError::CouldntSetupConfiguration)?;
                Ok(DbConnection::Sqlite(conn))
            }
        }
    }
}

impl ManageConnection for Manager {
    type Connection = DbConnection;
    type Error = r2d2::Error;

    fn connect(&self) -> Result<DbConnection, r2d2::Error> {
        self.open().map_err(r2d2::Error::ConnectionError)
    }

    fn is_valid(&self, conn: &mut DbConnection) -> Result<(), r2d2::Error> {
        conn.batch_execute("SELECT 1")
            .map_err(r2d2::Error::QueryError)
    }

    fn has_broken(&self, _conn: &mut DbConnection) -> bool {
        false
    }
}

impl DbConnection {
    pub fn backend(&self) -> Backend {
        match self {
            DbConnection::Postgresql(_) => Backend::Postgres,
            DbConnection::Sqlite(_) => Backend::Sqlite,
        }
    }
}

/// Opens the pool, creating the SQLite file's directory when needed, and checks that a
/// connection can be made so a wrong URL fails at start-up, not on the first request.
pub fn connect(database: &DatabaseConfig, max_size: u32) -> Result<DbPool, StoreError> {
    if let DatabaseConfig::Sqlite { path } = database {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|source| StoreError::DataDir {
                path: dir.display().to_string(),
                source,
            })?;
        }
    }
    let manager = Manager {
        database: database.clone(),
    };
    // Fail fast with the driver's own message rather than r2d2's timeout.
    manager.open().map_err(|e| StoreError::Connect {
        what: database.describe(),
        message: e.to_string(),
    })?;
    r2d2::Pool::builder()
        .max_size(max_size)
        .connection_timeout(Duration::from_secs(10))
        .build(manager)
        .map_err(|e| StoreError::Connect {
            what: database.describe(),
            message: e.to_string(),
        })
}

/// Applies the pending migrations of the connection's backend; returns their versions.
pub fn run_migrations(conn: &mut DbConnection) -> Result<Vec<String>, StoreError> {
    let applied = match conn {
        DbConnection::Sqlite(c) => c.run_pending_migrations(SQLITE_MIGRATIONS),
        DbConnection::Postgresql(c) => c.run_pending_migrations(POSTGRES_MIGRATIONS),
    }
    .map_err(|e| StoreError::Migrate(e.to_string()))?;
    Ok(applied.iter().map(|v| v.to_string()).collect())
}

/// The id this connection's last insert created (not "the newest row", which a concurrent
/// insert could be). Call it inside the transaction that did the insert.
pub fn last_insert_id(conn: &mut DbConnection) -> diesel::QueryResult<i64> {
    use diesel::dsl::sql;
    use diesel::sql_types::BigInt;
    use diesel::RunQueryDsl;
    match conn {
        DbConnection::Sqlite(c) => {
            diesel::select(sql::<BigInt>("last_insert_rowid()")).get_result(c)
        }
        DbConnection::Postgresql(c) => diesel::select(sql::<BigInt>("lastval()")).get_result(c),
    }
}

/// Runs `f` as one writing transaction.
///
/// On SQLite a deferred transaction that reads and then writes must upgrade its lock, and
/// when another connection holds the write lock SQLite refuses at once ("database is locked")
/// instead of waiting, whatever the busy timeout. So writers here take the database's
/// in-process writer lock first (one writer at a time, waiting in turn) and then
/// `BEGIN IMMEDIATE`, which takes SQLite's write lock up front and, against another process,
/// waits under the busy timeout. On PostgreSQL it is an ordinary transaction (row versions
/// settle conflicts there). Inside an open transaction it is a savepoint, as `transaction` is.
pub fn write_transaction<T, E, F>(conn: &mut DbConnection, f: F) -> Result<T, E>
where
    F: FnOnce(&mut DbConnection) -> Result<T, E>,
    E: From<diesel::result::Error>,
{
    use diesel::connection::{AnsiTransactionManager, TransactionManager};
    let DbConnection::Sqlite(sqlite) = conn else {
        return conn.transaction(f);
    };
    let open = AnsiTransactionManager::transaction_manager_status_mut(sqlite)
        .transaction_depth()?
        .is_some();
    if open {
        return conn.transaction(f);
    }
    let lock = sqlite_writer_lock(sqlite)?;
    // A writer that panicked left nothing behind (its transaction rolled back), so a poisoned
    // lock is still good to take.
    let _writer = lock.lock().unwrap_or_else(|p| p.into_inner());
    AnsiTransactionManager::begin_transaction_sql(sqlite, "BEGIN IMMEDIATE")?;
    match f(conn) {
        Ok(value) => {
            AnsiTransactionManager::commit_transaction(sqlite_of(conn))?;
            Ok(value)
        }
        Err(error) => match AnsiTransactionManager::rollback_transaction(sqlite_of(conn)) {
            Ok(()) | Err(diesel::result::Error::BrokenTransactionManager) => Err(error),
            Err(rollback) => Err(rollback.into()),
        },
    }
}

fn sqlite_of(conn: &mut DbConnection) -> &mut diesel::SqliteConnection {
    match conn {
        DbConnection::Sqlite(c) => c,
        DbConnection::Postgresql(_) => unreachable!("checked to be SQLite by the caller"),
    }
}

/// The writer lock of the database file this connection has open: one per file, so servers
/// (and tests) in one process on different files do not wait for each other.
fn sqlite_writer_lock(
    conn: &mut diesel::SqliteConnection,
) -> diesel::QueryResult<std::sync::Arc<std::sync::Mutex<()>>> {
    use diesel::dsl::sql;
    use diesel::sql_types::Text;
    use std::collections::HashMap;
    use std::sync::{Arc, Mutex, OnceLock};
    static LOCKS: OnceLock<Mutex<HashMap<String, Arc<Mutex<()>>>>> = OnceLock::new();
    let file: String = diesel::select(sql::<Text>(
        "(SELECT file FROM pragma_database_list WHERE name = 'main')",
    ))
    .get_result(conn)?;
    let mut locks = LOCKS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|p| p.into_inner());
    Ok(locks.entry(file).or_default().clone())
}

/// `SELECT 1` for the health check.
pub fn ping(conn: &mut DbConnection) -> Result<(), StoreError> {
    conn.batch_execute("SELECT 1")?;
    Ok(())
}
