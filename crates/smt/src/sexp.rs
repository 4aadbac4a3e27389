//! A small reader for the S-expressions SMT-LIB solvers print (responses, models, interpolants).

use num_bigint::BigInt;
use num_rational::BigRational;
use std::fmt;

/// One S-expression of SMT-LIB output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sexp {
    /// A symbol, with `|..|` quotes removed (`|x y|` and `x` are symbols alike).
    Symbol(String),
    /// A keyword such as `:named` (with the colon).
    Keyword(String),
    /// A numeral (`42`).
    Numeral(BigInt),
    /// A decimal (`1.5`), exactly.
    Decimal(BigRational),
    /// A string literal, with `""` unescaped.
    Str(String),
    List(Vec<Sexp>),
}

impl Sexp {
    /// The symbol's name if this is a symbol.
    pub fn symbol(&self) -> Option<&str> {
        match self {
            Sexp::Symbol(s) => Some(s),
            _ => None,
        }
    }

    /// The elements if this is a list.
    pub fn list(&self) -> Option<&[Sexp]> {
        match self {
            Sexp::List(l) => Some(l),
            _ => None,
        }
    }

    /// Whether this is the symbol `s`.
    pub fn is_symbol(&self, s: &str) -> bool {
        self.symbol() == Some(s)
    }
}

impl fmt::Display for Sexp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sexp::Symbol(s) => write!(f, "{}", crate::print::quote_symbol(s)),
            Sexp::Keyword(k) => write!(f, "{k}"),
            Sexp::Numeral(n) => write!(f, "{n}"),
            Sexp::Decimal(d) => write!(f, "{d}"),
            Sexp::Str(s) => write!(f, "\"{}\"", s.replace('"', "\"\"")),
            Sexp::List(l) => {
                write!(f, "(")?;
                for (i, e) in l.iter().enumerate() {
                    if i > 0 {
                        write!(f, " ")?;
                    }
                    write!(f, "{e}")?;
                }
                write!(f, ")")
            }
        }
    }
}

/// Why reading failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// The input ends inside an expression (more input may complete it).
    Incomplete,
    /// The input is not an S-expression; the message says where.
    Malformed(String),
}

/// Skips whitespace and `;` comments; returns the index of the next token.
fn skip_blank(s: &[u8], mut i: usize) -> usize {
    while i < s.len() {
        match s[i] {
            b';' => {
                while i < s.len() && s[i] != b'\n' {
                    i += 1;
                }
            }
            c if c.is_ascii_whitespace() => i += 1,
            _ => break,
        }
    }
    i
}

fn is_delimiter(c: u8) -> bool {
    c.is_ascii_whitespace() || matches!(c, b'(' | b')' | b'"' | b'|' | b';')
}

/// Reads the first S-expression of `text`: the expression and the byte offset after it.
/// `Ok(None)` if `text` holds only blanks and comments.
pub fn read_one(text: &str) -> Result<Option<(Sexp, usize)>, ReadError> {
    let s = text.as_bytes();
    let start = skip_blank(s, 0);
    if start == s.len() {
        return Ok(None);
    }
    // A stack of open lists; the bottom collects the single top-level result.
    let mut stack: Vec<Vec<Sexp>> = vec![Vec::new()];
    let mut i = start;
    loop {
        i = skip_blank(s, i);
        if i == s.len() {
            return Err(ReadError::Incomplete);
        }
        let item = match s[i] {
            b'(' => {
                stack.push(Vec::new());
                i += 1;
                continue;
            }
            b')' => {
                if stack.len() == 1 {
                    return Err(ReadError::Malformed(format!("unexpected `)` at byte {i}")));
                }
                i += 1;
                Sexp::List(stack.pop().unwrap_or_default())
            }
            b'|' => {
                let end = s[i + 1..].iter().position(|&c| c == b'|').ok_or(ReadError::Incomplete)? + i + 1;
                let sym = text[i + 1..end].to_string();
                i = end + 1;
                Sexp::Symbol(sym)
            }
            b'"' => {
                let mut j = i + 1;
                let mut out = Vec::new();
                loop {
                    match s.get(j) {
                        None => return Err(ReadError::Incomplete),
                        Some(b'"') if s.get(j + 1) == Some(&b'"') => {
                            out.push(b'"');
                            j += 2;
                        }
                        Some(b'"') if j + 1 == s.len() => return Err(ReadError::Incomplete),
                        Some(b'"') => break,
                        Some(&c) => {
                            out.push(c);
                            j += 1;
                        }
                    }
                }
                i = j + 1;
                Sexp::Str(String::from_utf8_lossy(&out).into_owned())
            }
            _ => {
                let end = s[i..].iter().position(|&c| is_delimiter(c)).map_or(s.len(), |p| p + i);
                if end == s.len() && stack.len() == 1 {
                    // A top-level atom is complete only when something follows it.
                    return Err(ReadError::Incomplete);
                }
                let atom = atom(&text[i..end]);
                i = end;
                atom
            }
        };
        let top = stack.last_mut().ok_or_else(|| ReadError::Malformed("reader stack empty".into()))?;
        top.push(item);
        if stack.len() == 1 {
            let e = stack.pop().and_then(|mut v| v.pop()).ok_or_else(|| ReadError::Malformed("empty".into()))?;
            return Ok(Some((e, i)));
        }
    }
}

