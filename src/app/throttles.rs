//! Throttles for logging in, registering and changing a password, counted in the database so
//! every server on it shares them (`store::throttles`).
//!
//! - A login attempt is counted while it is in flight, so a burst of parallel guesses cannot
//!   all pass before the first failure lands; a successful login takes its count back, so
//!   successes never count toward any limit (a club behind one address can log in all night).
//! - Per client address: 30 failed logins in 15 minutes, then wait.
//! - Per account: no lockout. After 5 failures in an hour each further attempt must wait
//!   2, 4, 8… seconds after the last one, at most 5 minutes. A guesser is slowed to a handful
//!   of tries an hour; the owner, who knows the password, gets in after a short wait instead of
//!   being locked out by whoever typed their email.
//! - Registrations: 10 an hour per address. Password changes (each one hashes twice): 5 in 15
//!   minutes per account and 20 per address, successful or not.

use chrono::{NaiveDateTime, Utc};

use crate::app::{Context, Error};
use crate::store::{throttles, write_transaction, DbConnection};

pub const WINDOW: chrono::TimeDelta = chrono::TimeDelta::minutes(15);
pub const ACCOUNT_WINDOW: chrono::TimeDelta = chrono::TimeDelta::hours(1);
pub const FREE_ACCOUNT_FAILURES: i64 = 5;
pub const MAX_ACCOUNT_DELAY_SECS: i64 = 300;
pub const MAX_FAILURES_PER_ADDRESS: i64 = 30;
pub const MAX_REGISTRATIONS_PER_ADDRESS: i64 = 10;
pub const MAX_PASSWORD_CHANGES_PER_ACCOUNT: i64 = 5;
pub const MAX_PASSWORD_CHANGES_PER_ADDRESS: i64 = 20;
/// Hits older than this are no use to any rule and are pruned.
const LONGEST_WINDOW: chrono::TimeDelta = chrono::TimeDelta::hours(1);

/// How one bucket limits.
#[derive(Debug, Clone, Copy)]
enum Limit {
    /// At most `max` hits in `window`; then wait until the oldest leaves it.
    Count { max: i64, window: chrono::TimeDelta },
    /// `FREE_ACCOUNT_FAILURES` hits in `ACCOUNT_WINDOW` freely, then a growing wait after the
    /// newest.
    Progressive,
}

struct Rule {
    bucket: String,
    limit: Limit,
}

impl Rule {
    fn new(key: &str, limit: Limit) -> Self {
        Self {
            bucket: throttles::bucket(key),
            limit,
        }
    }

    /// Seconds still to wait before another hit is allowed, if any.
    fn wait(&self, conn: &mut DbConnection, now: NaiveDateTime) -> Result<Option<i64>, Error> {
        match self.limit {
            Limit::Count { max, window } => {
                let t = throttles::tally(conn, &self.bucket, now - window)?;
                Ok(match t.oldest {
                    Some(oldest) if t.count >= max => Some(seconds_until(oldest + window, now)),
                    _ => None,
                })
            }
            Limit::Progressive => {
                let t = throttles::tally(conn, &self.bucket, now - ACCOUNT_WINDOW)?;
                Ok(match t.newest {
                    Some(newest) if t.count >= FREE_ACCOUNT_FAILURES => {
                        let delay = progressive_delay(t.count);
                        let until = newest + chrono::TimeDelta::seconds(delay);
                        (until > now).then(|| seconds_until(until, now))
                    }
                    _ => None,
                })
            }
        }
    }
}

/// The wait after `failures` failures (at least `FREE_ACCOUNT_FAILURES`): 2 s, then doubling, at
/// most `MAX_ACCOUNT_DELAY_SECS`.
pub fn progressive_delay(failures: i64) -> i64 {
    let over = (failures - FREE_ACCOUNT_FAILURES + 1).clamp(0, 20);
    (1i64 << over).min(MAX_ACCOUNT_DELAY_SECS)
}

fn seconds_until(until: NaiveDateTime, now: NaiveDateTime) -> i64 {
    let millis = (until - now).num_milliseconds().max(0);
    // Round up so a client that waits exactly this long is let through.
    ((millis + 999) / 1000).max(1)
}

/// Counts one hit in every rule's bucket if none of them refuses; otherwise answers the longest
/// wait in seconds and counts nothing. Answers the ids of the hits.
async fn admit(ctx: &Context, rules: Vec<Rule>) -> Result<Result<Vec<i64>, u64>, Error> {
    ctx.with_conn(move |conn| {
        write_transaction(conn, |conn| {
            let now = Utc::now().naive_utc();
            for rule in &rules {
                throttles::lock_bucket(conn, &rule.bucket)?;
            }
            let mut wait: Option<i64> = None;
            for rule in &rules {
                if let Some(w) = rule.wait(conn, now)? {
                    wait = Some(wait.map_or(w, |old| old.max(w)));
                }
            }
            if let Some(w) = wait {
                return Ok(Err(u64::try_from(w).unwrap_or(1)));
            }
            let mut ids = Vec::with_capacity(rules.len());
            for rule in &rules {
                ids.push(throttles::hit(conn, &rule.bucket, now)?);
            }
            throttles::prune(conn, now - LONGEST_WINDOW)?;
            Ok(Ok(ids))
        })
    })
    .await
}

