//! Backups: every durable table as one versioned JSON document, read in one consistent
//! snapshot while the server runs, and restored (ids kept) into an empty database of either
//! backend. So a club can move from SQLite to PostgreSQL, or back.
//!
//! Deliberately left out: `throttle_hits` (attempt counts that expire within the hour; a moved
//! server starting with none is harmless). Jobs are kept: a job running when the backup was
//! made is claimed again after a restore once its lease has run out, and redone from its seed.

use chrono::NaiveDateTime;
use diesel::connection::SimpleConnection;
use diesel::migration::MigrationSource;
use diesel::prelude::*;
use serde::{Deserialize, Serialize};

use super::db::{write_transaction, DbConnection, POSTGRES_MIGRATIONS, SQLITE_MIGRATIONS};
use super::schema;

/// The `format` of a backup document; a change to its shape gets a new number.
pub const FORMAT: &str = "muster.backup/1";

#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    #[error(transparent)]
    Query(#[from] diesel::result::Error),
    #[error("{0}")]
    Refused(String),
}

/// Declares each backed-up table's row (every column, ids included) and the `Tables` holding
/// them, in an order that respects the foreign keys for restoring.
macro_rules! backed_up_tables {
    ($( $table:ident => $Row:ident { $( $col:ident : $ty:ty ),* $(,)? } )*) => {
        $(
            #[derive(Debug, Clone, PartialEq, Queryable, Selectable, Insertable, Serialize, Deserialize)]
            #[diesel(table_name = schema::$table)]
            pub struct $Row { $( pub $col: $ty ),* }
        )*

        /// Every backed-up table's rows, each in key order.
        #[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct Tables { $( pub $table: Vec<$Row> ),* }

        impl Tables {
            fn read(conn: &mut DbConnection) -> QueryResult<Self> {
                Ok(Self { $( $table: schema::$table::table
                    .select($Row::as_select())
                    .order_by(schema::$table::table.primary_key())
                    .load(conn)? ),* })
            }

            /// Inserts every row, table by table in declaration order.
            fn write(&self, conn: &mut DbConnection) -> QueryResult<()> {
                $(
                    for row in &self.$table {
                        diesel::insert_into(schema::$table::table).values(row).execute(conn)?;
                    }
                )*
                Ok(())
            }

            /// How many rows each table has.
            pub fn counts(&self) -> Vec<(&'static str, usize)> {
                vec![$( (stringify!($table), self.$table.len()) ),*]
            }

            /// Rows already in each table of the database.
            fn counts_in(conn: &mut DbConnection) -> QueryResult<Vec<(&'static str, i64)>> {
                Ok(vec![$( (stringify!($table),
                    schema::$table::table.count().get_result::<i64>(conn)?) ),*])
            }
        }
    };
}

