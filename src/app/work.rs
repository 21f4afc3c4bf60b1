//! Bounded CPU work: simulations and validations answered within a request run on the
//! blocking threads under a global limit (about the number of cores) and a per-caller limit,
//! so a flood of heavy requests meets a clear "busy" answer instead of slowing every page.
//! Work whose caller has gone (the request future was dropped) is told to stop.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use crate::app::Error;

/// Seconds a caller at its own limit is asked to wait: one small simulation's time.
pub const CALLER_RETRY_AFTER_SECS: u64 = 2;

/// Who asks for the work: limits are counted per signed-in user, or per client address for
/// callers without an account.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Caller {
    User(i64),
    Address(String),
}

/// The limits of work answered directly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WorkLimits {
    /// Pieces of work running at once across all callers.
    pub global: usize,
    /// Pieces of work running at once for one caller.
    pub per_caller: usize,
    /// The largest cost (units × battles) answered within a request; more is queued.
    pub direct_cost: u64,
}

impl Default for WorkLimits {
    fn default() -> Self {
        Self {
            global: cores(),
            per_caller: (cores() / 2).max(1),
            direct_cost: crate::app::odds::DIRECT_COST_MAX,
        }
    }
}

/// Lowers the calling thread's CPU priority (Linux `nice` 10), so that when simulations keep
/// every core busy the request threads are still scheduled first and pages stay fast. Threads
/// the calling thread starts inherit it. Elsewhere it does nothing.
pub fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority only reads its integer arguments; `gettid` names the calling thread,
    // whose nice value alone changes (Linux keeps one per thread).
    unsafe {
        let tid = libc::gettid();
        libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, 10);
    }
}

/// The machine's cores (at least 1).
pub fn cores() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

#[derive(Default)]
struct Running {
    total: usize,
    by_caller: HashMap<Caller, usize>,
}

pub struct WorkLimiter {
    limits: WorkLimits,
    running: Mutex<Running>,
}

/// A place among the running work; the place is given back when the permit is dropped, which
/// is when the work itself has finished (not when its caller went away).
pub struct Permit {
    limiter: Arc<WorkLimiter>,
    caller: Caller,
}

impl Drop for Permit {
    fn drop(&mut self) {
        let mut running = self.limiter.lock();
        running.total = running.total.saturating_sub(1);
        if let Some(n) = running.by_caller.get_mut(&self.caller) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                running.by_caller.remove(&self.caller);
            }
        }
    }
}

/// Tells running work to stop; checked by the work between battles or documents.
#[derive(Clone, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    pub fn flag(&self) -> &AtomicBool {
        &self.0
    }
}

/// Cancels the work when dropped: it lives in the request's future, which actix drops when it
/// sees the client has gone (over HTTP/1 it may not see that until the answer is written, so
/// the direct-cost limit bounds such work; docs/reliability.md).
struct CancelOnDrop(Cancel);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

impl WorkLimiter {
    pub fn new(limits: WorkLimits) -> Self {
        Self {
            limits: WorkLimits {
                global: limits.global.max(1),
                per_caller: limits.per_caller.max(1),
                direct_cost: limits.direct_cost,
            },
            running: Mutex::default(),
        }
    }

    pub fn limits(&self) -> WorkLimits {
        self.limits
    }

