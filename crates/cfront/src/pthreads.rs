//! POSIX threads: `pthread_create`, `pthread_join` and `pthread_exit` as the fork, join and exit
//! of `ir`, the thread
//! id a counter gives each started thread, mutexes as lock words (`#lock[base][offset]` of the
//! mutex object, 0 when free: every mutex is free at the start, as a `PTHREAD_MUTEX_INITIALIZER`
//! or `pthread_mutex_init` makes it; a lock array of its own keeps the locks apart from the
//! data in memory), condition variables whose waits may wake at any time, and SV-COMP's atomic
//! sections.

use crate::error::{CError, Result};
use crate::func::{Fx, Val};
use crate::memory::{cell_get, cell_set, MemLoc};
use crate::tast::{Expr, ExprKind};
use crate::types::CType;
use ir::{Label, SourcePos, Stmt, ThreadOp};
use smt::build::{add, eq, int, ite};
use smt::{Sort, Term};

/// The number of threads started so far: the id of the last one.
pub(crate) fn thread_counter() -> Term {
    Term::var("#thread_id", Sort::Int)
}

/// The lock words of the mutexes: `base -> offset -> 0 (free) or 1 (held)`.
pub(crate) fn locks() -> Term {
    Term::var("#lock", Sort::array(Sort::Int, Sort::array(Sort::Int, Sort::Int)))
}

/// The variables of the thread model and their initial values.
pub(crate) fn thread_vars_init() -> Vec<(Term, Term)> {
    let free = smt::build::const_array(&Sort::array(Sort::Int, Sort::Int), &int(0));
    vec![(thread_counter(), int(0)), (locks(), smt::build::const_array(&locks().sort, &free))]
}

/// The `errno` value of a mutex that another thread holds.
const EBUSY: i64 = 16;

/// Thread functions whose meaning is not modelled: a call is unsupported.
const UNSUPPORTED: &[&str] = &[
    "pthread_self",
    "pthread_cancel",
    "pthread_kill",
    "pthread_detach",
    "pthread_once",
    "pthread_key_create",
    "pthread_getspecific",
    "pthread_setspecific",
    "pthread_cond_timedwait",
    "pthread_mutex_timedlock",
    "pthread_rwlock_init",
    "pthread_rwlock_rdlock",
    "pthread_rwlock_wrlock",
    "pthread_rwlock_unlock",
    "pthread_barrier_init",
    "pthread_barrier_wait",
    "pthread_spin_lock",
    "pthread_spin_unlock",
    "signal",
    "sigaction",
];

