//! Translation of declarations into the program model: types, constants, globals, functions,
//! axioms and procedures (contracts, and bodies via `body`).

use crate::ast::{Attr, Decl, Expr, Spec as ASpec, Stmt as AStmt, Type, VarDecl};
use crate::body::{translate_body, BodyInput};
use crate::error::{Pos, Result};
use crate::expr::{Local, OldMode, Scope};
use ir::{Procedure, Program, Spec};
use smt::{FuncDecl, Sort, Term};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

/// A global variable or constant.
pub(crate) struct GlobalVar {
    /// Its canonical term.
    pub term: Term,
    /// Whether it is a constant.
    pub is_const: bool,
}

/// How a function is interpreted.
pub(crate) enum FuncDef {
    /// An uninterpreted symbol.
    Uninterpreted(Arc<FuncDecl>),
    /// `{:const_array}`: the constant map of its argument.
    ConstArray,
    /// Defined by a body, expanded at each application.
    Defined,
    /// Defined in a way this front end does not read (an attribute): an application of it is
    /// unsupported, a declaration alone is not.
    Unsupported(String),
}

/// A declared function.
pub(crate) struct Func {
    /// Argument sorts.
    pub domain: Vec<Sort>,
    /// Result sort.
    pub range: Sort,
    /// Its interpretation.
    pub def: FuncDef,
}

/// Translation state of a function body.
enum BodyState {
    Todo(Vec<(String, Term)>, Expr),
    Busy,
    Done(Vec<Term>, Term),
}

/// What a call site needs to know about a procedure.
#[derive(Clone)]
pub(crate) struct ProcSig {
    /// Parameter sorts.
    pub params: Vec<Sort>,
    /// Result sorts.
    pub rets: Vec<Sort>,
    /// Modified globals.
    pub modifies: Vec<Term>,
}

/// Picks procedure-local names that avoid global names and each other.
#[derive(Clone)]
pub(crate) struct NameAlloc {
    used: HashSet<String>,
}

/// The name of the sole entry procedure of a program that defines it.
const START_PROCEDURE: &str = "ULTIMATE.start";

impl NameAlloc {
    /// An allocator avoiding `used`.
    pub fn new(used: &HashSet<String>) -> NameAlloc {
        NameAlloc { used: used.clone() }
    }

    /// `name` if free, otherwise `name#k` for the least free `k`.
    pub fn alloc(&mut self, name: &str) -> String {
        if self.used.insert(name.to_string()) {
            return name.to_string();
        }
        let mut k = 1usize;
        loop {
            let c = format!("{name}#{k}");
            if self.used.insert(c.clone()) {
                return c;
            }
            k += 1;
        }
    }
}

/// The global translation state.
pub(crate) struct Translator {
    /// The file name (for positions).
    pub file: Arc<str>,
    types: HashMap<String, Option<Type>>,
    /// Globals and constants by name.
    pub globals: HashMap<String, GlobalVar>,
    /// Functions by name.
    pub funcs: HashMap<String, Func>,
    bodies: HashMap<String, BodyState>,
    /// Procedure signatures by name.
    pub procs: HashMap<String, ProcSig>,
    /// Functions marked `{:overapproximation "reason"}`, with the reason.
    pub overapprox: HashMap<String, String>,
    /// Names of globals, constants and functions (locals must avoid them).
    pub global_names: HashSet<String>,
}

/// A procedure declaration with everything gathered from the source.
struct ProcDecl<'a> {
    name: &'a str,
    pos: Pos,
    params: &'a [VarDecl],
    rets: &'a [VarDecl],
    specs: &'a [ASpec],
}

/// An implementation: its signature names and body.
struct ImplDecl<'a> {
    pos: Pos,
    params: &'a [VarDecl],
    rets: &'a [VarDecl],
    body: &'a [AStmt],
}

