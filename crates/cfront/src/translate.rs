//! The translation state shared by all phases (scopes, variables, functions, records) and the
//! translation of a whole translation unit into an `ir::Program`.

use crate::back::{BackTranslation, ValueType};
use crate::error::{CError, Result};
use crate::preprocess::LineMap;
use crate::shape::Shape;
use crate::tast::{Expr, Sel, VarId};
use crate::types::{CType, DataModel, FuncType, Layout, Record};
use crate::{COptions, Translation};
use ir::{Procedure, Program, SourcePos};
use lang_c::ast;
use lang_c::span::Span;
use num_bigint::BigInt;
use smt::Term;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::rc::Rc;
use std::sync::Arc;

/// A variable of the C program.
#[derive(Clone, Debug)]
pub(crate) struct VarInfo {
    /// Its name in C.
    pub c_name: String,
    /// The base name of its program variables.
    pub ir_name: String,
    /// Its type.
    pub ty: CType,
    /// The program variables representing it.
    pub shape: Shape,
    /// Whether it has static storage duration.
    pub is_static: bool,
    /// For locals and parameters: the offset of the declarator (identifies the declaration
    /// across translation attempts).
    pub decl_key: Option<usize>,
}

/// What an ordinary identifier denotes.
#[derive(Clone, Debug)]
pub(crate) enum Ordinary {
    /// A variable.
    Var(VarId),
    /// An enumeration constant (type `int`).
    Const(BigInt),
    /// A typedef name.
    Typedef(CType),
    /// A function (its name in `Tr::funcs`).
    Func(String),
}

/// What a tag denotes.
#[derive(Clone, Debug)]
pub(crate) enum Tag {
    /// A struct or union.
    Record(usize),
    /// An enumeration (its underlying integer type).
    Enum(CType),
}

/// One block scope.
#[derive(Default, Debug)]
pub(crate) struct Scope {
    /// Ordinary identifiers.
    pub ords: HashMap<String, Ordinary>,
    /// Tags of structs, unions and enums.
    pub tags: HashMap<String, Tag>,
}

/// A declared function.
#[derive(Clone, Debug)]
pub(crate) struct FuncInfo {
    /// Its type.
    pub ty: Rc<FuncType>,
}

/// A variable with static storage and its initial value.
pub(crate) struct StaticInit {
    /// The variable.
    pub var: VarId,
    /// The initializer: the scalars it sets (paths into the object); empty: zero, or
    /// unknown if extern.
    pub init: Vec<(Vec<Sel>, Expr)>,
    /// Whether the variable is declared `extern` without a definition so far.
    pub external: bool,
    /// Where it is declared.
    pub pos: SourcePos,
}

