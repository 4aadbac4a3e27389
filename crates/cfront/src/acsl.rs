//! ACSL annotations in comments. `cpp` drops comments, so before preprocessing every ACSL
//! comment (`//@ …` or `/*@ … */`) of the main file is replaced, in place and with the same
//! number of lines, by C text: `//@ assert e;` becomes `__tracery_acsl_assert(e');` where `e'` is
//! `e` with ACSL's logical connectives rewritten into C; `loop invariant e;` becomes
//! `__tracery_acsl_loop_invariant(e');`, which the translation checks at the head of the loop
//! that follows; ghost code (`ghost int g = 0;`, `ghost g++;`) becomes the C code it is; a
//! function contract before a definition becomes statements at the start of its body
//! (`__tracery_acsl_requires(p);`, `__tracery_acsl_ensures(q);` with `\result` an identifier
//! and each `\old(e)` a local initialized with `e` there); a contract before a declaration goes
//! to the function's definition (with the same parameter list), or without one replaces the
//! declaration's `;` by the body the contract describes: the precondition checked, an arbitrary
//! result (an over-approximation) that satisfies the postcondition. Every other kind of
//! annotation (`assigns`, loop variants and frames, ghost code with ACSL-only types or
//! built-ins) is reported as unsupported: ignoring it could hide a violation.

/// The name of the intrinsic an ACSL `assert` becomes.
pub const ACSL_ASSERT: &str = "__tracery_acsl_assert";

/// The name of the intrinsic an ACSL `loop invariant` becomes.
pub const ACSL_LOOP_INVARIANT: &str = "__tracery_acsl_loop_invariant";

/// The name of the intrinsic a function contract's `requires` becomes.
pub const ACSL_REQUIRES: &str = "__tracery_acsl_requires";

/// The name of the intrinsic a function contract's `ensures` becomes.
pub const ACSL_ENSURES: &str = "__tracery_acsl_ensures";

/// The name of the intrinsic an `ensures` of a function known only by its declaration becomes
/// (assumed where the function returns).
pub const ACSL_ASSUMES: &str = "__tracery_acsl_assumes";

/// The name of the intrinsic that gives a function known only by its declaration an arbitrary
/// result (the body synthesized from its contract).
pub const ACSL_CONTRACT_RESULT: &str = "__tracery_acsl_contract_result";

/// The identifier ACSL's `\result` becomes in an `ensures`.
pub const ACSL_RESULT: &str = "__tracery_acsl_result";

/// An ACSL annotation that cannot be translated, with its 1-based line and column.
#[derive(Debug, Clone)]
pub struct AcslError {
    /// 1-based line of the annotation.
    pub line: u32,
    /// 1-based column of the annotation.
    pub col: u32,
    /// What is not supported.
    pub message: String,
}

/// Replaces the ACSL comments of `src` by C text (see the module documentation).
pub fn rewrite(src: &str) -> Result<String, AcslError> {
    let b = src.as_bytes();
    // (start, end, text): the bytes start..end of `src` become text
    let mut edits: Vec<(usize, usize, String)> = vec![];
    let mut i = 0;
    let (mut line, mut line_start) = (1u32, 0usize);
    while i < b.len() {
        match b[i] {
            b'\n' => {
                line += 1;
                line_start = i + 1;
                i += 1;
            }
            b'"' | b'\'' => i = crate::preprocess::skip_literal(b, i),
            b'/' if b.get(i + 1) == Some(&b'/') => {
                let end = src[i..].find('\n').map_or(b.len(), |k| i + k);
                if b.get(i + 2) == Some(&b'@') {
                    let col = (i - line_start + 1) as u32;
                    edits.extend(annotation(src, &src[i + 3..end], (i, end), line, col)?);
                }
                i = end;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let end = src[i + 2..].find("*/").map_or(b.len(), |k| i + 2 + k + 2);
                let body_end = end.saturating_sub(2).max(i + 2);
                let newlines = src[i..end].matches('\n').count();
                if b.get(i + 2) == Some(&b'@') {
                    let col = (i - line_start + 1) as u32;
                    let body: String = src[i + 3..body_end]
                        .lines()
                        .map(|l| {
                            let t = l.trim_start();
                            t.strip_prefix('@').unwrap_or(t).to_string()
                        })
                        .collect::<Vec<_>>()
                        .join(" ");
                    let mut parts = annotation(src, &body, (i, end), line, col)?;
                    if let Some(first) = parts.first_mut() {
                        first.2.push_str(&"\n".repeat(newlines));
                    }
                    edits.extend(parts);
                }
                for (k, c) in src[i..end].char_indices() {
                    if c == '\n' {
                        line += 1;
                        line_start = i + k + 1;
                    }
                }
                i = end;
            }
            _ => i += 1,
        }
    }
    edits.sort_by_key(|e| (e.0, e.1));
    let mut out = String::with_capacity(src.len());
    let mut last = 0;
    for (start, end, text) in edits {
        out.push_str(&src[last.min(start)..start]);
        out.push_str(&text);
        last = last.max(end);
    }
    out.push_str(&src[last.min(src.len())..]);
    Ok(out)
}

