//! The SQLite and PostgreSQL migration sets produce the same tables and columns.

use std::collections::BTreeSet;

use diesel::prelude::*;
use diesel::sql_types::{Bool, Text};
use diesel_migrations::MigrationHarness;
use muster::store::db::{POSTGRES_MIGRATIONS, SQLITE_MIGRATIONS};

use crate::helpers::{with_database, TempDir};

#[derive(QueryableByName, Debug)]
struct Column {
    #[diesel(sql_type = Text)]
    table_name: String,
    #[diesel(sql_type = Text)]
    column_name: String,
    #[diesel(sql_type = Bool)]
    nullable: bool,
}

type Shape = BTreeSet<(String, String, bool)>;

fn shape(cols: Vec<Column>) -> Shape {
    cols.into_iter()
        .filter(|c| c.table_name != "__diesel_schema_migrations")
        .map(|c| (c.table_name, c.column_name, c.nullable))
        .collect()
}

fn sqlite_shape() -> Shape {
    let dir = TempDir::new("migrations");
    let mut conn = SqliteConnection::establish(&dir.0.join("m.db").to_string_lossy()).unwrap();
    conn.run_pending_migrations(SQLITE_MIGRATIONS).unwrap();
    let cols = diesel::sql_query(
        "SELECT m.name AS table_name, p.name AS column_name, (p.\"notnull\" = 0 AND p.pk = 0) AS nullable
         FROM sqlite_master m JOIN pragma_table_info(m.name) p
         WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'",
    )
    .load::<Column>(&mut conn)
    .unwrap();
    // Rolling back every migration must work too.
    conn.revert_all_migrations(SQLITE_MIGRATIONS).unwrap();
    shape(cols)
}

#[test]
fn sqlite_and_postgres_migrations_agree() {
    let sqlite = sqlite_shape();
    assert!(sqlite.contains(&("users".into(), "email".into(), false)));
    assert!(sqlite.contains(&("sessions".into(), "revoked_at".into(), true)));

    let Some(admin_url) = std::env::var("MUSTER_TEST_POSTGRES_URL")
        .ok()
        .filter(|u| !u.is_empty())
    else {
        eprintln!("\n*** PostgreSQL migration comparison SKIPPED: MUSTER_TEST_POSTGRES_URL is not set ***\n");
        return;
    };
    let name = format!("muster_migrations_{}", std::process::id());
    let mut admin = PgConnection::establish(&admin_url).unwrap();
    diesel::sql_query(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        .execute(&mut admin)
        .unwrap();
    diesel::sql_query(format!("CREATE DATABASE {name}"))
        .execute(&mut admin)
        .unwrap();
    let result = std::panic::catch_unwind(|| {
        let mut conn = PgConnection::establish(&with_database(&admin_url, &name)).unwrap();
        conn.run_pending_migrations(POSTGRES_MIGRATIONS).unwrap();
        let cols = diesel::sql_query(
            "SELECT table_name::text AS table_name, column_name::text AS column_name, (is_nullable = 'YES') AS nullable
             FROM information_schema.columns WHERE table_schema = 'public'",
        )
        .load::<Column>(&mut conn)
        .unwrap();
        conn.revert_all_migrations(POSTGRES_MIGRATIONS).unwrap();
        shape(cols)
    });
    diesel::sql_query(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        .execute(&mut admin)
        .unwrap();
    let postgres = result.expect("PostgreSQL migrations run");
    let only_sqlite: Vec<_> = sqlite.difference(&postgres).collect();
    let only_postgres: Vec<_> = postgres.difference(&sqlite).collect();
    assert!(
        only_sqlite.is_empty() && only_postgres.is_empty(),
        "migration sets differ\n only in SQLite: {only_sqlite:?}\n only in PostgreSQL: {only_postgres:?}"
    );
}
