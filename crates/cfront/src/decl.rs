//! Declarations: declaration specifiers and declarators to C types, struct/union/enum
//! definitions, typedefs, and declarations at file scope.

use crate::error::Result;
use crate::preprocess::{INT128, UINT128};
use crate::tast::{Expr, ExprKind};
use crate::translate::{declarator_name, FuncInfo, Ordinary, StaticInit, Tag, Tr};
use crate::types::{CType, Field, FloatKind, FuncType, IntKind, Record, RecordAttributes};
use lang_c::ast;
use lang_c::span::{Node, Span};
use num_bigint::BigInt;
use num_traits::{ToPrimitive, Zero};
use std::rc::Rc;

/// Names and types of a function's parameters.
pub(crate) type Params = Vec<(Option<String>, CType)>;

/// The specifiers of a declaration.
#[derive(Clone, Debug)]
pub(crate) struct DeclSpec {
    /// The base type.
    pub ty: CType,
    /// `typedef`.
    pub typedef: bool,
    /// `extern`.
    pub is_extern: bool,
    /// `static`.
    pub is_static: bool,
}

/// The attributes of a declaration that change its type.
#[derive(Default)]
struct TypeAttributes {
    /// The attributes that change the layout of a record (`packed`, `aligned`).
    layout: RecordAttributes,
    /// The name of the first of them.
    layout_name: Option<String>,
    /// The size in bits of the integer type a `mode` says, and where it is.
    mode: Option<(u32, Span)>,
}

impl Tr {
    /// The specifiers of a declaration.
    pub fn decl_spec(&mut self, specs: &[Node<ast::DeclarationSpecifier>], span: Span) -> Result<DeclSpec> {
        let mut tss = Vec::new();
        let (mut typedef, mut is_extern, mut is_static) = (false, false, false);
        let mut attributes = TypeAttributes::default();
        for s in specs {
            match &s.node {
                ast::DeclarationSpecifier::StorageClass(sc) => match sc.node {
                    ast::StorageClassSpecifier::Typedef => typedef = true,
                    ast::StorageClassSpecifier::Extern => is_extern = true,
                    ast::StorageClassSpecifier::Static => is_static = true,
                    ast::StorageClassSpecifier::ThreadLocal => {
                        return Err(self.unsupported(sc.span, "_Thread_local"));
                    }
                    _ => {}
                },
                ast::DeclarationSpecifier::TypeSpecifier(t) => tss.push(t),
                ast::DeclarationSpecifier::TypeQualifier(q) => self.qualifier(q)?,
                ast::DeclarationSpecifier::Extension(exts) => self.type_attributes(exts, &mut attributes)?,
                _ => {}
            }
        }
        let ty = self.type_specifiers(&tss, span)?;
        let ty = self.with_attributes(ty, attributes, &tss, span)?;
        Ok(DeclSpec { ty, typedef, is_extern, is_static })
    }

    /// The attributes among `exts` that change a type: those that change the layout of a
    /// record they apply to (`packed`, `aligned`), and the size of an integer type (`mode`);
    /// `vector_size` and modes of other types are unsupported.
    fn type_attributes(&mut self, exts: &[Node<ast::Extension>], out: &mut TypeAttributes) -> Result<()> {
        for e in exts {
            let ast::Extension::Attribute(a) = &e.node else { continue };
            let name = a.name.node.trim_matches('_');
            match name {
                "packed" | "aligned" => {
                    out.layout_name.get_or_insert_with(|| name.to_string());
                    if name == "packed" {
                        out.layout.packed = true;
                    } else {
                        match self.alignment_argument(a)? {
                            Some(n) => out.layout.aligned = Some(out.layout.aligned.unwrap_or(1).max(n)),
                            None => _ = out.layout.unmodelled.get_or_insert_with(|| name.to_string()),
                        }
                    }
                }
                "mode" => {
                    let mode = match a.arguments.first().map(|x| &x.node) {
                        Some(ast::Expression::Identifier(id)) => id.node.name.trim_matches('_').to_string(),
                        _ => String::new(),
                    };
                    let bits = match mode.as_str() {
                        "QI" | "byte" => 8,
                        "HI" => 16,
                        "SI" => 32,
                        "DI" => 64,
                        "TI" => 128,
                        "word" | "pointer" => 8 * self.layout().pointer_size() as u32,
                        _ => return Err(self.unsupported(e.span, format!("attribute `mode({mode})`"))),
                    };
                    out.mode = Some((bits, e.span));
                }
                "vector_size" => return Err(self.unsupported(e.span, "attribute `vector_size`")),
                _ => {}
            }
        }
        Ok(())
    }

