//! The slice of Z3's C API that the backend uses, declared against the system libz3 (4.8.12)
//! that the `z3`/`z3-sys` crates link. The high-level `z3` crate is not used directly: it has no
//! access to quantifier bodies and de Bruijn indices, uses one implicit thread-local context, and
//! unwraps internally on Z3 errors, while we need per-solver contexts and no panics.
//! Enum values were checked against this machine's `z3_api.h`.

#![allow(non_snake_case, dead_code)]

use std::os::raw::{c_char, c_int, c_uint, c_void};

pub type Ctx = *mut c_void;
pub type Cfg = *mut c_void;
pub type Sym = *mut c_void;
/// An AST; sorts and declarations are ASTs too in the C implementation.
pub type Ast = *mut c_void;
pub type SortP = *mut c_void;
pub type Decl = *mut c_void;
pub type App = *mut c_void;
pub type SolverP = *mut c_void;
pub type ParamsP = *mut c_void;
pub type ModelP = *mut c_void;
pub type VecP = *mut c_void;
pub type GoalP = *mut c_void;
pub type TacticP = *mut c_void;
pub type ResultP = *mut c_void;
pub type InterpP = *mut c_void;
pub type EntryP = *mut c_void;

pub const OK: c_int = 0;
pub const L_FALSE: c_int = -1;
pub const L_TRUE: c_int = 1;
pub const GOAL_PRECISE: c_int = 0;

pub const NUMERAL_AST: c_int = 0;
pub const APP_AST: c_int = 1;
pub const VAR_AST: c_int = 2;
pub const QUANTIFIER_AST: c_int = 3;

pub const STRING_SYMBOL: c_int = 1;

pub const UNINTERPRETED_SORT: c_int = 0;
pub const BOOL_SORT: c_int = 1;
pub const INT_SORT: c_int = 2;
pub const REAL_SORT: c_int = 3;
pub const BV_SORT: c_int = 4;
pub const ARRAY_SORT: c_int = 5;
pub const FLOATING_POINT_SORT: c_int = 9;

pub const OP_TRUE: c_int = 0x100;
pub const OP_FALSE: c_int = 0x101;
pub const OP_EQ: c_int = 0x102;
pub const OP_DISTINCT: c_int = 0x103;
pub const OP_ITE: c_int = 0x104;
pub const OP_AND: c_int = 0x105;
pub const OP_OR: c_int = 0x106;
pub const OP_IFF: c_int = 0x107;
pub const OP_XOR: c_int = 0x108;
pub const OP_NOT: c_int = 0x109;
pub const OP_IMPLIES: c_int = 0x10a;
pub const OP_OEQ: c_int = 0x10b;
pub const OP_ANUM: c_int = 0x200;
pub const OP_AGNUM: c_int = 0x201;
pub const OP_LE: c_int = 0x202;
pub const OP_GE: c_int = 0x203;
pub const OP_LT: c_int = 0x204;
pub const OP_GT: c_int = 0x205;
pub const OP_ADD: c_int = 0x206;
pub const OP_SUB: c_int = 0x207;
pub const OP_UMINUS: c_int = 0x208;
pub const OP_MUL: c_int = 0x209;
pub const OP_DIV: c_int = 0x20a;
pub const OP_IDIV: c_int = 0x20b;
pub const OP_REM: c_int = 0x20c;
pub const OP_MOD: c_int = 0x20d;
pub const OP_TO_REAL: c_int = 0x20e;
pub const OP_TO_INT: c_int = 0x20f;
pub const OP_IS_INT: c_int = 0x210;
pub const OP_POWER: c_int = 0x211;
pub const OP_STORE: c_int = 0x300;
pub const OP_SELECT: c_int = 0x301;
pub const OP_CONST_ARRAY: c_int = 0x302;
pub const OP_AS_ARRAY: c_int = 0x30a;
pub const OP_UNINTERPRETED: c_int = 45101;

