//! End-to-end tests of C as real programs write it: memory as bytes, variadic functions,
//! library models through function pointers, threads that outlive `main`, bit-fields, unions
//! and structs with arrays as values, `printf`'s `%n`, `main`'s parameters, memory left at
//! every way a program ends, atexit handlers, GCC's packed and aligned layouts, streams.

mod common;

use common::{output, own, shared, verdict};

/// The verdict and the error's `file:line` of `name` under `args` (with `--timeout 60` unless
/// they give one).
fn assert_verdict(name: &str, args: &[&str], want: &str, line: Option<u32>) {
    let default: &[&str] = if args.contains(&"--timeout") { &[] } else { &["--timeout", "60"] };
    let out = output(&own(name), &[default, args].concat());
    assert_eq!(out.lines().next(), Some(want), "{name} {args:?}: {out}");
    if let Some(line) = line {
        assert!(out.contains(&format!("{name}:{line}:")), "{name} {args:?}: {out}");
    }
}

#[test]
fn memory_as_bytes_reads_objects_at_other_types() {
    for semantics in ["integer", "bitvector"] {
        let args = ["--semantics", semantics];
        assert_verdict("bytes-struct-view.c", &args, "TRUE", None);
        assert_verdict("bytes-struct-view-bug.c", &args, "FALSE(unreach-call)", Some(10));
    }
    // a byte written through a `char *` changes the `int` (Ultimate's regression task)
    if let Some(f) = shared("ultimate/programs/regression/c", "SubwordAccess.c") {
        let out = output(&f, &["--timeout", "60"]);
        assert!(out.starts_with("FALSE(unreach-call)\n") && out.contains("SubwordAccess.c:26:"), "{out}");
    }
    // the third byte of each int, read through a `char *`, in a loop that terminates
    if let Some(f) = shared("ultimate/termination/svcomp15/termination-memory-alloca", "stroeder1-alloca_true-termination.c") {
        assert_eq!(verdict(&f, &["--property", "termination", "--timeout", "60"]), "TRUE");
    }
}

#[test]
fn variadic_functions_read_the_arguments_passed() {
    assert_verdict("varargs-sum.c", &[], "TRUE", None);
    assert_verdict("varargs-overread-bug.c", &[], "FALSE(valid-deref)", Some(8));
    if let Some(f) = shared("ultimate/programs/regression/c", "varargs.c") {
        assert_eq!(verdict(&f, &["--timeout", "60"]), "TRUE");
    }
}

#[test]
fn qsort_and_bsearch_call_the_comparison_through_a_pointer() {
    assert_verdict("qsort-bsearch.c", &[], "TRUE", None);
    // (about 40 s alone: other tests run beside it)
    assert_verdict("qsort-bsearch-bug.c", &["--timeout", "180"], "FALSE(unreach-call)", Some(14));
}

#[test]
fn returning_from_main_ends_every_thread() {
    assert_verdict("conc-main-returns.c", &[], "TRUE", None);
    assert_verdict("conc-main-returns-bug.c", &[], "FALSE(valid-deref)", Some(6));
}

#[test]
fn bit_fields_keep_their_low_bits_and_leave_their_neighbours() {
    assert_verdict("bitfield-register.c", &[], "TRUE", None);
    assert_verdict("bitfield-register-bug.c", &["--semantics", "bitvector"], "FALSE(unreach-call)", Some(9));
}

#[test]
fn unions_and_structs_with_arrays_are_values() {
    for semantics in ["integer", "bitvector"] {
        let args = ["--semantics", semantics];
        assert_verdict("struct-values.c", &args, "TRUE", None);
        assert_verdict("struct-values-bug.c", &args, "FALSE(unreach-call)", Some(11));
    }
}

#[test]
fn printf_with_percent_n_is_unsupported() {
    let out = output(&own("printf-n.c"), &["--timeout", "60"]);
    assert!(out.starts_with("UNKNOWN\nreason: unsupported: `printf` with a `%n` conversion at "), "{out}");
}

/// A test program of the C front end.
fn front_end_program(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../cfront/tests/programs").join(name)
}

#[test]
fn pointers_made_from_integers_are_checked_like_others() {
    assert_eq!(verdict(&front_end_program("integer_pointers.c"), &["--timeout", "60"]), "TRUE");
    let args = ["--timeout", "60", "--property", "default,valid-memsafety"];
    assert_eq!(verdict(&front_end_program("integer_pointer_deref.c"), &args), "FALSE(valid-deref)");
}

#[test]
fn scopes_are_those_of_c() {
    assert_verdict("scopes-bug.c", &[], "FALSE(unreach-call)", Some(15));
    // a declarator in its own initializer, a `long` shadowing an `int`: the data model decides
    let own_initializer = front_end_program("own_initializer.c");
    assert_eq!(verdict(&own_initializer, &["--timeout", "60", "--data-model", "LP64"]), "TRUE");
    assert_eq!(verdict(&own_initializer, &["--timeout", "60", "--data-model", "ILP32"]), "FALSE(unreach-call)");
}