impl Fx<'_> {
    /// A call of a thread function of `pthread.h` or an SV-COMP atomic-section marker; `None` if
    /// `name` is none of them.
    pub(crate) fn thread_call(&mut self, name: &str, args: &[Expr], ret_ty: &CType, pos: &SourcePos) -> Result<Option<Val>> {
        match name {
            "pthread_create" => self.pthread_create(args, pos)?,
            "pthread_join" => self.pthread_join(args, pos)?,
            "pthread_exit" => {
                // the thread ends with this result (the entry's thread ends, the others go on)
                let [value] = args else { return Err(CError::syntax(pos, "`pthread_exit` expects one argument")) };
                let values = self.rvalue(value)?.flatten(self.tr.sem());
                self.emit_label(Label::Thread(ThreadOp::Exit { values }), pos, None);
                self.terminate(pos);
                return Ok(Some(Val::Void));
            }
            "pthread_mutex_lock" => {
                let word = self.lock_word(args, pos)?;
                self.emit_label(Label::Thread(ThreadOp::AtomicBegin), pos, None);
                self.emit(Stmt::Assume(eq(&word.get(), &int(0))), pos, None);
                self.emit(word.set(&int(1)), pos, None);
                self.emit_label(Label::Thread(ThreadOp::AtomicEnd), pos, None);
            }
            "pthread_mutex_unlock" | "pthread_mutex_init" => {
                let word = self.lock_word(args, pos)?;
                self.emit(word.set(&int(0)), pos, None);
            }
            "pthread_mutex_trylock" => {
                let word = self.lock_word(args, pos)?;
                let free = eq(&word.get(), &int(0));
                let r = self.temp_of(Sort::Int);
                self.emit_label(Label::Thread(ThreadOp::AtomicBegin), pos, None);
                self.emit(Stmt::Assign(vec![(r.clone(), ite(&free, &int(0), &int(EBUSY)))]), pos, None);
                self.emit(word.set(&ite(&free, &int(1), &word.get())), pos, None);
                self.emit_label(Label::Thread(ThreadOp::AtomicEnd), pos, None);
                return Ok(Some(self.int_result(&r, ret_ty)));
            }
            "pthread_cond_wait" => {
                // releases the mutex, may wake at any time (POSIX allows spurious wake-ups), and
                // takes the mutex again
                let [cond, mutex] = args else { return Err(CError::syntax(pos, "`pthread_cond_wait` expects two arguments")) };
                self.effect(cond)?;
                self.thread_call("pthread_mutex_unlock", std::slice::from_ref(mutex), ret_ty, pos)?;
                self.thread_call("pthread_mutex_lock", std::slice::from_ref(mutex), ret_ty, pos)?;
            }
            "pthread_cond_signal" | "pthread_cond_broadcast" | "pthread_cond_init" | "pthread_cond_destroy" | "pthread_mutex_destroy" => {
                // a wait wakes whenever it may: signals change nothing
                self.effects_of(args)?;
            }
            _ if name.starts_with("pthread_attr_") || name.starts_with("pthread_mutexattr_") || name.starts_with("pthread_condattr_") => {
                // attributes of threads and mutexes: scheduling and types that do not change
                // what the program can reach (a mutex of any type blocks while another holds it)
                self.effects_of(args)?;
            }
            "__VERIFIER_atomic_begin" => {
                self.emit_label(Label::Thread(ThreadOp::AtomicBegin), pos, None);
                return Ok(Some(Val::Void));
            }
            "__VERIFIER_atomic_end" => {
                self.emit_label(Label::Thread(ThreadOp::AtomicEnd), pos, None);
                return Ok(Some(Val::Void));
            }
            _ if name.starts_with("__atomic_") => return self.atomic_builtin(name, args, ret_ty, pos).map(Some),
            _ if UNSUPPORTED.contains(&name) => return Err(CError::unsupported(pos, format!("`{name}`"))),
            _ => return Ok(None),
        }
        Ok(Some(self.int_result(&int(0), ret_ty)))
    }

    /// GCC's `__atomic_*` builtins: the access to `*p` is an atomic section (any memory order:
    /// interleavings are sequentially consistent); the arguments are evaluated before it and
    /// the result stored after it, as ordinary accesses.
    fn atomic_builtin(&mut self, name: &str, args: &[Expr], ret_ty: &CType, pos: &SourcePos) -> Result<Val> {
        let unsupported = || CError::unsupported(pos, format!("`{name}`"));
        let op = name.trim_start_matches("__atomic_");
        let (p, rest) = args.split_first().ok_or_else(unsupported)?;
        let m = self.pointee(p, pos)?;
        // the value to store (`None`: none), and what the result is
        let (operand, result): (Option<&Expr>, &str) = match (op, rest) {
            ("load_n", [_]) => (None, "old"),
            ("store_n", [v, _]) => (Some(v), "none"),
            ("exchange_n", [v, _]) => (Some(v), "old"),
            ("load", [_, _]) => (None, "to ret"),
            ("store", [_, _]) => (None, "none"),
            ("exchange", [_, _, _]) => (None, "to ret"),
            (_, [v, _]) if fetch_op(op).is_some() => (Some(v), if op.starts_with("fetch_") { "old" } else { "new" }),
            _ => return Err(unsupported()),
        };
        let value = match (op, operand, rest) {
            (_, Some(v), _) => Some(self.converted(v, &m.ty, pos)?),
            ("store" | "exchange", None, [val, ..]) => {
                let from = self.pointee(val, pos)?;
                let v = self.mem_load(&from, pos)?;
                Some(self.stabilize(v, pos))
            }
            _ => None,
        };
        let ret = match (op, rest) {
            ("load", [r, _]) | ("exchange", [_, r, _]) => Some(self.pointee(r, pos)?),
            _ => None,
        };
        // the memory order, last, is evaluated for its effects
        if let Some(order) = rest.last() {
            self.effect(order)?;
        }
        self.emit_label(Label::Thread(ThreadOp::AtomicBegin), pos, None);
        let old = self.mem_load(&m, pos)?;
        let old = self.stabilize(old, pos);
        let new = match (fetch_op(op), &value) {
            (Some(code), Some(Val::Int(v))) => {
                let Val::Int(o) = &old else { return Err(unsupported()) };
                let sem = self.tr.sem();
                let r = crate::conv::arith(code, o, v, &m.ty, sem, false, false).value.ok_or_else(unsupported)?;
                Some(self.stabilize(Val::Int(r), pos))
            }
            (Some(_), _) => return Err(unsupported()),
            (None, v) => v.clone(),
        };
        if let Some(n) = &new {
            self.mem_store(&m, n, pos)?;
        }
        self.emit_label(Label::Thread(ThreadOp::AtomicEnd), pos, None);
        if let Some(r) = ret {
            self.mem_store(&r, &old, pos)?;
        }
        let out = match result {
            "old" => Some(old),
            "new" => new,
            _ => None,
        };
        Ok(match (out, &m.ty) {
            (Some(Val::Int(v)), from) if from.is_integer() && ret_ty.is_integer() => {
                Val::Int(crate::conv::convert(&v, from, ret_ty, self.tr.sem()))
            }
            (Some(v), _) if !ret_ty.is_integer() => v,
            _ => Val::Void,
        })
    }

    /// The object a pointer argument points to (the pointer evaluated now).
    fn pointee(&mut self, p: &Expr, pos: &SourcePos) -> Result<MemLoc> {
        let CType::Pointer(ty) = &p.ty else { return Err(CError::syntax(pos, "a pointer argument is expected")) };
        let Val::Ptr(b, o) = self.rvalue(p)? else { return Err(CError::syntax(pos, "a pointer argument is expected")) };
        let Val::Ptr(b, o) = self.stabilize(Val::Ptr(b, o), pos) else { return Err(CError::syntax(pos, "a pointer argument is expected")) };
        Ok(MemLoc { b, o, ty: (**ty).clone(), checked: true })
    }

    /// The value of `e` converted to the integer or pointer type `ty`, evaluated now.
    fn converted(&mut self, e: &Expr, ty: &CType, pos: &SourcePos) -> Result<Val> {
        let v = match (self.rvalue(e)?, ty) {
            (Val::Int(x), t) if t.is_integer() && e.ty.is_integer() => Val::Int(crate::conv::convert(&x, &e.ty, t, self.tr.sem())),
            (v @ Val::Ptr(..), t) if t.is_pointer() => v,
            _ => return Err(CError::unsupported(pos, "an atomic operation on a value that is not an integer or pointer")),
        };
        Ok(self.stabilize(v, pos))
    }

    /// `pthread_create(&t, attr, start, arg)`: the next thread id is written to `t` and names
    /// the thread that runs `start(arg)`.
    fn pthread_create(&mut self, args: &[Expr], pos: &SourcePos) -> Result<()> {
        let [t, attr, start, arg] = args else { return Err(CError::syntax(pos, "`pthread_create` expects four arguments")) };
        let Some(name) = function_named(start) else {
            return Err(CError::unsupported(pos, "`pthread_create` with a start routine that is not a function name"));
        };
        let ty = match self.tr.funcs.get(&name) {
            Some(f) if self.tr.defined.contains(&name) => f.ty.clone(),
            _ => return Err(CError::unsupported(pos, format!("thread start routine `{name}` without a definition"))),
        };
        if !ty.ret.is_pointer() || ty.params.len() > 1 || ty.params.iter().any(|p| !p.is_pointer()) {
            return Err(CError::unsupported(pos, format!("thread start routine `{name}` whose type is not `void *(void *)`")));
        }
        self.effect(attr)?;
        let value = self.rvalue(arg)?;
        let fork_args = if ty.params.is_empty() { vec![] } else { value.flatten(self.tr.sem()) };
        let CType::Pointer(id_ty) = &t.ty else { return Err(CError::syntax(pos, "`pthread_create` of a non-pointer")) };
        if !id_ty.is_integer() {
            return Err(CError::unsupported(pos, "`pthread_t` that is not an integer type"));
        }
        let Val::Ptr(b, o) = self.rvalue(t)? else { return Err(CError::syntax(pos, "`pthread_create` of a non-pointer")) };
        // the counter is read and incremented in one step, so that no two threads get one id
        self.tr.uses_threads = true;
        if !self.tr.starts_threads {
            self.tr.starts_threads = true;
            self.tr.new_marks = true;
        }
        let id = self.temp_of(Sort::Int);
        let next = add(&[thread_counter(), int(1)]);
        self.emit(Stmt::Assign(vec![(id.clone(), next.clone()), (thread_counter(), next)]), pos, None);
        let stored = crate::conv::convert(&id, &CType::MathInt, id_ty, self.tr.sem());
        self.mem_store(&MemLoc { b, o, ty: (**id_ty).clone(), checked: true }, &Val::Int(stored), pos)?;
        self.emit_label(Label::Thread(ThreadOp::Fork { ids: vec![id], callee: name, args: fork_args }), pos, None);
        Ok(())
    }

    /// `pthread_join(t, result)`: waits until the thread with the id `t` has ended and stores
    /// its result (unless `result` is a null pointer constant).
    fn pthread_join(&mut self, args: &[Expr], pos: &SourcePos) -> Result<()> {
        let [t, result] = args else { return Err(CError::syntax(pos, "`pthread_join` expects two arguments")) };
        let id = self.index_value(t)?;
        if is_null_constant(result) {
            self.emit_label(Label::Thread(ThreadOp::Join { ids: vec![id], rets: vec![] }), pos, None);
            return Ok(());
        }
        let CType::Pointer(ty) = &result.ty else { return Err(CError::syntax(pos, "`pthread_join` of a non-pointer")) };
        let Val::Ptr(b, o) = self.rvalue(result)? else { return Err(CError::syntax(pos, "`pthread_join` of a non-pointer")) };
        let rets = vec![self.temp_of(Sort::Int), self.temp_of(Sort::Int)];
        self.emit_label(Label::Thread(ThreadOp::Join { ids: vec![id], rets: rets.clone() }), pos, None);
        let value = Val::Ptr(rets[0].clone(), rets[1].clone());
        self.mem_store(&MemLoc { b, o, ty: (**ty).clone(), checked: true }, &value, pos)
    }

    /// The lock word of the mutex the first argument points to.
    fn lock_word(&mut self, args: &[Expr], pos: &SourcePos) -> Result<LockWord> {
        let Some(mutex) = args.first() else { return Err(CError::syntax(pos, "a mutex argument is expected")) };
        self.effects_of(&args[1..])?;
        // only its address matters: a conversion from the program's own mutex type reads nothing
        let Val::Ptr(b, o) = self.rvalue(crate::units::uncast(mutex))? else {
            return Err(CError::syntax(pos, "a mutex argument is expected"));
        };
        self.use_memory();
        Ok(LockWord { b, o })
    }

    fn effects_of(&mut self, args: &[Expr]) -> Result<()> {
        args.iter().try_for_each(|a| self.effect(a))
    }

    /// An integer result of type `ty`.
    fn int_result(&self, v: &Term, ty: &CType) -> Val {
        match ty {
            CType::Int(_) => Val::Int(crate::conv::convert(v, &CType::MathInt, ty, self.tr.sem())),
            _ => Val::Void,
        }
    }
}

