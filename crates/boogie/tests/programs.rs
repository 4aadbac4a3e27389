//! Structural tests of the translation of the test programs in `tests/programs/`.

use boogie::{parse_program, ErrorKind};
use ir::{Cfg, Label, Procedure, Program, Stmt, ViolationKind};
use smt::{Op, Sort, Term};
use std::collections::HashSet;
use std::path::PathBuf;

fn path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/programs").join(name)
}

fn load(name: &str) -> Program {
    let bytes = std::fs::read(path(name)).expect("test program exists");
    match parse_program(name, &bytes) {
        Ok(p) => p,
        Err(e) => panic!("{e}"),
    }
}

fn proc<'a>(p: &'a Program, name: &str) -> &'a Procedure {
    p.procedures.get(name).unwrap_or_else(|| panic!("no procedure {name}"))
}

fn body<'a>(p: &'a Program, name: &str) -> &'a Cfg {
    proc(p, name).body.as_ref().unwrap_or_else(|| panic!("{name} has no body"))
}

fn error_kinds(cfg: &Cfg) -> Vec<ViolationKind> {
    cfg.error_locs().iter().filter_map(|&l| cfg.locs[l].error.as_ref().map(|v| v.kind)).collect()
}

fn count(kinds: &[ViolationKind], k: ViolationKind) -> usize {
    kinds.iter().filter(|&&x| x == k).count()
}

fn names(ts: &[Term]) -> Vec<String> {
    ts.iter().map(|t| t.var_name().unwrap_or("?").to_string()).collect()
}

/// Invariants every translated CFG satisfies.
fn well_formed(cfg: &Cfg) {
    let n = cfg.locs.len();
    assert!(cfg.entry < n && cfg.exit < n);
    assert_ne!(cfg.entry, cfg.exit, "entry and exit are distinct");
    for e in &cfg.edges {
        assert!(e.src < n && e.dst < n);
        assert_ne!(e.dst, cfg.entry, "entry has no incoming edges");
        assert_ne!(e.src, cfg.exit, "exit has no outgoing edges");
        assert!(cfg.locs[e.src].error.is_none(), "error locations have no outgoing edges");
        if let Label::Stmt(Stmt::Assume(phi)) = &e.label {
            assert!(!phi.is_false(), "no infeasible edges");
        }
        assert!(e.pos.is_some(), "every edge has a position");
    }
    // every location is reachable from the entry (the exit may be unreachable)
    let succ = cfg.successors();
    let mut seen = HashSet::new();
    let mut stack = vec![cfg.entry];
    while let Some(l) = stack.pop() {
        if seen.insert(l) {
            stack.extend(succ[l].iter().map(|&e| cfg.edges[e].dst));
        }
    }
    for l in 0..n {
        assert!(l == cfg.exit || seen.contains(&l), "location {} unreachable", cfg.locs[l].name);
    }
}

fn all_well_formed(p: &Program) {
    for pr in p.procedures.values() {
        if let Some(c) = &pr.body {
            well_formed(c);
        }
    }
}

fn stmts(cfg: &Cfg) -> Vec<&Stmt> {
    cfg.edges
        .iter()
        .filter_map(|e| match &e.label {
            Label::Stmt(s) => Some(s),
            _ => None,
        })
        .collect()
}

fn assigns(cfg: &Cfg) -> Vec<&Vec<(Term, Term)>> {
    stmts(cfg)
        .into_iter()
        .filter_map(|s| match s {
            Stmt::Assign(p) => Some(p),
            _ => None,
        })
        .collect()
}