/// The state of a translation.
pub(crate) struct Tr {
    /// The options.
    pub opts: COptions,
    /// Maps byte offsets of the parsed text to source positions.
    pub map: LineMap,
    /// The preprocessed text (the spans of the syntax tree point into it).
    pub text: String,
    /// The file name.
    pub file: Arc<str>,
    /// All structs and unions.
    pub records: Vec<Record>,
    /// All variables.
    pub vars: Vec<VarInfo>,
    /// The scope stack (file scope first).
    pub scopes: Vec<Scope>,
    /// Declared functions.
    pub funcs: HashMap<String, FuncInfo>,
    /// Functions with a definition in the translation unit (not the intrinsics whose meaning
    /// SV-COMP fixes).
    pub defined: HashSet<String>,
    /// Functions the program defines whose meaning SV-COMP fixes (their definitions are not
    /// followed).
    pub fixed_definitions: HashSet<String>,
    /// What the user should know about the translation (written to stderr).
    pub warnings: Vec<String>,
    /// Variables with static storage, in declaration order.
    pub statics: Vec<StaticInit>,
    /// Names of program-level variables (globals).
    pub global_names: HashSet<String>,
    /// Translated procedures.
    pub procedures: BTreeMap<String, Procedure>,
    /// Whether expressions are typed as ACSL terms (mathematical integers).
    pub acsl: bool,
    /// The type of ACSL's `\result` in the function being translated (`None`: void).
    pub acsl_result: Option<CType>,
    /// Globals whose address is taken (they live in memory).
    pub mem_globals: HashSet<VarId>,
    /// Declarations of locals and parameters whose address is taken.
    pub mem_locals: HashSet<usize>,
    /// Declarations of local pointers that `promote` found used only as `*p` (keys).
    pub promotable: HashSet<usize>,
    /// Promoted pointers and the scalar variable that stands for `*p` (`promote`).
    pub promoted: HashMap<VarId, VarId>,
    /// Functions whose definition comes from the library's models (`library`).
    pub library_functions: HashSet<String>,
    /// Functions whose address is taken (`fnptr`).
    pub addressed_functions: BTreeSet<String>,
    /// The string literals the program reads as arrays (`strlit`).
    pub literals: BTreeSet<Vec<u8>>,
    /// Whether the program reads objects in memory as integers of another type of the same
    /// size (`Fx::reinterprets`).
    pub reinterpreting: bool,
    /// Whether memory holds bytes (`bytes`): the program accesses objects at other types than
    /// the ones they hold.
    pub bytes: bool,
    /// Whether, in memory as bytes, the program stores pointers or floating-point values, so
    /// that `#mem_tag` says what each byte holds.
    pub tagged_bytes: bool,
    /// Whether the translation viewed an object through `void *` as characters, and whether
    /// it accessed memory in a unit larger than a byte: typed memory holds one value per
    /// accessed unit, so a program that does both needs memory as bytes.
    pub byte_views: bool,
    /// See `byte_views`.
    pub wide_units: bool,
    /// Whether the program starts threads (kept across translation attempts: the entry
    /// function's return translates differently, see `Fx::release_frames`).
    pub starts_threads: bool,
    /// Whether the program converts integers (other than 0) to pointers.
    pub integer_pointers: bool,
    /// The entry functions (`choose_entries`).
    pub entries: Vec<String>,
    /// Whether marks were added since the last translation attempt.
    pub new_marks: bool,
    /// Whether the program uses memory (the memory variables are globals).
    pub uses_memory: bool,
    /// Whether the program starts threads (it then has a thread id counter).
    pub uses_threads: bool,
    /// Whether the program may register functions with the library's `atexit`, so that its
    /// ends by `exit` and by returning from the entry function call them.
    pub exit_handlers: bool,
    /// Whether the program names a function that starts threads (known before any function
    /// is translated, unlike `uses_threads`).
    pub may_start_threads: bool,
    /// Whether the program sets the types of mutexes (they then have the model of `mutexes`).
    pub typed_mutexes: bool,
    /// Names of procedure-local variables of all procedures (globals avoid them).
    pub local_names: HashSet<String>,
    /// Positions of static assertions at file scope that fail.
    pub static_failures: Vec<SourcePos>,
    /// The map back to C, filled as variables and input values are translated.
    pub back: BackTranslation,
}

/// The name of the procedure that initializes the variables with static storage.
pub(crate) const INIT_PROC: &str = "#init";

/// The suffix of the procedure of an entry function for its calls (`Tr::callee`).
pub(crate) const CALLED_ENTRY: &str = "#called";

impl Tr {
    /// Whether a variable with static storage may hold a pointer.
    pub fn globals_hold_pointers(&self) -> bool {
        self.vars.iter().filter(|v| v.is_static).any(|v| self.holds_pointer(&v.ty))
    }

    /// The size of the object a standard stream `name` (declared without a definition)
    /// points to, if it is one.
    pub fn std_stream_size(&self, name: &str) -> Option<u64> {
        if !crate::library::STD_STREAMS.contains(&name) {
            return None;
        }
        let Some(Tag::Record(r)) = self.scopes.first()?.tags.get(crate::library::STREAM_TAG) else { return None };
        self.layout().size(&CType::Record(*r))
    }

