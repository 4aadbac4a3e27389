//! Memory as bytes, for programs that access objects at other types than the ones they hold
//! (an `int` through a `char *`, a struct through an `int *`, a `void *` view as characters of
//! memory also accessed in wider units). `#mem_int` then holds one byte per address (an
//! integer 0-255, or under bit-vector semantics a bit-vector of 8 bits):
//! an integer of `n` bytes is written as its `n` bytes, least significant first, and read
//! back composed from them, whatever types wrote them. Pointers stay whole in
//! `#mem_base`/`#mem_off` at their first byte. Where the program also stores pointers or
//! floating-point values in memory, `#mem_tag` says what each byte holds: 0 a byte of integer
//! data (every byte at the start, so uninitialized memory is arbitrary integer data), `k + 1`
//! byte `k` of the pointer that starts `k` bytes before, -1 a byte of a floating-point value
//! (not modelled). A read is exact when its bytes hold what it reads: integer data for an
//! integer; a whole pointer, or integer data (an integer converted to a pointer), for a
//! pointer. Any other read (the bytes of a pointer read as integers, half of a pointer) gives
//! an arbitrary value, marked as over-approximation. Programs without such accesses keep
//! typed memory (`memory`): one value per accessed unit, cheaper for the solver.

use crate::conv;
use crate::error::{CError, Result};
use crate::func::{Fx, Place, Val};
use crate::memory::{cell_get, cell_set, mem_base, mem_off, Cell, MemLoc};
use crate::types::{CType, IntKind};
use ir::{SourcePos, Stmt};
use smt::build::{add, and, const_array, eq, int, int_big, int_div, ite, le, modulo, mul, not, or, sub};
use smt::bv::{self, BvOp};
use smt::{Sort, Term};

/// Why a read from memory as bytes is an over-approximation.
const MIXED_BYTES: &str = "read of bytes of a pointer or floating-point value as another type";

/// `#mem_tag: base -> offset -> what the byte holds`.
pub(crate) fn mem_tag() -> Term {
    Term::var("#mem_tag", Sort::array(Sort::Int, Sort::array(Sort::Int, Sort::Int)))
}

/// The tags of fresh memory: integer data everywhere.
pub(crate) fn untagged() -> Term {
    let row = Sort::array(Sort::Int, Sort::Int);
    const_array(&Sort::array(Sort::Int, row.clone()), &const_array(&row, &int(0)))
}

/// The tag of byte `k` of a pointer.
pub(crate) fn pointer_tag(k: u64) -> Term {
    int(k as i64 + 1)
}

/// The tag of a byte of a floating-point value.
const FLOAT_TAG: i64 = -1;

/// The unsigned integer type of the size of the integer type `t` (`unsigned char` for `_Bool`).
fn unsigned_of(t: &CType) -> CType {
    match t.int_kind() {
        Some(IntKind::Bool) | None => CType::Int(IntKind::UChar),
        Some(k) => CType::Int(k.to_unsigned()),
    }
}