    /// The alignment `aligned(N)` asks for (`None`: without an argument, the target's largest,
    /// or not a constant power of two).
    fn alignment_argument(&mut self, a: &ast::Attribute) -> Result<Option<u64>> {
        let [arg] = a.arguments.as_slice() else { return Ok(None) };
        let e = self.expr(arg)?;
        Ok(self.const_int(&e).and_then(|v| v.to_u64()).filter(|n| n.is_power_of_two()))
    }

    /// `ty` (of the type specifiers `tss`) with the attributes that change it: an integer type
    /// of the size a `mode` says (its signedness kept); the layout attributes of a record the declaration defines apply to
    /// it, those of another record (a typedef's new alignment) leave its layout unknown (on
    /// other types such an attribute does not change what the translation represents).
    fn with_attributes(&mut self, ty: CType, attributes: TypeAttributes, tss: &[&Node<ast::TypeSpecifier>], span: Span) -> Result<CType> {
        if attributes.layout.packed && tss.iter().any(|t| matches!(t.node, ast::TypeSpecifier::Enum(_))) {
            return Err(self.unsupported(span, "attribute `packed` of an enumeration (it changes its size)"));
        }
        let defines_record = tss.iter().any(|t| matches!(&t.node, ast::TypeSpecifier::Struct(s) if s.node.declarations.is_some()));
        if let (Some(a), CType::Record(r)) = (attributes.layout_name, &ty) {
            if let Some(rec) = self.records.get_mut(*r) {
                let old = &mut rec.attributes;
                if defines_record {
                    old.packed |= attributes.layout.packed;
                    old.aligned = old.aligned.max(attributes.layout.aligned);
                    old.unmodelled = old.unmodelled.take().or(attributes.layout.unmodelled);
                } else {
                    old.unmodelled.get_or_insert(a);
                }
            }
        }
        let Some((bits, span)) = attributes.mode else { return Ok(ty) };
        let CType::Int(k) = ty else { return Err(self.unsupported(span, "attribute `mode` of a type that is not an integer type")) };
        let dm = self.dm();
        let sized = [IntKind::SChar, IntKind::Short, IntKind::Int, IntKind::LongLong, IntKind::Int128]
            .into_iter()
            .find(|s| s.bits(dm) == bits)
            .ok_or_else(|| self.unsupported(span, format!("attribute `mode` of {bits} bits")))?;
        Ok(CType::Int(if k.is_signed() { sized } else { sized.to_unsigned() }))
    }

    fn qualifier(&self, q: &Node<ast::TypeQualifier>) -> Result<()> {
        if q.node == ast::TypeQualifier::Atomic {
            return Err(self.unsupported(q.span, "_Atomic"));
        }
        Ok(())
    }

    /// The type of a specifier-qualifier list (in type names and struct fields).
    pub fn spec_qual_type(&mut self, specs: &[Node<ast::SpecifierQualifier>], span: Span) -> Result<CType> {
        let mut tss = Vec::new();
        let mut attributes = TypeAttributes::default();
        for s in specs {
            match &s.node {
                ast::SpecifierQualifier::TypeSpecifier(t) => tss.push(t),
                ast::SpecifierQualifier::TypeQualifier(q) => self.qualifier(q)?,
                ast::SpecifierQualifier::Extension(exts) => self.type_attributes(exts, &mut attributes)?,
            }
        }
        let ty = self.type_specifiers(&tss, span)?;
        self.with_attributes(ty, attributes, &tss, span)
    }

