//! Query deadlines: the one watchdog thread that calls `Z3_interrupt` on calls past their time
//! limit, and the process-wide count of threads inside Z3.

use crate::z3ffi as ffi;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// A context pointer that may be handed to the watchdog thread (`Z3_interrupt` is the one
/// Z3 call meant to be made from another thread).
struct InterruptHandle(ffi::Z3_context);

// SAFETY: the watchdog only calls `Z3_interrupt`, which Z3 synchronizes internally, and only
// while the owning thread is blocked inside `with_deadline` (so the context is alive).
unsafe impl Send for InterruptHandle {}

/// How many threads are inside a Z3 check or tactic right now.
static INSIDE_SOLVER: AtomicUsize = AtomicUsize::new(0);

/// Whether some thread is inside a Z3 check or tactic: a fault then is the solver's (Z3 4.8.12's
/// `qe` tactic crashes on some inputs). Async-signal-safe: one atomic load.
pub fn inside_solver() -> bool {
    INSIDE_SOLVER.load(Ordering::SeqCst) > 0
}

/// Marks the current thread as inside the solver while alive.
struct InsideSolver;

impl InsideSolver {
    fn enter() -> InsideSolver {
        INSIDE_SOLVER.fetch_add(1, Ordering::SeqCst);
        InsideSolver
    }
}

