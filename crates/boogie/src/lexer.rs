//! The Boogie lexer: turns source text into tokens with positions.

use crate::error::{err, ErrorKind, Pos, Result};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::One;
use std::sync::Arc;

/// A token kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    /// An identifier or keyword.
    Ident(String),
    /// A natural-number literal.
    Int(BigInt),
    /// A decimal literal.
    Dec(BigRational),
    /// A bit-vector literal such as `3bv32` (unsupported later on).
    BvLit(String),
    /// A string literal (only used in attributes).
    Str(String),
    /// Punctuation or an operator.
    Sym(&'static str),
    /// End of input.
    Eof,
}

/// A token with its position.
#[derive(Clone, Debug)]
pub struct Token {
    /// What the token is.
    pub tok: Tok,
    /// Where it starts.
    pub pos: Pos,
}

const SYMBOLS: &[&str] = &[
    "<==>", "==>", "<==", "::", ":=", "<:", "==", "!=", "<=", ">=", "&&", "||", "++", "**", "(", ")", "[", "]", "{", "}", ",", ";", ":",
    "<", ">", "!", "+", "-", "*", "/", "%", "|", "=",
];

/// Whether `c` may start an identifier.
fn ident_start(c: char) -> bool {
    c.is_alphabetic() || "'~#$^_.?`\\".contains(c)
}

/// Whether `c` may continue an identifier.
fn ident_char(c: char) -> bool {
    ident_start(c) || c.is_ascii_digit() || (c.is_alphanumeric() && c != '\\')
}