    /// Whether `runs` battles between forces of `size` units are answered within the request
    /// (otherwise they go to the background queue).
    pub fn is_direct(&self, size: u64, runs: u32) -> bool {
        crate::app::odds::cost(size, runs) <= self.limits.direct_cost
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Running> {
        self.running.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Takes a place for `caller`, or says why there is none: the caller's own limit first
    /// (429: it is theirs to wait for), then the server's (503).
    pub fn try_start(self: &Arc<Self>, caller: &Caller) -> Result<Permit, Error> {
        let mut running = self.lock();
        let mine = running.by_caller.get(caller).copied().unwrap_or(0);
        if mine >= self.limits.per_caller {
            return Err(Error::Busy {
                message: format!(
                    "Your last simulation or check is still running; wait {CALLER_RETRY_AFTER_SECS} \
                     seconds and try again."
                ),
                retry_after_secs: CALLER_RETRY_AFTER_SECS,
            });
        }
        if running.total >= self.limits.global {
            return Err(Error::Unavailable(
                "Muster is busy with other simulations; try again in a few seconds.".into(),
            ));
        }
        running.total += 1;
        *running.by_caller.entry(caller.clone()).or_insert(0) += 1;
        Ok(Permit {
            limiter: self.clone(),
            caller: caller.clone(),
        })
    }

    /// Pieces of work running now (for tests and the health of the limiter).
    pub fn running(&self) -> usize {
        self.lock().total
    }

    /// Runs `work` on a thread of its own, at lower CPU priority ([`lower_priority`]), under a
    /// place for `caller`. (Not on the runtime's blocking threads: those also serve database
    /// work, and a thread's priority cannot be raised again once lowered.) When the returned
    /// future is dropped before the work ends (the client went away), the work's [`Cancel`] is
    /// set so it can stop at its next check; its place is held until it has stopped.
    pub async fn run<T, F>(self: &Arc<Self>, caller: &Caller, work: F) -> Result<T, Error>
    where
        F: FnOnce(&Cancel) -> T + Send + 'static,
        T: Send + 'static,
    {
        let permit = self.try_start(caller)?;
        let cancel = Cancel::default();
        let _guard = CancelOnDrop(cancel.clone());
        let (answer, answered) = tokio::sync::oneshot::channel();
        std::thread::Builder::new()
            .name("muster-work".into())
            .spawn(move || {
                lower_priority();
                // A panic drops `answer` (and the permit), which the caller reads as an
                // internal error.
                let result = work(&cancel);
                // The place is free before the answer goes out, so the caller's next request
                // finds it free.
                drop(permit);
                let _ = answer.send(result);
            })
            .map_err(|e| Error::internal(format!("starting a work thread: {e}")))?;
        answered
            .await
            .map_err(|_| Error::internal("a work thread stopped without an answer"))
    }
}

/// What a cancelled piece of work answers (the caller has gone, so nobody reads it).
pub fn cancelled() -> Error {
    Error::Unavailable("The work was stopped before it finished.".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limiter(global: usize, per_caller: usize) -> Arc<WorkLimiter> {
        Arc::new(WorkLimiter::new(WorkLimits {
            global,
            per_caller,
            direct_cost: 1,
        }))
    }

    #[test]
    fn a_caller_at_its_limit_is_told_to_wait_and_others_still_get_places() {
        let l = limiter(3, 1);
        let alice = Caller::User(1);
        let _first = l.try_start(&alice).expect("a place");
        assert!(matches!(l.try_start(&alice), Err(Error::Busy { .. })));
        let _bob = l
            .try_start(&Caller::Address("10.0.0.2".into()))
            .expect("another caller still gets a place");
        assert_eq!(l.running(), 2);
    }

    #[test]
    fn a_full_server_is_unavailable_until_a_place_is_given_back() {
        let l = limiter(2, 2);
        let a = l.try_start(&Caller::User(1)).expect("first");
        let _b = l.try_start(&Caller::User(2)).expect("second");
        assert!(matches!(
            l.try_start(&Caller::User(3)),
            Err(Error::Unavailable(_))
        ));
        drop(a);
        assert!(l.try_start(&Caller::User(3)).is_ok());
    }

    #[tokio::test]
    async fn dropping_the_request_cancels_the_work_and_the_place_is_kept_until_it_stops() {
        let l = limiter(1, 1);
        let (started_tx, started_rx) = std::sync::mpsc::channel();
        let (stopped_tx, stopped_rx) = std::sync::mpsc::channel();
        let fut = {
            let l = l.clone();
            async move {
                l.run(&Caller::User(1), move |cancel| {
                    let _ = started_tx.send(());
                    while !cancel.is_cancelled() {
                        std::thread::sleep(std::time::Duration::from_millis(5));
                    }
                    let _ = stopped_tx.send(());
                })
                .await
            }
        };
        let handle = tokio::spawn(fut);
        tokio::task::spawn_blocking(move || started_rx.recv())
            .await
            .expect("join")
            .expect("the work started");
        assert_eq!(l.running(), 1);
        handle.abort();
        tokio::task::spawn_blocking(move || stopped_rx.recv())
            .await
            .expect("join")
            .expect("the work saw the cancellation and stopped");
        // The blocking thread drops the permit right after the work returns.
        for _ in 0..200 {
            if l.running() == 0 {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        assert_eq!(l.running(), 0);
    }
}
