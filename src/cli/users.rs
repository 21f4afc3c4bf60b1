//! `muster user create` and `muster user reset-password`: accounts from the
//! command line.

use std::io::{BufRead, IsTerminal, Write};

use clap::Subcommand;

use crate::config::Config;
use crate::store;

#[derive(Debug, Subcommand)]
pub enum UserCommand {
    /// Create an account. The password is read from standard input (asked for without echo
    /// on a terminal), never from the command line.
    Create {
        /// The account's email address (its login).
        #[arg(long)]
        email: String,
        /// Display name; defaults to the part of the email before `@`.
        #[arg(long)]
        name: Option<String>,
        /// Give the account the administrator role.
        #[arg(long)]
        admin: bool,
    },
    /// Set a new password for an account and log it out everywhere. The password is read from
    /// standard input, never from the command line.
    ResetPassword {
        /// The account's email address.
        #[arg(long)]
        email: String,
    },
}

fn open_db(config: &Config) -> Result<store::db::PooledConnection, String> {
    let pool = store::connect(&config.database, 1).map_err(|e| e.to_string())?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    store::run_migrations(&mut conn).map_err(|e| e.to_string())?;
    Ok(conn)
}

/// Reads a password: without echo from a terminal (twice, to catch typos), else one line of stdin.
fn read_password() -> Result<String, String> {
    let password = if std::io::stdin().is_terminal() {
        let first = rpassword::prompt_password("Password: ").map_err(|e| e.to_string())?;
        let again = rpassword::prompt_password("Again: ").map_err(|e| e.to_string())?;
        if first != again {
            return Err("the two passwords differ".into());
        }
        first
    } else {
        let mut line = String::new();
        std::io::stdin()
            .lock()
            .read_line(&mut line)
            .map_err(|e| format!("reading the password: {e}"))?;
        line.trim_end_matches(['\r', '\n']).to_string()
    };
    let chars = password.chars().count() as u64;
    if chars < crate::app::accounts::MIN_PASSWORD_CHARS {
        return Err(format!(
            "the password must have at least {} characters (it has {chars})",
            crate::app::accounts::MIN_PASSWORD_CHARS
        ));
    }
    Ok(password)
}

/// An error in words for the terminal: the command line has no log, so an internal error says
/// what it is.
fn said(e: crate::app::Error) -> String {
    match e {
        crate::app::Error::Internal(detail) => detail,
        other => other.to_string(),
    }
}

pub(super) fn user(config: &Config, command: UserCommand) -> Result<(), String> {
    match command {
        UserCommand::Create { email, name, admin } => {
            if !validator::ValidateEmail::validate_email(&email.trim()) {
                return Err(format!("'{email}' is not an email address"));
            }
            let display_name = name
                .map(|n| n.trim().to_string())
                .filter(|n| !n.is_empty())
                .unwrap_or_else(|| crate::app::accounts::default_display_name(&email));
            let password = read_password()?;
            let mut conn = open_db(config)?;
            let user = crate::app::accounts::create_by_administrator(
                &mut conn,
                &email,
                &display_name,
                &password,
                admin,
            )
            .map_err(said)?;
            let role = if user.is_admin {
                "administrator"
            } else {
                "player"
            };
            println!(
                "Created {role} account {} ({}) with id {}.",
                user.email, user.display_name, user.id
            );
        }
        UserCommand::ResetPassword { email } => {
            let mut conn = open_db(config)?;
            let user = crate::app::accounts::find_by_email(&mut conn, &email)
                .map_err(said)?
                .ok_or_else(|| format!("no account has the email '{}'", email.trim()))?;
            let password = read_password()?;
            let revoked = crate::app::accounts::reset_password(&mut conn, user.id, &password)
                .map_err(said)?;
            println!(
                "Set a new password for {}; ended {revoked} session(s).",
                user.email
            );
        }
    }
    let _ = std::io::stdout().flush();
    Ok(())
}
