//! String literals: each distinct one is a read-only `char` array of static storage in memory,
//! with its terminating zero. Their bases lie just below the functions' (`fnptr`) and above
//! the stack's, so that a write can tell them (a write into a literal is a `valid-deref`
//! violation).

use crate::func::{Fx, Val};
use crate::memory::{cell_set, length, valid};
use crate::translate::Tr;
use crate::types::{CType, IntKind};
use ir::{SourcePos, Stmt};
use smt::build::{and, bool_lit, int, le, not, store};
use smt::Term;

impl Tr {
    /// The base of the literal with these bytes (without the terminating zero). A literal not
    /// seen before repeats the translation (bases and the stack's first base depend on them).
    fn literal_base(&mut self, bytes: &[u8]) -> i64 {
        if self.literals.insert(bytes.to_vec()) {
            self.new_marks = true;
        }
        self.first_literal_base() - self.literals.iter().take_while(|l| l.as_slice() < bytes).count() as i64
    }

    /// The highest base of a literal.
    fn first_literal_base(&self) -> i64 {
        -1 - self.addressed_functions.len() as i64
    }

    /// Whether the object with base `b` is not a literal (it may be written).
    pub fn writable(&self, b: &Term) -> Term {
        if self.literals.is_empty() {
            return smt::build::tt();
        }
        let lowest = self.first_literal_base() + 1 - self.literals.len() as i64;
        not(&and(&[le(&int(lowest), b), le(b, &int(self.first_literal_base()))]))
    }
}

impl Fx<'_> {
    /// The pointer to the first character of the literal `bytes`.
    pub fn string_literal(&mut self, bytes: &[u8]) -> Val {
        self.use_memory();
        Val::Ptr(int(self.tr.literal_base(bytes)), int(0))
    }

    /// Makes the literals live objects holding their characters (in the initialization).
    pub fn init_literals(&mut self, pos: &SourcePos) {
        let sem = self.tr.sem();
        let char_ty = CType::Int(IntKind::Char);
        for bytes in self.tr.literals.clone() {
            let b = int(self.tr.literal_base(&bytes));
            let memory = self.tr.int_memory();
            let mut cells = memory.clone();
            for (k, &byte) in bytes.iter().chain(&[0]).enumerate() {
                let c = match (self.tr.bytes, sem.bitvector) {
                    (true, true) => smt::bv::lit(&byte.into(), 8),
                    (true, false) => int(byte.into()),
                    // typed memory: the byte as a `char` (signed or not, as the data model says)
                    _ => {
                        let uchar = CType::Int(IntKind::UChar);
                        let c = crate::conv::convert(&sem.lit(&byte.into(), &uchar), &uchar, &char_ty, sem);
                        crate::conv::convert(&c, &char_ty, &CType::MathInt, sem)
                    }
                };
                cells = cell_set(&cells, &b, &int(k as i64), &c);
            }
            let size = int(bytes.len() as i64 + 1);
            let updates = vec![(valid(), store(&valid(), &b, &bool_lit(true))), (length(), store(&length(), &b, &size)), (memory, cells)];
            self.emit(Stmt::Assign(updates), pos, None);
        }
    }
}
