//! Errors of the Boogie front end.

use std::fmt;
use std::sync::Arc;

/// What kind of problem an error reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// The input is not syntactically valid Boogie.
    Syntax,
    /// The input is ill-typed or refers to undeclared names.
    Type,
    /// The input uses a construct this front end does not support.
    Unsupported,
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ErrorKind::Syntax => "syntax error",
            ErrorKind::Type => "type error",
            ErrorKind::Unsupported => "unsupported",
        })
    }
}

/// An error with its source position, e.g. `f.bpl:3:7: type error: ...`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{pos}: {kind}: {message}")]
pub struct BoogieError {
    /// Where the problem is.
    pub pos: ir::SourcePos,
    /// Syntax, type or unsupported.
    pub kind: ErrorKind,
    /// A human-readable description.
    pub message: String,
}

/// A position (1-based line and column) inside the file being parsed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Pos {
    /// 1-based line.
    pub line: u32,
    /// 1-based column (in characters).
    pub col: u32,
}

impl Pos {
    /// The full source position in `file`.
    pub fn at(self, file: &Arc<str>) -> ir::SourcePos {
        ir::SourcePos { file: file.clone(), line: self.line, col: self.col }
    }
}

/// Result type of the front end.
pub type Result<T> = std::result::Result<T, BoogieError>;

/// Builds an error of the given kind at `pos` in `file`.
pub fn err(file: &Arc<str>, pos: Pos, kind: ErrorKind, message: impl Into<String>) -> BoogieError {
    BoogieError { pos: pos.at(file), kind, message: message.into() }
}
