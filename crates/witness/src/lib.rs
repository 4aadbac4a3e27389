//! What a verdict comes with for other tools: a C test harness that replays a counterexample
//! natively (`harness`), and SV-COMP witnesses in YAML format 2.0 (`yaml`) and GraphML 1.0
//! (`graphml`).

pub mod graphml;
pub mod harness;
mod task;
pub mod yaml;

pub use task::Task;
