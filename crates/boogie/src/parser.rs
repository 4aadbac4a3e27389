//! Recursive-descent parser for Boogie declarations and statements.

use crate::ast::*;
use crate::error::{err, BoogieError, ErrorKind, Pos, Result};
use crate::lexer::{Tok, Token};
use std::sync::Arc;

/// Maximal nesting of expressions and statements (keeps every recursion shallow).
pub const MAX_DEPTH: u32 = 400;

/// Words that cannot be used as identifiers.
const RESERVED: &[&str] = &[
    "var",
    "const",
    "function",
    "axiom",
    "type",
    "procedure",
    "implementation",
    "returns",
    "requires",
    "ensures",
    "modifies",
    "free",
    "invariant",
    "if",
    "then",
    "else",
    "while",
    "break",
    "goto",
    "return",
    "assume",
    "assert",
    "havoc",
    "call",
    "old",
    "forall",
    "exists",
    "lambda",
    "true",
    "false",
    "int",
    "bool",
    "real",
    "div",
    "mod",
];

/// The parser state: a token vector and a cursor.
pub struct Parser<'a> {
    toks: Vec<Token>,
    i: usize,
    file: &'a Arc<str>,
    depth: u32,
}

impl<'a> Parser<'a> {
    /// A parser over `toks` (which must end with `Eof`).
    pub fn new(file: &'a Arc<str>, toks: Vec<Token>) -> Parser<'a> {
        Parser { toks, i: 0, file, depth: 0 }
    }

    // ---------------------------------------------------------------- token helpers

    pub(crate) fn file(&self) -> &Arc<str> {
        self.file
    }

    pub(crate) fn peek(&self) -> &Tok {
        self.peek_at(0)
    }

    pub(crate) fn peek_at(&self, k: usize) -> &Tok {
        self.toks.get(self.i + k).map(|t| &t.tok).unwrap_or(&Tok::Eof)
    }

    pub(crate) fn pos(&self) -> Pos {
        self.toks.get(self.i).or(self.toks.last()).map(|t| t.pos).unwrap_or_default()
    }

    pub(crate) fn bump(&mut self) -> Tok {
        let t = self.peek().clone();
        if self.i < self.toks.len() {
            self.i += 1;
        }
        t
    }

    pub(crate) fn is_sym(&self, s: &str) -> bool {
        matches!(self.peek(), Tok::Sym(x) if *x == s)
    }

    pub(crate) fn is_sym_at(&self, k: usize, s: &str) -> bool {
        matches!(self.peek_at(k), Tok::Sym(x) if *x == s)
    }

    pub(crate) fn is_kw(&self, kw: &str) -> bool {
        matches!(self.peek(), Tok::Ident(x) if x == kw)
    }

    pub(crate) fn eat_sym(&mut self, s: &str) -> bool {
        let yes = self.is_sym(s);
        if yes {
            self.bump();
        }
        yes
    }

    pub(crate) fn eat_kw(&mut self, kw: &str) -> bool {
        let yes = self.is_kw(kw);
        if yes {
            self.bump();
        }
        yes
    }

    pub(crate) fn describe(&self) -> String {
        match self.peek() {
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Int(i) => format!("`{i}`"),
            Tok::Dec(_) => "a decimal literal".into(),
            Tok::BvLit(s) => format!("`{s}`"),
            Tok::Str(s) => format!("\"{s}\""),
            Tok::Sym(s) => format!("`{s}`"),
            Tok::Eof => "end of file".into(),
        }
    }

    pub(crate) fn syntax(&self, expected: &str) -> BoogieError {
        err(self.file, self.pos(), ErrorKind::Syntax, format!("expected {expected}, found {}", self.describe()))
    }

    pub(crate) fn unsupported(&self, pos: Pos, what: &str) -> BoogieError {
        err(self.file, pos, ErrorKind::Unsupported, format!("{what} are not supported"))
    }

    pub(crate) fn expect_sym(&mut self, s: &str) -> Result<Pos> {
        let p = self.pos();
        if self.eat_sym(s) {
            Ok(p)
        } else {
            Err(self.syntax(&format!("`{s}`")))
        }
    }

    pub(crate) fn expect_kw(&mut self, kw: &str) -> Result<Pos> {
        let p = self.pos();
        if self.eat_kw(kw) {
            Ok(p)
        } else {
            Err(self.syntax(&format!("`{kw}`")))
        }
    }

    /// Whether the next token is a (non-reserved) identifier.
    pub(crate) fn at_ident(&self) -> bool {
        matches!(self.peek(), Tok::Ident(s) if !RESERVED.contains(&s.as_str()))
    }

    pub(crate) fn ident(&mut self) -> Result<Ident> {
        let pos = self.pos();
        match self.peek().clone() {
            Tok::Ident(name) if !RESERVED.contains(&name.as_str()) => {
                self.bump();
                Ok(Ident { name, pos })
            }
            _ => Err(self.syntax("an identifier")),
        }
    }

    fn ident_list(&mut self) -> Result<Vec<Ident>> {
        let mut ids = vec![self.ident()?];
        while self.eat_sym(",") {
            ids.push(self.ident()?);
        }
        Ok(ids)
    }

    /// Enters one level of nesting; errors when nesting is too deep.
    pub(crate) fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(err(self.file, self.pos(), ErrorKind::Unsupported, "nesting too deep"));
        }
        Ok(())
    }

    /// Leaves one level of nesting.
    pub(crate) fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// Skips attributes `{:name ...}`, returning them with their string arguments.
    pub(crate) fn attrs(&mut self) -> Result<Vec<Attr>> {
        let mut out = Vec::new();
        while self.is_sym("{") && self.is_sym_at(1, ":") {
            self.bump();
            self.bump();
            let name = match self.bump() {
                Tok::Ident(n) => n,
                _ => return Err(self.syntax("an attribute name")),
            };
            let strings = self.skip_braced()?;
            out.push(Attr { name, strings });
        }
        Ok(out)
    }

    /// Skips tokens up to and including the `}` that closes an already consumed `{`;
    /// returns the string literals at the top level.
    pub(crate) fn skip_braced(&mut self) -> Result<Vec<String>> {
        let mut depth = 1usize;
        let mut strings = Vec::new();
        loop {
            let pos = self.pos();
            match self.bump() {
                Tok::Eof => return Err(err(self.file, pos, ErrorKind::Syntax, "unclosed `{`")),
                Tok::Sym("{") => depth += 1,
                Tok::Sym("}") => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(strings);
                    }
                }
                Tok::Str(s) if depth == 1 => strings.push(s),
                _ => {}
            }
        }
    }

    // ---------------------------------------------------------------- types

    /// Parses a type.
    pub(crate) fn ty(&mut self) -> Result<Type> {
        let pos = self.pos();
        match self.peek().clone() {
            Tok::Ident(s) if s == "int" => {
                self.bump();
                Ok(Type::Int)
            }
            Tok::Ident(s) if s == "bool" => {
                self.bump();
                Ok(Type::Bool)
            }
            Tok::Ident(s) if s == "real" => {
                self.bump();
                Ok(Type::Real)
            }
            Tok::Ident(s) if is_bv_type(&s) => Err(self.unsupported(pos, "bit-vector types")),
            Tok::Ident(s) if is_float_type(&s) => Err(self.unsupported(pos, "floating-point types")),
            Tok::Ident(_) => Ok(Type::Named(self.ident()?)),
            Tok::Sym("[") => {
                self.bump();
                self.enter()?;
                let mut idx = Vec::new();
                if !self.is_sym("]") {
                    idx.push(self.ty()?);
                    while self.eat_sym(",") {
                        idx.push(self.ty()?);
                    }
                }
                self.expect_sym("]")?;
                if idx.is_empty() {
                    return Err(self.unsupported(pos, "maps without index types"));
                }
                let elem = self.ty()?;
                self.leave();
                Ok(Type::Map(idx, Box::new(elem)))
            }
            Tok::Sym("<") => Err(self.unsupported(pos, "polymorphic map types")),
            Tok::Sym("{") => Err(self.unsupported(pos, "struct types")),
            Tok::Sym("(") => {
                self.bump();
                self.enter()?;
                let t = self.ty()?;
                self.leave();
                self.expect_sym(")")?;
                Ok(t)
            }
            _ => Err(self.syntax("a type")),
        }
    }

    // ---------------------------------------------------------------- declarations

    /// Parses a whole program.
    pub fn program(&mut self) -> Result<Vec<Decl>> {
        let mut decls = Vec::new();
        loop {
            let pos = self.pos();
            match self.peek().clone() {
                Tok::Eof => return Ok(decls),
                Tok::Ident(k) => match k.as_str() {
                    "type" => self.type_decl(&mut decls)?,
                    "const" => decls.push(self.const_decl()?),
                    "var" => {
                        self.bump();
                        self.attrs()?;
                        let vars = self.typed_idents(true)?;
                        self.expect_sym(";")?;
                        decls.push(Decl::Var(vars));
                    }
                    "function" => decls.push(self.function()?),
                    "axiom" => {
                        self.bump();
                        self.attrs()?;
                        let e = self.expr()?;
                        self.expect_sym(";")?;
                        decls.push(Decl::Axiom(e));
                    }
                    "procedure" => decls.push(self.procedure()?),
                    "implementation" => decls.push(self.implementation()?),
                    "datatype" => return Err(self.unsupported(pos, "datatypes")),
                    _ => return Err(self.syntax("a declaration")),
                },
                _ => return Err(self.syntax("a declaration")),
            }
        }
    }

    fn type_decl(&mut self, decls: &mut Vec<Decl>) -> Result<()> {
        self.expect_kw("type")?;
        self.attrs()?;
        self.eat_kw("finite");
        loop {
            let name = self.ident()?;
            if self.at_ident() {
                return Err(self.unsupported(self.pos(), "type constructors with parameters"));
            }
            let def = if self.eat_sym("=") { Some(self.ty()?) } else { None };
            decls.push(Decl::Type(name, def));
            if !self.eat_sym(",") {
                break;
            }
        }
        self.expect_sym(";")?;
        Ok(())
    }

    fn const_decl(&mut self) -> Result<Decl> {
        self.expect_kw("const")?;
        self.attrs()?;
        let unique = self.eat_kw("unique");
        let vars = self.typed_idents(false)?;
        if self.is_kw("extends") || self.is_sym("<:") {
            return Err(self.unsupported(self.pos(), "constant orders (`extends`)"));
        }
        self.expect_sym(";")?;
        Ok(Decl::Const(vars, unique))
    }

    /// `x, y: T [where e], z: U ...`
    fn typed_idents(&mut self, allow_where: bool) -> Result<Vec<VarDecl>> {
        let mut out = Vec::new();
        loop {
            self.attrs()?;
            let names = self.ident_list()?;
            self.expect_sym(":")?;
            let ty = self.ty()?;
            if allow_where && self.eat_kw("where") {
                self.expr()?;
            }
            out.extend(names.into_iter().map(|name| VarDecl { name, ty: ty.clone() }));
            if !self.eat_sym(",") {
                return Ok(out);
            }
        }
    }

    fn formals(&mut self) -> Result<Vec<VarDecl>> {
        self.expect_sym("(")?;
        if self.eat_sym(")") {
            return Ok(Vec::new());
        }
        let v = self.typed_idents(true)?;
        self.expect_sym(")")?;
        Ok(v)
    }

    fn function(&mut self) -> Result<Decl> {
        self.expect_kw("function")?;
        let attrs = self.attrs()?;
        let name = self.ident()?;
        if self.is_sym("<") {
            return Err(self.unsupported(self.pos(), "polymorphic functions"));
        }
        self.expect_sym("(")?;
        let mut args = Vec::new();
        if !self.is_sym(")") {
            loop {
                self.attrs()?;
                if self.at_ident() && self.is_sym_at(1, ":") {
                    let id = self.ident()?;
                    self.bump();
                    args.push((Some(id), self.ty()?));
                } else {
                    args.push((None, self.ty()?));
                }
                if !self.eat_sym(",") {
                    break;
                }
            }
        }
        self.expect_sym(")")?;
        let ret = if self.eat_kw("returns") {
            self.expect_sym("(")?;
            self.attrs()?;
            if self.at_ident() && self.is_sym_at(1, ":") {
                self.bump();
                self.bump();
            }
            let t = self.ty()?;
            self.expect_sym(")")?;
            t
        } else {
            self.expect_sym(":")?;
            self.ty()?
        };
        let body = if self.eat_sym("{") {
            let e = self.expr()?;
            self.expect_sym("}")?;
            Some(e)
        } else {
            self.expect_sym(";")?;
            None
        };
        Ok(Decl::Function { name, attrs, args, ret, body })
    }

    fn signature(&mut self) -> Result<(Ident, Vec<VarDecl>, Vec<VarDecl>)> {
        self.attrs()?;
        let name = self.ident()?;
        if self.is_sym("<") {
            return Err(self.unsupported(self.pos(), "polymorphic procedures"));
        }
        let params = self.formals()?;
        let rets = if self.eat_kw("returns") { self.formals()? } else { Vec::new() };
        Ok((name, params, rets))
    }

    fn procedure(&mut self) -> Result<Decl> {
        self.expect_kw("procedure")?;
        let (name, params, rets) = self.signature()?;
        let has_semicolon = self.eat_sym(";");
        let mut specs = Vec::new();
        loop {
            let pos = self.pos();
            let free = self.eat_kw("free");
            if self.eat_kw("requires") {
                self.attrs()?;
                specs.push(Spec::Requires(free, self.expr()?, pos));
                self.expect_sym(";")?;
            } else if self.eat_kw("ensures") {
                self.attrs()?;
                specs.push(Spec::Ensures(free, self.expr()?, pos));
                self.expect_sym(";")?;
            } else if self.eat_kw("modifies") {
                let ids = if self.is_sym(";") { Vec::new() } else { self.ident_list()? };
                self.expect_sym(";")?;
                specs.push(Spec::Modifies(ids));
            } else if free {
                return Err(self.syntax("`requires`, `ensures` or `modifies`"));
            } else {
                break;
            }
        }
        let body = if !has_semicolon && self.is_sym("{") {
            Some(self.body()?)
        } else if has_semicolon {
            None
        } else {
            return Err(self.syntax("`;`, a specification or a body"));
        };
        Ok(Decl::Procedure { name, params, rets, specs, body })
    }

    fn implementation(&mut self) -> Result<Decl> {
        self.expect_kw("implementation")?;
        let (name, params, rets) = self.signature()?;
        let body = self.body()?;
        if self.is_sym("{") {
            return Err(self.unsupported(self.pos(), "implementations with several bodies"));
        }
        Ok(Decl::Implementation { name, params, rets, body })
    }

    // ---------------------------------------------------------------- statements

    fn body(&mut self) -> Result<Vec<Stmt>> {
        self.expect_sym("{")?;
        let stmts = self.stmt_list()?;
        self.expect_sym("}")?;
        Ok(stmts)
    }

    fn stmt_list(&mut self) -> Result<Vec<Stmt>> {
        let mut out = Vec::new();
        while !self.is_sym("}") && *self.peek() != Tok::Eof {
            if self.eat_sym(";") {
                continue;
            }
            out.push(self.stmt()?);
        }
        Ok(out)
    }

    fn stmt(&mut self) -> Result<Stmt> {
        self.enter()?;
        let s = self.stmt_inner();
        self.leave();
        s
    }

    fn stmt_inner(&mut self) -> Result<Stmt> {
        let pos = self.pos();
        let kind = match self.peek().clone() {
            Tok::Sym("{") => StmtKind::Block(self.body()?),
            Tok::Ident(k) => match k.as_str() {
                _ if self.at_ident() && self.is_sym_at(1, ":") => {
                    let id = self.ident()?;
                    self.bump();
                    StmtKind::Label(id)
                }
                "var" => {
                    self.bump();
                    self.attrs()?;
                    let v = self.typed_idents(true)?;
                    self.expect_sym(";")?;
                    StmtKind::Var(v)
                }
                "assert" | "assume" => {
                    self.bump();
                    self.attrs()?;
                    let e = self.expr()?;
                    self.expect_sym(";")?;
                    if k == "assert" {
                        StmtKind::Assert(e)
                    } else {
                        StmtKind::Assume(e)
                    }
                }
                "havoc" => {
                    self.bump();
                    let ids = self.ident_list()?;
                    self.expect_sym(";")?;
                    StmtKind::Havoc(ids)
                }
                "call" => self.call()?,
                "if" => self.if_stmt()?,
                "while" => {
                    self.bump();
                    let guard = self.guard()?;
                    let mut invs = Vec::new();
                    loop {
                        let ipos = self.pos();
                        let free = self.is_kw("free");
                        if free {
                            self.bump();
                            self.expect_kw("invariant")?;
                        } else if !self.eat_kw("invariant") {
                            break;
                        }
                        self.attrs()?;
                        let expr = self.expr()?;
                        self.expect_sym(";")?;
                        invs.push(Invariant { free, expr, pos: ipos });
                    }
                    StmtKind::While(guard, invs, self.body()?)
                }
                "break" => {
                    self.bump();
                    let l = if self.at_ident() { Some(self.ident()?) } else { None };
                    self.expect_sym(";")?;
                    StmtKind::Break(l)
                }
                "goto" => {
                    self.bump();
                    let ids = self.ident_list()?;
                    self.expect_sym(";")?;
                    StmtKind::Goto(ids)
                }
                "return" => {
                    self.bump();
                    if !self.is_sym(";") {
                        return Err(self.unsupported(self.pos(), "return statements with values"));
                    }
                    self.bump();
                    StmtKind::Return
                }
                "fork" | "join" | "atomic" if !self.is_sym_at(1, ":=") && !self.is_sym_at(1, "[") && !self.is_sym_at(1, ",") => {
                    self.thread_stmt(&k)?
                }
                "yield" | "par" | "async" if !self.is_sym_at(1, ":=") && !self.is_sym_at(1, "[") && !self.is_sym_at(1, ",") => {
                    return Err(self.unsupported(pos, &format!("`{k}` statements (concurrency)")));
                }
                _ => self.assign()?,
            },
            _ => return Err(self.syntax("a statement")),
        };
        Ok(Stmt { kind, pos })
    }

    fn guard(&mut self) -> Result<Option<Expr>> {
        self.expect_sym("(")?;
        if self.is_sym("*") && self.is_sym_at(1, ")") {
            self.bump();
            self.bump();
            return Ok(None);
        }
        let e = self.expr()?;
        self.expect_sym(")")?;
        Ok(Some(e))
    }

    fn if_stmt(&mut self) -> Result<StmtKind> {
        self.expect_kw("if")?;
        let guard = self.guard()?;
        let then = self.body()?;
        let els = if self.eat_kw("else") {
            if self.is_kw("if") {
                let pos = self.pos();
                self.enter()?;
                let inner = self.if_stmt();
                self.leave();
                Some(vec![Stmt { kind: inner?, pos }])
            } else {
                Some(self.body()?)
            }
        } else {
            None
        };
        Ok(StmtKind::If(guard, then, els))
    }

    fn call(&mut self) -> Result<StmtKind> {
        self.expect_kw("call")?;
        self.attrs()?;
        if self.is_kw("forall") {
            return Err(self.unsupported(self.pos(), "`call forall` statements"));
        }
        let first = self.ident()?;
        let (lhs, callee) = if self.is_sym(",") || self.is_sym(":=") {
            let mut lhs = vec![first];
            while self.eat_sym(",") {
                lhs.push(self.ident()?);
            }
            self.expect_sym(":=")?;
            (lhs, self.ident()?)
        } else {
            (Vec::new(), first)
        };
        self.expect_sym("(")?;
        let args = if self.is_sym(")") { Vec::new() } else { self.expr_list()? };
        self.expect_sym(")")?;
        self.expect_sym(";")?;
        Ok(StmtKind::Call(lhs, callee, args))
    }

    /// `fork ids P(args);`, `join ids [assign x, ..];` or `atomic { .. }` (the keyword `k` is next).
    fn thread_stmt(&mut self, k: &str) -> Result<StmtKind> {
        self.bump();
        if k == "atomic" {
            return Ok(StmtKind::Atomic(self.body()?));
        }
        let mut ids = vec![self.expr()?];
        while self.eat_sym(",") {
            ids.push(self.expr()?);
        }
        if k == "join" {
            let rets = if self.eat_kw("assign") { self.ident_list()? } else { vec![] };
            self.expect_sym(";")?;
            return Ok(StmtKind::Join(ids, rets));
        }
        let callee = self.ident()?;
        self.expect_sym("(")?;
        let args = if self.is_sym(")") { Vec::new() } else { self.expr_list()? };
        self.expect_sym(")")?;
        self.expect_sym(";")?;
        Ok(StmtKind::Fork(ids, callee, args))
    }

    fn assign(&mut self) -> Result<StmtKind> {
        let mut lhs = Vec::new();
        loop {
            let var = self.ident()?;
            let mut indices = Vec::new();
            while self.eat_sym("[") {
                indices.push(self.expr_list()?);
                self.expect_sym("]")?;
            }
            lhs.push(Lhs { var, indices });
            if !self.eat_sym(",") {
                break;
            }
        }
        self.expect_sym(":=")?;
        let rhs = self.expr_list()?;
        self.expect_sym(";")?;
        Ok(StmtKind::Assign(lhs, rhs))
    }
}

/// Whether `s` names a bit-vector type (`bv32`).
pub(crate) fn is_bv_type(s: &str) -> bool {
    s.strip_prefix("bv").is_some_and(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()))
}

/// Whether `s` names a floating-point type (`float24e8`).
fn is_float_type(s: &str) -> bool {
    s.strip_prefix("float").is_some_and(|d| {
        let mut parts = d.split('e');
        let ok = |p: Option<&str>| p.is_some_and(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()));
        ok(parts.next()) && ok(parts.next()) && parts.next().is_none()
    })
}
