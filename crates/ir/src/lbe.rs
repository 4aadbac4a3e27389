//! Large-block encoding: removes locations that are neither entry, exit, error, nor the target
//! of a self-loop, by composing their incoming and outgoing edges sequentially, and merges
//! parallel edges into a nondeterministic choice. Loop heads survive because removing one
//! would need a self-loop composition.

use crate::cfg::{Block, Cfg, Edge, Label, LocId, SourcePos, ThreadOp};
use smt::Term;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// Bound on `in × out` edges for removing a location (keeps the encoding from exploding).
const MAX_PRODUCT: usize = 4;

/// The large-block encoding of a CFG (call edges are left as they are). Locations are
/// renumbered; unreachable ones are dropped.
pub fn large_block_encoding(cfg: &Cfg) -> Cfg {
    encode(cfg, true, &Unrestricted)
}

/// The encoding for termination: only sequences are composed, every loop head stays, and
/// parallel edges stay apart, so that a lasso is one path around one loop (its ranking
/// function need not cover the loop's other paths or the loops nested in it; the learnt
/// automata combine the paths' arguments).
pub fn sequential_block_encoding(cfg: &Cfg) -> Cfg {
    encode(cfg, false, &Unrestricted)
}

/// The encoding of one thread of a concurrent program: a composed block must not hide a point
/// where another thread may interleave and observe or change shared state, so statements are
/// composed only where both touch no variable of `shared` (they commute with every statement of
/// another thread), or at a location inside an atomic section on every path (no other thread
/// runs there; unless `accesses_apart`: data races are checked on the accesses as they are).
/// Thread operations are never composed.
pub fn thread_block_encoding(cfg: &Cfg, shared: &BTreeSet<Term>, accesses_apart: bool) -> Cfg {
    let atomic = if accesses_apart { vec![false; cfg.locs.len()] } else { atomic_interior(cfg) };
    let rules = ThreadRules { shared, atomic };
    encode(cfg, true, &rules)
}

/// Which compositions an encoding may make.
trait Rules {
    /// Whether two edges meeting at `at` may be composed, or merged into a choice there.
    fn composable(&self, at: LocId, a: &Edge, b: &Edge) -> bool;
}

/// Every sequence and choice of statements may be composed (a sequential program).
struct Unrestricted;

impl Rules for Unrestricted {
    fn composable(&self, _: LocId, _: &Edge, _: &Edge) -> bool {
        true
    }
}

struct ThreadRules<'a> {
    shared: &'a BTreeSet<Term>,
    /// Locations inside an atomic section on every path.
    atomic: Vec<bool>,
}

impl Rules for ThreadRules<'_> {
    fn composable(&self, at: LocId, a: &Edge, b: &Edge) -> bool {
        let local = |e: &Edge| {
            let tf = e.trans_formula();
            !tf.in_vars.keys().chain(tf.out_vars.keys()).any(|v| self.shared.contains(v))
        };
        self.atomic[at] || (local(a) && local(b))
    }
}

/// The locations that are inside an atomic section on every path from the entry: reached from
/// the start of a section without leaving it, and not reached from the entry or the end of a
/// section without entering one.
fn atomic_interior(cfg: &Cfg) -> Vec<bool> {
    let reach = |starts: Vec<LocId>, stop: &dyn Fn(&ThreadOp) -> bool| {
        let succ = cfg.successors();
        let mut seen = vec![false; cfg.locs.len()];
        let mut stack = starts;
        while let Some(l) = stack.pop() {
            if std::mem::replace(&mut seen[l], true) {
                continue;
            }
            for &e in &succ[l] {
                if !matches!(&cfg.edges[e].label, Label::Thread(op) if stop(op)) {
                    stack.push(cfg.edges[e].dst);
                }
            }
        }
        seen
    };
    let targets = |op: ThreadOp| cfg.edges.iter().filter(|e| e.label == Label::Thread(op.clone())).map(|e| e.dst).collect::<Vec<_>>();
    let inside = reach(targets(ThreadOp::AtomicBegin), &|op| *op == ThreadOp::AtomicEnd);
    let mut outside_starts = targets(ThreadOp::AtomicEnd);
    outside_starts.push(cfg.entry);
    let outside = reach(outside_starts, &|op| *op == ThreadOp::AtomicBegin);
    inside.iter().zip(&outside).map(|(&i, &o)| i && !o).collect()
}

