//! Abstract syntax of the supported Boogie subset.

use crate::error::Pos;
use num_bigint::BigInt;
use num_rational::BigRational;

/// An identifier with its position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    /// The name as written (without a leading backslash).
    pub name: String,
    /// Where it occurs.
    pub pos: Pos,
}

/// A type as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Type {
    /// `int`.
    Int,
    /// `bool`.
    Bool,
    /// `real`.
    Real,
    /// A user-declared type or type synonym.
    Named(Ident),
    /// A map type `[i1, .., in]e`.
    Map(Vec<Type>, Box<Type>),
}

/// An attribute `{:name args}`; only string arguments are kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attr {
    /// The attribute's name.
    pub name: String,
    /// Its string-literal arguments.
    pub strings: Vec<String>,
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    /// Arithmetic negation.
    Neg,
    /// Boolean negation.
    Not,
}

/// Binary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Iff,
    Implies,
    Explies,
    Or,
    And,
    Eq,
    Neq,
    Lt,
    Le,
    Gt,
    Ge,
    Add,
    Sub,
    Mul,
    /// `/` (real division; Euclidean division on integers as in Ultimate).
    Div,
    /// `div`.
    IntDiv,
    /// `mod` or `%`.
    Mod,
}

impl BinOp {
    /// The operator as written in Boogie.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Iff => "<==>",
            BinOp::Implies => "==>",
            BinOp::Explies => "<==",
            BinOp::Or => "||",
            BinOp::And => "&&",
            BinOp::Eq => "==",
            BinOp::Neq => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::IntDiv => "div",
            BinOp::Mod => "mod",
        }
    }
}

/// Quantifier kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuantKind {
    /// `forall`.
    Forall,
    /// `exists`.
    Exists,
}

/// An expression with its position and nesting depth.
#[derive(Clone, Debug)]
pub struct Expr {
    /// What the expression is.
    pub kind: ExprKind,
    /// Where it starts (for operators: where the operator is).
    pub pos: Pos,
    /// Height of the expression tree (bounded by the parser to keep recursion shallow).
    pub depth: u32,
}

/// Expression kinds.
#[derive(Clone, Debug)]
pub enum ExprKind {
    /// `true` / `false`.
    Bool(bool),
    /// An integer literal.
    Int(BigInt),
    /// A decimal literal.
    Real(BigRational),
    /// A variable or constant.
    Var(String),
    /// A unary operation.
    Unary(UnOp, Box<Expr>),
    /// A binary operation.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// Map select `m[i1, .., in]`.
    Select(Box<Expr>, Vec<Expr>),
    /// Map update `m[i1, .., in := v]`.
    Update(Box<Expr>, Vec<Expr>, Box<Expr>),
    /// `old(e)`.
    Old(Box<Expr>),
    /// `if c then a else b`.
    Ite(Box<Expr>, Box<Expr>, Box<Expr>),
    /// A quantifier with its bound variables.
    Quant(QuantKind, Vec<(Ident, Type)>, Box<Expr>),
    /// Function application `f(args)`.
    Apply(Ident, Vec<Expr>),
    /// `int(e)`.
    ToInt(Box<Expr>),
    /// `real(e)`.
    ToReal(Box<Expr>),
}

/// A variable declaration `x: T` (a `where` clause is parsed and dropped).
#[derive(Clone, Debug)]
pub struct VarDecl {
    /// The declared name.
    pub name: Ident,
    /// Its type.
    pub ty: Type,
}

/// The left-hand side of an assignment: a variable followed by map indices.
#[derive(Clone, Debug)]
pub struct Lhs {
    /// The assigned variable.
    pub var: Ident,
    /// Index groups: `a[i][j,k]` is `[[i], [j, k]]`.
    pub indices: Vec<Vec<Expr>>,
}

/// A loop invariant.
#[derive(Clone, Debug)]
pub struct Invariant {
    /// `free invariant`.
    pub free: bool,
    /// The formula.
    pub expr: Expr,
    /// Where the clause starts.
    pub pos: Pos,
}

/// A statement with its position.
#[derive(Clone, Debug)]
pub struct Stmt {
    /// What the statement is.
    pub kind: StmtKind,
    /// Where it starts.
    pub pos: Pos,
}

/// Statement kinds.
#[derive(Clone, Debug)]
pub enum StmtKind {
    /// Local variable declarations.
    Var(Vec<VarDecl>),
    /// `assert e;`.
    Assert(Expr),
    /// `assume e;`.
    Assume(Expr),
    /// `havoc x, y;`.
    Havoc(Vec<Ident>),
    /// Parallel assignment.
    Assign(Vec<Lhs>, Vec<Expr>),
    /// `call x, y := P(args);`.
    Call(Vec<Ident>, Ident, Vec<Expr>),
    /// `if (c) {..} else {..}`; `None` guard is `*`.
    If(Option<Expr>, Vec<Stmt>, Option<Vec<Stmt>>),
    /// `while (c) invariants {..}`; `None` guard is `*`.
    While(Option<Expr>, Vec<Invariant>, Vec<Stmt>),
    /// `break;` or `break L;`.
    Break(Option<Ident>),
    /// `goto L1, .., Ln;`.
    Goto(Vec<Ident>),
    /// `return;`.
    Return,
    /// A label `L:`.
    Label(Ident),
    /// A nested block `{ .. }`.
    Block(Vec<Stmt>),
    /// `fork ids P(args);`: starts a thread running `P` with the thread id `ids`.
    Fork(Vec<Expr>, Ident, Vec<Expr>),
    /// `join ids;` or `join ids assign x, y;`: waits for a thread with the id `ids` to end.
    Join(Vec<Expr>, Vec<Ident>),
    /// `atomic { .. }`: a block no other thread interrupts.
    Atomic(Vec<Stmt>),
}

/// A procedure specification clause.
#[derive(Clone, Debug)]
pub enum Spec {
    /// `[free] requires e;`.
    Requires(bool, Expr, Pos),
    /// `[free] ensures e;`.
    Ensures(bool, Expr, Pos),
    /// `modifies x, y;`.
    Modifies(Vec<Ident>),
}

/// A top-level declaration.
#[derive(Clone, Debug)]
pub enum Decl {
    /// `type T;` or `type T = t;`.
    Type(Ident, Option<Type>),
    /// `const [unique] x: T;`.
    Const(Vec<VarDecl>, bool),
    /// `var x: T;`.
    Var(Vec<VarDecl>),
    /// `function f(args) returns (T) [{ body }]`.
    Function {
        /// The function's name.
        name: Ident,
        /// Its attributes.
        attrs: Vec<Attr>,
        /// Formal arguments (possibly unnamed).
        args: Vec<(Option<Ident>, Type)>,
        /// The result type.
        ret: Type,
        /// The definition, if any.
        body: Option<Expr>,
    },
    /// `axiom e;`.
    Axiom(Expr),
    /// A procedure declaration, possibly with a body.
    Procedure {
        /// The procedure's name.
        name: Ident,
        /// In-parameters.
        params: Vec<VarDecl>,
        /// Out-parameters.
        rets: Vec<VarDecl>,
        /// Contract.
        specs: Vec<Spec>,
        /// The body, if given with the declaration.
        body: Option<Vec<Stmt>>,
    },
    /// `implementation P(..) returns (..) { .. }`.
    Implementation {
        /// The implemented procedure.
        name: Ident,
        /// In-parameters (names may differ from the declaration).
        params: Vec<VarDecl>,
        /// Out-parameters.
        rets: Vec<VarDecl>,
        /// The body.
        body: Vec<Stmt>,
    },
}
