//! Boogie-syntax printing of terms, statements, control-flow graphs and whole programs
//! (what `tracery --dump-ir` shows).

use crate::cfg::{Cfg, Label, Program, ThreadOp};
use crate::stmt::Stmt;
use num_traits::{One, Signed, Zero};
use smt::{Kind, Op, Quantifier, Sort, Term};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::fmt::Write;

/// A sort in Boogie type syntax (`int`, `[int][int]bool`, `T`).
pub fn sort_to_boogie(s: &Sort) -> String {
    match s {
        Sort::Bool => "bool".into(),
        Sort::Int => "int".into(),
        Sort::Real => "real".into(),
        Sort::BitVec(n) => format!("bv{n}"),
        Sort::Float(e, m) => format!("float{m}e{e}"),
        Sort::Array(i, e) => format!("[{}]{}", sort_to_boogie(i), sort_to_boogie(e)),
        Sort::Uninterpreted(n) => n.to_string(),
    }
}

// Precedence levels: higher binds tighter.
const P_IFF: u8 = 1;
const P_IMP: u8 = 2;
const P_LOGIC: u8 = 3;
const P_REL: u8 = 4;
const P_ADD: u8 = 5;
const P_MUL: u8 = 6;
const P_UNARY: u8 = 7;
const P_ATOM: u8 = 8;

fn paren(s: String, prec: u8, min: u8) -> String {
    if prec < min {
        format!("({s})")
    } else {
        s
    }
}

fn join_op(t: &Term, op: &str, prec: u8) -> (String, u8) {
    let parts: Vec<String> = t.args.iter().map(|a| expr(a, prec + 1)).collect();
    (parts.join(&format!(" {op} ")), prec)
}

/// `name(args)`, an application in function syntax.
fn call(name: &str, t: &Term) -> (String, u8) {
    let args: Vec<String> = t.args.iter().map(|x| expr(x, 0)).collect();
    (format!("{name}({})", args.join(", ")), P_ATOM)
}

/// Prints `t` so that it binds at least as tightly as `min`.
fn expr(t: &Term, min: u8) -> String {
    let (s, prec) = expr_prec(t);
    paren(s, prec, min)
}

/// The exact decimal expansion of `n / d` when `d` has no prime factors other than 2 and 5.
fn decimal(n: &num_bigint::BigInt, d: &num_bigint::BigInt) -> Option<String> {
    let (two, five, ten) = (num_bigint::BigInt::from(2), num_bigint::BigInt::from(5), num_bigint::BigInt::from(10));
    let mut rest = d.clone();
    let mut digits = 0usize;
    let mut scale = num_bigint::BigInt::one();
    while !rest.is_one() {
        if (&rest % &two).is_zero() {
            rest /= &two;
        } else if (&rest % &five).is_zero() {
            rest /= &five;
        } else {
            return None;
        }
        digits += 1;
        scale *= &ten;
        if digits > 60 {
            return None;
        }
    }
    // n/d = n * (scale/d) / scale, and scale/d is an integer
    let scaled = n.abs() * (&scale / d);
    let s = format!("{:0>width$}", scaled.to_string(), width = digits + 1);
    let (int_part, frac) = s.split_at(s.len() - digits);
    let frac = frac.trim_end_matches('0');
    let frac = if frac.is_empty() { "0" } else { frac };
    Some(format!("{}{int_part}.{frac}", if n.is_negative() { "-" } else { "" }))
}

fn real_lit(n: &num_bigint::BigInt, d: &num_bigint::BigInt) -> (String, u8) {
    if let Some(s) = decimal(n, d).filter(|_| !d.is_one()) {
        let prec = if n.is_negative() { P_UNARY } else { P_ATOM };
        return (s, prec);
    }
    if d.is_one() {
        if n.is_negative() {
            (format!("-{}.0", -n), P_UNARY)
        } else {
            (format!("{n}.0"), P_ATOM)
        }
    } else if n.is_negative() {
        (format!("-({}.0 / {d}.0)", -n), P_UNARY)
    } else {
        (format!("{n}.0 / {d}.0"), P_MUL)
    }
}

fn bound_vars(vars: &[Term]) -> String {
    vars.iter().map(|v| format!("{}: {}", v.var_name().unwrap_or("?"), sort_to_boogie(&v.sort))).collect::<Vec<_>>().join(", ")
}

