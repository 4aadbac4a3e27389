//! The state of translating one function body into a control-flow graph, and the primitive
//! steps every construct is built from: edges, checks (error locations), nondeterministic values.

use crate::conv::{self, Sem};
use crate::shape::Shape;
use crate::translate::Tr;
use crate::types::{CType, IntKind};
use ir::builder::Builder;
use ir::{Label, SourcePos, Stmt, Violation, ViolationKind};
use smt::build::{int, not, tt};
use smt::{Sort, Term};
use std::collections::{HashMap, HashSet};
use verdict::Property;

/// The value of a translated expression.
#[derive(Clone, Debug)]
pub(crate) enum Val {
    /// An integer value (a term of sort Int, or a bit-vector of its type's width).
    Int(Term),
    /// A truth value (a formula); its C value is 1 or 0.
    Bool(Term),
    /// A floating-point value: a term of a floating-point sort where floats are modelled
    /// (`float` and `double` under bit-vector semantics), otherwise `None` (opaque).
    Float(Option<Term>),
    /// No value (`void`).
    Void,
    /// A struct value: the values of its leaves (Int terms, whole SMT arrays, pointer parts).
    Agg(Vec<Term>),
    /// A pointer: base and offset.
    Ptr(Term, Term),
}

/// Where an lvalue lives: in program variables or in memory.
#[derive(Clone, Debug)]
pub(crate) enum Place {
    /// In the program variables of a register object.
    Reg(Loc),
    /// In memory.
    Mem(crate::memory::MemLoc),
    /// A bit-field in memory.
    Bits(crate::bytes::BitField),
}

/// Where an lvalue lives.
#[derive(Clone, Debug)]
pub(crate) struct Loc {
    /// The representation of the object.
    pub shape: Shape,
    /// The flattened element index below the enclosing arrays (`None`: not below an array).
    pub index: Option<Term>,
    /// The consecutive subscripts not yet checked: their flattened index and number of cells.
    pub run: Option<(Term, Term)>,
    /// The C name of the variable (for messages).
    pub name: String,
}

impl Val {
    /// The values passed for this value as arguments or results (struct leaves; a dummy for an
    /// opaque float).
    pub fn flatten(&self, s: Sem) -> Vec<Term> {
        match self {
            Val::Int(t) => vec![t.clone()],
            Val::Bool(phi) => vec![s.bool_to_int(phi)],
            Val::Float(Some(t)) => vec![t.clone()],
            Val::Float(None) => vec![int(0)],
            Val::Void => vec![],
            Val::Agg(ts) => ts.clone(),
            Val::Ptr(b, o) => vec![b.clone(), o.clone()],
        }
    }

    /// The value as an integer term (floats and void have none).
    pub fn int(&self, s: Sem) -> Option<Term> {
        match self {
            Val::Int(t) => Some(t.clone()),
            Val::Bool(phi) => Some(s.bool_to_int(phi)),
            _ => None,
        }
    }
}

/// Translation state of one function body.
pub(crate) struct Fx<'t> {
    /// The translation-unit state.
    pub tr: &'t mut Tr,
    /// The function's name.
    pub name: String,
    /// The CFG under construction.
    pub b: Builder,
    /// The current location (never has outgoing edges).
    pub cur: usize,
    /// Local variables of the procedure (C locals and temporaries).
    pub locals: Vec<Term>,
    /// Names taken in this procedure.
    pub used: HashSet<String>,
    /// Counter for temporaries.
    pub temps: usize,
    /// The result variables (leaves of the result type).
    pub ret: Vec<Term>,
    /// The declared result type.
    pub ret_ty: CType,
    /// Where `return` continues.
    pub ret_loc: usize,
    /// Targets of `break`, with the number of scope frames at the target.
    pub breaks: Vec<(usize, usize)>,
    /// Targets of `continue`, with the number of scope frames at the target.
    pub continues: Vec<(usize, usize)>,
    /// Locations of the function's labels.
    pub labels: HashMap<String, usize>,
    /// The scopes (by statement address) enclosing each label.
    pub label_paths: HashMap<String, Vec<usize>>,
    /// The open scopes (by statement address) with the bases of their objects in memory.
    pub frames: Vec<(usize, Vec<Term>)>,
    /// The base of the variadic arguments of a variadic function (`varargs`).
    pub va: Option<Term>,
    /// Locations of the `case`/`default` labels of enclosing switches (by node address).
    pub cases: HashMap<usize, usize>,
    /// ACSL loop invariant statements waiting for the loop that follows: translated at its
    /// head (inside a `for` loop's scope, where its initializer's variables are declared).
    pub loop_invariants: Vec<lang_c::span::Node<lang_c::ast::Statement>>,
    /// ACSL `ensures` clauses of the function, checked where it returns (assumed instead for a
    /// function known only by its contract).
    pub ensures: Vec<(crate::tast::Expr, SourcePos, bool)>,
    /// The value ACSL's `\result` denotes there (the result variables).
    pub result_val: Option<Val>,
    /// The parameters' variables (ACSL's `ensures` reads them with their values on entry).
    pub param_vars: Vec<Term>,
    /// The parameters' variables with the copies of their values on entry.
    pub param_entry: HashMap<Term, Term>,
    /// Whether a parameter lives in memory (its address is taken).
    pub params_in_memory: bool,
}