/// Splits `src` (already decoded, without `\r`) into tokens; the last token is `Eof`.
pub fn lex(file: &Arc<str>, src: &str) -> Result<Vec<Token>> {
    let chars: Vec<char> = src.chars().collect();
    let mut toks = Vec::new();
    let (mut i, mut line, mut col) = (0usize, 1u32, 1u32);
    let advance = |i: &mut usize, line: &mut u32, col: &mut u32, n: usize| {
        for _ in 0..n {
            if chars.get(*i) == Some(&'\n') {
                *line += 1;
                *col = 1;
            } else {
                *col += 1;
            }
            *i += 1;
        }
    };
    while let Some(&c) = chars.get(i) {
        let pos = Pos { line, col };
        let next = chars.get(i + 1).copied();
        if c.is_whitespace() {
            advance(&mut i, &mut line, &mut col, 1);
        } else if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                advance(&mut i, &mut line, &mut col, 1);
            }
        } else if c == '/' && next == Some('*') {
            advance(&mut i, &mut line, &mut col, 2);
            loop {
                match chars.get(i) {
                    None => return Err(err(file, pos, ErrorKind::Syntax, "unterminated comment")),
                    Some('*') if chars.get(i + 1) == Some(&'/') => {
                        advance(&mut i, &mut line, &mut col, 2);
                        break;
                    }
                    Some(_) => advance(&mut i, &mut line, &mut col, 1),
                }
            }
        } else if c.is_ascii_digit() {
            let start = i;
            while chars.get(i).is_some_and(|d| d.is_ascii_digit()) {
                advance(&mut i, &mut line, &mut col, 1);
            }
            let int_part: String = chars[start..i].iter().collect();
            let mut frac = String::new();
            let mut is_dec = false;
            if chars.get(i) == Some(&'.') && chars.get(i + 1).is_some_and(|d| d.is_ascii_digit()) {
                is_dec = true;
                advance(&mut i, &mut line, &mut col, 1);
                let s = i;
                while chars.get(i).is_some_and(|d| d.is_ascii_digit()) {
                    advance(&mut i, &mut line, &mut col, 1);
                }
                frac = chars[s..i].iter().collect();
            }
            let mut exp: i64 = 0;
            if chars.get(i) == Some(&'e') {
                let neg = chars.get(i + 1) == Some(&'-');
                let d0 = if neg { i + 2 } else { i + 1 };
                if chars.get(d0).is_some_and(|d| d.is_ascii_digit()) {
                    is_dec = true;
                    let n = d0 - i;
                    advance(&mut i, &mut line, &mut col, n);
                    let s = i;
                    while chars.get(i).is_some_and(|d| d.is_ascii_digit()) {
                        advance(&mut i, &mut line, &mut col, 1);
                    }
                    let digits: String = chars[s..i].iter().collect();
                    exp = match digits.parse::<i64>() {
                        Ok(e) if e <= 100_000 => e,
                        _ => return Err(err(file, pos, ErrorKind::Unsupported, "decimal exponent too large")),
                    };
                    if neg {
                        exp = -exp;
                    }
                }
            }
            if !is_dec && chars.get(i) == Some(&'b') && chars.get(i + 1) == Some(&'v') {
                let s = i;
                advance(&mut i, &mut line, &mut col, 2);
                while chars.get(i).is_some_and(|d| d.is_ascii_digit()) {
                    advance(&mut i, &mut line, &mut col, 1);
                }
                let suffix: String = chars[s..i].iter().collect();
                toks.push(Token { tok: Tok::BvLit(format!("{int_part}{suffix}")), pos });
                continue;
            }
            if chars.get(i).is_some_and(|&d| ident_char(d) && d != '.') {
                return Err(err(file, pos, ErrorKind::Syntax, "malformed number literal"));
            }
            let tok = if is_dec {
                let mantissa = BigInt::parse_bytes(format!("{int_part}{frac}").as_bytes(), 10).unwrap_or_default();
                let scale = exp - frac.len() as i64;
                let ten = BigInt::from(10);
                let pow = num_traits::pow(ten, scale.unsigned_abs() as usize);
                let r = if scale >= 0 { BigRational::from_integer(mantissa * pow) } else { BigRational::new(mantissa, pow) };
                Tok::Dec(r)
            } else {
                Tok::Int(BigInt::parse_bytes(int_part.as_bytes(), 10).unwrap_or_else(BigInt::one))
            };
            toks.push(Token { tok, pos });
        } else if ident_start(c) {
            let start = i;
            advance(&mut i, &mut line, &mut col, 1);
            while chars.get(i).is_some_and(|&d| ident_char(d)) {
                advance(&mut i, &mut line, &mut col, 1);
            }
            let name: String = chars[start..i].iter().collect();
            let name = name.strip_prefix('\\').map(str::to_string).unwrap_or(name);
            if name.is_empty() {
                return Err(err(file, pos, ErrorKind::Syntax, "stray backslash"));
            }
            toks.push(Token { tok: Tok::Ident(name), pos });
        } else if c == '"' {
            advance(&mut i, &mut line, &mut col, 1);
            let mut s = String::new();
            loop {
                match chars.get(i) {
                    None | Some('\n') => return Err(err(file, pos, ErrorKind::Syntax, "unterminated string literal")),
                    Some('"') => {
                        advance(&mut i, &mut line, &mut col, 1);
                        break;
                    }
                    Some('\\') if chars.get(i + 1) == Some(&'"') => {
                        s.push('"');
                        advance(&mut i, &mut line, &mut col, 2);
                    }
                    Some(&ch) => {
                        s.push(ch);
                        advance(&mut i, &mut line, &mut col, 1);
                    }
                }
            }
            toks.push(Token { tok: Tok::Str(s), pos });
        } else {
            let sym = SYMBOLS.iter().find(|s| s.chars().enumerate().all(|(k, sc)| chars.get(i + k) == Some(&sc)));
            match sym {
                Some(s) => {
                    advance(&mut i, &mut line, &mut col, s.chars().count());
                    toks.push(Token { tok: Tok::Sym(s), pos });
                }
                None => {
                    return Err(err(file, pos, ErrorKind::Syntax, format!("unexpected character `{c}`")));
                }
            }
        }
    }
    toks.push(Token { tok: Tok::Eof, pos: Pos { line, col } });
    Ok(toks)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok> {
        let file: Arc<str> = Arc::from("t");
        lex(&file, s).map(|v| v.into_iter().map(|t| t.tok).collect()).unwrap_or_default()
    }

    #[test]
    fn literals_and_symbols() {
        let big = BigInt::parse_bytes(b"123456789012345678901234567890", 10).unwrap_or_default();
        assert_eq!(toks("123456789012345678901234567890"), vec![Tok::Int(big), Tok::Eof]);
        let r = |n: i64, d: i64| Tok::Dec(BigRational::new(BigInt::from(n), BigInt::from(d)));
        assert_eq!(toks("2.5 1.5e2 25e-1"), vec![r(5, 2), r(150, 1), r(5, 2), Tok::Eof]);
        assert_eq!(toks("3bv32"), vec![Tok::BvLit("3bv32".into()), Tok::Eof]);
        assert_eq!(
            toks("a<==>b==>c<==d<=e:=f::g"),
            vec![
                Tok::Ident("a".into()),
                Tok::Sym("<==>"),
                Tok::Ident("b".into()),
                Tok::Sym("==>"),
                Tok::Ident("c".into()),
                Tok::Sym("<=="),
                Tok::Ident("d".into()),
                Tok::Sym("<="),
                Tok::Ident("e".into()),
                Tok::Sym(":="),
                Tok::Ident("f".into()),
                Tok::Sym("::"),
                Tok::Ident("g".into()),
                Tok::Eof
            ]
        );
        assert_eq!(
            toks("#res.base ~x$y' \\old"),
            vec![Tok::Ident("#res.base".into()), Tok::Ident("~x$y'".into()), Tok::Ident("old".into()), Tok::Eof]
        );
    }

    #[test]
    fn comments_and_positions() {
        let file: Arc<str> = Arc::from("t");
        let v = lex(&file, "// c\n  /* a\n b */ x").unwrap_or_default();
        assert_eq!(v.first().map(|t| (t.pos.line, t.pos.col)), Some((3, 7)));
        assert!(lex(&file, "/* open").is_err());
    }
}
