//! POSIX threads: `pthread_create`, `pthread_join` and `pthread_exit` as the fork, join and exit
//! of `ir`, the thread id a counter gives each started thread (0 for the entry's thread:
//! `pthread_self` reads `ir::threads::own_id`), and SV-COMP's atomic sections.
//!
//! Every synchronization object has *words* in an array of its own, `#lock[base][offset]` at
//! the object's address (and the next offsets, inside the object), apart from the data in
//! memory; all are 0 at the start. One statement reads and updates them at once, and a
//! statement whose condition does not hold blocks its thread until another thread changes it.
//! - A mutex or spin lock: 0 when free, 1 when held (free at the start, as
//!   `PTHREAD_MUTEX_INITIALIZER` or `pthread_mutex_init` makes it). Locking a free mutex never
//!   fails (POSIX lists no error for a normal mutex that is initialized), locking a held one
//!   blocks, even for its holder. A program that sets mutex types has the model of `mutexes`
//!   instead; a static initializer of a recursive or error-checking mutex is unsupported.
//! - A condition variable: nothing; a wait may wake at any time (POSIX allows spurious wake-ups).
//! - A semaphore: its count.
//! - A read-write lock: 0 when free, -1 when a writer holds it, the number of readers otherwise
//!   (readers never wait for a waiting writer: POSIX lets a writer wait or not).
//! - A barrier: its count, the threads that have arrived, and the generation, which the last
//!   thread to arrive advances (it gets `PTHREAD_BARRIER_SERIAL_THREAD`); the others wait until
//!   the generation they arrived in has passed.
//! - A `pthread_once_t`: 0 before the call that runs the routine, 1 while it runs, 2 after;
//!   the other calls wait for 2.
//! - Thread-specific data: a key is a number from a counter; `#specific` holds each key's value
//!   for each thread id (null at the start). A key with a destructor is unsupported (it would
//!   run at every thread's exit).

use crate::error::{CError, Result};
use crate::func::{Fx, Val};
use crate::memory::{cell_get, cell_set, MemLoc};
use crate::tast::{Expr, ExprKind};
use crate::types::CType;
use ir::{Label, SourcePos, Stmt, ThreadOp};
use smt::build::{add, eq, int, ite};
use smt::{Sort, Term};

/// Why a mutex of a type other than the normal one set by a static initializer is unsupported.
pub(crate) const OTHER_MUTEX_TYPES: &str =
    "a static initializer of a mutex type other than the normal one (set the type with `pthread_mutexattr_settype`)";

/// The number of threads started so far: the id of the last one.
pub(crate) fn thread_counter() -> Term {
    Term::var("#thread_id", Sort::Int)
}

/// The lock words of the mutexes: `base -> offset -> 0 (free) or 1 (held)`.
pub(crate) fn locks() -> Term {
    Term::var("#lock", Sort::array(Sort::Int, Sort::array(Sort::Int, Sort::Int)))
}

/// The keys of thread-specific data created so far: the last one.
fn key_counter() -> Term {
    Term::var("#key", Sort::Int)
}

/// The values of thread-specific data, a pointer's base and offset: `key -> thread id -> value`.
fn specific() -> [Term; 2] {
    ["#specific_base", "#specific_offset"].map(|n| Term::var(n, locks().sort.clone()))
}

/// The variables of the thread model and their initial values.
pub(crate) fn thread_vars_init() -> Vec<(Term, Term)> {
    let zeros = smt::build::const_array(&locks().sort, &smt::build::const_array(&Sort::array(Sort::Int, Sort::Int), &int(0)));
    let mut vars = vec![(thread_counter(), int(0)), (ir::threads::own_id(), int(0)), (key_counter(), int(0)), (locks(), zeros.clone())];
    vars.extend(specific().map(|a| (a, zeros.clone())));
    vars
}

/// The `errno` value of a lock that is held.
pub(crate) const EBUSY: i64 = 16;

/// `PTHREAD_BARRIER_SERIAL_THREAD`, what one thread's `pthread_barrier_wait` returns.
const BARRIER_SERIAL_THREAD: i64 = -1;

/// Thread functions whose meaning is not modelled: a call is unsupported.
const UNSUPPORTED: &[&str] = &[
    "pthread_cancel",
    "pthread_kill",
    "pthread_detach",
    "pthread_key_delete",
    "pthread_cond_timedwait",
    "pthread_mutex_timedlock",
    "pthread_rwlock_timedrdlock",
    "pthread_rwlock_timedwrlock",
    "sem_timedwait",
    "sem_open",
    "signal",
    "sigaction",
];

