//! Reading, preprocessing and normalizing a C file, and mapping byte offsets of the text that
//! is parsed back to positions in the original source.
//!
//! `.i` files are used as they are (positions are their own lines). Other files go through the
//! system preprocessor (`gcc -E`) after their ACSL comments were rewritten (see `acsl`); the line
//! markers of its output map positions back to the original file. The text is then normalized
//! where `lang-c` rejects what real programs contain.

use crate::acsl;
use crate::error::{CError, ErrorKind, Result};
use crate::types::DataModel;
use ir::SourcePos;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, OnceLock};

/// Typedef names that stand for GCC's 128-bit integer types in the normalized text.
pub const INT128: &str = "__tracery_int128";
/// See [`INT128`].
pub const UINT128: &str = "__tracery_uint128";

/// The text handed to the parser and the map from its byte offsets to source positions.
pub struct Source {
    /// The preprocessed, normalized text.
    pub text: String,
    /// Position information.
    pub map: LineMap,
}

/// Maps byte offsets of a text to source positions.
#[derive(Clone)]
pub struct LineMap {
    /// For each physical line: its start offset, the file and the line it stands for.
    lines: Vec<(usize, Arc<str>, u32)>,
}

impl LineMap {
    /// Builds the map of `text`; with `follow_markers`, `# N "file"` lines redirect positions.
    pub fn new(text: &str, default_file: &Arc<str>, follow_markers: bool, stdin_name: &Arc<str>) -> LineMap {
        let mut lines = Vec::new();
        let mut file = default_file.clone();
        let mut next_line = 1u32;
        let mut offset = 0usize;
        for l in text.split('\n') {
            lines.push((offset, file.clone(), next_line));
            next_line = next_line.saturating_add(1);
            if follow_markers {
                if let Some((n, f)) = parse_marker(l) {
                    next_line = n;
                    if let Some(f) = f {
                        file = if f == "<stdin>" { stdin_name.clone() } else { Arc::from(f.as_str()) };
                    }
                }
            }
            offset += l.len() + 1;
        }
        LineMap { lines }
    }

    /// The source position of a byte offset.
    pub fn pos(&self, offset: usize) -> SourcePos {
        let k = match self.lines.binary_search_by(|(o, _, _)| o.cmp(&offset)) {
            Ok(k) => k,
            Err(k) => k.saturating_sub(1),
        };
        match self.lines.get(k) {
            Some((start, file, line)) => SourcePos { file: file.clone(), line: *line, col: (offset.saturating_sub(*start) + 1) as u32 },
            None => SourcePos { file: Arc::from("?"), line: 0, col: 0 },
        }
    }
}

/// Parses a line marker `# N "file" flags` or `#line N "file"`.
fn parse_marker(l: &str) -> Option<(u32, Option<String>)> {
    let t = l.trim_start().strip_prefix('#')?.trim_start();
    let t = t.strip_prefix("line").unwrap_or(t).trim_start();
    let digits: String = t.chars().take_while(|c| c.is_ascii_digit()).collect();
    if digits.is_empty() {
        return None;
    }
    let n: u32 = digits.parse().ok()?;
    let rest = t[digits.len()..].trim_start();
    let file = rest.strip_prefix('"').and_then(|r| r.find('"').map(|e| r[..e].to_string()));
    Some((n, file))
}

/// Decodes source bytes: UTF-8 if valid, Latin-1 otherwise; `\r` is dropped.
pub fn decode(bytes: &[u8]) -> String {
    let text = match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => bytes.iter().map(|&b| b as char).collect(),
    };
    text.replace('\r', "")
}

/// The deepest nesting of parentheses and brackets the parser is given: its time and memory
/// grow with the square of the depth (10,000 levels take minutes and gigabytes).
pub const MAX_NESTING: usize = 2000;

