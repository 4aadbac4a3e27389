//! Errors of the C front end.

use std::fmt;

/// What kind of problem an error reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// The input is not valid C (preprocessor failure, parse error, ill-typed program).
    Syntax,
    /// The input uses a construct this front end does not support (yet).
    Unsupported,
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ErrorKind::Syntax => "syntax error",
            ErrorKind::Unsupported => "unsupported",
        })
    }
}

/// An error with its source position, e.g. `f.c:3:7: unsupported: pointer dereference`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{pos}: {kind}: {message}")]
pub struct CError {
    /// Where the problem is (in the original source where line markers allow).
    pub pos: ir::SourcePos,
    /// Syntax or unsupported.
    pub kind: ErrorKind,
    /// A human-readable description.
    pub message: String,
}

/// Result type of the front end.
pub type Result<T> = std::result::Result<T, CError>;

impl CError {
    /// An `unsupported` error at `pos`.
    pub fn unsupported(pos: &ir::SourcePos, message: impl Into<String>) -> CError {
        CError { pos: pos.clone(), kind: ErrorKind::Unsupported, message: message.into() }
    }

    /// A syntax (or typing) error at `pos`.
    pub fn syntax(pos: &ir::SourcePos, message: impl Into<String>) -> CError {
        CError { pos: pos.clone(), kind: ErrorKind::Syntax, message: message.into() }
    }
}
