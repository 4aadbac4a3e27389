//! Expression part of the recursive-descent parser.

use crate::ast::*;
use crate::error::{err, ErrorKind, Pos, Result};
use crate::lexer::Tok;
use crate::parser::{is_bv_type, Parser, MAX_DEPTH};

/// Builds an expression node, computing its depth and rejecting too deep trees.
fn mk(p: &Parser, kind: ExprKind, pos: Pos) -> Result<Expr> {
    let child = |e: &Expr| e.depth;
    let d = match &kind {
        ExprKind::Bool(_) | ExprKind::Int(_) | ExprKind::Real(_) | ExprKind::Var(_) => 0,
        ExprKind::Unary(_, a) | ExprKind::Old(a) | ExprKind::ToInt(a) | ExprKind::ToReal(a) => child(a),
        ExprKind::Quant(_, _, a) => child(a),
        ExprKind::Binary(_, a, b) => child(a).max(child(b)),
        ExprKind::Select(a, is) => is.iter().map(child).fold(child(a), u32::max),
        ExprKind::Update(a, is, v) => is.iter().map(child).fold(child(a).max(child(v)), u32::max),
        ExprKind::Ite(a, b, c) => child(a).max(child(b)).max(child(c)),
        ExprKind::Apply(_, args) => args.iter().map(child).fold(0, u32::max),
    } + 1;
    if d > MAX_DEPTH {
        return Err(p.err_at(pos, ErrorKind::Unsupported, "expression nested too deeply"));
    }
    Ok(Expr { kind, pos, depth: d })
}

fn binary(p: &Parser, op: BinOp, a: Expr, b: Expr, pos: Pos) -> Result<Expr> {
    mk(p, ExprKind::Binary(op, Box::new(a), Box::new(b)), pos)
}