    /// Whether an object of type `t` holds a pointer (in a member or element).
    pub fn holds_pointer(&self, t: &CType) -> bool {
        fn has_ptr(t: &CType, recs: &[crate::types::Record], depth: usize) -> bool {
            match t {
                CType::Pointer(_) => true,
                CType::Array(e, _) => has_ptr(e, recs, depth),
                CType::Record(r) if depth < 16 => {
                    recs.get(*r).and_then(|rec| rec.fields.as_ref()).is_some_and(|fs| fs.iter().any(|f| has_ptr(&f.ty, recs, depth + 1)))
                }
                _ => false,
            }
        }
        has_ptr(t, &self.records, 0)
    }

    /// A fresh translation state.
    pub fn new(opts: COptions, map: LineMap, file: Arc<str>) -> Tr {
        Tr {
            opts,
            map,
            file,
            records: Vec::new(),
            vars: Vec::new(),
            scopes: vec![Scope::default()],
            funcs: HashMap::new(),
            defined: HashSet::new(),
            fixed_definitions: HashSet::new(),
            warnings: vec![],
            statics: Vec::new(),
            global_names: HashSet::new(),
            procedures: BTreeMap::new(),
            acsl: false,
            acsl_result: None,
            static_failures: Vec::new(),
            local_names: HashSet::new(),
            mem_globals: HashSet::new(),
            mem_locals: HashSet::new(),
            promotable: HashSet::new(),
            promoted: HashMap::new(),
            library_functions: HashSet::new(),
            addressed_functions: BTreeSet::new(),
            literals: BTreeSet::new(),
            reinterpreting: false,
            text: String::new(),
            bytes: false,
            tagged_bytes: false,
            starts_threads: false,
            byte_views: false,
            wide_units: false,
            integer_pointers: false,
            entries: Vec::new(),
            new_marks: false,
            uses_memory: false,
            uses_threads: false,
            exit_handlers: false,
            may_start_threads: false,
            typed_mutexes: false,
            back: BackTranslation::default(),
        }
    }

    /// The data model.
    pub fn dm(&self) -> DataModel {
        self.opts.data_model
    }

    /// How integers are represented.
    pub fn sem(&self) -> crate::conv::Sem {
        crate::conv::Sem { dm: self.opts.data_model, bitvector: self.opts.bitvector }
    }

    /// The memory array of integers (`memory::int_memory`).
    pub fn int_memory(&self) -> Term {
        crate::memory::int_memory(self.bytes && self.opts.bitvector)
    }

