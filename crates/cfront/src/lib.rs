//! C front end of Tracery: preprocessing (the system `cpp` for `.c` files), parsing with
//! `lang-c` (GNU C11), typing with C's conversions made explicit (`typeck`, data model
//! ILP32/LP64), and the translation into the program model of `ir` (one procedure per C
//! function, calls as `Call` edges), with the properties instrumented as error locations.
//!
//! Integer semantics: mathematical integers; unsigned arithmetic and all conversions wrap
//! exactly; signed arithmetic is unbounded (its overflow is the `no-overflow` property).
//! Floating-point values are opaque: every use of one in an integer or condition is a
//! nondeterministic value on an edge marked as an over-approximation, as are bitwise operators
//! that have no cheap exact encoding and calls of functions without a definition.
//!
//! Memory: scalars, structs and arrays whose address is never taken stay program variables
//! (arrays as SMT arrays); pointers are (base, offset) pairs; objects whose address is taken
//! and heap objects live in typed memory arrays with validity and length tracking (see
//! `memory`). See `README.md` for the module map.

pub mod acsl;
pub mod back;
mod bytes;
mod consteval;
pub mod conv;
mod decl;
pub mod error;
mod expr;
pub mod float;
mod fnptr;
mod func;
mod init;
mod intptr;
mod intrinsics;
mod leaves;
mod library;
mod main_args;
mod memory;
mod mutexes;
pub mod preprocess;
mod print_c;
mod promote;
mod pthreads;
mod scan;
mod shape;
mod stmt;
mod strlit;
pub mod tast;
mod translate;
mod typeck;
pub mod types;
mod units;
mod varargs;

pub use back::{BackTranslation, ValueType};
pub use error::{CError, ErrorKind};
pub use types::DataModel;

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;
use verdict::Property;

/// Options of the C front end.
#[derive(Clone, Debug)]
pub struct COptions {
    /// Sizes of the integer types.
    pub data_model: DataModel,
    /// The properties to instrument.
    pub properties: BTreeSet<Property>,
    /// The entry function (`main`).
    pub entry: String,
    /// Whether `entry` is `main` by default: a program without `main` is then checked from
    /// every function that no other function names.
    pub entry_by_default: bool,
    /// Integers as bit-vectors (`--semantics bitvector`) instead of mathematical integers.
    pub bitvector: bool,
}

impl Default for COptions {
    fn default() -> Self {
        COptions {
            data_model: DataModel::LP64,
            properties: Property::defaults(),
            entry: "main".into(),
            entry_by_default: true,
            bitvector: false,
        }
    }
}

/// What the front end makes of a C file: the program model for the engines and the map that
/// writes their results in C again.
#[derive(Clone, Debug)]
pub struct Translation {
    /// The program model.
    pub program: ir::Program,
    /// C names and types of what the program model speaks of.
    pub back: BackTranslation,
    /// What the user should know about the translation, one line each (`file:line:col: ...`).
    pub warnings: Vec<String>,
}

/// Stack size of the worker thread (the parser is recursive).
const STACK_SIZE: usize = 256 << 20;

/// Translates a C file (`.c` is preprocessed with the system `cpp`; `.i` is used as is) into
/// the program model and its back-translation map. Its entries are `opts.entry`, or the
/// functions no other one calls (see `COptions::entry_by_default`).
pub fn translate_file(path: &Path, opts: &COptions) -> Result<Translation, CError> {
    let (p, o) = (path.to_path_buf(), opts.clone());
    let name: Arc<str> = Arc::from(path.display().to_string().as_str());
    let internal = |what: String| CError {
        pos: ir::SourcePos { file: name.clone(), line: 0, col: 0 },
        kind: ErrorKind::Unsupported,
        message: format!("internal error of the C front end: {what}"),
    };
    let worker = std::thread::Builder::new()
        .name("c-front-end".into())
        .stack_size(STACK_SIZE)
        .spawn(move || std::panic::catch_unwind(move || translate_on_this_thread(&p, &o)));
    match worker {
        Ok(handle) => match handle.join() {
            Ok(Ok(result)) => result,
            Ok(Err(panic)) | Err(panic) => {
                let msg = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "panic".into());
                Err(internal(msg))
            }
        },
        Err(e) => Err(internal(format!("cannot start the front-end thread: {e}"))),
    }
}

fn translate_on_this_thread(path: &Path, opts: &COptions) -> Result<Translation, CError> {
    let source = preprocess::load(path, opts.data_model)?;
    if let Some(offset) = preprocess::too_deep(&source.text) {
        let what = format!("parentheses nested more than {} deep", preprocess::MAX_NESTING);
        return Err(CError { pos: source.map.pos(offset), kind: ErrorKind::Unsupported, message: what });
    }
    let file: Arc<str> = Arc::from(path.display().to_string().as_str());
    let config = lang_c::driver::Config { cpp_command: String::new(), cpp_options: vec![], flavor: lang_c::driver::Flavor::GnuC11 };
    let parsed = match lang_c::driver::parse_preprocessed(&config, source.text) {
        Ok(p) => p,
        Err(e) => {
            let mut expected: Vec<&str> = e.expected.iter().copied().collect();
            expected.sort();
            return Err(CError {
                pos: source.map.pos(e.offset),
                kind: ErrorKind::Syntax,
                message: format!("unexpected token, expected one of {}", expected.join(" ")),
            });
        }
    };
    let mut tr = translate::Tr::new(opts.clone(), source.map, file);
    tr.text = parsed.source;
    tr.unit(&parsed.unit)?;
    tr.finish()
}