impl Fx<'_> {
    /// A call of a thread function of `pthread.h` or an SV-COMP atomic-section marker; `None` if
    /// `name` is none of them.
    pub(crate) fn thread_call(&mut self, name: &str, args: &[Expr], ret_ty: &CType, pos: &SourcePos) -> Result<Option<Val>> {
        if self.tr.typed_mutexes {
            if let Some(v) = self.typed_mutex_call(name, args, ret_ty, pos)? {
                return Ok(Some(v));
            }
        }
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
            "pthread_mutex_lock" | "pthread_spin_lock" => {
                let word = self.lock_word(args, pos)?;
                self.emit_label(Label::Thread(ThreadOp::AtomicBegin), pos, None);
                self.emit(Stmt::Assume(eq(&word.get(), &int(0))), pos, None);
                self.emit(word.set(&int(1)), pos, None);
                self.emit_label(Label::Thread(ThreadOp::AtomicEnd), pos, None);
            }
            "pthread_mutex_unlock" | "pthread_mutex_init" | "pthread_spin_unlock" | "pthread_spin_init" => {
                let word = self.lock_word(args, pos)?;
                self.emit(word.set(&int(0)), pos, None);
            }
            "pthread_mutex_trylock" | "pthread_spin_trylock" => {
                let word = self.lock_word(args, pos)?;
                let free = eq(&word.get(), &int(0));
                return Ok(Some(self.try_take(&word, &free, &int(1), &int(EBUSY), ret_ty, pos)));
            }
            "pthread_self" => {
                self.tr.uses_threads = true;
                return Ok(Some(self.int_result(&ir::threads::own_id(), ret_ty)));
            }
            "pthread_equal" => {
                let [a, b] = args else { return Err(CError::syntax(pos, "`pthread_equal` expects two arguments")) };
                let (a, b) = (self.index_value(a)?, self.index_value(b)?);
                return Ok(Some(self.int_result(&ite(&eq(&a, &b), &int(1), &int(0)), ret_ty)));
            }
            _ if name.starts_with("sem_") || name.starts_with("pthread_rwlock_") || name.starts_with("pthread_barrier_") => {
                return self.sync_call(name, args, ret_ty, pos);
            }
            "pthread_once" => self.pthread_once(args, pos)?,
            "pthread_key_create" => self.pthread_key_create(args, pos)?,
            "pthread_getspecific" | "pthread_setspecific" => return self.specific(name, args, pos).map(Some),
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
            _ if ["pthread_attr_", "pthread_mutexattr_", "pthread_condattr_", "pthread_rwlockattr_", "pthread_barrierattr_"]
                .iter()
                .any(|a| name.starts_with(a)) =>
            {
                // attributes: scheduling, sharing between processes, preferences of read-write
                // locks, which do not change what the program can reach
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
    pub(crate) fn pointee(&mut self, p: &Expr, pos: &SourcePos) -> Result<MemLoc> {
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

    /// The (first) word of the synchronization object the first argument points to; the other
    /// arguments are evaluated for their effects.
    fn lock_word(&mut self, args: &[Expr], pos: &SourcePos) -> Result<LockWord> {
        let Some(object) = args.first() else { return Err(CError::syntax(pos, "a pointer argument is expected")) };
        let word = self.word_of(object, pos)?;
        self.effects_of(&args[1..])?;
        Ok(word)
    }

    /// The first word of the synchronization object `object` points to.
    pub(crate) fn word_of(&mut self, object: &Expr, pos: &SourcePos) -> Result<LockWord> {
        // only its address matters: a conversion from the program's own type reads nothing
        let Val::Ptr(b, o) = self.rvalue(crate::units::uncast(object))? else {
            return Err(CError::syntax(pos, "a pointer argument is expected"));
        };
        self.use_memory();
        Ok(LockWord { b, o })
    }

    /// A lock taken if `free` holds (the word set to `taken`) in one step; the result is 0 if
    /// it was taken, `busy` otherwise.
    fn try_take(&mut self, word: &LockWord, free: &Term, taken: &Term, busy: &Term, ret_ty: &CType, pos: &SourcePos) -> Val {
        let r = self.temp_of(Sort::Int);
        let take = Stmt::Assign(vec![(r.clone(), ite(free, &int(0), busy)), (locks(), word.store(&ite(free, taken, &word.get())))]);
        self.emit(take, pos, None);
        self.int_result(&r, ret_ty)
    }

    /// A call of a function of semaphores, read-write locks or barriers.
    fn sync_call(&mut self, name: &str, args: &[Expr], ret_ty: &CType, pos: &SourcePos) -> Result<Option<Val>> {
        let Some(object) = args.first() else { return Err(CError::syntax(pos, format!("`{name}` expects a pointer argument"))) };
        let w = self.word_of(object, pos)?;
        // `init(object, attributes, count)`
        let count = |fx: &mut Fx| match args {
            [_, attributes, count] => {
                fx.effect(attributes)?;
                fx.index_value(count)
            }
            _ => Err(CError::syntax(pos, format!("`{name}` expects three arguments"))),
        };
        let v = w.get();
        let (zero, one) = (int(0), int(1));
        let step = match name {
            "sem_init" => w.set(&count(self)?),
            "sem_wait" => Stmt::Seq(vec![Stmt::Assume(smt::build::gt(&v, &zero)), w.set(&smt::build::sub(&v, &one))]),
            "sem_post" => w.set(&add(&[v, one])),
            "sem_trywait" => {
                let free = smt::build::gt(&v, &zero);
                return Ok(Some(self.try_take(&w, &free, &smt::build::sub(&v, &one), &int(-1), ret_ty, pos)));
            }
            "sem_getvalue" => {
                let [_, out] = args else { return Err(CError::syntax(pos, "`sem_getvalue` expects two arguments")) };
                let m = self.pointee(out, pos)?;
                let stored = crate::conv::convert(&v, &CType::MathInt, &m.ty, self.tr.sem());
                self.mem_store(&m, &Val::Int(stored), pos)?;
                Stmt::Assume(smt::build::tt())
            }
            "pthread_rwlock_init" => {
                self.effects_of(&args[1..])?;
                w.set(&zero)
            }
            "pthread_rwlock_rdlock" => Stmt::Seq(vec![Stmt::Assume(smt::build::ge(&v, &zero)), w.set(&add(&[v, one]))]),
            "pthread_rwlock_wrlock" => Stmt::Seq(vec![Stmt::Assume(eq(&v, &zero)), w.set(&int(-1))]),
            "pthread_rwlock_tryrdlock" => {
                let free = smt::build::ge(&v, &zero);
                return Ok(Some(self.try_take(&w, &free, &add(&[v, one]), &int(EBUSY), ret_ty, pos)));
            }
            "pthread_rwlock_trywrlock" => {
                let free = eq(&v, &zero);
                return Ok(Some(self.try_take(&w, &free, &int(-1), &int(EBUSY), ret_ty, pos)));
            }
            "pthread_rwlock_unlock" => w.set(&ite(&smt::build::gt(&v, &zero), &smt::build::sub(&v, &one), &zero)),
            "pthread_barrier_init" => {
                let count = count(self)?;
                Stmt::Assign(vec![(locks(), w.at(2).store_in(&w.at(1).store_in(&w.store(&count), &zero), &zero))])
            }
            "pthread_barrier_wait" => return self.barrier_wait(&w, ret_ty, pos).map(Some),
            "sem_destroy" | "pthread_rwlock_destroy" | "pthread_barrier_destroy" => Stmt::Assume(smt::build::tt()),
            _ => return Err(CError::unsupported(pos, format!("`{name}`"))),
        };
        self.emit(step, pos, None);
        Ok(Some(self.int_result(&zero, ret_ty)))
    }

    /// `pthread_barrier_wait`: the thread arrives, the last one to arrive starts the next
    /// generation, and the others wait until it has.
    fn barrier_wait(&mut self, w: &LockWord, ret_ty: &CType, pos: &SourcePos) -> Result<Val> {
        let (count, arrived, generation) = (w.get(), w.at(1).get(), w.at(2).get());
        let (mine, r) = (self.temp_of(Sort::Int), self.temp_of(Sort::Int));
        let last = eq(&add(&[arrived.clone(), int(1)]), &count);
        let serial = eq(&r, &int(BARRIER_SERIAL_THREAD));
        let arrive = Stmt::Seq(vec![
            Stmt::Assign(vec![(mine.clone(), generation.clone()), (r.clone(), ite(&last, &int(BARRIER_SERIAL_THREAD), &int(0)))]),
            Stmt::Assign(vec![(
                locks(),
                w.at(2).store_in(
                    &w.at(1).store(&ite(&serial, &int(0), &add(&[arrived, int(1)]))),
                    &ite(&serial, &add(&[generation.clone(), int(1)]), &generation),
                ),
            )]),
        ]);
        self.emit(arrive, pos, None);
        self.emit(Stmt::Assume(smt::build::or(&[serial, smt::build::not(&eq(&generation, &mine))])), pos, None);
        Ok(self.int_result(&r, ret_ty))
    }

    /// `pthread_once(once, routine)`: the first call runs `routine`, the others wait until it
    /// has returned.
    fn pthread_once(&mut self, args: &[Expr], pos: &SourcePos) -> Result<()> {
        let [once, routine] = args else { return Err(CError::syntax(pos, "`pthread_once` expects two arguments")) };
        let w = self.word_of(once, pos)?;
        let first = self.temp_of(Sort::Int);
        let v = w.get();
        let starts = eq(&v, &int(0));
        self.emit(
            Stmt::Assign(vec![(first.clone(), ite(&starts, &int(1), &int(0))), (locks(), w.store(&ite(&starts, &int(1), &v)))]),
            pos,
            None,
        );
        let start = self.cur;
        self.emit(Stmt::Assume(eq(&first, &int(1))), pos, None);
        self.call_through(routine, &[], &CType::Void, pos, false)?;
        self.emit(w.set(&int(2)), pos, None);
        let ran = self.cur;
        self.cur = start;
        self.emit(Stmt::Assume(smt::build::and(&[eq(&first, &int(0)), eq(&w.get(), &int(2))])), pos, None);
        self.b.edge(ran, self.cur, Label::Stmt(Stmt::Assume(smt::build::tt())), Some(pos.clone()), None);
        Ok(())
    }

    /// `pthread_key_create(&key, destructor)`: a new key, without a destructor.
    fn pthread_key_create(&mut self, args: &[Expr], pos: &SourcePos) -> Result<()> {
        let [key, destructor] = args else { return Err(CError::syntax(pos, "`pthread_key_create` expects two arguments")) };
        if !is_null_constant(destructor) {
            return Err(CError::unsupported(pos, "`pthread_key_create` with a destructor"));
        }
        let m = self.pointee(key, pos)?;
        if !m.ty.is_integer() {
            return Err(CError::unsupported(pos, "`pthread_key_t` that is not an integer type"));
        }
        self.tr.uses_threads = true;
        let next = add(&[key_counter(), int(1)]);
        self.emit(Stmt::Assign(vec![(key_counter(), next.clone())]), pos, None);
        let stored = crate::conv::convert(&next, &CType::MathInt, &m.ty, self.tr.sem());
        self.mem_store(&m, &Val::Int(stored), pos)
    }

    /// `pthread_getspecific(key)` and `pthread_setspecific(key, value)`: the calling thread's
    /// value of the key.
    fn specific(&mut self, name: &str, args: &[Expr], pos: &SourcePos) -> Result<Val> {
        let Some(key) = args.first() else { return Err(CError::syntax(pos, format!("`{name}` expects a key"))) };
        let key = self.index_value(key)?;
        self.tr.uses_threads = true;
        let me = ir::threads::own_id();
        let [base, offset] = specific();
        match (name, args) {
            ("pthread_getspecific", [_]) => Ok(Val::Ptr(cell_get(&base, &key, &me), cell_get(&offset, &key, &me))),
            ("pthread_setspecific", [_, value]) => {
                let Val::Ptr(b, o) = self.rvalue(value)? else {
                    return Err(CError::unsupported(pos, "`pthread_setspecific` of a value that is not a pointer"));
                };
                let set = |a: &Term, v: &Term| (a.clone(), cell_set(a, &key, &me, v));
                self.emit(Stmt::Assign(vec![set(&base, &b), set(&offset, &o)]), pos, None);
                Ok(Val::Int(int(0)))
            }
            _ => Err(CError::syntax(pos, format!("`{name}`: wrong number of arguments"))),
        }
    }

    pub(crate) fn effects_of(&mut self, args: &[Expr]) -> Result<()> {
        args.iter().try_for_each(|a| self.effect(a))
    }

    /// An integer result of type `ty`.
    pub(crate) fn int_result(&self, v: &Term, ty: &CType) -> Val {
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

/// A word of a synchronization object.
pub(crate) struct LockWord {
    b: Term,
    o: Term,
}

impl LockWord {
    /// The `k`-th word of the object (inside it: every synchronization object has more bytes).
    pub(crate) fn at(&self, k: i64) -> LockWord {
        LockWord { b: self.b.clone(), o: add(&[self.o.clone(), int(k)]) }
    }

    pub(crate) fn get(&self) -> Term {
        cell_get(&locks(), &self.b, &self.o)
    }

    /// The words with this one set to `v`.
    pub(crate) fn store(&self, v: &Term) -> Term {
        self.store_in(&locks(), v)
    }

    /// The words `words` with this one set to `v`.
    pub(crate) fn store_in(&self, words: &Term, v: &Term) -> Term {
        cell_set(words, &self.b, &self.o, v)
    }

    pub(crate) fn set(&self, v: &Term) -> Stmt {
        Stmt::Assign(vec![(locks(), self.store(v))])
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
pub(crate) fn is_null_constant(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::IntLit(v) => num_traits::Zero::is_zero(v),
        ExprKind::Cast(x) => is_null_constant(x),
        _ => false,
    }
}
