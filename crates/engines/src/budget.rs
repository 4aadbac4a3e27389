//! How long an engine may run: a deadline, and a cancellation token another thread may raise
//! (the first definitive answer of a portfolio cancels the others). Engines poll both between
//! steps and give every solver query at most the time that is left.

use crate::Config;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A flag that asks every engine holding a clone to stop as soon as it can.
#[derive(Clone, Debug, Default)]
pub struct CancelToken(Arc<AtomicBool>);

impl CancelToken {
    /// Asks the holders to stop.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// The flag itself, for the solver layer (`smt::z3backend::interrupt_when`).
    pub fn flag(&self) -> Arc<AtomicBool> {
        self.0.clone()
    }

    /// Whether [`Self::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// The time a solver query may take: the configured per-query limit, cut at the deadline (and
/// nothing once the run is canceled).
#[derive(Clone, Debug)]
pub struct QueryBudget {
    pub per_query: Duration,
    pub deadline: Option<Instant>,
    pub cancel: CancelToken,
}

impl QueryBudget {
    /// The budget of `config`'s queries.
    pub fn of(config: &Config) -> QueryBudget {
        QueryBudget { per_query: config.query_timeout, deadline: config.deadline, cancel: config.cancel.clone() }
    }

    /// Milliseconds for the next query (at least 1: 0 would mean "no limit" to a solver).
    pub fn next_ms(&self) -> u64 {
        if self.cancel.is_cancelled() {
            return 1;
        }
        let left = self.deadline.map_or(self.per_query, |d| d.saturating_duration_since(Instant::now()));
        (left.min(self.per_query).as_millis() as u64).max(1)
    }

    /// Why the run must stop now: `timeout` past the deadline, `canceled` when canceled.
    pub fn stopped(&self) -> Option<&'static str> {
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Some("timeout")
        } else if self.cancel.is_cancelled() {
            Some("canceled")
        } else {
            None
        }
    }

    /// Why a run gives up: [`Self::stopped`]'s reason once it applies (a solver cut off by it
    /// answers "canceled"), otherwise `reason`.
    pub fn give_up(&self, reason: impl Into<String>) -> String {
        self.stopped().map_or_else(|| reason.into(), String::from)
    }
}
