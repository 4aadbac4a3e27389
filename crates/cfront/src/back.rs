//! The back-translation map: what the results of a run need to be written in C again. Below
//! the front end a result knows program variables, SMT values and the opaque type keys of
//! `ir::Nondet` ([`ir::SourceType`]); the map, made by the translation, says which C variable a
//! program variable stands for, which C type an input value has and how a value of that type is
//! written as a C or an ACSL constant, and which functions the program declares without
//! defining them (a test harness defines them). `report` and `witness` read it; a Boogie
//! program has none.

use crate::types::{FloatKind, IntKind};
use ir::SourceType;
use num_bigint::BigInt;
use smt::Term;
use std::collections::BTreeMap;

/// The C type of a value a result mentions: the value of an input function, or the result of
/// a function the program declares without defining it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueType {
    /// `void` (a function without result).
    Void,
    /// An integer type.
    Int(IntKind),
    /// A floating type.
    Float(FloatKind),
    /// A pointer (written `void *`).
    Pointer,
}

impl ValueType {
    /// The C spelling (`unsigned char`, `void *`).
    pub fn name(self) -> &'static str {
        match self {
            ValueType::Void => "void",
            ValueType::Int(k) => k.name(),
            ValueType::Float(k) => k.name(),
            ValueType::Pointer => "void *",
        }
    }

    /// Whether the type is an unsigned integer type (`_Bool` included).
    pub fn is_unsigned(self) -> bool {
        matches!(self, ValueType::Int(k) if !k.is_signed())
    }

    /// `value` as an integer of this type: an integer literal as it is, a bit-vector's pattern
    /// read as two's complement for a signed type.
    pub fn integer(self, value: &Term) -> Option<BigInt> {
        if let Some(v) = value.as_int() {
            return Some(v.clone());
        }
        let (pattern, width) = value.as_bv()?;
        Some(if self.is_unsigned() { pattern.clone() } else { smt::bv::signed(pattern, width) })
    }

    /// `value` as a C constant of this type: a decimal integer or a floating constant (see
    /// [`float_constant`]).
    pub fn c_constant(self, value: &Term) -> Option<String> {
        self.integer(value).map(|v| v.to_string()).or_else(|| float_constant(value))
    }

    /// `value` as an ACSL constant: [`Self::c_constant`] but for NaN and the infinities, which
    /// ACSL cannot compare with `==`.
    pub fn acsl_constant(self, value: &Term) -> Option<String> {
        let finite = smt::fp::to_f64(value).is_none_or(f64::is_finite);
        self.c_constant(value).filter(|_| finite)
    }
}

/// A `float` or `double` literal as a C constant that denotes it exactly (the shortest decimal
/// that reads back as the value; `NAN`, `INFINITY`, `-INFINITY` as `<math.h>` names them).
pub fn float_constant(t: &Term) -> Option<String> {
    let x = smt::fp::to_f64(t)?;
    Some(match x {
        _ if x.is_nan() => "NAN".into(),
        f64::INFINITY => "INFINITY".into(),
        f64::NEG_INFINITY => "-INFINITY".into(),
        _ => format!("{x:?}"),
    })
}

/// What the results of a run need to be written in C again (see the module documentation).
/// The empty map knows no C: nothing has a C name or a C type.
#[derive(Clone, Debug, Default)]
pub struct BackTranslation {
    /// The C types of input values, indexed by [`ir::SourceType`].
    types: Vec<ValueType>,
    /// The functions the program declares but does not define, with their return types.
    externs: BTreeMap<String, ValueType>,
    /// The program variables that stand for C variables, with their C names (a local that
    /// shadows another one is the program variable `x#1`, C's `x`).
    variables: BTreeMap<String, String>,
    /// Whether the program starts threads.
    threads: bool,
}

impl BackTranslation {
    /// Whether the program starts threads (its values and invariants mention thread
    /// instances, which C has no names for).
    pub fn starts_threads(&self) -> bool {
        self.threads
    }

    pub(crate) fn set_threads(&mut self, threads: bool) {
        self.threads = threads;
    }

