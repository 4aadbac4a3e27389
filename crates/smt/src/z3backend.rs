//! Z3 backend: translation of terms to Z3 ASTs and back, and [`Z3Solver`], an incremental
//! solver behind the [`Solver`] trait.
//!
//! Every [`Z3Solver`] owns its own Z3 context, so solvers on different threads never share Z3
//! state. Z3 errors are reported as [`SolverError`]s (the C error handler is disabled, every
//! call is checked), never as panics.

use crate::build;
use crate::bv::{self, BvOp};
use crate::fp::{self, FpOp};
use crate::solver::{Model, SatResult, Solver, SolverError};
use crate::sort::Sort;
use crate::term::{FuncDecl, Kind, Op, Quantifier, Term};
use crate::z3ffi as ffi;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::ToPrimitive;
use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::{CStr, CString};
use std::os::raw::{c_char, c_uint};
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Maximal nesting of quantifiers (and model values) in Z3 terms we translate back; terms are
/// otherwise traversed iteratively, so their depth is not limited by the stack.
const MAX_NESTING: usize = 100;

type Res<T> = Result<T, SolverError>;

fn unsupported(what: impl Into<String>) -> SolverError {
    SolverError::Unsupported(what.into())
}

/// A Z3 context; deleted when the last object referring to it is dropped.
struct RawCtx(ffi::Z3_context);

impl Drop for RawCtx {
    fn drop(&mut self) {
        // SAFETY: the pointer came from Z3_mk_context_rc and every object that refers to it
        // holds an Rc to this value, so none is alive any more.
        unsafe { ffi::Z3_del_context(self.0) }
    }
}

/// A reference-counted Z3 object type (a `z3-sys` handle) and its reference-counting functions.
trait RefCounted: Copy {
    /// # Safety
    /// `p` is a live object of context `c`.
    unsafe fn inc_ref(c: ffi::Z3_context, p: Self);
    /// # Safety
    /// `p` is a live object of context `c` on which the caller holds a reference.
    unsafe fn dec_ref(c: ffi::Z3_context, p: Self);
}

macro_rules! ref_counted {
    ($($t:ty => $inc:ident, $dec:ident;)*) => {$(
        impl RefCounted for $t {
            unsafe fn inc_ref(c: ffi::Z3_context, p: Self) {
                // SAFETY: guaranteed by the caller.
                unsafe { ffi::$inc(c, p) }
            }
            unsafe fn dec_ref(c: ffi::Z3_context, p: Self) {
                // SAFETY: guaranteed by the caller.
                unsafe { ffi::$dec(c, p) }
            }
        }
    )*};
}

ref_counted! {
    ffi::Z3_ast => Z3_inc_ref, Z3_dec_ref;
    ffi::Z3_solver => Z3_solver_inc_ref, Z3_solver_dec_ref;
    ffi::Z3_model => Z3_model_inc_ref, Z3_model_dec_ref;
    ffi::Z3_ast_vector => Z3_ast_vector_inc_ref, Z3_ast_vector_dec_ref;
    ffi::Z3_goal => Z3_goal_inc_ref, Z3_goal_dec_ref;
    ffi::Z3_tactic => Z3_tactic_inc_ref, Z3_tactic_dec_ref;
    ffi::Z3_apply_result => Z3_apply_result_inc_ref, Z3_apply_result_dec_ref;
    ffi::Z3_func_interp => Z3_func_interp_inc_ref, Z3_func_interp_dec_ref;
    ffi::Z3_func_entry => Z3_func_entry_inc_ref, Z3_func_entry_dec_ref;
    ffi::Z3_params => Z3_params_inc_ref, Z3_params_dec_ref;
}

// Sorts and declarations are ASTs in the C implementation and are counted as such.
impl RefCounted for ffi::Z3_sort {
    unsafe fn inc_ref(c: ffi::Z3_context, p: Self) {
        // SAFETY: guaranteed by the caller.
        unsafe {
            if let Some(a) = ffi::Z3_sort_to_ast(c, p) {
                ffi::Z3_inc_ref(c, a);
            }
        }
    }
    unsafe fn dec_ref(c: ffi::Z3_context, p: Self) {
        // SAFETY: guaranteed by the caller.
        unsafe {
            if let Some(a) = ffi::Z3_sort_to_ast(c, p) {
                ffi::Z3_dec_ref(c, a);
            }
        }
    }
}

impl RefCounted for ffi::Z3_func_decl {
    unsafe fn inc_ref(c: ffi::Z3_context, p: Self) {
        // SAFETY: guaranteed by the caller.
        unsafe {
            if let Some(a) = ffi::Z3_func_decl_to_ast(c, p) {
                ffi::Z3_inc_ref(c, a);
            }
        }
    }
    unsafe fn dec_ref(c: ffi::Z3_context, p: Self) {
        // SAFETY: guaranteed by the caller.
        unsafe {
            if let Some(a) = ffi::Z3_func_decl_to_ast(c, p) {
                ffi::Z3_dec_ref(c, a);
            }
        }
    }
}

/// A reference-counted handle to a Z3 object.
struct Owned<T: RefCounted> {
    ctx: Rc<RawCtx>,
    p: T,
}

impl<T: RefCounted> Owned<T> {
    /// Takes a reference to `p` (created in `ctx`).
    fn new(ctx: &Rc<RawCtx>, p: T) -> Owned<T> {
        // SAFETY: `p` is a live object of context `ctx`.
        unsafe { T::inc_ref(ctx.0, p) };
        Owned { ctx: ctx.clone(), p }
    }
}

impl<T: RefCounted> Clone for Owned<T> {
    fn clone(&self) -> Owned<T> {
        Owned::new(&self.ctx, self.p)
    }
}

impl<T: RefCounted> Drop for Owned<T> {
    fn drop(&mut self) {
        // SAFETY: we hold one reference to `p`, taken in `Owned::new`.
        unsafe { T::dec_ref(self.ctx.0, self.p) }
    }
}

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

/// Runs `f` (a Z3 call on context `ctx`) and interrupts it after `timeout_ms` (0: no limit).
///
/// Z3 4.8.12's own `timeout` parameter and `try-for` use a thread-pool timer that deadlocks
/// once a timer has fired (Z3 issue #5369/#5371, fixed after 4.8.12), so timeouts are
/// implemented here with one watchdog thread for the process that calls `Z3_interrupt` ([`Watchdog`];
/// a thread per call cost a thread's creation per query: seconds of system time on runs with
/// tens of thousands of Hoare-triple checks).
fn with_deadline<R>(ctx: ffi::Z3_context, timeout_ms: u64, f: impl FnOnce() -> R) -> R {
    let _inside = InsideSolver::enter();
    let Some(deadline) = (timeout_ms > 0).then(|| Instant::now().checked_add(Duration::from_millis(timeout_ms))).flatten() else {
        return f();
    };
    let watchdog = Watchdog::get();
    let id = watchdog.arm(deadline, InterruptHandle(ctx));
    let r = f();
    watchdog.disarm(id);
    r
}

/// The calls under a time limit, by id: when each must end and how to interrupt it.
#[derive(Default)]
struct Armed {
    next_id: u64,
    calls: HashMap<u64, (Instant, InterruptHandle)>,
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

    fn arm(&self, deadline: Instant, handle: InterruptHandle) -> u64 {
        let mut armed = self.lock();
        let id = armed.next_id;
        armed.next_id += 1;
        armed.calls.insert(id, (deadline, handle));
        self.changed.notify_one();
        id
    }

    fn disarm(&self, id: u64) {
        self.lock().calls.remove(&id);
    }

