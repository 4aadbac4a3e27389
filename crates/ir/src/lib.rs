//! The program model of Tracery: procedures, one control-flow graph per procedure whose edges
//! carry statements with transition formulas, error locations tagged with the violated property,
//! and the passes that prepare a program for an engine.

pub mod accel;
pub mod builder;
pub mod cell_templates;
pub mod cells;
pub mod cfg;
pub mod descent;
pub mod print;
pub mod recurrence;
pub mod slice;
pub mod stmt;

pub use cfg::{
    old_name, old_var, Block, Call, Cfg, Edge, EdgeId, Label, LocId, Location, Nondet, Procedure, Program, SourcePos, SourceType, Spec,
    ThreadOp, Violation, ViolationKind,
};
pub use stmt::{Stmt, TransFormula};
pub mod inline;
pub mod interleavings;
pub mod lbe;
pub mod nested;
pub mod por;
pub mod threads;

pub use accel::{accelerate, has_polynomial_loop, Acceleration};
pub use cell_templates::cell_candidates;
pub use cells::cell_abstraction;
pub use inline::{prepare, PrepareError};
pub use lbe::{large_block_encoding, sequential_block_encoding, thread_block_encoding};
pub use nested::{prepare_nested, NestedProgram, ReturnLetter};
pub use slice::{slice, without_dead_ends, SliceSize};
pub use threads::{prepare_threads, ThreadProgram};
