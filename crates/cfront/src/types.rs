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
    /// What GCC's attributes say about the layout.
    pub attributes: RecordAttributes,
}

/// GCC's attributes of a record that change its layout.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RecordAttributes {
    /// `packed`: no padding, every member at alignment 1.
    pub packed: bool,
    /// `aligned(N)`: the record's alignment is at least N.
    pub aligned: Option<u64>,
    /// An attribute whose layout is not modelled (`aligned` without argument, `packed` with
    /// bit-fields, an attribute of a member): the layout is unknown.
    pub unmodelled: Option<String>,
}

impl Record {
    /// Whether the record is `packed` and has bit-fields: GCC packs those across their units'
    /// boundaries, a layout not modelled.
    pub fn packs_bit_fields(&self) -> bool {
        self.attributes.packed && self.fields.iter().flatten().any(|f| f.bit_width.is_some())
    }
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
    /// `sizeof`, or `None` for incomplete types, functions and records of unknown layout.
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
            CType::Record(r) => self.record(*r)?.size,
            CType::Func(_) => return None,
        })
    }

    /// `_Alignof`.
    pub fn align(&self, t: &CType) -> Option<u64> {
        Some(match t {
            CType::Array(e, _) => self.align(e)?,
            CType::Record(r) => self.record(*r)?.align,
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
        let f = self.records.get(r)?.fields.as_ref()?.get(k)?;
        let bit = *self.record(r)?.bits.get(k)?;
        f.bit_width.is_none().then_some(bit / 8)
    }

    /// The bit offset of the bit-field `k` of a record from the record's start (`None` for
    /// other members and incomplete types).
    pub fn bit_field_offset(&self, r: usize, k: usize) -> Option<u64> {
        let f = self.records.get(r)?.fields.as_ref()?.get(k)?;
        let bit = *self.record(r)?.bits.get(k)?;
        f.bit_width.is_some().then_some(bit)
    }

    /// The layout of a record (System V, and GCC's `packed` and `aligned`): a bit-field goes at the next bit unless it would
    /// cross a boundary of its type's size, where it starts the next unit; a zero-width one
    /// ends the unit; unnamed bit-fields do not align the record.
    fn record(&self, r: usize) -> Option<RecordLayout> {
        let rec = self.records.get(r).filter(|rec| rec.attributes.unmodelled.is_none() && !rec.packs_bit_fields())?;
        let fields = rec.fields.as_ref()?;
        let packed = rec.attributes.packed;
        let (mut end, mut align, mut bits) = (0u64, 1u64, vec![]);
        for f in fields {
            let (fs, fa) = match &f.ty {
                CType::Array(e, None) => (0, self.align(e)?),
                t => (self.size(t)?, self.align(t)?),
            };
            let fa = if packed { 1 } else { fa };
            if f.name.is_some() || f.bit_width.is_none() {
                align = align.max(fa);
            }
            let unit = 8 * fs;
            let bit = match (rec.is_union, f.bit_width) {
                (true, _) => 0,
                (false, None | Some(0)) => end.div_ceil(8 * fa) * 8 * fa,
                (false, Some(w)) if end / unit != (end + w - 1) / unit => end.div_ceil(unit) * unit,
                (false, Some(_)) => end,
            };
            let width = f.bit_width.unwrap_or(unit);
            end = if rec.is_union { end.max(width) } else { bit + width };
            bits.push(bit);
        }
        let align = align.max(rec.attributes.aligned.unwrap_or(1));
        let size = end.div_ceil(8).div_ceil(align) * align;
        Some(RecordLayout { size, align, bits })
    }
}

/// Where a record's members go.
struct RecordLayout {
    size: u64,
    align: u64,
    /// The bit offset of each member.
    bits: Vec<u64>,
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
            attributes: RecordAttributes::default(),
            fields: Some(vec![
                Field { name: Some("c".into()), ty: CType::Int(IntKind::Char), bit_width: None },
                Field { name: Some("l".into()), ty: CType::Int(IntKind::Long), bit_width: None },
            ]),
        }];
        assert_eq!(Layout { dm: DataModel::LP64, records: &recs }.size(&CType::Record(0)), Some(16));
        assert_eq!(Layout { dm: DataModel::ILP32, records: &recs }.size(&CType::Record(0)), Some(8));
    }

    /// The sizes and bit offsets GCC gives on x86-64.
    #[test]
    fn bit_field_layout() {
        use IntKind::*;
        let field =
            |name: Option<&str>, k: IntKind, w: Option<u64>| Field { name: name.map(String::from), ty: CType::Int(k), bit_width: w };
        let record =
            |fields: Vec<Field>| Record { tag: None, is_union: false, fields: Some(fields), attributes: RecordAttributes::default() };
        let recs = vec![
            // struct { unsigned long a:3; unsigned b:3; long long c:40; unsigned d:32; _Bool e:1; }
            record(vec![
                field(Some("a"), ULong, Some(3)),
                field(Some("b"), UInt, Some(3)),
                field(Some("c"), LongLong, Some(40)),
                field(Some("d"), UInt, Some(32)),
                field(Some("e"), Bool, Some(1)),
            ]),
            // struct { char c; int x:20; }
            record(vec![field(Some("c"), Char, None), field(Some("x"), Int, Some(20))]),
            // struct { int a:3; int :0; int b:2; }
            record(vec![field(Some("a"), Int, Some(3)), field(None, Int, Some(0)), field(Some("b"), Int, Some(2))]),
            // struct { char a:4; char b:6; short c:9; char :7; }
            record(vec![
                field(Some("a"), Char, Some(4)),
                field(Some("b"), Char, Some(6)),
                field(Some("c"), Short, Some(9)),
                field(None, Long, Some(7)),
            ]),
        ];
        let l = Layout { dm: DataModel::LP64, records: &recs };
        let sizes: Vec<_> = (0..recs.len()).map(|r| l.size(&CType::Record(r))).collect();
        assert_eq!(sizes, [Some(16), Some(4), Some(8), Some(4)]);
        let bits = |r: usize| (0..recs[r].fields.as_ref().unwrap().len()).map(|k| l.bit_field_offset(r, k)).collect::<Vec<_>>();
        assert_eq!(bits(0), [Some(0), Some(3), Some(6), Some(64), Some(96)]);
        assert_eq!(bits(1), [None, Some(8)]);
        assert_eq!(bits(2), [Some(0), Some(32), Some(32)]);
        assert_eq!(bits(3), [Some(0), Some(8), Some(16), Some(25)]);
        assert_eq!(l.field_offset(1, 0), Some(0));
    }
}