impl Translator {
    /// A translator for `file`.
    pub fn new(file: Arc<str>) -> Translator {
        Translator {
            file,
            types: HashMap::new(),
            globals: HashMap::new(),
            funcs: HashMap::new(),
            bodies: HashMap::new(),
            procs: HashMap::new(),
            overapprox: HashMap::new(),
            global_names: HashSet::new(),
        }
    }

    /// The sort of a type (multi-index maps are curried).
    pub(crate) fn sort(&self, t: &Type) -> Result<Sort> {
        self.sort_rec(t, 0)
    }

    fn sort_rec(&self, t: &Type, depth: usize) -> Result<Sort> {
        Ok(match t {
            Type::Int => Sort::Int,
            Type::Bool => Sort::Bool,
            Type::Real => Sort::Real,
            Type::Map(idx, elem) => {
                let mut s = self.sort_rec(elem, depth)?;
                for i in idx.iter().rev() {
                    s = Sort::array(self.sort_rec(i, depth)?, s);
                }
                s
            }
            Type::Named(id) => match self.types.get(&id.name) {
                None => return Err(self.type_err(id.pos, format!("undeclared type `{}`", id.name))),
                Some(None) => Sort::Uninterpreted(Arc::from(id.name.as_str())),
                Some(Some(def)) => {
                    if depth > self.types.len() {
                        return Err(self.type_err(id.pos, format!("cyclic type synonym `{}`", id.name)));
                    }
                    self.sort_rec(def, depth + 1)?
                }
            },
        })
    }

    fn declare_global_name(&mut self, name: &str, pos: Pos) -> Result<()> {
        if !self.global_names.insert(name.to_string()) {
            return Err(self.type_err(pos, format!("duplicate declaration of `{name}`")));
        }
        Ok(())
    }

    /// The parameters and body term of a defined function (translated on first use).
    pub(crate) fn func_body(&mut self, name: &str, pos: Pos) -> Result<(Vec<Term>, Term)> {
        let state = self.bodies.insert(name.to_string(), BodyState::Busy);
        match state {
            Some(BodyState::Done(p, t)) => {
                self.bodies.insert(name.to_string(), BodyState::Done(p.clone(), t.clone()));
                Ok((p, t))
            }
            Some(BodyState::Busy) => Err(self.unsupported(pos, format!("recursive function definition `{name}`"))),
            None => Err(self.type_err(pos, format!("function `{name}` has no body"))),
            Some(BodyState::Todo(params, body)) => {
                let mut sc = Scope::new(OldMode::Forbidden, false);
                let mut frame = HashMap::new();
                for (n, t) in &params {
                    frame.insert(n.clone(), Local { term: t.clone(), mutable: false });
                }
                sc.frames = vec![frame];
                let t = self.expr(&body, &mut sc)?;
                let range = self.funcs.get(name).map(|f| f.range.clone()).unwrap_or(Sort::Bool);
                self.expect_sort(&t, &range, body.pos, &format!("body of function `{name}`"))?;
                let ps: Vec<Term> = params.into_iter().map(|(_, t)| t).collect();
                self.bodies.insert(name.to_string(), BodyState::Done(ps.clone(), t.clone()));
                Ok((ps, t))
            }
        }
    }

