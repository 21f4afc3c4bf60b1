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
}

pub struct NewUser<'a> {
    pub email: &'a str,
    pub display_name: &'a str,
    pub password_hash: &'a str,
    pub is_admin: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum CreateUserError {
    #[error("an account with this email already exists")]
    EmailTaken,
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
    };
    match diesel::insert_into(users::table).values(&row).execute(conn) {
        Ok(_) => {}
        Err(DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _)) => {
            return Err(CreateUserError::EmailTaken)
        }
        Err(e) => return Err(e.into()),
    }
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

pub fn set_display_name(conn: &mut DbConnection, id: i64, name: &str) -> QueryResult<usize> {
    diesel::update(users::table.find(id))
        .set((
            users::display_name.eq(name.trim()),
            users::updated_at.eq(now()),
        ))
        .execute(conn)
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
