//! Syntax, type and unsupported-construct errors, with their positions.

use boogie::{parse_program, ErrorKind};

fn error(src: &str) -> (ErrorKind, u32, u32, String) {
    match parse_program("e.bpl", src.as_bytes()) {
        Ok(_) => panic!("expected an error for:\n{src}"),
        Err(e) => (e.kind, e.pos.line, e.pos.col, e.message),
    }
}

fn expect(src: &str, kind: ErrorKind, line: u32, col: u32, fragment: &str) {
    let (k, l, c, m) = error(src);
    assert_eq!((k, l, c), (kind, line, col), "message: {m}\nsource:\n{src}");
    assert!(m.contains(fragment), "`{m}` does not contain `{fragment}`");
}

fn wrap(body: &str) -> String {
    format!("var g: int;\nvar h: int;\nprocedure p(a: int) returns (r: int)\n  modifies g;\n{{\n  var x: int, b: bool, m: [int]bool;\n{body}\n}}\nprocedure q(n: int) returns (s: int);\n  modifies h;\n")
}

#[test]
fn display_format() {
    let e = parse_program("dir/f.bpl", b"procedure p() {\n  x := 1;\n}\n").expect_err("undeclared");
    assert_eq!(e.to_string(), "dir/f.bpl:2:3: type error: undeclared identifier `x`");
    let e = parse_program("f.bpl", b"procedure p() {\n  assert 1 +;\n}\n").expect_err("syntax");
    assert_eq!(e.to_string(), "f.bpl:2:13: syntax error: expected an expression, found `;`");
    let e = parse_program("f.bpl", b"var x: bv32;").expect_err("bv");
    assert_eq!(e.to_string(), "f.bpl:1:8: unsupported: bit-vector types are not supported");
}

#[test]
fn syntax_errors() {
    expect("procedure p() { x := 1 }", ErrorKind::Syntax, 1, 24, "expected `;`");
    expect("/* never closed\nprocedure p() {}", ErrorKind::Syntax, 1, 1, "unterminated comment");
    expect("procedure p() { var x: int; x := 1 + ; }", ErrorKind::Syntax, 1, 38, "expected an expression");
    expect("procedure p() {\n  if x {}\n}", ErrorKind::Syntax, 2, 6, "expected `(`");
    expect("const c: int;\naxiom c < c < c;", ErrorKind::Syntax, 2, 13, "do not associate");
    expect("procedure p() { \u{1} }", ErrorKind::Syntax, 1, 17, "unexpected character");
    expect("procedure p( {}", ErrorKind::Syntax, 1, 14, "identifier");
    expect("axiom \"str;", ErrorKind::Syntax, 1, 7, "unterminated string");
    expect("procedure p() { assert 12abc > 0; }", ErrorKind::Syntax, 1, 24, "malformed number");
}