fn expr_prec(t: &Term) -> (String, u8) {
    let a = |i: usize| t.args.get(i).cloned().unwrap_or_else(smt::build::tt);
    match &t.kind {
        Kind::Var(n) => (n.to_string(), P_ATOM),
        Kind::Bool(b) => (b.to_string(), P_ATOM),
        Kind::Int(i) if i.is_negative() => (format!("-{}", -i), P_UNARY),
        Kind::Int(i) => (i.to_string(), P_ATOM),
        Kind::Real(r) => real_lit(r.numer(), r.denom()),
        Kind::Quant(q, vars) => {
            let q = match q {
                Quantifier::Forall => "forall",
                Quantifier::Exists => "exists",
            };
            (format!("({q} {} :: {})", bound_vars(vars), expr(&a(0), 0)), P_ATOM)
        }
        Kind::App(op) => match op {
            Op::Not => (format!("!{}", expr(&a(0), P_UNARY)), P_UNARY),
            Op::And if t.args.is_empty() => ("true".into(), P_ATOM),
            Op::Or if t.args.is_empty() => ("false".into(), P_ATOM),
            Op::And => join_op(t, "&&", P_LOGIC),
            Op::Or => join_op(t, "||", P_LOGIC),
            Op::Implies => (format!("{} ==> {}", expr(&a(0), P_IMP + 1), expr(&a(1), P_IMP)), P_IMP),
            Op::Ite => (format!("(if {} then {} else {})", expr(&a(0), 0), expr(&a(1), 0), expr(&a(2), 0)), P_ATOM),
            Op::Eq if t.args.len() == 2 && a(0).sort == Sort::Bool => {
                (format!("{} <==> {}", expr(&a(0), P_IFF + 1), expr(&a(1), P_IFF + 1)), P_IFF)
            }
            Op::Eq => {
                let parts: Vec<String> = t.args.iter().map(|x| expr(x, P_REL + 1)).collect();
                let pairs: Vec<String> = parts.windows(2).map(|w| format!("{} == {}", w[0], w[1])).collect();
                match pairs.len() {
                    0 => ("true".into(), P_ATOM),
                    1 => (pairs.join(""), P_REL),
                    _ => (pairs.join(" && "), P_LOGIC),
                }
            }
            Op::Distinct => {
                let parts: Vec<String> = t.args.iter().map(|x| expr(x, P_REL + 1)).collect();
                let mut pairs = Vec::new();
                for i in 0..parts.len() {
                    for j in i + 1..parts.len() {
                        pairs.push(format!("{} != {}", parts[i], parts[j]));
                    }
                }
                match pairs.len() {
                    0 => ("true".into(), P_ATOM),
                    1 => (pairs.join(""), P_REL),
                    _ => (pairs.join(" && "), P_LOGIC),
                }
            }
            Op::Le => (format!("{} <= {}", expr(&a(0), P_REL + 1), expr(&a(1), P_REL + 1)), P_REL),
            Op::Lt => (format!("{} < {}", expr(&a(0), P_REL + 1), expr(&a(1), P_REL + 1)), P_REL),
            Op::Add | Op::Sub | Op::Mul | Op::IntDiv | Op::Mod | Op::RealDiv => {
                let (sym, prec) = match op {
                    Op::Add => ("+", P_ADD),
                    Op::Sub => ("-", P_ADD),
                    Op::Mul => ("*", P_MUL),
                    Op::IntDiv => ("div", P_MUL),
                    Op::Mod => ("mod", P_MUL),
                    _ => ("/", P_MUL),
                };
                let mut s = String::new();
                for (i, x) in t.args.iter().enumerate() {
                    if i == 0 {
                        s.push_str(&expr(x, prec));
                    } else {
                        let _ = write!(s, " {sym} {}", expr(x, prec + 1));
                    }
                }
                (s, prec)
            }
            Op::Neg => (format!("-{}", expr(&a(0), P_ATOM)), P_UNARY),
            Op::ToReal => (format!("real({})", expr(&a(0), 0)), P_ATOM),
            Op::ToInt => (format!("int({})", expr(&a(0), 0)), P_ATOM),
            Op::Select => (format!("{}[{}]", expr(&a(0), P_ATOM), expr(&a(1), 0)), P_ATOM),
            Op::Store => (format!("{}[{} := {}]", expr(&a(0), P_ATOM), expr(&a(1), 0), expr(&a(2), 0)), P_ATOM),
            Op::ConstArray(s) => {
                let idx = match s {
                    Sort::Array(i, _) => sort_to_boogie(i),
                    other => sort_to_boogie(other),
                };
                (format!("(lambda _i: {idx} :: {})", expr(&a(0), 0)), P_ATOM)
            }
            Op::Apply(f) => call(&f.name, t),
            // Boogie declares bit-vector operations as functions (`{:bvbuiltin "bvand"}`)
            Op::Int2Bv(n) => match t.as_bv() {
                Some((v, _)) => (format!("{v}bv{n}"), P_ATOM),
                None => call(&format!("int2bv{n}"), t),
            },
            Op::Bv(b) => match b {
                smt::bv::BvOp::Extract(hi, lo) => (format!("{}[{}:{lo}]", expr(&a(0), P_ATOM), hi + 1), P_ATOM),
                smt::bv::BvOp::Concat => (format!("{} ++ {}", expr(&a(0), P_ATOM), expr(&a(1), P_ATOM)), P_ADD),
                smt::bv::BvOp::ZeroExt(n) | smt::bv::BvOp::SignExt(n) => call(&format!("{}{n}", b.name()), t),
                _ => call(b.name(), t),
            },
            // floating-point operators as functions named after SMT-LIB (`to_fp11_53`)
            Op::Fp(f) => {
                let indices: Vec<String> = f.indices().iter().map(u32::to_string).collect();
                call(&format!("{}{}", f.name(), indices.join("_")), t)
            }
            Op::Bv2Nat => call("bv2nat", t),
            Op::BvAnd => call("bvand", t),
            Op::BvOr => call("bvor", t),
            Op::BvXor => call("bvxor", t),
        },
    }
}