/// Where the preprocessed `text` first nests parentheses or brackets deeper than
/// [`MAX_NESTING`] (outside string and character literals).
pub fn too_deep(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    let mut quote = None;
    let mut escaped = false;
    for (k, c) in text.bytes().enumerate() {
        match (quote, c) {
            (Some(_), _) if escaped => escaped = false,
            (Some(_), b'\\') => escaped = true,
            (Some(q), c) if c == q || c == b'\n' => quote = None,
            (Some(_), _) => {}
            (None, b'"' | b'\'') => quote = Some(c),
            (None, b'(' | b'[') => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Some(k);
                }
            }
            (None, b')' | b']') => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// `text` with each comment replaced by spaces (its line breaks kept, so that positions stay):
/// a preprocessed file may still have comments, and they are C.
pub(crate) fn blank_comments(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let mut k = 0;
    let mut quote = None;
    while k < b.len() {
        match (quote, b[k], b.get(k + 1)) {
            (Some(_), b'\\', _) => k += 1,
            (Some(q), c, _) if c == q || c == b'\n' => quote = None,
            (Some(_), _, _) => {}
            (None, b'"' | b'\'', _) => quote = Some(b[k]),
            (None, b'/', Some(b'/')) => {
                while k < b.len() && b[k] != b'\n' {
                    out[k] = b' ';
                    k += 1;
                }
                continue;
            }
            (None, b'/', Some(b'*')) => {
                let end = text[k + 2..].find("*/").map_or(b.len(), |n| k + 2 + n + 2);
                for c in &mut out[k..end] {
                    if *c != b'\n' {
                        *c = b' ';
                    }
                }
                k = end;
                continue;
            }
            _ => {}
        }
        k += 1;
    }
    // comments begin and end with ASCII, so whole characters were replaced: still UTF-8
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Reads, preprocesses (unless `.i`) for the data model and normalizes a C file.
pub fn load(path: &Path, model: DataModel) -> Result<Source> {
    let name: Arc<str> = Arc::from(path.display().to_string().as_str());
    let at = |line: u32, col: u32| SourcePos { file: name.clone(), line, col };
    let bytes =
        std::fs::read(path).map_err(|e| CError { pos: at(0, 0), kind: ErrorKind::Syntax, message: format!("cannot read file: {e}") })?;
    let text = decode(&bytes);
    let is_i = path.extension().and_then(|e| e.to_str()) == Some("i");
    let (text, follow) = if is_i {
        (blank_comments(&text), false)
    } else {
        let rewritten =
            acsl::rewrite(&text).map_err(|e| CError { pos: at(e.line, e.col), kind: ErrorKind::Unsupported, message: e.message })?;
        let dir = path.parent().map(|d| if d.as_os_str().is_empty() { Path::new(".") } else { d });
        let cpp_error = |(line, col, m)| CError { pos: at(line, col), kind: ErrorKind::Syntax, message: m };
        (run_cpp(&rewritten, dir, model).map_err(cpp_error)?, true)
    };
    let text = normalize(&text);
    let prelude = format!("typedef long long {INT128}; typedef unsigned long long {UINT128};\n");
    let full = format!("{prelude}{text}");
    // the prelude line belongs to no source line: map it to line 0 of the file
    let mut map = LineMap::new(&text, &name, follow, &name);
    for l in &mut map.lines {
        l.0 += prelude.len();
    }
    map.lines.insert(0, (0, name.clone(), 0));
    Ok(Source { text: full, map })
}

/// The predefined macros of the 32-bit data model, replacing the 64-bit host's: the sizes and
/// limits of `long`, pointers and `size_t` (`LONG_MAX`, `SIZE_MAX`, `__WORDSIZE` of glibc's
/// headers follow from them). glibc reads `__ILP32__` on x86-64 as its x32 ABI, whose
/// `<gnu/stubs-x32.h>` [`ilp32_headers`] supplies (it lists no function).
const ILP32_MACROS: &[&str] = &[
    "-U__LP64__",
    "-U_LP64",
    "-D__ILP32__=1",
    "-D_ILP32=1",
    "-U__SIZEOF_LONG__",
    "-D__SIZEOF_LONG__=4",
    "-U__SIZEOF_POINTER__",
    "-D__SIZEOF_POINTER__=4",
    "-U__SIZEOF_SIZE_T__",
    "-D__SIZEOF_SIZE_T__=4",
    "-U__SIZEOF_PTRDIFF_T__",
    "-D__SIZEOF_PTRDIFF_T__=4",
    "-U__LONG_MAX__",
    "-D__LONG_MAX__=0x7fffffffL",
    "-U__LONG_WIDTH__",
    "-D__LONG_WIDTH__=32",
    "-U__SIZE_MAX__",
    "-D__SIZE_MAX__=0xffffffffUL",
    "-U__SIZE_WIDTH__",
    "-D__SIZE_WIDTH__=32",
    "-U__PTRDIFF_MAX__",
    "-D__PTRDIFF_MAX__=0x7fffffffL",
    "-U__PTRDIFF_WIDTH__",
    "-D__PTRDIFF_WIDTH__=32",
    "-U__INTPTR_MAX__",
    "-D__INTPTR_MAX__=0x7fffffffL",
    "-U__INTPTR_WIDTH__",
    "-D__INTPTR_WIDTH__=32",
    "-U__UINTPTR_MAX__",
    "-D__UINTPTR_MAX__=0xffffffffUL",
];

/// A directory with the headers the 32-bit data model needs beyond the host's, written once.
fn ilp32_headers() -> Option<&'static Path> {
    static DIR: OnceLock<Option<PathBuf>> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("tracery-{}-ilp32-include", env!("CARGO_PKG_VERSION")));
        let stubs = dir.join("gnu").join("stubs-x32.h");
        std::fs::create_dir_all(stubs.parent()?).ok()?;
        if !stubs.is_file() {
            std::fs::write(&stubs, "/* no stub functions */\n").ok()?;
        }
        Some(dir)
    })
    .as_deref()
}