impl Drop for InsideSolver {
    fn drop(&mut self) {
        INSIDE_SOLVER.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Runs `f` (a Z3 call on context `ctx`) and interrupts it after `timeout_ms` (0: no limit);
/// also says whether the watchdog interrupted it. The answer of an interrupted call is not to
/// be trusted or touched (see [`clear_interrupt`]): the context is cleared of the interrupt
/// before this returns, and with it of the call's error.
///
/// Z3 4.8.12's own `timeout` parameter and `try-for` use a thread-pool timer that deadlocks
/// once a timer has fired (Z3 issue #5369/#5371, fixed after 4.8.12), so timeouts are
/// implemented here with one watchdog thread for the process that calls `Z3_interrupt` ([`Watchdog`];
/// a thread per call cost a thread's creation per query: seconds of system time on runs with
/// tens of thousands of Hoare-triple checks).
/// A `cancellable` call of a thread with a cancellation flag ([`interrupt_when`]) is also
/// interrupted as soon as the flag is raised.
pub(super) fn with_deadline<R>(ctx: ffi::Z3_context, timeout_ms: u64, cancellable: bool, f: impl FnOnce() -> R) -> (R, bool) {
    let _inside = InsideSolver::enter();
    let cancel = if cancellable { CANCEL.with(|c| c.borrow().clone()) } else { None };
    let limit = match (timeout_ms > 0, &cancel) {
        (true, _) => Duration::from_millis(timeout_ms),
        (false, Some(_)) => UNLIMITED,
        (false, None) => return (f(), false),
    };
    let Some(deadline) = Instant::now().checked_add(limit) else { return (f(), false) };
    let watchdog = Watchdog::get();
    let id = watchdog.arm(deadline, InterruptHandle(ctx), cancel);
    let r = f();
    let interrupted = watchdog.disarm(id);
    if interrupted {
        clear_interrupt(ctx);
    }
    (r, interrupted)
}

/// Takes back an interrupt that may still be pending in `ctx`. `Z3_interrupt` cancels the
/// context's resource limit, and a check resets the limit only as it starts: an interrupt that
/// lands just before or after the call it was meant for stays pending. In Z3 4.8.12 a pending
/// interrupt makes the next assertions of an incremental solver lose their preprocessing
/// silently, and its check answer sat for an unsatisfiable formula; other calls fail or throw
/// where nothing catches. The check of an empty solver of its own resets the limit.
pub(super) fn clear_interrupt(ctx: ffi::Z3_context) {
    // SAFETY: `ctx` is live (its owner is the caller); the solver is made, used and released
    // here, and a null solver is not used.
    unsafe {
        let Some(s) = ffi::Z3_mk_solver(ctx) else { return };
        ffi::Z3_solver_inc_ref(ctx, s);
        ffi::Z3_solver_check(ctx, s);
        ffi::Z3_solver_dec_ref(ctx, s);
    }
}

/// The deadline of a call without a time limit that may be canceled.
const UNLIMITED: Duration = Duration::from_secs(365 * 24 * 3600);

/// How often the watchdog looks at the cancellation flags of armed calls.
const CANCEL_POLL: Duration = Duration::from_millis(20);

thread_local! {
    /// The cancellation flag of the current thread's Z3 calls.
    static CANCEL: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// From now on, the current thread's Z3 calls are interrupted (they answer unknown) once
/// `flag` is raised; `None` ends that. For a portfolio: the first answer cancels the other
/// threads' queries in flight.
pub fn interrupt_when(flag: Option<Arc<AtomicBool>>) {
    CANCEL.with(|c| *c.borrow_mut() = flag);
}

/// An armed call: when it must end, how to interrupt it, and its cancellation flag.
struct Call {
    deadline: Instant,
    handle: InterruptHandle,
    cancel: Option<Arc<AtomicBool>>,
}

impl Call {
    fn due(&self, now: Instant) -> bool {
        self.deadline <= now || self.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed))
    }

    /// When the watchdog must look at the call next, from `now`: at its deadline, and a call
    /// that may be canceled after the poll interval.
    fn next_look(&self, now: Instant) -> Instant {
        match self.cancel {
            Some(_) => self.deadline.min(now + CANCEL_POLL),
            None => self.deadline,
        }
    }
}

/// The calls under a time limit, by id.
#[derive(Default)]
struct Armed {
    next_id: u64,
    calls: HashMap<u64, Call>,
    /// When the watchdog wakes up by itself next (`None`: only when notified). A call armed
    /// after that instant needs no notification: most queries end long before their limit,
    /// and waking the watchdog for each of them cost a futex call and a context switch per
    /// query (a tenth of the CPU time of two portfolio lanes).
    wakes_at: Option<Instant>,
}

/// One thread that interrupts every Z3 call still armed at its deadline. It interrupts while
/// holding the lock that [`Watchdog::disarm`] takes, so once a call is disarmed its context
/// is never interrupted again on its behalf (and may be dropped).
struct Watchdog {
    armed: Mutex<Armed>,
    changed: Condvar,
}

impl Watchdog {
    fn get() -> &'static Watchdog {
        static WATCHDOG: std::sync::OnceLock<&'static Watchdog> = std::sync::OnceLock::new();
        WATCHDOG.get_or_init(|| {
            let dog: &'static Watchdog = Box::leak(Box::new(Watchdog { armed: Mutex::default(), changed: Condvar::new() }));
            // Without the thread no call would ever be interrupted: a process that cannot start
            // one cannot honour its time limits.
            std::thread::Builder::new().name("z3-watchdog".into()).spawn(move || dog.run()).expect("the Z3 watchdog thread starts");
            dog
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Armed> {
        self.armed.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn arm(&self, deadline: Instant, handle: InterruptHandle, cancel: Option<Arc<AtomicBool>>) -> u64 {
        let mut armed = self.lock();
        let id = armed.next_id;
        armed.next_id += 1;
        let call = Call { deadline, handle, cancel };
        if armed.wakes_at.is_none_or(|w| call.next_look(Instant::now()) < w) {
            self.changed.notify_one();
        }
        armed.calls.insert(id, call);
        id
    }

    /// Ends the watch of call `id`; whether it was interrupted (the watchdog removes the calls
    /// it interrupts).
    fn disarm(&self, id: u64) -> bool {
        self.lock().calls.remove(&id).is_none()
    }

    fn run(&self) {
        let mut armed = self.lock();
        loop {
            let now = Instant::now();
            let due: Vec<u64> = armed.calls.iter().filter(|(_, c)| c.due(now)).map(|(id, _)| *id).collect();
            for id in due {
                if let Some(Call { handle, .. }) = armed.calls.remove(&id) {
                    // SAFETY: the call is still armed, so its owner is inside `with_deadline`
                    // (it disarms under this lock before returning): the context is alive.
                    unsafe { ffi::Z3_interrupt(handle.0) };
                }
            }
            let next = armed.calls.values().map(|c| c.next_look(now)).min();
            armed.wakes_at = next;
            armed = match next {
                Some(d) => match self.changed.wait_timeout(armed, d.saturating_duration_since(now)) {
                    Ok((g, _)) => g,
                    Err(e) => e.into_inner().0,
                },
                None => self.changed.wait(armed).unwrap_or_else(|e| e.into_inner()),
            };
        }
    }
}