/// The edits for one annotation body (the text after `//@` or between `/*@` and `*/`) of the
/// comment at `span` of `src`: the comment becomes the C text of its clauses; a function
/// contract instead becomes statements at the start of the body of the function it precedes.
fn annotation(src: &str, body: &str, span: (usize, usize), line: u32, col: u32) -> Result<Vec<(usize, usize, String)>, AcslError> {
    let err = |m: String| AcslError { line, col, message: m };
    if !body.is_ascii() {
        // (ACSL's Unicode notations are not read; the rewriting below works on bytes)
        return Err(err("ACSL annotation with a character that is not ASCII".into()));
    }
    if let Some(code) = keyword(body.trim_start(), "ghost") {
        return Ok(vec![(span.0, span.1, ghost(code).map_err(err)?)]);
    }
    let mut out = String::new();
    let mut contract = Contract { id: span.0, ..Contract::default() };
    for part in split_top(body, ';') {
        let p = part.trim();
        if p.is_empty() {
            continue;
        }
        let invariant = keyword(p, "loop").and_then(|r| keyword(r.trim_start(), "invariant"));
        let clause = [("requires", keyword(p, "requires")), ("ensures", keyword(p, "ensures"))].into_iter().find(|(_, e)| e.is_some());
        match (keyword(p, "assert"), invariant, clause) {
            (Some(e), _, _) => out.push_str(&format!("{ACSL_ASSERT}({});", expr(e, false).map_err(err)?)),
            (_, Some(e), _) => out.push_str(&format!("{ACSL_LOOP_INVARIANT}({});", expr(e, false).map_err(err)?)),
            (_, _, Some((kind, Some(e)))) => contract.clause(kind, e).map_err(err)?,
            _ => {
                let kw: String = p.chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ' ').collect();
                return Err(err(format!("ACSL annotation `{}`", kw.trim())));
            }
        }
    }
    if contract.is_empty() {
        return Ok(vec![(span.0, span.1, out)]);
    }
    if !out.is_empty() {
        return Err(err("ACSL contract mixed with other annotations".into()));
    }
    let header = function_header(src, span.1).ok_or_else(|| err("ACSL contract not followed by a function".into()))?;
    let blank = (span.0, span.1, String::new());
    if header.definition {
        let text = contract.requires + &contract.olds + &contract.ensures;
        return Ok(vec![blank, (header.end + 1, header.end + 1, text)]);
    }
    // a declaration: the contract holds for the definition, or stands for the function
    match find_definition(src, &header.name, header.end) {
        Some(def) if def.params == header.params => {
            let text = contract.requires + &contract.olds + &contract.ensures;
            Ok(vec![blank, (def.end + 1, def.end + 1, text)])
        }
        Some(_) => {
            Err(err(format!("ACSL contract on a declaration of `{}` whose parameters the definition writes differently", header.name)))
        }
        None => {
            // the body the contract describes: the precondition checked, an arbitrary result
            // that satisfies the postcondition
            let assumed = contract.ensures.replace(&format!("{ACSL_ENSURES}("), &format!("{ACSL_ASSUMES}("));
            let body = format!("{{{}{}{assumed}{ACSL_CONTRACT_RESULT}();}}", contract.requires, contract.olds);
            Ok(vec![blank, (header.end, header.end + 1, body)])
        }
    }
}