    fn run(&self) {
        let mut armed = self.lock();
        loop {
            let now = Instant::now();
            let due: Vec<u64> = armed.calls.iter().filter(|(_, (d, _))| *d <= now).map(|(id, _)| *id).collect();
            for id in due {
                if let Some((_, handle)) = armed.calls.remove(&id) {
                    // SAFETY: the call is still armed, so its owner is inside `with_deadline`
                    // (it disarms under this lock before returning): the context is alive.
                    unsafe { ffi::Z3_interrupt(handle.0) };
                }
            }
            let next = armed.calls.values().map(|(d, _)| *d).min();
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

/// What a Z3 symbol name stands for.
#[derive(Clone)]
enum Owner {
    Var(Term),
    Func(Arc<FuncDecl>),
    Internal,
}

/// A Z3 context with translation caches (terms, sorts, function symbols) in both directions.
pub(crate) struct Z3Ctx {
    raw: Rc<RawCtx>,
    terms: HashMap<Term, Owned<ffi::Z3_ast>>,
    sorts: HashMap<Sort, Owned<ffi::Z3_sort>>,
    funcs: HashMap<Arc<FuncDecl>, Owned<ffi::Z3_func_decl>>,
    /// Z3 symbol name -> what it stands for; names are unique per context.
    names: HashMap<String, Owner>,
    /// The declaration kind of uninterpreted symbols in this libz3 (asked, not assumed).
    uninterpreted: c_uint,
}

fn cstring(s: &str) -> CString {
    CString::new(s.replace('\0', "_")).unwrap_or_default()
}

fn read_str(p: *const c_char) -> Option<String> {
    if p.is_null() {
        return None;
    }
    // SAFETY: Z3 returns NUL-terminated strings valid until the next API call; we copy at once.
    Some(unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
}

/// `z3-sys` constructors by arity (n-ary, binary, unary).
type NaryFn = unsafe extern "C" fn(ffi::Z3_context, c_uint, *const ffi::Z3_ast) -> Option<ffi::Z3_ast>;
type BinFn = unsafe extern "C" fn(ffi::Z3_context, ffi::Z3_ast, ffi::Z3_ast) -> Option<ffi::Z3_ast>;
type UnFn = unsafe extern "C" fn(ffi::Z3_context, ffi::Z3_ast) -> Option<ffi::Z3_ast>;

fn len_u32(n: usize) -> Res<c_uint> {
    c_uint::try_from(n).map_err(|_| unsupported("too many arguments"))
}

impl Z3Ctx {
    /// A fresh context with Z3's error handler disabled (errors become error codes).
    pub(crate) fn new() -> Res<Z3Ctx> {
        // SAFETY: plain constructor calls; null results are checked.
        let raw = unsafe {
            let Some(cfg) = ffi::Z3_mk_config() else {
                return Err(SolverError::Failure("Z3_mk_config failed".into()));
            };
            let model = cstring("model");
            let yes = cstring("true");
            ffi::Z3_set_param_value(cfg, model.as_ptr(), yes.as_ptr());
            let ctx = ffi::Z3_mk_context_rc(cfg);
            ffi::Z3_del_config(cfg);
            let Some(ctx) = ctx else {
                return Err(SolverError::Failure("Z3_mk_context_rc failed".into()));
            };
            ffi::Z3_set_error_handler(ctx, None);
            ctx
        };
        let mut cx = Z3Ctx {
            raw: Rc::new(RawCtx(raw)),
            terms: HashMap::new(),
            sorts: HashMap::new(),
            funcs: HashMap::new(),
            names: HashMap::new(),
            uninterpreted: ffi::op::UNINTERPRETED_4_8_12,
        };
        let probe = cx.sort(&Sort::Bool).and_then(|b| {
            // SAFETY: live sort; the constant's declaration lives as long as the constant.
            let k = cx.ast(unsafe { ffi::Z3_mk_const(cx.c(), cx.symbol("probe")?, b.p) }, "probe")?;
            cx.app_kind(k.p)
        });
        if let Ok(kind) = probe {
            cx.uninterpreted = kind;
        }
        Ok(cx)
    }

    fn c(&self) -> ffi::Z3_context {
        self.raw.0
    }

    /// Number of cached term translations (a measure of the context's size).
    pub(crate) fn cache_len(&self) -> usize {
        self.terms.len()
    }

    /// The pending Z3 error, if the last call failed.
    fn error(&self) -> Option<String> {
        // SAFETY: valid context.
        unsafe {
            let code = ffi::Z3_get_error_code(self.c());
            if code == ffi::ErrorCode::Ok {
                None
            } else {
                Some(read_str(ffi::Z3_get_error_msg(self.c(), code)).unwrap_or_else(|| format!("Z3 error {}", code as u32)))
            }
        }
    }

    /// Checks the last call: an error or a null result becomes `Err`.
    fn check_ptr<T>(&self, p: Option<T>, what: &str) -> Res<T> {
        if let Some(e) = self.error() {
            return Err(SolverError::Failure(format!("{what}: {e}")));
        }
        p.ok_or_else(|| SolverError::Failure(format!("{what}: Z3 returned null")))
    }

    /// Checks the last call and takes a reference to its result.
    fn own<T: RefCounted>(&self, p: Option<T>, what: &str) -> Res<Owned<T>> {
        let p = self.check_ptr(p, what)?;
        Ok(Owned::new(&self.raw, p))
    }

    fn ast(&self, p: Option<ffi::Z3_ast>, what: &str) -> Res<Owned<ffi::Z3_ast>> {
        self.own(p, what)
    }

    fn check_ok(&self, what: &str) -> Res<()> {
        match self.error() {
            Some(e) => Err(SolverError::Failure(format!("{what}: {e}"))),
            None => Ok(()),
        }
    }

    /// The SMT-LIB text of an AST (for messages).
    fn ast_string(&self, a: ffi::Z3_ast) -> String {
        // SAFETY: valid AST of this context.
        read_str(unsafe { ffi::Z3_ast_to_string(self.c(), a) }).unwrap_or_default()
    }

    fn symbol(&self, name: &str) -> Res<ffi::Z3_symbol> {
        let s = cstring(name);
        // SAFETY: valid context and string; symbols need no reference counting.
        let p = unsafe { ffi::Z3_mk_string_symbol(self.c(), s.as_ptr()) };
        self.check_ptr(p, "symbol")
    }

    fn symbol_name(&self, s: ffi::Z3_symbol) -> String {
        // SAFETY: `s` is a symbol of this context.
        unsafe {
            if ffi::Z3_get_symbol_kind(self.c(), s) == ffi::SymbolKind::String {
                read_str(ffi::Z3_get_symbol_string(self.c(), s)).unwrap_or_default()
            } else {
                format!("k!{}", ffi::Z3_get_symbol_int(self.c(), s))
            }
        }
    }

    /// Registers a unique Z3 name for `owner`, based on `base`.
    fn unique_name(&mut self, base: &str, owner: Owner) -> String {
        let base = base.replace('\0', "_");
        let mut name = base.clone();
        let mut k = 0u64;
        while self.names.contains_key(&name) {
            k += 1;
            name = format!("{base}!{k}");
        }
        self.names.insert(name.clone(), owner);
        name
    }

    // ---------------------------------------------------------------- sorts

    fn sort(&mut self, s: &Sort) -> Res<Owned<ffi::Z3_sort>> {
        if let Some(o) = self.sorts.get(s) {
            return Ok(o.clone());
        }
        let c = self.c();
        // SAFETY: valid context; component sorts are held alive by `Owned` values.
        let p = unsafe {
            match s {
                Sort::Bool => ffi::Z3_mk_bool_sort(c),
                Sort::Int => ffi::Z3_mk_int_sort(c),
                Sort::Real => ffi::Z3_mk_real_sort(c),
                Sort::BitVec(n) => ffi::Z3_mk_bv_sort(c, *n),
                Sort::Float(e, m) => ffi::Z3_mk_fpa_sort(c, *e, *m),
                Sort::Array(i, e) => {
                    let i = self.sort(i)?;
                    let e = self.sort(e)?;
                    ffi::Z3_mk_array_sort(c, i.p, e.p)
                }
                Sort::Uninterpreted(n) => ffi::Z3_mk_uninterpreted_sort(c, self.symbol(n)?),
            }
        };
        let o = self.own(p, "sort")?;
        self.sorts.insert(s.clone(), o.clone());
        Ok(o)
    }

    /// The declaration kind (libz3 4.8.12 numbering) of an application AST of this context
    /// (numerals of floating-point and rounding-mode sorts are applications too).
    fn app_kind(&self, a: ffi::Z3_ast) -> Res<u32> {
        let c = self.c();
        // SAFETY: `a` is a live application AST; its declaration lives as long as it does.
        let app = self.check_ptr(unsafe { ffi::Z3_to_app(c, a) }, "to_app")?;
        let decl = self.check_ptr(unsafe { ffi::Z3_get_app_decl(c, app) }, "decl")?;
        Ok(unsafe { ffi::get_decl_kind(c, decl) })
    }

    fn sort_back(&self, s: ffi::Z3_sort, depth: usize) -> Res<Sort> {
        if depth > 100 {
            return Err(unsupported("sort nesting too deep"));
        }
        let c = self.c();
        // SAFETY: `s` is a live sort of this context (owned by an AST the caller holds).
        unsafe {
            Ok(match ffi::Z3_get_sort_kind(c, s) {
                ffi::SortKind::Bool => Sort::Bool,
                ffi::SortKind::Int => Sort::Int,
                ffi::SortKind::Real => Sort::Real,
                ffi::SortKind::Bv => Sort::BitVec(ffi::Z3_get_bv_sort_size(c, s)),
                ffi::SortKind::FloatingPoint => Sort::Float(ffi::Z3_fpa_get_ebits(c, s), ffi::Z3_fpa_get_sbits(c, s)),
                ffi::SortKind::RoundingMode => Sort::Uninterpreted(Arc::from(ROUNDING_MODE)),
                ffi::SortKind::Array => {
                    let d = self.check_ptr(ffi::Z3_get_array_sort_domain(c, s), "array domain")?;
                    let r = self.check_ptr(ffi::Z3_get_array_sort_range(c, s), "array range")?;
                    Sort::array(self.sort_back(d, depth + 1)?, self.sort_back(r, depth + 1)?)
                }
                ffi::SortKind::Uninterpreted => {
                    let name = self.symbol_name(self.check_ptr(ffi::Z3_get_sort_name(c, s), "sort name")?);
                    Sort::Uninterpreted(Arc::from(name.as_str()))
                }
                k => return Err(unsupported(format!("Z3 sort kind {}", k as u32))),
            })
        }
    }

    // ---------------------------------------------------------------- Term -> Z3

    /// Translates a term into a Z3 AST (cached per context). Iterative: deep terms cannot
    /// overflow the stack.
    fn encode(&mut self, t: &Term) -> Res<Owned<ffi::Z3_ast>> {
        if let Some(o) = self.terms.get(t) {
            return Ok(o.clone());
        }
        let mut stack: Vec<(Term, bool)> = vec![(t.clone(), false)];
        while let Some((u, expanded)) = stack.pop() {
            if self.terms.contains_key(&u) {
                continue;
            }
            if expanded {
                // Whatever Z3 rejects here is input we cannot translate.
                let o = self.encode_node(&u).map_err(|e| match e {
                    SolverError::Failure(m) => unsupported(m),
                    e => e,
                })?;
                self.terms.insert(u, o);
                continue;
            }
            stack.push((u.clone(), true));
            let bound = match &u.kind {
                Kind::Quant(_, vs) => vs.as_slice(),
                _ => &[],
            };
            for c in u.args.iter().chain(bound) {
                if !self.terms.contains_key(c) {
                    stack.push((c.clone(), false));
                }
            }
        }
        self.child(t)
    }

    /// The translation of an already translated subterm.
    fn child(&self, t: &Term) -> Res<Owned<ffi::Z3_ast>> {
        self.terms.get(t).cloned().ok_or_else(|| SolverError::Failure(format!("subterm not translated: {t}")))
    }

    /// Translates `t` and converts it from Int to Real when `to` is Real.
    fn arg_as(&mut self, t: &Term, to: &Sort) -> Res<Owned<ffi::Z3_ast>> {
        let a = self.child(t)?;
        if t.sort == Sort::Int && *to == Sort::Real {
            // SAFETY: `a` is a live Int AST.
            let p = unsafe { ffi::Z3_mk_int2real(self.c(), a.p) };
            return self.ast(p, "to_real");
        }
        Ok(a)
    }

    /// Translates arithmetic arguments, all at Real if any is Real.
    fn arith_args(&mut self, args: &[Term]) -> Res<Vec<Owned<ffi::Z3_ast>>> {
        let target = if args.iter().any(|a| a.sort == Sort::Real) { Sort::Real } else { Sort::Int };
        args.iter().map(|a| self.arg_as(a, &target)).collect()
    }

    fn mk_nary(&self, f: NaryFn, args: &[Owned<ffi::Z3_ast>], what: &str) -> Res<Owned<ffi::Z3_ast>> {
        let ps: Vec<ffi::Z3_ast> = args.iter().map(|a| a.p).collect();
        // SAFETY: all arguments are live ASTs of this context.
        let p = unsafe { f(self.c(), len_u32(ps.len())?, ps.as_ptr()) };
        self.ast(p, what)
    }

    fn mk_bin(&self, f: BinFn, args: &[Owned<ffi::Z3_ast>], what: &str) -> Res<Owned<ffi::Z3_ast>> {
        match args {
            // SAFETY: live ASTs of this context.
            [a, b] => self.ast(unsafe { f(self.c(), a.p, b.p) }, what),
            _ => Err(unsupported(format!("{what} with {} arguments", args.len()))),
        }
    }

    fn mk_un(&self, f: UnFn, args: &[Owned<ffi::Z3_ast>], what: &str) -> Res<Owned<ffi::Z3_ast>> {
        match args {
            // SAFETY: live AST of this context.
            [a] => self.ast(unsafe { f(self.c(), a.p) }, what),
            _ => Err(unsupported(format!("{what} with {} arguments", args.len()))),
        }
    }

    /// A chain `a0 R a1 ∧ a1 R a2 ∧ ...` for chainable relations.
    fn mk_chain(&self, f: BinFn, args: &[Owned<ffi::Z3_ast>], what: &str) -> Res<Owned<ffi::Z3_ast>> {
        if args.len() < 2 {
            return Err(unsupported(format!("{what} with {} arguments", args.len())));
        }
        let parts = args.windows(2).map(|w| self.mk_bin(f, w, what)).collect::<Res<Vec<_>>>()?;
        if parts.len() == 1 {
            return parts.into_iter().next().ok_or_else(|| unsupported("empty chain"));
        }
        self.mk_nary(ffi::Z3_mk_and, &parts, what)
    }

    fn func_decl(&mut self, fd: &Arc<FuncDecl>) -> Res<Owned<ffi::Z3_func_decl>> {
        if let Some(o) = self.funcs.get(fd) {
            return Ok(o.clone());
        }
        let dom = fd.domain.iter().map(|s| self.sort(s)).collect::<Res<Vec<_>>>()?;
        let range = self.sort(&fd.range)?;
        let name = self.unique_name(&fd.name, Owner::Func(fd.clone()));
        let sym = self.symbol(&name)?;
        let ps: Vec<ffi::Z3_sort> = dom.iter().map(|s| s.p).collect();
        // SAFETY: live sorts of this context.
        let p = unsafe { ffi::Z3_mk_func_decl(self.c(), sym, len_u32(ps.len())?, ps.as_ptr(), range.p) };
        let o = self.own(p, "func decl")?;
        self.funcs.insert(fd.clone(), o.clone());
        Ok(o)
    }

    fn encode_node(&mut self, t: &Term) -> Res<Owned<ffi::Z3_ast>> {
        let c = self.c();
        match &t.kind {
            Kind::Var(name) => {
                let sort = self.sort(&t.sort)?;
                let name = self.unique_name(name, Owner::Var(t.clone()));
                let sym = self.symbol(&name)?;
                // SAFETY: live sort of this context.
                self.ast(unsafe { ffi::Z3_mk_const(c, sym, sort.p) }, "const")
            }
            // SAFETY: plain constructors.
            Kind::Bool(true) => self.ast(unsafe { ffi::Z3_mk_true(c) }, "true"),
            Kind::Bool(false) => self.ast(unsafe { ffi::Z3_mk_false(c) }, "false"),
            Kind::Int(i) => self.numeral(&i.to_string(), &Sort::Int),
            Kind::Real(r) => self.numeral(&format!("{}/{}", r.numer(), r.denom()), &Sort::Real),
            Kind::Quant(q, vars) => {
                let body = t.args.first().ok_or_else(|| unsupported("quantifier without body"))?;
                if body.sort != Sort::Bool {
                    return Err(unsupported("quantifier over a non-Boolean body"));
                }
                let mut apps = Vec::new();
                let mut keep = Vec::new();
                for v in vars {
                    if !v.is_var() {
                        return Err(unsupported(format!("bound non-variable {v}")));
                    }
                    let a = self.child(v)?;
                    // SAFETY: `a` is a live constant.
                    let app = unsafe { ffi::Z3_to_app(c, a.p) };
                    apps.push(self.check_ptr(app, "bound variable")?);
                    keep.push(a);
                }
                let b = self.child(body)?;
                // SAFETY: bound constants (kept alive by `keep`) and body are live.
                let p = unsafe {
                    ffi::Z3_mk_quantifier_const(
                        c,
                        *q == Quantifier::Forall,
                        0,
                        len_u32(apps.len())?,
                        apps.as_ptr(),
                        0,
                        std::ptr::null(),
                        b.p,
                    )
                };
                self.ast(p, "quantifier")
            }
            Kind::App(op) => self.encode_app(op, t),
        }
    }

    fn numeral(&mut self, s: &str, sort: &Sort) -> Res<Owned<ffi::Z3_ast>> {
        let z = self.sort(sort)?;
        let cs = cstring(s);
        // SAFETY: live sort, valid string.
        self.ast(unsafe { ffi::Z3_mk_numeral(self.c(), cs.as_ptr(), z.p) }, "numeral")
    }

    fn encode_app(&mut self, op: &Op, t: &Term) -> Res<Owned<ffi::Z3_ast>> {
        let args = &t.args;
        let plain = |s: &mut Self| args.iter().map(|a| s.child(a)).collect::<Res<Vec<_>>>();
        match op {
            Op::Not => {
                let a = plain(self)?;
                self.mk_un(ffi::Z3_mk_not, &a, "not")
            }
            Op::And | Op::Or => {
                let a = plain(self)?;
                let f = if *op == Op::And { ffi::Z3_mk_and } else { ffi::Z3_mk_or };
                self.mk_nary(f, &a, "and/or")
            }
            Op::Implies => {
                let a = plain(self)?;
                match a.split_last() {
                    Some((last, init)) if !init.is_empty() => {
                        // (=> a b c) is a => (b => c)
                        let mut acc = last.clone();
                        for x in init.iter().rev() {
                            acc = self.mk_bin(ffi::Z3_mk_implies, &[x.clone(), acc], "=>")?;
                        }
                        Ok(acc)
                    }
                    _ => Err(unsupported("=> with fewer than 2 arguments")),
                }
            }
            Op::Ite => {
                let [cnd, a, b] = args.as_slice() else {
                    return Err(unsupported("ite arity"));
                };
                let target = if a.sort == Sort::Real || b.sort == Sort::Real { Sort::Real } else { a.sort.clone() };
                let cz = self.child(cnd)?;
                let az = self.arg_as(a, &target)?;
                let bz = self.arg_as(b, &target)?;
                // SAFETY: live ASTs.
                self.ast(unsafe { ffi::Z3_mk_ite(self.c(), cz.p, az.p, bz.p) }, "ite")
            }
            Op::Eq | Op::Distinct => {
                let a = if args.iter().all(|a| a.sort.is_arith()) { self.arith_args(args)? } else { plain(self)? };
                if *op == Op::Eq {
                    self.mk_chain(ffi::Z3_mk_eq, &a, "=")
                } else {
                    self.mk_nary(ffi::Z3_mk_distinct, &a, "distinct")
                }
            }
            Op::Le | Op::Lt => {
                let a = self.arith_args(args)?;
                let f = if *op == Op::Le { ffi::Z3_mk_le } else { ffi::Z3_mk_lt };
                self.mk_chain(f, &a, "<=/<")
            }
            Op::Add | Op::Mul | Op::Sub if args.is_empty() => Err(unsupported("nullary arithmetic")),
            // SMT-LIB: (- x) is negation
            Op::Sub if args.len() == 1 => {
                let a = plain(self)?;
                self.mk_un(ffi::Z3_mk_unary_minus, &a, "-")
            }
            Op::Add | Op::Mul | Op::Sub => {
                let a = self.arith_args(args)?;
                let f = match op {
                    Op::Add => ffi::Z3_mk_add,
                    Op::Mul => ffi::Z3_mk_mul,
                    _ => ffi::Z3_mk_sub,
                };
                self.mk_nary(f, &a, "+/*/-")
            }
            Op::Neg => {
                let a = plain(self)?;
                self.mk_un(ffi::Z3_mk_unary_minus, &a, "-")
            }
            Op::IntDiv | Op::Mod => {
                if args.iter().any(|a| a.sort != Sort::Int) {
                    return Err(unsupported("div/mod on non-integers"));
                }
                let f = if *op == Op::IntDiv { ffi::Z3_mk_div } else { ffi::Z3_mk_mod };
                let a = plain(self)?;
                self.mk_bin(f, &a, "div/mod")
            }
            Op::RealDiv => {
                let a = args.iter().map(|a| self.arg_as(a, &Sort::Real)).collect::<Res<Vec<_>>>()?;
                self.mk_bin(ffi::Z3_mk_div, &a, "/")
            }
            Op::ToReal | Op::ToInt => {
                let [a] = args.as_slice() else {
                    return Err(unsupported("conversion arity"));
                };
                let z = self.child(a)?;
                match (op, &a.sort) {
                    (Op::ToReal, Sort::Int) => self.mk_un(ffi::Z3_mk_int2real, &[z], "to_real"),
                    (Op::ToInt, Sort::Real) => self.mk_un(ffi::Z3_mk_real2int, &[z], "to_int"),
                    (Op::ToReal, Sort::Real) | (Op::ToInt, Sort::Int) => Ok(z),
                    _ => Err(unsupported(format!("conversion of sort {}", a.sort))),
                }
            }
            Op::Select | Op::Store => {
                let (idx_sort, elem_sort) = match args.first().map(|a| &a.sort) {
                    Some(Sort::Array(i, e)) => ((**i).clone(), (**e).clone()),
                    _ => return Err(unsupported("select/store on a non-array")),
                };
                let mut z = vec![self.child(&args[0])?];
                if let Some(i) = args.get(1) {
                    z.push(self.arg_as(i, &idx_sort)?);
                }
                if let Some(v) = args.get(2) {
                    z.push(self.arg_as(v, &elem_sort)?);
                }
                match (op, z.as_slice()) {
                    // SAFETY: live ASTs.
                    (Op::Select, [a, i]) => self.ast(unsafe { ffi::Z3_mk_select(self.c(), a.p, i.p) }, "select"),
                    (Op::Store, [a, i, v]) => self.ast(unsafe { ffi::Z3_mk_store(self.c(), a.p, i.p, v.p) }, "store"),
                    _ => Err(unsupported("select/store arity")),
                }
            }
            Op::ConstArray(sort) => {
                let Sort::Array(idx, elem) = sort else {
                    return Err(unsupported("const array of a non-array sort"));
                };
                let [v] = args.as_slice() else {
                    return Err(unsupported("const array arity"));
                };
                let d = self.sort(idx)?;
                let vz = self.arg_as(v, elem)?;
                // SAFETY: live sort and AST.
                self.ast(unsafe { ffi::Z3_mk_const_array(self.c(), d.p, vz.p) }, "const array")
            }
            Op::Int2Bv(n) if t.as_bv().is_some() => self.numeral(&args[0].to_string(), &t.sort),
            Op::Bv(b) => {
                let a = plain(self)?;
                self.encode_bv(*b, &a)
            }
            Op::Fp(f) => {
                let a = plain(self)?;
                self.encode_fp(*f, &a)
            }
            Op::Int2Bv(n) => {
                let a = plain(self)?;
                let [x] = a.as_slice() else { return Err(unsupported("int2bv arity")) };
                // SAFETY: live AST.
                self.ast(unsafe { ffi::Z3_mk_int2bv(self.c(), *n, x.p) }, "int2bv")
            }
            Op::Bv2Nat => {
                let a = plain(self)?;
                let [x] = a.as_slice() else { return Err(unsupported("bv2nat arity")) };
                // SAFETY: live AST.
                self.ast(unsafe { ffi::Z3_mk_bv2int(self.c(), x.p, false) }, "bv2nat")
            }
            Op::BvAnd | Op::BvOr | Op::BvXor => {
                let a = plain(self)?;
                let f = match op {
                    Op::BvAnd => ffi::Z3_mk_bvand,
                    Op::BvOr => ffi::Z3_mk_bvor,
                    _ => ffi::Z3_mk_bvxor,
                };
                self.mk_bin(f, &a, "bitwise")
            }
            Op::Apply(fd) => {
                if fd.domain.len() != args.len() {
                    return Err(unsupported(format!("{} applied to {} arguments", fd.name, args.len())));
                }
                let decl = self.func_decl(fd)?;
                let z = args.iter().zip(fd.domain.iter()).map(|(a, s)| self.arg_as(a, s)).collect::<Res<Vec<_>>>()?;
                let ps: Vec<ffi::Z3_ast> = z.iter().map(|a| a.p).collect();
                // SAFETY: live declaration and arguments.
                self.ast(unsafe { ffi::Z3_mk_app(self.c(), decl.p, len_u32(ps.len())?, ps.as_ptr()) }, "apply")
            }
        }
    }

    fn encode_bv(&self, op: BvOp, a: &[Owned<ffi::Z3_ast>]) -> Res<Owned<ffi::Z3_ast>> {
        let what = op.name();
        let indexed = |f: unsafe extern "C" fn(ffi::Z3_context, c_uint, ffi::Z3_ast) -> Option<ffi::Z3_ast>, n: u32| match a {
            // SAFETY: live AST of this context.
            [x] => self.ast(unsafe { f(self.c(), n, x.p) }, what),
            _ => Err(unsupported(format!("{what} with {} arguments", a.len()))),
        };
        match op {
            BvOp::Neg => self.mk_un(ffi::Z3_mk_bvneg, a, what),
            BvOp::Not => self.mk_un(ffi::Z3_mk_bvnot, a, what),
            BvOp::ZeroExt(n) => indexed(ffi::Z3_mk_zero_ext, n),
            BvOp::SignExt(n) => indexed(ffi::Z3_mk_sign_ext, n),
            BvOp::Extract(hi, lo) => match a {
                // SAFETY: live AST of this context.
                [x] => self.ast(unsafe { ffi::Z3_mk_extract(self.c(), hi, lo, x.p) }, what),
                _ => Err(unsupported("extract arity")),
            },
            _ => {
                let f: BinFn = match op {
                    BvOp::Add => ffi::Z3_mk_bvadd,
                    BvOp::Sub => ffi::Z3_mk_bvsub,
                    BvOp::Mul => ffi::Z3_mk_bvmul,
                    BvOp::UDiv => ffi::Z3_mk_bvudiv,
                    BvOp::SDiv => ffi::Z3_mk_bvsdiv,
                    BvOp::URem => ffi::Z3_mk_bvurem,
                    BvOp::SRem => ffi::Z3_mk_bvsrem,
                    BvOp::Shl => ffi::Z3_mk_bvshl,
                    BvOp::LShr => ffi::Z3_mk_bvlshr,
                    BvOp::AShr => ffi::Z3_mk_bvashr,
                    BvOp::Ult => ffi::Z3_mk_bvult,
                    BvOp::Ule => ffi::Z3_mk_bvule,
                    BvOp::Slt => ffi::Z3_mk_bvslt,
                    BvOp::Sle => ffi::Z3_mk_bvsle,
                    _ => ffi::Z3_mk_concat,
                };
                self.mk_bin(f, a, what)
            }
        }
    }

    fn encode_fp(&mut self, op: FpOp, a: &[Owned<ffi::Z3_ast>]) -> Res<Owned<ffi::Z3_ast>> {
        let what = op.name();
        let c = self.c();
        // SAFETY (all calls below): live context; arguments are live ASTs of this context.
        // the rounding mode (unused by the operators without one)
        let rm = match op.rounding() {
            Some("RTZ") => self.ast(unsafe { ffi::Z3_mk_fpa_rtz(c) }, "RTZ")?,
            _ => self.ast(unsafe { ffi::Z3_mk_fpa_rne(c) }, "RNE")?,
        };
        let rm = rm.p;
        let sort = |s: &mut Self, e: u32, m: u32| s.sort(&Sort::Float(e, m));
        let p = match (op, a) {
            (FpOp::Neg, _) => return self.mk_un(ffi::Z3_mk_fpa_neg, a, what),
            (FpOp::IsNaN, _) => return self.mk_un(ffi::Z3_mk_fpa_is_nan, a, what),
            (FpOp::IsZero, _) => return self.mk_un(ffi::Z3_mk_fpa_is_zero, a, what),
            (FpOp::Lt, _) => return self.mk_bin(ffi::Z3_mk_fpa_lt, a, what),
            (FpOp::Leq, _) => return self.mk_bin(ffi::Z3_mk_fpa_leq, a, what),
            (FpOp::Eq, _) => return self.mk_bin(ffi::Z3_mk_fpa_eq, a, what),
            (FpOp::Add, [x, y]) => unsafe { ffi::Z3_mk_fpa_add(c, rm, x.p, y.p) },
            (FpOp::Sub, [x, y]) => unsafe { ffi::Z3_mk_fpa_sub(c, rm, x.p, y.p) },
            (FpOp::Mul, [x, y]) => unsafe { ffi::Z3_mk_fpa_mul(c, rm, x.p, y.p) },
            (FpOp::Div, [x, y]) => unsafe { ffi::Z3_mk_fpa_div(c, rm, x.p, y.p) },
            (FpOp::Trunc, [x]) => unsafe { ffi::Z3_mk_fpa_round_to_integral(c, rm, x.p) },
            (FpOp::ToSigned(w), [x]) => unsafe { ffi::Z3_mk_fpa_to_sbv(c, rm, x.p, w) },
            (FpOp::ToUnsigned(w), [x]) => unsafe { ffi::Z3_mk_fpa_to_ubv(c, rm, x.p, w) },
            (FpOp::FromBits(e, m), [x]) => {
                let s = sort(self, e, m)?;
                unsafe { ffi::Z3_mk_fpa_to_fp_bv(c, x.p, s.p) }
            }
            (FpOp::FromSigned(e, m), [x]) => {
                let s = sort(self, e, m)?;
                unsafe { ffi::Z3_mk_fpa_to_fp_signed(c, rm, x.p, s.p) }
            }
            (FpOp::FromUnsigned(e, m), [x]) => {
                let s = sort(self, e, m)?;
                unsafe { ffi::Z3_mk_fpa_to_fp_unsigned(c, rm, x.p, s.p) }
            }
            (FpOp::FromFloat(e, m), [x]) => {
                let s = sort(self, e, m)?;
                unsafe { ffi::Z3_mk_fpa_to_fp_float(c, rm, x.p, s.p) }
            }
            _ => return Err(unsupported(format!("{what} with {} arguments", a.len()))),
        };
        self.ast(p, what)
    }

    // ---------------------------------------------------------------- Z3 -> Term

    /// Translates a Z3 AST back into a term. Constants and functions must be ones this context
    /// created from terms; quantifiers get fresh bound variables.
    fn decode(&mut self, a: &Owned<ffi::Z3_ast>) -> Res<Term> {
        let mut back = Back { env: Vec::new(), model: None };
        back.go(self, a.p, &mut HashMap::new(), 0)
    }

    /// Like [`decode`], resolving `as-array` values through `model`.
    fn decode_value(&mut self, a: &Owned<ffi::Z3_ast>, model: &Owned<ffi::Z3_model>) -> Res<Term> {
        let mut back = Back { env: Vec::new(), model: Some(model.clone()) };
        back.go(self, a.p, &mut HashMap::new(), 0)
    }

    // ---------------------------------------------------------------- tactics and simplification

    /// Z3's `simplify` on a term.
    pub(crate) fn simplify_term(&mut self, t: &Term) -> Res<Term> {
        let a = self.encode(t)?;
        // SAFETY: live AST.
        let s = self.ast(unsafe { ffi::Z3_simplify(self.c(), a.p) }, "simplify")?;
        self.decode(&s)
    }

    /// Applies the named tactic to the formula `t` (with a timeout in ms, 0 for none) and
    /// returns the disjunction over subgoals of their conjunctions. Fails unless every subgoal
    /// is precise (equivalence-preserving).
    pub(crate) fn apply_tactic(&mut self, t: &Term, tactic: &str, timeout_ms: u64) -> Res<Term> {
        if t.sort != Sort::Bool {
            return Err(unsupported("tactic on a non-Boolean term"));
        }
        let f = self.encode(t)?;
        let c = self.c();
        // SAFETY: all objects are live and of this context; results are checked.
        unsafe {
            let goal = self.own(ffi::Z3_mk_goal(c, false, false, false), "goal")?;
            ffi::Z3_goal_assert(c, goal.p, f.p);
            self.check_ok("goal assert")?;
            let name = cstring(tactic);
            let tac = self.own(ffi::Z3_mk_tactic(c, name.as_ptr()), "tactic")?;
            let res = with_deadline(c, timeout_ms, || ffi::Z3_tactic_apply(c, tac.p, goal.p));
            let res = self.own(res, tactic)?;
            let n = ffi::Z3_apply_result_get_num_subgoals(c, res.p);
            let mut disjuncts = Vec::new();
            for i in 0..n {
                let g = self.own(ffi::Z3_apply_result_get_subgoal(c, res.p, i), "subgoal")?;
                if ffi::Z3_goal_precision(c, g.p) != ffi::GoalPrec::Precise {
                    return Err(SolverError::Failure(format!("{tactic}: imprecise subgoal")));
                }
                let mut conj = Vec::new();
                for j in 0..ffi::Z3_goal_size(c, g.p) {
                    let fj = self.ast(ffi::Z3_goal_formula(c, g.p, j), "goal formula")?;
                    conj.push(self.decode(&fj)?);
                }
                disjuncts.push(build::and(&conj));
            }
            Ok(build::or(&disjuncts))
        }
    }

    /// Checks satisfiability of `t` with a fresh Z3 solver in this context.
    pub(crate) fn check_sat(&mut self, t: &Term, timeout_ms: u64) -> Res<SatResult> {
        if t.sort != Sort::Bool {
            return Err(unsupported("satisfiability of a non-Boolean term"));
        }
        let f = self.encode(t)?;
        let c = self.c();
        // SAFETY: all objects are live and of this context.
        unsafe {
            let s = self.own(ffi::Z3_mk_solver(c), "solver")?;
            ffi::Z3_solver_assert(c, s.p, f.p);
            self.check_ok("assert")?;
            Ok(self.solver_check(&s, timeout_ms))
        }
    }

    /// Solves constrained Horn clauses with Z3's Horn engine (Spacer). `Ok(Some(vs))`: they are
    /// satisfiable and `vs[i]` is the model's interpretation of `queries[i]` (an application
    /// of a clause predicate to variables, so a formula over those variables); `Ok(None)`: they
    /// are not (the error is reachable).
    fn solve_horn(&mut self, clauses: &[Term], queries: &[Term], timeout_ms: u64) -> Res<Option<Vec<Term>>> {
        let c = self.c();
        let logic = self.symbol("HORN")?;
        // SAFETY: live context and symbol.
        let s = self.own(unsafe { ffi::Z3_mk_solver_for_logic(c, logic) }, "Horn solver")?;
        // Spacer always: with only finite sorts (bit-vectors) Z3 would pick its Datalog
        // engine, which enumerates tables of 2^32 rows and writes warnings to stdout
        let (key, engine) = (self.symbol("engine")?, self.symbol("spacer")?);
        // SAFETY: live context.
        let params = self.own(unsafe { ffi::Z3_mk_params(c) }, "parameters")?;
        // SAFETY: live parameter set, symbols and solver.
        unsafe {
            ffi::Z3_params_set_symbol(c, params.p, key, engine);
            ffi::Z3_solver_set_params(c, s.p, params.p);
        }
        self.check_ok("Horn engine")?;
        for clause in clauses {
            let a = self.encode(clause)?;
            // SAFETY: live solver and AST.
            unsafe { ffi::Z3_solver_assert(c, s.p, a.p) };
            self.check_ok("assert")?;
        }
        match self.solver_check(&s, timeout_ms) {
            SatResult::Sat => {}
            SatResult::Unsat => return Ok(None),
            SatResult::Unknown(reason) => return Err(SolverError::Failure(format!("the Horn solver: {reason}"))),
        }
        // SAFETY: live solver after a sat check.
        let model = self.own(unsafe { ffi::Z3_solver_get_model(c, s.p) }, "model")?;
        let mut out = Vec::with_capacity(queries.len());
        for q in queries {
            let a = self.encode(q)?;
            let mut v: Option<ffi::Z3_ast> = None;
            // SAFETY: live model and AST; `v` is an out-parameter (see `Solver::model`). Without
            // model completion the query's variables stay symbolic.
            let ok = unsafe { ffi::Z3_model_eval(c, model.p, a.p, false, (&raw mut v).cast::<ffi::Z3_ast>()) };
            if !ok {
                return Err(SolverError::Failure("no interpretation of a Horn predicate".into()));
            }
            let v = self.ast(v, "interpretation")?;
            out.push(self.decode(&v)?);
        }
        Ok(Some(out))
    }

    /// Checks the solver `s`, interrupting it after `timeout_ms` (0: no limit).
    fn solver_check(&self, s: &Owned<ffi::Z3_solver>, timeout_ms: u64) -> SatResult {
        let c = self.c();
        // SAFETY: live solver.
        let r = with_deadline(c, timeout_ms, || unsafe { ffi::Z3_solver_check(c, s.p) });
        if let Some(e) = self.error() {
            return SatResult::Unknown(e);
        }
        match r {
            ffi::Z3_L_TRUE => SatResult::Sat,
            ffi::Z3_L_FALSE => SatResult::Unsat,
            // SAFETY: live solver.
            _ => SatResult::Unknown(read_str(unsafe { ffi::Z3_solver_get_reason_unknown(c, s.p) }).unwrap_or_else(|| "unknown".into())),
        }
    }
}

impl Drop for Z3Ctx {
    fn drop(&mut self) {
        // Caches hold Rcs to the context; clearing them first is not required for safety
        // (the context outlives every Owned), only for prompt release.
        self.terms.clear();
        self.funcs.clear();
        self.sorts.clear();
    }
}

/// State of one Z3 -> Term translation.
struct Back {
    /// Bound variables of enclosing quantifiers, outermost first.
    env: Vec<Term>,
    model: Option<Owned<ffi::Z3_model>>,
}

impl Back {
    /// Translates `root` (iteratively over applications; recursion only enters quantifier
    /// bodies and model values, whose nesting `depth` is bounded).
    fn go(&mut self, cx: &mut Z3Ctx, root: ffi::Z3_ast, memo: &mut HashMap<c_uint, Term>, depth: usize) -> Res<Term> {
        if depth > MAX_NESTING {
            return Err(unsupported("Z3 quantifiers nested too deeply"));
        }
        let c = cx.c();
        let mut stack: Vec<(ffi::Z3_ast, bool)> = vec![(root, false)];
        while let Some((a, expanded)) = stack.pop() {
            // SAFETY: `a` is a live AST of `cx` (held by the caller or by its parent).
            let (id, kind) = unsafe { (ffi::Z3_get_ast_id(c, a), ffi::Z3_get_ast_kind(c, a)) };
            if memo.contains_key(&id) {
                continue;
            }
            if kind == ffi::AstKind::App && !expanded {
                stack.push((a, true));
                // SAFETY: `a` is an application.
                let app = cx.check_ptr(unsafe { ffi::Z3_to_app(c, a) }, "to_app")?;
                for i in 0..unsafe { ffi::Z3_get_app_num_args(c, app) } {
                    // SAFETY: i < number of arguments.
                    let arg = cx.check_ptr(unsafe { ffi::Z3_get_app_arg(c, app, i) }, "arg")?;
                    stack.push((arg, false));
                }
                continue;
            }
            let t = match kind {
                ffi::AstKind::Numeral => self.numeral(cx, a)?,
                ffi::AstKind::Var => {
                    // SAFETY: `a` is a variable.
                    let idx = unsafe { ffi::Z3_get_index_value(c, a) } as usize;
                    let n = self.env.len();
                    if idx >= n {
                        return Err(unsupported("loose de Bruijn index"));
                    }
                    self.env[n - 1 - idx].clone()
                }
                ffi::AstKind::Quantifier => self.quantifier(cx, a, depth)?,
                ffi::AstKind::App => self.app(cx, a, memo, depth)?,
                k => return Err(unsupported(format!("Z3 AST kind {}", k as u32))),
            };
            memo.insert(id, t);
        }
        // SAFETY: live AST.
        let id = unsafe { ffi::Z3_get_ast_id(c, root) };
        memo.get(&id).cloned().ok_or_else(|| SolverError::Failure("Z3 term not translated".into()))
    }

    fn numeral(&mut self, cx: &Z3Ctx, a: ffi::Z3_ast) -> Res<Term> {
        let c = cx.c();
        // SAFETY: live AST.
        let sort = cx.sort_back(cx.check_ptr(unsafe { ffi::Z3_get_sort(c, a) }, "sort")?, 0)?;
        // SAFETY: `a` is a numeral.
        match &sort {
            Sort::Float(e, m) => return fp_numeral(cx, a, *e, *m),
            Sort::Uninterpreted(n) if &**n == ROUNDING_MODE => {
                let kind = cx.app_kind(a)?;
                return decode_fp(cx, kind, None, &[]).ok_or_else(|| unsupported("rounding mode"));
            }
            _ => {}
        }
        // SAFETY: `a` is a numeral.
        let s =
            read_str(unsafe { ffi::Z3_get_numeral_string(c, a) }).ok_or_else(|| unsupported(format!("numeral {}", cx.ast_string(a))))?;
        match sort {
            Sort::Int => s.parse::<BigInt>().map(build::int_big).map_err(|_| unsupported(format!("integer {s}"))),
            Sort::Real => s.parse::<BigRational>().map(build::real).map_err(|_| unsupported(format!("rational {s}"))),
            Sort::BitVec(w) => s.parse::<BigInt>().map(|v| bv::lit(&v, w)).map_err(|_| unsupported(format!("bit-vector {s}"))),
            other => Err(unsupported(format!("numeral of sort {other}"))),
        }
    }

    fn quantifier(&mut self, cx: &mut Z3Ctx, a: ffi::Z3_ast, depth: usize) -> Res<Term> {
        let c = cx.c();
        // SAFETY: `a` is a quantifier AST.
        let (forall, exists, n) =
            unsafe { (ffi::Z3_is_quantifier_forall(c, a), ffi::Z3_is_quantifier_exists(c, a), ffi::Z3_get_quantifier_num_bound(c, a)) };
        let q = match (forall, exists) {
            (true, _) => Quantifier::Forall,
            (_, true) => Quantifier::Exists,
            _ => return Err(unsupported("lambda")),
        };
        let mut vars = Vec::new();
        for i in 0..n {
            // SAFETY: i < number of bound variables.
            let (name, s) = unsafe { (ffi::Z3_get_quantifier_bound_name(c, a, i), ffi::Z3_get_quantifier_bound_sort(c, a, i)) };
            let name = cx.symbol_name(cx.check_ptr(name, "bound name")?);
            let sort = cx.sort_back(cx.check_ptr(s, "bound sort")?, 0)?;
            vars.push(Term::fresh(&name, sort));
        }
        // SAFETY: quantifier AST.
        let body = cx.check_ptr(unsafe { ffi::Z3_get_quantifier_body(c, a) }, "quantifier body")?;
        let outer = self.env.len();
        self.env.extend(vars.iter().cloned());
        let b = self.go(cx, body, &mut HashMap::new(), depth + 1);
        self.env.truncate(outer);
        Ok(build::quant(q, &vars, &b?))
    }

    fn app(&mut self, cx: &mut Z3Ctx, a: ffi::Z3_ast, memo: &mut HashMap<c_uint, Term>, depth: usize) -> Res<Term> {
        let c = cx.c();
        // SAFETY: `a` is an application; the declaration and arguments live as long as `a`.
        let (app, decl, kind, n) = unsafe {
            let app = cx.check_ptr(ffi::Z3_to_app(c, a), "to_app")?;
            let decl = cx.check_ptr(ffi::Z3_get_app_decl(c, app), "decl")?;
            (app, decl, ffi::get_decl_kind(c, decl), ffi::Z3_get_app_num_args(c, app))
        };
        if kind == ffi::op::AS_ARRAY {
            return self.as_array(cx, a, depth);
        }
        let mut args = Vec::with_capacity(n as usize);
        for i in 0..n {
            // SAFETY: i < n.
            let arg = cx.check_ptr(unsafe { ffi::Z3_get_app_arg(c, app, i) }, "arg")?;
            // SAFETY: live AST.
            let id = unsafe { ffi::Z3_get_ast_id(c, arg) };
            args.push(memo.get(&id).cloned().ok_or_else(|| SolverError::Failure("argument not translated".into()))?);
        }
        let bad = |cx: &Z3Ctx| unsupported(format!("Z3 term {}", cx.ast_string(a)));
        let t = match (kind, args.as_slice()) {
            (ffi::op::TRUE, []) => build::tt(),
            (ffi::op::FALSE, []) => build::ff(),
            (ffi::op::EQ | ffi::op::IFF | ffi::op::OEQ, [x, y]) => build::eq(x, y),
            (ffi::op::DISTINCT, _) => build::distinct(&args),
            (ffi::op::ITE, [x, y, z]) => build::ite(x, y, z),
            (ffi::op::AND, _) => build::and(&args),
            (ffi::op::OR, _) => build::or(&args),
            (ffi::op::XOR, [x, y]) => build::not(&build::eq(x, y)),
            (ffi::op::NOT, [x]) => build::not(x),
            (ffi::op::IMPLIES, [x, y]) => build::implies(x, y),
            (ffi::op::LE, [x, y]) => build::le(x, y),
            (ffi::op::GE, [x, y]) => build::ge(x, y),
            (ffi::op::LT, [x, y]) => build::lt(x, y),
            (ffi::op::GT, [x, y]) => build::gt(x, y),
            (ffi::op::ADD, [_, ..]) => build::add(&args),
            (ffi::op::SUB, [first, rest @ ..]) => rest.iter().fold(first.clone(), |acc, x| build::sub(&acc, x)),
            (ffi::op::UMINUS, [x]) => build::neg(x),
            (ffi::op::MUL, [_, ..]) => build::mul(&args),
            (ffi::op::DIV, [x, y]) => build::real_div(x, y),
            (ffi::op::IDIV, [x, y]) => build::int_div(x, y),
            (ffi::op::MOD, [x, y]) => build::modulo(x, y),
            // Z3: (rem x y) = (ite (>= y 0) (mod x y) (- (mod x y)))
            (ffi::op::REM, [x, y]) => {
                let m = build::modulo(x, y);
                build::ite(&build::ge(y, &build::int(0)), &m, &build::neg(&m))
            }
            (ffi::op::TO_REAL, [x]) => build::to_real(x),
            (ffi::op::TO_INT, [x]) => build::to_int(x),
            (ffi::op::IS_INT, [x]) => build::eq(&build::to_real(&build::to_int(x)), x),
            // x^n for a literal 1 <= n <= 64 is a product (Z3's simplifier writes x*x as x^2)
            (ffi::op::POWER, [x, n]) => match n.as_rational() {
                Some(r) if r.is_integer() => match r.to_integer().to_usize() {
                    Some(k @ 1..=64) => build::mul(&vec![x.clone(); k]),
                    _ => return Err(bad(cx)),
                },
                _ => return Err(bad(cx)),
            },
            (k, _) if (ffi::op::BV_FIRST..=ffi::op::BV_LAST).contains(&k) => decode_bv(cx, k, decl, &args).ok_or_else(|| bad(cx))?,
            (k @ ffi::op::FPA_NUM..=ffi::op::FPA_MINUS_ZERO, []) => {
                // SAFETY: live AST.
                let sort = cx.sort_back(cx.check_ptr(unsafe { ffi::Z3_get_sort(c, a) }, "sort")?, 0)?;
                match sort {
                    Sort::Float(e, m) => fp_numeral(cx, a, e, m)?,
                    _ => return Err(unsupported(format!("floating-point value of kind {k}"))),
                }
            }
            (k, _) if (ffi::op::FPA_FIRST..=ffi::op::FPA_LAST).contains(&k) => {
                decode_fp(cx, k, Some(decl), &args).ok_or_else(|| bad(cx))?
            }
            (ffi::op::SELECT, [x, y]) => build::select(x, y),
            (ffi::op::STORE, [x, y, z]) => build::store(x, y, z),
            (ffi::op::CONST_ARRAY, [v]) => {
                // SAFETY: live AST.
                let s = cx.sort_back(cx.check_ptr(unsafe { ffi::Z3_get_sort(c, a) }, "sort")?, 0)?;
                build::const_array(&s, v)
            }
            (k, _) if k == cx.uninterpreted => self.symbol_app(cx, decl, &args).map_err(|_| bad(cx))?,
            _ => return Err(bad(cx)),
        };
        Ok(t)
    }

    /// An uninterpreted constant or function known to the context.
    fn symbol_app(&mut self, cx: &Z3Ctx, decl: ffi::Z3_func_decl, args: &[Term]) -> Res<Term> {
        // SAFETY: live declaration.
        let name = cx.symbol_name(cx.check_ptr(unsafe { ffi::Z3_get_decl_name(cx.c(), decl) }, "decl name")?);
        match cx.names.get(&name) {
            Some(Owner::Var(v)) if args.is_empty() => Ok(v.clone()),
            Some(Owner::Func(fd)) if fd.domain.len() == args.len() => Ok(build::apply(fd, args)),
            _ => Err(unsupported(format!("unknown symbol {name}"))),
        }
    }

    /// A model's `(_ as-array f)` as a chain of stores over a constant array.
    fn as_array(&mut self, cx: &mut Z3Ctx, a: ffi::Z3_ast, depth: usize) -> Res<Term> {
        let model = self.model.clone().ok_or_else(|| unsupported("as-array outside a model"))?;
        let c = cx.c();
        // SAFETY: live AST, model and interpretation objects of this context.
        unsafe {
            let sort = cx.sort_back(cx.check_ptr(ffi::Z3_get_sort(c, a), "sort")?, 0)?;
            let f = cx.check_ptr(ffi::Z3_get_as_array_func_decl(c, a), "as-array decl")?;
            let interp = cx.own(ffi::Z3_model_get_func_interp(c, model.p, f), "func interp")?;
            let els = cx.check_ptr(ffi::Z3_func_interp_get_else(c, interp.p), "else value")?;
            let mut arr = build::const_array(&sort, &self.go(cx, els, &mut HashMap::new(), depth + 1)?);
            for i in 0..ffi::Z3_func_interp_get_num_entries(c, interp.p) {
                let e = cx.own(ffi::Z3_func_interp_get_entry(c, interp.p, i), "entry")?;
                if ffi::Z3_func_entry_get_num_args(c, e.p) != 1 {
                    return Err(unsupported("multi-dimensional array value"));
                }
                let k = cx.check_ptr(ffi::Z3_func_entry_get_arg(c, e.p, 0), "entry arg")?;
                let v = cx.check_ptr(ffi::Z3_func_entry_get_value(c, e.p), "entry value")?;
                let k = self.go(cx, k, &mut HashMap::new(), depth + 1)?;
                let v = self.go(cx, v, &mut HashMap::new(), depth + 1)?;
                arr = build::store(&arr, &k, &v);
            }
            Ok(arr)
        }
    }
}

/// A floating-point value as the literal of its IEEE pattern (NaN: the quiet NaN with only the
/// top significand bit set).
fn fp_numeral(cx: &Z3Ctx, a: ffi::Z3_ast, e: u32, m: u32) -> Res<Term> {
    use ffi::op::{FPA_MINUS_INF, FPA_MINUS_ZERO, FPA_NAN, FPA_PLUS_INF, FPA_PLUS_ZERO};
    let c = cx.c();
    let one = || BigInt::from(1);
    let (sign, infinite) = (one() << (e + m - 1), ((one() << e) - 1) << (m - 1));
    let kind = cx.app_kind(a)?;
    let special = match kind {
        FPA_NAN => Some(&infinite | (one() << (m - 2))),
        FPA_PLUS_INF => Some(infinite.clone()),
        FPA_MINUS_INF => Some(&sign | &infinite),
        FPA_PLUS_ZERO => Some(BigInt::from(0)),
        FPA_MINUS_ZERO => Some(sign.clone()),
        _ => None,
    };
    if let Some(bits) = special {
        return Ok(fp::lit(&bits, e, m));
    }
    let part = |p: Option<ffi::Z3_ast>, what: &str| -> Res<BigInt> {
        let p = cx.check_ptr(p, what)?;
        // SAFETY: `p` is a bit-vector numeral Z3 just returned.
        let s = read_str(unsafe { ffi::Z3_get_numeral_string(c, p) }).ok_or_else(|| unsupported(format!("{what} of a float")))?;
        s.parse::<BigInt>().map_err(|_| unsupported(format!("{what} {s}")))
    };
    // SAFETY: `a` is a floating-point numeral other than NaN.
    let (sign, exp, sig) = unsafe {
        (
            part(ffi::Z3_fpa_get_numeral_sign_bv(c, a), "sign")?,
            part(ffi::Z3_fpa_get_numeral_exponent_bv(c, a, true), "exponent")?,
            part(ffi::Z3_fpa_get_numeral_significand_bv(c, a), "significand")?,
        )
    };
    Ok(fp::lit(&((sign << (e + m - 1)) | (exp << (m - 1)) | sig), e, m))
}

/// The sort of rounding modes, which terms have only as markers (see [`rounding_marker`]).
const ROUNDING_MODE: &str = "RoundingMode";

/// A rounding-mode constant, kept as a marker argument of the operator that takes it.
fn rounding_marker(name: &str) -> Term {
    Term::var(name, Sort::Uninterpreted(ROUNDING_MODE.into()))
}

/// A floating-point application of declaration kind `k` (libz3 4.8.12 numbering) with the
/// rounding modes C uses; `None` for others.
fn decode_fp(cx: &Z3Ctx, k: u32, decl: Option<ffi::Z3_func_decl>, args: &[Term]) -> Option<Term> {
    use ffi::op::*;
    // SAFETY: live declaration; its integer parameters are read only for indexed operators.
    let param = |i: c_uint| decl.map_or(0, |d| unsafe { ffi::Z3_get_decl_int_parameter(cx.c(), d, i) } as u32);
    let rounded = |rm: &str| match args {
        [m, rest @ ..] if *m == rounding_marker(rm) => Some(rest),
        _ => None,
    };
    let float_sort = |t: &Term| matches!(t.sort, Sort::Float(..));
    let bin = |op: FpOp, xs: &[Term]| match xs {
        [x, y] => Some(fp::bin(op, x, y)),
        _ => None,
    };
    let un = |op: FpOp, xs: &[Term]| match xs {
        [_] => Some(fp::app(op, xs)),
        _ => None,
    };
    match k {
        FPA_RM_NEAREST_TIES_TO_EVEN => Some(rounding_marker("RNE")),
        FPA_RM_TOWARD_ZERO => Some(rounding_marker("RTZ")),
        FPA_ADD => bin(FpOp::Add, rounded("RNE")?),
        FPA_SUB => bin(FpOp::Sub, rounded("RNE")?),
        FPA_MUL => bin(FpOp::Mul, rounded("RNE")?),
        FPA_DIV => bin(FpOp::Div, rounded("RNE")?),
        FPA_NEG => un(FpOp::Neg, args),
        FPA_EQ => bin(FpOp::Eq, args),
        FPA_LT => bin(FpOp::Lt, args),
        FPA_LE => bin(FpOp::Leq, args),
        FPA_GT => bin(FpOp::Lt, &[args.get(1)?.clone(), args.first()?.clone()]),
        FPA_GE => bin(FpOp::Leq, &[args.get(1)?.clone(), args.first()?.clone()]),
        FPA_IS_NAN => un(FpOp::IsNaN, args),
        FPA_IS_ZERO => un(FpOp::IsZero, args),
        FPA_ROUND_TO_INTEGRAL => un(FpOp::Trunc, rounded("RTZ")?),
        FPA_TO_SBV => un(FpOp::ToSigned(param(0)), rounded("RTZ")?),
        FPA_TO_UBV => un(FpOp::ToUnsigned(param(0)), rounded("RTZ")?),
        FPA_TO_FP_UNSIGNED => un(FpOp::FromUnsigned(param(0), param(1)), rounded("RNE")?),
        FPA_TO_FP => match args {
            [x] if matches!(x.sort, Sort::BitVec(_)) => un(FpOp::FromBits(param(0), param(1)), args),
            _ => {
                let xs = rounded("RNE")?;
                let op = if float_sort(xs.first()?) { FpOp::FromFloat(param(0), param(1)) } else { FpOp::FromSigned(param(0), param(1)) };
                un(op, xs)
            }
        },
        // `(fp sign exponent significand)`
        FPA_FP => match args {
            [s, e, m] => {
                let bits = bv::bin(BvOp::Concat, &bv::bin(BvOp::Concat, s, e), m);
                Some(fp::app(FpOp::FromBits(bv::width(e), bv::width(m) + 1), &[bits]))
            }
            _ => None,
        },
        _ => None,
    }
}

/// A bit-vector application of declaration kind `k` (libz3 4.8.12 numbering).
fn decode_bv(cx: &Z3Ctx, k: u32, decl: ffi::Z3_func_decl, args: &[Term]) -> Option<Term> {
    use ffi::op::*;
    // SAFETY: live declaration; its integer parameters are read only for indexed operators.
    let param = |i: c_uint| unsafe { ffi::Z3_get_decl_int_parameter(cx.c(), decl, i) } as u32;
    let (first, rest) = args.split_first()?;
    let chain = |op: BvOp| Some(rest.iter().fold(first.clone(), |acc, x| bv::bin(op, &acc, x)));
    let bitwise = |op: Op| Some(rest.iter().fold(first.clone(), |acc, x| build::bv_bitwise(op.clone(), &acc, x)));
    let flip = |op: BvOp| Some(bv::bin(op, args.get(1)?, first));
    match k {
        BADD => chain(BvOp::Add),
        BSUB => chain(BvOp::Sub),
        BMUL => chain(BvOp::Mul),
        BCONCAT => chain(BvOp::Concat),
        BAND => bitwise(Op::BvAnd),
        BOR => bitwise(Op::BvOr),
        BXOR => bitwise(Op::BvXor),
        BNEG => Some(bv::app(BvOp::Neg, args)),
        BNOT => Some(bv::app(BvOp::Not, args)),
        BSDIV | BSDIV_I => chain(BvOp::SDiv),
        BUDIV | BUDIV_I => chain(BvOp::UDiv),
        BSREM | BSREM_I => chain(BvOp::SRem),
        BUREM | BUREM_I => chain(BvOp::URem),
        BSHL => chain(BvOp::Shl),
        BLSHR => chain(BvOp::LShr),
        BASHR => chain(BvOp::AShr),
        ULEQ => chain(BvOp::Ule),
        SLEQ => chain(BvOp::Sle),
        ULT => chain(BvOp::Ult),
        SLT => chain(BvOp::Slt),
        UGEQ => flip(BvOp::Ule),
        SGEQ => flip(BvOp::Sle),
        UGT => flip(BvOp::Ult),
        SGT => flip(BvOp::Slt),
        ZERO_EXT => Some(bv::app(BvOp::ZeroExt(param(0)), args)),
        SIGN_EXT => Some(bv::app(BvOp::SignExt(param(0)), args)),
        EXTRACT => Some(bv::app(BvOp::Extract(param(0), param(1)), args)),
        BV2INT => Some(build::bv2nat(first)),
        INT2BV => Some(build::int2bv(param(0), first)),
        _ => None,
    }
}

/// Whether a sort mentions an uninterpreted sort (whose values we cannot name).
fn has_uninterpreted(s: &Sort) -> bool {
    match s {
        Sort::Uninterpreted(_) => true,
        Sort::Array(i, e) => has_uninterpreted(i) || has_uninterpreted(e),
        _ => false,
    }
}

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

/// Solves constrained Horn clauses (universally quantified implications over uninterpreted
/// predicates) with Z3's Horn engine in a fresh context, within `timeout_ms` (0: no limit).
/// `Ok(Some(vs))`: satisfiable, `vs[i]` the interpretation of the predicate application
/// `queries[i]`; `Ok(None)`: unsatisfiable; an error when Z3 gave up or failed.
pub fn solve_horn(clauses: &[Term], queries: &[Term], timeout_ms: u64) -> Result<Option<Vec<Term>>, SolverError> {
    Z3Ctx::new()?.solve_horn(clauses, queries, timeout_ms)
}

/// Translates a term to Z3 and back (for tests and diagnostics).
pub fn round_trip(t: &Term) -> Result<Term, SolverError> {
    with_thread_ctx(|cx| {
        let a = cx.encode(t)?;
        cx.decode(&a)
    })
}

/// The parts of a solver that exist once Z3 gave us a context.
struct Inner {
    cx: Z3Ctx,
    solver: Owned<ffi::Z3_solver>,
    /// AST id of a tracking constant -> (the constant, the user's name).
    trackers: HashMap<c_uint, (Owned<ffi::Z3_ast>, String)>,
}

/// An incremental Z3 solver with its own Z3 context.
pub struct Z3Solver {
    inner: Result<Inner, String>,
    timeout_ms: u64,
    scopes: usize,
    /// Assertions that could not be translated, with the scope depth they were made at.
    poisoned: Vec<(usize, String)>,
    last: Option<SatResult>,
    stats: crate::solver::SolverStats,
}

// SAFETY: a Z3 context may be used from any thread as long as it is not used concurrently.
// All objects of this solver's context (including every `Rc<RawCtx>` clone) are owned by the
// solver and never handed out, so moving the solver moves all of them together.
unsafe impl Send for Z3Solver {}

impl Default for Z3Solver {
    fn default() -> Self {
        Z3Solver::new()
    }
}

impl Z3Solver {
    /// A new solver with its own Z3 context and no timeout.
    pub fn new() -> Z3Solver {
        let inner = Z3Ctx::new().and_then(|cx| {
            // SAFETY: live context.
            let s = cx.own(unsafe { ffi::Z3_mk_solver(cx.c()) }, "solver")?;
            Ok(Inner { cx, solver: s, trackers: HashMap::new() })
        });
        Z3Solver {
            inner: inner.map_err(|e| e.to_string()),
            timeout_ms: 0,
            scopes: 0,
            poisoned: Vec::new(),
            last: None,
            stats: Default::default(),
        }
    }

    fn inner(&mut self) -> Result<&mut Inner, SolverError> {
        self.inner.as_mut().map_err(|e| SolverError::Failure(e.clone()))
    }

    /// Drops every assertion and scope. Until the next `push`, checks run Z3's
    /// non-incremental preprocessing, which decides formulas with `mod` and `div` that its
    /// incremental core can spend seconds on: one-shot queries should reset, not pop.
    pub fn reset(&mut self) {
        self.last = None;
        self.scopes = 0;
        self.poisoned.clear();
        if let Ok(inner) = self.inner() {
            // SAFETY: live solver.
            unsafe { ffi::Z3_solver_reset(inner.cx.c(), inner.solver.p) };
            inner.trackers.clear();
        }
    }

    fn add(&mut self, name: Option<&str>, t: &Term) {
        self.last = None;
        let r = (|| -> Res<()> {
            if t.sort != Sort::Bool {
                return Err(unsupported(format!("asserting non-Boolean term {t}")));
            }
            let inner = self.inner()?;
            let a = inner.cx.encode(t)?;
            let c = inner.cx.c();
            match name {
                None => {
                    // SAFETY: live solver and AST.
                    unsafe { ffi::Z3_solver_assert(c, inner.solver.p, a.p) };
                }
                Some(n) => {
                    let tn = inner.cx.unique_name(&format!("track!{n}"), Owner::Internal);
                    let sort = inner.cx.sort(&Sort::Bool)?;
                    let sym = inner.cx.symbol(&tn)?;
                    // SAFETY: live sort.
                    let p = inner.cx.ast(unsafe { ffi::Z3_mk_const(c, sym, sort.p) }, "tracker")?;
                    // SAFETY: live solver, AST and tracker.
                    unsafe { ffi::Z3_solver_assert_and_track(c, inner.solver.p, a.p, p.p) };
                    // SAFETY: live AST.
                    let id = unsafe { ffi::Z3_get_ast_id(c, p.p) };
                    inner.trackers.insert(id, (p, n.to_string()));
                }
            }
            inner.cx.check_ok("assert")
        })();
        if let Err(e) = r {
            tracing::debug!("z3: assertion dropped: {e}");
            self.poisoned.push((self.scopes, e.to_string()));
        }
    }
}

impl Solver for Z3Solver {
    fn push(&mut self) {
        self.last = None;
        if let Ok(inner) = self.inner() {
            // SAFETY: live solver.
            unsafe { ffi::Z3_solver_push(inner.cx.c(), inner.solver.p) };
        }
        self.scopes += 1;
    }

    fn pop(&mut self) {
        self.last = None;
        if self.scopes == 0 {
            return;
        }
        if let Ok(inner) = self.inner() {
            // SAFETY: live solver with at least one scope.
            unsafe { ffi::Z3_solver_pop(inner.cx.c(), inner.solver.p, 1) };
        }
        self.scopes -= 1;
        let depth = self.scopes;
        self.poisoned.retain(|(d, _)| *d <= depth);
    }

    fn assert(&mut self, t: &Term) {
        self.add(None, t);
    }

    fn assert_named(&mut self, name: &str, t: &Term) {
        self.add(Some(name), t);
    }

    fn check(&mut self) -> SatResult {
        let started = Instant::now();
        let r = if let Some((_, e)) = self.poisoned.first() {
            SatResult::Unknown(format!("untranslatable assertion: {e}"))
        } else {
            let timeout = self.timeout_ms;
            match self.inner() {
                Err(e) => SatResult::Unknown(e.to_string()),
                Ok(inner) => inner.cx.solver_check(&inner.solver, timeout),
            }
        };
        self.stats.record(started, &r);
        self.last = Some(r.clone());
        r
    }

    fn model(&mut self, terms: &[Term]) -> Result<Model, SolverError> {
        if self.last != Some(SatResult::Sat) {
            return Err(SolverError::Failure("no model: the last check was not sat".into()));
        }
        let inner = self.inner()?;
        let c = inner.cx.c();
        // SAFETY: live solver after a sat check.
        let model = inner.cx.own(unsafe { ffi::Z3_solver_get_model(c, inner.solver.p) }, "model")?;
        let mut out = Model::default();
        for t in terms {
            if has_uninterpreted(&t.sort) {
                continue;
            }
            let Ok(a) = inner.cx.encode(t) else { continue };
            let mut v: Option<ffi::Z3_ast> = None;
            // SAFETY: live model and AST; `v` is an out-parameter (`Option<Z3_ast>` has the
            // layout of a nullable pointer, so Z3 may store null in it too).
            let ok = unsafe { ffi::Z3_model_eval(c, model.p, a.p, true, (&raw mut v).cast::<ffi::Z3_ast>()) };
            if !ok || v.is_none() {
                continue;
            }
            let Ok(v) = inner.cx.ast(v, "model value") else { continue };
            if let Ok(val) = inner.cx.decode_value(&v, &model) {
                out.values.insert(t.clone(), val);
            }
        }
        Ok(out)
    }

    fn unsat_core(&mut self) -> Result<Vec<String>, SolverError> {
        if self.last != Some(SatResult::Unsat) {
            return Err(SolverError::Failure("no unsat core: the last check was not unsat".into()));
        }
        let inner = self.inner()?;
        let c = inner.cx.c();
        // SAFETY: live solver after an unsat check.
        let core = inner.cx.own(unsafe { ffi::Z3_solver_get_unsat_core(c, inner.solver.p) }, "core")?;
        let mut names = Vec::new();
        // SAFETY: live vector; indices in range.
        for i in 0..unsafe { ffi::Z3_ast_vector_size(c, core.p) } {
            let a = inner.cx.check_ptr(unsafe { ffi::Z3_ast_vector_get(c, core.p, i) }, "core element")?;
            // SAFETY: live AST.
            let id = unsafe { ffi::Z3_get_ast_id(c, a) };
            if let Some((_, n)) = inner.trackers.get(&id) {
                if !names.contains(n) {
                    names.push(n.clone());
                }
            }
        }
        Ok(names)
    }

    fn set_timeout_ms(&mut self, ms: u64) {
        self.timeout_ms = ms;
    }

    fn stats(&self) -> crate::solver::SolverStats {
        self.stats
    }
}

#[cfg(test)]
#[allow(clippy::cloned_ref_to_slice_refs)]
mod tests {
    use super::*;
    use crate::build::*;
    use crate::simplify::is_equiv;
    use num_traits::Num;
    use std::time::{Duration, Instant};

    fn x() -> Term {
        Term::var("x", Sort::Int)
    }
    fn y() -> Term {
        Term::var("y", Sort::Int)
    }

    #[test]
    fn sat_unsat_and_model_values() {
        let mut s = Z3Solver::new();
        let r = Term::var("r", Sort::Real);
        let b = Term::var("b", Sort::Bool);
        let big = BigInt::from_str_radix("123456789012345678901234567890", 10).unwrap();
        s.assert(&eq(&x(), &int(3)));
        s.assert(&eq(&y(), &int_big(-big.clone())));
        s.assert(&eq(&r, &real(BigRational::new(1.into(), 3.into()))));
        s.assert(&b);
        assert_eq!(s.check(), SatResult::Sat);
        let m = s.model(&[x(), y(), r.clone(), b.clone(), add(&[x(), int(1)])]).unwrap();
        assert_eq!(m.get(&x()), Some(&int(3)));
        assert_eq!(m.get(&y()), Some(&int_big(-big)));
        assert_eq!(m.get(&r), Some(&real(BigRational::new(1.into(), 3.into()))));
        assert_eq!(m.get(&b), Some(&tt()));
        assert_eq!(m.get(&add(&[x(), int(1)])), Some(&int(4)));
        s.assert(&lt(&x(), &int(0)));
        assert_eq!(s.check(), SatResult::Unsat);
        assert!(s.model(&[x()]).is_err());
    }

    #[test]
    fn array_and_uninterpreted_model_values() {
        let mut s = Z3Solver::new();
        let a = Term::var("a", Sort::array(Sort::Int, Sort::Int));
        let u = Sort::Uninterpreted(Arc::from("U"));
        let p = Term::var("p", u.clone());
        let f = Arc::new(FuncDecl { name: Arc::from("f"), domain: vec![u], range: Sort::Int });
        s.assert(&eq(&select(&a, &int(1)), &int(5)));
        s.assert(&eq(&select(&a, &int(2)), &int(7)));
        s.assert(&eq(&apply(&f, &[p.clone()]), &int(9)));
        assert_eq!(s.check(), SatResult::Sat);
        let m = s.model(&[a.clone(), p.clone(), apply(&f, &[p.clone()])]).unwrap();
        assert!(m.get(&p).is_none(), "uninterpreted values are skipped");
        assert_eq!(m.get(&apply(&f, &[p])), Some(&int(9)));
        let av = m.get(&a).expect("array value");
        assert!(crate::subst::free_vars(av).is_empty());
        let ok = and(&[eq(&select(av, &int(1)), &int(5)), eq(&select(av, &int(2)), &int(7))]);
        assert_eq!(crate::simplify::is_valid(&ok, 1000), Some(true));
    }

    #[test]
    fn unsat_core_names_the_right_subset() {
        let mut s = Z3Solver::new();
        s.assert_named("pos", &gt(&x(), &int(0)));
        s.assert_named("other", &eq(&y(), &int(1)));
        s.assert_named("neg", &lt(&x(), &int(0)));
        assert_eq!(s.check(), SatResult::Unsat);
        let mut core = s.unsat_core().unwrap();
        core.sort();
        assert_eq!(core, vec!["neg".to_string(), "pos".to_string()]);
    }

    #[test]
    fn push_pop_and_untranslatable_assertions() {
        let mut s = Z3Solver::new();
        s.pop(); // popping with no scope is ignored
        s.assert(&gt(&x(), &int(0)));
        s.push();
        s.assert(&lt(&x(), &int(0)));
        assert_eq!(s.check(), SatResult::Unsat);
        s.pop();
        assert_eq!(s.check(), SatResult::Sat);
        s.push();
        // ill-sorted: Int + Bool
        let bad = Term::mk(Kind::App(Op::Add), vec![x(), tt()], Sort::Int);
        s.assert(&eq(&bad, &int(1)));
        s.assert(&x()); // not a formula
        assert!(matches!(s.check(), SatResult::Unknown(_)));
        s.pop();
        assert_eq!(s.check(), SatResult::Sat);
    }

    #[test]
    fn timeout_gives_unknown() {
        let mut s = Z3Solver::new();
        let z = Term::var("z", Sort::Int);
        let cube = |v: &Term| mul(&[v.clone(), v.clone(), v.clone()]);
        // x^3 + y^3 + z^3 = 33 (first solved in 2019, with 16-digit numbers)
        s.assert(&eq(&add(&[cube(&x()), cube(&y()), cube(&z)]), &int(33)));
        s.set_timeout_ms(200);
        let start = Instant::now();
        assert!(matches!(s.check(), SatResult::Unknown(_)));
        assert!(start.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn decl_kind_numbers_match_the_linked_libz3() {
        // `ffi::op` takes its numbers from z3-sys' `DeclKind` (Z3 5.3 numbering); each must be
        // what the linked libz3 reports for an application of that kind. (OP_IFF and OP_OEQ
        // cannot be built through the API; they sit in the basic range with OP_EQ..OP_IMPLIES.)
        use ffi::op;
        let mut cx = Z3Ctx::new().unwrap();
        let c = cx.c();
        let (si, sr, sb) = (cx.sort(&Sort::Int).unwrap(), cx.sort(&Sort::Real).unwrap(), cx.sort(&Sort::Bool).unwrap());
        let sa = cx.sort(&Sort::array(Sort::Int, Sort::Int)).unwrap();
        let f = cx.func_decl(&Arc::new(FuncDecl { name: Arc::from("f"), domain: vec![Sort::Int], range: Sort::Int })).unwrap();
        let konst = |cx: &Z3Ctx, name: &str, s: &Owned<ffi::Z3_sort>| {
            // SAFETY: live sort.
            cx.ast(unsafe { ffi::Z3_mk_const(c, cx.symbol(name).unwrap(), s.p) }, name).unwrap()
        };
        let (x, y, r, p, q, a) = (
            konst(&cx, "x", &si),
            konst(&cx, "y", &si),
            konst(&cx, "r", &sr),
            konst(&cx, "p", &sb),
            konst(&cx, "q", &sb),
            konst(&cx, "a", &sa),
        );
        let kind = |t: Option<ffi::Z3_ast>| {
            let t = cx.ast(t, "term").unwrap();
            // SAFETY: `t` is a live application.
            unsafe { ffi::get_decl_kind(c, ffi::Z3_get_app_decl(c, ffi::Z3_to_app(c, t.p).unwrap()).unwrap()) }
        };
        let (xy, pq) = ([x.p, y.p], [p.p, q.p]);
        // SAFETY: all arguments are live ASTs of `cx`; each result is owned by `kind` at once.
        let cases = unsafe {
            [
                (op::TRUE, kind(ffi::Z3_mk_true(c))),
                (op::FALSE, kind(ffi::Z3_mk_false(c))),
                (op::EQ, kind(ffi::Z3_mk_eq(c, x.p, y.p))),
                (op::DISTINCT, kind(ffi::Z3_mk_distinct(c, 2, xy.as_ptr()))),
                (op::ITE, kind(ffi::Z3_mk_ite(c, p.p, x.p, y.p))),
                (op::AND, kind(ffi::Z3_mk_and(c, 2, pq.as_ptr()))),
                (op::OR, kind(ffi::Z3_mk_or(c, 2, pq.as_ptr()))),
                (op::XOR, kind(ffi::Z3_mk_xor(c, p.p, q.p))),
                (op::NOT, kind(ffi::Z3_mk_not(c, p.p))),
                (op::IMPLIES, kind(ffi::Z3_mk_implies(c, p.p, q.p))),
                (op::LE, kind(ffi::Z3_mk_le(c, x.p, y.p))),
                (op::GE, kind(ffi::Z3_mk_ge(c, x.p, y.p))),
                (op::LT, kind(ffi::Z3_mk_lt(c, x.p, y.p))),
                (op::GT, kind(ffi::Z3_mk_gt(c, x.p, y.p))),
                (op::ADD, kind(ffi::Z3_mk_add(c, 2, xy.as_ptr()))),
                (op::SUB, kind(ffi::Z3_mk_sub(c, 2, xy.as_ptr()))),
                (op::UMINUS, kind(ffi::Z3_mk_unary_minus(c, x.p))),
                (op::MUL, kind(ffi::Z3_mk_mul(c, 2, xy.as_ptr()))),
                (op::DIV, kind(ffi::Z3_mk_div(c, r.p, r.p))),
                (op::IDIV, kind(ffi::Z3_mk_div(c, x.p, y.p))),
                (op::REM, kind(ffi::Z3_mk_rem(c, x.p, y.p))),
                (op::MOD, kind(ffi::Z3_mk_mod(c, x.p, y.p))),
                (op::TO_REAL, kind(ffi::Z3_mk_int2real(c, x.p))),
                (op::TO_INT, kind(ffi::Z3_mk_real2int(c, r.p))),
                (op::IS_INT, kind(ffi::Z3_mk_is_int(c, r.p))),
                (op::POWER, kind(ffi::Z3_mk_power(c, x.p, y.p))),
                (op::STORE, kind(ffi::Z3_mk_store(c, a.p, x.p, y.p))),
                (op::SELECT, kind(ffi::Z3_mk_select(c, a.p, x.p))),
                (op::CONST_ARRAY, kind(ffi::Z3_mk_const_array(c, si.p, x.p))),
                (op::AS_ARRAY, kind(ffi::Z3_mk_as_array(c, f.p))),
                (op::UNINTERPRETED_4_8_12, kind(Some(x.p))),
            ]
        };
        for (i, (expected, actual)) in cases.into_iter().enumerate() {
            assert_eq!(expected, actual, "case {i}");
        }
        assert_eq!(cx.uninterpreted, op::UNINTERPRETED_4_8_12);
    }

    fn sample_formulas() -> Vec<Term> {
        let r = Term::var("r", Sort::Real);
        let b = Term::var("b", Sort::Bool);
        let a = Term::var("a", Sort::array(Sort::Int, Sort::Int));
        let ar = Term::var("ar", Sort::array(Sort::Int, Sort::Real));
        let f = Arc::new(FuncDecl { name: Arc::from("f"), domain: vec![Sort::Int, Sort::Real], range: Sort::Int });
        let i = Term::fresh("i", Sort::Int);
        let j = Term::fresh("j", Sort::Int);
        let big = BigInt::from_str_radix("-98765432109876543210987654321", 10).unwrap();
        vec![
            and(&[le(&x(), &y()), not(&eq(&x(), &int_big(big)))]),
            or(&[lt(&to_real(&x()), &r), eq(&to_int(&r), &y())]),
            eq(&add(&[x(), mul(&[int(3), y()]), neg(&x())]), &sub(&y(), &int(7))),
            eq(&int_div(&x(), &int(3)), &modulo(&y(), &int(-4))),
            eq(&real_div(&r, &real(BigRational::new(7.into(), 2.into()))), &real(BigRational::new((-5).into(), 3.into()))),
            Term::mk(Kind::App(Op::Implies), vec![b.clone(), gt(&x(), &int(0))], Sort::Bool),
            eq(&ite(&b, &x(), &y()), &int(2)),
            distinct(&[x(), y(), int(0)]),
            eq(&select(&store(&a, &x(), &y()), &int(1)), &int(4)),
            eq(&a, &const_array(&Sort::array(Sort::Int, Sort::Int), &int(0))),
            eq(&select(&ar, &x()), &r),
            eq(&apply(&f, &[x(), r.clone()]), &y()),
            forall(&[i.clone()], &le(&select(&a, &i), &x())),
            exists(&[i.clone()], &and(&[eq(&select(&a, &i), &y()), forall(&[j.clone()], &le(&select(&a, &j), &select(&a, &i)))])),
            // Int/Real mixing without explicit conversion
            Term::mk(Kind::App(Op::Le), vec![x(), r.clone()], Sort::Bool),
        ]
    }

    #[test]
    fn round_trip_preserves_equivalence() {
        for t in sample_formulas() {
            let back = round_trip(&t).unwrap_or_else(|e| panic!("{t}: {e}"));
            assert_eq!(is_equiv(&t, &back, 2000), Some(true), "{t} vs {back}");
        }
    }

    #[test]
    fn independent_solvers_on_threads() {
        let handles: Vec<_> = (0..4)
            .map(|k| {
                let mut s = Z3Solver::new();
                std::thread::spawn(move || {
                    for n in 0..20 {
                        s.push();
                        s.assert(&eq(&x(), &int(k * 100 + n)));
                        assert_eq!(s.check(), SatResult::Sat);
                        assert_eq!(s.model(&[x()]).unwrap().get(&x()), Some(&int(k * 100 + n)));
                        s.pop();
                        let t = exists(&[y()], &and(&[eq(&x(), &mul(&[int(2), y()])), gt(&y(), &int(k))]));
                        assert!(round_trip(&t).is_ok());
                    }
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap();
        }
    }

    #[test]
    fn bit_vector_terms_round_trip_and_get_models() {
        use crate::bv::{self, BvOp};
        let b = Term::var("b", Sort::BitVec(8));
        let lit = |v: i64, w: u32| bv::lit(&BigInt::from(v), w);
        let wide = bv::resize(&b, 32, true);
        let f = and(&[
            bv::bin(BvOp::Slt, &b, &lit(0, 8)),
            eq(&bv::bin(BvOp::AShr, &wide, &lit(1, 32)), &lit(-3, 32)),
            eq(&bv::app(BvOp::Extract(7, 4), &[b.clone()]), &lit(15, 4)),
            eq(&build::bv_bitwise(Op::BvAnd, &b, &lit(3, 8)), &lit(2, 8)),
        ]);
        let back = round_trip(&f).unwrap();
        assert_eq!(is_equiv(&f, &back, 2000), Some(true), "{f} vs {back}");
        let mut s = Z3Solver::new();
        s.assert(&f);
        assert_eq!(s.check(), SatResult::Sat);
        // b = -6 = 0xfa: negative, -6 >> 1 = -3, high nibble 15, low bits 10
        assert_eq!(s.model(&[b.clone()]).unwrap().get(&b), Some(&lit(-6, 8)));
    }

    #[test]
    fn floating_point_terms_round_trip_and_get_models() {
        use crate::bv;
        use crate::fp::{self, FpOp};
        let (x, y) = (Term::var("x", Sort::Float(11, 53)), Term::var("y", Sort::Float(8, 24)));
        let d = |v: f64| fp::from_f64(v, 11, 53).unwrap();
        let i = Term::var("i", Sort::BitVec(32));
        // x + 0.5 == 2.0, y = (float) x, i = (int) (x * 3.0) (truncated: 4)
        let f = and(&[
            fp::bin(FpOp::Eq, &fp::bin(FpOp::Add, &x, &d(0.5)), &d(2.0)),
            eq(&y, &fp::app(FpOp::FromFloat(8, 24), &[x.clone()])),
            eq(&i, &fp::app(FpOp::ToSigned(32), &[fp::bin(FpOp::Mul, &x, &d(3.0))])),
            not(&fp::app(FpOp::IsNaN, &[fp::app(FpOp::Trunc, &[x.clone()])])),
            fp::bin(FpOp::Lt, &fp::app(FpOp::FromSigned(11, 53), &[i.clone()]), &d(5.0)),
        ]);
        let back = round_trip(&f).unwrap();
        assert_eq!(is_equiv(&f, &back, 2000), Some(true), "{f} vs {back}");
        let mut s = Z3Solver::new();
        s.assert(&f);
        assert_eq!(s.check(), SatResult::Sat);
        let m = s.model(&[x.clone(), y.clone(), i.clone()]).unwrap();
        assert_eq!(m.get(&x).and_then(fp::to_f64), Some(1.5));
        assert_eq!(m.get(&y).and_then(fp::to_f64), Some(1.5));
        assert_eq!(m.get(&i), Some(&bv::lit(&BigInt::from(4), 32)));
        // special values come back with their patterns (NaN as the quiet NaN)
        for v in [f64::NAN, f64::INFINITY, -0.0, 5e-324, -1e300] {
            let mut s = Z3Solver::new();
            s.assert(&eq(&x, &d(v)));
            assert_eq!(s.check(), SatResult::Sat);
            let got = s.model(&[x.clone()]).unwrap().get(&x).and_then(fp::to_f64).unwrap();
            assert!(got.to_bits() == v.to_bits() || (v.is_nan() && got.is_nan()), "{v} came back as {got}");
        }
    }

    #[test]
    fn deep_terms_do_not_overflow_the_stack() {
        let x = x();
        let mut t = x.clone();
        for i in 0..5000 {
            let c = Term::var(&format!("c{i}"), Sort::Bool);
            t = ite(&c, &add(&[x.clone(), int(i)]), &t);
        }
        let f = eq(&t, &int(3));
        assert_eq!(round_trip(&f).unwrap(), f);
    }

    #[test]
    fn malformed_terms_are_errors_not_panics() {
        let app = |op: Op, args: Vec<Term>, sort: Sort| Term::mk(Kind::App(op), args, sort);
        let b = Term::var("b", Sort::Bool);
        let f = Arc::new(FuncDecl { name: Arc::from("f"), domain: vec![Sort::Int], range: Sort::Int });
        let bad = vec![
            app(Op::Not, vec![], Sort::Bool),
            app(Op::Ite, vec![b.clone(), x()], Sort::Int),
            app(Op::Eq, vec![x(), b.clone()], Sort::Bool),
            app(Op::Le, vec![x()], Sort::Bool),
            app(Op::Select, vec![x(), y()], Sort::Int),
            app(Op::Store, vec![x()], Sort::Int),
            app(Op::IntDiv, vec![Term::var("r", Sort::Real), x()], Sort::Int),
            app(Op::ConstArray(Sort::Int), vec![x()], Sort::Int),
            app(Op::Apply(f), vec![x(), y()], Sort::Int),
            Term::mk(Kind::Quant(Quantifier::Forall, vec![int(1)]), vec![b.clone()], Sort::Bool),
            Term::mk(Kind::Quant(Quantifier::Forall, vec![x()]), vec![], Sort::Bool),
            Term::var("bv", Sort::BitVec(8)),
        ];
        for t in bad {
            let f = app(Op::Or, vec![b.clone(), t.clone()], Sort::Bool);
            assert!(round_trip(&f).is_err() || t.sort == Sort::BitVec(8), "{f}");
            let _ = crate::simplify::simplify(&f);
            let _ = crate::simplify::simplify_strong(&f, 100);
            let _ = crate::simplify::is_sat(&f, 100);
            let _ = crate::linear::normalize(&f);
            let _ = crate::linear::linearize(&t);
            let mut s = Z3Solver::new();
            s.assert(&f);
            assert!(matches!(s.check(), SatResult::Unknown(_) | SatResult::Sat), "{f}");
            let _ = s.model(&[t.clone(), x()]);
            let _ = s.unsat_core();
        }
    }
}
