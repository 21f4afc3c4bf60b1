//! Accounts: registering, checking a password, login sessions, the profile, changing the
//! password (which ends every other session in the same transaction) and disabling an account.
//! Signing session tokens and throttling logins are the web layer's; this keeps the rows.

use std::sync::OnceLock;

use argon2::password_hash::{
    rand_core::OsRng, PasswordHash, PasswordHasher, PasswordVerifier, SaltString,
};
use argon2::Argon2;
use chrono::{NaiveDateTime, Utc};
use serde::Deserialize;
use validator::Validate;

use crate::app::{blocking, input, Actor, Context, Error, ErrorDetail};
use crate::store::sessions::{self, Session};
use crate::store::users::{self, User};
use crate::store::DbConnection;

pub const BROWSER_SESSION_DAYS: i64 = 14;
pub const API_TOKEN_DAYS: i64 = 30;
pub const MIN_PASSWORD_CHARS: u64 = 10;

// ---------- passwords ----------

/// At most this many password hashes run at once (each takes ~19 MiB and a core for tens of
/// milliseconds); the rest wait, so a flood of logins or registrations cannot exhaust memory.
const MAX_PARALLEL_HASHES: usize = 4;

struct HashGate {
    running: std::sync::Mutex<usize>,
    freed: std::sync::Condvar,
}

static HASH_GATE: HashGate = HashGate {
    running: std::sync::Mutex::new(0),
    freed: std::sync::Condvar::new(),
};

/// Runs `f` when a hashing slot is free. Call from blocking threads only.
fn gated<T>(f: impl FnOnce() -> T) -> T {
    {
        let mut running = HASH_GATE.running.lock().unwrap_or_else(|p| p.into_inner());
        while *running >= MAX_PARALLEL_HASHES {
            running = HASH_GATE
                .freed
                .wait(running)
                .unwrap_or_else(|p| p.into_inner());
        }
        *running += 1;
    }
    let out = f();
    *HASH_GATE.running.lock().unwrap_or_else(|p| p.into_inner()) -= 1;
    HASH_GATE.freed.notify_one();
    out
}

/// Argon2id with a fresh salt. Blocking: call from a blocking thread.
pub fn hash_password(password: &str) -> Result<String, Error> {
    gated(|| hash_password_now(password))
}

fn hash_password_now(password: &str) -> Result<String, Error> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| Error::internal(format!("hashing a password: {e}")))
}

/// Blocking: call from a blocking thread.
pub fn verify_password(password: &str, hash: &str) -> bool {
    gated(|| verify_password_now(password, hash))
}

fn verify_password_now(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash)
        .map(|parsed| {
            Argon2::default()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok()
        })
        .unwrap_or(false)
}

/// A hash to verify against when the email is unknown, so both cases take the same time.
fn dummy_hash() -> &'static str {
    static HASH: OnceLock<String> = OnceLock::new();
    HASH.get_or_init(|| hash_password_now("muster-timing-equaliser").unwrap_or_default())
}

/// The active account with this email and password, or `InvalidCredentials`. The answer and
/// its timing are the same whether the email is unknown, the password wrong or the account
/// disabled.
pub async fn check_password(ctx: &Context, email: &str, password: &str) -> Result<User, Error> {
    if email.len() > 254 || password.len() > 1024 {
        return Err(Error::InvalidCredentials);
    }
    let email = email.to_string();
    let found = ctx
        .with_conn(move |conn| Ok(users::find_by_email(conn, &email)?))
        .await?;
    // The hash is checked after the connection went back to the pool.
    let password = password.to_string();
    blocking(move || {
        let hash = found
            .as_ref()
            .map(|u| u.password_hash.as_str())
            .unwrap_or(dummy_hash());
        let ok = verify_password(&password, hash);
        found.filter(|u| ok && !u.disabled)
    })
    .await?
    .ok_or(Error::InvalidCredentials)
}

// ---------- field problems ----------