/// The index of the last byte of the comment that starts at `k` (`//` or `/*`).
fn comment_end(src: &str, k: usize) -> usize {
    if src[k..].starts_with("//") {
        src[k..].find('\n').map_or(src.len(), |n| k + n)
    } else {
        src[k + 2..].find("*/").map_or(src.len(), |n| k + 2 + n + 1)
    }
}

/// A function declarator after an annotation: its name, the text of its parameter list, and
/// where it ends (the `{` of a definition's body, the `;` of a declaration).
struct Header {
    name: String,
    params: String,
    end: usize,
    definition: bool,
}

/// The function declarator that follows `from` (skipping comments), if one does.
fn function_header(src: &str, from: usize) -> Option<Header> {
    let b = src.as_bytes();
    let (mut depth, mut k) = (0i32, from);
    let mut params: Option<(usize, usize)> = None;
    while k < b.len() {
        match b[k] {
            b'/' if matches!(b.get(k + 1), Some(b'/' | b'*')) => k = comment_end(src, k),
            b'(' => {
                if depth == 0 && params.is_none() {
                    params = Some((k, matching_paren(src, k)?));
                }
                depth += 1;
            }
            b')' => depth -= 1,
            b'{' | b';' if depth == 0 => {
                let (open, close) = params?;
                let name = src[from..open].trim_end().rsplit(|c: char| !(c.is_alphanumeric() || c == '_')).next()?.to_string();
                let params = src[open + 1..close].split_whitespace().collect::<Vec<_>>().join(" ");
                return (!name.is_empty()).then_some(Header { name, params, end: k, definition: b[k] == b'{' });
            }
            _ => {}
        }
        k += 1;
    }
    None
}

/// The definition of the function `name` at file scope after `from`.
fn find_definition(src: &str, name: &str, from: usize) -> Option<Header> {
    let b = src.as_bytes();
    let (mut braces, mut k) = (0i32, from);
    while k < b.len() {
        match b[k] {
            b'/' if matches!(b.get(k + 1), Some(b'/' | b'*')) => k = comment_end(src, k),
            b'"' | b'\'' => {
                k = crate::preprocess::skip_literal(b, k);
                continue;
            }
            b'{' => braces += 1,
            b'}' => braces -= 1,
            c if braces == 0 && (c.is_ascii_alphabetic() || c == b'_') => {
                let end = k + src[k..].find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(src.len() - k);
                if &src[k..end] == name && src[end..].trim_start().starts_with('(') {
                    // the header starts after the previous declaration ends
                    let start = src[..k].rfind([';', '}']).map_or(0, |p| p + 1);
                    if let Some(h) = function_header(src, start).filter(|h| h.definition && h.name == name) {
                        return Some(h);
                    }
                }
                k = end;
                continue;
            }
            _ => {}
        }
        k += 1;
    }
    None
}

/// The statements a function contract becomes at the start of the function's body: the
/// preconditions' checks, then the copies of the `\old` values (which the preconditions may
/// guard), then the postconditions.
#[derive(Default)]
struct Contract {
    /// Tells this contract's locals from another's (the offset of its comment).
    id: usize,
    requires: String,
    olds: String,
    ensures: String,
    old_count: usize,
}

impl Contract {
    fn is_empty(&self) -> bool {
        self.requires.is_empty() && self.ensures.is_empty()
    }

    /// Adds a `requires` or `ensures` clause: `\old(e)` becomes a local that keeps `e`'s
    /// value at the start of the body.
    fn clause(&mut self, kind: &str, e: &str) -> Result<(), String> {
        let mut e = e.to_string();
        while let Some(k) = e.find("\\old(") {
            let inner_start = k + "\\old(".len();
            let close = matching_paren(&e, inner_start - 1).ok_or("unbalanced `\\old(`")?;
            let inner = expr(&e[inner_start..close], false)?;
            let name = format!("__tracery_acsl_old{}_{}", self.id, self.old_count);
            self.old_count += 1;
            self.olds.push_str(&format!("__typeof__({inner}) {name} = ({inner});"));
            e.replace_range(k..=close, &name);
        }
        let (intrinsic, out) = if kind == "requires" { (ACSL_REQUIRES, &mut self.requires) } else { (ACSL_ENSURES, &mut self.ensures) };
        out.push_str(&format!("{intrinsic}({});", expr(&e, kind == "ensures")?));
        Ok(())
    }
}