    fn function(
        &mut self,
        program: &mut Program,
        name: &crate::ast::Ident,
        attrs: &[Attr],
        args: &[(Option<crate::ast::Ident>, Type)],
        ret: &Type,
        body: &Option<Expr>,
    ) -> Result<()> {
        self.declare_global_name(&name.name, name.pos)?;
        let mut domain = Vec::new();
        for (_, t) in args {
            domain.push(self.sort(t)?);
        }
        let range = self.sort(ret)?;
        let mut unread = None;
        for a in attrs {
            if matches!(a.name.as_str(), "builtin" | "bvbuiltin" | "smtdefined" | "expand_struct") {
                unread.get_or_insert_with(|| format!("function `{}` with the attribute `{{:{}}}`", name.name, a.name));
            }
            if a.name == "overapproximation" {
                let reason = a.strings.first().cloned().unwrap_or_else(|| name.name.clone());
                self.overapprox.insert(name.name.clone(), reason);
            }
        }
        let def = if let Some(why) = unread {
            FuncDef::Unsupported(why)
        } else if attrs.iter().any(|a| a.name == "const_array") {
            let ok = matches!((&range, domain.as_slice()), (Sort::Array(_, e), [d]) if **e == *d);
            if !ok {
                return Err(self.unsupported(name.pos, "this `{:const_array}` function signature"));
            }
            FuncDef::ConstArray
        } else if let Some(b) = body {
            let mut params = Vec::new();
            for ((id, _), s) in args.iter().zip(&domain) {
                let Some(id) = id else {
                    return Err(self.type_err(name.pos, "a function with a body needs named arguments"));
                };
                if params.iter().any(|(n, _): &(String, Term)| *n == id.name) {
                    return Err(self.type_err(id.pos, format!("duplicate argument `{}`", id.name)));
                }
                params.push((id.name.clone(), Term::fresh(&id.name, s.clone())));
            }
            self.bodies.insert(name.name.clone(), BodyState::Todo(params, b.clone()));
            FuncDef::Defined
        } else {
            let decl = Arc::new(FuncDecl { name: Arc::from(name.name.as_str()), domain: domain.clone(), range: range.clone() });
            program.functions.push(decl.clone());
            FuncDef::Uninterpreted(decl)
        };
        self.funcs.insert(name.name.clone(), Func { domain, range, def });
        Ok(())
    }

    /// Translates a whole program.
    pub fn program(&mut self, decls: &[Decl]) -> Result<Program> {
        let mut program = Program { file: self.file.to_string(), ..Program::default() };
        // types first: they may be used before their declaration
        for d in decls {
            if let Decl::Type(id, def) = d {
                if self.types.insert(id.name.clone(), def.clone()).is_some() {
                    return Err(self.type_err(id.pos, format!("duplicate type `{}`", id.name)));
                }
            }
        }
        for d in decls {
            if let Decl::Type(id, Some(_)) = d {
                self.sort(&Type::Named(id.clone()))?;
            }
        }
        let mut unique: BTreeMap<Sort, Vec<Term>> = BTreeMap::new();
        for d in decls {
            match d {
                Decl::Const(vars, is_unique) => {
                    for v in vars {
                        self.declare_global_name(&v.name.name, v.name.pos)?;
                        let t = Term::var(&v.name.name, self.sort(&v.ty)?);
                        if *is_unique {
                            unique.entry(t.sort.clone()).or_default().push(t.clone());
                        }
                        program.consts.push(t.clone());
                        self.globals.insert(v.name.name.clone(), GlobalVar { term: t, is_const: true });
                    }
                }
                Decl::Var(vars) => {
                    for v in vars {
                        self.declare_global_name(&v.name.name, v.name.pos)?;
                        let t = Term::var(&v.name.name, self.sort(&v.ty)?);
                        program.globals.push(t.clone());
                        self.globals.insert(v.name.name.clone(), GlobalVar { term: t, is_const: false });
                    }
                }
                Decl::Function { name, attrs, args, ret, body } => {
                    self.function(&mut program, name, attrs, args, ret, body)?;
                }
                _ => {}
            }
        }
        for consts in unique.values() {
            if consts.len() > 1 {
                program.axioms.push(smt::build::distinct(consts));
            }
        }
        for d in decls {
            if let Decl::Function { name, body: Some(_), .. } = d {
                if matches!(self.funcs.get(&name.name).map(|f| &f.def), Some(FuncDef::Defined)) {
                    self.func_body(&name.name, name.pos)?;
                }
            }
        }
        for d in decls {
            if let Decl::Axiom(e) = d {
                let mut sc = Scope::new(OldMode::Forbidden, false);
                let t = self.formula(e, &mut sc)?;
                program.axioms.push(t);
            }
        }
        self.procedures(decls, &mut program)?;
        Ok(program)
    }

