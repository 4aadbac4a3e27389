//! C types, the data model (sizes of the integer types), integer promotions and the usual
//! arithmetic conversions.

use num_bigint::BigInt;
use num_traits::{One, Zero};
use std::rc::Rc;

/// The sizes of C's types: ILP32 (int, long, pointers 4 bytes) or LP64 (long, pointers 8 bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum DataModel {
    /// 32-bit: int, long and pointers have 4 bytes.
    ILP32,
    /// 64-bit Unix: int has 4 bytes, long and pointers 8.
    #[default]
    LP64,
}

/// The integer types of C (with GCC's 128-bit integers). `char` is signed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum IntKind {
    /// `_Bool`.
    Bool,
    /// `char` (signed).
    Char,
    /// `signed char`.
    SChar,
    /// `unsigned char`.
    UChar,
    /// `short`.
    Short,
    /// `unsigned short`.
    UShort,
    /// `int`.
    Int,
    /// `unsigned int`.
    UInt,
    /// `long`.
    Long,
    /// `unsigned long`.
    ULong,
    /// `long long`.
    LongLong,
    /// `unsigned long long`.
    ULongLong,
    /// `__int128`.
    Int128,
    /// `unsigned __int128`.
    UInt128,
}

impl IntKind {
    /// Size in bytes.
    pub fn size(self, dm: DataModel) -> u64 {
        use IntKind::*;
        match self {
            Bool | Char | SChar | UChar => 1,
            Short | UShort => 2,
            Int | UInt => 4,
            Long | ULong => match dm {
                DataModel::ILP32 => 4,
                DataModel::LP64 => 8,
            },
            LongLong | ULongLong => 8,
            Int128 | UInt128 => 16,
        }
    }

    /// Width in bits.
    pub fn bits(self, dm: DataModel) -> u32 {
        if self == IntKind::Bool {
            1
        } else {
            (self.size(dm) * 8) as u32
        }
    }

    /// Whether the type is signed.
    pub fn is_signed(self) -> bool {
        use IntKind::*;
        matches!(self, Char | SChar | Short | Int | Long | LongLong | Int128)
    }

    /// The integer conversion rank (C11 6.3.1.1).
    pub fn rank(self) -> u8 {
        use IntKind::*;
        match self {
            Bool => 0,
            Char | SChar | UChar => 1,
            Short | UShort => 2,
            Int | UInt => 3,
            Long | ULong => 4,
            LongLong | ULongLong => 5,
            Int128 | UInt128 => 6,
        }
    }

    /// The unsigned type of the same rank.
    pub fn to_unsigned(self) -> IntKind {
        use IntKind::*;
        match self {
            Char | SChar => UChar,
            Short => UShort,
            Int => UInt,
            Long => ULong,
            LongLong => ULongLong,
            Int128 => UInt128,
            k => k,
        }
    }

    /// The smallest and largest value.
    pub fn range(self, dm: DataModel) -> (BigInt, BigInt) {
        if self == IntKind::Bool {
            return (BigInt::zero(), BigInt::one());
        }
        let n = self.bits(dm);
        if self.is_signed() {
            let half = BigInt::one() << (n - 1);
            (-half.clone(), half - 1)
        } else {
            (BigInt::zero(), (BigInt::one() << n) - 1)
        }
    }

    /// The C spelling.
    pub fn name(self) -> &'static str {
        use IntKind::*;
        match self {
            Bool => "_Bool",
            Char => "char",
            SChar => "signed char",
            UChar => "unsigned char",
            Short => "short",
            UShort => "unsigned short",
            Int => "int",
            UInt => "unsigned int",
            Long => "long",
            ULong => "unsigned long",
            LongLong => "long long",
            ULongLong => "unsigned long long",
            Int128 => "__int128",
            UInt128 => "unsigned __int128",
        }
    }
}

/// The floating-point types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatKind {
    /// `float`.
    Float,
    /// `double`.
    Double,
    /// `long double`.
    LongDouble,
}

impl FloatKind {
    /// The C spelling.
    pub fn name(self) -> &'static str {
        match self {
            FloatKind::Float => "float",
            FloatKind::Double => "double",
            FloatKind::LongDouble => "long double",
        }
    }
}

/// A function type.
#[derive(Clone, Debug, PartialEq)]
pub struct FuncType {
    /// The result type.
    pub ret: CType,
    /// Parameter types (adjusted: arrays and functions become pointers).
    pub params: Vec<CType>,
    /// Whether the parameter list ends with `...`.
    pub variadic: bool,
    /// Whether the parameter types are known (not `f()` in old style).
    pub prototyped: bool,
}