/// The position of the `)` that closes the `(` at `open`.
fn matching_paren(s: &str, open: usize) -> Option<usize> {
    let mut depth = 0i32;
    for (k, c) in s[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + k);
                }
            }
            _ => {}
        }
    }
    None
}

/// The text after the keyword `kw` at the start of `s` (followed by a space or `(`).
fn keyword<'s>(s: &'s str, kw: &str) -> Option<&'s str> {
    s.strip_prefix(kw).filter(|r| r.starts_with(|c: char| c.is_whitespace() || c == '('))
}

/// Ghost code as the C code it is; code that needs ACSL's own types or built-ins is not C.
fn ghost(code: &str) -> Result<String, String> {
    let words = code.split(|c: char| !(c.is_alphanumeric() || c == '_'));
    if let Some(w) = words.into_iter().find(|w| ["integer", "real", "boolean"].contains(w)) {
        return Err(format!("ACSL ghost code with the logic type `{w}`"));
    }
    if code.contains('\\') {
        return Err("ACSL ghost code with ACSL built-ins".into());
    }
    Ok(code.trim().to_string())
}

/// Splits at occurrences of `sep` outside of brackets.
fn split_top(s: &str, sep: char) -> Vec<&str> {
    let mut parts = vec![];
    let mut depth = 0i32;
    let mut start = 0;
    for (k, c) in s.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            c if c == sep && depth == 0 => {
                parts.push(&s[start..k]);
                start = k + c.len_utf8();
            }
            _ => {}
        }
    }
    parts.push(&s[start..]);
    parts
}

/// Rewrites an ACSL term into C: `\true`, `\false`, `==>`, `<==>`, and in an `ensures`
/// (`in_ensures`) `\result`.
fn expr(s: &str, in_ensures: bool) -> Result<String, String> {
    // logical constants and unsupported built-ins
    let mut t = String::new();
    let mut chars = s.char_indices().peekable();
    while let Some((_, c)) = chars.next() {
        if c == '\\' {
            let mut w = String::new();
            while let Some(&(_, d)) = chars.peek() {
                if d.is_alphanumeric() || d == '_' {
                    w.push(d);
                    chars.next();
                } else {
                    break;
                }
            }
            match w.as_str() {
                "true" => t.push_str(" 1 "),
                "false" => t.push_str(" 0 "),
                "result" if in_ensures => t.push_str(&format!(" {ACSL_RESULT} ")),
                _ => return Err(format!("ACSL built-in `\\{w}`")),
            }
        } else {
            t.push(c);
        }
    }
    if t.contains("^^") {
        return Err("ACSL operator `^^`".into());
    }
    connectives(&t)
}

/// Top-level positions of `pat` outside brackets.
fn top_level(s: &str, pat: &str) -> Vec<usize> {
    let b = s.as_bytes();
    let mut out = vec![];
    let mut depth = 0i32;
    let mut k = 0;
    while k < b.len() {
        match b[k] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            _ if depth == 0 && b[k..].starts_with(pat.as_bytes()) => {
                out.push(k);
                k += pat.len();
                continue;
            }
            _ => {}
        }
        k += 1;
    }
    out
}