/// Runs `gcc -E` on `text` (read from stdin; quoted includes are searched in `dir`) with the
/// predefined macros of the data model. An error comes with the line and column the
/// preprocessor names (0 if it names none).
fn run_cpp(text: &str, dir: Option<&Path>, model: DataModel) -> std::result::Result<String, (u32, u32, String)> {
    let failed = |m: String| (0, 0, m);
    let mut cmd = Command::new("gcc");
    // `__NO_CTYPE`: glibc's <ctype.h> then declares isdigit & co. as functions (the models of
    // `library`) instead of macros over its locale tables
    cmd.args(["-E", "-x", "c", "-std=gnu11", "-D__NO_CTYPE"]);
    if model == DataModel::ILP32 {
        cmd.args(ILP32_MACROS);
        let headers = ilp32_headers().ok_or_else(|| failed("cannot write the 32-bit data model's headers".into()))?;
        cmd.arg("-idirafter").arg(headers);
    }
    if let Some(d) = dir {
        cmd.arg("-iquote").arg(d);
        cmd.arg("-I").arg(d);
    }
    cmd.arg("-");
    cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().map_err(|e| failed(format!("cannot run the C preprocessor (gcc -E): {e}")))?;
    let input = text.as_bytes().to_vec();
    let mut stdin = child.stdin.take().ok_or_else(|| failed("cannot write to the C preprocessor".into()))?;
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let output = child.wait_with_output().map_err(|e| failed(format!("C preprocessor failed: {e}")))?;
    let _ = writer.join();
    if !output.status.success() {
        let err = decode(&output.stderr);
        let first = err.lines().find(|l| l.contains("error")).unwrap_or("");
        // `<stdin>:LINE:COL: fatal error: MESSAGE`
        let mut parts = first.strip_prefix("<stdin>:").unwrap_or("").splitn(3, ':');
        let (line, col) = (parts.next().and_then(|l| l.parse().ok()), parts.next().and_then(|c| c.parse().ok()));
        return Err(match (line, col, parts.next()) {
            (Some(line), Some(col), Some(message)) => (line, col, format!("preprocessing failed:{message}")),
            _ => failed(format!("preprocessing failed: {}", first.replace("<stdin>", "input"))),
        });
    }
    Ok(decode(&output.stdout))
}