    /// The C type of an input value, by the key the translation put into its `ir::Nondet`.
    pub fn input_type(&self, ty: SourceType) -> Option<ValueType> {
        self.types.get(ty.0 as usize).copied()
    }

    /// The functions the program declares but does not define, with their return types
    /// (`__VERIFIER_nondet_int` → `int`), in the order of their names.
    pub fn externs(&self) -> &BTreeMap<String, ValueType> {
        &self.externs
    }

    /// The C name of a program variable; `None` for the front end's own variables (`#t1`,
    /// `#mem_int`, a struct's member `s.f`) and for variables of the engines (`old(x)`).
    pub fn c_name(&self, var: &str) -> Option<&str> {
        self.variables.get(var).map(String::as_str)
    }

    /// A formula over program variables as a C expression, or the reason it has none (see
    /// `print_c`: only what C says with the same meaning).
    pub fn term_to_c(&self, t: &Term) -> Result<String, String> {
        crate::print_c::term_to_c(t, self)
    }

    /// The key of a C type of input values (the same key for the same type).
    pub(crate) fn type_key(&mut self, ty: ValueType) -> SourceType {
        let k = self.types.iter().position(|&t| t == ty).unwrap_or_else(|| {
            self.types.push(ty);
            self.types.len() - 1
        });
        SourceType(k as u32)
    }

    /// Records that the program variable `var` was named after the C identifier `base` (as
    /// `base` itself or, to keep it apart from another variable, as `base#k`).
    pub(crate) fn name_variable(&mut self, var: &str, base: &str) {
        let ident = base.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && base.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        let renamed = var
            .strip_prefix(base)
            .is_some_and(|k| k.is_empty() || k.strip_prefix('#').is_some_and(|d| d.chars().all(|c| c.is_ascii_digit())));
        if ident && renamed {
            self.variables.insert(var.to_string(), base.to_string());
        }
    }

    /// Records that the program variable `var` (named after `*pointer`) stands for the object
    /// `*pointer` (a scalar promoted from an `alloca`'d object, `promote`): its C name is that
    /// expression, which reports and invariants may use where `pointer` is in scope.
    pub(crate) fn name_deref(&mut self, var: &str, pointer: &str) {
        let ident = pointer.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && pointer.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if ident && var.strip_prefix('*').is_some_and(|v| v.starts_with(pointer)) {
            self.variables.insert(var.to_string(), format!("*{pointer}"));
        }
    }

    /// Sets the functions declared without definition.
    pub(crate) fn set_externs(&mut self, externs: BTreeMap<String, ValueType>) {
        self.externs = externs;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_vector_inputs_read_by_signedness() {
        let all_ones = smt::bv::lit(&255.into(), 8);
        assert_eq!(ValueType::Int(IntKind::UChar).c_constant(&all_ones).as_deref(), Some("255"));
        assert_eq!(ValueType::Int(IntKind::Char).c_constant(&all_ones).as_deref(), Some("-1"));
        assert_eq!(ValueType::Int(IntKind::Bool).name(), "_Bool");
        assert_eq!(ValueType::Pointer.name(), "void *");
    }

    #[test]
    fn names_only_what_was_named_after_c() {
        let mut b = BackTranslation::default();
        for (var, base) in [("x", "x"), ("x#2", "x"), ("#t1", "#t1"), ("&x", "&x"), ("f::s", "f::s"), ("x#len", "x#len")] {
            b.name_variable(var, base);
        }
        assert_eq!((b.c_name("x"), b.c_name("x#2")), (Some("x"), Some("x")));
        assert_eq!((b.c_name("#t1"), b.c_name("&x"), b.c_name("f::s"), b.c_name("x#len"), b.c_name("y")), (None, None, None, None, None));
        assert_eq!(b.type_key(ValueType::Int(IntKind::Int)), b.type_key(ValueType::Int(IntKind::Int)));
        assert_ne!(b.type_key(ValueType::Int(IntKind::Int)), b.type_key(ValueType::Int(IntKind::UInt)));
    }
}
