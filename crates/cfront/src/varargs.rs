//! Variadic functions of the program. A call passes the arguments beyond the named parameters
//! in a stack object of the caller, one slot per argument (its size rounded up to 8 bytes),
//! whose base is the callee's hidden last parameter `#va` (0 when there are none). A
//! `va_list` is a pointer into that object: `va_start` points it at the first slot,
//! `va_arg(ap, T)` reads a `T` at it (checked like every access: reading beyond the arguments
//! passed is invalid; in memory as bytes, since it need not be the type passed) and moves it
//! to the next slot, `va_copy` copies it, `va_end` does
//! nothing. An entry function has no caller: `va_start` in one is unsupported.

use crate::error::{CError, Result};
use crate::func::{Fx, Val};
use crate::memory::MemLoc;
use crate::tast::Expr;
use crate::types::CType;
use ir::SourcePos;
use smt::build::{add, int};
use smt::{Sort, Term};

/// The intrinsic `va_arg` becomes (its result type is the type read).
pub(crate) const VA_ARG: &str = "__builtin_va_arg";

/// The name of the hidden parameter of a variadic function.
pub(crate) const VA_PARAM: &str = "#va";

impl Fx<'_> {
    /// The size of an argument's slot.
    fn slot(&self, ty: &CType, pos: &SourcePos) -> Result<u64> {
        let size = self.tr.layout().size(ty).ok_or_else(|| CError::unsupported(pos, "variadic argument of unknown size"))?;
        Ok(size.div_ceil(8) * 8)
    }

    /// Passes the arguments beyond the named parameters of a variadic function: the base of a
    /// new stack object holding them (0 for none), to be released after the call.
    pub(crate) fn pass_variadic(&mut self, extra: &[Expr], pos: &SourcePos) -> Result<Option<Term>> {
        if extra.is_empty() {
            return Ok(None);
        }
        let mut values = vec![];
        for a in extra {
            let v = self.rvalue(a)?;
            values.push((self.stabilize(v, pos), a.ty.clone()));
        }
        let mut size = 0;
        for (_, ty) in &values {
            size += self.slot(ty, pos)?;
        }
        let b = self.temp_of(Sort::Int);
        self.allocate(&b, &int(size as i64), false, pos);
        let mut off = 0;
        for (v, ty) in &values {
            let m = MemLoc { b: b.clone(), o: int(off as i64), ty: ty.clone(), checked: false };
            self.mem_store(&m, v, pos)?;
            off += self.slot(ty, pos)?;
        }
        Ok(Some(b))
    }

    /// `va_start(ap, last)`: `ap` points at the first variadic argument.
    pub(crate) fn va_start(&mut self, args: &[Expr], pos: &SourcePos) -> Result<Val> {
        let Some(ap) = args.first() else { return Err(CError::syntax(pos, "`va_start` without a `va_list`")) };
        let Some(va) = self.va.clone() else {
            let why =
                if self.tr.is_entry(&self.name) { "`va_start` in an entry function" } else { "`va_start` outside a variadic function" };
            return Err(CError::unsupported(pos, why));
        };
        let place = self.locate(ap)?;
        self.store_place(place, &Val::Ptr(va, int(0)), pos)?;
        Ok(Val::Void)
    }

    /// `va_arg(ap, ty)`: the argument `ap` points at; `ap` moves on to the next one.
    pub(crate) fn va_arg(&mut self, args: &[Expr], ty: &CType, pos: &SourcePos) -> Result<Val> {
        let Some(ap) = args.first() else { return Err(CError::syntax(pos, "`va_arg` without a `va_list`")) };
        // the type read need not be the type passed: memory holds bytes
        self.use_bytes();
        let place = self.locate(ap)?;
        let ptr = self.load_place(place.clone(), pos)?;
        let Val::Ptr(b, o) = self.stabilize(ptr, pos) else {
            return Err(CError::syntax(pos, "`va_arg` of a value that is not a `va_list`"));
        };
        let value = self.mem_load(&MemLoc { b: b.clone(), o: o.clone(), ty: ty.clone(), checked: true }, pos)?;
        let value = self.stabilize(value, pos);
        let next = add(&[o, int(self.slot(ty, pos)? as i64)]);
        self.store_place(place, &Val::Ptr(b, next), pos)?;
        Ok(value)
    }

    /// `va_copy(dst, src)`.
    pub(crate) fn va_copy(&mut self, args: &[Expr], pos: &SourcePos) -> Result<Val> {
        let [dst, src] = args else { return Err(CError::syntax(pos, "`va_copy` expects two arguments")) };
        let v = self.rvalue(src)?;
        let place = self.locate(dst)?;
        self.store_place(place, &v, pos)?;
        Ok(Val::Void)
    }
}