    fn type_specifiers(&mut self, tss: &[&Node<ast::TypeSpecifier>], span: Span) -> Result<CType> {
        use ast::TypeSpecifier as T;
        let (mut longs, mut short, mut signed, mut unsigned, mut char) = (0, false, false, false, false);
        let (mut float, mut double, mut boolean, mut void) = (false, false, false, false);
        let mut other: Option<CType> = None;
        for t in tss {
            match &t.node {
                T::Void => void = true,
                T::Char => char = true,
                T::Short => short = true,
                T::Int => {}
                T::Long => longs += 1,
                T::Float => float = true,
                T::Double => double = true,
                T::Signed => signed = true,
                T::Unsigned => unsigned = true,
                T::Bool => boolean = true,
                T::Complex => return Err(self.unsupported(t.span, "_Complex")),
                T::Atomic(_) => return Err(self.unsupported(t.span, "_Atomic")),
                T::Struct(s) => other = Some(self.struct_type(s)?),
                T::Enum(e) => other = Some(self.enum_type(e)?),
                T::TypedefName(id) => {
                    let name = id.node.name.as_str();
                    other = Some(if name == "__builtin_va_list" {
                        CType::Pointer(Rc::new(CType::Void))
                    } else if name == INT128 {
                        CType::Int(IntKind::Int128)
                    } else if name == UINT128 {
                        CType::Int(IntKind::UInt128)
                    } else {
                        match self.lookup(name) {
                            Some(Ordinary::Typedef(t)) => t.clone(),
                            _ => return Err(self.error(id.span, format!("unknown type name `{name}`"))),
                        }
                    });
                }
                T::TypeOf(to) => {
                    other = Some(match &to.node {
                        ast::TypeOf::Type(tn) => self.type_name(tn)?,
                        ast::TypeOf::Expression(e) => self.expr(e)?.ty,
                    })
                }
                T::TS18661Float(f) => {
                    other = Some(CType::Float(if f.width <= 32 {
                        FloatKind::Float
                    } else if f.width <= 64 {
                        FloatKind::Double
                    } else {
                        FloatKind::LongDouble
                    }))
                }
            }
        }
        if longs > 2 {
            return Err(self.error(span, "`long long long` is too long"));
        }
        if let Some(t) = other {
            // `unsigned` with a 128-bit typedef (normalized `unsigned __int128`)
            if let (true, CType::Int(k)) = (unsigned, &t) {
                return Ok(CType::Int(k.to_unsigned()));
            }
            return Ok(t);
        }
        if void {
            return Ok(CType::Void);
        }
        if boolean {
            return Ok(CType::Int(IntKind::Bool));
        }
        if float {
            return Ok(CType::Float(FloatKind::Float));
        }
        if double {
            return Ok(CType::Float(if longs > 0 { FloatKind::LongDouble } else { FloatKind::Double }));
        }
        let k = if char {
            if unsigned {
                IntKind::UChar
            } else if signed {
                IntKind::SChar
            } else {
                IntKind::Char
            }
        } else if short {
            IntKind::Short
        } else if longs == 1 {
            IntKind::Long
        } else if longs >= 2 {
            IntKind::LongLong
        } else {
            IntKind::Int
        };
        Ok(CType::Int(if unsigned { k.to_unsigned() } else { k }))
    }

    /// A struct or union specifier: declares or refers to a record.
    fn struct_type(&mut self, s: &Node<ast::StructType>) -> Result<CType> {
        let is_union = s.node.kind.node == ast::StructKind::Union;
        let tag = s.node.identifier.as_ref().map(|i| i.node.name.clone());
        let existing = |tr: &Tr, innermost: bool| -> Option<usize> {
            let t = tag.as_ref()?;
            let found = if innermost { tr.scopes.last().and_then(|sc| sc.tags.get(t)) } else { tr.lookup_tag(t) };
            match found {
                Some(Tag::Record(r)) => Some(*r),
                _ => None,
            }
        };
        let Some(decls) = &s.node.declarations else {
            if let Some(r) = existing(self, false) {
                return Ok(CType::Record(r));
            }
            return Ok(CType::Record(self.new_record(tag, is_union)));
        };
        let r = match existing(self, true) {
            Some(r) if self.records[r].fields.is_none() => r,
            _ => self.new_record(tag, is_union),
        };
        let mut fields = Vec::new();
        for d in decls {
            let ast::StructDeclaration::Field(f) = &d.node else { continue };
            let base = self.spec_qual_type(&f.node.specifiers, f.span)?;
            // an attribute of a member that changes its placement changes the record's layout
            let member_attributes = f.node.specifiers.iter().filter_map(|s| match &s.node {
                ast::SpecifierQualifier::Extension(exts) => Some(exts.as_slice()),
                _ => None,
            });
            let declarator_attributes =
                f.node.declarators.iter().filter_map(|sd| Some(sd.node.declarator.as_ref()?.node.extensions.as_slice()));
            let mut attributes = TypeAttributes::default();
            for exts in member_attributes.chain(declarator_attributes) {
                self.type_attributes(exts, &mut attributes)?;
            }
            if let Some(a) = attributes.layout_name {
                // the placement of one member is not modelled
                self.records[r].attributes.unmodelled.get_or_insert(a);
            }
            if f.node.declarators.is_empty() {
                // anonymous struct/union member
                fields.push(Field { name: None, ty: base.clone(), bit_width: None });
            }
            for sd in &f.node.declarators {
                let (name, ty) = match &sd.node.declarator {
                    Some(d) => self.derive(base.clone(), d)?,
                    None => (None, base.clone()),
                };
                let bit_width = match &sd.node.bit_width {
                    Some(w) => {
                        let e = self.expr(w)?;
                        let width = self
                            .const_int(&e)
                            .and_then(|v| v.to_u64())
                            .ok_or_else(|| self.error(w.span, "bit-field width is not a nonnegative constant"))?;
                        let bits = match &ty {
                            CType::Int(k) => k.bits(self.dm()),
                            _ => return Err(self.error(w.span, "bit-field of a type that is not an integer type")),
                        };
                        if width > u64::from(bits) || (width == 0 && name.is_some()) {
                            return Err(self.error(w.span, format!("bit-field width {width} is not allowed for its type")));
                        }
                        Some(width)
                    }
                    None => None,
                };
                fields.push(Field { name, ty, bit_width });
            }
        }
        self.records[r].fields = Some(fields);
        Ok(CType::Record(r))
    }

