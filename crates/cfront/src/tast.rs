//! The typed expression tree: every expression carries its C type, and every implicit
//! conversion (integer promotion, usual arithmetic conversion, conversion as if by assignment,
//! argument conversion) is an explicit `Cast` node.

use crate::conv::{ArithOp, CmpOp};
use crate::types::CType;
use ir::SourcePos;
use num_bigint::BigInt;

/// A step from an object to one of its subobjects (in initializers).
#[derive(Clone, Debug, PartialEq)]
pub enum Sel {
    /// The member with this index.
    Field(usize),
    /// The array element with this index.
    Index(u64),
}

/// Index of a variable in the translation's variable table.
pub type VarId = usize;

/// A typed expression.
#[derive(Clone, Debug)]
pub struct Expr {
    /// What the expression is.
    pub kind: ExprKind,
    /// Its type (after any conversion the node itself performs).
    pub ty: CType,
    /// Where it starts in the source.
    pub pos: SourcePos,
}

/// The callee of a call.
#[derive(Clone, Debug)]
pub enum Callee {
    /// A function named directly (defined, declared, or implicitly declared).
    Named(String),
    /// The function a pointer points to (the pointer, of type pointer to function).
    Pointer(Box<Expr>),
}

/// Kinds of typed expressions.
#[derive(Clone, Debug)]
pub enum ExprKind {
    /// An integer constant (in the range of the type).
    IntLit(BigInt),
    /// A floating-point constant: its value rounded to its type (`None`: not read, e.g.
    /// hexadecimal or `long double`).
    FloatLit(Option<f64>),
    /// A string literal (its bytes, without the terminating zero).
    StrLit(Vec<u8>),
    /// A function designator, or (with a pointer type) a pointer to the function it names.
    Function(String),
    /// A variable (an lvalue).
    Var(VarId),
    /// Conversion of the operand to this node's type.
    Cast(Box<Expr>),
    /// `-e` in the (promoted) type of the node.
    Neg(Box<Expr>),
    /// `~e`.
    BitNot(Box<Expr>),
    /// `!e` (type `int`).
    Not(Box<Expr>),
    /// A binary operator; the operands have the node's type, except the right operand of shifts.
    Arith(ArithOp, Box<Expr>, Box<Expr>),
    /// A comparison of operands converted to a common type (type `int`).
    Cmp(CmpOp, Box<Expr>, Box<Expr>),
    /// `a && b` (type `int`).
    LogAnd(Box<Expr>, Box<Expr>),
    /// `a || b` (type `int`).
    LogOr(Box<Expr>, Box<Expr>),
    /// `c ? a : b` with `a` and `b` converted to the node's type.
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `a, b`.
    Comma(Box<Expr>, Box<Expr>),
    /// `lv = rhs` with `rhs` converted to the type of `lv`.
    Assign(Box<Expr>, Box<Expr>),
    /// `lv op= rhs`: `lv` is converted to `op_ty`, combined with `rhs` (already converted to
    /// `op_ty`, or promoted for shifts) and the result converted back.
    CompoundAssign {
        /// The operator.
        op: ArithOp,
        /// The lvalue.
        lv: Box<Expr>,
        /// The right operand.
        rhs: Box<Expr>,
        /// The type the operation is performed in.
        op_ty: CType,
        /// Whether the value of the expression is the old value (postfix `++`/`--`).
        post: bool,
    },
    /// The member with the given index of a struct (an lvalue if the struct is).
    Member(Box<Expr>, usize),
    /// The element of an array object (`a[i]` with `a` of array type; the index is promoted).
    Index(Box<Expr>, Box<Expr>),
    /// The address of an lvalue (also the decay of an array to a pointer to its first element).
    AddrOf(Box<Expr>),
    /// The object a pointer points to (an lvalue).
    Deref(Box<Expr>),
    /// `p + i` (or `p - i` when the flag is set) for a pointer `p` to objects of the given size.
    PtrOffset(Box<Expr>, Box<Expr>, u64, bool),
    /// `p - q` for pointers to objects of the given size (type `long`).
    PtrDiff(Box<Expr>, Box<Expr>, u64),
    /// A function call with converted arguments.
    Call(Callee, Vec<Expr>),
    /// A GNU statement expression `({ ...; e; })`: its value is that of the last expression
    /// statement (re-typed when translated, in the block's own scope).
    StmtExpr(Box<lang_c::span::Node<lang_c::ast::Statement>>),
    /// An expression this front end types but cannot translate (the construct's name).
    Unsupported(String),
}

impl Expr {
    /// A new node.
    pub fn new(kind: ExprKind, ty: CType, pos: SourcePos) -> Expr {
        Expr { kind, ty, pos }
    }

    /// Whether the value is known to be 0 or 1 (comparisons, `!`, `&&`, `||`, `_Bool`, and
    /// `&`, `|`, `^`, `?:` of such values).
    pub fn is_boolean(&self) -> bool {
        match &self.kind {
            ExprKind::Cmp(..) | ExprKind::Not(_) | ExprKind::LogAnd(..) | ExprKind::LogOr(..) => true,
            ExprKind::IntLit(v) => *v == BigInt::from(0) || *v == BigInt::from(1),
            ExprKind::Cast(e) => e.is_boolean() && self.ty.is_integer(),
            ExprKind::Arith(ArithOp::And, a, b) => a.is_boolean() || b.is_boolean(),
            ExprKind::Arith(ArithOp::Or | ArithOp::Xor, a, b) => a.is_boolean() && b.is_boolean(),
            ExprKind::Cond(_, a, b) => a.is_boolean() && b.is_boolean() && self.ty.is_integer(),
            ExprKind::Comma(_, b) => b.is_boolean() && self.ty.is_integer(),
            _ => matches!(self.ty, CType::Int(crate::types::IntKind::Bool)),
        }
    }
}