/// A term in infix Boogie syntax, parenthesized as needed.
pub fn term_to_boogie(t: &Term) -> String {
    expr(t, 0)
}

fn names(vs: &[Term]) -> String {
    vs.iter().map(term_to_boogie).collect::<Vec<_>>().join(", ")
}

/// A statement in Boogie syntax (large-block compositions as nested blocks and `if (*)`).
pub fn stmt_to_boogie(s: &Stmt) -> String {
    match s {
        Stmt::Assume(phi) => format!("assume {};", term_to_boogie(phi)),
        Stmt::Assign(pairs) if pairs.is_empty() => "assume true;".into(),
        Stmt::Assign(pairs) => {
            let lhs: Vec<String> = pairs.iter().map(|(x, _)| term_to_boogie(x)).collect();
            let rhs: Vec<String> = pairs.iter().map(|(_, e)| term_to_boogie(e)).collect();
            format!("{} := {};", lhs.join(", "), rhs.join(", "))
        }
        Stmt::Havoc(vs) if vs.is_empty() => "assume true;".into(),
        Stmt::Havoc(vs) => format!("havoc {};", names(vs)),
        Stmt::Seq(parts) if parts.is_empty() => "assume true;".into(),
        Stmt::Seq(parts) => parts.iter().map(stmt_to_boogie).collect::<Vec<_>>().join(" "),
        Stmt::Choice(branches) if branches.is_empty() => "assume false;".into(),
        Stmt::Choice(branches) => {
            let mut out = String::new();
            for (i, b) in branches.iter().enumerate() {
                if i + 1 == branches.len() {
                    let _ = write!(out, "{{ {} }}", stmt_to_boogie(b));
                } else {
                    let _ = write!(out, "if (*) {{ {} }} else ", stmt_to_boogie(b));
                }
            }
            out
        }
    }
}

fn label_to_boogie(l: &Label) -> String {
    match l {
        Label::Stmt(s) => stmt_to_boogie(s),
        Label::Call(c) => {
            let args: Vec<String> = c.args.iter().map(term_to_boogie).collect();
            if c.rets.is_empty() {
                format!("call {}({});", c.callee, args.join(", "))
            } else {
                format!("call {} := {}({});", names(&c.rets), c.callee, args.join(", "))
            }
        }
        Label::Thread(op) => thread_op_to_boogie(op),
    }
}

fn thread_op_to_boogie(op: &ThreadOp) -> String {
    let list = |ts: &[Term]| ts.iter().map(term_to_boogie).collect::<Vec<_>>().join(", ");
    match op {
        ThreadOp::Fork { ids, callee, args } => format!("fork {} {callee}({});", list(ids), list(args)),
        ThreadOp::Join { ids, rets } if rets.is_empty() => format!("join {};", list(ids)),
        ThreadOp::Join { ids, rets } => format!("join {} assign {};", list(ids), names(rets)),
        ThreadOp::AtomicBegin => "// atomic begin".to_string(),
        ThreadOp::AtomicEnd => "// atomic end".to_string(),
        ThreadOp::Exit { values } => format!("// thread exit ({})", list(values)),
    }
}