impl Fx<'_> {
    /// Switches the program to memory as bytes (the translation starts over).
    pub fn use_bytes(&mut self) {
        if !self.tr.bytes {
            self.tr.bytes = true;
            self.tr.new_marks = true;
        }
    }

    /// Notes a store of a pointer or floating-point value: in memory as bytes, the bytes
    /// get tags from now on (the translation starts over).
    fn tag_bytes(&mut self) {
        if !self.tr.tagged_bytes {
            self.tr.tagged_bytes = true;
            self.tr.new_marks = true;
        }
    }

    /// The unsigned integer of `n` bytes at offset `o` of the object `b` (least significant
    /// first; a bit-vector of `8 n` bits under bit-vector semantics), and that each byte is one.
    fn compose(&self, b: &Term, o: &Term, n: u64) -> (Term, Term) {
        let memory = self.tr.int_memory();
        let bytes: Vec<Term> = (0..n).map(|i| cell_get(&memory, b, &add(&[o.clone(), int(i as i64)]))).collect();
        let bitvector = self.tr.sem().bitvector;
        let range = match bitvector {
            true => smt::build::tt(),
            false => and(&bytes.iter().flat_map(|x| [le(&int(0), x), le(x, &int(255))]).collect::<Vec<_>>()),
        };
        (combine(bytes, bitvector), range)
    }

    /// Member `k` of the record `r` at the location `m` (whose type is the record), of type `ty`
    /// as an expression: a bit-field is reached through the bytes that hold it (memory as
    /// bytes).
    pub(crate) fn member_place(&mut self, mut m: MemLoc, r: usize, k: usize, ty: &CType, pos: &SourcePos) -> Result<Place> {
        let field = self.tr.records.get(r).and_then(|rec| rec.fields.as_ref()?.get(k).cloned());
        let Some(field) = field else { return Err(CError::syntax(pos, "no such member")) };
        let unknown_layout = || CError::unsupported(pos, "member of a struct of unknown layout");
        if let Some(width) = field.bit_width {
            let bit = self.tr.layout().bit_field_offset(r, k).ok_or_else(unknown_layout)?;
            self.use_bytes();
            m.o = add(&[m.o, int((bit / 8) as i64)]);
            m.ty = field.ty;
            return Ok(Place::Bits(BitField { m, shift: (bit % 8) as u32, width: width as u32, ty: ty.clone() }));
        }
        let off = self.tr.layout().field_offset(r, k).ok_or_else(unknown_layout)?;
        m.o = add(&[m.o, int(off as i64)]);
        m.ty = ty.clone();
        Ok(Place::Mem(m))
    }

    /// The value of a bit-field: its bits taken from the bytes that hold them, sign-extended
    /// for a signed type.
    pub(crate) fn bits_load(&mut self, f: &BitField, pos: &SourcePos) -> Result<Val> {
        self.use_memory();
        self.check_access(&f.m, f.bytes(), pos);
        let u = self.bits_unit(f, pos)?;
        let (lo, w) = (f.shift, f.width);
        let bits = match u.sort {
            Sort::BitVec(_) => bv::app(BvOp::Extract(lo + w - 1, lo), &[u]),
            _ => int_div(&u, &int_big(conv::pow2(lo))),
        };
        let value = self.bits_value(f, &bits);
        Ok(Val::Int(value))
    }

    /// The integer `x` as the bit-field `f` holds it, as a value of its expression type: its
    /// low bits, sign-extended for a signed field.
    pub(crate) fn bits_value(&self, f: &BitField, x: &Term) -> Term {
        let (w, signed) = (f.width, f.m.ty.int_kind().is_some_and(|k| k.is_signed()));
        if let Sort::BitVec(n) = self.tr.sem().sort(&f.ty) {
            return bv::resize(&bv::resize(x, w, false), n, signed);
        }
        let low = modulo(x, &int_big(conv::pow2(w)));
        match signed {
            true => ite(&le(&int_big(conv::pow2(w - 1)), &low), &sub(&low, &int_big(conv::pow2(w))), &low),
            false => low,
        }
    }

    /// Stores the value `v` (of the bit-field's expression type) into a bit-field: its low
    /// bits replace the field's bits, the other bits of their bytes are kept.
    pub(crate) fn bits_store(&mut self, f: &BitField, v: &Val, pos: &SourcePos) -> Result<()> {
        let x = match v {
            Val::Int(x) => x.clone(),
            Val::Bool(phi) => self.tr.sem().bool_to_int(phi),
            _ => return Err(CError::syntax(pos, "value of the wrong kind stored")),
        };
        let n = f.bytes();
        self.check_store(&f.m, n, pos);
        let u = self.bits_unit(f, pos)?;
        let (lo, w) = (f.shift, f.width);
        let hi = lo + w;
        let updated = match u.sort {
            Sort::BitVec(_) => {
                let field = bv::resize(&x, w, false);
                let high = (hi < 8 * n as u32).then(|| bv::app(BvOp::Extract(8 * n as u32 - 1, hi), std::slice::from_ref(&u)));
                let low = (lo > 0).then(|| bv::app(BvOp::Extract(lo - 1, 0), std::slice::from_ref(&u)));
                [high, Some(field), low].into_iter().flatten().reduce(|h, l| bv::bin(BvOp::Concat, &h, &l)).unwrap_or(u)
            }
            _ => {
                let x = conv::convert(&x, &f.ty, &CType::MathInt, self.tr.sem());
                let field = modulo(&x, &int_big(conv::pow2(w)));
                let low = modulo(&u, &int_big(conv::pow2(lo)));
                let high = int_div(&u, &int_big(conv::pow2(hi)));
                add(&[mul(&[high, int_big(conv::pow2(hi))]), mul(&[field, int_big(conv::pow2(lo))]), low])
            }
        };
        // (the updated integer has `n` bytes: its top one needs no `mod`)
        let bytes: Vec<Term> = (0..n as u32).map(|i| byte_of(&updated, i, u64::from(i) + 1 == n)).collect();
        let pairs = self.write_bytes(&f.m, &f.byte_cells(), &bytes);
        self.emit(Stmt::Assign(pairs), pos, None);
        Ok(())
    }

    /// The unsigned integer of the bytes that hold a bit-field (arbitrary where they do not
    /// hold integer data).
    fn bits_unit(&mut self, f: &BitField, pos: &SourcePos) -> Result<Term> {
        let bytes = self.read_bytes(&f.m, &f.byte_cells(), pos)?;
        Ok(combine(bytes, self.tr.sem().bitvector))
    }

    /// The cells of a value read from memory as bytes: the values (one per integer or
    /// floating-point cell, two per pointer), and when they are exact.
    pub(crate) fn read_bytes(&mut self, m: &MemLoc, cells: &[(u64, Cell)], pos: &SourcePos) -> Result<Vec<Term>> {
        let sem = self.tr.sem();
        let tagged = self.tr.tagged_bytes;
        let (mut vals, mut ranges, mut exact) = (vec![], vec![], vec![]);
        for (off, cell) in cells {
            let o = add(&[m.o.clone(), int(*off as i64)]);
            match cell {
                Cell::Int(t) => {
                    let n = self.tr.layout().size(t).unwrap_or(1);
                    let (u, r) = self.compose(&m.b, &o, n);
                    ranges.push(r);
                    if tagged {
                        exact.extend((0..n).map(|i| eq(&tag_at(&m.b, &o, i), &int(0))));
                    }
                    vals.push(from_bytes(&u, t, n, sem));
                }
                Cell::Ptr => {
                    let (base, offset) = (cell_get(&mem_base(), &m.b, &o), cell_get(&mem_off(), &m.b, &o));
                    if !tagged {
                        vals.extend([base, offset]);
                        continue;
                    }
                    // a whole pointer, or integer data: the pointer made from that integer
                    let n = self.tr.layout().pointer_size();
                    let tags: Vec<Term> = (0..n).map(|i| tag_at(&m.b, &o, i)).collect();
                    let whole = and(&tags.iter().enumerate().map(|(k, t)| eq(t, &pointer_tag(k as u64))).collect::<Vec<_>>());
                    let data = and(&tags.iter().map(|t| eq(t, &int(0))).collect::<Vec<_>>());
                    let (u, r) = self.compose(&m.b, &o, n);
                    let u = if sem.bitvector { smt::build::bv2nat(&u) } else { u };
                    ranges.push(r);
                    self.note_integer_pointers(&u);
                    vals.push(ite(&whole, &base, &int(0)));
                    vals.push(ite(&whole, &offset, &u));
                    exact.push(or(&[whole, data]));
                }
                Cell::Float(t) => vals.push(self.nondet(t, pos, Some(crate::memory::FLOAT_IN_MEMORY.into()))),
                Cell::Opaque(_) => {}
            }
        }
        self.assume(&and(&ranges), pos);
        let exact = and(&exact);
        if exact.is_true() {
            return Ok(vals);
        }
        // the exact values where the bytes hold what is read, arbitrary ones elsewhere
        let start = self.cur;
        self.assume(&exact, pos);
        let exact_end = (self.cur, Val::Agg(vals.clone()));
        self.cur = start;
        self.assume(&not(&exact), pos);
        let arbitrary: Vec<Term> = vals.iter().map(|v| self.temp_of(v.sort.clone())).collect();
        let mut havoc = vec![Stmt::Havoc(arbitrary.clone())];
        let mut k = 0;
        for (_, cell) in cells {
            if let Cell::Int(t) = cell {
                havoc.push(Stmt::Assume(self.range(&arbitrary[k], t)));
            }
            k += match cell {
                Cell::Ptr => 2,
                Cell::Opaque(_) => 0,
                _ => 1,
            };
        }
        self.emit(Stmt::Seq(havoc), pos, Some(MIXED_BYTES.into()));
        let ends = [exact_end, (self.cur, Val::Agg(arbitrary))];
        match self.join(&ends, &Some(Val::Agg(vals)), pos) {
            Val::Agg(vals) => Ok(vals),
            _ => unreachable!("a join of aggregates is an aggregate"),
        }
    }

    /// The memory arrays after writing the cells of a value (`vals`: its flattened parts, in
    /// cell order; two per pointer) as bytes.
    pub(crate) fn write_bytes(&mut self, m: &MemLoc, cells: &[(u64, Cell)], vals: &[Term]) -> Vec<(Term, Term)> {
        let memory = self.tr.int_memory();
        let (mut mi, mut mb, mut mo, mut tags) = (memory.clone(), mem_base(), mem_off(), mem_tag());
        let mut it = vals.iter();
        let mut tag_stores = false;
        // the tags are written only where they are kept
        let tagged = self.tr.tagged_bytes;
        let tag = |tags: &mut Term, i: Term, t: Term| {
            if tagged {
                *tags = cell_set(tags, &m.b, &i, &t);
            }
        };
        for (off, cell) in cells {
            let o = add(&[m.o.clone(), int(*off as i64)]);
            let at = |i: u64| add(&[o.clone(), int(i as i64)]);
            match cell {
                Cell::Int(t) => {
                    let n = self.tr.layout().size(t).unwrap_or(1);
                    let x = it.next().cloned().unwrap_or_else(|| int(0));
                    for (i, byte) in to_bytes(&x, t, n, self.tr.sem()).iter().enumerate() {
                        mi = cell_set(&mi, &m.b, &at(i as u64), byte);
                        tag(&mut tags, at(i as u64), int(0));
                    }
                }
                Cell::Ptr => {
                    let (b, off) = (it.next().cloned().unwrap_or_else(|| int(0)), it.next().cloned().unwrap_or_else(|| int(0)));
                    mb = cell_set(&mb, &m.b, &o, &b);
                    mo = cell_set(&mo, &m.b, &o, &off);
                    for k in 0..self.tr.layout().pointer_size() {
                        tag(&mut tags, at(k), pointer_tag(k));
                    }
                    tag_stores = true;
                }
                Cell::Float(_) | Cell::Opaque(_) => {
                    let n = match cell {
                        Cell::Float(t) => {
                            it.next();
                            self.tr.layout().size(t).unwrap_or(1)
                        }
                        Cell::Opaque(n) => *n,
                        _ => 0,
                    };
                    for i in 0..n {
                        tag(&mut tags, at(i), int(FLOAT_TAG));
                    }
                    tag_stores = true;
                }
            }
        }
        if tag_stores {
            self.tag_bytes();
        }
        [(memory, mi), (mem_base(), mb), (mem_off(), mo), (mem_tag(), tags)].into_iter().filter(|(a, b)| a != b).collect()
    }
}