backed_up_tables! {
    users => UserRow {
        id: i64, email: String, display_name: String, password_hash: String, is_admin: bool,
        disabled: bool, created_at: NaiveDateTime, updated_at: NaiveDateTime,
        display_key: String,
    }
    sessions => SessionRow {
        id: String, user_id: i64, kind: String, created_at: NaiveDateTime,
        expires_at: NaiveDateTime, revoked_at: Option<NaiveDateTime>,
    }
    settings => SettingRow { key: String, value: String }
    rosters => RosterRow {
        id: i64, owner_id: i64, rule_system: String, name: String, war: String, nation: String,
        points: i32, points_limit: Option<i32>, legal: bool, error_count: i32,
        warning_count: i32, catalogue_version: String, document: String, version: i32,
        share_token: Option<String>, created_at: NaiveDateTime, updated_at: NaiveDateTime,
    }
    campaigns => CampaignRow {
        id: i64, rule_system: String, name: String, organiser_id: i64, invite_code: String,
        state: String, phase: String, turn: i32, version: i32, created_at: NaiveDateTime,
        updated_at: NaiveDateTime,
        archived: bool, public_token: Option<String>,
    }
    campaign_members => MemberRow { campaign_id: i64, user_id: i64, force_id: Option<String> }
    battles => BattleRow {
        id: i64, rule_system: String, created_by: i64, attacker_user_id: Option<i64>,
        attacker_guest: Option<String>, defender_user_id: Option<i64>,
        defender_guest: Option<String>, attacker_roster_id: Option<i64>,
        defender_roster_id: Option<i64>, title: String, scenario: String, points: i32,
        setup: String, rolls: String, status: String, method: Option<String>,
        result: Option<String>, winner: Option<String>, victory_level: Option<String>,
        attacker_vp: Option<i32>, defender_vp: Option<i32>, recorded_by: Option<i64>,
        confirmed_by: Option<i64>, single_party: bool, dispute: Option<String>,
        public_token: Option<String>, replaces_id: Option<i64>, version: i32,
        created_at: NaiveDateTime, updated_at: NaiveDateTime, campaign_id: Option<i64>,
        invitation: Option<String>,
    }
    battle_open_sides => OpenSideRow {
        battle_id: i64, force_document: String, force_roster_id: Option<i64>, force_first: bool,
        scenario: Option<String>, roll_roles: bool, waiting: bool, created_at: NaiveDateTime,
    }
    battle_engine_requests => EngineRequestRow {
        battle_id: i64, requested_by: i64, created_at: NaiveDateTime,
    }
    campaign_log => LogRow {
        id: i64, campaign_id: i64, seq: i64, turn: i32, kind: String,
        force_id: Option<String>, actor_id: Option<i64>, seed: Option<String>, event: String,
        created_at: NaiveDateTime, words: Option<String>,
    }
    jobs => JobRow {
        id: String, kind: String, owner_id: Option<i64>, title: String, params: String,
        status: String, done: i32, total: i32, result: Option<String>, error: Option<String>,
        claimed_by: Option<String>, lease_until: Option<NaiveDateTime>, attempts: i32,
        run_after: NaiveDateTime, created_at: NaiveDateTime, started_at: Option<NaiveDateTime>,
        finished_at: Option<NaiveDateTime>,
    }
    battle_table_states => TableStateRow {
        battle_id: i64, state: String, version: i32, updated_by: Option<i64>,
        updated_at: NaiveDateTime,
    }
    notifications => NotificationRow {
        id: i64, user_id: i64, kind: String, title: String, link: String,
        campaign_id: Option<i64>, battle_id: Option<i64>, created_at: NaiveDateTime,
        read_at: Option<NaiveDateTime>,
    }
    outbox => OutboxRow {
        id: i64, channel: String, target: String, subject: String, body: String,
        unsubscribe_url: Option<String>, status: String, attempts: i32, run_after: NaiveDateTime,
        claimed_by: Option<String>, lease_until: Option<NaiveDateTime>,
        last_error: Option<String>, created_at: NaiveDateTime, sent_at: Option<NaiveDateTime>,
    }
    notification_prefs => NotificationPrefsRow {
        user_id: i64, mail_off: String, unsubscribe_token: String, updated_at: NaiveDateTime,
    }
    password_resets => PasswordResetRow {
        id: i64, user_id: i64, token_hash: String, created_at: NaiveDateTime,
        expires_at: NaiveDateTime, used_at: Option<NaiveDateTime>,
    }
    campaign_webhooks => CampaignWebhookRow {
        campaign_id: i64, url: String, updated_at: NaiveDateTime,
    }
}

/// Tables whose ids come from a PostgreSQL sequence, to move on past the restored ids.
const SERIAL_TABLES: [&str; 8] = [
    "users",
    "rosters",
    "battles",
    "campaigns",
    "campaign_log",
    "notifications",
    "outbox",
    "password_resets",
];

/// A backup document.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Backup {
    pub format: String,
    /// The newest database migration applied where the backup was made; a restore needs the
    /// same one.
    pub schema_version: String,
    pub made_at: NaiveDateTime,
    /// "SQLite" or "PostgreSQL".
    pub made_from: String,
    pub tables: Tables,
}

