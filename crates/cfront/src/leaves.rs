//! A struct value in its two forms: as variables hold it (one term per leaf of its shape, an
//! array member as one SMT array per leaf of its element) and as memory holds it (one term per
//! value of its cells, array elements one by one). Copies between memory and variables go
//! from one form to the other.

use crate::translate::Tr;
use crate::types::CType;
use smt::build::{const_array, select, store};
use smt::{Sort, Term};

/// A leaf of a shape: the positions of its values among the cell values (by flattened element
/// index for a leaf below an array).
struct Leaf {
    positions: Vec<usize>,
    below_array: bool,
}

impl Tr {
    /// The leaves of an object of type `ty` in the order of its shape's leaves, their values
    /// numbered from `next` in the order of its cells (see `Fx::cells`).
    fn leaf_positions(&self, ty: &CType, below_array: bool, next: &mut usize, out: &mut Vec<Leaf>) {
        let scalar = |next: &mut usize, out: &mut Vec<Leaf>| {
            out.push(Leaf { positions: vec![*next], below_array });
            *next += 1;
        };
        match ty {
            CType::Int(_) => scalar(next, out),
            CType::Pointer(_) => {
                scalar(next, out);
                scalar(next, out);
            }
            // a modelled float has a cell value, and a variable outside arrays
            CType::Float(_) if self.sem().float_sort(ty).is_some() => {
                if below_array {
                    *next += 1;
                } else {
                    scalar(next, out);
                }
            }
            CType::Record(r) if self.is_bytes_record(*r) => {
                for _ in 0..self.layout().size(ty).unwrap_or(0) {
                    scalar(next, out);
                }
            }
            CType::Record(r) => {
                let fields = self.records.get(*r).and_then(|rec| rec.fields.clone()).unwrap_or_default();
                for f in &fields {
                    self.leaf_positions(&f.ty, below_array, next, out);
                }
            }
            CType::Array(e, Some(n)) => {
                // leaf j of the array: leaf j of each element, in element order
                let mut leaves: Vec<Leaf> = vec![];
                for i in 0..*n {
                    let mut element = vec![];
                    self.leaf_positions(e, true, next, &mut element);
                    if i == 0 {
                        leaves = element;
                    } else {
                        leaves.iter_mut().zip(element).for_each(|(l, el)| l.positions.extend(el.positions));
                    }
                }
                out.extend(leaves);
            }
            _ => {}
        }
    }

    /// The leaves of `ty`, and the number of its cell values.
    fn leaves_of(&self, ty: &CType) -> (Vec<Leaf>, usize) {
        let (mut next, mut leaves) = (0, vec![]);
        self.leaf_positions(ty, false, &mut next, &mut leaves);
        (leaves, next)
    }

    /// The value of a record as variables hold it, from its cell values (`None`: they do not
    /// match its type).
    pub(crate) fn cells_to_leaves(&self, ty: &CType, cells: &[Term]) -> Option<Vec<Term>> {
        let (leaves, n) = self.leaves_of(ty);
        if n != cells.len() {
            return None;
        }
        leaves
            .iter()
            .map(|l| match (l.below_array, l.positions.as_slice()) {
                (false, [p]) => Some(cells[*p].clone()),
                (true, [first, ..]) => {
                    let elem = cells[*first].sort.clone();
                    let empty = const_array(&Sort::array(Sort::Int, elem.clone()), &crate::conv::zero_of(&elem));
                    Some(l.positions.iter().enumerate().fold(empty, |a, (i, p)| store(&a, &smt::build::int(i as i64), &cells[*p])))
                }
                _ => None,
            })
            .collect()
    }

    /// The cell values of a record from its value as variables hold it (`None`: it does not
    /// match its type). A cell without a variable (a float below an array) gets a placeholder:
    /// such cells are not stored.
    pub(crate) fn leaves_to_cells(&self, ty: &CType, values: &[Term]) -> Option<Vec<Term>> {
        let (leaves, n) = self.leaves_of(ty);
        if leaves.len() != values.len() {
            return None;
        }
        let mut cells = vec![smt::build::int(0); n];
        for (l, v) in leaves.iter().zip(values) {
            match l.below_array {
                false => cells[*l.positions.first()?] = v.clone(),
                true => {
                    for (i, p) in l.positions.iter().enumerate() {
                        cells[*p] = select(v, &smt::build::int(i as i64));
                    }
                }
            }
        }
        Some(cells)
    }
}
