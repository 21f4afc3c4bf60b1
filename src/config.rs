//! Configuration from environment variables. Every variable has a default, so `cargo run` needs
//! none; a bad value stops start-up with one line that names the variable.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

/// Where the data lives. The scheme of `DATABASE_URL` decides the backend at run time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DatabaseConfig {
    /// A SQLite file (created with its directory if missing).
    Sqlite { path: PathBuf },
    /// A PostgreSQL database that already exists (`createdb muster`).
    Postgres { url: String },
}

impl DatabaseConfig {
    /// Parses a `DATABASE_URL` value: `postgres://`/`postgresql://` select PostgreSQL,
    /// `sqlite://PATH`, `sqlite:PATH` or a bare path select SQLite.
    pub fn parse(value: &str) -> Result<Self, String> {
        let value = value.trim();
        if value.is_empty() {
            return Err("is empty".into());
        }
        if value.starts_with("postgres://") || value.starts_with("postgresql://") {
            return Ok(Self::Postgres {
                url: value.to_string(),
            });
        }
        let path = value
            .strip_prefix("sqlite://")
            .or_else(|| value.strip_prefix("sqlite:"))
            .unwrap_or(value);
        if path.is_empty() {
            return Err("names no SQLite file".into());
        }
        if path.contains("://") {
            return Err(format!(
                "'{value}' has an unknown scheme; use postgres://..., postgresql://... or a SQLite file path"
            ));
        }
        Ok(Self::Sqlite {
            path: PathBuf::from(path),
        })
    }

    /// A description safe to log: never includes a password.
    pub fn describe(&self) -> String {
        match self {
            Self::Sqlite { path } => format!("SQLite file {}", path.display()),
            Self::Postgres { url } => format!("PostgreSQL {}", redact_url(url)),
        }
    }
}

fn redact_url(url: &str) -> String {
    // postgres://user:secret@host/db -> postgres://user:***@host/db
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme_end), Some(at)) if at > scheme_end => {
            let userinfo = &url[scheme_end + 3..at];
            match userinfo.find(':') {
                Some(colon) => format!(
                    "{}{}:***{}",
                    &url[..scheme_end + 3],
                    &userinfo[..colon],
                    &url[at..]
                ),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

#[derive(Clone)]
pub struct Config {
    pub bind: SocketAddr,
    pub data_dir: PathBuf,
    pub database: DatabaseConfig,
    /// `None`: generated on first start and kept in the database.
    pub jwt_secret: Option<String>,
    /// Absolute base URL for links we hand out, without a trailing slash.
    pub public_url: Option<String>,
    pub trusted_proxy: Option<IpAddr>,
    pub log_filter: String,
    /// `MUSTER_BODY_TIMEOUT_SECS`: how long a client may take to send a whole request body.
    pub body_timeout: Duration,
    /// Limits of CPU-heavy work and the background job workers.
    pub work: WorkConfig,
    /// `MUSTER_SMTP_URL` and `MUSTER_MAIL_FROM`: e-mail for notifications and password
    /// resets. `None`: nothing is sent by e-mail.
    pub mail: Option<MailConfig>,
}

/// Where notification and password-reset mail goes out.
#[derive(Clone, PartialEq, Eq)]
pub struct MailConfig {
    /// `smtp://[user:pass@]host[:port]` (plain, or STARTTLS with `?tls=required`) or
    /// `smtps://…` (TLS from the start). Holds the password: never log it.
    pub smtp_url: String,
    /// The sender, e.g. `Muster <muster@club.example>`.
    pub from: String,
}

impl MailConfig {
    /// The SMTP server without its password, safe to log.
    pub fn describe(&self) -> String {
        redact_url(&self.smtp_url)
    }
}

impl std::fmt::Debug for MailConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MailConfig")
            .field("smtp_url", &self.describe())
            .field("from", &self.from)
            .finish()
    }
}

/// `MUSTER_WORK_LIMIT`, `MUSTER_WORK_PER_CALLER`, `MUSTER_WORK_DIRECT_COST`,
/// `MUSTER_JOB_WORKERS`, `MUSTER_JOB_QUEUE_MAX`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WorkConfig {
    /// Simulations and validations answered within requests at once (default: the cores).
    pub global: usize,
    /// The same for one user or, without an account, one client address (default: half the
    /// global places, at least 1).
    pub per_caller: usize,
    /// Threads of this server that run background jobs (default: half the cores, at least
    /// 1; 0 leaves the jobs to other servers on the same database).
    pub job_workers: usize,
    /// Background jobs waiting at once across all servers before new ones are refused
    /// (default 50).
    pub job_queue_max: usize,
    /// `MUSTER_WORK_DIRECT_COST`: the largest simulation answered within a request, in units
    /// on the table × battles (default 150 000); larger ones are queued as background jobs.
    pub direct_cost: u64,
    /// `MUSTER_SCHEDULER_POLL_MS`: how often this server looks for due turn deadlines and
    /// reminders (default 1000 ms).
    pub scheduler_poll: Duration,
}

