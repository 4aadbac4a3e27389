//! Boogie front end of Tracery: a hand-written lexer and recursive-descent parser for the
//! Boogie dialect of Ultimate's examples, a type checker, and the translation into the
//! program model of the `ir` crate (one control-flow graph per implemented procedure).

mod ast;
mod body;
mod error;
mod expr;
mod lexer;
mod parse_expr;
mod parser;
mod translate;

pub use error::{BoogieError, ErrorKind};

use std::sync::Arc;

/// Decodes source bytes: UTF-8 if valid, Latin-1 otherwise; `\r` is dropped.
fn decode(source: &[u8]) -> String {
    let text = match std::str::from_utf8(source) {
        Ok(s) => s.to_string(),
        Err(_) => source.iter().map(|&b| b as char).collect(),
    };
    text.replace('\r', "")
}

/// Stack size of the worker thread: recursion is bounded by `parser::MAX_DEPTH`, but
/// unoptimized builds need about 20 KB of stack per nesting level.
const STACK_SIZE: usize = 64 << 20;

/// Parses, type-checks and translates a Boogie program into the program model.
pub fn parse_program(file_name: &str, source: &[u8]) -> Result<ir::Program, BoogieError> {
    let (name, src) = (file_name.to_string(), source.to_vec());
    let worker =
        std::thread::Builder::new().name("boogie-front-end".into()).stack_size(STACK_SIZE).spawn(move || parse_on_this_thread(&name, &src));
    match worker {
        Ok(handle) => match handle.join() {
            Ok(result) => result,
            Err(panic) => std::panic::resume_unwind(panic),
        },
        Err(_) => parse_on_this_thread(file_name, source),
    }
}

fn parse_on_this_thread(file_name: &str, source: &[u8]) -> Result<ir::Program, BoogieError> {
    let file: Arc<str> = Arc::from(file_name);
    let text = decode(source);
    let toks = lexer::lex(&file, &text)?;
    let decls = parser::Parser::new(&file, toks).program()?;
    translate::Translator::new(file).program(&decls)
}