#[link(name = "z3")]
extern "C" {
    pub fn Z3_mk_config() -> Cfg;
    pub fn Z3_del_config(c: Cfg);
    pub fn Z3_set_param_value(c: Cfg, id: *const c_char, v: *const c_char);
    pub fn Z3_mk_context_rc(c: Cfg) -> Ctx;
    pub fn Z3_del_context(c: Ctx);
    pub fn Z3_set_error_handler(c: Ctx, h: *const c_void);
    pub fn Z3_get_error_code(c: Ctx) -> c_int;
    pub fn Z3_interrupt(c: Ctx);
    pub fn Z3_get_error_msg(c: Ctx, e: c_int) -> *const c_char;
    pub fn Z3_inc_ref(c: Ctx, a: Ast);
    pub fn Z3_dec_ref(c: Ctx, a: Ast);
    pub fn Z3_ast_to_string(c: Ctx, a: Ast) -> *const c_char;

    pub fn Z3_mk_string_symbol(c: Ctx, s: *const c_char) -> Sym;
    pub fn Z3_get_symbol_kind(c: Ctx, s: Sym) -> c_int;
    pub fn Z3_get_symbol_string(c: Ctx, s: Sym) -> *const c_char;
    pub fn Z3_get_symbol_int(c: Ctx, s: Sym) -> c_int;

    pub fn Z3_mk_bool_sort(c: Ctx) -> SortP;
    pub fn Z3_mk_int_sort(c: Ctx) -> SortP;
    pub fn Z3_mk_real_sort(c: Ctx) -> SortP;
    pub fn Z3_mk_bv_sort(c: Ctx, sz: c_uint) -> SortP;
    pub fn Z3_mk_fpa_sort(c: Ctx, ebits: c_uint, sbits: c_uint) -> SortP;
    pub fn Z3_mk_array_sort(c: Ctx, d: SortP, r: SortP) -> SortP;
    pub fn Z3_mk_uninterpreted_sort(c: Ctx, s: Sym) -> SortP;
    pub fn Z3_get_sort_kind(c: Ctx, s: SortP) -> c_int;
    pub fn Z3_get_bv_sort_size(c: Ctx, s: SortP) -> c_uint;
    pub fn Z3_fpa_get_ebits(c: Ctx, s: SortP) -> c_uint;
    pub fn Z3_fpa_get_sbits(c: Ctx, s: SortP) -> c_uint;
    pub fn Z3_get_array_sort_domain(c: Ctx, s: SortP) -> SortP;
    pub fn Z3_get_array_sort_range(c: Ctx, s: SortP) -> SortP;
    pub fn Z3_get_sort_name(c: Ctx, s: SortP) -> Sym;
    pub fn Z3_sort_to_ast(c: Ctx, s: SortP) -> Ast;

    pub fn Z3_mk_func_decl(c: Ctx, s: Sym, n: c_uint, domain: *const SortP, range: SortP) -> Decl;
    pub fn Z3_func_decl_to_ast(c: Ctx, d: Decl) -> Ast;
    pub fn Z3_get_decl_kind(c: Ctx, d: Decl) -> c_int;
    pub fn Z3_get_decl_name(c: Ctx, d: Decl) -> Sym;
    pub fn Z3_get_domain_size(c: Ctx, d: Decl) -> c_uint;
    pub fn Z3_get_domain(c: Ctx, d: Decl, i: c_uint) -> SortP;
    pub fn Z3_get_range(c: Ctx, d: Decl) -> SortP;
    pub fn Z3_get_as_array_func_decl(c: Ctx, a: Ast) -> Decl;

    pub fn Z3_mk_const(c: Ctx, s: Sym, ty: SortP) -> Ast;
    pub fn Z3_mk_app(c: Ctx, d: Decl, n: c_uint, args: *const Ast) -> Ast;
    pub fn Z3_mk_true(c: Ctx) -> Ast;
    pub fn Z3_mk_false(c: Ctx) -> Ast;
    pub fn Z3_mk_numeral(c: Ctx, numeral: *const c_char, ty: SortP) -> Ast;
    pub fn Z3_mk_not(c: Ctx, a: Ast) -> Ast;
    pub fn Z3_mk_and(c: Ctx, n: c_uint, args: *const Ast) -> Ast;
    pub fn Z3_mk_or(c: Ctx, n: c_uint, args: *const Ast) -> Ast;
    pub fn Z3_mk_implies(c: Ctx, a: Ast, b: Ast) -> Ast;
    pub fn Z3_mk_ite(c: Ctx, i: Ast, t: Ast, e: Ast) -> Ast;
    pub fn Z3_mk_eq(c: Ctx, a: Ast, b: Ast) -> Ast;
    pub fn Z3_mk_distinct(c: Ctx, n: c_uint, args: *const Ast) -> Ast;
    pub fn Z3_mk_le(c: Ctx, a: Ast, b: Ast) -> Ast;
    pub fn Z3_mk_lt(c: Ctx, a: Ast, b: Ast) -> Ast;
    pub fn Z3_mk_add(c: Ctx, n: c_uint, args: *const Ast) -> Ast;
    pub fn Z3_mk_sub(c: Ctx, n: c_uint, args: *const Ast) -> Ast;
    pub fn Z3_mk_mul(c: Ctx, n: c_uint, args: *const Ast) -> Ast;
    pub fn Z3_mk_unary_minus(c: Ctx, a: Ast) -> Ast;
    pub fn Z3_mk_div(c: Ctx, a: Ast, b: Ast) -> Ast;
    pub fn Z3_mk_mod(c: Ctx, a: Ast, b: Ast) -> Ast;
    pub fn Z3_mk_int2real(c: Ctx, a: Ast) -> Ast;
    pub fn Z3_mk_real2int(c: Ctx, a: Ast) -> Ast;
    pub fn Z3_mk_select(c: Ctx, a: Ast, i: Ast) -> Ast;
    pub fn Z3_mk_store(c: Ctx, a: Ast, i: Ast, v: Ast) -> Ast;
    pub fn Z3_mk_const_array(c: Ctx, domain: SortP, v: Ast) -> Ast;
    pub fn Z3_to_app(c: Ctx, a: Ast) -> App;
    pub fn Z3_mk_quantifier_const(
        c: Ctx,
        is_forall: bool,
        weight: c_uint,
        num_bound: c_uint,
        bound: *const App,
        num_patterns: c_uint,
        patterns: *const c_void,
        body: Ast,
    ) -> Ast;
    pub fn Z3_simplify(c: Ctx, a: Ast) -> Ast;

    pub fn Z3_get_ast_kind(c: Ctx, a: Ast) -> c_int;
    pub fn Z3_get_ast_id(c: Ctx, a: Ast) -> c_uint;
    pub fn Z3_get_sort(c: Ctx, a: Ast) -> SortP;
    pub fn Z3_get_app_decl(c: Ctx, a: App) -> Decl;
    pub fn Z3_get_app_num_args(c: Ctx, a: App) -> c_uint;
    pub fn Z3_get_app_arg(c: Ctx, a: App, i: c_uint) -> Ast;
    pub fn Z3_get_numeral_string(c: Ctx, a: Ast) -> *const c_char;
    pub fn Z3_get_index_value(c: Ctx, a: Ast) -> c_uint;
    pub fn Z3_is_quantifier_forall(c: Ctx, a: Ast) -> bool;
    pub fn Z3_is_quantifier_exists(c: Ctx, a: Ast) -> bool;
    pub fn Z3_get_quantifier_num_bound(c: Ctx, a: Ast) -> c_uint;
    pub fn Z3_get_quantifier_bound_name(c: Ctx, a: Ast, i: c_uint) -> Sym;
    pub fn Z3_get_quantifier_bound_sort(c: Ctx, a: Ast, i: c_uint) -> SortP;
    pub fn Z3_get_quantifier_body(c: Ctx, a: Ast) -> Ast;

    pub fn Z3_mk_params(c: Ctx) -> ParamsP;
    pub fn Z3_params_inc_ref(c: Ctx, p: ParamsP);
    pub fn Z3_params_dec_ref(c: Ctx, p: ParamsP);
    pub fn Z3_params_set_uint(c: Ctx, p: ParamsP, k: Sym, v: c_uint);

    pub fn Z3_mk_solver(c: Ctx) -> SolverP;
    pub fn Z3_solver_inc_ref(c: Ctx, s: SolverP);
    pub fn Z3_solver_dec_ref(c: Ctx, s: SolverP);
    pub fn Z3_solver_set_params(c: Ctx, s: SolverP, p: ParamsP);
    pub fn Z3_solver_push(c: Ctx, s: SolverP);
    pub fn Z3_solver_pop(c: Ctx, s: SolverP, n: c_uint);
    pub fn Z3_solver_assert(c: Ctx, s: SolverP, a: Ast);
    pub fn Z3_solver_assert_and_track(c: Ctx, s: SolverP, a: Ast, p: Ast);
    pub fn Z3_solver_check(c: Ctx, s: SolverP) -> c_int;
    pub fn Z3_solver_get_model(c: Ctx, s: SolverP) -> ModelP;
    pub fn Z3_solver_get_unsat_core(c: Ctx, s: SolverP) -> VecP;
    pub fn Z3_solver_get_reason_unknown(c: Ctx, s: SolverP) -> *const c_char;

    pub fn Z3_model_inc_ref(c: Ctx, m: ModelP);
    pub fn Z3_model_dec_ref(c: Ctx, m: ModelP);
    pub fn Z3_model_eval(c: Ctx, m: ModelP, t: Ast, completion: bool, v: *mut Ast) -> bool;
    pub fn Z3_model_get_func_interp(c: Ctx, m: ModelP, f: Decl) -> InterpP;
    pub fn Z3_func_interp_inc_ref(c: Ctx, f: InterpP);
    pub fn Z3_func_interp_dec_ref(c: Ctx, f: InterpP);
    pub fn Z3_func_interp_get_num_entries(c: Ctx, f: InterpP) -> c_uint;
    pub fn Z3_func_interp_get_entry(c: Ctx, f: InterpP, i: c_uint) -> EntryP;
    pub fn Z3_func_interp_get_else(c: Ctx, f: InterpP) -> Ast;
    pub fn Z3_func_entry_inc_ref(c: Ctx, e: EntryP);
    pub fn Z3_func_entry_dec_ref(c: Ctx, e: EntryP);
    pub fn Z3_func_entry_get_value(c: Ctx, e: EntryP) -> Ast;
    pub fn Z3_func_entry_get_num_args(c: Ctx, e: EntryP) -> c_uint;
    pub fn Z3_func_entry_get_arg(c: Ctx, e: EntryP, i: c_uint) -> Ast;

    pub fn Z3_ast_vector_inc_ref(c: Ctx, v: VecP);
    pub fn Z3_ast_vector_dec_ref(c: Ctx, v: VecP);
    pub fn Z3_ast_vector_size(c: Ctx, v: VecP) -> c_uint;
    pub fn Z3_ast_vector_get(c: Ctx, v: VecP, i: c_uint) -> Ast;

    pub fn Z3_mk_goal(c: Ctx, models: bool, unsat_cores: bool, proofs: bool) -> GoalP;
    pub fn Z3_goal_inc_ref(c: Ctx, g: GoalP);
    pub fn Z3_goal_dec_ref(c: Ctx, g: GoalP);
    pub fn Z3_goal_assert(c: Ctx, g: GoalP, a: Ast);
    pub fn Z3_goal_size(c: Ctx, g: GoalP) -> c_uint;
    pub fn Z3_goal_formula(c: Ctx, g: GoalP, i: c_uint) -> Ast;
    pub fn Z3_goal_precision(c: Ctx, g: GoalP) -> c_int;

    pub fn Z3_mk_tactic(c: Ctx, name: *const c_char) -> TacticP;
    pub fn Z3_tactic_inc_ref(c: Ctx, t: TacticP);
    pub fn Z3_tactic_dec_ref(c: Ctx, t: TacticP);
    pub fn Z3_tactic_try_for(c: Ctx, t: TacticP, ms: c_uint) -> TacticP;
    pub fn Z3_tactic_apply(c: Ctx, t: TacticP, g: GoalP) -> ResultP;
    pub fn Z3_apply_result_inc_ref(c: Ctx, r: ResultP);
    pub fn Z3_apply_result_dec_ref(c: Ctx, r: ResultP);
    pub fn Z3_apply_result_get_num_subgoals(c: Ctx, r: ResultP) -> c_uint;
    pub fn Z3_apply_result_get_subgoal(c: Ctx, r: ResultP, i: c_uint) -> GoalP;
}
