//! Login throttling per account and per client address, in memory. A restart forgets it,
//! which is acceptable: the limit only has to make guessing slow.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub const WINDOW: Duration = Duration::from_secs(15 * 60);
pub const MAX_FAILURES_PER_ACCOUNT: usize = 5;
pub const MAX_FAILURES_PER_ADDRESS: usize = 30;
const MAX_KEYS: usize = 100_000;

#[derive(Default)]
pub struct LoginThrottle {
    failures: Mutex<HashMap<String, Vec<Instant>>>,
}

impl LoginThrottle {
    fn keys(email: &str, address: &str) -> [(String, usize); 2] {
        [
            (
                format!("account:{}", email.trim().to_lowercase()),
                MAX_FAILURES_PER_ACCOUNT,
            ),
            (format!("address:{address}"), MAX_FAILURES_PER_ADDRESS),
        ]
    }

    /// Checks the limits and, when they allow it, counts this attempt at once, so that a burst of
    /// parallel guesses cannot all pass before the first failure is recorded. A successful login
    /// then clears the account's count (`record_success`).
    pub fn attempt(&self, email: &str, address: &str) -> Result<(), u64> {
        self.check(email, address)?;
        self.record_failure(email, address);
        Ok(())
    }

    /// Counts one registration from `address`; `Err(seconds)` past ten an hour.
    pub fn register(&self, address: &str) -> Result<(), u64> {
        const LIMIT: usize = 10;
        const HOUR: Duration = Duration::from_secs(3600);
        let now = Instant::now();
        let mut map = self.failures.lock().unwrap_or_else(|p| p.into_inner());
        let times = map.entry(format!("register:{address}")).or_default();
        times.retain(|t| now.duration_since(*t) < HOUR);
        if times.len() >= LIMIT {
            return Err(HOUR
                .saturating_sub(now.duration_since(times[0]))
                .as_secs()
                .max(1));
        }
        times.push(now);
        Ok(())
    }

    /// `Err(seconds)` when either limit is reached: how long until the next attempt is allowed.
    pub fn check(&self, email: &str, address: &str) -> Result<(), u64> {
        let now = Instant::now();
        let mut map = self.failures.lock().unwrap_or_else(|p| p.into_inner());
        let mut wait = None;
        for (key, limit) in Self::keys(email, address) {
            if let Some(times) = map.get_mut(&key) {
                times.retain(|t| now.duration_since(*t) < WINDOW);
                if times.len() >= limit {
                    let oldest = times[0];
                    let secs = WINDOW
                        .saturating_sub(now.duration_since(oldest))
                        .as_secs()
                        .max(1);
                    wait = Some(wait.map_or(secs, |w: u64| w.max(secs)));
                }
            }
        }
        wait.map_or(Ok(()), Err)
    }

    pub fn record_failure(&self, email: &str, address: &str) {
        let now = Instant::now();
        let mut map = self.failures.lock().unwrap_or_else(|p| p.into_inner());
        if map.len() > MAX_KEYS {
            map.retain(|_, times| times.iter().any(|t| now.duration_since(*t) < WINDOW));
        }
        for (key, _) in Self::keys(email, address) {
            map.entry(key).or_default().push(now);
        }
    }

    /// A successful login clears the account's count (not the address's).
    pub fn record_success(&self, email: &str) {
        let mut map = self.failures.lock().unwrap_or_else(|p| p.into_inner());
        let email: String = email.trim().to_lowercase().chars().take(254).collect();
        map.remove(&format!("account:{email}"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn account_is_blocked_after_five_failures_from_any_address() {
        let t = LoginThrottle::default();
        for i in 0..MAX_FAILURES_PER_ACCOUNT {
            assert!(t.check("A@example.org", &format!("10.0.0.{i}")).is_ok());
            t.record_failure("a@example.org", &format!("10.0.0.{i}"));
        }
        let wait = t.check("a@example.org", "10.9.9.9").expect_err("blocked");
        assert!(wait > 0 && wait <= WINDOW.as_secs());
        assert!(t.check("someone-else@example.org", "10.9.9.9").is_ok());
    }

    #[test]
    fn address_is_blocked_after_thirty_failures_across_accounts() {
        let t = LoginThrottle::default();
        for i in 0..MAX_FAILURES_PER_ADDRESS {
            t.record_failure(&format!("user{i}@example.org"), "192.0.2.1");
        }
        assert!(t.check("new@example.org", "192.0.2.1").is_err());
        assert!(t.check("new@example.org", "192.0.2.2").is_ok());
    }

    #[test]
    fn parallel_attempts_are_counted_before_they_are_checked() {
        let t = LoginThrottle::default();
        let allowed = (0..20)
            .filter(|_| t.attempt("burst@example.org", "192.0.2.9").is_ok())
            .count();
        assert_eq!(
            allowed, MAX_FAILURES_PER_ACCOUNT,
            "a burst gets no more tries than the limit"
        );
    }

    #[test]
    fn registrations_are_limited_per_address() {
        let t = LoginThrottle::default();
        assert_eq!(
            (0..15).filter(|_| t.register("192.0.2.7").is_ok()).count(),
            10
        );
        assert!(t.register("192.0.2.8").is_ok());
    }

    #[test]
    fn success_clears_the_account_count() {
        let t = LoginThrottle::default();
        for _ in 0..MAX_FAILURES_PER_ACCOUNT - 1 {
            t.record_failure("a@example.org", "192.0.2.1");
        }
        t.record_success("a@example.org");
        t.record_failure("a@example.org", "192.0.2.1");
        assert!(t.check("a@example.org", "192.0.2.3").is_ok());
    }
}