impl Default for WorkConfig {
    fn default() -> Self {
        let cores = crate::app::work::cores();
        Self {
            global: cores,
            per_caller: (cores / 2).max(1),
            job_workers: (cores / 2).max(1),
            job_queue_max: 50,
            direct_cost: crate::app::odds::DIRECT_COST_MAX,
            scheduler_poll: Duration::from_millis(1000),
        }
    }
}

impl std::fmt::Debug for Config {
    // Hand-written so the secret can never reach a log line.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("bind", &self.bind)
            .field("data_dir", &self.data_dir)
            .field("database", &self.database.describe())
            .field("jwt_secret", &self.jwt_secret.as_ref().map(|_| "<set>"))
            .field("public_url", &self.public_url)
            .field("trusted_proxy", &self.trusted_proxy)
            .field("log_filter", &self.log_filter)
            .field("body_timeout", &self.body_timeout)
            .field("work", &self.work)
            .field("mail", &self.mail)
            .finish()
    }
}

/// A configuration value that cannot be used; displays as one line naming the variable.
#[derive(Debug, thiserror::Error)]
#[error("{var}: {message}")]
pub struct ConfigError {
    pub var: &'static str,
    pub message: String,
}

fn bad(var: &'static str, message: impl Into<String>) -> ConfigError {
    ConfigError {
        var,
        message: message.into(),
    }
}

pub const DEFAULT_BIND: &str = "127.0.0.1:8080";
pub const DEFAULT_LOG: &str = "info,muster=info";
/// Long enough for a 2 MB roster file over a slow mobile link, short enough that a client
/// trickling bytes cannot hold a connection for long.
pub const DEFAULT_BODY_TIMEOUT_SECS: u64 = 20;

impl Config {
    pub fn from_env() -> Result<Self, ConfigError> {
        Self::from_lookup(|name| std::env::var(name).ok())
    }

    /// Builds the configuration from any variable source (tests pass a map).
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let non_empty = |name: &str| get(name).filter(|v| !v.trim().is_empty());

        let bind_text = non_empty("MUSTER_BIND").unwrap_or_else(|| DEFAULT_BIND.to_string());
        let bind: SocketAddr = bind_text.trim().parse().map_err(|_| {
            bad(
                "MUSTER_BIND",
                format!("'{bind_text}' is not an address and port like 127.0.0.1:8080"),
            )
        })?;

        let data_dir =
            PathBuf::from(non_empty("MUSTER_DATA_DIR").unwrap_or_else(|| "./data".into()));

        let database = match non_empty("DATABASE_URL") {
            Some(url) => DatabaseConfig::parse(&url).map_err(|m| bad("DATABASE_URL", m))?,
            None => DatabaseConfig::Sqlite {
                path: data_dir.join("muster.db"),
            },
        };

        let jwt_secret = match non_empty("MUSTER_JWT_SECRET") {
            Some(secret) if secret.len() < 32 => {
                return Err(bad(
                    "MUSTER_JWT_SECRET",
                    format!("must be at least 32 characters (it has {})", secret.len()),
                ))
            }
            other => other,
        };

        let public_url = match non_empty("MUSTER_PUBLIC_URL") {
            Some(url) => {
                let url = url.trim().trim_end_matches('/').to_string();
                let rest = url
                    .strip_prefix("https://")
                    .or_else(|| url.strip_prefix("http://"))
                    .ok_or_else(|| {
                        bad(
                            "MUSTER_PUBLIC_URL",
                            format!("'{url}' must be an absolute http:// or https:// URL"),
                        )
                    })?;
                if rest.is_empty() || rest.contains(char::is_whitespace) {
                    return Err(bad("MUSTER_PUBLIC_URL", format!("'{url}' names no host")));
                }
                Some(url)
            }
            None => None,
        };

        let trusted_proxy = match non_empty("MUSTER_TRUSTED_PROXY") {
            Some(ip) => Some(ip.trim().parse::<IpAddr>().map_err(|_| {
                bad(
                    "MUSTER_TRUSTED_PROXY",
                    format!("'{ip}' is not an IP address"),
                )
            })?),
            None => None,
        };