/// Unique, label-safe names for the locations of `cfg`.
fn loc_labels(cfg: &Cfg) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    for l in &cfg.locs {
        *seen.entry(l.name.clone()).or_default() += 1;
    }
    let mut used: HashSet<String> = HashSet::new();
    cfg.locs
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let base = if l.name.is_empty() { format!("l{i}") } else { l.name.clone() };
            let mut name = if seen.get(&l.name).copied().unwrap_or(0) > 1 { format!("{base}${i}") } else { base };
            while !used.insert(name.clone()) {
                name.push('\'');
            }
            name
        })
        .collect()
}

/// The CFG as a list of Boogie blocks: each location a label, each edge a block with its
/// statement and a `goto`; error locations are `assert false` with a comment.
pub fn cfg_to_boogie(name: &str, cfg: &Cfg) -> String {
    let labels = loc_labels(cfg);
    let lab = |i: usize| labels.get(i).cloned().unwrap_or_else(|| format!("l{i}"));
    let succ = cfg.successors();
    let mut out = String::new();
    let _ = writeln!(out, "  // CFG of {name}: {} locations, {} edges", cfg.locs.len(), cfg.edges.len());
    let mut order: Vec<usize> = (0..cfg.locs.len()).collect();
    order.sort_by_key(|&i| (i != cfg.entry, i == cfg.exit, i));
    for l in order {
        let loc = &cfg.locs[l];
        let _ = write!(out, "  {}:", lab(l));
        if let Some(p) = &loc.pos {
            let _ = write!(out, "  // line {}:{}", p.line, p.col);
        }
        out.push('\n');
        if let Some(v) = &loc.error {
            let at = v.pos.as_ref().map(|p| format!(" at line {}:{}", p.line, p.col)).unwrap_or_default();
            let _ = writeln!(out, "    assert false;  // error: {} ({:?}){at}", v.kind.describe(), v.kind);
            continue;
        }
        let edges = succ.get(l).cloned().unwrap_or_default();
        if edges.is_empty() {
            if l == cfg.exit {
                let _ = writeln!(out, "    return;");
            } else {
                let _ = writeln!(out, "    assume false;  // no successor");
            }
            continue;
        }
        let edge_label = |e: usize| format!("{}$e{e}", lab(l));
        let single = edges.len() == 1;
        if !single {
            let targets: Vec<String> = edges.iter().map(|&e| edge_label(e)).collect();
            let _ = writeln!(out, "    goto {};", targets.join(", "));
        }
        for &e in &edges {
            let edge = &cfg.edges[e];
            if !single {
                let _ = writeln!(out, "  {}:", edge_label(e));
            }
            let mut line = format!("    {}", label_to_boogie(&edge.label));
            if let Some(r) = &edge.overapprox {
                let _ = write!(line, "  // over-approximation: {r}");
            }
            let _ = writeln!(out, "{line}");
            let _ = writeln!(out, "    goto {};", lab(edge.dst));
        }
    }
    out
}

fn typed(vs: &[Term]) -> String {
    vs.iter().map(|v| format!("{}: {}", v.var_name().unwrap_or("?"), sort_to_boogie(&v.sort))).collect::<Vec<_>>().join(", ")
}

fn collect_uninterpreted(s: &Sort, out: &mut BTreeSet<String>) {
    match s {
        Sort::Uninterpreted(n) => {
            out.insert(n.to_string());
        }
        Sort::Array(i, e) => {
            collect_uninterpreted(i, out);
            collect_uninterpreted(e, out);
        }
        _ => {}
    }
}

fn stmt_terms(s: &Stmt, out: &mut Vec<Term>) {
    match s {
        Stmt::Assume(phi) => out.push(phi.clone()),
        Stmt::Assign(pairs) => out.extend(pairs.iter().flat_map(|(x, e)| [x.clone(), e.clone()])),
        Stmt::Havoc(vs) => out.extend(vs.iter().cloned()),
        Stmt::Seq(parts) | Stmt::Choice(parts) => parts.iter().for_each(|p| stmt_terms(p, out)),
    }
}

fn label_terms(l: &Label) -> Vec<Term> {
    let mut out = Vec::new();
    match l {
        Label::Stmt(s) => stmt_terms(s, &mut out),
        Label::Call(c) => out.extend(c.args.iter().chain(&c.rets).cloned()),
        Label::Thread(op) => out.extend(op.terms()),
    }
    out
}

