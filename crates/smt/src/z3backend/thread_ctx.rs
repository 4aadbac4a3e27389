//! The Z3 context each thread shares among its solvers and one-shot queries. Making a context
//! touches megabytes of fresh memory (most of a small task's CPU time is the kernel handing
//! those pages out, and the threads of a portfolio fault them into one address space), so a
//! thread makes one, not one per solver.

use super::context::Z3Ctx;
use super::Res;
use std::cell::RefCell;
use std::rc::Rc;

thread_local! {
    static THREAD_CTX: RefCell<Option<Rc<RefCell<Z3Ctx>>>> = const { RefCell::new(None) };
}

/// Cached translations after which the thread's context is replaced for what comes next
/// (solvers made before keep theirs).
const THREAD_CTX_LIMIT: usize = 200_000;

/// This thread's shared Z3 context.
pub(crate) fn thread_ctx() -> Res<Rc<RefCell<Z3Ctx>>> {
    THREAD_CTX.with(|cell| {
        let mut slot = cell.borrow_mut();
        let fresh_enough = |c: &&Rc<RefCell<Z3Ctx>>| c.try_borrow().map_or(true, |c| c.cache_len() <= THREAD_CTX_LIMIT);
        if let Some(c) = slot.as_ref().filter(fresh_enough) {
            return Ok(c.clone());
        }
        *slot = None;
        let fresh = Rc::new(RefCell::new(Z3Ctx::new()?));
        *slot = Some(fresh.clone());
        Ok(fresh)
    })
}

/// Runs `f` with this thread's shared Z3 context (a private one if that is busy).
pub(crate) fn with_thread_ctx<R>(f: impl FnOnce(&mut Z3Ctx) -> Res<R>) -> Res<R> {
    let shared = thread_ctx()?;
    let busy = shared.try_borrow_mut();
    match busy {
        Ok(mut cx) => f(&mut cx),
        Err(_) => f(&mut Z3Ctx::new()?),
    }
}