#[test]
fn declarations() {
    let p = load("decls.bpl");
    all_well_formed(&p);
    let color = Sort::Uninterpreted("Color".into());
    let consts: Vec<(String, Sort)> = p.consts.iter().map(|c| (c.var_name().unwrap_or("").into(), c.sort.clone())).collect();
    assert_eq!(
        consts,
        vec![
            ("red".into(), color.clone()),
            ("green".into(), color.clone()),
            ("blue".into(), color.clone()),
            ("N".into(), Sort::Int),
            ("half".into(), Sort::Real)
        ]
    );
    let grid = p.globals.iter().find(|g| g.var_name() == Some("grid")).expect("grid");
    assert_eq!(grid.sort, Sort::array(Sort::Int, Sort::array(Sort::Int, color.clone())));
    let row = p.globals.iter().find(|g| g.var_name() == Some("row")).expect("row");
    assert_eq!(row.sort, Sort::array(Sort::Int, Sort::Int));
    assert_eq!(p.globals.len(), 4);
    // only functions without body (and not const_array) are uninterpreted symbols
    let fnames: Vec<&str> = p.functions.iter().map(|f| &*f.name).collect();
    assert_eq!(fnames, vec!["f", "band"]);
    // distinct(red, green, blue), N > 0, half == 0.5, the quantified axiom
    assert_eq!(p.axioms.len(), 4);
    assert!(p.axioms.iter().any(|a| a.op() == Some(&Op::Distinct) && a.args.len() == 3));
    let quant = p.axioms.iter().find(|a| a.has_quantifier()).expect("quantified axiom");
    // the body of h was expanded, f is applied, and the bound variable is fresh
    let printed = ir::print::term_to_boogie(quant);
    assert!(printed.contains("if 0 < x@"), "{printed}");
    assert!(printed.contains("f(x@"), "{printed}");
    let cfg = body(&p, "main");
    let kinds = error_kinds(cfg);
    assert_eq!(kinds, vec![ViolationKind::Assert; 3]);
    // the const_array function became a constant array
    assert!(assigns(cfg).iter().any(|a| a[0].1.op().is_some_and(|o| matches!(o, Op::ConstArray(_)))));
    // g(1, 2) was expanded and simplified to true
    assert!(assigns(cfg).iter().any(|a| a[0].0.var_name() == Some("flag") && a[0].1.is_true()));
    // the over-approximating function marks its edge
    let marked: Vec<_> = cfg.edges.iter().filter_map(|e| e.overapprox.clone()).collect();
    assert_eq!(marked, vec!["bitwise".to_string()]);
    // grid[N, N] := red is a curried nested store
    let n = Term::var("N", Sort::Int);
    let red = Term::var("red", color.clone());
    let expected = smt::build::store(grid, &n, &smt::build::store(&smt::build::select(grid, &n), &n, &red));
    assert!(assigns(cfg).iter().any(|a| a[0] == (grid.clone(), expected.clone())));
}

#[test]
fn control_flow() {
    let p = load("control.bpl");
    all_well_formed(&p);
    let pr = proc(&p, "control");
    assert_eq!(pr.requires.len(), 1);
    assert_eq!(pr.ensures.iter().map(|e| e.free).collect::<Vec<_>>(), vec![false, true]);
    let cfg = pr.body.as_ref().expect("body");
    let kinds = error_kinds(cfg);
    assert_eq!(count(&kinds, ViolationKind::Assert), 1);
    assert_eq!(count(&kinds, ViolationKind::LoopInvariant), 2);
    assert_eq!(count(&kinds, ViolationKind::Ensures), 1);
    assert_eq!(kinds.len(), 4);
    // requires are not part of the body
    let req = &pr.requires[0].formula;
    for s in stmts(cfg) {
        if let Stmt::Assume(phi) = s {
            assert_ne!(phi, req);
        }
    }
    // the free invariant is assumed but never checked
    let i = Term::var("i", Sort::Int);
    let free_inv = smt::build::ge(&i, &smt::build::int(0));
    assert!(stmts(cfg).contains(&&Stmt::Assume(free_inv.clone())));
    assert!(!stmts(cfg).contains(&&Stmt::Assume(smt::build::not(&free_inv))));
    // user labels name their locations; generated names avoid them
    let locnames: Vec<&str> = cfg.locs.iter().map(|l| l.name.as_str()).collect();
    for l in ["outer", "L1", "L2", "L3"] {
        assert_eq!(locnames.iter().filter(|&&n| n == l).count(), 1, "{l} in {locnames:?}");
    }
    // goto L1, L2 gives two `assume true` edges from one location
    let l1 = locnames.iter().position(|&n| n == "L1").expect("L1");
    let l2 = locnames.iter().position(|&n| n == "L2").expect("L2");
    let into = |d: usize| cfg.edges.iter().filter(|e| e.dst == d).map(|e| e.src).collect::<Vec<_>>();
    let common: Vec<usize> = into(l1).into_iter().filter(|s| into(l2).contains(s)).collect();
    assert_eq!(common.len(), 1);
    // the `*` conditions are `assume true` edges; `while (true)` needs no edge at all
    let trues = cfg.edges.iter().filter(|e| matches!(&e.label, Label::Stmt(Stmt::Assume(t)) if t.is_true())).count();
    assert_eq!(trues, 2 + 2 + 2, "if (*), while (*), goto L1, L2");
    // every path to the exit passes the ensures check: the exit's only predecessor edge assumes it
    let ens = &pr.ensures[0].formula;
    let to_exit: Vec<_> = cfg.edges.iter().filter(|e| e.dst == cfg.exit).collect();
    assert_eq!(to_exit.len(), 1);
    assert_eq!(to_exit[0].label, Label::Stmt(Stmt::Assume(ens.clone())));
}

