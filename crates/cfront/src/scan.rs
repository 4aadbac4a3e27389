//! The `scanf` family. Each conversion of the format (a string literal) stores an arbitrary
//! value of its argument's pointee type through that argument; the result is `EOF` or the
//! number of conversions done, and only that many stores happen. For `scanf` and `fscanf`,
//! whose input is arbitrary, that is exact; `sscanf` does not read its string, so there it is
//! an over-approximation. Conversions that store an unknown number of bytes (`%s`, `%[`,
//! `%5c`) or no input (`%n`, `%p`) are unsupported. The `printf` family writes through an
//! argument only for `%n` ([`printf_writes`]).

use crate::error::{CError, Result};
use crate::func::{Fx, Place, Val};
use crate::memory::MemLoc;
use crate::tast::{Expr, ExprKind};
use crate::types::CType;
use ir::SourcePos;
use smt::build::{and, le, lt};

/// The functions of the family, with the index of their format argument.
const SCANNERS: &[(&str, usize)] =
    &[("scanf", 0), ("sscanf", 1), ("fscanf", 1), ("__isoc99_scanf", 0), ("__isoc99_sscanf", 1), ("__isoc99_fscanf", 1)];

impl Fx<'_> {
    /// A call of a `scanf`-like function (`None`: `name` is none).
    pub fn scan(&mut self, name: &str, args: &[Expr], ret_ty: &CType, pos: &SourcePos) -> Result<Option<Val>> {
        let Some(&(_, format_at)) = SCANNERS.iter().find(|(n, _)| *n == name) else { return Ok(None) };
        let format = args
            .get(format_at)
            .and_then(literal_bytes)
            .ok_or_else(|| CError::unsupported(pos, format!("`{name}` with a format that is not a string literal")))?;
        let n = conversions(format).map_err(|what| CError::unsupported(pos, format!("`{name}` with a {what}")))?;
        let targets = &args[format_at + 1..];
        if targets.len() != n {
            return Err(CError::unsupported(pos, format!("`{name}` whose format names {n} conversions for {} arguments", targets.len())));
        }
        self.effects_lenient(&args[..format_at])?;
        let mut places = vec![];
        for t in targets {
            let (Val::Ptr(b, o), CType::Pointer(ty)) = (self.rvalue(t)?, &t.ty) else {
                return Err(CError::syntax(pos, format!("`{name}` stores through a non-pointer")));
            };
            places.push(Place::Mem(MemLoc { b, o, ty: (**ty).clone(), checked: true }));
        }
        let CType::Int(_) = ret_ty else { return Err(CError::syntax(pos, format!("`{name}` returning a non-integer"))) };
        let approx = name.ends_with("sscanf").then(|| format!("result of `{name}` (its string is not read)"));
        let done = self.nondet(ret_ty, pos, approx.clone());
        let sem = self.tr.sem();
        let (eof, count) = (sem.lit(&(-1).into(), ret_ty), sem.lit(&n.into(), ret_ty));
        self.assume(&and(&[le(&eof, &done), le(&done, &count)]), pos);
        for (k, place) in places.into_iter().enumerate() {
            let value = match &place {
                Place::Mem(m) if matches!(m.ty, CType::Int(_)) => Val::Int(self.nondet(&m.ty, pos, approx.clone())),
                Place::Mem(m) if matches!(m.ty, CType::Float(_)) => Val::Float(None),
                _ => return Err(CError::unsupported(pos, format!("`{name}` storing a value that is not a number"))),
            };
            // the conversion happened if `done` counts it
            let start = self.cur;
            self.assume(&lt(&sem.lit(&k.into(), ret_ty), &done), pos);
            self.store_place(place, &value, pos)?;
            let stored = self.cur;
            self.cur = start;
            self.assume(&le(&done, &sem.lit(&k.into(), ret_ty)), pos);
            let skipped = self.cur;
            self.join(&[(stored, Val::Void), (skipped, Val::Void)], &None, pos);
        }
        Ok(Some(Val::Int(done)))
    }
}

/// The bytes of a string literal argument.
pub(crate) fn literal_bytes(e: &Expr) -> Option<&[u8]> {
    match &e.kind {
        ExprKind::StrLit(bytes) => Some(bytes),
        ExprKind::Cast(x) => literal_bytes(x),
        _ => None,
    }
}

/// The number of conversions of a format that store a value, or the first unsupported one.
fn conversions(format: &[u8]) -> std::result::Result<usize, String> {
    let (mut n, mut i) = (0, 0);
    while i < format.len() {
        if format[i] != b'%' {
            i += 1;
            continue;
        }
        i += 1;
        if format.get(i) == Some(&b'%') {
            i += 1;
            continue;
        }
        let suppressed = format.get(i) == Some(&b'*');
        i += usize::from(suppressed);
        let width_start = i;
        while format.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        let width = &format[width_start..i];
        while format.get(i).is_some_and(|c| b"hlLjztq".contains(c)) {
            i += 1;
        }
        match format.get(i) {
            Some(b'd' | b'i' | b'u' | b'o' | b'x' | b'X' | b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A') => {}
            Some(b'c') if width.is_empty() || width == b"1" => {}
            Some(&c) => return Err(format!("`%{}` conversion", c as char)),
            None => return Err("format that ends inside a conversion".into()),
        }
        i += 1;
        n += usize::from(!suppressed);
    }
    Ok(n)
}

/// Whether a `printf` format writes through an argument (has a `%n` conversion).
pub(crate) fn printf_writes(format: &[u8]) -> bool {
    let mut i = 0;
    while i < format.len() {
        if format[i] != b'%' {
            i += 1;
            continue;
        }
        // flags, width, precision and length come before the conversion letter
        i += 1;
        while format.get(i).is_some_and(|c| b"-+ #0'*.123456789hlLjztq".contains(c)) {
            i += 1;
        }
        if format.get(i) == Some(&b'n') {
            return true;
        }
        i += 1;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::{conversions, printf_writes};

    #[test]
    fn printf_formats_that_write() {
        assert!(printf_writes(b"abc%n"));
        assert!(printf_writes(b"%d%-5hhn"));
        assert!(!printf_writes(b"%%n %5.2f %s"));
    }

    #[test]
    fn formats_count_their_stores() {
        assert_eq!(conversions(b"%d %ld%%%*d x=%u %c %lf"), Ok(5));
        assert_eq!(conversions(b"%s"), Err("`%s` conversion".into()));
        assert_eq!(conversions(b"%3c"), Err("`%c` conversion".into()));
        assert!(conversions(b"%l").is_err());
    }
}
