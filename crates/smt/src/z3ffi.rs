//! Z3's C API for the backend: the declarations of the `z3-sys` crate, linked against the
//! system libz3 (4.8.12), plus the one function whose `z3-sys` declaration does not fit that
//! library. The high-level `z3` crate is not used: it has no access to quantifier bodies and
//! de Bruijn indices, uses one implicit context, and unwraps internally on Z3 errors, while we
//! need per-solver contexts and no panics.
//!
//! `z3-sys` 0.14 declares Z3's C enums as Rust enums numbered after the Z3 5.3 headers (its
//! build script warns about this when it detects 4.8.12). Compared with this machine's
//! `z3_api.h` (4.8.12):
//! - sort, AST, symbol, error-code and goal-precision kinds agree value for value, so the
//!   `z3-sys` declarations returning them are used as they are;
//! - `Z3_decl_kind` was renumbered after 4.8.12 (`Z3_OP_RECURSIVE` was inserted in 4.8.16, the
//!   finite-set operations in 5.0, ...). 4.8.12 returns 45101 for every uninterpreted symbol,
//!   which is no `DeclKind` variant at all, so calling `z3_sys::Z3_get_decl_kind` would be
//!   undefined behaviour. [`get_decl_kind`] declares that one function with its plain C return
//!   type instead, and the `OP_*` constants below take the `DeclKind` numbers only for kinds
//!   whose numbers 4.8.12 shares (checked against the live library by a test).

pub use z3_sys::*;

use std::os::raw::c_uint;

unsafe extern "C" {
    /// `Z3_get_decl_kind`, returning the raw C enum value (see the module documentation).
    #[link_name = "Z3_get_decl_kind"]
    pub fn get_decl_kind(c: Z3_context, d: Z3_func_decl) -> c_uint;
}

/// The declaration kinds the backend translates back, as raw values for [`get_decl_kind`].
/// These kinds have the same numbers in libz3 4.8.12 and in `z3-sys`' `DeclKind`.
pub mod op {
    use z3_sys::DeclKind;

