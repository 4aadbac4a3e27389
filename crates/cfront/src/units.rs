//! `memcpy` and `memset` on objects of one scalar type wider than a byte. Memory holds one
//! value per such unit, so the byte models of `library` cannot run on them; a copy of whole
//! units (or a fill with zero bytes) is exact unit by unit: a loop over the units, each a load
//! and a store checked like any other access. (A forward loop is a `memcpy`, whose regions do
//! not overlap; `memmove` stays with the byte model.)

use crate::error::Result;
use crate::func::{Fx, Val};
use crate::memory::MemLoc;
use crate::tast::{Expr, ExprKind};
use crate::types::{CType, IntKind};
use ir::{Label, SourcePos, Stmt};
use smt::build::{add, ge, int, lt, mul};
use smt::Sort;

impl Fx<'_> {
    /// `memcpy(d, s, n)` or `memset(p, 0, n)` of whole units of a scalar type wider than a
    /// byte that both pointers point to (`None`: not such a call).
    pub fn unit_copy(&mut self, name: &str, args: &[Expr], pos: &SourcePos) -> Result<Option<Val>> {
        let (dst, src, count) = match (name, args) {
            ("memcpy", [d, s, n]) if unit_type(d).is_some() && unit_type(d) == unit_type(s) => (d, Some(s), n),
            ("memset", [p, c, n]) if unit_type(p).is_some() && self.tr.const_int(c).is_some_and(|v| num_traits::Zero::is_zero(&v)) => {
                (p, None, n)
            }
            _ => return Ok(None),
        };
        let Some(ty) = unit_type(dst) else { return Ok(None) };
        let (Some(size), Some(n)) = (self.tr.layout().size(&ty), self.tr.const_int(count)) else { return Ok(None) };
        let units = num_traits::ToPrimitive::to_i64(&n).filter(|n| *n >= 0 && *n % size as i64 == 0).map(|n| n / size as i64);
        let Some(units) = units else { return Ok(None) };
        let dst_ptr = self.pointer(uncast(dst), pos)?;
        let src_ptr = match src {
            Some(s) => Some(self.pointer(uncast(s), pos)?),
            None => None,
        };
        let (Val::Ptr(db, doff), zero) = (dst_ptr.clone(), zero_of(&ty, self)) else {
            return Err(crate::error::CError::syntax(pos, format!("`{name}` of a non-pointer")));
        };
        // k := 0; while (k < units) { d[k] = s[k] (or 0); k++; }
        let k = self.temp_of(Sort::Int);
        self.assign(&k, &int(0), pos);
        let (head, body, exit) = (self.loc(pos), self.loc(pos), self.loc(pos));
        self.b.jump(self.cur, head, Some(pos.clone()));
        self.b.edge(head, body, Label::Stmt(Stmt::Assume(lt(&k, &int(units)))), Some(pos.clone()), None);
        self.b.edge(head, exit, Label::Stmt(Stmt::Assume(ge(&k, &int(units)))), Some(pos.clone()), None);
        self.cur = body;
        let at = |o: &smt::Term| add(&[o.clone(), mul(&[k.clone(), int(size as i64)])]);
        let value = match src_ptr {
            Some(Val::Ptr(sb, so)) => self.mem_load(&MemLoc { b: sb, o: at(&so), ty: ty.clone(), checked: true }, pos)?,
            _ => zero,
        };
        self.mem_store(&MemLoc { b: db, o: at(&doff), ty, checked: true }, &value, pos)?;
        self.assign(&k, &add(&[k.clone(), int(1)]), pos);
        self.b.jump(self.cur, head, Some(pos.clone()));
        self.cur = exit;
        Ok(Some(dst_ptr))
    }

    /// The value of a pointer expression, kept in temporaries.
    fn pointer(&mut self, e: &Expr, pos: &SourcePos) -> Result<Val> {
        let v = self.rvalue(e)?;
        Ok(self.stabilize(v, pos))
    }
}

/// `e` without its conversions between pointer types (to `void *` for a library call).
pub(crate) fn uncast(mut e: &Expr) -> &Expr {
    while let ExprKind::Cast(inner) = &e.kind {
        if !(e.ty.is_pointer() && inner.ty.is_pointer()) {
            break;
        }
        e = inner;
    }
    e
}

/// The type of the units a pointer argument points to: an integer type wider than a byte, or
/// a pointer type.
fn unit_type(e: &Expr) -> Option<CType> {
    let CType::Pointer(t) = &uncast(e).ty else { return None };
    let t = match &**t {
        CType::Array(elem, _) => (**elem).clone(),
        t => t.clone(),
    };
    let byte = matches!(t, CType::Int(IntKind::Char | IntKind::SChar | IntKind::UChar | IntKind::Bool));
    ((t.is_integer() && !byte) || t.is_pointer()).then_some(t)
}

/// The value of a unit of type `ty` whose bytes are all zero.
fn zero_of(ty: &CType, fx: &Fx) -> Val {
    if ty.is_pointer() {
        Val::Ptr(int(0), int(0))
    } else {
        Val::Int(fx.tr.sem().lit(&0.into(), ty))
    }
}