/// "Some fields need attention", with one detail per field in `order`, its messages joined.
fn field_problems(order: &[&str], problems: Vec<(String, String)>) -> Error {
    let details = order
        .iter()
        .filter_map(|field| {
            let messages: Vec<&str> = problems
                .iter()
                .filter(|(f, _)| f == field)
                .map(|(_, m)| m.as_str())
                .collect();
            (!messages.is_empty()).then(|| ErrorDetail::field(*field, messages.join(" ")))
        })
        .collect();
    Error::Validation {
        message: "Some fields need attention.".into(),
        details,
    }
}

fn validation_problems(errors: &validator::ValidationErrors) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = errors
        .field_errors()
        .iter()
        .flat_map(|(field, errs)| {
            errs.iter().map(move |e| {
                let message = e
                    .message
                    .as_ref()
                    .map(|m| m.to_string())
                    .unwrap_or_else(|| format!("{field} is not valid"));
                (field.to_string(), message)
            })
        })
        .collect();
    out.sort();
    out
}

// ---------- registering ----------

#[derive(Debug, Default, Deserialize, Validate, utoipa::ToSchema)]
pub struct RegisterForm {
    #[serde(default)]
    #[validate(email(message = "Enter an email address like name@example.org."))]
    #[schema(required = true, format = Email)]
    pub email: String,
    /// Shown to other players; defaults to the part of the email before `@`.
    #[serde(default)]
    #[validate(length(max = 60, message = "Keep the display name to 60 characters or fewer."))]
    #[schema(max_length = 60)]
    pub display_name: String,
    #[serde(default)]
    #[validate(length(
        min = 10,
        max = 256,
        message = "Use a password of at least 10 characters (at most 256)."
    ))]
    #[schema(required = true, min_length = 10, max_length = 256)]
    pub password: String,
}

impl RegisterForm {
    pub fn normalised(mut self) -> Self {
        self.email = self.email.trim().to_string();
        self.display_name = input::normalise_display_name(&self.display_name);
        if self.display_name.is_empty() {
            self.display_name = default_display_name(&self.email);
        }
        self
    }
}

/// The part of an email before `@`, the default display name.
pub fn default_display_name(email: &str) -> String {
    let local = email.split('@').next().unwrap_or("");
    input::normalise_display_name(local)
        .chars()
        .take(input::MAX_DISPLAY_NAME_CHARS)
        .collect()
}

pub const NAME_TAKEN: &str = "That name is taken by another player.";

/// Every way an account gets or changes its display name goes through here: the name as it
/// is stored (normalised), or why it cannot be used.
pub fn checked_display_name(raw: &str) -> Result<String, String> {
    let name = input::normalise_display_name(raw);
    match input::display_name_problem(&name) {
        Some(problem) => Err(problem.to_string()),
        None => Ok(name),
    }
}

/// A default name (from the email) that no one has yet: the name itself, or with a number.
fn free_default_name(conn: &mut DbConnection, name: &str) -> Result<String, Error> {
    let base: String = name
        .chars()
        .take(input::MAX_DISPLAY_NAME_CHARS - 4)
        .collect();
    for n in 1..=99 {
        let candidate = if n == 1 {
            name.to_string()
        } else {
            format!("{base} {n}")
        };
        if !users::display_key_taken(conn, &input::display_name_key(&candidate), None)? {
            return Ok(candidate);
        }
    }
    Ok(format!(
        "{base} {}",
        crate::app::dice::random_token(3).to_lowercase()
    ))
}

/// Brings every stored name and key up to the current rules (the migration could only apply
/// ASCII lower case): a name that now clashes with an earlier account's gets the account's
/// number appended. Answers how many accounts changed. Blocking; run at start-up.
pub fn tidy_display_names(conn: &mut DbConnection) -> Result<usize, Error> {
    let mut changed = 0;
    for (id, name, key) in users::display_names(conn)? {
        let normal = input::normalise_display_name(&name);
        if normal == name && input::display_name_key(&normal) == key {
            continue;
        }
        for candidate in [normal.clone(), format!("{normal} ({id})")] {
            let candidate_key = input::display_name_key(&candidate);
            if !users::display_key_taken(conn, &candidate_key, Some(id))? {
                match users::set_display_name(conn, id, &candidate, &candidate_key) {
                    Ok(_) => {}
                    Err(users::CreateUserError::Db(e)) => return Err(e.into()),
                    Err(other) => return Err(Error::internal(other)),
                }
                changed += 1;
                break;
            }
        }
    }
    Ok(changed)
}