/// A token of the normalizer's lexer.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Tok {
    Ident,
    Other,
    Literal,
}

/// Splits preprocessed C into tokens (byte ranges); directive lines are skipped.
fn tokens(s: &str) -> Vec<(Tok, usize, usize)> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut at_line_start = true;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            at_line_start = true;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c == b'#' && at_line_start {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        at_line_start = false;
        let start = i;
        if c.is_ascii_alphabetic() || c == b'_' || c >= 0x80 {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] >= 0x80) {
                i += 1;
            }
            // prefixed literals: L"..", u'..', u8".."
            if i < b.len() && (b[i] == b'"' || b[i] == b'\'') && matches!(&s[start..i], "L" | "u" | "U" | "u8") {
                i = skip_literal(b, i);
                out.push((Tok::Literal, start, i));
            } else {
                out.push((Tok::Ident, start, i));
            }
        } else if c == b'"' || c == b'\'' {
            i = skip_literal(b, i);
            out.push((Tok::Literal, start, i));
        } else if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(|d| d.is_ascii_digit())) {
            while i < b.len()
                && (b[i].is_ascii_alphanumeric()
                    || b[i] == b'.'
                    || ((b[i] == b'+' || b[i] == b'-') && matches!(b[i - 1], b'e' | b'E' | b'p' | b'P')))
            {
                i += 1;
            }
            out.push((Tok::Literal, start, i));
        } else {
            i += s[i..].chars().next().map_or(1, |ch| ch.len_utf8());
            out.push((Tok::Other, start, i));
        }
    }
    out
}

/// The index just past the string or character literal that starts at `i` (or at its line end).
pub(crate) fn skip_literal(b: &[u8], mut i: usize) -> usize {
    let q = b[i];
    i += 1;
    while i < b.len() && b[i] != q && b[i] != b'\n' {
        if b[i] == b'\\' {
            i += 1;
        }
        i += 1;
    }
    (i + 1).min(b.len())
}

const KEYWORDS: &[&str] = &[
    "auto",
    "break",
    "case",
    "char",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extern",
    "float",
    "for",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "register",
    "restrict",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "struct",
    "switch",
    "typedef",
    "union",
    "unsigned",
    "void",
    "volatile",
    "while",
    "_Bool",
    "_Complex",
    "_Noreturn",
    "_Static_assert",
    "_Thread_local",
    "_Alignas",
    "_Alignof",
    "_Atomic",
    "_Generic",
    "__attribute__",
    "__extension__",
    "__inline",
    "__inline__",
    "__asm__",
    "asm",
    "__asm",
    "typeof",
    "__typeof__",
];

/// Keywords that start a declaration (and no statement).
const DECLARATION_START: &[&str] = &[
    "void",
    "char",
    "short",
    "int",
    "long",
    "float",
    "double",
    "signed",
    "unsigned",
    "_Bool",
    "struct",
    "union",
    "enum",
    "const",
    "volatile",
    "static",
    "extern",
    "register",
    "typedef",
    "_Atomic",
    "__typeof__",
    "typeof",
];

