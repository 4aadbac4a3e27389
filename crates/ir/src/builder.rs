//! Construction of control-flow graphs with location merging: jumping from a location that
//! has no outgoing edges to another location merges the two (union-find) instead of adding
//! a skip edge, so the finished CFG has no useless edges.

use crate::{Cfg, Label, Nondet, SourcePos, Stmt, Violation};
use std::collections::{HashMap, HashSet};

/// A location under construction.
struct BLoc {
    label: Option<String>,
    pos: Option<SourcePos>,
    error: Option<Violation>,
}

/// An edge under construction.
struct BEdge {
    src: usize,
    dst: usize,
    label: Label,
    pos: Option<SourcePos>,
    overapprox: Option<String>,
    exact: Option<Stmt>,
    bit_precise_exact: bool,
    nondet: Option<Nondet>,
}

/// A CFG under construction.
pub struct Builder {
    locs: Vec<BLoc>,
    parent: Vec<usize>,
    edges: Vec<BEdge>,
    /// The entry location (never merged with anything, never a jump target).
    pub entry: usize,
    /// The exit location.
    pub exit: usize,
}

impl Builder {
    /// A builder with an entry and an exit location.
    pub fn new(pos: Option<SourcePos>) -> Builder {
        let mut b = Builder { locs: Vec::new(), parent: Vec::new(), edges: Vec::new(), entry: 0, exit: 0 };
        b.entry = b.loc(pos.clone());
        b.exit = b.loc(pos);
        b
    }

    /// A fresh location.
    pub fn loc(&mut self, pos: Option<SourcePos>) -> usize {
        self.locs.push(BLoc { label: None, pos, error: None });
        self.parent.push(self.locs.len() - 1);
        self.locs.len() - 1
    }

    /// A fresh location for a source label.
    pub fn label_loc(&mut self, name: &str, pos: Option<SourcePos>) -> usize {
        let l = self.loc(pos);
        if let Some(x) = self.locs.get_mut(l) {
            x.label = Some(name.to_string());
        }
        l
    }

    /// A fresh error location.
    pub fn error_loc(&mut self, v: Violation) -> usize {
        let l = self.loc(v.pos.clone());
        if let Some(x) = self.locs.get_mut(l) {
            x.error = Some(v);
        }
        l
    }

    /// The number of edges added so far.
    pub fn edge_count(&self) -> usize {
        self.edges.len()
    }

    /// Adds an edge.
    pub fn edge(&mut self, src: usize, dst: usize, label: Label, pos: Option<SourcePos>, overapprox: Option<String>) {
        self.edges.push(BEdge { src, dst, label, pos, overapprox, exact: None, bit_precise_exact: false, nondet: None });
    }

    /// Marks the last edge added as the havoc of an input function's result.
    pub fn mark_nondet(&mut self, nondet: Nondet) {
        if let Some(e) = self.edges.last_mut() {
            e.nondet = Some(nondet);
        }
    }

    /// Marks the last edge added (an over-approximation) as modelled exactly by the front
    /// end's bit-precise translation.
    pub fn mark_bit_precise_exact(&mut self) {
        if let Some(e) = self.edges.last_mut() {
            e.bit_precise_exact = true;
        }
    }

    /// Gives the last edge added (an over-approximation) its exact statement.
    pub fn mark_exact(&mut self, exact: Stmt) {
        if let Some(e) = self.edges.last_mut() {
            e.exact = Some(exact);
        }
    }

    fn find(&mut self, mut x: usize) -> usize {
        let mut root = x;
        while let Some(&p) = self.parent.get(root) {
            if p == root {
                break;
            }
            root = p;
        }
        while let Some(&p) = self.parent.get(x) {
            if p == root {
                break;
            }
            self.parent[x] = root;
            x = p;
        }
        root
    }