#[test]
fn procedures_and_calls() {
    let p = load("procs.bpl");
    all_well_formed(&p);
    assert_eq!(p.entries, vec!["inc", "swap", "main", "rename", "oldparam"]);
    let inc = proc(&p, "inc");
    assert_eq!(names(&inc.params), vec!["p"]);
    assert_eq!(names(&inc.rets), vec!["q"]);
    assert_eq!(names(&inc.modifies), vec!["g"]);
    assert_eq!(inc.requires.iter().map(|r| r.free).collect::<Vec<_>>(), vec![false, true]);
    // the contract is expressed over the implementation's names
    let printed: Vec<String> = inc.ensures.iter().map(|e| ir::print::term_to_boogie(&e.formula)).collect();
    assert_eq!(printed, vec!["q == p + 1", "g == old(g) + p"]);
    assert_eq!(error_kinds(body(&p, "inc")), vec![ViolationKind::Ensures; 2]);
    // swapped names in the implementation: the contract follows positions
    let ren = proc(&p, "rename");
    assert_eq!(ir::print::term_to_boogie(&ren.requires[0].formula), "0 <= a");
    assert_eq!(ir::print::term_to_boogie(&ren.ensures[0].formula), "d == b + 1");
    // old(param) is the parameter; a parameter colliding with a global is renamed
    let op = proc(&p, "oldparam");
    assert_eq!(names(&op.params), vec!["x#1"]);
    assert_eq!(ir::print::term_to_boogie(&op.ensures[0].formula), "r == x#1 + old(g)");
    // procedures without implementation
    assert!(proc(&p, "noop").body.is_none());
    let d = proc(&p, "decl_only");
    assert!(d.body.is_none());
    assert_eq!(names(&d.params), vec!["k"]);
    // main: the local x shadows the global x and is renamed
    let main = proc(&p, "main");
    assert_eq!(names(&main.locals), vec!["x#1", "y", "z"]);
    assert_eq!(main.locals[0].sort, Sort::Bool);
    let cfg = body(&p, "main");
    let calls: Vec<(String, Vec<String>, usize)> = cfg
        .edges
        .iter()
        .filter_map(|e| match &e.label {
            Label::Call(c) => Some((c.callee.clone(), names(&c.rets), c.args.len())),
            _ => None,
        })
        .collect();
    assert_eq!(
        calls,
        vec![("inc".into(), vec!["y".into()], 1), ("swap".into(), vec!["y".into(), "z".into()], 2), ("noop".into(), vec![], 0)]
    );
    assert!(stmts(cfg).iter().any(|s| matches!(s, Stmt::Havoc(v) if names(v) == vec!["y", "z"])));
    // the parallel assignment is one statement
    let sw = assigns(body(&p, "swap"));
    assert_eq!(sw.len(), 1);
    assert_eq!(sw[0].len(), 2);
}

#[test]
fn expressions() {
    let p = load("exprs.bpl");
    all_well_formed(&p);
    let m = p.globals.iter().find(|g| g.var_name() == Some("m")).expect("m");
    assert_eq!(m.sort, Sort::array(Sort::Int, Sort::array(Sort::Int, Sort::Bool)));
    let cfg = body(&p, "exprs");
    let printed: Vec<String> = stmts(cfg).iter().map(|s| ir::print::stmt_to_boogie(s)).collect();
    for want in ["a := a[i := a[i][j := 7]];", "m := m[i := m[i][j := true]];", "b := a[i][j := 8];", "k, res := res, k;"] {
        assert!(printed.iter().any(|s| s == want), "missing {want} in {printed:#?}");
    }
    // every assertion gives exactly one error location; trivially true ones (after
    // simplification) give none
    let kinds = error_kinds(cfg);
    assert!(!kinds.is_empty() && kinds.len() <= 17);
    assert!(kinds.iter().all(|&k| k == ViolationKind::Assert));
}

#[test]
fn latin1_and_crlf() {
    let p = load("latin1.bpl");
    let cfg = body(&p, "main");
    well_formed(cfg);
    assert_eq!(error_kinds(cfg), vec![ViolationKind::Assert]);
    // line numbers are not disturbed by \r
    let err = cfg.error_locs()[0];
    let pos = cfg.locs[err].error.as_ref().and_then(|v| v.pos.clone()).expect("pos");
    assert_eq!((pos.line, pos.col), (6, 3));
}