/// Composes sequences, and with `choices` also merges parallel edges and removes loop heads,
/// as far as `rules` allow.
fn encode(cfg: &Cfg, choices: bool, rules: &dyn Rules) -> Cfg {
    let mut g = Graph { edges: vec![], ins: vec![BTreeSet::new(); cfg.locs.len()], outs: vec![BTreeSet::new(); cfg.locs.len()] };
    for e in &cfg.edges {
        g.add(e.clone());
    }
    let keep = |l: LocId| l == cfg.entry || l == cfg.exit || cfg.locs[l].error.is_some();
    // Loop heads go last, so that the location a loop keeps is its head (where invariants
    // are reported) whenever the rest of the loop can be composed away.
    let heads: BTreeSet<LocId> = cfg.loop_heads().into_iter().collect();
    let (others, heads): (Vec<LocId>, Vec<LocId>) = (0..cfg.locs.len()).filter(|&l| !keep(l)).partition(|l| !heads.contains(l));
    loop {
        let mut changed = choices && merge_parallel(&mut g, rules);
        changed |= collapse_chains(&mut g, &others, rules);
        changed |= remove_locations(&mut g, &others, rules);
        if !changed && choices {
            changed = remove_locations(&mut g, &heads, rules);
        }
        if !changed {
            break;
        }
    }
    renumber(cfg, g.edges.into_iter().flatten().collect())
}

/// Removes each location of `locs` that has no self-loop and few enough edges, composing its
/// incoming with its outgoing edges; whether any was removed.
fn remove_locations(g: &mut Graph, locs: &[LocId], rules: &dyn Rules) -> bool {
    let mut changed = false;
    for &l in locs {
        let ins: Vec<usize> = g.ins[l].iter().copied().collect();
        let outs: Vec<usize> = g.outs[l].iter().copied().collect();
        if ins.is_empty() || outs.is_empty() || ins.iter().any(|i| outs.contains(i)) {
            continue;
        }
        if ins.len() * outs.len() > MAX_PRODUCT && ins.len() > 1 && outs.len() > 1 {
            continue;
        }
        let mut composed = vec![];
        for &i in &ins {
            for &o in &outs {
                if let (Some(a), Some(b)) = (&g.edges[i], &g.edges[o]) {
                    composed.extend(compose(&[a, b]).filter(|_| rules.composable(l, a, b)));
                }
            }
        }
        if composed.len() != ins.len() * outs.len() {
            continue; // a call edge, or edges the rules keep apart
        }
        for i in ins.into_iter().chain(outs) {
            g.remove(i);
        }
        for e in composed {
            g.add(e);
        }
        changed = true;
    }
    changed
}

/// Composes each chain of locations of `locs` with one incoming and one outgoing statement edge
/// (that `rules` let compose there) into one edge at once: removed one location at a time, a
/// chain of n statements would copy its growing block n times. Whether any was composed.
fn collapse_chains(g: &mut Graph, locs: &[LocId], rules: &dyn Rules) -> bool {
    let mut candidate = vec![false; g.ins.len()];
    for &l in locs {
        candidate[l] = true;
    }
    // the edges into and out of an inner location of a chain
    let inner = |g: &Graph, l: LocId| -> Option<(usize, usize)> {
        let (&[i], &[o]) = (&g.ins[l].iter().copied().collect::<Vec<_>>()[..], &g.outs[l].iter().copied().collect::<Vec<_>>()[..]) else {
            return None;
        };
        let (a, b) = (g.edges[i].as_ref()?, g.edges[o].as_ref()?);
        let statements = matches!((&a.label, &b.label), (Label::Stmt(_), Label::Stmt(_)));
        (candidate[l] && i != o && statements && rules.composable(l, a, b)).then_some((i, o))
    };
    let mut changed = false;
    let mut done = vec![false; g.ins.len()];
    for &l in locs {
        let Some((mut first, _)) = inner(g, l).filter(|_| !done[l]) else { continue };
        // back to the chain's first inner location (around a cycle of them: back to `l`)
        loop {
            let before = g.edges[first].as_ref().map_or(l, |e| e.src);
            match inner(g, before) {
                Some((i, _)) if before != l => first = i,
                _ => break,
            }
        }
        let mut chain = vec![first];
        let mut at = g.edges[first].as_ref().map_or(l, |e| e.dst);
        while let Some((_, o)) = inner(g, at).filter(|_| !done[at]) {
            done[at] = true;
            chain.push(o);
            at = g.edges[o].as_ref().map_or(l, |e| e.dst);
        }
        // a single inner location is `remove_locations`' case; a closed cycle is unreachable
        if chain.len() < 3 || chain.first() == chain.last() {
            continue;
        }
        let parts: Vec<&Edge> = chain.iter().filter_map(|&e| g.edges[e].as_ref()).collect();
        let Some(composed) = compose(&parts) else { continue };
        for e in chain {
            g.remove(e);
        }
        g.add(composed);
        changed = true;
    }
    changed
}

/// Edges with incremental adjacency.
struct Graph {
    edges: Vec<Option<Edge>>,
    ins: Vec<BTreeSet<usize>>,
    outs: Vec<BTreeSet<usize>>,
}

