//! The memory model for objects whose address is taken and for the heap.
//!
//! A pointer is a pair (base, offset): the base identifies an object (0 for the null pointer),
//! the offset counts bytes. Memory is typed: integers, pointer bases and pointer offsets are
//! kept in three arrays `base -> offset -> value`. `#valid[b]` tells whether object `b` is live
//! and `#length[b]` is its size in bytes. Heap objects get increasing positive bases from
//! `#next`, stack and static objects decreasing negative ones from `#snext` (below the bases
//! of functions, see `fnptr`), so objects never alias (a freed base is not reused). Accesses
//! check (property `valid-deref`) that the object is live and the access lies inside it;
//! `free` checks (`valid-free`) that its argument is null or the start of a live heap object.

use crate::error::{CError, Result};
use crate::func::{Fx, Val};
use crate::shape::Shape;
use crate::tast::{Expr, ExprKind};
use crate::translate::Tr;
use crate::types::CType;
use ir::{SourcePos, Stmt, ViolationKind};
use smt::build::{add, and, bool_lit, eq, int, le, lt, or, select, store};
use smt::{Sort, Term};
use verdict::Property;

/// Why a float read from memory is an over-approximation (memory holds no floats).
pub(crate) const FLOAT_IN_MEMORY: &str = "floating-point value in memory not modelled";

/// `#valid: base -> live`.
pub(crate) fn valid() -> Term {
    Term::var("#valid", Sort::array(Sort::Int, Sort::Bool))
}

/// `#length: base -> size in bytes`.
pub(crate) fn length() -> Term {
    Term::var("#length", Sort::array(Sort::Int, Sort::Int))
}

fn heap_sort() -> Sort {
    Sort::array(Sort::Int, Sort::array(Sort::Int, Sort::Int))
}

/// Integer values in memory.
pub(crate) fn mem_int() -> Term {
    Term::var("#mem_int", heap_sort())
}

/// Integer values in memory as the program's translation keeps them: bit-vectors of 8 bits in
/// memory as bytes under bit-vector semantics (`bytes`), integers otherwise.
pub(crate) fn int_memory(bv_bytes: bool) -> Term {
    match bv_bytes {
        true => Term::var("#mem_int", Sort::array(Sort::Int, Sort::array(Sort::Int, Sort::BitVec(8)))),
        false => mem_int(),
    }
}

/// Bases of pointers in memory.
pub(crate) fn mem_base() -> Term {
    Term::var("#mem_base", heap_sort())
}

/// Offsets of pointers in memory.
pub(crate) fn mem_off() -> Term {
    Term::var("#mem_off", heap_sort())
}

/// The next heap base.
pub(crate) fn next_heap() -> Term {
    Term::var("#next", Sort::Int)
}

/// The next stack/static base.
pub(crate) fn next_stack() -> Term {
    Term::var("#snext", Sort::Int)
}

/// The number of live heap objects.
pub(crate) fn alloc_count() -> Term {
    Term::var("#alloc", Sort::Int)
}

/// All variables of the memory model (`int_memory`: how it holds integers).
pub(crate) fn memory_vars(int_memory: Term) -> Vec<Term> {
    vec![valid(), length(), int_memory, mem_base(), mem_off(), next_heap(), next_stack(), alloc_count()]
}

/// An lvalue in memory.
#[derive(Clone, Debug)]
pub(crate) struct MemLoc {
    /// The object's base.
    pub b: Term,
    /// The byte offset.
    pub o: Term,
    /// The type of the accessed object.
    pub ty: CType,
    /// Whether the access must be checked (it is not a member of a variable in scope).
    pub checked: bool,
}

/// A scalar part of an object in memory.
#[derive(Clone, Debug)]
pub(crate) enum Cell {
    /// An integer of the given type.
    Int(CType),
    /// A pointer.
    Ptr,
    /// A floating-point value of a modelled type: not stored (reads give an arbitrary value,
    /// marked as over-approximation).
    Float(CType),
    /// The bytes of a floating-point value of a type that is not modelled (no part of the
    /// value; only in memory as bytes, where other reads of its bytes must know them opaque).
    Opaque(u64),
}

pub(crate) fn cell_get(arr: &Term, b: &Term, o: &Term) -> Term {
    select(&select(arr, b), o)
}

