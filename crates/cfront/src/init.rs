//! Initializers: an initializer of an object of type `ty` becomes the list of the scalars (or
//! whole structs) it sets, each with its path into the object (C11 6.7.9: designators at the
//! current level, brace elision, string literals for character arrays). Everything not named
//! is zero.

use crate::error::Result;
use crate::tast::{Expr, ExprKind, Sel};
use crate::translate::Tr;
use crate::types::{CType, IntKind};
use lang_c::ast;
use lang_c::span::Node;
use num_bigint::BigInt;
use num_traits::ToPrimitive;

/// The scalars an initializer sets, with their paths.
pub(crate) type Inits = Vec<(Vec<Sel>, Expr)>;

impl Tr {
    /// The (completed) type of the object and the scalars the initializer sets.
    pub fn initializer(&mut self, ty: &CType, init: &Node<ast::Initializer>) -> Result<(CType, Inits)> {
        let mut out = Vec::new();
        let mut path = Vec::new();
        let ty = match &init.node {
            ast::Initializer::Expression(e) => {
                if let Some(t) = self.string_init(ty, e, &mut path, &mut out)? {
                    t
                } else {
                    let te = self.expr(e)?;
                    let te = self.convert_assign(te, ty, e.span)?;
                    out.push((vec![], te));
                    ty.clone()
                }
            }
            ast::Initializer::List(items) => self.braced(ty, items, &mut path, &mut out, init)?,
        };
        if out.iter().any(|(path, e)| self.sets_mutex_kind(&ty, path) && self.const_int(e) != Some(BigInt::ZERO)) {
            return Err(self.unsupported(init.span, crate::pthreads::OTHER_MUTEX_TYPES));
        }
        Ok((ty, out))
    }

    /// Whether `path` into an object of type `ty` leads to the type of a glibc mutex
    /// (`__kind` of `struct __pthread_mutex_s`, which `PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP`
    /// and its kin set): a mutex whose type is not the normal one, unless the value is 0.
    fn sets_mutex_kind(&self, ty: &CType, path: &[Sel]) -> bool {
        let mut ty = ty.clone();
        for sel in path {
            let (next, field) = match (&ty, sel) {
                (CType::Array(elem, _), Sel::Index(_)) => ((**elem).clone(), None),
                (CType::Record(r), Sel::Field(k)) => {
                    let rec = &self.records[*r];
                    let Some(f) = rec.fields.as_ref().and_then(|fs| fs.get(*k)) else { return false };
                    (f.ty.clone(), Some((rec.tag.as_deref(), f.name.as_deref())))
                }
                _ => return false,
            };
            if field == Some((Some("__pthread_mutex_s"), Some("__kind"))) {
                return true;
            }
            ty = next;
        }
        false
    }

    /// A character array initialized by a string literal; returns the completed type.
    fn string_init(&mut self, ty: &CType, e: &Node<ast::Expression>, path: &mut Vec<Sel>, out: &mut Inits) -> Result<Option<CType>> {
        let (CType::Array(elem, n), ast::Expression::StringLiteral(_)) = (ty, &e.node) else { return Ok(None) };
        if !matches!(**elem, CType::Int(IntKind::Char | IntKind::SChar | IntKind::UChar)) {
            return Ok(None);
        }
        let te = self.expr(e)?;
        let ExprKind::StrLit(bytes) = &te.kind else { return Ok(None) };
        let len = n.unwrap_or(bytes.len() as u64 + 1);
        for (k, b) in bytes.iter().chain(std::iter::once(&0u8)).enumerate() {
            if k as u64 >= len {
                break;
            }
            let v = if **elem == CType::Int(IntKind::UChar) { *b as i64 } else { *b as i8 as i64 };
            path.push(Sel::Index(k as u64));
            out.push((path.clone(), Tr::int_lit(BigInt::from(v), (**elem).clone(), te.pos.clone())));
            path.pop();
        }
        Ok(Some(CType::Array(elem.clone(), Some(len))))
    }

    /// A braced initializer list for an object of type `ty`; returns the completed type.
    fn braced(
        &mut self,
        ty: &CType,
        items: &[Node<ast::InitializerListItem>],
        path: &mut Vec<Sel>,
        out: &mut Inits,
        at: &Node<ast::Initializer>,
    ) -> Result<CType> {
        if ty.is_scalar() {
            // `int x = { 1 };`
            let Some(first) = items.first() else {
                return Err(self.error(at.span, "empty scalar initializer"));
            };
            if !first.node.designation.is_empty() {
                return Err(self.error(first.span, "designator in a scalar initializer"));
            }
            return match &first.node.initializer.node {
                ast::Initializer::Expression(e) => {
                    let te = self.expr(e)?;
                    let te = self.convert_assign(te, ty, e.span)?;
                    out.push((path.clone(), te));
                    Ok(ty.clone())
                }
                ast::Initializer::List(inner) => self.braced(ty, inner, path, out, &first.node.initializer),
            };
        }
        let mut pos = 0;
        let mut max = 0u64;
        self.fill(ty, items, &mut pos, path, out, true, &mut max)?;
        Ok(match ty {
            CType::Array(e, None) => CType::Array(e.clone(), Some(max)),
            t => t.clone(),
        })
    }