/// A bit-field in memory: `width` bits from bit `shift` of the bytes at `m` (whose type is the
/// bit-field's declared type), read and written as a value of type `ty`.
#[derive(Clone, Debug)]
pub(crate) struct BitField {
    pub m: MemLoc,
    pub shift: u32,
    pub width: u32,
    pub ty: CType,
}

impl BitField {
    /// The number of bytes that hold the bit-field.
    fn bytes(&self) -> u64 {
        u64::from(self.shift + self.width).div_ceil(8)
    }

    /// Those bytes as cells.
    fn byte_cells(&self) -> Vec<(u64, Cell)> {
        (0..self.bytes()).map(|i| (i, Cell::Int(CType::Int(IntKind::UChar)))).collect()
    }
}

/// The unsigned integer whose bytes, least significant first, are `bytes` (integers 0-255, or
/// bit-vectors of 8 bits).
fn combine(bytes: Vec<Term>, bitvector: bool) -> Term {
    if bitvector {
        return bytes.into_iter().reduce(|low, high| bv::bin(BvOp::Concat, &high, &low)).unwrap_or_else(|| int(0));
    }
    let terms: Vec<Term> = bytes.into_iter().enumerate().map(|(i, x)| mul(&[int_big(conv::pow2(8 * i as u32)), x])).collect();
    add(&terms)
}