/// Rewrites what `lang-c` rejects: 128-bit integer types, `_Static_assert` without a message,
/// function definitions with an implicit `int` return type (`main() {`), attributes between
/// `struct` and its tag, a label before a declaration.
pub fn normalize(s: &str) -> String {
    let toks = tokens(s);
    let text = |k: usize| toks.get(k).map_or("", |&(_, a, b)| &s[a..b]);
    // the index of the `)` or `}` that closes the `(` or `{` at `j` (or past the end)
    let closing = |j: usize| {
        let (open, close) = if text(j) == "{" { ("{", "}") } else { ("(", ")") };
        let mut d = 0;
        let mut i = j;
        while i < toks.len() {
            let t = text(i);
            if t == open {
                d += 1;
            } else if t == close {
                d -= 1;
                if d == 0 {
                    break;
                }
            }
            i += 1;
        }
        i
    };
    let mut edits: Vec<(usize, usize, String)> = Vec::new(); // (start, end, replacement)
    let mut depth = 0i32;
    let mut decl_start = true;
    // kinds of open braces at depth 0 (function body or not)
    let mut top_brace_is_body = false;
    let mut k = 0;
    while k < toks.len() {
        let (kind, a, b) = toks[k];
        let t = &s[a..b];
        if kind == Tok::Ident {
            match t {
                "__int128" | "__int128_t" | "__uint128_t" => {
                    let prev = if k > 0 { text(k - 1) } else { "" };
                    let unsigned = t == "__uint128_t" || prev == "unsigned";
                    let start = if prev == "unsigned" || prev == "signed" { toks[k - 1].1 } else { a };
                    edits.push((start, b, if unsigned { UINT128.into() } else { INT128.into() }));
                }
                "_Static_assert" if text(k + 1) == "(" => {
                    // find the matching parenthesis and whether there is a top-level comma
                    let mut d = 0;
                    let mut comma = false;
                    let mut j = k + 1;
                    while j < toks.len() {
                        match text(j) {
                            "(" | "[" | "{" => d += 1,
                            ")" | "]" | "}" => {
                                d -= 1;
                                if d == 0 {
                                    break;
                                }
                            }
                            "," if d == 1 => comma = true,
                            _ => {}
                        }
                        j += 1;
                    }
                    if !comma && j < toks.len() {
                        edits.push((toks[j].1, toks[j].1, ", \"\"".into()));
                    }
                }
                _ => {}
            }
            if depth > 0
                && text(k + 1) == ":"
                && matches!(text(k.wrapping_sub(1)), ";" | "{" | "}")
                && DECLARATION_START.contains(&text(k + 2))
            {
                // a label before a declaration (C23; lang-c rejects it): labels an empty
                // statement before the declaration, where a jump to it goes too
                edits.push((toks[k + 1].2, toks[k + 1].2, " ;".into()));
            }
            if matches!(t, "struct" | "union") && text(k + 1) == "__attribute__" {
                // GCC's `struct __attribute__((...)) tag {`: the attributes move after the
                // member list, where they apply to the record too (without a member list they
                // have no effect)
                let mut j = k + 1;
                while text(j) == "__attribute__" {
                    j = closing(j + 1) + 1;
                }
                let attributes = toks.get(j - 1).map_or("", |&(_, _, end)| &s[toks[k + 1].1..end]).to_string();
                edits.push((toks[k + 1].1, toks.get(j - 1).map_or(b, |e| e.2), String::new()));
                let brace = if text(j) == "{" { j } else { j + 1 };
                if let Some(end) = toks.get(closing(brace)).filter(|_| text(brace) == "{") {
                    edits.push((end.2, end.2, format!(" {attributes}")));
                }
            }
            if depth == 0 && decl_start && text(k + 1) == "(" && !KEYWORDS.contains(&t) {
                // `name ( ... ) {` at the start of an external declaration: implicit int
                let j = closing(k + 1);
                if text(j + 1) == "{" {
                    edits.push((a, a, "int ".into()));
                }
            }
        }
        if kind == Tok::Literal && (t.contains("\\u") || t.contains("\\U")) {
            if let Some(r) = universal_names(t) {
                edits.push((a, b, r));
            }
        }
        decl_start = false;
        match t {
            "{" => {
                if depth == 0 {
                    top_brace_is_body = k > 0 && text(k - 1) == ")";
                }
                depth += 1;
            }
            "}" => {
                depth -= 1;
                if depth == 0 && top_brace_is_body {
                    decl_start = true;
                }
            }
            "(" | "[" => depth += 1,
            ")" | "]" => depth -= 1,
            ";" if depth == 0 => decl_start = true,
            _ => {}
        }
        k += 1;
    }
    if edits.is_empty() {
        return s.to_string();
    }
    edits.sort_by_key(|e| e.0);
    let mut out = String::with_capacity(s.len() + 64);
    let mut last = 0;
    for (a, b, r) in edits {
        if a < last {
            continue;
        }
        out.push_str(&s[last..a]);
        out.push_str(&r);
        last = b;
    }
    out.push_str(&s[last..]);
    out
}