pub(crate) fn cell_set(arr: &Term, b: &Term, o: &Term, v: &Term) -> Term {
    store(arr, b, &store(&select(arr, b), o, v))
}

impl Fx<'_> {
    /// Marks the program as using memory.
    pub fn use_memory(&mut self) {
        self.tr.uses_memory = true;
    }

    /// Allocates an object of `size` bytes; `target` receives its base.
    pub fn allocate(&mut self, target: &Term, size: &Term, heap: bool, pos: &SourcePos) {
        self.use_memory();
        let (ctr, step) = if heap { (next_heap(), 1) } else { (next_stack(), -1) };
        let mut updates = vec![
            (ctr.clone(), add(&[ctr.clone(), int(step)])),
            (valid(), store(&valid(), target, &bool_lit(true))),
            (length(), store(&length(), target, size)),
        ];
        if heap {
            updates.push((alloc_count(), add(&[alloc_count(), int(1)])));
        }
        let stmt = Stmt::Seq(vec![Stmt::Assign(vec![(target.clone(), ctr.clone())]), Stmt::Assign(updates)]);
        self.emit(stmt, pos, None);
    }

    /// Ends the lifetime of the objects with the given bases (when validity is checked).
    pub fn release(&mut self, bases: &[Term], pos: &SourcePos) {
        if bases.is_empty() || !(self.checks(Property::ValidDeref) || self.checks(Property::ValidFree)) {
            return;
        }
        let mut v = valid();
        for b in bases.iter().rev() {
            v = store(&v, b, &bool_lit(false));
        }
        self.emit(Stmt::Assign(vec![(valid(), v)]), pos, None);
    }

    /// Sets all memory of the object `b` to zero.
    pub fn zero_memory(&mut self, b: &Term, pos: &SourcePos) {
        let mut pairs: Vec<(Term, Term)> = [self.tr.int_memory(), mem_base(), mem_off()]
            .into_iter()
            .map(|m| {
                let Sort::Array(_, row) = &m.sort else { unreachable!("memory is an array") };
                let zero_row = crate::conv::zero_of(row);
                (m.clone(), store(&m, b, &zero_row))
            })
            .collect();
        if self.tr.tagged_bytes {
            // zero bytes are integer data
            let tags = crate::bytes::mem_tag();
            pairs.push((tags.clone(), store(&tags, b, &crate::conv::zero_of(&Sort::array(Sort::Int, Sort::Int)))));
        }
        self.emit(Stmt::Assign(pairs), pos, None);
    }

    /// Checks (or assumes) that `size` bytes at the location can be written: inside a live
    /// object that is not a string literal.
    pub(crate) fn check_store(&mut self, m: &MemLoc, size: u64, pos: &SourcePos) {
        self.use_memory();
        self.check_access(m, size, pos);
        if m.checked {
            // string literals are read-only
            let writable = self.tr.writable(&m.b);
            self.check_or_assume(&writable, pos);
        }
    }

    /// Checks (or assumes, when `valid-deref` is not instrumented) that `size` bytes at the
    /// location are inside a live object.
    pub(crate) fn check_access(&mut self, m: &MemLoc, size: u64, pos: &SourcePos) {
        if !m.checked {
            return;
        }
        let ok = and(&[select(&valid(), &m.b), le(&int(0), &m.o), le(&add(&[m.o.clone(), int(size as i64)]), &select(&length(), &m.b))]);
        self.check_or_assume(&ok, pos);
    }

    /// Checks `ok` for `valid-deref`, or assumes it when that property is not instrumented.
    fn check_or_assume(&mut self, ok: &Term, pos: &SourcePos) {
        if self.checks(Property::ValidDeref) {
            self.check(ok, ViolationKind::ValidDeref, pos);
        } else {
            self.assume(ok, pos);
        }
    }

    /// The scalar cells of an object of type `ty` at byte offset `off`, in the order of the
    /// leaves of its register representation.
    fn cells(&mut self, ty: &CType, off: u64, out: &mut Vec<(u64, Cell)>, pos: &SourcePos) -> Result<()> {
        match ty {
            CType::Int(_) => out.push((off, Cell::Int(ty.clone()))),
            CType::Pointer(_) => out.push((off, Cell::Ptr)),
            CType::Float(_) => {
                if self.tr.sem().float_sort(ty).is_some() {
                    out.push((off, Cell::Float(ty.clone())));
                } else if self.tr.bytes {
                    out.push((off, Cell::Opaque(self.size_of(ty, pos)?)));
                }
            }
            CType::Record(r) => {
                let rec = self.tr.records.get(*r).cloned();
                let Some(rec) = rec else { return Err(CError::unsupported(pos, "unknown struct")) };
                if self.tr.is_bytes_record(*r) {
                    // its members overlap or share bytes: the record is its bytes (in memory
                    // as bytes)
                    self.use_bytes();
                    let size = self.size_of(ty, pos)?;
                    out.extend((0..size).map(|k| (off + k, Cell::Int(CType::Int(crate::types::IntKind::UChar)))));
                    return Ok(());
                }
                let fields = rec.fields.clone().unwrap_or_default();
                for (k, f) in fields.iter().enumerate() {
                    let fo = self
                        .tr
                        .layout()
                        .field_offset(*r, k)
                        .ok_or_else(|| CError::unsupported(pos, "member of a struct of unknown layout"))?;
                    self.cells(&f.ty, off + fo, out, pos)?;
                }
            }
            // a flexible array member is not part of a struct copy
            CType::Array(_, None) => {}
            CType::Array(e, Some(n)) if *n <= 64 => {
                let es = self.size_of(e, pos)?;
                for k in 0..*n {
                    self.cells(e, off + k * es, out, pos)?;
                }
            }
            _ => return Err(CError::unsupported(pos, format!("copy of an object of type {} in memory", crate::expr::type_name(ty)))),
        }
        Ok(())
    }

    /// Notes an access to memory in units larger than a byte (see `Tr::byte_views`).
    fn note_units(&mut self, cells: &[(u64, Cell)]) {
        let byte = |c: &Cell| matches!(c, Cell::Int(t) if self.tr.layout().size(t) == Some(1));
        if !cells.iter().all(|(_, c)| byte(c)) {
            self.tr.wide_units = true;
            if self.tr.byte_views {
                self.use_bytes();
            }
        }
    }

    /// The size of the accessed object.
    fn size_of(&self, ty: &CType, pos: &SourcePos) -> Result<u64> {
        self.tr.layout().size(ty).ok_or_else(|| CError::unsupported(pos, format!("access to an object of {}", self.tr.unknown_size(ty))))
    }

    /// The value stored at a memory location.
    pub fn mem_load(&mut self, m: &MemLoc, pos: &SourcePos) -> Result<Val> {
        self.use_memory();
        if let CType::Float(_) = m.ty {
            let size = self.size_of(&m.ty, pos)?;
            self.check_access(m, size, pos);
            return Ok(Val::Float(None));
        }
        if let CType::Array(..) = m.ty {
            return Err(CError::unsupported(pos, "array value"));
        }
        let size = self.size_of(&m.ty, pos)?;
        self.check_access(m, size, pos);
        let mut cells = vec![];
        self.cells(&m.ty, 0, &mut cells, pos)?;
        self.note_units(&cells);
        let vals = if self.tr.bytes { self.read_bytes(m, &cells, pos)? } else { self.read_typed(m, &cells, pos) };
        Ok(match (&m.ty, vals.len()) {
            (CType::Int(_), 1) => Val::Int(vals[0].clone()),
            (CType::Pointer(_), 2) => Val::Ptr(vals[0].clone(), vals[1].clone()),
            (CType::Record(_), _) => {
                Val::Agg(self.tr.cells_to_leaves(&m.ty, &vals).ok_or_else(|| CError::unsupported(pos, "copy of this struct from memory"))?)
            }
            _ => Val::Agg(vals),
        })
    }

    /// The cells of a value read from typed memory (one value per integer or floating-point
    /// cell, two per pointer).
    fn read_typed(&mut self, m: &MemLoc, cells: &[(u64, Cell)], pos: &SourcePos) -> Vec<Term> {
        let mut vals = vec![];
        let mut ranges = vec![];
        for (off, cell) in cells {
            let o = add(&[m.o.clone(), int(*off as i64)]);
            match cell {
                Cell::Int(t) => {
                    // memory holds integers in both semantics
                    let v = cell_get(&mem_int(), &m.b, &o);
                    // a cell holds a value of its type (no wrap needed), unless the program
                    // reads cells as another type: then it reads them modulo its size
                    let from = if self.tr.reinterpreting {
                        CType::MathInt
                    } else {
                        ranges.push(self.range(&v, t));
                        t.clone()
                    };
                    vals.push(crate::conv::convert(&v, &from, t, self.tr.sem()));
                }
                Cell::Ptr => {
                    vals.push(cell_get(&mem_base(), &m.b, &o));
                    vals.push(cell_get(&mem_off(), &m.b, &o));
                }
                Cell::Float(t) => vals.push(self.nondet(t, pos, Some(FLOAT_IN_MEMORY.into()))),
                Cell::Opaque(_) => {}
            }
        }
        self.assume(&and(&ranges), pos);
        vals
    }

    /// Stores a value at a memory location.
    pub fn mem_store(&mut self, m: &MemLoc, v: &Val, pos: &SourcePos) -> Result<()> {
        let size = self.size_of(&m.ty, pos)?;
        self.check_store(m, size, pos);
        if let CType::Float(_) = m.ty {
            if self.tr.bytes {
                // floating-point values are not stored: their bytes become opaque
                let pairs = self.write_bytes(m, &[(0, Cell::Opaque(size))], &[]);
                self.emit(Stmt::Assign(pairs), pos, None);
            }
            return Ok(());
        }
        let mut cells = vec![];
        self.cells(&m.ty, 0, &mut cells, pos)?;
        self.note_units(&cells);
        let vals = match v {
            Val::Agg(leaves) if matches!(m.ty, CType::Record(_)) => {
                self.tr.leaves_to_cells(&m.ty, leaves).ok_or_else(|| CError::unsupported(pos, "copy of this struct into memory"))?
            }
            Val::Int(_) | Val::Bool(_) | Val::Ptr(..) | Val::Agg(_) => v.flatten(self.tr.sem()),
            _ => return Err(CError::syntax(pos, "value of the wrong kind stored")),
        };
        // the integers of the value, as memory holds them
        // one value per integer and float cell, two per pointer, in cell order
        let kinds: Vec<Option<&Cell>> = cells
            .iter()
            .flat_map(|(_, c)| match c {
                Cell::Ptr => vec![None, None],
                Cell::Opaque(_) => vec![],
                c => vec![Some(c)],
            })
            .collect();
        if vals.len() != kinds.len() {
            return Err(CError::unsupported(pos, "copy of a struct with array members between memory and variables"));
        }
        // the integers of the value as memory holds them; floats are not stored
        let raw = vals.clone();
        let vals: Vec<Term> = vals
            .iter()
            .zip(&kinds)
            .filter(|(_, k)| !matches!(k, Some(Cell::Float(_))))
            .map(|(x, k)| match k {
                Some(Cell::Int(t)) => crate::conv::convert(x, t, &CType::MathInt, self.tr.sem()),
                _ => x.clone(),
            })
            .collect();
        if vals.iter().any(|x| x.sort != Sort::Int) {
            return Err(CError::unsupported(pos, "copy of a struct with array members between memory and variables"));
        }
        if self.tr.bytes {
            let pairs = self.write_bytes(m, &cells, &raw);
            self.emit(Stmt::Assign(pairs), pos, None);
            return Ok(());
        }
        let (mut mi, mut mb, mut mo) = (mem_int(), mem_base(), mem_off());
        let mut it = vals.into_iter();
        for (off, cell) in &cells {
            let o = add(&[m.o.clone(), int(*off as i64)]);
            match cell {
                Cell::Int(_) => {
                    let x = it.next().ok_or_else(|| CError::syntax(pos, "value does not match the object"))?;
                    mi = cell_set(&mi, &m.b, &o, &x);
                }
                Cell::Ptr => {
                    let (b, off) = (it.next(), it.next());
                    let (Some(b), Some(off)) = (b, off) else {
                        return Err(CError::syntax(pos, "value does not match the object"));
                    };
                    mb = cell_set(&mb, &m.b, &o, &b);
                    mo = cell_set(&mo, &m.b, &o, &off);
                }
                Cell::Float(_) | Cell::Opaque(_) => {}
            }
        }
        let pairs: Vec<(Term, Term)> = [(mem_int(), mi), (mem_base(), mb), (mem_off(), mo)].into_iter().filter(|(a, b)| a != b).collect();
        if !pairs.is_empty() {
            self.emit(Stmt::Assign(pairs), pos, None);
        }
        Ok(())
    }

    /// `free(p)`.
    pub fn free(&mut self, b: &Term, o: &Term, pos: &SourcePos) {
        self.use_memory();
        let null = and(&[eq(b, &int(0)), eq(o, &int(0))]);
        let ok = or(&[null.clone(), and(&[lt(&int(0), b), eq(o, &int(0)), select(&valid(), b)])]);
        if self.checks(Property::ValidFree) {
            self.check(&ok, ViolationKind::ValidFree, pos);
        } else {
            self.assume(&ok, pos);
        }
        // `free(NULL)` does nothing; otherwise the object dies
        let (nonnull, done) = (self.loc(pos), self.loc(pos));
        self.b.edge(self.cur, done, ir::Label::Stmt(Stmt::Assume(null.clone())), Some(pos.clone()), None);
        self.b.edge(self.cur, nonnull, ir::Label::Stmt(Stmt::Assume(smt::build::not(&null))), Some(pos.clone()), None);
        self.cur = nonnull;
        let count = smt::build::sub(&alloc_count(), &int(1));
        self.emit(Stmt::Assign(vec![(valid(), store(&valid(), b, &bool_lit(false))), (alloc_count(), count)]), pos, None);
        self.b.jump(self.cur, done, None);
        self.cur = done;
    }

    /// The leak checks at program end (`at_exit`: in a call of `exit`, `abort` or an error
    /// function, where the memory the active functions point to is still reachable).
    pub fn leak_checks(&mut self, at_exit: bool, pos: &SourcePos) {
        let none = eq(&alloc_count(), &int(0));
        for (prop, kind) in
            [(Property::ValidMemtrack, ViolationKind::ValidMemtrack), (Property::ValidMemcleanup, ViolationKind::ValidMemcleanup)]
        {
            if !self.checks(prop) {
                continue;
            }
            self.use_memory();
            let err = self.b.error_loc(ir::Violation { kind, pos: Some(pos.clone()) });
            let approx = (prop == Property::ValidMemtrack && (at_exit || self.tr.globals_hold_pointers()))
                .then(|| "leak check ignores memory that is still reachable".to_string());
            if approx.is_none() {
                self.b.edge(self.cur, err, ir::Label::Stmt(Stmt::Assume(smt::build::not(&none))), Some(pos.clone()), None);
                self.assume(&none, pos);
                continue;
            }
            // memory still reachable from the static variables (or, at `exit`, from the active
            // functions) is not lost. When the program ends with no other thread, the heap
            // objects they point to are known: none (every live object is lost), or as many as
            // are live (none is); between the two, a remaining object is only a possible leak.
            let roots = (!at_exit && !self.tr.may_start_threads).then(|| self.heap_roots(pos)).flatten();
            let live = smt::build::not(&none);
            let (dead, reached) = match &roots {
                Some(roots) => {
                    let dead = smt::build::not(&or(&roots.iter().map(|(live, _)| live.clone()).collect::<Vec<_>>()));
                    let lost = Stmt::Assume(and(&[live.clone(), dead.clone()]));
                    self.b.edge(self.cur, err, ir::Label::Stmt(lost), Some(pos.clone()), None);
                    (dead, distinct_count(roots))
                }
                None => (bool_lit(false), None),
            };
            let unexplained = reached.as_ref().map_or(live, |n| lt(n, &alloc_count()));
            let possible = and(&[unexplained, smt::build::not(&dead)]);
            self.b.edge(self.cur, err, ir::Label::Stmt(Stmt::Assume(possible)), Some(pos.clone()), approx);
            self.assume(&reached.map_or(none.clone(), |n| eq(&n, &alloc_count())), pos);
        }
    }

    /// For each pointer the static variables hold, that it points to a live heap object, with
    /// that object's base (`None`: the pointers are too many or one cannot be read). In
    /// memory as tagged bytes, a static object may hold a pointer at any byte (stored through a
    /// cast): each byte where one starts is read; typed memory holds pointers only where the
    /// object's type has them.
    fn heap_roots(&mut self, pos: &SourcePos) -> Option<Vec<(Term, Term)>> {
        let live_heap = |starts: Term, b: Term| (and(&[starts, lt(&int(0), &b), select(&valid(), &b)]), b);
        let (mut places, mut roots) = (vec![], vec![]);
        for (v, info) in self.tr.vars.iter().enumerate().filter(|(_, info)| info.is_static) {
            match &info.shape {
                Shape::Mem(base) if self.tr.tagged_bytes => {
                    for o in 0..self.tr.layout().size(&info.ty)? {
                        let at = |array: &Term| select(&select(array, base), &int(o as i64));
                        let starts = eq(&at(&crate::bytes::mem_tag()), &crate::bytes::pointer_tag(0));
                        roots.push(live_heap(starts, at(&mem_base())));
                    }
                }
                _ => self.tr.pointer_places(Expr::new(ExprKind::Var(v), info.ty.clone(), pos.clone()), &mut places)?,
            }
            if places.len() + roots.len() > ROOT_POINTERS {
                return None;
            }
        }
        for place in places {
            let Ok(Val::Ptr(b, _)) = self.rvalue(&place) else { return None };
            roots.push(live_heap(bool_lit(true), b));
        }
        Some(roots)
    }

    /// The initial state of the memory model (in the initialization procedure).
    pub fn init_memory(&mut self, pos: &SourcePos) {
        let mut pairs = vec![
            (valid(), smt::build::const_array(&Sort::array(Sort::Int, Sort::Bool), &bool_lit(false))),
            (next_heap(), int(1)),
            (next_stack(), int(self.tr.first_stack_base())),
            (alloc_count(), int(0)),
        ];
        if self.tr.tagged_bytes {
            pairs.push((crate::bytes::mem_tag(), crate::bytes::untagged()));
        }
        self.emit(Stmt::Assign(pairs), pos, None);
        self.init_literals(pos);
    }
}