/// The tag of byte `i` at offset `o` of the object `b`.
fn tag_at(b: &Term, o: &Term, i: u64) -> Term {
    cell_get(&mem_tag(), b, &add(&[o.clone(), int(i as i64)]))
}

/// The value of the integer type `t` whose `n` bytes make the unsigned integer `u`.
fn from_bytes(u: &Term, t: &CType, n: u64, sem: conv::Sem) -> Term {
    let bits = 8 * n as u32;
    if sem.bitvector {
        return conv::convert(u, &unsigned_of(t), t, sem);
    }
    match t.int_kind() {
        Some(IntKind::Bool) => conv::convert(u, &unsigned_of(t), t, sem),
        Some(k) if k.is_signed() => {
            let (half, whole) = (int_big(conv::pow2(bits - 1)), int_big(conv::pow2(bits)));
            ite(&le(&half, u), &sub(u, &whole), u)
        }
        _ => u.clone(),
    }
}

/// The `n` bytes (least significant first) of the value `x` of the integer type `t`, as
/// memory holds them.
fn to_bytes(x: &Term, t: &CType, n: u64, sem: conv::Sem) -> Vec<Term> {
    let u = conv::convert(x, t, &unsigned_of(t), sem);
    if sem.bitvector {
        return (0..n as u32).map(|i| byte_of(&u, i, false)).collect();
    }
    if n == 1 {
        return vec![u];
    }
    // floor division and a nonnegative remainder: the bytes of the two's complement of a
    // value of a signed type too
    (0..n as u32).map(|i| byte_of(x, i, false)).collect()
}

/// Byte `i` (least significant first) of the integer `x`: an 8-bit extract of a bit-vector, or
/// `x div 256^i mod 256` (without the `mod` where `x` is known to have no higher byte).
fn byte_of(x: &Term, i: u32, top: bool) -> Term {
    if let Sort::BitVec(_) = x.sort {
        return bv::app(BvOp::Extract(8 * i + 7, 8 * i), std::slice::from_ref(x));
    }
    let shifted = int_div(x, &int_big(conv::pow2(8 * i)));
    if top {
        shifted
    } else {
        modulo(&shifted, &int(256))
    }
}
