//! Mutexes of the types POSIX names (`pthread_mutexattr_settype`), for programs that set a
//! type: normal (and glibc's adaptive: the same), recursive and error-checking. A program that
//! sets no type keeps the plain model of `pthreads` (a word 0 or 1).
//!
//! A typed mutex has three words: its holder (`#self + 1` of the holding thread, 0 when free),
//! its type (from the attribute when initialized; a mutex never initialized is normal, as
//! `PTHREAD_MUTEX_INITIALIZER` makes it) and how often its holder locked it. An attribute object
//! has one word, the type it sets. A thread that locks a mutex it holds blocks forever (normal),
//! counts one more lock (recursive) or gets `EDEADLK` (error-checking); unlocking a mutex the
//! thread does not hold is undefined for a normal mutex (modelled as a release, as the plain
//! model does) and returns `EPERM` for the others, which change nothing.

use crate::error::{CError, Result};
use crate::func::{Fx, Val};
use crate::pthreads::{is_null_constant, locks, EBUSY};
use crate::tast::Expr;
use crate::types::CType;
use ir::{Label, SourcePos, Stmt, ThreadOp};
use smt::build::{add, and, eq, int, ite, not, or, sub};
use smt::Sort;

const RECURSIVE: i64 = 1;
const ERRORCHECK: i64 = 2;
/// The `errno` values of a lock of a held error-checking mutex, and of an unlock by a thread
/// that does not hold the mutex.
const EDEADLK: i64 = 35;
const EPERM: i64 = 1;
const EINVAL: i64 = 22;

impl Fx<'_> {
    /// A call of a mutex function of a program that sets mutex types; `None` if `name` is none.
    pub(crate) fn typed_mutex_call(&mut self, name: &str, args: &[Expr], ret_ty: &CType, pos: &SourcePos) -> Result<Option<Val>> {
        let Some(object) = args.first() else { return Ok(None) };
        let result = match name {
            "pthread_mutexattr_init" => {
                let a = self.word_of(object, pos)?;
                self.emit(a.set(&int(0)), pos, None);
                int(0)
            }
            "pthread_mutexattr_settype" => {
                let [_, kind] = args else { return Err(CError::syntax(pos, "`pthread_mutexattr_settype` expects two arguments")) };
                let a = self.word_of(object, pos)?;
                let kind = self.index_value(kind)?;
                let valid = and(&[smt::build::ge(&kind, &int(0)), smt::build::le(&kind, &int(3))]);
                let r = self.temp_of(Sort::Int);
                let set =
                    Stmt::Assign(vec![(r.clone(), ite(&valid, &int(0), &int(EINVAL))), (locks(), a.store(&ite(&valid, &kind, &a.get())))]);
                self.emit(set, pos, None);
                r
            }
            "pthread_mutexattr_gettype" => {
                let [_, out] = args else { return Err(CError::syntax(pos, "`pthread_mutexattr_gettype` expects two arguments")) };
                let a = self.word_of(object, pos)?;
                let m = self.pointee(out, pos)?;
                let kind = crate::conv::convert(&a.get(), &CType::MathInt, &m.ty, self.tr.sem());
                self.mem_store(&m, &Val::Int(kind), pos)?;
                int(0)
            }
            "pthread_mutex_init" => {
                let m = self.word_of(object, pos)?;
                let kind = match args {
                    [_, attr] if is_null_constant(attr) => int(0),
                    [_, attr] => self.word_of(attr, pos)?.get(),
                    _ => return Err(CError::syntax(pos, "`pthread_mutex_init` expects two arguments")),
                };
                let words = m.at(2).store_in(&m.at(1).store_in(&m.store(&int(0)), &kind), &int(0));
                self.emit(Stmt::Assign(vec![(locks(), words)]), pos, None);
                int(0)
            }
            "pthread_mutex_lock" | "pthread_mutex_trylock" => {
                let m = self.word_of(object, pos)?;
                self.effects_of(&args[1..])?;
                let (holder, kind, depth) = (m.get(), m.at(1).get(), m.at(2).get());
                let me = holder_id();
                let (free, mine) = (eq(&holder, &int(0)), eq(&holder, &me));
                // taken: free, or held by this thread and recursive
                let taken = or(&[free.clone(), and(&[mine.clone(), eq(&kind, &int(RECURSIVE))])]);
                let (busy, wait) = match name {
                    "pthread_mutex_trylock" => (int(EBUSY), None),
                    // a lock waits for a free mutex unless an error-checking one is its own
                    _ => (int(EDEADLK), Some(or(&[taken.clone(), and(&[mine, eq(&kind, &int(ERRORCHECK))])]))),
                };
                let r = self.temp_of(Sort::Int);
                let words = m.at(2).store_in(
                    &m.store(&ite(&taken, &me, &holder)),
                    &ite(&free, &int(1), &ite(&taken, &add(&[depth.clone(), int(1)]), &depth)),
                );
                let step = Stmt::Assign(vec![(r.clone(), ite(&taken, &int(0), &busy)), (locks(), words)]);
                self.emit_label(Label::Thread(ThreadOp::AtomicBegin), pos, None);
                if let Some(wait) = wait {
                    self.emit(Stmt::Assume(wait), pos, None);
                }
                self.emit(step, pos, None);
                self.emit_label(Label::Thread(ThreadOp::AtomicEnd), pos, None);
                r
            }
            "pthread_mutex_unlock" => {
                let m = self.word_of(object, pos)?;
                let (holder, kind, depth) = (m.get(), m.at(1).get(), m.at(2).get());
                let me = holder_id();
                let checked = or(&[eq(&kind, &int(RECURSIVE)), eq(&kind, &int(ERRORCHECK))]);
                let refused = and(&[checked, not(&eq(&holder, &me))]);
                let left = sub(&depth, &int(1));
                let still_held = or(&[refused.clone(), and(&[eq(&kind, &int(RECURSIVE)), smt::build::gt(&left, &int(0))])]);
                let r = self.temp_of(Sort::Int);
                let words = m.at(2).store_in(&m.store(&ite(&still_held, &holder, &int(0))), &ite(&refused, &depth, &left));
                self.emit(Stmt::Assign(vec![(r.clone(), ite(&refused, &int(EPERM), &int(0))), (locks(), words)]), pos, None);
                r
            }
            _ => return Ok(None),
        };
        Ok(Some(self.int_result(&result, ret_ty)))
    }
}

/// What the holder word of a typed mutex holds while the calling thread holds it.
fn holder_id() -> smt::Term {
    add(&[ir::threads::own_id(), int(1)])
}
