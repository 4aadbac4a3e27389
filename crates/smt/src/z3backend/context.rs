//! [`Z3Ctx`]: a Z3 context with its translation caches, error checking and symbols.

use super::ownership::{Owned, RawCtx, RefCounted};
use super::Res;
use crate::solver::SolverError;
use crate::sort::Sort;
use crate::term::{FuncDecl, Term};
use crate::z3ffi as ffi;
use std::collections::HashMap;
use std::ffi::{CStr, CString};
use std::os::raw::{c_char, c_uint};
use std::rc::Rc;
use std::sync::Arc;

/// What a Z3 symbol name stands for.
#[derive(Clone)]
pub(super) enum Owner {
    Var(Term),
    Func(Arc<FuncDecl>),
    Internal,
}

/// A Z3 context with translation caches (terms, sorts, function symbols) in both directions.
pub(crate) struct Z3Ctx {
    raw: Rc<RawCtx>,
    /// Term -> its Z3 AST.
    pub(super) terms: HashMap<Term, Owned<ffi::Z3_ast>>,
    /// Sort -> its Z3 sort.
    pub(super) sorts: HashMap<Sort, Owned<ffi::Z3_sort>>,
    /// Function symbol -> its Z3 declaration.
    pub(super) funcs: HashMap<Arc<FuncDecl>, Owned<ffi::Z3_func_decl>>,
    /// Z3 symbol name -> what it stands for; names are unique per context.
    pub(super) names: HashMap<String, Owner>,
    /// The declaration kind of uninterpreted symbols in this libz3 (asked, not assumed).
    pub(super) uninterpreted: c_uint,
    /// The solver of [`Z3Ctx::check_sat`], made once.
    pub(super) checker: Option<Owned<ffi::Z3_solver>>,
}

/// A C string for Z3 (interior NULs replaced, since Z3 cannot take them).
pub(super) fn cstring(s: &str) -> CString {
    CString::new(s.replace('\0', "_")).unwrap_or_default()
}

/// Copies a string Z3 returned (`None` for null).
pub(super) fn read_str(p: *const c_char) -> Option<String> {
    if p.is_null() {
        return None;
    }
    // SAFETY: Z3 returns NUL-terminated strings valid until the next API call; we copy at once.
    Some(unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
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
            checker: None,
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

    /// The raw context pointer.
    pub(super) fn c(&self) -> ffi::Z3_context {
        self.raw.0
    }

    /// Number of cached term translations (a measure of the context's size).
    pub(crate) fn cache_len(&self) -> usize {
        self.terms.len()
    }

    /// The pending Z3 error, if the last call failed.
    pub(super) fn error(&self) -> Option<String> {
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
    pub(super) fn check_ptr<T>(&self, p: Option<T>, what: &str) -> Res<T> {
        if let Some(e) = self.error() {
            return Err(SolverError::Failure(format!("{what}: {e}")));
        }
        p.ok_or_else(|| SolverError::Failure(format!("{what}: Z3 returned null")))
    }

    /// Checks the last call and takes a reference to its result.
    pub(super) fn own<T: RefCounted>(&self, p: Option<T>, what: &str) -> Res<Owned<T>> {
        let p = self.check_ptr(p, what)?;
        Ok(Owned::new(&self.raw, p))
    }

    /// [`Self::own`] for ASTs.
    pub(super) fn ast(&self, p: Option<ffi::Z3_ast>, what: &str) -> Res<Owned<ffi::Z3_ast>> {
        self.own(p, what)
    }

    /// Checks that the last call raised no error.
    pub(super) fn check_ok(&self, what: &str) -> Res<()> {
        match self.error() {
            Some(e) => Err(SolverError::Failure(format!("{what}: {e}"))),
            None => Ok(()),
        }
    }

    /// The SMT-LIB text of an AST (for messages).
    pub(super) fn ast_string(&self, a: ffi::Z3_ast) -> String {
        // SAFETY: valid AST of this context.
        read_str(unsafe { ffi::Z3_ast_to_string(self.c(), a) }).unwrap_or_default()
    }

    /// The Z3 symbol for `name`.
    pub(super) fn symbol(&self, name: &str) -> Res<ffi::Z3_symbol> {
        let s = cstring(name);
        // SAFETY: valid context and string; symbols need no reference counting.
        let p = unsafe { ffi::Z3_mk_string_symbol(self.c(), s.as_ptr()) };
        self.check_ptr(p, "symbol")
    }

    /// The name of a Z3 symbol (`k!N` for numbered ones).
    pub(super) fn symbol_name(&self, s: ffi::Z3_symbol) -> String {
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
    pub(super) fn unique_name(&mut self, base: &str, owner: Owner) -> String {
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

    /// The declaration kind (libz3 4.8.12 numbering) of an application AST of this context
    /// (numerals of floating-point and rounding-mode sorts are applications too).
    pub(super) fn app_kind(&self, a: ffi::Z3_ast) -> Res<u32> {
        let c = self.c();
        // SAFETY: `a` is a live application AST; its declaration lives as long as it does.
        let app = self.check_ptr(unsafe { ffi::Z3_to_app(c, a) }, "to_app")?;
        let decl = self.check_ptr(unsafe { ffi::Z3_get_app_decl(c, app) }, "decl")?;
        Ok(unsafe { ffi::get_decl_kind(c, decl) })
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