/// Rewrites the universal character names `\uXXXX`, `\UXXXXXXXX` of a character or string
/// literal (which `lang-c` rejects) into hexadecimal escapes: the code point for wide
/// literals, its UTF-8 bytes for narrow ones.
fn universal_names(lit: &str) -> Option<String> {
    let q = lit.find(['\'', '"'])?;
    let wide = !lit[..q].is_empty() && &lit[..q] != "u8";
    let mut out = String::from(&lit[..q]);
    let mut chars = lit[q..].chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.peek() {
            Some('u') | Some('U') => {
                let n = if chars.next() == Some('u') { 4 } else { 8 };
                let hex: String = (0..n).filter_map(|_| chars.next()).collect();
                let cp = u32::from_str_radix(&hex, 16).ok()?;
                if wide {
                    out.push_str(&format!("\\x{cp:x}"));
                } else {
                    let ch = char::from_u32(cp)?;
                    let mut buf = [0u8; 4];
                    for byte in ch.encode_utf8(&mut buf).bytes() {
                        out.push_str(&format!("\\x{byte:02x}"));
                    }
                }
            }
            Some(_) => {
                out.push('\\');
                if let Some(d) = chars.next() {
                    out.push(d);
                }
            }
            None => out.push('\\'),
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn universal_character_names() {
        assert_eq!(universal_names("u'\\u00F6'").as_deref(), Some("u'\\xf6'"));
        assert_eq!(universal_names("\"\\u00F6\"").as_deref(), Some("\"\\xc3\\xb6\""));
    }

    #[test]
    fn implicit_int_and_int128() {
        let n = normalize("main() { unsigned __int128 x; __int128 y; }\nfoo(int a) { }\nint g(void);");
        assert_eq!(n, format!("int main() {{ {UINT128} x; {INT128} y; }}\nint foo(int a) {{ }}\nint g(void);"));
    }

    #[test]
    fn static_assert_message() {
        assert_eq!(normalize("_Static_assert(1 == 1);"), "_Static_assert(1 == 1, \"\");");
        assert_eq!(normalize("_Static_assert(1, \"m\");"), "_Static_assert(1, \"m\");");
    }

    #[test]
    fn attributes_after_struct_move_after_the_members() {
        let n = normalize("struct __attribute__((packed)) S { char c; struct { int x; } y; }; struct __attribute__((aligned(8))) S s;");
        assert_eq!(n, "struct  S { char c; struct { int x; } y; } __attribute__((packed)); struct  S s;");
    }

    #[test]
    fn a_label_before_a_declaration_labels_an_empty_statement() {
        let n = normalize("int f(void) { goto l; l: int x = 1; m: x++; return x ? x : 0; }");
        assert_eq!(n, "int f(void) { goto l; l: ; int x = 1; m: x++; return x ? x : 0; }");
        let s = "struct s { int a : 3; unsigned b : 2; };";
        assert_eq!(normalize(s), s);
    }

    #[test]
    fn struct_declaration_is_not_a_function() {
        let s = "struct s { int a; } f(void);";
        assert_eq!(normalize(s), s);
    }

    #[test]
    fn comments_become_spaces_but_strings_stay() {
        let s = "int x; // é\nchar *c = \"/* no */\"; /* a\nb */ int y = '\\'';";
        assert_eq!(blank_comments(s), "int x;      \nchar *c = \"/* no */\";     \n     int y = '\\'';");
    }

    #[test]
    fn markers_map_lines() {
        let f: Arc<str> = Arc::from("a.c");
        let text = "# 1 \"<stdin>\"\nint x;\n# 7 \"<stdin>\"\nint y;";
        let m = LineMap::new(text, &f, true, &f);
        let p = m.pos(text.find("int y").unwrap());
        assert_eq!((p.line, p.col), (7, 1));
        let p = m.pos(text.find("x;").unwrap());
        assert_eq!((p.line, p.col), (1, 5));
    }
}