    /// Size and alignment computations.
    pub fn layout(&self) -> Layout<'_> {
        Layout { dm: self.opts.data_model, records: &self.records }
    }

    /// The source position of a span.
    pub fn pos(&self, span: Span) -> SourcePos {
        if span.is_none() {
            return SourcePos { file: self.file.clone(), line: 0, col: 0 };
        }
        self.map.pos(span.start)
    }

    /// An `unsupported` error at a span.
    pub fn unsupported(&self, span: Span, what: impl Into<String>) -> CError {
        CError::unsupported(&self.pos(span), what)
    }

    /// A syntax/type error at a span.
    pub fn error(&self, span: Span, what: impl Into<String>) -> CError {
        CError::syntax(&self.pos(span), what)
    }

    /// Looks up an ordinary identifier.
    pub fn lookup(&self, name: &str) -> Option<&Ordinary> {
        self.scopes.iter().rev().find_map(|s| s.ords.get(name))
    }

    /// Looks up a tag.
    pub fn lookup_tag(&self, name: &str) -> Option<&Tag> {
        self.scopes.iter().rev().find_map(|s| s.tags.get(name))
    }

    /// Declares an ordinary identifier in the innermost scope.
    pub fn declare(&mut self, name: &str, o: Ordinary) {
        if let Some(s) = self.scopes.last_mut() {
            s.ords.insert(name.to_string(), o);
        }
    }

    /// A global (program-level) name based on `base`, unique among globals.
    pub fn global_name(&mut self, base: &str) -> String {
        let mut name = base.to_string();
        let mut k = 1;
        while self.local_names.contains(&name) || !self.global_names.insert(name.clone()) {
            name = format!("{base}#{k}");
            k += 1;
        }
        self.back.name_variable(&name, base);
        name
    }

    /// Adds a variable with static storage (global or static local) and returns its id.
    pub fn add_static(&mut self, c_name: &str, ir_name: &str, ty: CType) -> VarId {
        let shape = match self.members_share_bytes(&ty) {
            true => Shape::Mem(Term::var(&format!("&{ir_name}"), smt::Sort::Int)),
            false => self.shape(ir_name, &ty, 0, None),
        };
        self.vars.push(VarInfo { c_name: c_name.to_string(), ir_name: ir_name.to_string(), ty, shape, is_static: true, decl_key: None });
        self.vars.len() - 1
    }

    /// Whether an object of type `ty` holds members reached through their bytes: a union (its
    /// members overlap) or a struct with bit-fields (they share bytes), itself or as a member
    /// or element. Its objects live in memory (as bytes).
    pub fn members_share_bytes(&self, ty: &CType) -> bool {
        match ty {
            CType::Array(e, _) => self.members_share_bytes(e),
            CType::Record(r) => {
                self.is_bytes_record(*r)
                    || self
                        .records
                        .get(*r)
                        .and_then(|rec| rec.fields.as_ref())
                        .is_some_and(|fs| fs.iter().any(|f| self.members_share_bytes(&f.ty)))
            }
            _ => false,
        }
    }

    /// Why the size of `ty` is unknown (after "of"): an attribute that changes the layout of a record in
    /// it, or an incomplete type.
    pub fn unknown_size(&self, ty: &CType) -> String {
        match self.unmodelled_attribute(ty, 0) {
            Some(a) => format!("a struct or union with {a} (its layout is not modelled)"),
            None if matches!(ty, CType::Record(_) | CType::Array(..)) => "an incomplete type".into(),
            None => "unknown size".into(),
        }
    }

    /// The attribute that leaves the layout of a record in `ty` unknown, in words.
    fn unmodelled_attribute(&self, ty: &CType, depth: usize) -> Option<String> {
        match ty {
            CType::Array(e, _) => self.unmodelled_attribute(e, depth),
            CType::Record(r) if depth < 16 => {
                let rec = self.records.get(*r)?;
                rec.attributes
                    .unmodelled
                    .as_ref()
                    .map(|a| format!("attribute `{a}`"))
                    .or_else(|| rec.packs_bit_fields().then(|| "attribute `packed` and bit-fields".into()))
                    .or_else(|| rec.fields.iter().flatten().find_map(|f| self.unmodelled_attribute(&f.ty, depth + 1)))
            }
            _ => None,
        }
    }

    /// Whether a value of the record `r` is its bytes: a union (its members overlap) or a
    /// struct with bit-fields (they share bytes).
    pub fn is_bytes_record(&self, r: usize) -> bool {
        self.records.get(r).is_some_and(|rec| rec.is_union || rec.fields.iter().flatten().any(|f| f.bit_width.is_some()))
    }

    /// Translates the translation unit.
    pub fn unit(&mut self, unit: &ast::TranslationUnit) -> Result<()> {
        for d in &unit.0 {
            if let ast::ExternalDeclaration::FunctionDefinition(f) = &d.node {
                if let Some(name) = declarator_name(&f.node.declarator.node) {
                    if crate::intrinsics::has_fixed_meaning(&name) {
                        // SV-COMP's definition stands, whatever the program's says (older
                        // tasks define `__VERIFIER_assume(c)` as `while (!c);`: a failed
                        // assumption blocks an execution, it does not run forever)
                        if name != "reach_error" {
                            let at = self.pos(f.span);
                            self.warnings
                                .push(format!("{at}: the program's definition of `{name}` is not followed: {name} has SV-COMP's meaning"));
                        }
                        self.fixed_definitions.insert(name);
                    } else {
                        self.defined.insert(name);
                    }
                }
            }
        }
        // declarations in order; function bodies are translated afterwards, and only those
        // reachable from the entry function by calls
        let mut bodies = HashMap::new();
        for d in &unit.0 {
            match &d.node {
                ast::ExternalDeclaration::Declaration(decl) => self.declaration(decl, true)?,
                ast::ExternalDeclaration::StaticAssert(sa) => {
                    if !self.static_assert_holds(&sa.node.expression)? {
                        let p = self.pos(sa.span);
                        self.static_failures.push(p);
                    }
                }
                ast::ExternalDeclaration::FunctionDefinition(f) => {
                    let (name, fty, _) = self.definition_params(f)?;
                    self.declare_function(&name, fty);
                    if bodies.insert(name.clone(), f).is_some() {
                        return Err(self.error(f.span, format!("redefinition of `{name}`")));
                    }
                }
            }
        }
        let mut names = NamesUsed::default();
        lang_c::visit::Visit::visit_translation_unit(&mut names, unit);
        self.exit_handlers = names.0.contains("atexit") && !self.defined.contains("atexit");
        self.may_start_threads = ["pthread_create", "thrd_create"].iter().any(|f| names.0.contains(*f));
        self.typed_mutexes = names.0.contains("pthread_mutexattr_settype");
        // the library's models of the functions the program does not define
        let library = crate::library::library();
        self.in_library(|tr| library.iter().flat_map(|l| l.declarations()).try_for_each(|d| tr.declaration(d, true)))?;
        for (name, f) in library.iter().flat_map(|l| l.definitions()) {
            if !self.defined.contains(&name) {
                let (_, fty, _) = self.definition_params(f)?;
                self.declare_function(&name, fty);
                self.defined.insert(name.clone());
                self.library_functions.insert(name.clone());
                bodies.insert(name, f);
            }
        }
        self.choose_entries(unit)?;
        // translation attempts: one that finds variables whose address is taken is repeated
        // with those variables in memory
        let (vars_mark, statics_mark, names_mark) = (self.vars.len(), self.statics.len(), self.global_names.clone());
        for _attempt in 0..8 {
            self.new_marks = false;
            let r = self.translate_reachable(&bodies);
            if r.is_ok() && !self.new_marks {
                // the initializers of statics may mark too (a string literal, a function's
                // address): translated here only for that, `finish` translates them again
                let _ = crate::stmt::init_procedure(self, None);
            }
            if !self.new_marks {
                return r;
            }
            // start over with the marked variables in memory
            self.procedures.clear();
            self.vars.truncate(vars_mark);
            self.promoted.clear();
            self.statics.truncate(statics_mark);
            self.global_names = names_mark.clone();
            self.local_names.clear();
            self.uses_memory = false;
            self.uses_threads = false;
            (self.byte_views, self.wide_units) = (false, false);
            for v in self.mem_globals.clone() {
                if let Some(info) = self.vars.get_mut(v) {
                    info.shape = Shape::Mem(Term::var(&format!("&{}", info.ir_name), smt::Sort::Int));
                }
            }
        }
        Err(CError::unsupported(&SourcePos { file: self.file.clone(), line: 0, col: 0 }, "too many translation attempts"))
    }

    /// Runs `f` over the library's models: positions are in the models' text.
    fn in_library<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        let mut map = crate::library::library().map(|l| l.map.clone()).unwrap_or_else(|| self.map.clone());
        std::mem::swap(&mut self.map, &mut map);
        let r = f(self);
        std::mem::swap(&mut self.map, &mut map);
        r
    }

    /// Translates the entry functions and every function they call, directly or indirectly.
    fn translate_reachable(&mut self, bodies: &HashMap<String, &lang_c::span::Node<ast::FunctionDefinition>>) -> Result<()> {
        let mut todo = self.entries.clone();
        todo.reverse();
        let mut done = HashSet::new();
        while let Some(name) = todo.pop() {
            if !done.insert(name.clone()) {
                continue;
            }
            // an entry function that is called has a second procedure, without the entry's set-up
            let c_name = name.strip_suffix(CALLED_ENTRY).unwrap_or(&name);
            let Some(f) = bodies.get(c_name) else { continue };
            if self.library_functions.contains(c_name) {
                self.in_library(|tr| tr.function_definition(f, &name))?;
            } else {
                self.function_definition(f, &name)?;
            }
            if let Some(body) = self.procedures.get(&name).and_then(|p| p.body.as_ref()) {
                for e in &body.edges {
                    match &e.label {
                        ir::Label::Call(c) => todo.push(c.callee.clone()),
                        ir::Label::Thread(ir::ThreadOp::Fork { callee, .. }) => todo.push(callee.clone()),
                        _ => {}
                    }
                }
            }
        }
        Ok(())
    }

    /// Whether `f` is an entry function.
    pub fn is_entry(&self, f: &str) -> bool {
        self.entries.iter().any(|e| e == f)
    }

    /// The procedure a call of the function `f` goes to.
    pub fn callee(&self, f: &str) -> String {
        if self.is_entry(f) {
            format!("{f}{CALLED_ENTRY}")
        } else {
            f.to_string()
        }
    }

    /// The entry functions: `opts.entry`, or, if it is `main` by default and the program has
    /// none, every function with a body that no other function names.
    fn choose_entries(&mut self, unit: &ast::TranslationUnit) -> Result<()> {
        let file_pos = SourcePos { file: self.file.clone(), line: 0, col: 0 };
        if self.defined.contains(&self.opts.entry) {
            self.entries = vec![self.opts.entry.clone()];
            return Ok(());
        }
        if !self.opts.entry_by_default {
            return Err(CError::unsupported(&file_pos, format!("no definition of the entry function `{}`", self.opts.entry)));
        }
        let definitions = unit.0.iter().filter_map(|d| match &d.node {
            ast::ExternalDeclaration::FunctionDefinition(f) => Some((declarator_name(&f.node.declarator.node)?, f)),
            _ => None,
        });
        let mut named_by_others = HashSet::new();
        let mut order = vec![];
        for (name, f) in definitions {
            let mut names = NamesUsed::default();
            lang_c::visit::Visit::visit_function_definition(&mut names, &f.node, &f.span);
            named_by_others.extend(names.0.into_iter().filter(|n| *n != name));
            order.push(name);
        }
        self.entries = order.into_iter().filter(|f| !named_by_others.contains(f)).collect();
        if self.entries.is_empty() {
            return Err(CError::unsupported(&file_pos, "no `main`, and every function is called by another one"));
        }
        Ok(())
    }

    /// Assembles the program (globals, procedures, the initialization procedure, the entries)
    /// and the map back to C.
    pub fn finish(mut self) -> Result<Translation> {
        let entries = self.entries.clone();
        let entry_pos = entries.first().and_then(|e| self.procedures.get(e)).and_then(|p| p.pos.clone());
        let mut globals: Vec<Term> = self.vars.iter().filter(|v| v.is_static).flat_map(|v| v.shape.leaves()).collect();
        let mut procedures = std::mem::take(&mut self.procedures);
        let mut race_data = BTreeSet::new();
        if self.uses_threads {
            // the data threads share: the program's variables of static storage and the
            // objects in memory (not the memory model's bookkeeping, which allocation and
            // `free` update in one step, as the C library does under its own lock, nor the
            // addresses of the objects in memory, set once when they are allocated)
            let address = |v: &Term| v.var_name().is_some_and(|n| n.starts_with('&'));
            let mut data: BTreeSet<Term> = globals.iter().filter(|v| !address(v)).cloned().collect();
            data.extend([self.int_memory(), crate::memory::mem_base(), crate::memory::mem_off()]);
            if self.tagged_bytes {
                data.insert(crate::bytes::mem_tag());
            }
            for p in procedures.values_mut() {
                ir::threads::split_shared_reads(p, &data);
            }
            if self.opts.properties.contains(&verdict::Property::NoDataRace) {
                race_data = data;
            }
        }
        self.procedures = procedures;
        let init = crate::stmt::init_procedure(&mut self, entry_pos)?;
        let mut procedures = std::mem::take(&mut self.procedures);
        if self.uses_memory {
            globals.extend(crate::memory::memory_vars(self.int_memory()));
            if self.tagged_bytes {
                globals.push(crate::bytes::mem_tag());
            }
        }
        if self.uses_threads {
            globals.extend(crate::pthreads::thread_vars_init().into_iter().map(|(v, _)| v));
        }
        procedures.insert(INIT_PROC.to_string(), init);
        check_calls(&procedures, &self.file)?;
        let mods = ir::nested::modified_globals(&procedures, &globals);
        for (name, p) in procedures.iter_mut() {
            p.modifies = globals.iter().filter(|g| mods.get(name).is_some_and(|m| m.contains(*g))).cloned().collect();
        }
        let program = Program {
            file: self.file.to_string(),
            globals,
            consts: vec![],
            functions: vec![],
            axioms: vec![],
            procedures,
            entries,
            race_data,
        };
        let externs = self.externs();
        self.back.set_externs(externs);
        self.back.set_threads(self.uses_threads);
        Ok(Translation { program, back: self.back, warnings: self.warnings })
    }

    /// The functions declared but not defined, with their return types.
    fn externs(&self) -> BTreeMap<String, ValueType> {
        let defined = |name: &String| self.defined.contains(name) || self.fixed_definitions.contains(name);
        let value_type = |t: &CType| match t {
            CType::Void => Some(ValueType::Void),
            CType::Int(k) => Some(ValueType::Int(*k)),
            CType::Float(k) => Some(ValueType::Float(*k)),
            CType::Pointer(_) => Some(ValueType::Pointer),
            _ => None,
        };
        let undefined = self.funcs.iter().filter(|(name, _)| !defined(name));
        undefined.filter_map(|(name, f)| Some((name.clone(), value_type(&f.ty.ret)?))).collect()
    }
}