    fn new_record(&mut self, tag: Option<String>, is_union: bool) -> usize {
        self.records.push(Record { tag: tag.clone(), is_union, fields: None, attributes: RecordAttributes::default() });
        let r = self.records.len() - 1;
        if let (Some(t), Some(sc)) = (tag, self.scopes.last_mut()) {
            sc.tags.insert(t, Tag::Record(r));
        }
        r
    }

    /// An enum specifier: declares its constants; the type is GCC's underlying type.
    fn enum_type(&mut self, e: &Node<ast::EnumType>) -> Result<CType> {
        let tag = e.node.identifier.as_ref().map(|i| i.node.name.clone());
        if e.node.enumerators.is_empty() {
            if let Some(Tag::Enum(t)) = tag.as_ref().and_then(|t| self.lookup_tag(t)) {
                return Ok(t.clone());
            }
            return Ok(CType::Int(IntKind::UInt));
        }
        let mut next = BigInt::zero();
        let mut negative = false;
        let mut big = false;
        for en in &e.node.enumerators {
            if let Some(x) = &en.node.expression {
                let v = self.expr(x)?;
                next = self.const_int(&v).ok_or_else(|| self.error(x.span, "enumeration value is not a constant"))?;
            }
            negative |= next < BigInt::zero();
            big |= next > BigInt::from(i32::MAX) || next < BigInt::from(i32::MIN);
            self.declare(&en.node.identifier.node.name, Ordinary::Const(next.clone()));
            next += 1;
        }
        if big {
            return Err(self.unsupported(e.span, "enumeration constant outside the range of int"));
        }
        let ty = CType::Int(if negative { IntKind::Int } else { IntKind::UInt });
        if let (Some(t), Some(sc)) = (tag, self.scopes.last_mut()) {
            sc.tags.insert(t, Tag::Enum(ty.clone()));
        }
        Ok(ty)
    }

    /// The name and type a declarator declares, given the base type.
    pub fn derive(&mut self, base: CType, d: &Node<ast::Declarator>) -> Result<(Option<String>, CType)> {
        let mut attributes = TypeAttributes::default();
        self.type_attributes(&d.node.extensions, &mut attributes)?;
        let mut ty = self.with_attributes(base, attributes, &[], d.span)?;
        // pointers (prefix) bind loosest and come first in lang-c's list; the postfix array and
        // function declarators apply from the innermost (last) outward
        let (prefix, postfix): (Vec<_>, Vec<_>) =
            d.node.derived.iter().partition(|dd| matches!(dd.node, ast::DerivedDeclarator::Pointer(_) | ast::DerivedDeclarator::Block(_)));
        for dd in prefix.into_iter().chain(postfix.into_iter().rev()) {
            ty = match &dd.node {
                ast::DerivedDeclarator::Pointer(_) => CType::Pointer(Rc::new(ty)),
                ast::DerivedDeclarator::Array(a) => {
                    let len = match &a.node.size {
                        ast::ArraySize::VariableExpression(e) | ast::ArraySize::StaticExpression(e) => {
                            let te = self.expr(e)?;
                            match self.const_int(&te) {
                                Some(v) if v < BigInt::zero() => return Err(self.unsupported(e.span, "array of negative size")),
                                Some(v) => Some(v.to_u64().ok_or_else(|| self.unsupported(e.span, "array too large"))?),
                                None => None,
                            }
                        }
                        _ => None,
                    };
                    CType::Array(Rc::new(ty), len)
                }
                ast::DerivedDeclarator::Function(f) => {
                    let mut params = Vec::new();
                    self.scopes.push(Default::default());
                    let r = self.param_types(&f.node.parameters);
                    self.scopes.pop();
                    for (_, t) in r? {
                        params.push(t);
                    }
                    CType::Func(Rc::new(FuncType { ret: ty, params, variadic: f.node.ellipsis == ast::Ellipsis::Some, prototyped: true }))
                }
                ast::DerivedDeclarator::KRFunction(_) => {
                    CType::Func(Rc::new(FuncType { ret: ty, params: vec![], variadic: false, prototyped: false }))
                }
                ast::DerivedDeclarator::Block(_) => return Err(self.unsupported(dd.span, "block pointer")),
            };
        }
        match &d.node.kind.node {
            ast::DeclaratorKind::Identifier(id) => Ok((Some(id.node.name.clone()), ty)),
            ast::DeclaratorKind::Abstract => Ok((None, ty)),
            ast::DeclaratorKind::Declarator(inner) => self.derive(ty, inner),
        }
    }