impl Graph {
    fn add(&mut self, e: Edge) {
        let i = self.edges.len();
        self.ins[e.dst].insert(i);
        self.outs[e.src].insert(i);
        self.edges.push(Some(e));
    }

    fn remove(&mut self, i: usize) -> Option<Edge> {
        let e = self.edges[i].take()?;
        self.ins[e.dst].remove(&i);
        self.outs[e.src].remove(&i);
        Some(e)
    }
}

/// The over-approximation reasons of two parts of a block, each reason once.
fn join_reasons(a: &Option<String>, b: &Option<String>) -> Option<String> {
    match (a, b) {
        (Some(x), Some(y)) => {
            let mut reasons: Vec<&str> = x.split("; ").collect();
            for r in y.split("; ") {
                if !reasons.contains(&r) {
                    reasons.push(r);
                }
            }
            Some(reasons.join("; "))
        }
        (Some(x), None) | (None, Some(x)) => Some(x.clone()),
        (None, None) => None,
    }
}

/// The sequential composition of a path of statement edges (`None` if one is a call or a
/// thread operation): the block of their original edges, and the statement it stands for.
fn compose(path: &[&Edge]) -> Option<Edge> {
    let (first, last) = (path.first()?, path.last()?);
    if path.iter().any(|e| !matches!(e.label, Label::Stmt(_))) {
        return None;
    }
    let mut blocks = vec![];
    for x in path.iter().map(|e| e.as_block()) {
        match x {
            Block::Seq(bs) => blocks.extend(bs),
            x => blocks.push(x),
        }
    }
    let pos = path.iter().find_map(|e| e.pos.clone());
    let overapprox = path.iter().fold(None, |reasons, e| join_reasons(&reasons, &e.overapprox));
    Some(composed(first.src, last.dst, Block::Seq(blocks), pos, overapprox))
}

/// The edge of a composed block: its statement is the block's ([`Block::stmt`]).
fn composed(src: LocId, dst: LocId, block: Block, pos: Option<SourcePos>, overapprox: Option<String>) -> Edge {
    let mut e = Edge::new(src, dst, Label::Stmt(block.stmt()), pos, overapprox);
    e.block = Some(Arc::new(block));
    e
}

/// Merges edges with the same source and target into one choice edge.
fn merge_parallel(g: &mut Graph, rules: &dyn Rules) -> bool {
    let mut groups: BTreeMap<(LocId, LocId), Vec<usize>> = BTreeMap::new();
    for (i, e) in g.edges.iter().enumerate() {
        if let Some(e) = e.as_ref().filter(|e| matches!(e.label, Label::Stmt(_))) {
            groups.entry((e.src, e.dst)).or_default().push(i);
        }
    }
    let mut changed = false;
    for ((src, dst), idx) in groups {
        let edge = |i: usize| g.edges[i].as_ref();
        let apart =
            idx.iter().zip(&idx[1..]).any(|(&a, &b)| matches!((edge(a), edge(b)), (Some(a), Some(b)) if !rules.composable(src, a, b)));
        if idx.len() < 2 || apart {
            continue;
        }
        let mut blocks = vec![];
        let mut overapprox = None;
        let mut pos = None;
        for &i in &idx {
            if let Some(e) = g.remove(i) {
                blocks.push(e.as_block());
                overapprox = join_reasons(&overapprox, &e.overapprox);
                pos = pos.or(e.pos);
            }
        }
        g.add(composed(src, dst, Block::Choice(blocks), pos, overapprox));
        changed = true;
    }
    changed
}

/// Keeps the locations reachable from the entry and renumbers them densely.
fn renumber(cfg: &Cfg, edges: Vec<Edge>) -> Cfg {
    let mut reach = vec![false; cfg.locs.len()];
    let mut stack = vec![cfg.entry];
    reach[cfg.entry] = true;
    while let Some(l) = stack.pop() {
        for e in edges.iter().filter(|e| e.src == l) {
            if !reach[e.dst] {
                reach[e.dst] = true;
                stack.push(e.dst);
            }
        }
    }
    reach[cfg.exit] = true;
    let mut new_id = vec![usize::MAX; cfg.locs.len()];
    let mut out = Cfg::default();
    for (l, loc) in cfg.locs.iter().enumerate() {
        if reach[l] {
            new_id[l] = out.locs.len();
            out.locs.push(loc.clone());
        }
    }
    for mut e in edges.into_iter().filter(|e| reach[e.src]) {
        e.src = new_id[e.src];
        e.dst = new_id[e.dst];
        out.edges.push(e);
    }
    out.entry = new_id[cfg.entry];
    out.exit = new_id[cfg.exit];
    out
}
