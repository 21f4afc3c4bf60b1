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
        map.remove(&format!("account:{}", email.trim().to_lowercase()));
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