/// The whole program: declarations, axioms, and every procedure with contract and CFG.
pub fn program_to_boogie(p: &Program) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "// program {}", p.file);
    let _ = writeln!(out, "// entries: {}", p.entries.join(", "));
    let mut sorts = BTreeSet::new();
    let mut terms: Vec<Term> = p.globals.iter().chain(p.consts.iter()).chain(p.axioms.iter()).cloned().collect();
    for proc in p.procedures.values() {
        terms.extend(proc.params.iter().chain(&proc.rets).chain(&proc.locals).cloned());
        terms.extend(proc.requires.iter().chain(&proc.ensures).map(|s| s.formula.clone()));
        for e in proc.body.iter().flat_map(|c| c.edges.iter()) {
            terms.extend(label_terms(&e.label));
        }
    }
    let mut seen = HashSet::new();
    while let Some(t) = terms.pop() {
        if seen.insert(t.id()) {
            collect_uninterpreted(&t.sort, &mut sorts);
            if let Kind::Quant(_, vars) = &t.kind {
                terms.extend(vars.iter().cloned());
            }
            terms.extend(t.args.iter().cloned());
        }
    }
    for f in &p.functions {
        for s in f.domain.iter().chain(std::iter::once(&f.range)) {
            collect_uninterpreted(s, &mut sorts);
        }
    }
    for s in &sorts {
        let _ = writeln!(out, "type {s};");
    }
    for c in &p.consts {
        let _ = writeln!(out, "const {};", typed(std::slice::from_ref(c)));
    }
    for g in &p.globals {
        let _ = writeln!(out, "var {};", typed(std::slice::from_ref(g)));
    }
    for f in &p.functions {
        let dom: Vec<String> = f.domain.iter().map(sort_to_boogie).collect();
        let _ = writeln!(out, "function {}({}) returns ({});", f.name, dom.join(", "), sort_to_boogie(&f.range));
    }
    for a in &p.axioms {
        let _ = writeln!(out, "axiom {};", term_to_boogie(a));
    }
    for proc in p.procedures.values() {
        out.push('\n');
        let _ = write!(out, "procedure {}({})", proc.name, typed(&proc.params));
        if !proc.rets.is_empty() {
            let _ = write!(out, " returns ({})", typed(&proc.rets));
        }
        out.push_str(";\n");
        for r in &proc.requires {
            let free = if r.free { "free " } else { "" };
            let _ = writeln!(out, "  {free}requires {};", term_to_boogie(&r.formula));
        }
        if !proc.modifies.is_empty() {
            let _ = writeln!(out, "  modifies {};", names(&proc.modifies));
        }
        for e in &proc.ensures {
            let free = if e.free { "free " } else { "" };
            let _ = writeln!(out, "  {free}ensures {};", term_to_boogie(&e.formula));
        }
        if let Some(cfg) = &proc.body {
            let _ = write!(out, "implementation {}({})", proc.name, typed(&proc.params));
            if !proc.rets.is_empty() {
                let _ = write!(out, " returns ({})", typed(&proc.rets));
            }
            out.push_str("\n{\n");
            if !proc.locals.is_empty() {
                let _ = writeln!(out, "  var {};", typed(&proc.locals));
            }
            out.push_str(&cfg_to_boogie(&proc.name, cfg));
            out.push_str("}\n");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use smt::build::*;

    #[test]
    fn precedence() {
        let x = Term::var("x", Sort::Int);
        let y = Term::var("y", Sort::Int);
        let e = mul(&[add(&[x.clone(), y.clone()]), x.clone()]);
        assert_eq!(term_to_boogie(&e), "(x + y) * x");
        let e = sub(&x, &sub(&y, &x));
        assert_eq!(term_to_boogie(&e), "x - (y - x)");
        let p = Term::var("p", Sort::Bool);
        let e = and(&[or(&[p.clone(), lt(&x, &y)]), not(&p)]);
        assert_eq!(term_to_boogie(&e), "(p || x < y) && !p");
        let a = Term::var("a", Sort::array(Sort::Int, Sort::Int));
        let e = eq(&select(&store(&a, &x, &int(-1)), &y), &neg(&x));
        let s = term_to_boogie(&e);
        assert!(s == "a[x := -1][y] == -x" || s == "-x == a[x := -1][y]", "{s}");
        let q = Term::var("q@1", Sort::Int);
        let f = forall(std::slice::from_ref(&q), &le(&q, &x));
        assert_eq!(term_to_boogie(&f), "(forall q@1: int :: q@1 <= x)");
        let r = |n: i64, d: i64| real_div(&int(n), &int(d));
        assert_eq!(term_to_boogie(&r(1, 2)), "0.5");
        assert_eq!(term_to_boogie(&r(-3, 8)), "-0.375");
        assert_eq!(term_to_boogie(&r(1, 3)), "1.0 / 3.0");
        assert_eq!(term_to_boogie(&r(201, 100)), "2.01");
        assert_eq!(term_to_boogie(&r(7, 1)), "7.0");
    }
}