/// Creates an account. Field problems (the email or the name taken among them) are a
/// validation error with one detail per field.
pub async fn register(ctx: &Context, form: RegisterForm) -> Result<User, Error> {
    const FIELDS: [&str; 3] = ["email", "display_name", "password"];
    let named = !input::normalise_display_name(&form.display_name).is_empty();
    let form = form.normalised();
    let mut problems = match form.validate() {
        Ok(()) => Vec::new(),
        Err(e) => validation_problems(&e),
    };
    if let Err(problem) = checked_display_name(&form.display_name) {
        if !problems.iter().any(|(f, _)| f == "display_name") {
            problems.push(("display_name".into(), problem));
        }
    }
    // A name left empty is made from the email; with no usable email the email's own problem
    // says what to fix, not a complaint about the optional name.
    if !named && problems.iter().any(|(f, _)| f == "email") {
        problems.retain(|(f, _)| f != "display_name");
    }
    if !problems.is_empty() {
        return Err(field_problems(&FIELDS, problems));
    }
    let (form, hash) = blocking(move || hash_password(&form.password).map(|h| (form, h))).await??;
    ctx.with_conn(move |conn| {
        let display_name = if named {
            form.display_name.clone()
        } else {
            free_default_name(conn, &form.display_name)?
        };
        let new = users::NewUser {
            email: &form.email,
            display_name: &display_name,
            display_key: &input::display_name_key(&display_name),
            password_hash: &hash,
            is_admin: false,
        };
        match users::create(conn, new) {
            Ok(user) => {
                // Battles this address was invited to before it had an account now wait for
                // this player's answer.
                let hash = crate::app::battles::invitation_hash(&user.email);
                crate::store::battles::claim_invitations(conn, user.id, &hash)?;
                Ok(user)
            }
            Err(users::CreateUserError::EmailTaken) => Err(field_problems(
                &FIELDS,
                vec![(
                    "email".into(),
                    "An account with this email already exists. Log in instead, or ask an \
                     administrator to reset its password."
                        .into(),
                )],
            )),
            Err(users::CreateUserError::NameTaken) => Err(field_problems(
                &FIELDS,
                vec![("display_name".into(), NAME_TAKEN.into())],
            )),
            Err(users::CreateUserError::Db(e)) => Err(e.into()),
        }
    })
    .await
}

// ---------- sessions ----------

/// Where a session's token travels: a browser's cookie or an API client's bearer token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionKind {
    Browser,
    Api,
}

impl SessionKind {
    pub fn id(self) -> &'static str {
        match self {
            Self::Browser => "browser",
            Self::Api => "api",
        }
    }

    fn days(self) -> i64 {
        match self {
            Self::Browser => BROWSER_SESSION_DAYS,
            Self::Api => API_TOKEN_DAYS,
        }
    }
}

fn new_session(user_id: i64, kind: SessionKind, now: NaiveDateTime) -> Session {
    Session {
        id: crate::app::dice::random_token(18),
        user_id,
        kind: kind.id().to_string(),
        created_at: now,
        expires_at: now + chrono::Duration::days(kind.days()),
        revoked_at: None,
    }
}

fn store_session(conn: &mut DbConnection, session: &Session) -> Result<(), Error> {
    sessions::delete_stale(conn, session.created_at)?;
    sessions::create(conn, session)?;
    Ok(())
}