    /// Control at `cursor` (which has no outgoing edges and is abandoned afterwards) continues
    /// at `target`: merges the two, or adds a skip edge when `cursor` is the entry. A jump
    /// within one class is a loop without statements (`while (1) {}`): it keeps a skip
    /// self-loop, since an execution that stays there forever does not terminate (a location
    /// without successors is where an execution ends).
    pub fn jump(&mut self, cursor: usize, target: usize, pos: Option<SourcePos>) {
        let (c, t) = (self.find(cursor), self.find(target));
        if c == t {
            self.edge(c, c, Label::Stmt(Stmt::Assume(smt::build::tt())), pos, None);
            return;
        }
        if c == self.entry || t == self.entry {
            self.edge(c, t, Label::Stmt(Stmt::Assume(smt::build::tt())), pos, None);
        } else if c == self.exit {
            self.parent[t] = c;
        } else {
            self.parent[c] = t;
        }
    }

    /// The finished CFG: merged classes become one location, locations unreachable from the
    /// entry are dropped (the exit is always kept), duplicate edges are removed.
    pub fn finish(mut self, proc_name: &str) -> Cfg {
        let n = self.locs.len();
        let reps: Vec<usize> = (0..n).map(|i| self.find(i)).collect();
        let rep = |i: usize| reps.get(i).copied().unwrap_or(i);
        // edges between classes, deduplicated
        let mut seen = HashSet::new();
        let mut edges = Vec::new();
        for e in std::mem::take(&mut self.edges) {
            let (s, d) = (rep(e.src), rep(e.dst));
            if seen.insert((s, d, e.label.clone())) {
                edges.push(BEdge { src: s, dst: d, ..e });
            }
        }
        let mut succ: HashMap<usize, Vec<usize>> = HashMap::new();
        for e in &edges {
            succ.entry(e.src).or_default().push(e.dst);
        }
        let entry = rep(self.entry);
        let exit = rep(self.exit);
        let mut reach = HashSet::new();
        let mut stack = vec![entry];
        while let Some(l) = stack.pop() {
            if reach.insert(l) {
                stack.extend(succ.get(&l).into_iter().flatten().copied());
            }
        }
        reach.insert(exit);
        // class data: first label, error, and the position of the location jumped to (a loop
        // head keeps its loop's position), else the first one
        let mut label: HashMap<usize, String> = HashMap::new();
        let mut pos: HashMap<usize, SourcePos> = HashMap::new();
        for (i, l) in self.locs.iter().enumerate() {
            let r = rep(i);
            if let Some(name) = &l.label {
                label.entry(r).or_insert_with(|| name.clone());
            }
            if let Some(p) = self.locs.get(r).and_then(|own| own.pos.as_ref()).or(l.pos.as_ref()) {
                pos.entry(r).or_insert_with(|| p.clone());
            }
        }
        let taken: HashSet<String> = self.locs.iter().filter_map(|l| l.label.clone()).collect();
        let mut cfg = Cfg::default();
        let mut new_id: HashMap<usize, usize> = HashMap::new();
        let mut order: Vec<usize> = (0..n).filter(|&i| rep(i) == i && reach.contains(&i)).collect();
        order.sort_by_key(|&i| (i != entry, i == exit, i));
        let mut counter = 0usize;
        for r in order {
            let p = pos.get(&r).cloned();
            let id = if let Some(v) = self.locs.get(r).and_then(|l| l.error.clone()) {
                cfg.add_error_loc(v)
            } else {
                let name = if r == entry {
                    format!("{proc_name}.entry")
                } else if r == exit {
                    format!("{proc_name}.exit")
                } else if let Some(l) = label.get(&r) {
                    l.clone()
                } else {
                    loop {
                        counter += 1;
                        let c = format!("L{counter}");
                        if !taken.contains(&c) {
                            break c;
                        }
                    }
                };
                cfg.add_loc(name, p)
            };
            new_id.insert(r, id);
        }
        cfg.entry = new_id.get(&entry).copied().unwrap_or(0);
        cfg.exit = new_id.get(&exit).copied().unwrap_or(0);
        for e in edges {
            if let (Some(&s), Some(&d)) = (new_id.get(&e.src), new_id.get(&e.dst)) {
                if reach.contains(&e.src) {
                    let mut edge = crate::Edge::new(s, d, e.label, e.pos, e.overapprox);
                    edge.nondet = e.nondet;
                    edge.exact = e.exact;
                    edge.bit_precise_exact = e.bit_precise_exact;
                    cfg.add_edge(edge);
                }
            }
        }
        cfg
    }
}