        let log_filter = non_empty("MUSTER_LOG").unwrap_or_else(|| DEFAULT_LOG.to_string());
        tracing_subscriber::EnvFilter::try_new(&log_filter).map_err(|e| {
            bad(
                "MUSTER_LOG",
                format!("'{log_filter}' is not a log filter: {e}"),
            )
        })?;

        let body_timeout = match non_empty("MUSTER_BODY_TIMEOUT_SECS") {
            Some(text) => match text.trim().parse::<u64>() {
                Ok(secs @ 1..=600) => Duration::from_secs(secs),
                _ => {
                    return Err(bad(
                        "MUSTER_BODY_TIMEOUT_SECS",
                        format!("'{text}' is not a number of seconds from 1 to 600"),
                    ))
                }
            },
            None => Duration::from_secs(DEFAULT_BODY_TIMEOUT_SECS),
        };

        let count = |var: &'static str, default: usize, min: usize| match non_empty(var) {
            None => Ok(default),
            Some(v) => v
                .trim()
                .parse::<usize>()
                .ok()
                .filter(|n| (min..=1024).contains(n))
                .ok_or_else(|| {
                    bad(
                        var,
                        format!("'{v}' is not a whole number from {min} to 1024"),
                    )
                }),
        };
        let defaults = WorkConfig::default();
        let global = count("MUSTER_WORK_LIMIT", defaults.global, 1)?;
        let work = WorkConfig {
            global,
            // Half the places by default, so one player never holds them all.
            per_caller: count("MUSTER_WORK_PER_CALLER", (global / 2).max(1), 1)?,
            job_workers: count("MUSTER_JOB_WORKERS", defaults.job_workers, 0)?,
            job_queue_max: count("MUSTER_JOB_QUEUE_MAX", defaults.job_queue_max, 1)?,
            direct_cost: match non_empty("MUSTER_WORK_DIRECT_COST") {
                None => defaults.direct_cost,
                Some(v) => v.trim().parse::<u64>().map_err(|_| {
                    bad(
                        "MUSTER_WORK_DIRECT_COST",
                        format!("'{v}' is not a whole number from 0 up"),
                    )
                })?,
            },
            scheduler_poll: match non_empty("MUSTER_SCHEDULER_POLL_MS") {
                None => defaults.scheduler_poll,
                Some(v) => v
                    .trim()
                    .parse::<u64>()
                    .ok()
                    .filter(|n| (10..=600_000).contains(n))
                    .map(Duration::from_millis)
                    .ok_or_else(|| {
                        bad(
                            "MUSTER_SCHEDULER_POLL_MS",
                            format!(
                                "'{v}' is not a whole number of milliseconds from 10 to 600000"
                            ),
                        )
                    })?,
            },
        };

        let mail = mail_config(&non_empty)?;

        Ok(Self {
            bind,
            data_dir,
            database,
            jwt_secret,
            public_url,
            trusted_proxy,
            log_filter,
            body_timeout,
            work,
            mail,
        })
    }

    /// Cookies get the Secure flag when the site is served over HTTPS.
    pub fn secure_cookies(&self) -> bool {
        self.public_url
            .as_deref()
            .is_some_and(|u| u.starts_with("https://"))
    }

    /// The absolute base for links handed out (share and invite links).
    pub fn base_url(&self) -> String {
        self.public_url
            .clone()
            .unwrap_or_else(|| format!("http://{}", self.bind))
    }
}