/// A C type (qualifiers are dropped).
#[derive(Clone, Debug, PartialEq)]
pub enum CType {
    /// `void`.
    Void,
    /// An integer type (enumerations are their underlying integer type).
    Int(IntKind),
    /// ACSL's mathematical `integer` (no overflow, no wrap-around).
    MathInt,
    /// A floating-point type.
    Float(FloatKind),
    /// A pointer to the given type.
    Pointer(Rc<CType>),
    /// An array with its length if known.
    Array(Rc<CType>, Option<u64>),
    /// A struct or union: the index of its record in the record table.
    Record(usize),
    /// A function.
    Func(Rc<FuncType>),
}

/// A field of a struct or union.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    /// The name (anonymous members have none).
    pub name: Option<String>,
    /// The type.
    pub ty: CType,
    /// The width of a bit-field.
    pub bit_width: Option<u64>,
}

/// A struct or union type.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// The tag, if any.
    pub tag: Option<String>,
    /// Whether this is a union.
    pub is_union: bool,
    /// The fields; `None` while the type is incomplete.
    pub fields: Option<Vec<Field>>,
}

impl CType {
    /// `int`.
    pub const INT: CType = CType::Int(IntKind::Int);

    /// Whether this is an integer type (including ACSL's `integer`).
    pub fn is_integer(&self) -> bool {
        matches!(self, CType::Int(_) | CType::MathInt)
    }

    /// Whether this is an arithmetic type.
    pub fn is_arith(&self) -> bool {
        matches!(self, CType::Int(_) | CType::MathInt | CType::Float(_))
    }

    /// Whether this is a scalar type (arithmetic or pointer).
    pub fn is_scalar(&self) -> bool {
        self.is_arith() || matches!(self, CType::Pointer(_))
    }

    /// The integer kind, if this is a C integer type.
    pub fn int_kind(&self) -> Option<IntKind> {
        match self {
            CType::Int(k) => Some(*k),
            _ => None,
        }
    }

    /// Whether this is a pointer type.
    pub fn is_pointer(&self) -> bool {
        matches!(self, CType::Pointer(_))
    }

    /// The function type this pointer type points to.
    pub fn pointed_function(&self) -> Option<Rc<FuncType>> {
        match self {
            CType::Pointer(t) => match &**t {
                CType::Func(f) => Some(f.clone()),
                _ => None,
            },
            _ => None,
        }
    }
}

/// The integer promotion of a type (C11 6.3.1.1); other types are returned unchanged.
pub fn promote(t: &CType) -> CType {
    match t {
        CType::Int(k) if k.rank() < IntKind::Int.rank() => CType::INT,
        t => t.clone(),
    }
}

/// The common type of the usual arithmetic conversions (C11 6.3.1.8) for two arithmetic types.
pub fn usual_arith(a: &CType, b: &CType, dm: DataModel) -> CType {
    match (a, b) {
        (CType::Float(x), CType::Float(y)) => {
            let r = |k: &FloatKind| match k {
                FloatKind::Float => 0,
                FloatKind::Double => 1,
                FloatKind::LongDouble => 2,
            };
            CType::Float(if r(x) >= r(y) { *x } else { *y })
        }
        (CType::Float(x), _) | (_, CType::Float(x)) => CType::Float(*x),
        (CType::MathInt, _) | (_, CType::MathInt) => CType::MathInt,
        _ => {
            let (CType::Int(x), CType::Int(y)) = (promote(a), promote(b)) else {
                return CType::INT;
            };
            CType::Int(common_int(x, y, dm))
        }
    }
}

fn common_int(x: IntKind, y: IntKind, dm: DataModel) -> IntKind {
    if x == y {
        return x;
    }
    if x.is_signed() == y.is_signed() {
        return if x.rank() >= y.rank() { x } else { y };
    }
    let (s, u) = if x.is_signed() { (x, y) } else { (y, x) };
    if u.rank() >= s.rank() {
        u
    } else if s.size(dm) > u.size(dm) {
        s
    } else {
        s.to_unsigned()
    }
}

/// Size and alignment of types (needs the record table for structs and unions).
pub struct Layout<'a> {
    /// The data model.
    pub dm: DataModel,
    /// All struct and union types.
    pub records: &'a [Record],
}