    /// Names and (adjusted) types of a prototype's parameters; `(void)` has none.
    pub fn param_types(&mut self, ps: &[Node<ast::ParameterDeclaration>]) -> Result<Vec<(Option<String>, CType)>> {
        let mut out = Vec::new();
        for p in ps {
            let spec = self.decl_spec(&p.node.specifiers, p.span)?;
            let (name, ty) = match &p.node.declarator {
                Some(d) => self.derive(spec.ty, d)?,
                None => (None, spec.ty),
            };
            if ty == CType::Void && name.is_none() && ps.len() == 1 {
                return Ok(vec![]);
            }
            let ty = match ty {
                CType::Array(e, _) => CType::Pointer(e),
                CType::Func(f) => CType::Pointer(Rc::new(CType::Func(f))),
                t => t,
            };
            out.push((name, ty));
        }
        Ok(out)
    }

    /// The type a type name denotes.
    pub fn type_name(&mut self, tn: &Node<ast::TypeName>) -> Result<CType> {
        let base = self.spec_qual_type(&tn.node.specifiers, tn.span)?;
        match &tn.node.declarator {
            Some(d) => Ok(self.derive(base, d)?.1),
            None => Ok(base),
        }
    }

    /// Records a function declaration.
    pub fn declare_function(&mut self, name: &str, ty: Rc<FuncType>) {
        let keep_old = self.funcs.get(name).is_some_and(|f| f.ty.prototyped && !ty.prototyped);
        if !keep_old {
            self.funcs.insert(name.to_string(), FuncInfo { ty });
        }
        self.declare(name, Ordinary::Func(name.to_string()));
    }

    /// A declaration at file scope (`file_scope`) — block-scope declarations are in `stmt`.
    pub fn declaration(&mut self, decl: &Node<ast::Declaration>, file_scope: bool) -> Result<()> {
        debug_assert!(file_scope);
        let spec = self.decl_spec(&decl.node.specifiers, decl.span)?;
        for id in &decl.node.declarators {
            let (name, ty) = self.derive(spec.ty.clone(), &id.node.declarator)?;
            let Some(name) = name else { continue };
            if spec.typedef {
                self.declare(&name, Ordinary::Typedef(ty));
                continue;
            }
            if let CType::Func(f) = &ty {
                self.declare_function(&name, f.clone());
                continue;
            }
            let pos = self.pos(id.span);
            // an earlier declaration of the same global
            let prev = match self.scopes.first().and_then(|s| s.ords.get(&name)) {
                Some(Ordinary::Var(v)) => Some(*v),
                _ => None,
            };
            let v = match prev {
                Some(v) => {
                    // complete an array type
                    if let (CType::Array(_, None), CType::Array(_, Some(_))) = (&self.vars[v].ty, &ty) {
                        let ir_name = self.vars[v].ir_name.clone();
                        self.vars[v].shape = self.shape(&ir_name, &ty, 0, None);
                        self.vars[v].ty = ty.clone();
                    }
                    v
                }
                None => {
                    let ir_name = self.global_name(&name);
                    let v = self.add_static(&name, &ir_name, ty.clone());
                    self.declare(&name, Ordinary::Var(v));
                    self.statics.push(StaticInit { var: v, init: vec![], external: spec.is_extern, pos: pos.clone() });
                    v
                }
            };
            let slot = self.statics.iter().position(|s| s.var == v);
            if let Some(init) = &id.node.initializer {
                let e = self.static_initializer(v, init)?;
                if let Some(k) = slot {
                    self.statics[k].init = e;
                    self.statics[k].external = false;
                }
            } else if !spec.is_extern {
                if let Some(k) = slot {
                    self.statics[k].external = false;
                }
            }
        }
        Ok(())
    }

