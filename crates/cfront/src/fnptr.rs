//! Function pointers. A function whose address is taken gets a base of its own, just below
//! zero, and the stack's bases start below those of the functions, so that no object has one
//! (`#valid` is false there: data accesses through a function pointer are invalid). A call
//! through a pointer branches over the address-taken functions of the pointer's type; a
//! pointer to none of them is a `valid-deref` violation (assumed away when that property is
//! not checked: the call is undefined).

use crate::error::{CError, Result};
use crate::expr::merged_kind;
use crate::func::{Fx, Val};
use crate::tast::Expr;
use crate::translate::Tr;
use crate::types::{promote, CType, FuncType};
use ir::{SourcePos, ViolationKind};
use smt::build::{and, eq, int, or};
use verdict::Property;

impl Tr {
    /// The base of the address of `f` (a function with a definition). A function not seen
    /// before becomes address-taken, which repeats the translation (bases and the stack's
    /// first base depend on the set).
    fn function_base(&mut self, f: &str) -> i64 {
        if self.addressed_functions.insert(f.to_string()) {
            self.new_marks = true;
        }
        -1 - self.addressed_functions.iter().take_while(|g| g.as_str() < f).count() as i64
    }

    /// The first base of a stack or static object (below the functions' and the string
    /// literals', see `strlit`).
    pub fn first_stack_base(&self) -> i64 {
        -1 - (self.addressed_functions.len() + self.literals.len()) as i64
    }
}

impl Fx<'_> {
    /// The pointer to the function `f`.
    pub fn function_pointer(&mut self, f: &str, pos: &SourcePos) -> Result<Val> {
        if !self.tr.defined.contains(f) {
            return Err(CError::unsupported(pos, format!("pointer to `{f}`, a function without a definition")));
        }
        Ok(Val::Ptr(int(self.tr.function_base(f)), int(0)))
    }

    /// A call through the function pointer `p` with the (converted) arguments `args`.
    pub fn call_through(&mut self, p: &Expr, args: &[Expr], ret_ty: &CType, pos: &SourcePos, needed: bool) -> Result<Val> {
        let (Val::Ptr(b, o), Some(fty)) = (self.rvalue(p)?, p.ty.pointed_function()) else {
            return Err(CError::syntax(pos, "call of a value that is not a function pointer"));
        };
        let Val::Ptr(b, o) = self.stabilize(Val::Ptr(b, o), pos) else { return Err(CError::syntax(pos, "a function pointer is expected")) };
        let targets: Vec<String> = self.tr.addressed_functions.iter().filter(|g| self.callable(g, &fty, args)).cloned().collect();
        let points_to = |base: i64| and(&[eq(&b, &int(base)), eq(&o, &int(0))]);
        let bases: Vec<i64> = targets.iter().map(|g| self.tr.function_base(g)).collect();
        if self.checks(Property::ValidDeref) {
            let ok = or(&bases.iter().map(|&base| points_to(base)).collect::<Vec<_>>());
            self.check(&ok, ViolationKind::ValidDeref, pos);
        }
        let start = self.cur;
        let mut ends = Vec::new();
        for (g, base) in targets.iter().zip(bases) {
            self.cur = start;
            self.assume(&points_to(base), pos);
            let v = self.call(g, args, ret_ty, pos, needed)?;
            ends.push((self.cur, v));
        }
        if ends.is_empty() {
            // no function of this type has its address taken: the call is undefined
            self.cur = self.loc(pos);
            return match ret_ty {
                CType::Void => Ok(Val::Void),
                _ if !needed => Ok(Val::Void),
                CType::Int(_) => Ok(Val::Int(self.temp(ret_ty))),
                _ => Err(CError::unsupported(pos, "result of a call through a function pointer that points to no function")),
            };
        }
        let kind = merged_kind(&ends.iter().map(|(_, v)| v).collect::<Vec<_>>(), needed);
        Ok(self.join(&ends, &kind, pos))
    }

    /// Whether a call of `g` through a pointer of type `fty` with `args` is defined: the
    /// types are compatible (for an unprototyped pointer type, the promoted arguments match
    /// `g`'s parameters).
    fn callable(&self, g: &str, fty: &FuncType, args: &[Expr]) -> bool {
        let Some(gty) = self.tr.funcs.get(g).map(|info| info.ty.clone()) else { return false };
        if gty.ret != fty.ret {
            return false;
        }
        match (fty.prototyped, gty.prototyped) {
            (true, true) => gty.params == fty.params && gty.variadic == fty.variadic,
            (_, false) => true,
            (false, true) => {
                !gty.variadic && gty.params.len() == args.len() && gty.params.iter().zip(args).all(|(t, a)| promote(t) == a.ty)
            }
        }
    }
}
