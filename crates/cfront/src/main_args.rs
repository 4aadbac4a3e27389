//! `main`'s parameters as C defines them (C11 5.1.2.2.1): `argc ≥ 1`, `argv[0..argc-1]`
//! strings that live until the program ends, `argv[argc]` a null pointer; a third parameter
//! `envp` (a common extension) likewise, with any number of strings. The strings come from
//! the library model `__tracery_strings`, called only when the body names the parameter.

use crate::conv::CmpOp;
use crate::error::Result;
use crate::func::Fx;
use crate::types::{CType, IntKind};
use ir::{Call, Label, SourcePos, Stmt};
use smt::{Sort, Term};

/// The model that builds a null-terminated array of strings.
const STRINGS: &str = "__tracery_strings";

/// The intrinsic the model allocates with: an object that is neither heap nor stack.
pub const OBJECT: &str = "__tracery_object";

/// Whether `ty` is `char **` (which `char *argv[]` is, as a parameter).
fn is_strings(ty: &CType) -> bool {
    matches!(ty, CType::Pointer(p) if matches!(&**p, CType::Pointer(c) if matches!(&**c, CType::Int(IntKind::Char | IntKind::SChar | IntKind::UChar))))
}

impl Fx<'_> {
    /// Constrains the parameters of `main` (their registers `regs`, in order) to what the
    /// environment passes; `named[k]` tells whether the body names the `k`-th parameter.
    pub(crate) fn main_arguments(&mut self, params: &[(Vec<Term>, CType)], named: &[bool], pos: &SourcePos) -> Result<()> {
        let int = CType::Int(IntKind::Int);
        let [(argc, argc_ty), rest @ ..] = params else { return Ok(()) };
        let ([argc], true) = (argc.as_slice(), *argc_ty == int) else { return Ok(()) };
        let sem = self.tr.sem();
        self.assume(&crate::conv::compare(CmpOp::Ge, argc, &sem.lit(&1.into(), &int), true), pos);
        for (k, (reg, ty)) in rest.iter().enumerate().take(2) {
            if !is_strings(ty) || !named[k + 1] {
                continue;
            }
            let count = if k == 0 {
                argc.clone()
            } else {
                let n = self.nondet(&int, pos, None);
                self.assume(&crate::conv::compare(CmpOp::Ge, &n, &sem.lit(&0.into(), &int), true), pos);
                n
            };
            let (b, o) = (self.temp_of(Sort::Int), self.temp_of(Sort::Int));
            let call = Call { callee: self.tr.callee(STRINGS), args: vec![count], rets: vec![b.clone(), o.clone()] };
            self.emit_label(Label::Call(call), pos, None);
            let pairs = reg.iter().cloned().zip([b, o]).collect();
            self.emit(Stmt::Assign(pairs), pos, None);
        }
        Ok(())
    }
}