impl<'t> Fx<'t> {
    /// A fresh body translation for the function `name`.
    pub fn new(tr: &'t mut Tr, name: &str, pos: Option<SourcePos>) -> Fx<'t> {
        let b = Builder::new(pos);
        let (entry, exit) = (b.entry, b.exit);
        let used = tr.global_names.clone();
        Fx {
            tr,
            name: name.to_string(),
            b,
            cur: entry,
            locals: Vec::new(),
            used,
            temps: 0,
            ret: vec![],
            ret_ty: CType::Void,
            ret_loc: exit,
            breaks: Vec::new(),
            continues: Vec::new(),
            labels: HashMap::new(),
            label_paths: HashMap::new(),
            frames: Vec::new(),
            cases: HashMap::new(),
            loop_invariants: Vec::new(),
            ensures: Vec::new(),
            result_val: None,
            param_vars: Vec::new(),
            param_entry: HashMap::new(),
            params_in_memory: false,
            va: None,
        }
    }

    /// Releases the objects of the scope frames from `depth` on (innermost first), without
    /// closing them (for jumps out of scopes). The entry function's return in a program that
    /// starts threads releases nothing: it ends the execution (C: it is `exit`), and the
    /// threads still running may take steps that come before it in a real execution.
    pub fn release_frames(&mut self, depth: usize, pos: &SourcePos) {
        if depth == 0 && self.ends_execution() {
            return;
        }
        let bases: Vec<Term> = self.frames[depth.min(self.frames.len())..].iter().flat_map(|(_, bs)| bs.iter().cloned()).collect();
        self.release(&bases, pos);
    }

    /// Whether returning from this function ends an execution with threads (the entry
    /// function of a program that starts threads).
    pub fn ends_execution(&self) -> bool {
        self.tr.starts_threads && self.tr.is_entry(&self.name)
    }

    /// Whether a property is instrumented.
    pub fn checks(&self, p: Property) -> bool {
        self.tr.opts.properties.contains(&p)
    }

    /// A procedure-local name based on `base`, unique in the procedure and among globals.
    pub fn local_name(&mut self, base: &str) -> String {
        let mut name = base.to_string();
        let mut k = 1;
        while !self.used.insert(name.clone()) || self.tr.global_names.contains(&name) {
            name = format!("{base}#{k}");
            k += 1;
        }
        self.tr.local_names.insert(name.clone());
        self.tr.back.name_variable(&name, base);
        name
    }

    /// A fresh temporary for a value of type `ty` (a pointer's part: any integer type).
    pub fn temp(&mut self, ty: &CType) -> Term {
        self.temp_of(self.tr.sem().sort(ty))
    }

    /// A fresh temporary of the given sort.
    pub fn temp_of(&mut self, sort: Sort) -> Term {
        self.temps += 1;
        let name = self.local_name(&format!("#t{}", self.temps));
        let t = Term::var(&name, sort);
        self.locals.push(t.clone());
        t
    }

    /// A fresh location.
    pub fn loc(&mut self, pos: &SourcePos) -> usize {
        self.b.loc(Some(pos.clone()))
    }

    /// Adds an edge from the current location to a new one, which becomes current.
    pub fn emit(&mut self, stmt: Stmt, pos: &SourcePos, overapprox: Option<String>) {
        let next = self.loc(pos);
        self.b.edge(self.cur, next, Label::Stmt(stmt), Some(pos.clone()), overapprox);
        self.cur = next;
    }

    /// Adds an edge with an arbitrary label (a call).
    pub fn emit_label(&mut self, label: Label, pos: &SourcePos, overapprox: Option<String>) {
        let next = self.loc(pos);
        self.b.edge(self.cur, next, label, Some(pos.clone()), overapprox);
        self.cur = next;
    }

    /// `assume phi` (nothing for `true`; for `false` the current location becomes dead).
    pub fn assume(&mut self, phi: &Term, pos: &SourcePos) {
        if phi.is_true() {
            return;
        }
        if phi.is_false() {
            self.cur = self.loc(pos);
            return;
        }
        self.emit(Stmt::Assume(phi.clone()), pos, None);
    }

    /// `x := e`.
    pub fn assign(&mut self, x: &Term, e: &Term, pos: &SourcePos) {
        self.emit(Stmt::Assign(vec![(x.clone(), e.clone())]), pos, None);
    }

    /// Execution stops here (`abort`, `exit`, after `reach_error` when not checked).
    pub fn terminate(&mut self, pos: &SourcePos) {
        self.cur = self.loc(pos);
    }

    /// A property check: an error location reached if `ok` fails; execution continues
    /// under `ok`.
    pub fn check(&mut self, ok: &Term, kind: ViolationKind, pos: &SourcePos) {
        if ok.is_true() {
            return;
        }
        let err = self.b.error_loc(Violation { kind, pos: Some(pos.clone()) });
        self.b.edge(self.cur, err, Label::Stmt(Stmt::Assume(not(ok))), Some(pos.clone()), None);
        self.assume(ok, pos);
    }

    /// Control reaches an error location unconditionally (`reach_error()`).
    pub fn fail(&mut self, kind: ViolationKind, pos: &SourcePos) {
        let err = self.b.error_loc(Violation { kind, pos: Some(pos.clone()) });
        self.b.edge(self.cur, err, Label::Stmt(Stmt::Assume(tt())), Some(pos.clone()), None);
        self.cur = self.loc(pos);
    }

    /// The range formula of an integer type (true for ACSL's `integer`).
    pub fn range(&self, t: &Term, ty: &CType) -> Term {
        match ty {
            CType::Int(k) => conv::in_range(t, *k, self.tr.dm()),
            _ => tt(),
        }
    }

    /// Havocs `x` and assumes it in the range of `ty`.
    pub fn havoc_in_range(&mut self, x: &Term, ty: &CType, pos: &SourcePos, overapprox: Option<String>) {
        let r = self.range(x, ty);
        let stmt = if r.is_true() { Stmt::Havoc(vec![x.clone()]) } else { Stmt::Seq(vec![Stmt::Havoc(vec![x.clone()]), Stmt::Assume(r)]) };
        self.emit(stmt, pos, overapprox);
    }

    /// A nondeterministic value of an integer type (a fresh temporary).
    pub fn nondet(&mut self, ty: &CType, pos: &SourcePos, overapprox: Option<String>) -> Term {
        let t = self.temp(ty);
        self.havoc_in_range(&t, ty, pos, overapprox);
        t
    }

    /// A nondeterministic truth value (for over-approximated conditions).
    pub fn nondet_bool(&mut self, pos: &SourcePos, reason: &str) -> Term {
        let t = self.nondet(&CType::Int(IntKind::Bool), pos, Some(reason.to_string()));
        conv::truth(&t)
    }

    /// Marks the last edge (an over-approximation of a value of type `ty` under integer
    /// semantics) as exact under bit-vector semantics where that models `ty`: bitwise results
    /// and `float`/`double` values.
    pub fn mark_bit_precise_exact(&mut self, ty: &CType) {
        let sem = self.tr.sem();
        let bit_precise = Sem { bitvector: true, ..sem };
        // (ACSL's mathematical `integer` stays unbounded under bit-vectors)
        if !sem.bitvector && (ty.int_kind().is_some() || bit_precise.float_sort(ty).is_some()) {
            self.b.mark_bit_precise_exact();
        }
    }

    /// A nondeterministic value constrained by `constraint(r)`, marked as over-approximation;
    /// `exact` is the value it stands for, if it can be written (for re-checking error traces).
    pub fn approx(
        &mut self,
        ty: &CType,
        pos: &SourcePos,
        reason: String,
        constraint: impl FnOnce(&Term) -> Term,
        exact: Option<Term>,
    ) -> Term {
        let t = self.temp(ty);
        let c = constraint(&t);
        let stmt = if c.is_true() { Stmt::Havoc(vec![t.clone()]) } else { Stmt::Seq(vec![Stmt::Havoc(vec![t.clone()]), Stmt::Assume(c)]) };
        self.emit(stmt, pos, Some(reason));
        if let Some(v) = exact {
            self.b.mark_exact(Stmt::Assign(vec![(t.clone(), v)]));
        }
        t
    }
}