/// Opens a session for a user; the web layer signs a token naming it.
pub async fn open_session(
    ctx: &Context,
    user_id: i64,
    kind: SessionKind,
) -> Result<Session, Error> {
    let session = new_session(user_id, kind, Utc::now().naive_utc());
    ctx.with_conn(move |conn| {
        store_session(conn, &session)?;
        Ok(session)
    })
    .await
}

/// The session and its user, if the session is of `kind`, neither revoked nor expired, and
/// the user is not disabled.
pub async fn active_session(
    ctx: &Context,
    session_id: String,
    kind: SessionKind,
) -> Result<Option<(Session, User)>, Error> {
    let found = ctx
        .with_conn(move |conn| {
            Ok(sessions::find_active(
                conn,
                &session_id,
                Utc::now().naive_utc(),
            )?)
        })
        .await?;
    Ok(found.filter(|(session, _)| session.kind == kind.id()))
}

/// Ends one session (log out, or revoke an API token).
pub async fn close_session(ctx: &Context, session_id: String) -> Result<(), Error> {
    ctx.with_conn(move |conn| {
        sessions::revoke(conn, &session_id, Utc::now().naive_utc())?;
        Ok(())
    })
    .await
}

// ---------- the account ----------

#[derive(Debug, Default, Deserialize, Validate, utoipa::ToSchema)]
pub struct ProfileForm {
    #[serde(default)]
    #[validate(length(
        min = 1,
        max = 60,
        message = "Give a display name of 1 to 60 characters."
    ))]
    #[schema(required = true, min_length = 1, max_length = 60)]
    pub display_name: String,
}

/// Renames the user as other players see them; answers the account as it now is.
pub async fn update_profile(ctx: &Context, user_id: i64, form: ProfileForm) -> Result<User, Error> {
    let display_name = checked_display_name(&form.display_name).map_err(|problem| {
        field_problems(&["display_name"], vec![("display_name".into(), problem)])
    })?;
    ctx.with_conn(move |conn| {
        let key = input::display_name_key(&display_name);
        match users::set_display_name(conn, user_id, &display_name, &key) {
            Ok(_) => {}
            Err(users::CreateUserError::NameTaken) => {
                return Err(field_problems(
                    &["display_name"],
                    vec![("display_name".into(), NAME_TAKEN.into())],
                ))
            }
            Err(users::CreateUserError::EmailTaken) => {
                return Err(Error::internal("renaming touched the email"))
            }
            Err(users::CreateUserError::Db(e)) => return Err(e.into()),
        }
        users::find_by_id(conn, user_id)?.ok_or(Error::NotFound)
    })
    .await
}

#[derive(Debug, Default, Deserialize, Validate, utoipa::ToSchema)]
pub struct PasswordForm {
    #[serde(default)]
    #[schema(required = true)]
    pub current_password: String,
    #[serde(default)]
    #[validate(length(
        min = 10,
        max = 256,
        message = "Use a new password of at least 10 characters (at most 256)."
    ))]
    #[schema(required = true, min_length = 10, max_length = 256)]
    pub new_password: String,
    /// Pages ask for the new password twice; the API may leave this out.
    #[serde(default)]
    pub confirm_password: Option<String>,
}

