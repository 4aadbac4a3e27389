//! Which solver backs a solver instance: Z3 in-process, or an SMT-LIB2 process.

use crate::smtlib::SmtLibSolver;
use crate::solver::{Solver, SolverError};
use crate::z3backend::Z3Solver;
use std::fmt;
use std::str::FromStr;

/// The command `craig-smtlib` runs unless told otherwise (cvc5 1.0 interpolates).
pub const DEFAULT_INTERPOLATOR: &str = "cvc5 --incremental --lang smt2";

/// A solver choice: `z3` (in-process, the default) or `smtlib:CMD ARGS`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum SolverSpec {
    #[default]
    Z3,
    /// A process speaking SMT-LIB2 on stdin/stdout: program and arguments.
    SmtLib(Vec<String>),
}

impl SolverSpec {
    /// A new solver instance (for a process: started, so that failures show here).
    pub fn create(&self) -> Result<Box<dyn Solver>, SolverError> {
        Ok(match self {
            SolverSpec::Z3 => Box::new(Z3Solver::new()),
            SolverSpec::SmtLib(argv) => Box::new(SmtLibSolver::new(argv)?),
        })
    }
}

impl fmt::Display for SolverSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolverSpec::Z3 => write!(f, "z3"),
            SolverSpec::SmtLib(argv) => write!(f, "smtlib:{}", argv.join(" ")),
        }
    }
}

/// Splits a command line at whitespace (no shell quoting).
pub fn split_command(cmd: &str) -> Vec<String> {
    cmd.split_whitespace().map(String::from).collect()
}

impl FromStr for SolverSpec {
    type Err = String;
    fn from_str(s: &str) -> Result<SolverSpec, String> {
        match s.split_once(':') {
            _ if s == "z3" => Ok(SolverSpec::Z3),
            Some(("smtlib", cmd)) if !split_command(cmd).is_empty() => Ok(SolverSpec::SmtLib(split_command(cmd))),
            _ => Err(format!("unknown solver `{s}` (expected z3 or smtlib:COMMAND ARGS, e.g. `smtlib:cvc5 --incremental --lang smt2`)")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print() {
        assert_eq!("z3".parse(), Ok(SolverSpec::Z3));
        let s: SolverSpec = "smtlib:cvc5  --incremental --lang smt2".parse().unwrap();
        assert_eq!(s, SolverSpec::SmtLib(vec!["cvc5".into(), "--incremental".into(), "--lang".into(), "smt2".into()]));
        assert_eq!(s.to_string(), "smtlib:cvc5 --incremental --lang smt2");
        assert!("smtlib:".parse::<SolverSpec>().is_err());
        assert!("cvc5".parse::<SolverSpec>().is_err());
    }
}