fn connectives(s: &str) -> Result<String, String> {
    let equiv = top_level(s, "<==>");
    let imp: Vec<usize> = top_level(s, "==>").into_iter().filter(|&k| !equiv.iter().any(|&e| k == e + 1)).collect();
    if (!equiv.is_empty() || !imp.is_empty()) && !top_level(s, "?").is_empty() {
        return Err("ACSL `==>`/`<==>` mixed with `?:`".into());
    }
    if let Some(&e) = equiv.first() {
        if equiv.len() > 1 {
            return Err("chained ACSL `<==>`".into());
        }
        let a = connectives(&s[..e])?;
        let b = connectives(&s[e + 4..])?;
        return Ok(format!("((!!({a})) == (!!({b})))"));
    }
    if let Some(&i) = imp.first() {
        let a = connectives(&s[..i])?;
        let b = connectives(&s[i + 3..])?;
        return Ok(format!("(!({a}) || ({b}))"));
    }
    // recurse into bracketed groups
    let mut out = String::new();
    let b = s.as_bytes();
    let mut k = 0;
    while k < b.len() {
        if b[k] == b'(' {
            let mut depth = 0i32;
            let mut j = k;
            while j < b.len() {
                match b[j] {
                    b'(' => depth += 1,
                    b')' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            let inner = &s[k + 1..j.min(s.len())];
            out.push('(');
            out.push_str(&connectives(inner)?);
            out.push(')');
            k = j + 1;
        } else {
            let c = s[k..].chars().next().unwrap_or(' ');
            out.push(c);
            k += c.len_utf8();
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewrites_assertions_in_place() {
        let src = "int x;\n  //@ assert x == 0;\n/*@ assert \\true ==> x >= 0;\n */ int y;";
        let r = rewrite(src).unwrap();
        assert_eq!(r.lines().count(), src.lines().count());
        assert!(r.contains("__tracery_acsl_assert( x == 0);"));
        assert!(r.contains("(!(  1  ) || ( x >= 0))"));
    }

    #[test]
    fn ghost_code_is_c_and_loop_invariants_are_intrinsics() {
        let src = "//@ ghost int g = 0;\n/*@ loop invariant x >= 0 ==> g >= 0;\n  @ loop invariant \\true; */\n";
        let r = rewrite(src).unwrap();
        assert_eq!(r.lines().count(), src.lines().count());
        assert!(r.starts_with("int g = 0;\n"), "{r}");
        assert!(r.contains("__tracery_acsl_loop_invariant((!( x >= 0 ) || ( g >= 0)));__tracery_acsl_loop_invariant(  1 );"), "{r}");
        assert!(rewrite("//@ ghost integer i = 0;").unwrap_err().message.contains("integer"));
        assert!(rewrite("//@ loop variant n;").unwrap_err().message.contains("loop variant"));
    }

    #[test]
    fn contracts_become_statements_at_the_start_of_the_body() {
        let src = "int g;\n/*@ requires x > 0;\n  @ ensures \\result == \\old(g) + x; */\nint f(int x)\n{ g++; return g; }";
        let r = rewrite(src).unwrap();
        assert_eq!(r.lines().count(), src.lines().count());
        assert!(r.contains("{__tracery_acsl_requires( x > 0);__typeof__(g) __tracery_acsl_old7_0 = (g);"), "{r}");
        assert!(r.contains("__tracery_acsl_ensures(  __tracery_acsl_result  == __tracery_acsl_old7_0 + x); g++;"), "{r}");
    }

    #[test]
    fn contracts_of_declarations_go_to_the_definition_or_become_one() {
        // no definition: a body with the precondition, the assumed postcondition, any result
        let r = rewrite("//@ requires x > 0; ensures \\result > x;\nint f(int x);").unwrap();
        assert!(r.ends_with("int f(int x){__tracery_acsl_requires( x > 0);__tracery_acsl_assumes(  __tracery_acsl_result  > x);__tracery_acsl_contract_result();}"), "{r}");
        // a definition with the same parameters gets the clauses at the start of its body
        let r = rewrite("//@ requires x > 0;\nint f(int x);\nint g() { return f(1); }\nint f(int  x) { return x; }").unwrap();
        assert!(r.ends_with("int f(int  x) {__tracery_acsl_requires( x > 0); return x; }"), "{r}");
        let e = rewrite("//@ requires x > 0;\nint f(int x);\nint f(int y) { return y; }").unwrap_err();
        assert_eq!((e.line, e.col), (1, 1));
        assert!(e.message.contains("parameters"));
        assert!(rewrite("//@ requires x > 0;\nint x;").is_err());
        assert!(rewrite("//@ assert \\result == 0;").is_err());
    }

    #[test]
    fn ignores_comment_markers_in_strings() {
        let src = "char *s = \"//@ requires\";";
        assert_eq!(rewrite(src).unwrap(), src);
    }
}