/// Classifies an unquoted token.
fn atom(tok: &str) -> Sexp {
    if let Some(k) = tok.strip_prefix(':') {
        return Sexp::Keyword(format!(":{k}"));
    }
    if !tok.is_empty() && tok.bytes().all(|c| c.is_ascii_digit()) {
        if let Ok(n) = tok.parse::<BigInt>() {
            return Sexp::Numeral(n);
        }
    }
    if let Some((int, frac)) = tok.split_once('.') {
        let digits = |p: &str| !p.is_empty() && p.bytes().all(|c| c.is_ascii_digit());
        if digits(int) && digits(frac) {
            if let (Ok(n), Ok(d)) = (format!("{int}{frac}").parse::<BigInt>(), format!("1{}", "0".repeat(frac.len())).parse::<BigInt>()) {
                return Sexp::Decimal(BigRational::new(n, d));
            }
        }
    }
    Sexp::Symbol(tok.to_string())
}

/// Reads all S-expressions of a complete text (the tests' way to read fixtures).
#[cfg(test)]
pub(crate) fn read_all(text: &str) -> Result<Vec<Sexp>, ReadError> {
    // A trailing top-level atom needs a delimiter after it to count as complete.
    let padded = format!("{text}\n");
    let mut out = Vec::new();
    let mut rest = padded.as_str();
    while let Some((e, end)) = read_one(rest)? {
        out.push(e);
        rest = &rest[end..];
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sym(s: &str) -> Sexp {
        Sexp::Symbol(s.into())
    }
    fn num(n: i64) -> Sexp {
        Sexp::Numeral(n.into())
    }

    #[test]
    fn atoms_lists_quotes_and_comments() {
        let v = read_all("sat ; a comment\n((x (- 4)) (|a b| 1.25) (s \"say \"\"hi\"\"\") :named)").unwrap();
        assert_eq!(v.len(), 2);
        assert_eq!(v[0], sym("sat"));
        let l = v[1].list().unwrap();
        assert_eq!(l[0], Sexp::List(vec![sym("x"), Sexp::List(vec![sym("-"), num(4)])]));
        assert_eq!(l[1], Sexp::List(vec![sym("a b"), Sexp::Decimal(BigRational::new(5.into(), 4.into()))]));
        assert_eq!(l[2], Sexp::List(vec![sym("s"), Sexp::Str("say \"hi\"".into())]));
        assert_eq!(l[3], Sexp::Keyword(":named".into()));
    }

    #[test]
    fn incomplete_and_malformed_input() {
        assert_eq!(read_one("((x 1)"), Err(ReadError::Incomplete));
        assert_eq!(read_one("(|a b"), Err(ReadError::Incomplete));
        assert_eq!(read_one("(error \"unterminated"), Err(ReadError::Incomplete));
        assert_eq!(read_one("success"), Err(ReadError::Incomplete));
        assert!(matches!(read_one(")"), Err(ReadError::Malformed(_))));
        assert_eq!(read_one("  ; only a comment\n"), Ok(None));
        let (e, end) = read_one("success\nsat\n").unwrap().unwrap();
        assert_eq!((e, end), (sym("success"), 7));
        assert_eq!(read_all("unsat").unwrap(), vec![sym("unsat")]);
    }

    #[test]
    fn numerals_and_decimals_are_exact() {
        let v = read_all("123456789012345678901234567890 0.1 00.50 1. .5 x1 -3").unwrap();
        assert_eq!(v[0], Sexp::Numeral("123456789012345678901234567890".parse().unwrap()));
        assert_eq!(v[1], Sexp::Decimal(BigRational::new(1.into(), 10.into())));
        assert_eq!(v[2], Sexp::Decimal(BigRational::new(1.into(), 2.into())));
        assert_eq!(v[3], sym("1."));
        assert_eq!(v[4], sym(".5"));
        assert_eq!(v[5], sym("x1"));
        assert_eq!(v[6], sym("-3"));
    }

    #[test]
    fn display_round_trips() {
        let text = "((x (- 4)) (|a b| (/ 1 3)) \"q\"\"\")";
        let v = read_all(text).unwrap();
        assert_eq!(read_all(&v[0].to_string()).unwrap(), v);
    }
}
