//! The `muster` command line: the clap definitions, `serve`, `migrate`, and
//! dispatch to the user and rules commands.

mod args;
mod atkm;
mod awi;
mod backup;
mod lod;
mod lotf;
mod oibl;
mod rules;
mod users;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::config::Config;
use crate::rules::SystemId;
use crate::store;
use crate::web::Application;

pub use users::UserCommand;

#[derive(Debug, Parser)]
#[command(
    name = "muster",
    version,
    about = "Muster: rosters, printouts, odds and battles for horse-and-musket wargames.",
    long_about = "Muster: rosters, printouts, odds and simulated battles for horse-and-musket wargames \
in North America, 1754-1815.\n\nConfiguration comes from environment variables: MUSTER_BIND, \
DATABASE_URL, MUSTER_DATA_DIR, MUSTER_JWT_SECRET, MUSTER_PUBLIC_URL, MUSTER_TRUSTED_PROXY, \
MUSTER_BODY_TIMEOUT_SECS and MUSTER_LOG (see the README). With no command, `muster` serves the web application."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the web application (the default). Applies pending migrations first.
    Serve,
    /// Apply pending database migrations and exit.
    Migrate,
    /// Write a consistent copy of the whole database (accounts, sessions, settings, rosters,
    /// battles, campaigns and their logs) as one JSON file, while the server runs. The file
    /// holds password hashes and the signing secret: keep it as safe as the database.
    Backup {
        /// The file to write (default: standard output).
        #[arg(long, value_name = "FILE")]
        output: Option<std::path::PathBuf>,
    },
    /// Put a backup into the database DATABASE_URL names (SQLite or PostgreSQL), which must hold
    /// no data yet; ids are kept, so links and shared rosters still work. Applies migrations
    /// first.
    Restore {
        /// The backup file written by `muster backup`.
        #[arg(long, value_name = "FILE")]
        input: std::path::PathBuf,
    },
    /// Manage accounts.
    User {
        #[command(subcommand)]
        command: UserCommand,
    },
    /// Check roster files (e.g. muster.lotf.roster/1 JSON) against the rule system each file's
    /// `format` names, or the one given with --system. Prints one JSON report per file on
    /// standard output (one per line) and a one-line summary per file on standard
    /// error. Exit code: 0 if all are legal, 1 if any is illegal, 2 if any file cannot be read
    /// or is not a roster. Needs no database.
    Validate {
        /// Roster files to check.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<std::path::PathBuf>,
        /// Print one CSV summary row per file instead of JSON reports (for tournament organisers).
        #[arg(long)]
        csv: bool,
        /// Read every file as a roster of this rule system (default: the system each file's
        /// `format` names).
        #[arg(long, value_name = "SYSTEM", value_parser = system_id)]
        system: Option<SystemId>,
    },
    /// Fight a Land of the Free battle with the rules core: two roster files (attacker first) or
    /// a battle set-up document. Prints the narrated log and the outcome; the same set-up and
    /// seed always give the same battle. With --runs, fights many battles and prints the odds.
    /// Needs no database.
    Simulate {
        /// The attacker's roster file (muster.lotf.roster/1).
        #[arg(value_name = "ATTACKER", required_unless_present = "setup")]
        attacker: Option<std::path::PathBuf>,
        /// The defender's roster file.
        #[arg(value_name = "DEFENDER", required_unless_present = "setup")]
        defender: Option<std::path::PathBuf>,
        /// A battle set-up document (muster.lotf.battle/1) instead of two rosters.
        #[arg(long, value_name = "BATTLE.json", conflicts_with_all = ["attacker", "defender", "scenario", "points"])]
        setup: Option<std::path::PathBuf>,
        /// Scenario: take_the_field, reconnoiter, hold_the_ground, flank_attack, surrounded,
        /// ambush, frontal_assault or meeting_engagement.
        #[arg(long)]
        scenario: Option<String>,
        /// Seed of the dice; drawn at random and printed when left out.
        #[arg(long)]
        seed: Option<u64>,
        /// The game's points size (default: the larger of the two points limits).
        #[arg(long)]
        points: Option<u32>,
        /// Print the outcome document as JSON instead of the log and summary.
        #[arg(long)]
        json: bool,
        /// Fight this many battles (seeds derived from the seed) and print the odds, with a
        /// progress bar on standard error.
        #[arg(long, value_name = "N")]
        runs: Option<u32>,
        /// Write the set-up document that was fought to this file, to replay it with --setup.
        #[arg(long, value_name = "FILE")]
        save_setup: Option<std::path::PathBuf>,
        /// The rule system of the battle (default: lotf).
        #[arg(long, value_name = "SYSTEM", value_parser = system_id, default_value = "lotf")]
        system: SystemId,
    },
    /// Fight many seeded battles of fixed match-ups (mirror matches and two-to-one matches) and
    /// print a table of how the simulator's results fall against the bounds the rules should
    /// meet. Exit code 1 when a row is out of bounds. Needs no database.
    Calibrate {
        /// The rule system to calibrate (lotf or lod).
        #[arg(long, value_name = "SYSTEM", value_parser = system_id, default_value = "lod")]
        system: SystemId,
        /// Battles per row.
        #[arg(long, value_name = "N", default_value_t = 2000)]
        battles: u32,
        /// Print the rows as JSON.
        #[arg(long)]
        json: bool,
        /// Instead of the table, fight one battle of this row (numbered from 0, in the table's
        /// order) with `--seed` and print its narrated log (lotf only).
        #[arg(long, value_name = "ROW")]
        row: Option<usize>,
        /// The seed of the battle `--row` fights.
        #[arg(long, value_name = "SEED", default_value_t = 1)]
        seed: u64,
    },
    /// Print a rule system's catalogue as tables (or JSON): for Land of the Free element
    /// statistics, weapons, upgrades, skills, commander ratings and tables; for Liberty or
    /// Death! unit kinds and sizes, qualities, weapons, special rules and the army lists. Needs
    /// no database.
    Catalog {
        /// Print the catalogue as JSON instead of tables.
        #[arg(long)]
        json: bool,
        /// The rule system whose catalogue to print (default: lotf).
        #[arg(long, value_name = "SYSTEM", value_parser = system_id, default_value = "lotf")]
        system: SystemId,
    },
}

