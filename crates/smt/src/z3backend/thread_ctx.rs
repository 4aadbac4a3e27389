//! The Z3 context each thread shares among its one-shot queries.

use super::context::Z3Ctx;
use super::Res;
use crate::solver::SolverError;
use std::cell::RefCell;

thread_local! {
    static THREAD_CTX: RefCell<Option<Z3Ctx>> = const { RefCell::new(None) };
}

/// Cached translations after which the thread's shared context is recreated.
const THREAD_CTX_LIMIT: usize = 200_000;

/// Runs `f` with this thread's shared Z3 context (a private one if that is busy).
pub(crate) fn with_thread_ctx<R>(f: impl FnOnce(&mut Z3Ctx) -> Res<R>) -> Res<R> {
    THREAD_CTX.with(|cell| match cell.try_borrow_mut() {
        Ok(mut slot) => {
            if slot.as_ref().is_none_or(|c| c.cache_len() > THREAD_CTX_LIMIT) {
                *slot = None;
                *slot = Some(Z3Ctx::new()?);
            }
            match slot.as_mut() {
                Some(cx) => f(cx),
                None => Err(SolverError::Failure("no Z3 context".into())),
            }
        }
        Err(_) => f(&mut Z3Ctx::new()?),
    })
}
