//! Accounts.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DieselError};

use super::schema::users;
use super::DbConnection;

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = users)]
pub struct User {
    pub id: i64,
    pub email: String,
    pub display_name: String,
    pub password_hash: String,
    pub is_admin: bool,
    pub disabled: bool,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = users)]
struct NewUserRow<'a> {
    email: &'a str,
    display_name: &'a str,
    password_hash: &'a str,
    is_admin: bool,
    disabled: bool,
    created_at: NaiveDateTime,
    updated_at: NaiveDateTime,
    display_key: &'a str,
}

/// The caller normalises the display name and gives the key it is compared by (without case);
/// the store keeps the key unique.
pub struct NewUser<'a> {
    pub email: &'a str,
    pub display_name: &'a str,
    pub display_key: &'a str,
    pub password_hash: &'a str,
    pub is_admin: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum CreateUserError {
    #[error("an account with this email already exists")]
    EmailTaken,
    #[error("another account has this display name")]
    NameTaken,
    #[error(transparent)]
    Db(#[from] DieselError),
}

/// Emails are compared without case and surrounding spaces.
pub fn normalize_email(email: &str) -> String {
    email.trim().to_lowercase()
}

fn now() -> NaiveDateTime {
    chrono::Utc::now().naive_utc()
}

pub fn create(conn: &mut DbConnection, new: NewUser<'_>) -> Result<User, CreateUserError> {
    let email = normalize_email(new.email);
    let at = now();
    let row = NewUserRow {
        email: &email,
        display_name: new.display_name.trim(),
        password_hash: new.password_hash,
        is_admin: new.is_admin,
        disabled: false,
        created_at: at,
        updated_at: at,
        display_key: new.display_key,
    };
    diesel::insert_into(users::table)
        .values(&row)
        .execute(conn)
        .map_err(which_taken)?;
    Ok(users::table
        .filter(users::email.eq(&email))
        .select(User::as_select())
        .first(conn)?)
}

pub fn find_by_email(conn: &mut DbConnection, email: &str) -> QueryResult<Option<User>> {
    users::table
        .filter(users::email.eq(normalize_email(email)))
        .select(User::as_select())
        .first(conn)
        .optional()
}

pub fn find_by_id(conn: &mut DbConnection, id: i64) -> QueryResult<Option<User>> {
    users::table
        .find(id)
        .select(User::as_select())
        .first(conn)
        .optional()
}

pub fn list_all(conn: &mut DbConnection) -> QueryResult<Vec<User>> {
    users::table
        .order(users::id.asc())
        .select(User::as_select())
        .load(conn)
}

pub fn count(conn: &mut DbConnection) -> QueryResult<i64> {
    users::table.count().get_result(conn)
}

/// Which unique value an insert or update ran into, from the index's name (both backends name
/// it in the error).
fn which_taken(e: DieselError) -> CreateUserError {
    match e {
        DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, info) => {
            let about_name = info.constraint_name() == Some("users_display_key")
                || info.message().contains("display_key");
            if about_name {
                CreateUserError::NameTaken
            } else {
                CreateUserError::EmailTaken
            }
        }
        other => other.into(),
    }
}

/// `NameTaken` when another account has the key (the name without case).
pub fn set_display_name(
    conn: &mut DbConnection,
    id: i64,
    name: &str,
    key: &str,
) -> Result<usize, CreateUserError> {
    diesel::update(users::table.find(id))
        .set((
            users::display_name.eq(name),
            users::display_key.eq(key),
            users::updated_at.eq(now()),
        ))
        .execute(conn)
        .map_err(which_taken)
}

/// Whether an account other than `except` has this display key.
pub fn display_key_taken(
    conn: &mut DbConnection,
    key: &str,
    except: Option<i64>,
) -> QueryResult<bool> {
    let found: Option<i64> = users::table
        .filter(users::display_key.eq(key))
        .select(users::id)
        .first(conn)
        .optional()?;
    Ok(found.is_some_and(|id| Some(id) != except))
}

/// Every account's id, display name and key, oldest first.
pub fn display_names(conn: &mut DbConnection) -> QueryResult<Vec<(i64, String, String)>> {
    users::table
        .order(users::id.asc())
        .select((users::id, users::display_name, users::display_key))
        .load(conn)
}

/// Only the account row: the caller ends the sessions
/// (`sessions::revoke_all_for_user`) in the same transaction.
pub fn set_password_hash(conn: &mut DbConnection, id: i64, hash: &str) -> QueryResult<usize> {
    diesel::update(users::table.find(id))
        .set((users::password_hash.eq(hash), users::updated_at.eq(now())))
        .execute(conn)
}

/// Only the account row: the caller ends the sessions
/// (`sessions::revoke_all_for_user`) in the same transaction.
pub fn set_disabled(conn: &mut DbConnection, id: i64, disabled: bool) -> QueryResult<usize> {
    diesel::update(users::table.find(id))
        .set((users::disabled.eq(disabled), users::updated_at.eq(now())))
        .execute(conn)
}

pub fn set_admin(conn: &mut DbConnection, id: i64, is_admin: bool) -> QueryResult<usize> {
    diesel::update(users::table.find(id))
        .set((users::is_admin.eq(is_admin), users::updated_at.eq(now())))
        .execute(conn)
}
