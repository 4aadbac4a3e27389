//! Partial-order reduction of the interleavings of threads by sleep sets. Two moves of different
//! threads are *independent* when each can be taken after the other and both orders end in the
//! same state: neither writes a variable the other reads or writes, neither is an atomic
//! section's boundary or a data-race check, and they do not compete for thread instances (forks
//! and joins of one procedure's instances). Words that differ only in the order of adjacent
//! independent moves reach the same state by the same values, so one of them suffices: the
//! reduction keeps, of each class, the word that is least in the lexicographic order of moves.
//! Its automaton has a state per product state and *sleep set* (the moves whose exploration an
//! earlier, smaller sibling already covers); every error location reachable in the product is
//! reachable in it, by a word of the same class.

use crate::cfg::{Cfg, Edge, LocId};
use crate::threads::{Move, MoveKind, Product, MAX_PRODUCT_LOCS};
use smt::Term;
use std::collections::{BTreeSet, HashMap, VecDeque};

/// What a move touches, for deciding independence.
struct Footprint {
    reads: BTreeSet<Term>,
    writes: BTreeSet<Term>,
}

impl Footprint {
    fn of(e: &Edge) -> Footprint {
        let tf = e.trans_formula();
        Footprint { reads: tf.in_vars.keys().cloned().collect(), writes: tf.assigned_vars() }
    }
}

/// Whether two moves commute (see the module documentation); `same_template(j, k)` tells
/// whether two threads are instances of one procedure.
fn independent(a: &Move, fa: &Footprint, b: &Move, fb: &Footprint, same_template: &dyn Fn(usize, usize) -> bool) -> bool {
    use MoveKind::*;
    if a.thread == b.thread {
        return false;
    }
    let competing = match (a.kind, b.kind) {
        (Atomic | Race(..) | Limit, _) | (_, Atomic | Race(..) | Limit) => true,
        (Fork(j), Fork(k)) | (Fork(j), Join(k)) | (Join(k), Fork(j)) => same_template(j, k),
        (Join(j), Join(k)) => j == k,
        _ => false,
    };
    let clash = |x: &Footprint, y: &Footprint| x.writes.iter().any(|v| y.reads.contains(v) || y.writes.contains(v));
    !competing && !clash(fa, fb) && !clash(fb, fa)
}

/// The sleep-set reduction of `p` (`templates[t]`: the procedure thread `t` runs).
pub fn sleep_set_reduction(p: &Product, templates: &[&str]) -> Result<Product, String> {
    // the letters: the distinct moves, in their order, with their footprints
    let mut letters: Vec<Move> = p.moves.clone();
    letters.sort();
    letters.dedup();
    let id: HashMap<Move, usize> = letters.iter().enumerate().map(|(k, m)| (*m, k)).collect();
    let mut prints: Vec<Option<Footprint>> = (0..letters.len()).map(|_| None).collect();
    for (e, m) in p.cfg.edges.iter().zip(&p.moves) {
        prints[id[m]].get_or_insert_with(|| Footprint::of(e));
    }
    let same_template = |j: usize, k: usize| templates[j] == templates[k];
    let mut cache: HashMap<(usize, usize), bool> = HashMap::new();
    let mut indep = |a: usize, b: usize| {
        *cache.entry((a.min(b), a.max(b))).or_insert_with(|| match (&prints[a], &prints[b]) {
            (Some(fa), Some(fb)) => independent(&letters[a], fa, &letters[b], fb, &same_template),
            _ => false,
        })
    };
    let succ = p.cfg.successors();
    let mut out = Cfg::default();
    let mut moves = vec![];
    let mut states = vec![];
    let mut index: HashMap<(LocId, Vec<usize>), LocId> = HashMap::new();
    let mut queue = VecDeque::new();
    let mut intern =
        |q: LocId, sleep: Vec<usize>, out: &mut Cfg, queue: &mut VecDeque<(LocId, Vec<usize>, LocId)>| -> Result<LocId, String> {
            if let Some(&l) = index.get(&(q, sleep.clone())) {
                return Ok(l);
            }
            if out.locs.len() >= MAX_PRODUCT_LOCS {
                return Err(format!("more than {MAX_PRODUCT_LOCS} interleaved states after the reduction"));
            }
            out.locs.push(p.cfg.locs[q].clone());
            states.push(p.states[q].clone());
            let l = out.locs.len() - 1;
            index.insert((q, sleep.clone()), l);
            queue.push_back((q, sleep, l));
            Ok(l)
        };
    out.entry = intern(p.cfg.entry, vec![], &mut out, &mut queue)?;
    while let Some((q, sleep, src)) = queue.pop_front() {
        let mut outgoing: Vec<(usize, usize)> = succ[q].iter().map(|&e| (id[&p.moves[e]], e)).collect();
        outgoing.sort();
        let mut explored: Vec<usize> = vec![];
        for (a, e) in outgoing {
            if sleep.contains(&a) {
                continue;
            }
            let next_sleep: Vec<usize> =
                sleep.iter().chain(&explored).copied().filter(|&b| indep(a, b)).collect::<BTreeSet<_>>().into_iter().collect();
            explored.push(a);
            let dst = intern(p.cfg.edges[e].dst, next_sleep, &mut out, &mut queue)?;
            out.add_edge(p.cfg.edges[e].between(src, dst));
            moves.push(p.moves[e]);
        }
    }
    out.exit = out.entry;
    Ok(Product { cfg: out, moves, states })
}