#[test]
fn printed_programs_parse_again() {
    for f in ["decls.bpl", "control.bpl", "procs.bpl", "exprs.bpl", "latin1.bpl"] {
        let text = ir::print::program_to_boogie(&load(f));
        if text.contains('@') || text.contains("lambda") {
            continue;
        }
        if let Err(e) = parse_program("printed.bpl", text.as_bytes()) {
            panic!("printed {f} does not parse: {e}\n{text}");
        }
    }
}

#[test]
fn truncated_inputs_never_panic() {
    for f in ["decls.bpl", "control.bpl", "procs.bpl", "exprs.bpl"] {
        let bytes = std::fs::read(path(f)).expect("exists");
        for cut in 0..bytes.len() {
            let prefix = bytes[..cut].to_vec();
            let r = std::panic::catch_unwind(move || parse_program("t.bpl", &prefix).map(|_| ()));
            assert!(r.is_ok(), "panic on {f} cut at {cut}");
        }
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep_parens = format!("axiom {}true{};", "(".repeat(100_000), ")".repeat(100_000));
    let e = parse_program("d.bpl", deep_parens.as_bytes()).expect_err("too deep");
    assert_eq!(e.kind, ErrorKind::Unsupported);
    let long_sum = format!("const c: int; axiom c == {}1;", "1 + ".repeat(100_000));
    let e = parse_program("d.bpl", long_sum.as_bytes()).expect_err("too deep");
    assert_eq!(e.kind, ErrorKind::Unsupported);
    let deep_ifs = format!("procedure p() {{ {} }}", "if (*) { ".repeat(10_000));
    assert!(parse_program("d.bpl", deep_ifs.as_bytes()).is_err());
    let negs = format!("axiom {}true;", "!".repeat(100_000));
    assert!(parse_program("d.bpl", negs.as_bytes()).is_err());
    let chain = format!("procedure p() {{ {} }}", "if (*) {} else ".repeat(10_000) + "{}");
    assert!(parse_program("d.bpl", chain.as_bytes()).is_err());
}

#[test]
fn token_soup_never_panics() {
    const VOCAB: &[&str] = &[
        "procedure",
        "implementation",
        "var",
        "const",
        "unique",
        "function",
        "axiom",
        "type",
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
        "true",
        "false",
        "int",
        "bool",
        "real",
        "div",
        "mod",
        "x",
        "y",
        "p",
        "L",
        "T",
        "f",
        "0",
        "1",
        "2.5",
        "(",
        ")",
        "[",
        "]",
        "{",
        "}",
        "{:",
        ",",
        ";",
        ":",
        "::",
        ":=",
        "<==>",
        "==>",
        "<==",
        "||",
        "&&",
        "==",
        "!=",
        "<",
        "<=",
        ">",
        ">=",
        "+",
        "-",
        "*",
        "/",
        "%",
        "!",
        "=",
        "\"s\"",
        "where",
    ];
    let prefix = "var x: int; const y: int; function f(a: int): int; type T;\nprocedure p(x: int) returns (y: int) modifies x; {\n";
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    for case in 0..3000 {
        let len = 1 + next(40);
        let mut src = if case % 2 == 0 { prefix.to_string() } else { String::new() };
        for _ in 0..len {
            src.push_str(VOCAB[next(VOCAB.len())]);
            src.push(' ');
        }
        if case % 3 == 0 {
            src.push('}');
        }
        let s2 = src.clone();
        let r = std::panic::catch_unwind(move || parse_program("soup.bpl", s2.as_bytes()).map(|_| ()));
        assert!(r.is_ok(), "panic on:\n{src}");
    }
}

#[test]
fn mutated_programs_never_panic() {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n.max(1) as u64) as usize
    };
    for f in ["decls.bpl", "control.bpl", "procs.bpl", "exprs.bpl"] {
        let text = std::fs::read_to_string(path(f)).expect("exists");
        let code: String = text.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n");
        let words: Vec<&str> = code.split_whitespace().collect();
        let mut parsed = 0;
        for _ in 0..400 {
            let mut w: Vec<&str> = words.clone();
            for _ in 0..1 + next(3) {
                let i = next(w.len());
                match next(3) {
                    0 => {
                        w.remove(i);
                    }
                    1 => {
                        let j = next(words.len());
                        w.insert(i, words[j]);
                    }
                    _ => {
                        let j = next(words.len());
                        w[i] = words[j];
                    }
                }
            }
            let src = w.join(" ");
            let s2 = src.clone();
            let r = std::panic::catch_unwind(move || parse_program("mut.bpl", s2.as_bytes()).map(|_| ()));
            match r {
                Err(_) => panic!("panic on:\n{src}"),
                Ok(Ok(())) => parsed += 1,
                Ok(Err(_)) => {}
            }
        }
        assert!(parsed > 0, "some mutants of {f} are still valid programs");
    }
}