#[test]
fn gnu_extensions_keep_their_meaning() {
    assert_verdict("gnu-extensions.c", &[], "TRUE", None);
    assert_verdict("gnu-extensions-bug.c", &[], "FALSE(unreach-call)", Some(12));
    let out = output(&own("asm-statement.c"), &["--timeout", "60"]);
    assert!(out.starts_with("UNKNOWN\nreason: unsupported: inline assembly at "), "{out}");
    // a packed struct's bit-fields are not laid out: never the unpacked layout
    let out = output(&own("packed-bitfields.c"), &["--timeout", "60"]);
    assert!(out.starts_with("UNKNOWN\nreason: unsupported: sizeof of a struct or union with attribute `packed` and bit-fields"), "{out}");
}

#[test]
fn an_undefined_function_given_a_function_pointer_is_never_proved() {
    let out = output(&own("callback-undefined.c"), &[]);
    assert!(out.starts_with("UNKNOWN\nreason: unsupported: call of undefined function `ftw` with a function pointer"), "{out}");
    assert!(out.contains("callback-undefined.c:13:3"), "{out}");
}

#[test]
fn main_takes_the_arguments_c_defines() {
    // argc >= 1; argv[argc] is a null pointer
    assert_verdict("main-args.c", &[], "TRUE", None);
    assert_verdict("main-args-bug.c", &[], "FALSE(valid-deref)", Some(3));
    assert_verdict("main-args-bug.c", &["--data-model", "ILP32"], "FALSE(valid-deref)", Some(3));
}

#[test]
fn memory_left_allocated_is_checked_however_the_program_ends() {
    let cleanup = ["--property", "valid-memcleanup"];
    assert_verdict("cleanup-abort-bug.c", &cleanup, "FALSE(valid-memcleanup)", Some(9));
    assert_verdict("cleanup-abort.c", &cleanup, "TRUE", None);
    assert_verdict("cleanup-error-bug.c", &cleanup, "FALSE(valid-memcleanup)", Some(9));
    assert_verdict("cleanup-exit-bug.c", &cleanup, "FALSE(valid-memcleanup)", Some(5));
    // still reachable from `main`'s frame: no leak, but which memory is reachable is not tracked
    let out = output(&own("cleanup-abort-bug.c"), &["--property", "valid-memsafety"]);
    assert!(out.starts_with("UNKNOWN\nreason: feasible error trace uses an over-approximation: leak check ignores memory"), "{out}");
    assert_verdict("cleanup-abort.c", &["--property", "valid-memsafety"], "TRUE", None);
    // exit and main's return run the atexit handlers first; abort does not
    assert_verdict("cleanup-atexit.c", &cleanup, "TRUE", None);
    assert_verdict("cleanup-atexit-bug.c", &cleanup, "FALSE(valid-memcleanup)", Some(11));
}

#[test]
fn an_initializer_takes_the_address_of_its_object() {
    let memsafety = ["--property", "valid-memsafety"];
    assert_verdict("own-address-initializer.c", &memsafety, "TRUE", None);
    assert_verdict("own-address-initializer-bug.c", &memsafety, "FALSE(valid-memtrack)", Some(6));
}

#[test]
fn leaks_at_the_end_are_decided_from_what_static_variables_point_to() {
    let memsafety = ["--property", "valid-memsafety"];
    assert_verdict("leak-static-roots-bug.c", &memsafety, "FALSE(valid-memtrack)", Some(5));
    assert_verdict("static-roots-hold-all.c", &memsafety, "TRUE", None);
    assert_verdict("list-build-free-bug.c", &memsafety, "FALSE(valid-memtrack)", Some(7));
    assert_verdict("union-double-free-bug.c", &memsafety, "FALSE(valid-free)", Some(8));
    assert_verdict("static-roots-hold-all.c", &["--property", "valid-memcleanup"], "FALSE(valid-memcleanup)", Some(4));
    // reachable through the heap, or through a pointer's bytes: never a leak, not yet a proof
    let out = output(&own("static-roots-through-heap.c"), &memsafety);
    assert!(out.starts_with("UNKNOWN\nreason: feasible error trace uses an over-approximation: leak check ignores memory"), "{out}");
    let out = output(&own("static-roots-bytes.c"), &[&memsafety[..], &["--timeout", "20"]].concat());
    assert!(out.starts_with("UNKNOWN\n"), "{out}");
}

#[test]
fn streams_may_fail_to_open_and_are_accessed_by_each_function() {
    let both = ["--property", "valid-memsafety,unreach-call"];
    assert_verdict("stdio-fopen.c", &both, "TRUE", None);
    let out = output(&own("stdio-fopen-bug.c"), &["--property", "valid-memsafety"]);
    assert!(out.starts_with("FALSE(valid-deref)\n") && out.contains("stdio-fopen-bug.c:5:11  int c = fgetc(f);"), "{out}");
}

#[test]
fn atexit_handlers_run_last_registered_first() {
    assert_verdict("atexit-order.c", &[], "TRUE", None);
    assert_verdict("atexit-order-bug.c", &[], "FALSE(unreach-call)", Some(6));
}

#[test]
fn packed_and_aligned_records_are_laid_out_as_gcc_does() {
    for model in ["LP64", "ILP32"] {
        let args = ["--data-model", model];
        assert_verdict("layout-packed-aligned.c", &args, "TRUE", None);
        assert_verdict("layout-packed-aligned-bug.c", &args, "FALSE(unreach-call)", Some(5));
    }
}