fn account_key(email: &str) -> String {
    let email: String = email.trim().to_lowercase().chars().take(254).collect();
    format!("login-account:{email}")
}

/// An attempt that was let through and counted; `succeeded` takes the count back.
#[must_use]
pub struct Admitted {
    hits: Vec<i64>,
}

/// The throttles; their counts are in the database.
pub struct LoginThrottle;

impl LoginThrottle {
    /// Checks the login limits for this account and address and, when they allow it, counts
    /// this attempt at once (as a failure until `succeeded` says otherwise).
    /// `Ok(Err(seconds))` when the caller must wait.
    pub async fn attempt(
        &self,
        ctx: &Context,
        email: &str,
        address: &str,
    ) -> Result<Result<Admitted, u64>, Error> {
        let rules = vec![
            Rule::new(&account_key(email), Limit::Progressive),
            Rule::new(
                &format!("login-address:{address}"),
                Limit::Count {
                    max: MAX_FAILURES_PER_ADDRESS,
                    window: WINDOW,
                },
            ),
        ];
        Ok(admit(ctx, rules).await?.map(|hits| Admitted { hits }))
    }

    /// The attempt succeeded: it counts toward nothing.
    pub async fn succeeded(&self, ctx: &Context, admitted: Admitted) -> Result<(), Error> {
        ctx.with_conn(move |conn| Ok(throttles::forget(conn, &admitted.hits)?))
            .await
            .map(|_| ())
    }

    /// Counts one registration from `address`; `Ok(Err(seconds))` past ten an hour.
    pub async fn register(&self, ctx: &Context, address: &str) -> Result<Result<(), u64>, Error> {
        let rules = vec![Rule::new(
            &format!("register:{address}"),
            Limit::Count {
                max: MAX_REGISTRATIONS_PER_ADDRESS,
                window: chrono::TimeDelta::hours(1),
            },
        )];
        Ok(admit(ctx, rules).await?.map(|_| ()))
    }

    /// Counts one password change (or reset) of `user_id` from `address`, successful or not:
    /// each one hashes, so a flood of them would slow everyone's logins.
    pub async fn password_change(
        &self,
        ctx: &Context,
        user_id: i64,
        address: &str,
    ) -> Result<Result<(), u64>, Error> {
        let rules = vec![
            Rule::new(
                &format!("password-account:{user_id}"),
                Limit::Count {
                    max: MAX_PASSWORD_CHANGES_PER_ACCOUNT,
                    window: WINDOW,
                },
            ),
            Rule::new(
                &format!("password-address:{address}"),
                Limit::Count {
                    max: MAX_PASSWORD_CHANGES_PER_ADDRESS,
                    window: WINDOW,
                },
            ),
        ];
        Ok(admit(ctx, rules).await?.map(|_| ()))
    }
}

/// Password reset requests: 5 per address and 3 per e-mail address in 15 minutes (each one
/// may send a mail). Counted whether or not the address has an account.
pub const MAX_RESETS_PER_ADDRESS: i64 = 5;
pub const MAX_RESETS_PER_EMAIL: i64 = 3;

impl LoginThrottle {
    /// Counts one password reset request for `email` from `address`; `Ok(Err(seconds))` past
    /// the limits.
    pub async fn password_reset(
        &self,
        ctx: &Context,
        email: &str,
        address: &str,
    ) -> Result<Result<(), u64>, Error> {
        let email: String = email.trim().to_lowercase().chars().take(254).collect();
        let rules = vec![
            Rule::new(
                &format!("reset-address:{address}"),
                Limit::Count {
                    max: MAX_RESETS_PER_ADDRESS,
                    window: WINDOW,
                },
            ),
            Rule::new(
                &format!("reset-email:{email}"),
                Limit::Count {
                    max: MAX_RESETS_PER_EMAIL,
                    window: WINDOW,
                },
            ),
        ];
        Ok(admit(ctx, rules).await?.map(|_| ()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_delay_doubles_after_the_free_failures_and_stops_at_the_cap() {
        let delays: Vec<i64> = (5..=14).map(progressive_delay).collect();
        assert_eq!(delays, [2, 4, 8, 16, 32, 64, 128, 256, 300, 300]);
        assert_eq!(progressive_delay(10_000), MAX_ACCOUNT_DELAY_SECS);
    }

    #[test]
    fn a_wait_is_rounded_up_to_whole_seconds() {
        let now = Utc::now().naive_utc();
        assert_eq!(
            seconds_until(now + chrono::TimeDelta::milliseconds(1500), now),
            2
        );
        assert_eq!(seconds_until(now, now), 1);
    }
}
