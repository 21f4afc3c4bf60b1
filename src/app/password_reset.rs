//! Password reset by e-mail, when the server sends mail: a single-use link that expires in an
//! hour. Only the token's hash is stored. Asking always answers the same, whether or not the
//! address has an account; using the link sets the new password and ends every session of
//! the account, in one transaction.

use chrono::{TimeDelta, Utc};
use sha2::{Digest, Sha256};

use crate::app::accounts::{hash_password, MIN_PASSWORD_CHARS};
use crate::app::notifications::Payload;
use crate::app::{blocking, Context, Error, ErrorDetail};
use crate::store::notifications::{self as store, NewMessage};
use crate::store::{sessions, users, write_transaction};

/// How long a reset link works.
pub const LINK_HOURS: i64 = 1;

fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The path of a reset link.
pub fn link_path(token: &str) -> String {
    format!("/password/reset/{token}")
}

/// Sends a reset link to the address if it belongs to an active account. Answers nothing
/// either way, so no one learns which addresses have accounts. Only when the server sends
/// mail (the caller checks).
pub async fn request(ctx: &Context, email: &str) -> Result<(), Error> {
    let email = email.trim().to_string();
    if email.is_empty() || email.len() > 254 {
        return Ok(());
    }
    ctx.with_conn(move |conn| {
        write_transaction(conn, |conn| {
            let Some(user) = users::find_by_email(conn, &email)? else {
                return Ok(());
            };
            if user.disabled {
                return Ok(());
            }
            let token = crate::app::dice::random_token(32);
            let now = Utc::now().naive_utc();
            store::insert_reset(
                conn,
                user.id,
                &token_hash(&token),
                now + TimeDelta::hours(LINK_HOURS),
            )?;
            let body = serde_json::to_string(&Payload::PasswordReset {
                name: user.display_name.clone(),
                path: link_path(&token),
            })
            .map_err(Error::internal)?;
            store::enqueue(
                conn,
                &NewMessage {
                    channel: store::MAIL,
                    target: &user.email,
                    subject: "Reset your Muster password",
                    body: &body,
                    unsubscribe_url: None,
                },
            )?;
            Ok(())
        })
    })
    .await
}

const GONE: &str = "This reset link has been used or has expired. Ask for a new one.";

/// Whether a reset link can still be used (for its page).
pub async fn check(ctx: &Context, token: String) -> Result<(), Error> {
    if token.len() > 100 {
        return Err(Error::Conflict(GONE.into()));
    }
    ctx.with_conn(move |conn| {
        match store::usable_reset(conn, &token_hash(&token), Utc::now().naive_utc())? {
            Some(_) => Ok(()),
            None => Err(Error::Conflict(GONE.into())),
        }
    })
    .await
}

/// Sets the new password through a reset link, uses the link up and ends every session of the
/// account. Field problems are a validation error; a used or expired link a conflict.
pub async fn complete(
    ctx: &Context,
    token: String,
    password: String,
    confirm: String,
) -> Result<(), Error> {
    let mut details = Vec::new();
    let chars = password.chars().count() as u64;
    if !(MIN_PASSWORD_CHARS..=256).contains(&chars) {
        details.push(ErrorDetail::field(
            "new_password",
            "Use a new password of at least 10 characters (at most 256).",
        ));
    }
    if confirm != password {
        details.push(ErrorDetail::field(
            "confirm_password",
            "The two new passwords differ.",
        ));
    }
    if !details.is_empty() {
        return Err(Error::Validation {
            message: "Some fields need attention.".into(),
            details,
        });
    }
    check(ctx, token.clone()).await?;
    let hash = blocking(move || hash_password(&password)).await??;
    ctx.with_conn(move |conn| {
        write_transaction(conn, |conn| {
            let now = Utc::now().naive_utc();
            let reset = store::usable_reset(conn, &token_hash(&token), now)?
                .ok_or_else(|| Error::Conflict(GONE.into()))?;
            if !store::use_reset(conn, reset.id, reset.user_id, now)? {
                return Err(Error::Conflict(GONE.into()));
            }
            users::set_password_hash(conn, reset.user_id, &hash)?;
            sessions::revoke_all_for_user(conn, reset.user_id, now)?;
            Ok(())
        })
    })
    .await
}
