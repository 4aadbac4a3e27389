//! Calls: the SV-COMP intrinsics (`__VERIFIER_*`, `reach_error`), assertions (`assert`,
//! `__assert_fail`, ACSL), program termination, a few exactly modelled library functions,
//! calls of defined functions (`Call` edges, inlined later by `ir::prepare`) and calls of
//! undefined functions (a nondeterministic result, marked as an over-approximation).

use crate::acsl::{ACSL_ASSERT, ACSL_ASSUMES, ACSL_CONTRACT_RESULT, ACSL_ENSURES, ACSL_LOOP_INVARIANT, ACSL_REQUIRES, ACSL_RESULT};
use crate::back::ValueType;
use crate::error::{CError, Result};
use crate::func::{Fx, Val};
use crate::shape::Shape;
use crate::tast::{Expr, ExprKind};
use crate::types::CType;
use ir::{Call, Label, SourcePos, Stmt, ViolationKind};
use smt::build::{ite, not, or};
use smt::Term;
use verdict::Property;

/// Library functions without effect on the program's variables whose result is rarely used,
/// with the index of their format argument if they have one: a call whose result is discarded
/// is a no-op (a format's `%n` writes through an argument: unsupported).
const PURE_OUTPUT: &[(&str, Option<usize>)] = &[
    ("printf", Some(0)),
    ("vprintf", Some(0)),
    ("fprintf", Some(1)),
    ("vfprintf", Some(1)),
    ("puts", None),
    ("putchar", None),
    ("fputs", None),
    ("fputc", None),
    ("putc", None),
    ("fflush", None),
    ("perror", None),
];

/// Library functions whose result is an input in a range: the name, the range, and whether any
/// value in it can occur (`getchar` reads arbitrary input; `rand` without `srand` follows one
/// fixed sequence, so for it the range is an over-approximation).
const INPUTS: &[(&str, i64, i64, bool)] = &[("getchar", -1, 255, true), ("rand", 0, 2147483647, false), ("random", 0, 2147483647, false)];

/// The operation and operand type of GCC's `__builtin_*_overflow` functions (`None` for the
/// generic ones, whose type is the result's).
fn overflow_builtin(name: &str) -> Option<(crate::conv::ArithOp, Option<CType>)> {
    use crate::conv::ArithOp;
    use crate::types::IntKind::*;
    let rest = name.strip_prefix("__builtin_")?.strip_suffix("_overflow")?;
    let (op_name, ty) = match rest {
        "add" | "sub" | "mul" => (rest, None),
        _ => {
            let (signed, r) = match rest.as_bytes().first()? {
                b's' => (true, &rest[1..]),
                b'u' => (false, &rest[1..]),
                _ => return None,
            };
            let (op, suffix) = r.split_at(3.min(r.len()));
            let k = match (suffix, signed) {
                ("", true) => Int,
                ("", false) => UInt,
                ("l", true) => Long,
                ("l", false) => ULong,
                ("ll", true) => LongLong,
                ("ll", false) => ULongLong,
                _ => return None,
            };
            (op, Some(CType::Int(k)))
        }
    };
    let op = match op_name {
        "add" => ArithOp::Add,
        "sub" => ArithOp::Sub,
        "mul" => ArithOp::Mul,
        _ => return None,
    };
    Some((op, ty))
}

/// The type a `__VERIFIER_nondet_X` function's name says.
fn nondet_type(suffix: &str) -> Option<CType> {
    use crate::types::{FloatKind, IntKind::*};
    Some(match suffix {
        "int" | "s32" => CType::Int(Int),
        "uint" | "unsigned" | "u32" | "unsigned_int" => CType::Int(UInt),
        "char" | "s8" => CType::Int(Char),
        "uchar" | "u8" | "unsigned_char" => CType::Int(UChar),
        "short" | "s16" => CType::Int(Short),
        "ushort" | "u16" | "unsigned_short" => CType::Int(UShort),
        "long" | "s64" => CType::Int(Long),
        "ulong" | "u64" | "unsigned_long" | "size_t" => CType::Int(ULong),
        "longlong" | "long_long" => CType::Int(LongLong),
        "ulonglong" | "unsigned_long_long" => CType::Int(ULongLong),
        "int128" => CType::Int(Int128),
        "uint128" => CType::Int(UInt128),
        "bool" | "_Bool" => CType::Int(Bool),
        "float" => CType::Float(FloatKind::Float),
        "double" => CType::Float(FloatKind::Double),
        _ => return None,
    })
}

