//! Recursion for termination: the calls of a [`NestedProgram`] unfolded into one call-free CFG
//! whose infinite paths cover every infinite execution.
//!
//! Each `Call` edge becomes two edges:
//! - the *descent* to the callee's entry, with the call letter's statement (parameters bound,
//!   the callee's results and locals havocked): exact for an execution that never returns from
//!   the call, whose caller's frame is never read again;
//! - the *step over* the call to its return location, havocking the call's result variables
//!   and the globals the callee may modify: an over-approximation of a call that returns (the
//!   caller's frame comes back from the call site).
//!
//! An infinite execution either returns from all but finitely many of the calls it makes at
//! some depth (it steps over them, and runs forever at that depth), or it descends forever;
//! either way the sequence of its calls that never return, with steps over the others, is an
//! infinite path of the unfolded CFG whose edges relate the top frames' states. So a ranking
//! argument for the unfolded CFG proves termination; a lasso without steps over calls is a
//! real infinite execution (its stack grows with every round that descends).

use crate::cfg::{Cfg, Edge, Label, LocId};
use crate::inline::PrepareError;
use crate::nested::NestedProgram;
use crate::stmt::Stmt;
use smt::build::tt;
use smt::Term;
use std::collections::BTreeMap;

/// Why a step over a call is not exact.
const STEP_OVER: &str = "a recursive call's effect (its results and the globals it may modify are havocked)";

impl NestedProgram {
    /// The unfolded CFG (see the module documentation): entry and exit are the entry
    /// procedure's; each recursive procedure's locations are copied once.
    pub fn unfold_calls(&self) -> Result<Cfg, PrepareError> {
        let mut cfg = Cfg::default();
        let mut calls = vec![];
        let offset = copy_into(&mut cfg, &self.entry, &mut calls);
        (cfg.entry, cfg.exit) = (self.entry.entry + offset, self.entry.exit + offset);
        let mut entries: BTreeMap<&str, LocId> = BTreeMap::new();
        for (name, body) in &self.procedures {
            let offset = copy_into(&mut cfg, body, &mut calls);
            entries.insert(name, body.entry + offset);
        }
        for call_edge in calls {
            let Label::Call(call) = &call_edge.label else { continue };
            let callee_entry = *entries.get(call.callee.as_str()).ok_or_else(|| PrepareError::UnknownProcedure(call.callee.clone()))?;
            let descent = Edge::new(call_edge.src, callee_entry, Label::Stmt(self.call_stmt(call)?), call_edge.pos.clone(), None);
            cfg.add_edge(descent);
            let mut havoc: Vec<Term> = call.rets.clone();
            havoc.extend(self.modified.get(&call.callee).into_iter().flatten().filter(|g| !call.rets.contains(g)).cloned());
            let effect = if havoc.is_empty() { Stmt::Assume(tt()) } else { Stmt::Havoc(havoc) };
            let step_over = Edge::new(call_edge.src, call_edge.dst, Label::Stmt(effect), call_edge.pos.clone(), Some(STEP_OVER.into()));
            cfg.add_edge(step_over);
        }
        Ok(cfg)
    }
}

/// Copies `part`'s locations and statement edges into `cfg` (its call edges, moved to the new
/// locations, into `calls`); returns the offset of its locations.
fn copy_into(cfg: &mut Cfg, part: &Cfg, calls: &mut Vec<Edge>) -> LocId {
    let offset = cfg.locs.len();
    cfg.locs.extend(part.locs.iter().cloned());
    for e in &part.edges {
        let moved = e.between(e.src + offset, e.dst + offset);
        match e.label {
            Label::Stmt(_) => {
                cfg.add_edge(moved);
            }
            Label::Call(_) => calls.push(moved),
            Label::Thread(_) => unreachable!("a recursive program with threads is not unfolded"),
        }
    }
    offset
}
