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

/// A property the translation can instrument (SV-COMP names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Property {
    /// `unreach-call`: no error function is called, no assertion fails.
    UnreachCall,
    /// `no-overflow`: no signed integer overflow.
    NoOverflow,
    /// `div-by-zero`: no integer division or remainder by zero.
    DivByZero,
    /// `valid-deref`: every dereferenced pointer is valid.
    ValidDeref,
    /// `valid-free`: every `free` is of a valid heap pointer.
    ValidFree,
    /// `valid-memtrack`: no memory leak.
    ValidMemtrack,
    /// `valid-memcleanup`: all memory is freed at exit.
    ValidMemcleanup,
    /// `no-data-race`: no two threads access one location at once, one of them writing.
    NoDataRace,
    /// `termination`: every execution terminates. Nothing is instrumented for it (it is no
    /// error location); the termination engine decides it, and it is checked on its own.
    Termination,
}

impl Property {
    /// The SV-COMP name.
    pub fn name(self) -> &'static str {
        match self {
            Property::UnreachCall => "unreach-call",
            Property::NoOverflow => "no-overflow",
            Property::DivByZero => "div-by-zero",
            Property::ValidDeref => "valid-deref",
            Property::ValidFree => "valid-free",
            Property::ValidMemtrack => "valid-memtrack",
            Property::ValidMemcleanup => "valid-memcleanup",
            Property::NoDataRace => "no-data-race",
            Property::Termination => "termination",
        }
    }

    /// The default set: assertions and error functions, division by zero, pointer validity.
    pub fn defaults() -> BTreeSet<Property> {
        [Property::UnreachCall, Property::DivByZero, Property::ValidDeref, Property::ValidFree].into_iter().collect()
    }

    /// Parses a comma-separated list of property names (`unreach-call`, `no-overflow`,
    /// `div-by-zero`, `valid-deref`, `valid-free`, `valid-memtrack`, `valid-memsafety`,
    /// `valid-memcleanup`, `no-data-race`, `termination`, `default`) or paths of SV-COMP `.prp` files.
    /// Termination is checked on its own: together with another property it is a usage error.
    pub fn parse_list(spec: &str) -> Result<BTreeSet<Property>, PropertyError> {
        let mut out = BTreeSet::new();
        for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            if item.ends_with(".prp") {
                let text = std::fs::read(item).map_err(|e| PropertyError::Invalid(format!("cannot read property file {item}: {e}")))?;
                out.extend(Property::from_prp(&preprocess::decode(&text))?);
                continue;
            }
            match item {
                "default" => out.extend(Property::defaults()),
                "valid-memsafety" => {
                    out.extend([Property::ValidDeref, Property::ValidFree, Property::ValidMemtrack]);
                }
                _ if UNCHECKED_PROPERTIES.contains(&item) => {
                    return Err(PropertyError::Unsupported(format!("the property `{item}` is not checked by Tracery")));
                }
                _ => {
                    let p = Property::ALL
                        .into_iter()
                        .find(|p| p.name() == item)
                        .ok_or_else(|| PropertyError::Invalid(format!("unknown property `{item}`")))?;
                    out.insert(p);
                }
            }
        }
        if out.contains(&Property::Termination) && out.len() > 1 {
            return Err(PropertyError::Invalid("`termination` is checked on its own, not together with other properties".into()));
        }
        Ok(out)
    }

    /// Every property, in the order of [`Property::name`].
    pub const ALL: [Property; 9] = [
        Property::UnreachCall,
        Property::NoOverflow,
        Property::DivByZero,
        Property::ValidDeref,
        Property::ValidFree,
        Property::ValidMemtrack,
        Property::ValidMemcleanup,
        Property::NoDataRace,
        Property::Termination,
    ];

    /// The properties an SV-COMP property file (`CHECK( init(main()), LTL(...) )`) asks for.
    pub fn from_prp(text: &str) -> Result<BTreeSet<Property>, PropertyError> {
        let mut out = BTreeSet::new();
        for line in text.lines().filter(|l| l.contains("CHECK")) {
            if line.contains("call(reach_error())") || line.contains("call(__VERIFIER_error())") {
                out.insert(Property::UnreachCall);
            } else if line.contains("overflow") {
                out.insert(Property::NoOverflow);
            } else if line.contains("valid-deref") {
                out.insert(Property::ValidDeref);
            } else if line.contains("valid-free") {
                out.insert(Property::ValidFree);
            } else if line.contains("valid-memtrack") {
                out.insert(Property::ValidMemtrack);
            } else if line.contains("valid-memcleanup") {
                out.insert(Property::ValidMemcleanup);
            } else if line.contains("data-race") {
                out.insert(Property::NoDataRace);
            } else if line.contains("LTL(F end)") {
                out.insert(Property::Termination);
            } else {
                return Err(PropertyError::Unsupported(format!("the property {} is not checked by Tracery", line.trim())));
            }
        }
        if out.is_empty() {
            return Err(PropertyError::Invalid("no property found in the property file".into()));
        }
        Ok(out)
    }
}

/// SV-COMP properties Tracery knows by name but does not check (a request for one is
/// answered UNKNOWN, never TRUE).
pub const UNCHECKED_PROPERTIES: [&str; 2] = ["def-behavior", "valid-memsafety-concurrent"];

/// Why a property list was not accepted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PropertyError {
    /// Not a property name or property file (a usage error).
    #[error("{0}")]
    Invalid(String),
    /// A property Tracery does not check.
    #[error("{0}")]
    Unsupported(String),
}

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