/// At most this many pointers (or bytes of static objects in memory) held by static variables
/// decide a leak exactly.
const ROOT_POINTERS: usize = 512;

/// At most this many of them are counted (the count compares each with those before it).
const COUNTED_ROOTS: usize = 32;

/// The number of distinct objects among the `(points to one, base)` pairs, when they are few.
fn distinct_count(roots: &[(Term, Term)]) -> Option<Term> {
    if roots.len() > COUNTED_ROOTS {
        return None;
    }
    let first = |i: usize| {
        let (live, b) = &roots[i];
        let earlier = roots[..i].iter().map(|(l, c)| and(&[l.clone(), eq(c, b)]));
        and(&std::iter::once(live.clone()).chain(earlier.map(|e| smt::build::not(&e))).collect::<Vec<_>>())
    };
    Some(add(&(0..roots.len()).map(|i| smt::build::ite(&first(i), &int(1), &int(0))).collect::<Vec<_>>()))
}

impl Tr {
    /// The pointer-typed parts of the object `e` (members and elements), added to `out`
    /// (`None`: more than [`ROOT_POINTERS`], or a part of unknown extent that may hold one).
    fn pointer_places(&self, e: Expr, out: &mut Vec<Expr>) -> Option<()> {
        let pos = e.pos.clone();
        match &e.ty {
            CType::Pointer(_) => {
                out.push(e);
                (out.len() <= ROOT_POINTERS).then_some(())
            }
            CType::Array(elem, n) if self.holds_pointer(elem) => {
                for i in 0..(*n)? {
                    let index = Tr::int_lit(i.into(), self.size_t(), pos.clone());
                    self.pointer_places(
                        Expr::new(ExprKind::Index(Box::new(e.clone()), Box::new(index)), (**elem).clone(), pos.clone()),
                        out,
                    )?;
                    if out.len() > ROOT_POINTERS {
                        return None;
                    }
                }
                Some(())
            }
            CType::Record(r) => {
                let fields = self.records.get(*r)?.fields.as_ref()?;
                for (k, f) in fields.iter().enumerate().filter(|(_, f)| f.bit_width.is_none()) {
                    self.pointer_places(Expr::new(ExprKind::Member(Box::new(e.clone()), k), f.ty.clone(), pos.clone()), out)?;
                }
                Some(())
            }
            _ => Some(()),
        }
    }
}