/// The operator of `__atomic_fetch_OP` and `__atomic_OP_fetch`.
fn fetch_op(op: &str) -> Option<crate::conv::ArithOp> {
    use crate::conv::ArithOp::*;
    let code = op.strip_prefix("fetch_").or_else(|| op.strip_suffix("_fetch"))?;
    Some(match code {
        "add" => Add,
        "sub" => Sub,
        "and" => And,
        "or" => Or,
        "xor" => Xor,
        _ => return None,
    })
}

/// The word at the start of a mutex object.
struct LockWord {
    b: Term,
    o: Term,
}

impl LockWord {
    fn get(&self) -> Term {
        cell_get(&locks(), &self.b, &self.o)
    }

    fn set(&self, v: &Term) -> Stmt {
        Stmt::Assign(vec![(locks(), cell_set(&locks(), &self.b, &self.o, v))])
    }
}

/// The function an expression names (through casts and `&`).
fn function_named(e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Function(f) => Some(f.clone()),
        ExprKind::Cast(x) | ExprKind::AddrOf(x) => function_named(x),
        _ => None,
    }
}

/// Whether an expression is a null pointer constant (`0`, `NULL`).
fn is_null_constant(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::IntLit(v) => num_traits::Zero::is_zero(v),
        ExprKind::Cast(x) => is_null_constant(x),
        _ => false,
    }
}
