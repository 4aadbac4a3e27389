//! Pointers to `alloca`'d scalars that become scalar variables.
//!
//! Programs (the SV-COMP `*-alloca` tasks above all) keep every variable in an object of its
//! own, `int *x = alloca(sizeof(int));`, and use it only as `*x`. In memory, `*x` is a cell of
//! `#mem_int`, which ranking functions and most invariants cannot speak of. A local pointer `p`
//! is *promoted* — `*p` becomes a fresh scalar local of the pointee type, named `*p` in the
//! program and in C, and neither `p` nor the allocation is translated — when
//!
//! 1. (syntax, this module) `p` is declared once in the function (no parameter, no other
//!    declaration of the name, so every occurrence of the name is `p` or something outside its
//!    scope, which is only more conservative), with the initializer `alloca(n)` or
//!    `__builtin_alloca(n)` (under casts);
//! 2. (syntax) every occurrence of the name in the function is `*p` or `p[0]`, and never the
//!    operand of `&`: `p` is never assigned, copied, compared, passed, returned, offset, freed,
//!    cast or has its address taken, so nothing but `*p` can reach the object or tell its
//!    address;
//! 3. (syntax) no jump enters `p`'s scope past the declaration: the rest of its block (the body
//!    of its `for`) holds no `case`/`default` of a `switch` around the declaration, and every
//!    `goto` to a label in it is in it too, so `*p` is only evaluated after the declaration ran;
//! 4. (types, `stmt`) `p` has type `T *` with `T` an integer or pointer type, `alloca` has no
//!    definition in the program, `n` is an integer constant `>= sizeof(T)`, and the address of
//!    `p` was not found taken.
//!
//! Then the translation is exact for every property: each execution of the declaration makes a
//! fresh object only `p` points to, of at least `sizeof(T)` bytes at offset 0, alive until the
//! function returns (after `p`'s scope ends), so every `*p` is a valid access (`valid-deref`)
//! that reads the value the last `*p =` stored; the scalar, a local of the procedure, lives per
//! call frame like the object. A new object's contents are indeterminate: the scalar is
//! havocked in its type's range at the declaration, like an uninitialized local. Stack objects
//! never count as allocations for `valid-memtrack`/`valid-memcleanup`, and `free(p)` is a use
//! other than `*p`, so no check about them changes. `malloc` is not promoted: a heap object
//! counts for the leak checks.

use lang_c::ast;
use lang_c::span::{Node, Span};
use lang_c::visit::{self, Visit};
use std::collections::{HashMap, HashSet};

/// The allocation functions whose objects may be promoted (stack objects).
pub(crate) const STACK_ALLOCATORS: [&str; 2] = ["alloca", "__builtin_alloca"];

/// The declaration keys (offsets of the declarators, as `VarInfo::decl_key`) of the local
/// pointers of a function that satisfy the syntactic conditions 1–3.
pub(crate) fn candidates(f: &Node<ast::FunctionDefinition>) -> HashSet<usize> {
    let mut u = Uses::default();
    u.visit_function_definition(&f.node, &f.span);
    // a named label in the scope is entered from outside when a `goto` to it is not in the scope
    let unjumped = |key: &usize| {
        u.scopes.get(key).is_some_and(|l| {
            !l.case_found && l.labels.iter().all(|name| u.gotos.get(name).copied().unwrap_or(0) == l.gotos.get(name).copied().unwrap_or(0))
        })
    };
    u.allocs
        .iter()
        .filter(|(key, name)| u.decls.get(name) == Some(&1) && !u.other_uses.contains(name) && unjumped(key))
        .map(|(key, _)| *key)
        .collect()
}

/// What one walk over a function finds.
#[derive(Default)]
struct Uses {
    /// Declarators initialized by a stack allocation: key and name.
    allocs: Vec<(usize, String)>,
    /// How often each name is declared (parameters, locals, members, prototypes' parameters).
    decls: HashMap<String, usize>,
    /// Names that occur in any other way.
    other_uses: HashSet<String>,
    /// The labels and jumps in the scope of each declarator of a block or `for` (what follows
    /// the declaration).
    scopes: HashMap<usize, Labels>,
    /// The number of `goto`s to each label in the function.
    gotos: HashMap<String, usize>,
}

/// The name of a plain identifier expression.
fn ident(e: &Node<ast::Expression>) -> Option<&str> {
    match &e.node {
        ast::Expression::Identifier(i) => Some(&i.node.name),
        _ => None,
    }
}

/// Whether an expression is the literal `0`.
fn is_zero(e: &Node<ast::Expression>) -> bool {
    match &e.node {
        ast::Expression::Constant(c) => match &c.node {
            ast::Constant::Integer(i) => i.number.chars().all(|c| c == '0'),
            _ => false,
        },
        _ => false,
    }
}

/// The name `p` of `*p` or `p[0]`.
fn deref_of(e: &ast::Expression) -> Option<&str> {
    match e {
        ast::Expression::UnaryOperator(u) if u.node.operator.node == ast::UnaryOperator::Indirection => ident(&u.node.operand),
        ast::Expression::BinaryOperator(b) if b.node.operator.node == ast::BinaryOperator::Index && is_zero(&b.node.rhs) => {
            ident(&b.node.lhs)
        }
        _ => None,
    }
}