    pub const TRUE: u32 = DeclKind::True as u32;
    pub const FALSE: u32 = DeclKind::False as u32;
    pub const EQ: u32 = DeclKind::Eq as u32;
    pub const DISTINCT: u32 = DeclKind::Distinct as u32;
    pub const ITE: u32 = DeclKind::Ite as u32;
    pub const AND: u32 = DeclKind::And as u32;
    pub const OR: u32 = DeclKind::Or as u32;
    pub const IFF: u32 = DeclKind::Iff as u32;
    pub const XOR: u32 = DeclKind::Xor as u32;
    pub const NOT: u32 = DeclKind::Not as u32;
    pub const IMPLIES: u32 = DeclKind::Implies as u32;
    pub const OEQ: u32 = DeclKind::Oeq as u32;
    pub const LE: u32 = DeclKind::Le as u32;
    pub const GE: u32 = DeclKind::Ge as u32;
    pub const LT: u32 = DeclKind::Lt as u32;
    pub const GT: u32 = DeclKind::Gt as u32;
    pub const ADD: u32 = DeclKind::Add as u32;
    pub const SUB: u32 = DeclKind::Sub as u32;
    pub const UMINUS: u32 = DeclKind::Uminus as u32;
    pub const MUL: u32 = DeclKind::Mul as u32;
    pub const DIV: u32 = DeclKind::Div as u32;
    pub const IDIV: u32 = DeclKind::Idiv as u32;
    pub const REM: u32 = DeclKind::Rem as u32;
    pub const MOD: u32 = DeclKind::Mod as u32;
    pub const TO_REAL: u32 = DeclKind::ToReal as u32;
    pub const TO_INT: u32 = DeclKind::ToInt as u32;
    pub const IS_INT: u32 = DeclKind::IsInt as u32;
    pub const POWER: u32 = DeclKind::Power as u32;
    pub const STORE: u32 = DeclKind::Store as u32;
    pub const SELECT: u32 = DeclKind::Select as u32;
    pub const CONST_ARRAY: u32 = DeclKind::ConstArray as u32;
    pub const AS_ARRAY: u32 = DeclKind::AsArray as u32;
    // Bit-vector kinds: `Z3_OP_BNUM = 0x400` and its successors in libz3 4.8.12's `z3_api.h`
    // (`z3-sys` numbers them after a later header).
    pub const BV_FIRST: u32 = 0x400;
    pub const BNEG: u32 = 0x403;
    pub const BADD: u32 = 0x404;
    pub const BSUB: u32 = 0x405;
    pub const BMUL: u32 = 0x406;
    pub const BSDIV: u32 = 0x407;
    pub const BUDIV: u32 = 0x408;
    pub const BSREM: u32 = 0x409;
    pub const BUREM: u32 = 0x40a;
    pub const ULEQ: u32 = 0x411;
    pub const SLEQ: u32 = 0x412;
    pub const UGEQ: u32 = 0x413;
    pub const SGEQ: u32 = 0x414;
    pub const ULT: u32 = 0x415;
    pub const SLT: u32 = 0x416;
    pub const UGT: u32 = 0x417;
    pub const SGT: u32 = 0x418;
    pub const BAND: u32 = 0x419;
    pub const BOR: u32 = 0x41a;
    pub const BNOT: u32 = 0x41b;
    pub const BXOR: u32 = 0x41c;
    pub const BCONCAT: u32 = 0x420;
    pub const SIGN_EXT: u32 = 0x421;
    pub const ZERO_EXT: u32 = 0x422;
    pub const EXTRACT: u32 = 0x423;
    pub const BSHL: u32 = 0x428;
    pub const BLSHR: u32 = 0x429;
    pub const BASHR: u32 = 0x42a;
    pub const INT2BV: u32 = 0x430;
    pub const BV2INT: u32 = 0x431;
    pub const BSDIV_I: u32 = 0x437;
    pub const BUDIV_I: u32 = 0x438;
    pub const BSREM_I: u32 = 0x439;
    pub const BUREM_I: u32 = 0x43a;
    pub const BV_LAST: u32 = 0x43a;
    // Floating-point kinds (`Z3_OP_FPA_*`), libz3 4.8.12's numbers.
    pub const FPA_FIRST: u32 = 45056;
    pub const FPA_RM_NEAREST_TIES_TO_EVEN: u32 = 45056;
    pub const FPA_RM_NEAREST_TIES_TO_AWAY: u32 = 45057;
    pub const FPA_RM_TOWARD_POSITIVE: u32 = 45058;
    pub const FPA_RM_TOWARD_NEGATIVE: u32 = 45059;
    pub const FPA_RM_TOWARD_ZERO: u32 = 45060;
    pub const FPA_NUM: u32 = 45061;
    pub const FPA_PLUS_INF: u32 = 45062;
    pub const FPA_MINUS_INF: u32 = 45063;
    pub const FPA_NAN: u32 = 45064;
    pub const FPA_PLUS_ZERO: u32 = 45065;
    pub const FPA_MINUS_ZERO: u32 = 45066;
    pub const FPA_ADD: u32 = 45067;
    pub const FPA_SUB: u32 = 45068;
    pub const FPA_NEG: u32 = 45069;
    pub const FPA_MUL: u32 = 45070;
    pub const FPA_DIV: u32 = 45071;
    pub const FPA_ABS: u32 = 45073;
    pub const FPA_SQRT: u32 = 45077;
    pub const FPA_ROUND_TO_INTEGRAL: u32 = 45078;
    pub const FPA_EQ: u32 = 45079;
    pub const FPA_LT: u32 = 45080;
    pub const FPA_GT: u32 = 45081;
    pub const FPA_LE: u32 = 45082;
    pub const FPA_GE: u32 = 45083;
    pub const FPA_IS_NAN: u32 = 45084;
    pub const FPA_IS_ZERO: u32 = 45086;
    pub const FPA_FP: u32 = 45091;
    pub const FPA_TO_FP: u32 = 45092;
    pub const FPA_TO_FP_UNSIGNED: u32 = 45093;
    pub const FPA_TO_UBV: u32 = 45094;
    pub const FPA_TO_SBV: u32 = 45095;
    pub const FPA_LAST: u32 = 45099;
    /// `Z3_OP_UNINTERPRETED` in libz3 4.8.12 (`DeclKind::Uninterpreted` is 49167, the Z3 5
    /// number). Only a fallback: the backend asks the library for the actual value.
    pub const UNINTERPRETED_4_8_12: u32 = 45101;
}