/// Checks the current password, stores the new one and ends every session of the user, in one
/// transaction. With `keep`, a new session of that kind is opened in the same transaction, so
/// the device that changed the password stays logged in.
pub async fn change_password(
    ctx: &Context,
    user_id: i64,
    form: PasswordForm,
    keep: Option<SessionKind>,
) -> Result<Option<Session>, Error> {
    const FIELDS: [&str; 3] = ["current_password", "new_password", "confirm_password"];
    let mut problems = match form.validate() {
        Ok(()) => Vec::new(),
        Err(e) => validation_problems(&e),
    };
    if form
        .confirm_password
        .as_deref()
        .is_some_and(|c| c != form.new_password)
    {
        problems.push((
            "confirm_password".into(),
            "The two new passwords differ.".into(),
        ));
    }
    if form.current_password.is_empty() {
        problems.push((
            "current_password".into(),
            "Enter your current password.".into(),
        ));
    }
    if !problems.is_empty() {
        return Err(field_problems(&FIELDS, problems));
    }
    let user = ctx
        .with_conn(move |conn| Ok(users::find_by_id(conn, user_id)?))
        .await?
        .ok_or(Error::NotFound)?;
    // Hashing happens off the connection pool.
    let hash = blocking(move || -> Result<Option<String>, Error> {
        if !verify_password(&form.current_password, &user.password_hash) {
            return Ok(None);
        }
        hash_password(&form.new_password).map(Some)
    })
    .await??
    .ok_or_else(|| {
        field_problems(
            &FIELDS,
            vec![(
                "current_password".into(),
                "That is not your current password.".into(),
            )],
        )
    })?;
    ctx.with_conn(move |conn| {
        crate::store::write_transaction(conn, |conn| {
            let now = Utc::now().naive_utc();
            users::set_password_hash(conn, user_id, &hash)?;
            sessions::revoke_all_for_user(conn, user_id, now)?;
            let kept = keep.map(|kind| new_session(user_id, kind, now));
            if let Some(session) = &kept {
                store_session(conn, session)?;
            }
            Ok(kept)
        })
    })
    .await
}

// ---------- administration ----------

pub async fn list_users(ctx: &Context) -> Result<Vec<User>, Error> {
    ctx.with_conn(|conn| Ok(users::list_all(conn)?)).await
}

/// An administrator disables (and logs out everywhere) or enables an account; answers it as
/// it now is.
pub async fn set_disabled(
    ctx: &Context,
    admin: &Actor,
    user_id: i64,
    disabled: bool,
) -> Result<User, Error> {
    if !admin.admin {
        return Err(Error::Forbidden("This needs an administrator.".into()));
    }
    if admin.id == user_id && disabled {
        return Err(Error::Conflict(
            "You cannot disable your own account.".into(),
        ));
    }
    ctx.with_conn(move |conn| {
        crate::store::write_transaction(conn, |conn| {
            if users::set_disabled(conn, user_id, disabled)? == 0 {
                return Err(Error::NotFound);
            }
            if disabled {
                sessions::revoke_all_for_user(conn, user_id, Utc::now().naive_utc())?;
            }
            users::find_by_id(conn, user_id)?.ok_or(Error::NotFound)
        })
    })
    .await
}

/// An account made by an administrator at the command line (the only way to make another
/// administrator). Blocking.
pub fn create_by_administrator(
    conn: &mut DbConnection,
    email: &str,
    display_name: &str,
    password: &str,
    admin: bool,
) -> Result<User, Error> {
    let display_name = checked_display_name(display_name)
        .map_err(|problem| Error::invalid(&problem, "display_name", &problem))?;
    let hash = hash_password(password)?;
    let new = users::NewUser {
        email,
        display_name: &display_name,
        display_key: &input::display_name_key(&display_name),
        password_hash: &hash,
        is_admin: admin,
    };
    users::create(conn, new).map_err(|e| match e {
        users::CreateUserError::EmailTaken => Error::Conflict(e.to_string()),
        users::CreateUserError::NameTaken => Error::Conflict(NAME_TAKEN.into()),
        users::CreateUserError::Db(db) => db.into(),
    })
}

/// The account with this email, for the command line. Blocking.
pub fn find_by_email(conn: &mut DbConnection, email: &str) -> Result<Option<User>, Error> {
    Ok(users::find_by_email(conn, email)?)
}

/// Sets a new password without the old one (an administrator at the command line) and ends
/// every session of the account, in one transaction. Answers how many sessions ended.
pub fn reset_password(
    conn: &mut DbConnection,
    user_id: i64,
    password: &str,
) -> Result<usize, Error> {
    let hash = hash_password(password)?;
    crate::store::write_transaction(conn, |conn| {
        users::set_password_hash(conn, user_id, &hash)?;
        Ok(sessions::revoke_all_for_user(
            conn,
            user_id,
            Utc::now().naive_utc(),
        )?)
    })
}