    /// The type of member `k` of an aggregate and the selector for it (`None` past the end).
    fn member(&self, ty: &CType, k: u64) -> Option<(CType, Sel)> {
        match ty {
            CType::Array(e, n) => (n.is_none_or(|n| k < n)).then(|| ((**e).clone(), Sel::Index(k))),
            CType::Record(r) => {
                let rec = self.records.get(*r)?;
                let fields = rec.fields.as_ref()?;
                if rec.is_union && k > 0 {
                    return None;
                }
                fields.get(k as usize).map(|f| (f.ty.clone(), Sel::Field(k as usize)))
            }
            _ => None,
        }
    }

    /// The first member from `k` on that an initializer list initializes: unnamed bit-fields
    /// are not initialized.
    fn next_initialized(&self, ty: &CType, mut k: u64) -> u64 {
        if let CType::Record(r) = ty {
            let fields = self.records.get(*r).and_then(|rec| rec.fields.as_deref()).unwrap_or_default();
            while fields.get(k as usize).is_some_and(|f| f.name.is_none() && f.bit_width.is_some()) {
                k += 1;
            }
        }
        k
    }

    /// Initializes the members of an aggregate from `items[*pos..]`; an elided (unbraced)
    /// level stops when its members are exhausted or at a designator.
    #[allow(clippy::too_many_arguments)]
    fn fill(
        &mut self,
        ty: &CType,
        items: &[Node<ast::InitializerListItem>],
        pos: &mut usize,
        path: &mut Vec<Sel>,
        out: &mut Inits,
        braced: bool,
        max: &mut u64,
    ) -> Result<()> {
        let mut k: u64 = 0;
        while *pos < items.len() {
            let item = &items[*pos];
            if let Some(d) = item.node.designation.first() {
                if !braced {
                    return Ok(());
                }
                if item.node.designation.len() > 1 {
                    return Err(self.unsupported(item.span, "nested designator in an initializer"));
                }
                k = match (&d.node, ty) {
                    (ast::Designator::Index(e), CType::Array(..)) => {
                        let te = self.expr(e)?;
                        self.const_int(&te)
                            .and_then(|v| v.to_u64())
                            .ok_or_else(|| self.error(e.span, "array designator is not a constant"))?
                    }
                    (ast::Designator::Member(id), CType::Record(r)) => {
                        let fields = self.records.get(*r).and_then(|rec| rec.fields.clone()).unwrap_or_default();
                        fields
                            .iter()
                            .position(|f| f.name.as_deref() == Some(id.node.name.as_str()))
                            .ok_or_else(|| self.error(id.span, format!("no member named `{}`", id.node.name)))?
                            as u64
                    }
                    _ => return Err(self.unsupported(d.span, "this designator")),
                };
            }
            k = self.next_initialized(ty, k);
            let Some((sub, sel)) = self.member(ty, k) else {
                if braced {
                    // excess initializers are ignored (GCC warns)
                    *pos = items.len();
                }
                return Ok(());
            };
            path.push(sel);
            let r = self.fill_member(&sub, items, pos, path, out);
            path.pop();
            r?;
            k += 1;
            *max = (*max).max(k);
        }
        Ok(())
    }

    /// Initializes one member of type `sub` from `items[*pos]` (and following items when
    /// braces are elided).
    fn fill_member(
        &mut self,
        sub: &CType,
        items: &[Node<ast::InitializerListItem>],
        pos: &mut usize,
        path: &mut Vec<Sel>,
        out: &mut Inits,
    ) -> Result<()> {
        let item = &items[*pos];
        match &item.node.initializer.node {
            ast::Initializer::List(inner) => {
                *pos += 1;
                let mut p = path.clone();
                self.braced(sub, inner, &mut p, out, &item.node.initializer)?;
            }
            ast::Initializer::Expression(e) => {
                if sub.is_scalar() {
                    let te = self.expr(e)?;
                    let te = self.convert_assign(te, sub, e.span)?;
                    out.push((path.clone(), te));
                    *pos += 1;
                } else if self.string_init(sub, e, &mut path.clone(), out)?.is_some() {
                    *pos += 1;
                } else {
                    let te = self.expr(e)?;
                    if te.ty == *sub {
                        out.push((path.clone(), te));
                        *pos += 1;
                    } else {
                        // brace elision: the following items initialize the members of `sub`
                        let mut m = 0;
                        let before = *pos;
                        self.fill(sub, items, pos, path, out, false, &mut m)?;
                        if *pos == before {
                            return Err(self.error(item.span, "invalid initializer"));
                        }
                    }
                }
            }
        }
        Ok(())
    }
}