    fn procedures(&mut self, decls: &[Decl], program: &mut Program) -> Result<()> {
        let mut procs: Vec<ProcDecl> = Vec::new();
        let mut impls: HashMap<&str, (usize, ImplDecl)> = HashMap::new();
        let mut impl_order: Vec<(usize, &str)> = Vec::new();
        for (k, d) in decls.iter().enumerate() {
            match d {
                Decl::Procedure { name, params, rets, specs, body } => {
                    if procs.iter().any(|p| p.name == name.name) {
                        return Err(self.type_err(name.pos, format!("duplicate procedure `{}`", name.name)));
                    }
                    procs.push(ProcDecl { name: &name.name, pos: name.pos, params, rets, specs });
                    if let Some(body) = body {
                        impls.insert(&name.name, (k, ImplDecl { pos: name.pos, params, rets, body }));
                        impl_order.push((k, &name.name));
                    }
                }
                Decl::Implementation { name, params, rets, body } => {
                    if impls.contains_key(name.name.as_str()) {
                        return Err(self.unsupported(name.pos, format!("several implementations of procedure `{}`", name.name)));
                    }
                    impls.insert(&name.name, (k, ImplDecl { pos: name.pos, params, rets, body }));
                    impl_order.push((k, &name.name));
                }
                _ => {}
            }
        }
        for (name, (_, imp)) in &impls {
            if !procs.iter().any(|p| p.name == *name) {
                return Err(self.type_err(imp.pos, format!("implementation of undeclared procedure `{name}`")));
            }
        }
        // signatures first: bodies may call procedures declared later
        for p in &procs {
            let mut sig = ProcSig { params: Vec::new(), rets: Vec::new(), modifies: Vec::new() };
            for v in p.params {
                sig.params.push(self.sort(&v.ty)?);
            }
            for v in p.rets {
                sig.rets.push(self.sort(&v.ty)?);
            }
            for s in p.specs {
                if let ASpec::Modifies(ids) = s {
                    for id in ids {
                        match self.globals.get(&id.name) {
                            Some(g) if !g.is_const => {
                                if !sig.modifies.contains(&g.term) {
                                    sig.modifies.push(g.term.clone());
                                }
                            }
                            Some(_) => return Err(self.type_err(id.pos, format!("constant `{}` cannot be modified", id.name))),
                            None => return Err(self.type_err(id.pos, format!("`{}` in modifies clause is not a global variable", id.name))),
                        }
                    }
                }
            }
            self.procs.insert(p.name.to_string(), sig);
        }
        for p in &procs {
            let imp = impls.get(p.name).map(|(_, i)| i);
            let proc = self.procedure(p, imp)?;
            program.procedures.insert(p.name.to_string(), proc);
        }
        impl_order.sort();
        program.entries = impl_order.into_iter().map(|(_, n)| n.to_string()).collect();
        // A program that names its start procedure is verified from there only (Ultimate's
        // convention); otherwise every implemented procedure is an entry point.
        if program.entries.iter().any(|n| n == START_PROCEDURE) {
            program.entries = vec![START_PROCEDURE.to_string()];
        }
        Ok(())
    }

    fn formals(&self, vars: &[VarDecl], alloc: &mut NameAlloc, seen: &mut HashSet<String>) -> Result<Vec<Term>> {
        let mut out = Vec::new();
        for v in vars {
            if !seen.insert(v.name.name.clone()) {
                return Err(self.type_err(v.name.pos, format!("duplicate parameter `{}`", v.name.name)));
            }
            let name = alloc.alloc(&v.name.name);
            out.push(Term::var(&name, self.sort(&v.ty)?));
        }
        Ok(out)
    }

