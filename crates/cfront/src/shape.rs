//! How C objects are represented by program variables. Scalars of integer type are variables
//! of sort Int (bit-vectors of their width under `--semantics bitvector`); structs are split into their members; arrays become SMT arrays indexed by the
//! flattened element index (an array of structs becomes a struct of arrays); pointers are
//! pairs of variables (base, offset). Objects whose address is taken live in memory (`memory`)
//! and are represented by the variable holding their base address. Floating-point scalars are
//! variables of a floating-point sort under bit-vector semantics (`float`, `double`) and
//! otherwise not represented (their values are opaque). Unions and structs with bit-fields live in
//! memory (`Tr::members_share_bytes`); their values (arguments, results) are held byte by byte,
//! as memory holds them.

use crate::translate::Tr;
use crate::types::{CType, IntKind};

/// The largest union or struct with bit-fields whose values are held in variables, byte by byte.
const MAX_BYTES_IN_REGISTERS: u64 = 64;
use smt::build::int;
use smt::{Sort, Term};

/// The representation of an object of some type.
#[derive(Clone, Debug)]
pub(crate) enum Shape {
    /// An integer of the given type: a variable of sort Int, or (below an array) an SMT array
    /// `Int -> Int`.
    Int(Term, CType),
    /// A floating-point value: a variable where floats are modelled (outside arrays),
    /// otherwise `None` (opaque, not stored).
    Float(Option<Term>),
    /// A pointer: its base and offset variables (SMT arrays below an array).
    Ptr(Term, Term),
    /// An object in memory (its address is taken): the variable holding its base address.
    Mem(Term),
    /// A struct: its members in declaration order.
    Struct(Vec<Shape>),
    /// An array: its number of elements (a literal, or a variable for a variable-length
    /// array) and the shape of an element.
    Array(Term, Box<Shape>),
    /// An object this translation cannot represent, and why.
    Unsupported(String),
}

impl Shape {
    /// The program variables of the object (integers and SMT arrays), in member order.
    pub fn leaves(&self) -> Vec<Term> {
        let mut out = vec![];
        self.collect(&mut out);
        out
    }

    fn collect(&self, out: &mut Vec<Term>) {
        match self {
            Shape::Int(t, _) => out.push(t.clone()),
            Shape::Ptr(b, o) => {
                out.push(b.clone());
                out.push(o.clone());
            }
            Shape::Mem(b) | Shape::Float(Some(b)) => out.push(b.clone()),
            Shape::Struct(fs) => fs.iter().for_each(|f| f.collect(out)),
            Shape::Array(_, e) => e.collect(out),
            Shape::Float(None) | Shape::Unsupported(_) => {}
        }
    }

    /// The value the object's variables hold (scalars, pointers, modelled floats, structs).
    pub fn value(&self) -> Option<crate::func::Val> {
        use crate::func::Val;
        match self {
            Shape::Int(t, _) => Some(Val::Int(t.clone())),
            Shape::Ptr(b, o) => Some(Val::Ptr(b.clone(), o.clone())),
            Shape::Float(v) => Some(Val::Float(v.clone())),
            Shape::Struct(_) => Some(Val::Agg(self.leaves())),
            _ => None,
        }
    }

    /// The first reason the object cannot be represented, if any.
    pub fn unsupported(&self) -> Option<String> {
        match self {
            Shape::Unsupported(why) => Some(why.clone()),
            Shape::Struct(fs) => fs.iter().find_map(|f| f.unsupported()),
            Shape::Array(_, e) => e.unsupported(),
            _ => None,
        }
    }

    /// Whether the object contains an array.
    pub fn has_array(&self) -> bool {
        match self {
            Shape::Array(..) => true,
            Shape::Struct(fs) => fs.iter().any(|f| f.has_array()),
            _ => false,
        }
    }

    /// The leaves with their types (pointer components have a pointer type).
    pub fn typed_leaves(&self) -> Vec<(Term, CType)> {
        match self {
            Shape::Int(t, ty) => vec![(t.clone(), ty.clone())],
            Shape::Ptr(b, o) => {
                vec![(b.clone(), CType::Pointer(std::rc::Rc::new(CType::Void))), (o.clone(), CType::Pointer(std::rc::Rc::new(CType::Void)))]
            }
            Shape::Mem(b) => vec![(b.clone(), CType::Pointer(std::rc::Rc::new(CType::Void)))],
            Shape::Struct(fs) => fs.iter().flat_map(|f| f.typed_leaves()).collect(),
            Shape::Array(_, e) => e.typed_leaves(),
            Shape::Float(Some(t)) => crate::float::type_of(&t.sort).map(|ty| (t.clone(), ty)).into_iter().collect(),
            Shape::Float(None) | Shape::Unsupported(_) => vec![],
        }
    }
}

impl Tr {
    /// The shape of an object of type `ty` whose variables are named after `name`; `depth` is
    /// the number of enclosing arrays. A variable-length outermost array gets the length
    /// variable `len`.
    pub fn shape(&self, name: &str, ty: &CType, depth: usize, len: Option<&Term>) -> Shape {
        match ty {
            CType::Int(_) => {
                let value = self.sem().sort(ty);
                let sort = if depth > 0 { Sort::array(Sort::Int, value) } else { value };
                Shape::Int(Term::var(name, sort), ty.clone())
            }
            // floats below arrays stay opaque
            CType::Float(_) => Shape::Float(self.sem().float_sort(ty).filter(|_| depth == 0).map(|s| Term::var(name, s))),
            CType::Array(elem, n) => {
                let n = match (n, len) {
                    (Some(n), _) => int(*n as i64),
                    (None, Some(l)) if depth == 0 => l.clone(),
                    _ => return Shape::Unsupported("array of unknown size".into()),
                };
                Shape::Array(n, Box::new(self.shape(name, elem, depth + 1, None)))
            }
            CType::Record(r) => {
                let Some(rec) = self.records.get(*r) else { return Shape::Unsupported("unknown struct".into()) };
                let Some(fields) = &rec.fields else {
                    return Shape::Unsupported("incomplete struct type".into());
                };
                if self.is_bytes_record(*r) {
                    // its value is its bytes, as in memory (its objects live there)
                    return match self.layout().size(ty).filter(|&n| n <= MAX_BYTES_IN_REGISTERS) {
                        Some(n) => {
                            let byte = CType::Int(IntKind::UChar);
                            Shape::Struct((0..n).map(|i| self.shape(&format!("{name}.#b{i}"), &byte, depth, None)).collect())
                        }
                        None => Shape::Unsupported("union or struct with bit-fields of more than 64 bytes".into()),
                    };
                }
                let members = fields
                    .iter()
                    .enumerate()
                    .map(|(k, f)| {
                        let fname = match &f.name {
                            Some(n) => format!("{name}.{n}"),
                            None => format!("{name}.#{k}"),
                        };
                        self.shape(&fname, &f.ty, depth, None)
                    })
                    .collect();
                Shape::Struct(members)
            }
            CType::Pointer(_) => {
                let sort = if depth > 0 { Sort::array(Sort::Int, Sort::Int) } else { Sort::Int };
                Shape::Ptr(Term::var(name, sort.clone()), Term::var(&format!("{name}#o"), sort))
            }
            CType::MathInt => Shape::Int(Term::var(name, Sort::Int), ty.clone()),
            CType::Void | CType::Func(_) => Shape::Unsupported("object of function or void type".into()),
        }
    }
}