/// The newest migration this program knows for the connection's backend.
pub fn newest_migration(conn: &DbConnection) -> Result<String, BackupError> {
    let versions = match conn {
        DbConnection::Sqlite(_) => {
            MigrationSource::<diesel::sqlite::Sqlite>::migrations(&SQLITE_MIGRATIONS)
                .map(|m| m.iter().map(|m| m.name().version().to_string()).collect())
        }
        DbConnection::Postgresql(_) => {
            MigrationSource::<diesel::pg::Pg>::migrations(&POSTGRES_MIGRATIONS)
                .map(|m| m.iter().map(|m| m.name().version().to_string()).collect())
        }
    };
    let versions: Vec<String> =
        versions.map_err(|e| BackupError::Refused(format!("reading the migrations: {e}")))?;
    versions
        .into_iter()
        .max()
        .ok_or_else(|| BackupError::Refused("this program has no migrations".into()))
}

/// The newest migration applied to the database, if any.
fn applied_migration(conn: &mut DbConnection) -> QueryResult<Option<String>> {
    use diesel::dsl::sql;
    use diesel::sql_types::{Nullable, Text};
    diesel::select(sql::<Nullable<Text>>(
        "(SELECT MAX(version) FROM __diesel_schema_migrations)",
    ))
    .get_result(conn)
}

/// Reads every backed-up table in one read transaction, so the copy is consistent while the
/// server goes on writing: on SQLite (WAL) one snapshot from the first read on, on PostgreSQL
/// a read-only repeatable-read transaction.
pub fn take(conn: &mut DbConnection) -> Result<Backup, BackupError> {
    let newest = newest_migration(conn)?;
    let made_from = conn.backend().to_string();
    conn.transaction(|conn| {
        if let DbConnection::Postgresql(_) = conn {
            conn.batch_execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")?;
        }
        let applied = applied_migration(conn)?;
        if applied.as_deref() != Some(newest.as_str()) {
            return Err(BackupError::Refused(format!(
                "the database is at schema {} but this program expects {newest}; run `muster \
                 migrate` (or use the Muster version that matches the database) first",
                applied.as_deref().unwrap_or("none"),
            )));
        }
        Ok(Backup {
            format: FORMAT.into(),
            schema_version: newest.clone(),
            made_at: chrono::Utc::now().naive_utc(),
            made_from,
            tables: Tables::read(conn)?,
        })
    })
}

/// Restores a backup into a database that holds no data yet (its settings, such as a signing
/// secret a server made on its first start, are replaced by the backup's). The caller has
/// applied the migrations. All or nothing: one transaction.
pub fn restore(conn: &mut DbConnection, backup: &Backup) -> Result<(), BackupError> {
    if backup.format != FORMAT {
        return Err(BackupError::Refused(format!(
            "this is not a Muster backup this version can read (format {:?}, expected {FORMAT:?})",
            backup.format
        )));
    }
    let newest = newest_migration(conn)?;
    if backup.schema_version != newest {
        return Err(BackupError::Refused(format!(
            "the backup was made at schema {} and this program is at {newest}; restore it with \
             the Muster version that made it, then upgrade",
            backup.schema_version
        )));
    }
    write_transaction(conn, |conn| {
        let held: Vec<String> = Tables::counts_in(conn)?
            .into_iter()
            .filter(|(table, n)| *n > 0 && *table != "settings")
            .map(|(table, n)| format!("{n} {table}"))
            .collect();
        if !held.is_empty() {
            return Err(BackupError::Refused(format!(
                "the database already holds data ({}); restore only into an empty database",
                held.join(", ")
            )));
        }
        diesel::delete(schema::settings::table).execute(conn)?;
        backup.tables.write(conn)?;
        if let DbConnection::Postgresql(_) = conn {
            // Inserting explicit ids does not move PostgreSQL's sequences; without this the
            // next new row would collide with a restored one.
            for table in SERIAL_TABLES {
                conn.batch_execute(&format!(
                    "SELECT setval(pg_get_serial_sequence('{table}', 'id'), \
                     COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
                ))?;
            }
        }
        Ok(())
    })
}
