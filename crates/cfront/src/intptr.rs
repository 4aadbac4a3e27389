//! Conversions between integers and pointers. The model does not place objects at addresses:
//! an integer converts to the pointer with the null pointer's base, 0, and the integer as its
//! offset (equal integers give equal pointers, 0 gives the null pointer, and no other one
//! points into an object, since no object has base 0); such a pointer converts back to its
//! offset. Where an object is remains unknown: converting its address to an integer gives an
//! arbitrary value, and comparing it with an address made from an integer an arbitrary
//! answer, both marked as over-approximations.

use crate::conv;
use crate::func::{Fx, Val};
use crate::types::{CType, IntKind};
use ir::SourcePos;
use smt::build::{and, eq, int, ite, not, or};
use smt::Term;

/// The integer type of addresses (`uintptr_t`).
const UINTPTR: CType = CType::Int(IntKind::ULong);

impl Fx<'_> {
    /// The pointer made from the integer `v` of type `from`.
    pub fn integer_to_pointer(&mut self, v: &Term, from: &CType) -> Val {
        let sem = self.tr.sem();
        let address = conv::convert(&conv::convert(v, from, &UINTPTR, sem), &UINTPTR, &CType::MathInt, sem);
        self.note_integer_pointers(&address);
        Val::Ptr(int(0), address)
    }

    /// Notes that the program makes a pointer from the integer `address` (unless it is 0).
    pub fn note_integer_pointers(&mut self, address: &Term) {
        if !address.as_int().is_some_and(num_traits::Zero::is_zero) && !self.tr.integer_pointers {
            // pointer comparisons translate differently from now on: start over
            self.tr.integer_pointers = true;
            self.tr.new_marks = true;
        }
    }

    /// The integer of type `to` made from the pointer `(b, o)`.
    pub fn pointer_to_integer(&mut self, b: &Term, o: &Term, to: &CType, pos: &SourcePos) -> Val {
        let sem = self.tr.sem();
        let exact = conv::convert(&conv::convert(o, &CType::MathInt, &UINTPTR, sem), &UINTPTR, to, sem);
        if b.as_int().is_some_and(num_traits::Zero::is_zero) {
            return Val::Int(exact);
        }
        // two branches, so that the conversion of an address made from an integer stays exact
        let start = self.cur;
        self.assume(&eq(b, &int(0)), pos);
        let ends = vec![(self.cur, Val::Int(exact))];
        self.cur = start;
        self.assume(&not(&eq(b, &int(0))), pos);
        let unknown = self.nondet(to, pos, Some("conversion of the address of an object to an integer".into()));
        if self.tr.layout().size(to) >= self.tr.layout().size(&UINTPTR) {
            // no object is at address 0 (a narrower integer may keep only zero bits of it)
            self.assume(&not(&eq(&unknown, &conv::zero_of(&unknown.sort))), pos);
        }
        let ends = [ends, vec![(self.cur, Val::Int(unknown))]].concat();
        self.join(&ends, &Some(Val::Int(int(0))), pos)
    }

    /// `exact`, the comparison of the pointers `(b1, o1)` and `(b2, o2)` in the model, except
    /// where one is an address made from an integer and the other one of an object.
    pub fn address_comparison(&mut self, exact: Term, (b1, o1): (&Term, &Term), (b2, o2): (&Term, &Term), pos: &SourcePos) -> Term {
        if !self.tr.integer_pointers {
            return exact;
        }
        let from_integer = |b: &Term, o: &Term| and(&[eq(b, &int(0)), not(&eq(o, &int(0)))]);
        let unknown = and(&[not(&eq(b1, b2)), or(&[from_integer(b1, o1), from_integer(b2, o2)])]);
        let guess = self.nondet_bool(pos, "comparison of an address made from an integer with one of an object");
        ite(&unknown, &guess, &exact)
    }
}