/// A rule system's id on the command line: lotf, lod, awi, oibl or atkm.
fn system_id(text: &str) -> Result<SystemId, String> {
    SystemId::from_id(text).ok_or_else(|| {
        let ids: Vec<&str> = SystemId::ALL.iter().map(|s| s.id()).collect();
        format!("choose one of {}", ids.join(", "))
    })
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    // Commands on files and rules data need neither configuration nor a database.
    match cli.command {
        Some(Command::Validate { files, csv, system }) => {
            return rules::validate_files(&files, csv, system)
        }
        Some(Command::Catalog { json, system }) => return rules::print_catalog(json, system),
        Some(Command::Calibrate {
            system,
            battles,
            json,
            row,
            seed,
        }) => {
            let show = row.map(|r| (r, seed));
            return match system {
                SystemId::Lod => lod::calibrate(battles, json),
                SystemId::Atkm => atkm::calibrate(battles, json),
                SystemId::Awi => awi::calibrate(battles, json),
                SystemId::Lotf => lotf::calibrate(battles, json, show),
                SystemId::Oibl => oibl::calibrate(battles, json),
            };
        }
        Some(Command::Simulate {
            attacker,
            defender,
            setup,
            scenario,
            seed,
            points,
            json,
            runs,
            save_setup,
            system,
        }) => {
            let args = args::SimulateArgs {
                system,
                attacker,
                defender,
                setup,
                scenario,
                seed,
                points,
                json,
                runs,
                save_setup,
            };
            if system == SystemId::Lod {
                return lod::simulate(args);
            }
            if system == SystemId::Atkm {
                return atkm::simulate(args);
            }
            if system == SystemId::Awi {
                return awi::simulate(args);
            }
            if system == SystemId::Oibl {
                return oibl::simulate(args);
            }
            return rules::simulate(args);
        }
        _ => {}
    }
    let config = match Config::from_env() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("muster: configuration error: {e}");
            return ExitCode::from(2);
        }
    };
    crate::telemetry::init(&config.log_filter);
    let result = match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => serve(&config),
        Command::Migrate => migrate(&config),
        Command::User { command } => users::user(&config, command),
        Command::Backup { output } => backup::backup(&config, output.as_deref()),
        Command::Restore { input } => backup::restore(&config, &input),
        Command::Validate { .. }
        | Command::Catalog { .. }
        | Command::Simulate { .. }
        | Command::Calibrate { .. } => Ok(()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("muster: {message}");
            ExitCode::FAILURE
        }
    }
}

fn serve(config: &Config) -> Result<(), String> {
    tracing::info!(database = %config.database.describe(), "starting Muster");
    let app = Application::build(config).map_err(|e| e.to_string())?;
    let url = format!("http://{}:{}", display_host(config), app.port());
    tracing::info!(%url, "Muster is listening");
    eprintln!("Muster is serving on {url}");
    actix_web::rt::System::new()
        .block_on(app.run_until_stopped())
        .map_err(|e| e.to_string())
}

fn display_host(config: &Config) -> String {
    match config.bind.ip() {
        ip if ip.is_unspecified() => "127.0.0.1".into(),
        std::net::IpAddr::V6(ip) => format!("[{ip}]"),
        ip => ip.to_string(),
    }
}

fn migrate(config: &Config) -> Result<(), String> {
    let pool = store::connect(&config.database, 1).map_err(|e| e.to_string())?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    let applied = store::run_migrations(&mut conn).map_err(|e| e.to_string())?;
    if applied.is_empty() {
        println!(
            "The database ({}) is up to date.",
            config.database.describe()
        );
    } else {
        println!(
            "Applied {} migration(s) to {}: {}",
            applied.len(),
            config.database.describe(),
            applied.join(", ")
        );
    }
    Ok(())
}