    /// The initializer of a variable with static storage (completing an incomplete array type).
    pub fn static_initializer(&mut self, v: crate::tast::VarId, init: &Node<ast::Initializer>) -> Result<crate::init::Inits> {
        let ty = self.vars[v].ty.clone();
        let (ty2, inits) = self.initializer(&ty, init)?;
        if ty2 != ty {
            self.vars[v].ty = ty2.clone();
            let ir_name = self.vars[v].ir_name.clone();
            self.vars[v].shape = self.shape(&ir_name, &ty2, 0, None);
        }
        Ok(inits)
    }

    /// The parameters (names and types) of a function definition's declarator.
    pub fn definition_params(&mut self, f: &Node<ast::FunctionDefinition>) -> Result<(String, Rc<FuncType>, Params)> {
        let spec = self.decl_spec(&f.node.specifiers, f.span)?;
        let d = &f.node.declarator;
        let name = declarator_name(&d.node).ok_or_else(|| self.error(d.span, "function definition without a name"))?;
        // the function declarator is the last derived declarator applying to the name
        let (fd_idx, inner) = function_declarator(&d.node).ok_or_else(|| self.error(d.span, "not a function"))?;
        let (_, full_ty) = self.derive(spec.ty.clone(), d)?;
        let CType::Func(fty) = full_ty else {
            return Err(self.error(d.span, format!("`{name}` is not a function")));
        };
        let params = match &inner.derived[fd_idx].node {
            ast::DerivedDeclarator::Function(fdecl) => self.param_types(&fdecl.node.parameters)?,
            ast::DerivedDeclarator::KRFunction(ids) => {
                // old style: types from the declaration list, default int
                let mut out: Vec<(Option<String>, CType)> = ids.iter().map(|i| (Some(i.node.name.clone()), CType::INT)).collect();
                for decl in &f.node.declarations {
                    let spec = self.decl_spec(&decl.node.specifiers, decl.span)?;
                    for id in &decl.node.declarators {
                        let (n, t) = self.derive(spec.ty.clone(), &id.node.declarator)?;
                        if let Some(slot) = out.iter_mut().find(|(m, _)| *m == n) {
                            slot.1 = t;
                        }
                    }
                }
                out
            }
            _ => return Err(self.error(d.span, "not a function")),
        };
        let fty = if fty.prototyped {
            fty
        } else {
            Rc::new(FuncType {
                ret: fty.ret.clone(),
                params: params.iter().map(|p| p.1.clone()).collect(),
                variadic: false,
                prototyped: false,
            })
        };
        Ok((name, fty, params))
    }

    /// The value of a static assertion's condition (`None`: not a constant).
    pub fn static_assert_holds(&mut self, e: &Node<ast::Expression>) -> Result<bool> {
        let te = self.expr(e)?;
        match self.const_int(&te) {
            Some(v) => Ok(!v.is_zero()),
            None => Err(self.unsupported(e.span, "static assertion whose condition is not an integer constant")),
        }
    }

    /// Evaluates an integer constant expression.
    pub fn const_int(&self, e: &Expr) -> Option<BigInt> {
        crate::consteval::const_int(e, self.dm())
    }

    /// An integer literal expression.
    pub fn int_lit(v: BigInt, ty: CType, pos: ir::SourcePos) -> Expr {
        Expr::new(ExprKind::IntLit(v), ty, pos)
    }
}

/// The innermost declarator holding the name and the index of its function declarator.
fn function_declarator(d: &ast::Declarator) -> Option<(usize, &ast::Declarator)> {
    if let ast::DeclaratorKind::Declarator(inner) = &d.kind.node {
        if let Some(r) = function_declarator(&inner.node) {
            return Some(r);
        }
    }
    let k =
        d.derived.iter().position(|dd| matches!(dd.node, ast::DerivedDeclarator::Function(_) | ast::DerivedDeclarator::KRFunction(_)))?;
    Some((k, d))
}
