//! `muster backup` and `muster restore`: a consistent copy of the database as one JSON file,
//! and that copy put into an empty database of either backend (how a club moves from SQLite
//! to PostgreSQL).

use std::io::{BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::config::Config;
use crate::store::{self, backup};

fn open(config: &Config) -> Result<store::db::PooledConnection, String> {
    let pool = store::connect(&config.database, 1).map_err(|e| e.to_string())?;
    pool.get().map_err(|e| e.to_string())
}

fn summary(tables: &backup::Tables) -> String {
    tables
        .counts()
        .iter()
        .map(|(table, n)| format!("{n} {table}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Writes the backup to `output` (standard output when absent). A file is written beside its
/// final name and renamed into place, so a failed backup never leaves half a file under it; it
/// is readable by its owner only, since it holds password hashes and the signing secret.
pub fn backup(config: &Config, output: Option<&Path>) -> Result<(), String> {
    let mut conn = open(config)?;
    let copy = backup::take(&mut conn).map_err(|e| format!("backup failed: {e}"))?;
    drop(conn);
    match output {
        None => {
            let stdout = std::io::stdout();
            let mut out = BufWriter::new(stdout.lock());
            serde_json::to_writer(&mut out, &copy).map_err(|e| e.to_string())?;
            writeln!(out)
                .and_then(|_| out.flush())
                .map_err(|e| e.to_string())?;
        }
        Some(path) => {
            let partial = partial_name(path);
            let file = create_private(&partial)
                .map_err(|e| format!("cannot write {}: {e}", partial.display()))?;
            let mut out = BufWriter::new(file);
            serde_json::to_writer(&mut out, &copy).map_err(|e| e.to_string())?;
            out.flush().map_err(|e| e.to_string())?;
            out.get_ref().sync_all().map_err(|e| e.to_string())?;
            std::fs::rename(&partial, path)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            eprintln!(
                "Backed up {} ({}) to {}: {}.",
                config.database.describe(),
                copy.made_from,
                path.display(),
                summary(&copy.tables)
            );
        }
    }
    Ok(())
}

fn partial_name(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".partial");
    path.with_file_name(name)
}

fn create_private(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options.open(path)
}

/// Reads a backup and restores it into the configured database, which must hold no data yet.
/// Applies the migrations first, so a new database needs no `muster migrate`.
pub fn restore(config: &Config, input: &Path) -> Result<(), String> {
    let file =
        std::fs::File::open(input).map_err(|e| format!("cannot read {}: {e}", input.display()))?;
    let copy: backup::Backup = serde_json::from_reader(BufReader::new(file))
        .map_err(|e| format!("{} is not a Muster backup: {e}", input.display()))?;
    let mut conn = open(config)?;
    store::run_migrations(&mut conn).map_err(|e| e.to_string())?;
    backup::restore(&mut conn, &copy).map_err(|e| format!("restore refused: {e}"))?;
    eprintln!(
        "Restored the backup of {} from {} into {}: {}.",
        copy.made_at.format("%Y-%m-%d %H:%M UTC"),
        copy.made_from,
        config.database.describe(),
        summary(&copy.tables)
    );
    Ok(())
}