#[test]
fn type_errors() {
    use ErrorKind::Type;
    expect(&wrap("  x := true;"), Type, 7, 8, "must have type int, but has type bool");
    expect(&wrap("  x := y;"), Type, 7, 8, "undeclared identifier `y`");
    expect(&wrap("  x := x + 1.0;"), Type, 7, 10, "two int or two real operands");
    expect(&wrap("  if (x) { }"), Type, 7, 7, "must have type bool");
    expect(&wrap("  while (x + 1) { }"), Type, 7, 12, "must have type bool");
    expect(&wrap("  assume x;"), Type, 7, 10, "must have type bool");
    expect(&wrap("  b := m[true];"), Type, 7, 10, "map index must have type int");
    expect(&wrap("  b := x[1];"), Type, 7, 10, "non-map type int");
    expect(&wrap("  m[1] := 2;"), Type, 7, 11, "must have type bool");
    expect(&wrap("  a := 1;"), Type, 7, 3, "in-parameter `a` cannot be assigned");
    expect(&wrap("  h := 1;"), Type, 7, 3, "not in the modifies clause");
    expect(&wrap("  havoc h;"), Type, 7, 9, "not in the modifies clause");
    expect(&wrap("  call x := q();"), Type, 7, 13, "expects 1 arguments, got 0");
    expect(&wrap("  call q(1);"), Type, 7, 8, "returns 1 values, but 0 are assigned");
    expect(&wrap("  call b := q(1);"), Type, 7, 8, "result 1 of `q` must have type int");
    expect(&wrap("  call x := q(true);"), Type, 7, 15, "argument 1 of `q`");
    expect(&wrap("  call x := nope(1);"), Type, 7, 13, "undeclared procedure `nope`");
    expect(&wrap("  x, x := 1, 2;"), Type, 7, 6, "assigned more than once");
    expect(&wrap("  x, b := 1;"), Type, 7, 3, "2 left-hand sides but 1 right-hand sides");
    expect(&wrap("  goto nowhere;"), Type, 7, 8, "undeclared label `nowhere`");
    expect(&wrap("  l: x := 1;\n  l: x := 2;"), Type, 8, 3, "duplicate label `l`");
    expect(&wrap("  break;"), Type, 7, 3, "outside of a loop");
    expect(&wrap("  while (*) { break outer; }"), Type, 7, 15, "does not name");
    expect(&wrap("  var x: int;"), Type, 7, 7, "duplicate declaration of `x`");
    expect(&wrap("  x := f(1);"), Type, 7, 8, "undeclared function `f`");
    expect(&wrap("  b := x == b;"), Type, 7, 10, "different types int and bool");
    expect(&wrap("  x := (if b then 1 else false);"), Type, 7, 9, "different types");
    expect(&wrap("  x := x div 2.0;"), Type, 7, 10, "needs int operands");
    expect(&wrap("  b := (forall k: int :: k);"), Type, 7, 26, "must have type bool");
    expect("procedure p();\nimplementation p(x: int) {}", Type, 2, 16, "does not match the signature");
    expect("implementation p() {}", Type, 1, 16, "undeclared procedure `p`");
    expect("procedure p() modifies c; {}\nconst c: int;", Type, 1, 24, "constant `c` cannot be modified");
    expect("var x: int;\nvar x: bool;", Type, 2, 5, "duplicate declaration of `x`");
    expect("type T = U;\ntype U = T;", Type, 1, 10, "cyclic type synonym");
    expect("var x: Unknown;", Type, 1, 8, "undeclared type `Unknown`");
    expect("var g: int;\naxiom g > 0;", Type, 2, 7, "mutable variable `g`");
    expect("const c: int;\naxiom old(c) > 0;", Type, 2, 7, "`old` is not allowed");
    expect("function f(x: int): bool { x + 1 }", Type, 1, 30, "body of function `f`");
    expect("var g: int;\nprocedure caller() { call callee(); }\nprocedure callee(); modifies g;", Type, 2, 27, "may modify `g`");
}

#[test]
fn unsupported_constructs() {
    use ErrorKind::Unsupported;
    expect("var x: bv32;", Unsupported, 1, 8, "bit-vector types");
    expect("const c: int;\naxiom c == 1bv8;", Unsupported, 2, 12, "bit-vector literals");
    expect("var m: <a>[a]int;", Unsupported, 1, 8, "polymorphic map types");
    expect("type Set a;", Unsupported, 1, 10, "type constructors");
    expect("function f<a>(x: a): a;", Unsupported, 1, 11, "polymorphic functions");
    expect("const c: int;\naxiom (lambda x: int :: x) == (lambda x: int :: x);", Unsupported, 2, 8, "lambda");
    expect("const c: int;\nconst d: int;\naxiom c <: d;", Unsupported, 3, 9, "<:");
    expect("const c: int;\naxiom c ++ c == c;", Unsupported, 2, 9, "++");
    expect("procedure p() { call forall q(); }", Unsupported, 1, 22, "call forall");
    expect("procedure p() { fork 1 q(); }", ErrorKind::Type, 1, 24, "undeclared procedure `q`");
    expect("procedure p() { while (true) { atomic { break; } } }", Unsupported, 1, 41, "jumps out of an `atomic` block");
    expect("procedure p() { yield; }", Unsupported, 1, 17, "concurrency");
    expect("type S = {x: int};", Unsupported, 1, 10, "struct types");
    expect("function f(x: int): int { f(x) }\nconst c: int;\naxiom f(1) == c;", Unsupported, 1, 27, "recursive function");
    // (a declaration alone is not: only an application needs the definition)
    expect(
        "function {:builtin \"bvadd\"} add(x: int, y: int): int;\nprocedure p() { assert add(1, 2) == 3; }",
        Unsupported,
        2,
        24,
        "builtin",
    );
    expect("procedure p<T>() {}", Unsupported, 1, 12, "polymorphic procedures");
    expect("procedure p() returns (r: int) { return r; }", Unsupported, 1, 41, "return statements with values");
}