/// `MUSTER_SMTP_URL` with `MUSTER_MAIL_FROM`: both or neither. Messages never repeat the URL's
/// password.
fn mail_config(
    non_empty: &dyn Fn(&str) -> Option<String>,
) -> Result<Option<MailConfig>, ConfigError> {
    let url = non_empty("MUSTER_SMTP_URL").map(|u| u.trim().to_string());
    let from = non_empty("MUSTER_MAIL_FROM").map(|f| f.trim().to_string());
    let Some(smtp_url) = url else {
        return match from {
            Some(_) => Err(bad(
                "MUSTER_MAIL_FROM",
                "is set but MUSTER_SMTP_URL is not; set both to send e-mail",
            )),
            None => Ok(None),
        };
    };
    let shown = redact_url(&smtp_url);
    if !(smtp_url.starts_with("smtp://") || smtp_url.starts_with("smtps://")) {
        return Err(bad(
            "MUSTER_SMTP_URL",
            format!("'{shown}' must start with smtp:// or smtps://"),
        ));
    }
    if let Err(e) = lettre::SmtpTransport::from_url(&smtp_url) {
        return Err(bad(
            "MUSTER_SMTP_URL",
            format!("'{shown}' is not an SMTP address like smtp://user:pass@host:587: {e}")
                .replace(&smtp_url, &shown),
        ));
    }
    let Some(from) = from else {
        return Err(bad(
            "MUSTER_MAIL_FROM",
            "must be set with MUSTER_SMTP_URL (the sender, like Muster <muster@club.example>)",
        ));
    };
    if from.parse::<lettre::message::Mailbox>().is_err() {
        return Err(bad(
            "MUSTER_MAIL_FROM",
            format!("'{from}' is not an address like Muster <muster@club.example>"),
        ));
    }
    Ok(Some(MailConfig { smtp_url, from }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn config(vars: &[(&str, &str)]) -> Result<Config, ConfigError> {
        let map: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Config::from_lookup(|k| map.get(k).cloned())
    }

    #[test]
    fn defaults_serve_sqlite_in_data_dir_on_localhost_8080() {
        let c = config(&[]).expect("defaults are valid");
        assert_eq!(c.bind.to_string(), "127.0.0.1:8080");
        assert_eq!(
            c.database,
            DatabaseConfig::Sqlite {
                path: PathBuf::from("./data/muster.db")
            }
        );
        assert!(!c.secure_cookies());
    }

    #[test]
    fn postgres_urls_select_postgres() {
        for url in [
            "postgres://postgres@127.0.0.1/muster",
            "postgresql://u:p@db/m",
        ] {
            let c = config(&[("DATABASE_URL", url)]).expect("valid");
            assert!(
                matches!(c.database, DatabaseConfig::Postgres { .. }),
                "{url}"
            );
        }
    }

    #[test]
    fn bad_values_name_the_variable() {
        let cases = [
            ("MUSTER_BIND", "localhost"),
            ("DATABASE_URL", "mysql://x/y"),
            ("MUSTER_JWT_SECRET", "short"),
            ("MUSTER_PUBLIC_URL", "example.org"),
            ("MUSTER_TRUSTED_PROXY", "proxy.local"),
            ("MUSTER_LOG", "[[["),
            ("MUSTER_BODY_TIMEOUT_SECS", "0"),
            ("MUSTER_BODY_TIMEOUT_SECS", "soon"),
            ("MUSTER_WORK_LIMIT", "0"),
            ("MUSTER_JOB_WORKERS", "many"),
            ("MUSTER_SMTP_URL", "mail.example.org"),
            ("MUSTER_MAIL_FROM", "muster@example.org"),
        ];
        for (var, value) in cases {
            let err = config(&[(var, value)]).expect_err(var);
            let line = err.to_string();
            assert!(line.starts_with(var), "{line}");
            assert!(!line.contains('\n'), "one line: {line}");
        }
    }

    #[test]
    fn https_public_url_makes_cookies_secure() {
        let c = config(&[("MUSTER_PUBLIC_URL", "https://muster.example.org/")]).expect("valid");
        assert!(c.secure_cookies());
        assert_eq!(c.base_url(), "https://muster.example.org");
    }

    #[test]
    fn debug_output_hides_secrets() {
        let c = config(&[
            ("MUSTER_JWT_SECRET", "a-very-long-secret-value-0123456789"),
            ("DATABASE_URL", "postgres://muster:hunter2@db/muster"),
        ])
        .expect("valid");
        let shown = format!("{c:?}");
        assert!(!shown.contains("a-very-long-secret"), "{shown}");
        assert!(!shown.contains("hunter2"), "{shown}");
    }

    #[test]
    fn smtp_settings_need_a_sender_and_hide_the_password() {
        let err = config(&[("MUSTER_SMTP_URL", "smtp://u:hunter2@localhost:2525")])
            .expect_err("no sender");
        assert!(err.to_string().starts_with("MUSTER_MAIL_FROM"), "{err}");
        let c = config(&[
            ("MUSTER_SMTP_URL", "smtp://u:hunter2@localhost:2525"),
            ("MUSTER_MAIL_FROM", "Muster <muster@example.org>"),
        ])
        .expect("valid");
        assert!(c.mail.is_some());
        let shown = format!("{c:?}");
        assert!(!shown.contains("hunter2"), "{shown}");
        let err = config(&[
            ("MUSTER_SMTP_URL", "http://u:hunter2@localhost"),
            ("MUSTER_MAIL_FROM", "muster@example.org"),
        ])
        .expect_err("not smtp");
        assert!(!err.to_string().contains("hunter2"), "{err}");
        assert!(config(&[]).expect("defaults").mail.is_none());
    }
}