/// Whether an initializer is a call of a stack allocation function with one argument (under
/// casts).
fn is_stack_allocation(init: &ast::Initializer) -> bool {
    let ast::Initializer::Expression(e) = init else { return false };
    let mut e: &Node<ast::Expression> = e;
    while let ast::Expression::Cast(c) = &e.node {
        e = &c.node.expression;
    }
    match &e.node {
        ast::Expression::Call(c) => ident(&c.node.callee).is_some_and(|n| STACK_ALLOCATORS.contains(&n)) && c.node.arguments.len() == 1,
        _ => false,
    }
}

/// The labels and jumps of the statements in a declaration's scope: the named labels, the
/// `goto`s to each, and whether a `case`/`default` of a `switch` around them occurs.
#[derive(Default, Clone)]
struct Labels {
    /// The number of enclosing `switch`es inside the scope.
    switches: usize,
    /// Whether a `case`/`default` not inside a `switch` of the scope occurs.
    case_found: bool,
    /// The named labels.
    labels: Vec<String>,
    /// The number of `goto`s to each label.
    gotos: HashMap<String, usize>,
}

impl<'a> Visit<'a> for Labels {
    fn visit_switch_statement(&mut self, s: &'a ast::SwitchStatement, span: &'a Span) {
        self.switches += 1;
        visit::visit_switch_statement(self, s, span);
        self.switches -= 1;
    }

    fn visit_label(&mut self, l: &'a ast::Label, span: &'a Span) {
        match l {
            ast::Label::Identifier(i) => self.labels.push(i.node.name.clone()),
            _ if self.switches == 0 => self.case_found = true,
            _ => {}
        }
        visit::visit_label(self, l, span);
    }

    fn visit_statement(&mut self, s: &'a ast::Statement, span: &'a Span) {
        if let ast::Statement::Goto(l) = s {
            *self.gotos.entry(l.node.name.clone()).or_default() += 1;
        }
        visit::visit_statement(self, s, span);
    }
}

impl<'a> Visit<'a> for Uses {
    fn visit_init_declarator(&mut self, d: &'a ast::InitDeclarator, span: &'a Span) {
        if let (Some(name), Some(init)) = (crate::translate::declarator_name(&d.declarator.node), &d.initializer) {
            if is_stack_allocation(&init.node) {
                self.allocs.push((d.declarator.span.start, name));
            }
        }
        visit::visit_init_declarator(self, d, span);
    }

    fn visit_declarator_kind(&mut self, k: &'a ast::DeclaratorKind, span: &'a Span) {
        if let ast::DeclaratorKind::Identifier(i) = k {
            *self.decls.entry(i.node.name.clone()).or_default() += 1;
        }
        visit::visit_declarator_kind(self, k, span);
    }

    fn visit_expression(&mut self, e: &'a ast::Expression, span: &'a Span) {
        match e {
            ast::Expression::Identifier(i) => {
                self.other_uses.insert(i.node.name.clone());
            }
            ast::Expression::UnaryOperator(u) if u.node.operator.node == ast::UnaryOperator::Address => {
                // `&*p` and `&p[0]` are `p` itself
                if let Some(p) = deref_of(&u.node.operand.node) {
                    self.other_uses.insert(p.to_string());
                }
                visit::visit_expression(self, e, span);
            }
            // (the index `0` of `p[0]` holds no identifier)
            _ => {
                if deref_of(e).is_none() {
                    visit::visit_expression(self, e, span);
                }
            }
        }
    }

    fn visit_statement(&mut self, s: &'a ast::Statement, span: &'a Span) {
        match s {
            ast::Statement::Compound(items) => {
                for (k, item) in items.iter().enumerate() {
                    if let ast::BlockItem::Declaration(d) = &item.node {
                        self.scope(&d.node, || {
                            let mut l = Labels::default();
                            for i in &items[k + 1..] {
                                l.visit_block_item(&i.node, &i.span);
                            }
                            l
                        });
                    }
                }
            }
            ast::Statement::For(f) => {
                if let ast::ForInitializer::Declaration(d) = &f.node.initializer.node {
                    self.scope(&d.node, || {
                        let mut l = Labels::default();
                        l.visit_statement(&f.node.statement.node, &f.node.statement.span);
                        l
                    });
                }
            }
            ast::Statement::Goto(l) => *self.gotos.entry(l.node.name.clone()).or_default() += 1,
            _ => {}
        }
        visit::visit_statement(self, s, span);
    }
}

impl Uses {
    /// Records the labels in the scope of a declaration's stack-allocated pointers (only those:
    /// walking the rest of the block for every declaration would be quadratic).
    fn scope(&mut self, d: &ast::Declaration, labels: impl FnOnce() -> Labels) {
        let keys: Vec<usize> = d
            .declarators
            .iter()
            .filter(|id| id.node.initializer.as_ref().is_some_and(|i| is_stack_allocation(&i.node)))
            .map(|id| id.node.declarator.span.start)
            .collect();
        if keys.is_empty() {
            return;
        }
        let l = labels();
        for k in keys {
            self.scopes.insert(k, l.clone());
        }
    }
}
