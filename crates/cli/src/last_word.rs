//! Who prints the verdict: the engine when it answers, or UNKNOWN when it cannot — its deadline
//! passed inside a solver call that does not return, or the solver crashed. Exactly one of them
//! prints; the claim is one atomic flag, so a signal handler can take it too.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Set by whoever prints the result.
static ANSWERED: AtomicBool = AtomicBool::new(false);

/// Claims the right to print the result; false if it was already taken.
pub fn claim() -> bool {
    !ANSWERED.swap(true, Ordering::SeqCst)
}

/// How long past `--timeout` a run may take before it is cut off: the engines stop at the
/// deadline on their own; this catches a solver call or a front-end phase that does not return.
pub const GRACE: Duration = Duration::from_millis(400);

/// Prints UNKNOWN if the result has not been claimed by `deadline`, and ends the process.
pub fn arm_deadline(deadline: Instant) {
    std::thread::spawn(move || {
        std::thread::sleep(deadline.saturating_duration_since(Instant::now()));
        if claim() {
            write_raw(b"UNKNOWN\nreason: timeout\n");
            end_now();
        }
    });
}

/// Ends the process at once with status 0. `exit` would run the exit handlers, which tear down
/// the solver's global state while the engine thread is still inside the solver (seen as
/// SIGFPE); `_exit` runs none, and nothing is buffered (see [`write_raw`]).
fn end_now() -> ! {
    // SAFETY: `_exit` only ends the process; nothing here relies on destructors or handlers.
    unsafe { libc::_exit(0) }
}

/// Writes to stdout with one `write` system call, past Rust's buffer: async-signal-safe, and
/// nothing is left to flush. (The engine has printed nothing before a result is claimed.)
fn write_raw(text: &[u8]) {
    // SAFETY: writes `text.len()` bytes from a live slice; the result is deliberately ignored
    // (a reader that went away is not an error).
    unsafe { libc::write(libc::STDOUT_FILENO, text.as_ptr().cast(), text.len()) };
}

/// The fault signals a solver crash raises.
const FAULTS: [libc::c_int; 4] = [libc::SIGSEGV, libc::SIGBUS, libc::SIGFPE, libc::SIGILL];

/// The actions that were installed before ours (Rust's stack-overflow report for SIGSEGV and
/// SIGBUS), by position in [`FAULTS`]; written once, before our handler is installed.
static mut PREVIOUS: [Option<libc::sigaction>; 4] = [None; 4];

/// Turns a fault inside the SMT solver into UNKNOWN with the reason: Z3 4.8.12's `qe` tactic
/// crashes on some inputs, and a crashed solver is no verdict. Faults outside the solver keep
/// their previous action (a fault in Tracery's own code stays a crash).
pub fn catch_solver_crashes() {
    for (i, &signal) in FAULTS.iter().enumerate() {
        // SAFETY: `sigaction` structures are plain data; `PREVIOUS` is written before the
        // handler that reads it exists, from the one thread that runs this at start-up.
        unsafe {
            let mut ours: libc::sigaction = std::mem::zeroed();
            ours.sa_sigaction = on_fault as *const () as usize;
            ours.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
            libc::sigemptyset(&mut ours.sa_mask);
            let mut previous: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(signal, &ours, &mut previous) == 0 {
                (*std::ptr::addr_of_mut!(PREVIOUS))[i] = Some(previous);
            }
        }
    }
}

extern "C" fn on_fault(signal: libc::c_int, info: *mut libc::siginfo_t, context: *mut libc::c_void) {
    if smt::z3backend::inside_solver() && claim() {
        write_raw(b"UNKNOWN\nreason: the SMT solver crashed\n");
        end_now();
    }
    let Some(i) = FAULTS.iter().position(|&s| s == signal) else { return };
    // SAFETY: `PREVIOUS` is no longer written once handlers are installed; the previous action
    // is either a handler with the signature its flags say, or the default (restored, so that
    // returning re-raises the fault and ends the process as before).
    unsafe {
        match (*std::ptr::addr_of!(PREVIOUS))[i] {
            Some(previous) if previous.sa_sigaction > libc::SIG_IGN && previous.sa_flags & libc::SA_SIGINFO != 0 => {
                let handler: extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) =
                    std::mem::transmute(previous.sa_sigaction);
                handler(signal, info, context);
            }
            Some(previous) if previous.sa_sigaction > libc::SIG_IGN => {
                let handler: extern "C" fn(libc::c_int) = std::mem::transmute(previous.sa_sigaction);
                handler(signal);
            }
            _ => {
                libc::signal(signal, libc::SIG_DFL);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_result_is_claimed_once() {
        assert!(super::claim());
        assert!(!super::claim());
    }
}
