//! Checks that the system Z3 library is installed before anything links against it, so that a
//! machine without it gets one line naming the package instead of a linker error.

use std::env;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// What a build without Z3 stops with.
const MISSING: &str = "Tracery needs the system Z3 library (libz3 and z3.h): apt-get install libz3-dev";

/// The library file names `-lz3` may resolve to.
const LIBRARIES: [&str; 3] = ["libz3.so", "libz3.a", "libz3.dylib"];

/// Where the header lives when no variable or tool says otherwise.
const INCLUDE_DIRS: [&str; 3] = ["/usr/include", "/usr/local/include", "/usr/include/z3"];

/// Where the library lives when no variable or tool says otherwise (besides the multiarch one).
const LIB_DIRS: [&str; 7] =
    ["/usr/lib", "/usr/local/lib", "/usr/lib64", "/lib", "/lib64", "/usr/lib/x86_64-linux-gnu", "/opt/homebrew/lib"];

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    for var in ["Z3_SYS_Z3_HEADER", "Z3_LIBRARY_PATH_OVERRIDE", "LIBRARY_PATH", "CPATH", "C_INCLUDE_PATH", "CC"] {
        println!("cargo::rerun-if-env-changed={var}");
    }
    if !header_found() || !library_found() {
        println!("cargo::error={MISSING}");
    }
}

/// Whether `z3.h` is where the C compiler (or an explicit `Z3_SYS_Z3_HEADER`) would find it.
fn header_found() -> bool {
    if let Some(h) = env::var_os("Z3_SYS_Z3_HEADER") {
        return Path::new(&h).is_file();
    }
    let mut dirs = path_list("CPATH");
    dirs.extend(path_list("C_INCLUDE_PATH"));
    dirs.extend(pkg_config_dir("includedir"));
    dirs.extend(INCLUDE_DIRS.iter().map(PathBuf::from));
    dirs.iter().any(|d| d.join("z3.h").is_file()) || compiler_finds_header()
}

/// Whether a library for `-lz3` is where the linker would find it.
fn library_found() -> bool {
    let mut dirs: Vec<PathBuf> = env::var_os("Z3_LIBRARY_PATH_OVERRIDE").map(PathBuf::from).into_iter().collect();
    dirs.extend(rustflags_search_dirs());
    dirs.extend(path_list("LIBRARY_PATH"));
    dirs.extend(pkg_config_dir("libdir"));
    dirs.extend(LIB_DIRS.iter().map(PathBuf::from));
    dirs.extend(multiarch_dirs());
    dirs.iter().any(|d| LIBRARIES.iter().any(|l| d.join(l).is_file())) || compiler_finds_library()
}

/// The directories of a colon-separated search-path variable.
fn path_list(var: &str) -> Vec<PathBuf> {
    env::var_os(var).map(|v| env::split_paths(&v).filter(|p| !p.as_os_str().is_empty()).collect()).unwrap_or_default()
}

/// Debian's multiarch library directories for the target (`/usr/lib/aarch64-linux-gnu`, ...).
fn multiarch_dirs() -> Vec<PathBuf> {
    let arch = env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    ["/usr/lib", "/lib"].iter().map(|d| PathBuf::from(format!("{d}/{arch}-linux-gnu"))).collect()
}

/// The `-L` directories passed to rustc (a library found there links too).
fn rustflags_search_dirs() -> Vec<PathBuf> {
    let flags = env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    let mut args = flags.split('\x1f');
    let mut dirs = Vec::new();
    while let Some(a) = args.next() {
        let dir = match a.strip_prefix("-L") {
            Some("") => args.next().unwrap_or(""),
            Some(rest) => rest,
            None => continue,
        };
        // `-L native=dir`, `-L all=dir`, ...
        dirs.push(PathBuf::from(dir.split_once('=').map_or(dir, |(_, d)| d)));
    }
    dirs
}

/// A directory pkg-config knows for z3 (`includedir` or `libdir`), if pkg-config is there.
fn pkg_config_dir(variable: &str) -> Option<PathBuf> {
    let out = Command::new("pkg-config").args([&format!("--variable={variable}"), "z3"]).stderr(Stdio::null()).output().ok()?;
    let dir = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (out.status.success() && !dir.is_empty()).then(|| PathBuf::from(dir))
}

/// The C compiler the build would use.
fn compiler() -> String {
    env::var("CC").unwrap_or_else(|_| "cc".into())
}

/// Whether the C compiler preprocesses `#include <z3.h>`.
fn compiler_finds_header() -> bool {
    let child = Command::new(compiler())
        .args(["-E", "-x", "c", "-o", "/dev/null", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    let Ok(mut child) = child else { return false };
    let wrote = child.stdin.take().is_some_and(|mut s| s.write_all(b"#include <z3.h>\n").is_ok());
    child.wait().is_ok_and(|s| s.success()) && wrote
}

/// Whether the C compiler's library search path holds libz3 (it echoes the bare name if not).
fn compiler_finds_library() -> bool {
    LIBRARIES.iter().any(|lib| {
        Command::new(compiler())
            .arg(format!("-print-file-name={lib}"))
            .stderr(Stdio::null())
            .output()
            .ok()
            .and_then(|o| String::from_utf8(o.stdout).ok())
            .is_some_and(|p| Path::new(p.trim()).is_absolute() && Path::new(p.trim()).is_file())
    })
}