    fn procedure(&mut self, p: &ProcDecl, imp: Option<&ImplDecl>) -> Result<Procedure> {
        let sig = self.procs.get(p.name).cloned().unwrap_or(ProcSig { params: vec![], rets: vec![], modifies: vec![] });
        let mut alloc = NameAlloc::new(&self.global_names);
        let (sig_params, sig_rets) = match imp {
            Some(i) => (i.params, i.rets),
            None => (p.params, p.rets),
        };
        let mut seen = HashSet::new();
        let params = self.formals(sig_params, &mut alloc, &mut seen)?;
        let rets = self.formals(sig_rets, &mut alloc, &mut seen)?;
        if let Some(i) = imp {
            let ps: Vec<Sort> = params.iter().map(|t| t.sort.clone()).collect();
            let rs: Vec<Sort> = rets.iter().map(|t| t.sort.clone()).collect();
            if ps != sig.params || rs != sig.rets {
                return Err(self.type_err(i.pos, format!("implementation of `{}` does not match the signature of its declaration", p.name)));
            }
        }
        // the contract, with the declaration's names bound to the implementation's variables
        let mut pre = HashMap::new();
        for (v, t) in p.params.iter().zip(&params) {
            pre.insert(v.name.name.clone(), Local { term: t.clone(), mutable: false });
        }
        let mut post = pre.clone();
        for (v, t) in p.rets.iter().zip(&rets) {
            if post.insert(v.name.name.clone(), Local { term: t.clone(), mutable: true }).is_some() {
                return Err(self.type_err(v.name.pos, format!("duplicate parameter `{}`", v.name.name)));
            }
        }
        let mut requires = Vec::new();
        let mut ensures = Vec::new();
        for s in p.specs {
            match s {
                ASpec::Requires(free, e, pos) => {
                    let mut sc = Scope::new(OldMode::Identity, true);
                    sc.frames = vec![pre.clone()];
                    let t = self.formula(e, &mut sc)?;
                    requires.push(Spec { formula: t, free: *free, pos: Some(pos.at(&self.file)) });
                }
                ASpec::Ensures(free, e, pos) => {
                    let mut sc = Scope::new(OldMode::Replace, true);
                    sc.frames = vec![post.clone()];
                    let t = self.formula(e, &mut sc)?;
                    ensures.push(Spec { formula: t, free: *free, pos: Some(pos.at(&self.file)) });
                }
                ASpec::Modifies(_) => {}
            }
        }
        let mut proc = Procedure {
            name: p.name.to_string(),
            params: params.clone(),
            rets: rets.clone(),
            locals: Vec::new(),
            modifies: sig.modifies.clone(),
            requires,
            ensures: ensures.clone(),
            body: None,
            pos: Some(p.pos.at(&self.file)),
        };
        if let Some(i) = imp {
            let mut frame = HashMap::new();
            for (v, t) in i.params.iter().zip(&params) {
                frame.insert(v.name.name.clone(), Local { term: t.clone(), mutable: false });
            }
            for (v, t) in i.rets.iter().zip(&rets) {
                frame.insert(v.name.name.clone(), Local { term: t.clone(), mutable: true });
            }
            let checked: Vec<(Term, Pos)> = ensures
                .iter()
                .zip(p.specs.iter().filter_map(|s| match s {
                    ASpec::Ensures(_, _, pos) => Some(*pos),
                    _ => None,
                }))
                .filter(|(e, _)| !e.free && !e.formula.is_true())
                .map(|(e, pos)| (e.formula.clone(), pos))
                .collect();
            let input = BodyInput {
                name: p.name,
                frame,
                stmts: i.body,
                ensures: checked,
                modifies: sig.modifies.iter().cloned().collect(),
                alloc,
                pos: i.pos,
            };
            let (cfg, locals) = translate_body(self, input)?;
            proc.body = Some(cfg);
            proc.locals = locals;
        }
        Ok(proc)
    }
}