impl Layout<'_> {
    /// `sizeof`, or `None` for incomplete types, functions and bit-field records.
    pub fn size(&self, t: &CType) -> Option<u64> {
        Some(match t {
            CType::Void => 1,
            CType::Int(k) => k.size(self.dm),
            CType::MathInt => return None,
            CType::Float(FloatKind::Float) => 4,
            CType::Float(FloatKind::Double) => 8,
            CType::Float(FloatKind::LongDouble) => match self.dm {
                DataModel::ILP32 => 12,
                DataModel::LP64 => 16,
            },
            CType::Pointer(_) => self.pointer_size(),
            CType::Array(e, n) => self.size(e)?.checked_mul((*n)?)?,
            CType::Record(r) => self.record(*r)?.0,
            CType::Func(_) => return None,
        })
    }

    /// `_Alignof`.
    pub fn align(&self, t: &CType) -> Option<u64> {
        Some(match t {
            CType::Array(e, _) => self.align(e)?,
            CType::Record(r) => self.record(*r)?.1,
            CType::Float(FloatKind::LongDouble) => match self.dm {
                DataModel::ILP32 => 4,
                DataModel::LP64 => 16,
            },
            CType::Int(IntKind::LongLong | IntKind::ULongLong) | CType::Float(FloatKind::Double) if self.dm == DataModel::ILP32 => 4,
            t => self.size(t)?,
        })
    }

    /// Size in bytes of a pointer.
    pub fn pointer_size(&self) -> u64 {
        match self.dm {
            DataModel::ILP32 => 4,
            DataModel::LP64 => 8,
        }
    }

    /// The byte offset of member `k` of a record (`None` for bit-fields and incomplete types).
    pub fn field_offset(&self, r: usize, k: usize) -> Option<u64> {
        let rec = self.records.get(r)?;
        let fields = rec.fields.as_ref()?;
        if rec.is_union {
            return (k < fields.len()).then_some(0);
        }
        let mut off = 0u64;
        for (i, f) in fields.iter().enumerate() {
            if f.bit_width.is_some() {
                return None;
            }
            let (fs, fa) = match &f.ty {
                CType::Array(e, None) => (0, self.align(e)?),
                t => (self.size(t)?, self.align(t)?),
            };
            off = off.div_ceil(fa) * fa;
            if i == k {
                return Some(off);
            }
            off += fs;
        }
        None
    }

    /// Size and alignment of a record (System V layout, no bit-fields).
    fn record(&self, r: usize) -> Option<(u64, u64)> {
        let rec = self.records.get(r)?;
        let fields = rec.fields.as_ref()?;
        let (mut size, mut align) = (0u64, 1u64);
        for f in fields {
            if f.bit_width.is_some() {
                return None;
            }
            let (fs, fa) = match &f.ty {
                CType::Array(e, None) => (0, self.align(e)?),
                t => (self.size(t)?, self.align(t)?),
            };
            align = align.max(fa);
            if rec.is_union {
                size = size.max(fs);
            } else {
                size = size.div_ceil(fa) * fa + fs;
            }
        }
        Some((size.div_ceil(align) * align, align))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions() {
        let lp = DataModel::LP64;
        let il = DataModel::ILP32;
        let t = |k| CType::Int(k);
        assert_eq!(usual_arith(&t(IntKind::Char), &t(IntKind::UChar), lp), CType::INT);
        assert_eq!(usual_arith(&t(IntKind::Int), &t(IntKind::UInt), lp), t(IntKind::UInt));
        assert_eq!(usual_arith(&t(IntKind::Long), &t(IntKind::UInt), lp), t(IntKind::Long));
        assert_eq!(usual_arith(&t(IntKind::Long), &t(IntKind::UInt), il), t(IntKind::ULong));
        assert_eq!(IntKind::Long.range(il).1, BigInt::from(i32::MAX));
        assert_eq!(IntKind::Char.range(lp).0, BigInt::from(-128));
    }

    #[test]
    fn struct_layout() {
        let recs = vec![Record {
            tag: None,
            is_union: false,
            fields: Some(vec![
                Field { name: Some("c".into()), ty: CType::Int(IntKind::Char), bit_width: None },
                Field { name: Some("l".into()), ty: CType::Int(IntKind::Long), bit_width: None },
            ]),
        }];
        assert_eq!(Layout { dm: DataModel::LP64, records: &recs }.size(&CType::Record(0)), Some(16));
        assert_eq!(Layout { dm: DataModel::ILP32, records: &recs }.size(&CType::Record(0)), Some(8));
    }
}