/// The identifiers an AST names in expressions (calls, function pointers, variables).
#[derive(Default)]
struct NamesUsed(HashSet<String>);

impl<'ast> lang_c::visit::Visit<'ast> for NamesUsed {
    fn visit_expression(&mut self, e: &'ast ast::Expression, span: &'ast lang_c::span::Span) {
        if let ast::Expression::Identifier(id) = e {
            self.0.insert(id.node.name.clone());
        }
        lang_c::visit::visit_expression(self, e, span);
    }
}

/// Checks that every call passes as many arguments as the callee has parameters (calls of
/// functions declared without a prototype may not).
fn check_calls(procs: &BTreeMap<String, Procedure>, file: &Arc<str>) -> Result<()> {
    for p in procs.values() {
        for e in p.body.iter().flat_map(|b| b.edges.iter()) {
            if let ir::Label::Call(c) = &e.label {
                let ok = procs.get(&c.callee).is_some_and(|q| q.params.len() == c.args.len() && q.rets.len() == c.rets.len());
                if !ok {
                    let pos = e.pos.clone().unwrap_or(SourcePos { file: file.clone(), line: 0, col: 0 });
                    return Err(CError::unsupported(
                        &pos,
                        format!("call of `{}` with a different number of arguments than its definition", c.callee),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The identifier a declarator declares.
pub(crate) fn declarator_name(d: &ast::Declarator) -> Option<String> {
    match &d.kind.node {
        ast::DeclaratorKind::Identifier(id) => Some(id.node.name.clone()),
        ast::DeclaratorKind::Declarator(inner) => declarator_name(&inner.node),
        ast::DeclaratorKind::Abstract => None,
    }
}