/// Whether SV-COMP fixes the meaning of the function `name`, so that a program's own
/// definition of it is not followed: the input functions, `__VERIFIER_assume`, the error
/// functions and the ends of an execution.
pub(crate) fn has_fixed_meaning(name: &str) -> bool {
    matches!(name, "__VERIFIER_assume" | "__VERIFIER_error" | "reach_error" | "abort" | "exit")
        || name.strip_prefix("__VERIFIER_nondet_").is_some_and(|s| nondet_type(s).is_some())
}

impl Fx<'_> {
    /// Marks the last edge as the value of the input function `function`, of type `ty`.
    fn mark_input(&mut self, function: &str, ty: ValueType) {
        let ty = self.tr.back.type_key(ty);
        self.b.mark_nondet(ir::Nondet { function: function.to_string(), ty });
    }

    /// Translates a call of the function `name`.
    pub fn call(&mut self, name: &str, args: &[Expr], ret_ty: &CType, pos: &SourcePos, needed: bool) -> Result<Val> {
        let defined = self.tr.defined.contains(name);
        match name {
            ACSL_ASSERT => {
                let c = self.one_cond(name, args, pos)?;
                self.assertion(&c, ViolationKind::Assert, pos);
                return Ok(Val::Void);
            }
            ACSL_REQUIRES => {
                // checked where the function is entered: from each call site (a precondition
                // of the entry function is assumed)
                let c = self.one_cond(name, args, pos)?;
                if self.tr.is_entry(&self.name) {
                    self.assume(&c, pos);
                } else {
                    self.assertion(&c, ViolationKind::Requires, pos);
                }
                return Ok(Val::Void);
            }
            ACSL_ENSURES | ACSL_ASSUMES => {
                let [a] = args else {
                    return Err(CError::syntax(pos, format!("`{name}` expects one argument")));
                };
                if self.params_in_memory {
                    return Err(CError::unsupported(pos, "ACSL ensures of a function with a parameter whose address is taken"));
                }
                if self.ensures.is_empty() {
                    self.start_postconditions(pos);
                }
                self.ensures.push((a.clone(), pos.clone(), name == ACSL_ASSUMES));
                return Ok(Val::Void);
            }
            ACSL_CONTRACT_RESULT => {
                // a function known only by its contract returns an arbitrary result
                let reason = format!("result of `{}` from its ACSL contract", self.name);
                let ranges = match &self.ret_ty {
                    CType::Int(_) => vec![self.range(&self.ret[0], &self.ret_ty.clone())],
                    _ => vec![],
                };
                self.emit(Stmt::Seq(vec![Stmt::Havoc(self.ret.clone()), Stmt::Assume(smt::build::and(&ranges))]), pos, Some(reason));
                return Ok(Val::Void);
            }
            ACSL_RESULT => {
                return self.result_val.clone().ok_or_else(|| CError::unsupported(pos, "ACSL `\\result` of this type"));
            }
            ACSL_LOOP_INVARIANT => {
                let c = self.one_cond(name, args, pos)?;
                self.assertion(&c, ViolationKind::LoopInvariant, pos);
                return Ok(Val::Void);
            }
            crate::main_args::OBJECT => {
                let [size] = args else { return Err(CError::syntax(pos, format!("`{name}` expects one argument"))) };
                let size = self.index_value(size)?;
                let b = self.temp_of(smt::Sort::Int);
                self.allocate(&b, &size, false, pos);
                return Ok(Val::Ptr(b, smt::build::int(0)));
            }
            "reach_error" | "__VERIFIER_error" => {
                self.effects(args)?;
                if self.checks(Property::UnreachCall) {
                    self.fail(ViolationKind::ErrorCall, pos);
                } else {
                    self.end_program(pos);
                }
                return Ok(Val::Void);
            }
            "__assert_fail" | "__assert_perror_fail" | "__assert" | "__assert_rtn" => {
                self.effects_lenient(args)?;
                if self.checks(Property::UnreachCall) {
                    self.fail(ViolationKind::Assert, pos);
                } else {
                    self.end_program(pos);
                }
                return Ok(Val::Void);
            }
            "abort" | "exit" | "_exit" | "_Exit" | "__builtin_abort" | "__builtin_unreachable" | "__builtin_trap" => {
                self.effects(args)?;
                if name == "__builtin_unreachable" {
                    // not an end of the program: reaching it is undefined
                    self.terminate(pos);
                } else {
                    if name == "exit" {
                        self.run_exit_handlers(pos)?;
                    }
                    self.end_program(pos);
                }
                return Ok(Val::Void);
            }
            _ => {}
        }
        if !defined {
            if let Some(v) = self.thread_call(name, args, ret_ty, pos)? {
                return Ok(v);
            }
            if let Some(op) = crate::float::math_operation(name).filter(|_| self.exact_float_call(args, ret_ty)) {
                return match self.rvalue(&args[0])? {
                    Val::Float(Some(x)) => Ok(Val::Float(Some(smt::fp::un(op, &x)))),
                    _ => Err(CError::syntax(pos, format!("`{name}` of a value that is not a float"))),
                };
            }
            if let Some(v) = self.ieee_call(name, args, ret_ty, pos)? {
                return Ok(v);
            }
            match name {
                "va_start" | "__builtin_va_start" => return self.va_start(args, pos),
                crate::varargs::VA_ARG => return self.va_arg(args, ret_ty, pos),
                "va_copy" | "__builtin_va_copy" => return self.va_copy(args, pos),
                "va_end" | "__builtin_va_end" => {
                    self.effects(args)?;
                    return Ok(Val::Void);
                }
                "__VERIFIER_assume" | "assume_abort_if_not" => {
                    let c = self.one_cond(name, args, pos)?;
                    self.assume(&c, pos);
                    return Ok(Val::Void);
                }
                "__VERIFIER_assert" | "assert" => {
                    let c = self.one_cond(name, args, pos)?;
                    self.assertion(&c, ViolationKind::Assert, pos);
                    return Ok(Val::Void);
                }
                "malloc" | "calloc" | "alloca" | "__builtin_alloca" | "valloc" => {
                    let mut sizes = vec![];
                    for a in args {
                        sizes.push(self.index_value(a)?);
                    }
                    let size = match (name, sizes.as_slice()) {
                        ("calloc", [n, s]) => smt::build::mul(&[n.clone(), s.clone()]),
                        (_, [n]) if name != "calloc" => n.clone(),
                        _ => return Err(CError::syntax(pos, format!("wrong number of arguments of `{name}`"))),
                    };
                    let b = self.temp_of(smt::Sort::Int);
                    let heap = matches!(name, "malloc" | "calloc" | "valloc");
                    self.allocate(&b, &size, heap, pos);
                    if !heap {
                        // released when the function returns
                        if let Some(f) = self.frames.first_mut() {
                            f.1.push(b.clone());
                        }
                    }
                    if name == "calloc" {
                        self.zero_memory(&b, pos);
                    }
                    return Ok(Val::Ptr(b, smt::build::int(0)));
                }
                _ if overflow_builtin(name).is_some() && args.len() == 3 => {
                    return self.overflow_builtin(name, args, pos);
                }
                "free" if args.len() == 1 => {
                    let Val::Ptr(b, o) = self.rvalue(&args[0])? else {
                        return Err(CError::syntax(pos, "`free` of a non-pointer"));
                    };
                    self.free(&b, &o, pos);
                    return Ok(Val::Void);
                }
                "static_assert" if !args.is_empty() => {
                    let holds = self
                        .tr
                        .const_int(&args[0])
                        .ok_or_else(|| CError::unsupported(pos, "static assertion whose condition is not an integer constant"))?;
                    self.static_assertion(!num_traits::Zero::is_zero(&holds), pos);
                    return Ok(Val::Void);
                }
                "abs" | "labs" | "llabs" if args.len() == 1 && ret_ty.is_integer() => {
                    let sem = self.tr.sem();
                    let x = self.int_value(&args[0])?;
                    let x = crate::conv::convert(&x, &args[0].ty, ret_ty, sem);
                    let negative = crate::conv::compare(crate::conv::CmpOp::Lt, &x, &sem.lit(&0.into(), ret_ty), true);
                    let minus = crate::conv::negate(&x, ret_ty, sem);
                    if self.checks(Property::NoOverflow) {
                        self.check(&or(&[not(&negative), minus.no_overflow]), ViolationKind::Overflow, pos);
                    }
                    return Ok(Val::Int(ite(&negative, &minus.value.unwrap_or_else(|| x.clone()), &x)));
                }
                _ => {}
            }
            // `__lamp_any_i32()` etc. (the simplified SV-COMP tasks of `bench/sv` use them for
            // `__VERIFIER_nondet_int()`): the same as the SV-COMP nondet functions
            let lamp = name.strip_prefix("__lamp_any_").and_then(|s| match s {
                "i8" => Some("char"),
                "u8" => Some("uchar"),
                "i16" => Some("short"),
                "u16" => Some("ushort"),
                "i32" => Some("int"),
                "u32" => Some("uint"),
                "i64" => Some("longlong"),
                "u64" => Some("ulonglong"),
                "bool" => Some("bool"),
                _ => None,
            });
            if let Some(suffix) = name.strip_prefix("__VERIFIER_nondet_").or(lamp) {
                self.effects(args)?;
                // SV-COMP convention: a value of the type the name says, converted to the type
                // of the call expression (the declared return type, `int` if undeclared)
                let named = nondet_type(suffix).unwrap_or_else(|| ret_ty.clone());
                return match (&named, ret_ty) {
                    (CType::Int(k), CType::Int(_)) => {
                        let v = self.nondet(&named, pos, None);
                        self.mark_input(name, ValueType::Int(*k));
                        Ok(Val::Int(crate::conv::convert(&v, &named, ret_ty, self.tr.sem())))
                    }
                    (_, CType::Int(k)) => {
                        let v = self.nondet(ret_ty, pos, None);
                        self.mark_input(name, ValueType::Int(*k));
                        Ok(Val::Int(v))
                    }
                    (_, CType::Float(k)) => Ok(Val::Float(self.tr.sem().float_sort(ret_ty).map(|_| {
                        let v = self.nondet(ret_ty, pos, None);
                        self.mark_input(name, ValueType::Float(*k));
                        v
                    }))),
                    (_, CType::Void) => Ok(Val::Void),
                    (_, t) => Err(CError::unsupported(pos, format!("`{name}` returning {}", crate::expr::type_name(t)))),
                };
            }
            if let Some(v) = self.scan(name, args, ret_ty, pos)? {
                return Ok(v);
            }
            if let Some(&(_, format_at)) = PURE_OUTPUT.iter().find(|(n, _)| *n == name).filter(|_| !needed) {
                let format = format_at.and_then(|k| Some((crate::scan::literal_bytes(args.get(k)?), &args[k + 1..])));
                match format {
                    Some((Some(f), _)) if crate::scan::printf_writes(f) => {
                        return Err(CError::unsupported(pos, format!("`{name}` with a `%n` conversion")));
                    }
                    // a format that is not a literal may have a `%n` for a pointer argument:
                    // then the call is one of an undefined function
                    Some((None, rest))
                        if rest
                            .iter()
                            .any(|a| crate::scan::literal_bytes(a).is_none() && matches!(a.ty, CType::Pointer(_) | CType::Array(..))) => {}
                    _ => {
                        self.effects_lenient(args)?;
                        return Ok(Val::Void);
                    }
                }
            }
        }
        if defined && name.starts_with("__VERIFIER_atomic_") {
            // SV-COMP: a function of this name runs atomically
            self.emit_label(Label::Thread(ir::ThreadOp::AtomicBegin), pos, None);
            let v = self.call_defined(name, args, ret_ty, pos, needed)?;
            self.emit_label(Label::Thread(ir::ThreadOp::AtomicEnd), pos, None);
            return Ok(v);
        }
        if self.tr.library_functions.contains(name) {
            if let Some(v) = self.unit_copy(name, args, pos)? {
                return Ok(v);
            }
        }
        if defined {
            return self.call_defined(name, args, ret_ty, pos, needed);
        }
        // an undefined function: a nondeterministic result of the right type; one that
        // receives a function may call it (`ftw`, `atexit`, `signal`), which no result models
        if args.iter().any(|a| a.ty.pointed_function().is_some() || matches!(a.ty, CType::Func(_))) {
            return Err(CError::unsupported(
                pos,
                format!("call of undefined function `{name}` with a function pointer, which it may call"),
            ));
        }
        let reason = format!("call of undefined function {name}");
        let mut writes = false;
        for a in args {
            if matches!(a.kind, ExprKind::StrLit(_)) || (matches!(&a.kind, ExprKind::Cast(x) if matches!(x.kind, ExprKind::StrLit(_)))) {
                continue;
            }
            writes |= matches!(self.rvalue(a)?, Val::Ptr(..) | Val::Agg(_));
        }
        if writes {
            // the function may write wherever its pointers lead: every object's contents
            self.use_memory();
            let mut contents = vec![self.tr.int_memory(), crate::memory::mem_base(), crate::memory::mem_off()];
            if self.tr.tagged_bytes {
                contents.push(crate::bytes::mem_tag());
            }
            self.emit(Stmt::Havoc(contents), pos, Some(format!("{reason}, which may write the memory its pointer arguments reach")));
            if *ret_ty == CType::Void {
                return Ok(Val::Void);
            }
        }
        if let (Some(&(_, lo, hi, exact)), CType::Int(_)) = (INPUTS.iter().find(|(n, ..)| *n == name), ret_ty) {
            let v = self.nondet(ret_ty, pos, (!exact).then_some(reason));
            let (sem, signed) = (self.tr.sem(), ret_ty.int_kind().is_some_and(|k| k.is_signed()));
            let range = smt::build::and(&[
                crate::conv::compare(crate::conv::CmpOp::Le, &sem.lit(&lo.into(), ret_ty), &v, signed),
                crate::conv::compare(crate::conv::CmpOp::Le, &v, &sem.lit(&hi.into(), ret_ty), signed),
            ]);
            self.assume(&range, pos);
            return Ok(Val::Int(v));
        }
        match ret_ty {
            CType::Int(_) => {
                let v = self.nondet(ret_ty, pos, Some(reason));
                if let Some(a) = args.first().filter(|a| matches!(a.ty, CType::Float(_)) && crate::float::is_ieee_function(name)) {
                    // a classification of a float under bit-vector semantics
                    self.mark_bit_precise_exact(&a.ty);
                }
                Ok(Val::Int(v))
            }
            CType::Float(_) if self.tr.sem().float_sort(ret_ty).is_some() => Ok(Val::Float(Some(self.nondet(ret_ty, pos, Some(reason))))),
            CType::Float(_) => {
                self.emit(Stmt::Assume(smt::build::tt()), pos, Some(reason));
                if crate::float::is_ieee_function(name) && args.iter().all(|a| a.ty == *ret_ty) {
                    // an IEEE operation under bit-vector semantics
                    self.mark_bit_precise_exact(ret_ty);
                }
                Ok(Val::Float(None))
            }
            CType::Void => {
                self.emit(Stmt::Assume(smt::build::tt()), pos, Some(reason));
                Ok(Val::Void)
            }
            t => Err(CError::unsupported(pos, format!("call of undefined function `{name}` returning {}", crate::expr::type_name(t)))),
        }
    }

    /// `__builtin_add_overflow(a, b, &r)` and its relatives: the exact result, stored wrapped
    /// into `*r`; the value tells whether it did not fit.
    fn overflow_builtin(&mut self, name: &str, args: &[Expr], pos: &SourcePos) -> Result<Val> {
        let Some((op, ty)) = overflow_builtin(name) else { return Err(CError::syntax(pos, "unknown builtin")) };
        let cell = match &args[2].ty {
            CType::Pointer(t) if t.is_integer() => (**t).clone(),
            _ => return Err(CError::unsupported(pos, format!("`{name}` with a result that is not an integer"))),
        };
        let sem = self.tr.sem();
        let mut operands = vec![];
        for a in &args[..2] {
            // the operands as mathematical integers (converted to the named type first)
            let v = self.int_value(a)?;
            operands.push(match &ty {
                Some(t) => crate::conv::convert(&crate::conv::convert(&v, &a.ty, t, sem), t, &CType::MathInt, sem),
                None => crate::conv::convert(&v, &a.ty, &CType::MathInt, sem),
            });
        }
        let exact = match op {
            crate::conv::ArithOp::Add => smt::build::add(&operands),
            crate::conv::ArithOp::Sub => smt::build::sub(&operands[0], &operands[1]),
            _ => smt::build::mul(&operands),
        };
        let t = ty.unwrap_or_else(|| cell.clone());
        let fits = self.range(&exact, &t);
        let stored = crate::conv::convert(&crate::conv::convert(&exact, &CType::MathInt, &t, sem), &t, &cell, sem);
        let Val::Ptr(b, o) = self.rvalue(&args[2])? else {
            return Err(CError::syntax(pos, "pointer required"));
        };
        let m = crate::memory::MemLoc { b, o, ty: cell, checked: true };
        self.mem_store(&m, &Val::Int(stored), pos)?;
        Ok(Val::Int(sem.bool_to_int(&smt::build::not(&fits))))
    }

    /// Calls the functions registered with `atexit` (at `exit` and at the entry function's
    /// return).
    pub(crate) fn run_exit_handlers(&mut self, pos: &SourcePos) -> Result<()> {
        if !self.tr.exit_handlers {
            return Ok(());
        }
        let call = ExprKind::Call(crate::tast::Callee::Named(crate::library::EXIT_HANDLERS.into()), vec![]);
        self.effect(&Expr::new(call, CType::Void, pos.clone()))
    }

    /// The program ends here, not by returning from `main` (`exit`, `abort`, a failed
    /// assertion or an error function when `unreach-call` is not checked): SV-COMP counts
    /// memory still allocated as a `valid-memcleanup` violation however the program ends.
    fn end_program(&mut self, pos: &SourcePos) {
        self.leak_checks(true, pos);
        self.terminate(pos);
    }

    /// An assertion: checked if `unreach-call` is instrumented, otherwise a failing assertion
    /// ends the execution.
    pub fn assertion(&mut self, c: &Term, kind: ViolationKind, pos: &SourcePos) {
        if self.checks(Property::UnreachCall) {
            self.check(c, kind, pos);
        } else {
            self.assume(c, pos);
        }
    }

    /// The condition of a one-argument intrinsic.
    fn one_cond(&mut self, name: &str, args: &[Expr], pos: &SourcePos) -> Result<Term> {
        let [a] = args else {
            return Err(CError::syntax(pos, format!("`{name}` expects one argument")));
        };
        self.cond(a)
    }

    /// Evaluates arguments for their effects.
    fn effects(&mut self, args: &[Expr]) -> Result<()> {
        for a in args {
            self.effect(a)?;
        }
        Ok(())
    }

    /// Evaluates arguments for their effects; string literals and `__func__` are skipped.
    pub(crate) fn effects_lenient(&mut self, args: &[Expr]) -> Result<()> {
        for a in args {
            let mut x = a;
            while let ExprKind::Cast(inner) = &x.kind {
                x = inner;
            }
            if matches!(x.kind, ExprKind::StrLit(_)) {
                continue;
            }
            self.effect(a)?;
        }
        Ok(())
    }

    /// A classification (`isnan`, ...) or `fmin`/`fmax` of modelled floats: its exact value
    /// (`None`: `name` is none of them, or its operands are not modelled).
    fn ieee_call(&mut self, name: &str, args: &[Expr], ret_ty: &CType, pos: &SourcePos) -> Result<Option<Val>> {
        let sorts: Option<Vec<smt::Sort>> = args.iter().map(|a| self.tr.sem().float_sort(&a.ty)).collect();
        let Some(sorts) = sorts else { return Ok(None) };
        let dummy: Vec<Term> = sorts.into_iter().map(|s| Term::var("x", s)).collect();
        let applies = match (dummy.as_slice(), ret_ty) {
            ([x], CType::Int(_)) => crate::float::classification(name, x).is_some(),
            ([x, y], CType::Float(_)) => {
                args.iter().all(|a| a.ty == *ret_ty) && crate::float::min_max(name, x, y, &smt::build::tt()).is_some()
            }
            _ => false,
        };
        if !applies {
            return Ok(None);
        }
        let mut xs = vec![];
        for a in args {
            match self.rvalue(a)? {
                Val::Float(Some(x)) => xs.push(x),
                _ => return Err(CError::syntax(pos, format!("`{name}` of a value that is not a float"))),
            }
        }
        let sem = self.tr.sem();
        match (xs.as_slice(), ret_ty) {
            ([x], CType::Int(_)) => Ok(crate::float::classification(name, x).map(|c| match c {
                crate::float::ClassValue::Truth(phi) => Val::Bool(phi),
                crate::float::ClassValue::Sign(infinite, negative) => {
                    let (minus, plus, zero) = (sem.lit(&(-1).into(), ret_ty), sem.lit(&1.into(), ret_ty), sem.lit(&0.into(), ret_ty));
                    Val::Int(ite(&infinite, &ite(&negative, &minus, &plus), &zero))
                }
            })),
            ([x, y], CType::Float(_)) => {
                let pick = self.nondet(&CType::Int(crate::types::IntKind::Bool), pos, None);
                Ok(crate::float::min_max(name, x, y, &crate::conv::truth(&pick)).map(|r| Val::Float(Some(r))))
            }
            _ => Ok(None),
        }
    }

    /// Whether a call of a `math.h` function of one argument is exact: its argument and result
    /// have one floating type that the semantics models (bit-vector semantics).
    fn exact_float_call(&self, args: &[Expr], ret_ty: &CType) -> bool {
        matches!(args, [a] if a.ty == *ret_ty) && self.tr.sem().float_sort(ret_ty).is_some()
    }

    /// A call of a function defined in the translation unit: a `Call` edge.
    fn call_defined(&mut self, name: &str, args: &[Expr], ret_ty: &CType, pos: &SourcePos, needed: bool) -> Result<Val> {
        let variadic = self.tr.funcs.get(name).filter(|f| f.ty.variadic).map(|f| f.ty.params.len().min(args.len()));
        let (args, extra) = args.split_at(variadic.unwrap_or(args.len()));
        let mut terms = Vec::new();
        for a in args {
            let v = self.rvalue(a)?;
            terms.extend(v.flatten(self.tr.sem()));
        }
        let va = match variadic {
            Some(_) => {
                let va = self.pass_variadic(extra, pos)?;
                terms.push(va.clone().unwrap_or_else(|| smt::build::int(0)));
                va
            }
            None => None,
        };
        let shape = self.tr.shape("#r", ret_ty, 0, None);
        let rets: Vec<Term> = match (ret_ty, &shape) {
            (CType::Void, _) => vec![],
            (_, Shape::Struct(_)) => shape.leaves().iter().map(|l| self.temp_of(l.sort.clone())).collect(),
            (_, Shape::Ptr(..)) => vec![self.temp_of(smt::Sort::Int), self.temp_of(smt::Sort::Int)],
            _ => vec![self.temp(ret_ty)],
        };
        let call = Call { callee: self.tr.callee(name), args: terms, rets: rets.clone() };
        self.emit_label(Label::Call(call), pos, None);
        if let Some(va) = va {
            self.release(&[va], pos);
        }
        Ok(match (&shape, ret_ty) {
            (_, CType::Void) => Val::Void,
            (Shape::Int(..), _) => Val::Int(rets[0].clone()),
            (Shape::Float(v), _) => Val::Float(v.as_ref().map(|_| rets[0].clone())),
            (Shape::Struct(_), _) => Val::Agg(rets),
            (Shape::Ptr(..), _) => Val::Ptr(rets[0].clone(), rets[1].clone()),
            _ if !needed => Val::Void,
            (_, t) => return Err(CError::unsupported(pos, format!("function `{name}` returning {}", crate::expr::type_name(t)))),
        })
    }
}
