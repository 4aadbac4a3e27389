//! Ownership of Z3 objects: the raw context and reference-counted handles to its objects.

use crate::z3ffi as ffi;
use std::rc::Rc;

/// A Z3 context; deleted when the last object referring to it is dropped.
pub(super) struct RawCtx(pub(super) ffi::Z3_context);

impl Drop for RawCtx {
    fn drop(&mut self) {
        // SAFETY: the pointer came from Z3_mk_context_rc and every object that refers to it
        // holds an Rc to this value, so none is alive any more.
        unsafe { ffi::Z3_del_context(self.0) }
    }
}

/// A reference-counted Z3 object type (a `z3-sys` handle) and its reference-counting functions.
pub(super) trait RefCounted: Copy {
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
pub(super) struct Owned<T: RefCounted> {
    ctx: Rc<RawCtx>,
    /// The Z3 object.
    pub(super) p: T,
}

impl<T: RefCounted> Owned<T> {
    /// Takes a reference to `p` (created in `ctx`).
    pub(super) fn new(ctx: &Rc<RawCtx>, p: T) -> Owned<T> {
        // SAFETY: `p` is a live object of context `ctx`.
        unsafe { T::inc_ref(ctx.0, p) };
        Owned { ctx: ctx.clone(), p }
    }

    /// The context the object lives in.
    pub(super) fn ctx(&self) -> ffi::Z3_context {
        self.ctx.0
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