impl Parser<'_> {
    /// An error of the given kind at `pos`.
    pub(crate) fn err_at(&self, pos: Pos, kind: ErrorKind, msg: &str) -> crate::error::BoogieError {
        err(self.file(), pos, kind, msg)
    }

    /// Parses a comma-separated, non-empty list of expressions.
    pub(crate) fn expr_list(&mut self) -> Result<Vec<Expr>> {
        let mut v = vec![self.expr()?];
        while self.eat_sym(",") {
            v.push(self.expr()?);
        }
        Ok(v)
    }

    /// Parses an expression.
    pub(crate) fn expr(&mut self) -> Result<Expr> {
        self.enter()?;
        let r = self.iff_expr();
        self.leave();
        r
    }

    fn iff_expr(&mut self) -> Result<Expr> {
        let mut e = self.implies_expr()?;
        loop {
            let pos = self.pos();
            if !self.eat_sym("<==>") {
                return Ok(e);
            }
            let r = self.implies_expr()?;
            e = binary(self, BinOp::Iff, e, r, pos)?;
        }
    }

    fn implies_expr(&mut self) -> Result<Expr> {
        let e = self.or_expr()?;
        let pos = self.pos();
        if self.eat_sym("==>") {
            self.enter()?;
            let r = self.implies_expr();
            self.leave();
            return binary(self, BinOp::Implies, e, r?, pos);
        }
        let mut e = e;
        loop {
            let pos = self.pos();
            if !self.eat_sym("<==") {
                return Ok(e);
            }
            let r = self.or_expr()?;
            e = binary(self, BinOp::Explies, e, r, pos)?;
        }
    }

    fn or_expr(&mut self) -> Result<Expr> {
        let mut e = self.and_expr()?;
        loop {
            let pos = self.pos();
            if !self.eat_sym("||") {
                return Ok(e);
            }
            let r = self.and_expr()?;
            e = binary(self, BinOp::Or, e, r, pos)?;
        }
    }

    fn and_expr(&mut self) -> Result<Expr> {
        let mut e = self.rel_expr()?;
        loop {
            let pos = self.pos();
            if !self.eat_sym("&&") {
                return Ok(e);
            }
            let r = self.rel_expr()?;
            e = binary(self, BinOp::And, e, r, pos)?;
        }
    }

    fn rel_op(&self) -> Option<BinOp> {
        match self.peek() {
            Tok::Sym("==") => Some(BinOp::Eq),
            Tok::Sym("!=") => Some(BinOp::Neq),
            Tok::Sym("<") => Some(BinOp::Lt),
            Tok::Sym("<=") => Some(BinOp::Le),
            Tok::Sym(">") => Some(BinOp::Gt),
            Tok::Sym(">=") => Some(BinOp::Ge),
            _ => None,
        }
    }

    fn rel_expr(&mut self) -> Result<Expr> {
        let e = self.concat_expr()?;
        let pos = self.pos();
        if self.is_sym("<:") {
            return Err(self.unsupported(pos, "partial-order comparisons (`<:`)"));
        }
        match self.rel_op() {
            Some(op) => {
                self.bump();
                let r = self.concat_expr()?;
                if self.rel_op().is_some() {
                    return Err(self.syntax("`)` (comparisons do not associate)"));
                }
                binary(self, op, e, r, pos)
            }
            None => Ok(e),
        }
    }

    fn concat_expr(&mut self) -> Result<Expr> {
        let e = self.add_expr()?;
        if self.is_sym("++") {
            return Err(self.unsupported(self.pos(), "bit-vector concatenations (`++`)"));
        }
        Ok(e)
    }

    fn add_expr(&mut self) -> Result<Expr> {
        let mut e = self.mul_expr()?;
        loop {
            let pos = self.pos();
            let op = match self.peek() {
                Tok::Sym("+") => BinOp::Add,
                Tok::Sym("-") => BinOp::Sub,
                _ => return Ok(e),
            };
            self.bump();
            let r = self.mul_expr()?;
            e = binary(self, op, e, r, pos)?;
        }
    }

    fn mul_expr(&mut self) -> Result<Expr> {
        let mut e = self.pow_expr()?;
        loop {
            let pos = self.pos();
            let op = match self.peek() {
                Tok::Sym("*") => BinOp::Mul,
                Tok::Sym("/") => BinOp::Div,
                Tok::Sym("%") => BinOp::Mod,
                Tok::Ident(k) if k == "div" => BinOp::IntDiv,
                Tok::Ident(k) if k == "mod" => BinOp::Mod,
                _ => return Ok(e),
            };
            self.bump();
            let r = self.pow_expr()?;
            e = binary(self, op, e, r, pos)?;
        }
    }

    fn pow_expr(&mut self) -> Result<Expr> {
        let e = self.unary_expr()?;
        if self.is_sym("**") {
            return Err(self.unsupported(self.pos(), "power expressions (`**`)"));
        }
        Ok(e)
    }

    fn unary_expr(&mut self) -> Result<Expr> {
        let pos = self.pos();
        let op = if self.eat_sym("-") {
            UnOp::Neg
        } else if self.eat_sym("!") {
            UnOp::Not
        } else {
            let e = self.postfix_expr()?;
            if self.is_sym(":") {
                return Err(self.unsupported(self.pos(), "type coercions (`e: T`)"));
            }
            return Ok(e);
        };
        self.enter()?;
        let a = self.unary_expr();
        self.leave();
        mk(self, ExprKind::Unary(op, Box::new(a?)), pos)
    }

    fn postfix_expr(&mut self) -> Result<Expr> {
        let mut e = self.atom()?;
        loop {
            let pos = self.pos();
            if !self.eat_sym("[") {
                return Ok(e);
            }
            if self.is_sym("]") {
                return Err(self.unsupported(pos, "maps without indices"));
            }
            let idx = self.expr_list()?;
            if self.is_sym(":") {
                return Err(self.unsupported(self.pos(), "bit-vector extractions"));
            }
            if self.eat_sym(":=") {
                let v = self.expr()?;
                self.expect_sym("]")?;
                e = mk(self, ExprKind::Update(Box::new(e), idx, Box::new(v)), pos)?;
            } else {
                self.expect_sym("]")?;
                e = mk(self, ExprKind::Select(Box::new(e), idx), pos)?;
            }
        }
    }

    fn paren_arg(&mut self) -> Result<Expr> {
        self.expect_sym("(")?;
        let e = self.expr()?;
        self.expect_sym(")")?;
        Ok(e)
    }

    fn atom(&mut self) -> Result<Expr> {
        let pos = self.pos();
        match self.peek().clone() {
            Tok::Int(i) => {
                self.bump();
                mk(self, ExprKind::Int(i), pos)
            }
            Tok::Dec(r) => {
                self.bump();
                mk(self, ExprKind::Real(r), pos)
            }
            Tok::BvLit(_) => Err(self.unsupported(pos, "bit-vector literals")),
            Tok::Sym("(") => {
                self.bump();
                let e =
                    if self.is_kw("forall") || self.is_kw("exists") || self.is_kw("lambda") { self.quantifier()? } else { self.expr()? };
                self.expect_sym(")")?;
                Ok(e)
            }
            Tok::Sym("|") if self.is_sym_at(1, "{") => Err(self.unsupported(pos, "code expressions")),
            Tok::Sym("{") => Err(self.unsupported(pos, "struct literals")),
            Tok::Ident(k) => match k.as_str() {
                "true" | "false" => {
                    self.bump();
                    mk(self, ExprKind::Bool(k == "true"), pos)
                }
                "old" => {
                    self.bump();
                    let e = self.paren_arg()?;
                    mk(self, ExprKind::Old(Box::new(e)), pos)
                }
                "int" | "real" if self.is_sym_at(1, "(") => {
                    self.bump();
                    let e = Box::new(self.paren_arg()?);
                    mk(self, if k == "int" { ExprKind::ToInt(e) } else { ExprKind::ToReal(e) }, pos)
                }
                "forall" | "exists" | "lambda" => self.quantifier(),
                "if" => {
                    self.bump();
                    let c = self.expr()?;
                    self.expect_kw("then")?;
                    let a = self.expr()?;
                    self.expect_kw("else")?;
                    let b = self.expr()?;
                    mk(self, ExprKind::Ite(Box::new(c), Box::new(a), Box::new(b)), pos)
                }
                _ if is_bv_type(&k) && self.is_sym_at(1, "(") => Err(self.unsupported(pos, "bit-vector operations")),
                _ => {
                    let id = self.ident()?;
                    if self.eat_sym("(") {
                        let args = if self.is_sym(")") { Vec::new() } else { self.expr_list()? };
                        self.expect_sym(")")?;
                        mk(self, ExprKind::Apply(id, args), pos)
                    } else {
                        mk(self, ExprKind::Var(id.name), pos)
                    }
                }
            },
            _ => Err(self.syntax("an expression")),
        }
    }

    /// `forall x: T, .. :: {triggers} body` (without the surrounding parentheses).
    fn quantifier(&mut self) -> Result<Expr> {
        let pos = self.pos();
        let kind = match self.bump() {
            Tok::Ident(k) if k == "forall" => QuantKind::Forall,
            Tok::Ident(k) if k == "exists" => QuantKind::Exists,
            _ => return Err(self.unsupported(pos, "lambda expressions")),
        };
        if self.is_sym("<") {
            return Err(self.unsupported(self.pos(), "polymorphic quantifiers"));
        }
        let mut vars = Vec::new();
        loop {
            let mut names = vec![self.ident()?];
            while self.eat_sym(",") {
                names.push(self.ident()?);
            }
            self.expect_sym(":")?;
            let ty = self.ty()?;
            vars.extend(names.into_iter().map(|n| (n, ty.clone())));
            if !self.eat_sym(",") {
                break;
            }
        }
        self.expect_sym("::")?;
        while self.eat_sym("{") {
            self.skip_braced()?;
        }
        let body = self.expr()?;
        mk(self, ExprKind::Quant(kind, vars, Box::new(body)), pos)
    }
}
