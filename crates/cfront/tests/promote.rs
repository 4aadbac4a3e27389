//! Pointers to `alloca`'d scalars used only as `*p` become scalar variables named `*p`
//! (`promote`); every other use of the pointer keeps the object in memory.

use cfront::{translate_file, COptions};
use std::sync::atomic::{AtomicUsize, Ordering};
use verdict::Property;

/// The program model of `src` (with `valid-memsafety` on top of the defaults) in Boogie syntax.
fn dump(src: &str) -> String {
    static COUNT: AtomicUsize = AtomicUsize::new(0);
    let n = COUNT.fetch_add(1, Ordering::SeqCst);
    let path = std::env::temp_dir().join(format!("tracery-promote-{}-{n}.c", std::process::id()));
    std::fs::write(&path, src).expect("temp file");
    let mut opts = COptions::default();
    opts.properties.extend(Property::parse_list("valid-memsafety").expect("property list"));
    let t = translate_file(&path, &opts);
    let _ = std::fs::remove_file(&path);
    let t = t.unwrap_or_else(|e| panic!("translation failed: {e}\n{src}"));
    // the C name of a promoted scalar is `*p`
    for v in promoted_in(&ir::print::program_to_boogie(&t.program)) {
        assert_eq!(t.back.c_name(&v), Some(v.as_str()));
    }
    ir::print::program_to_boogie(&t.program)
}

/// The promoted scalars (`*p`; not the offset `*p#o` of a pointer) among the declared locals
/// of a Boogie dump.
fn promoted_in(boogie: &str) -> Vec<String> {
    let mut out: Vec<String> = boogie
        .lines()
        .filter_map(|l| l.trim().strip_prefix("var "))
        .flat_map(|vs| vs.trim_end_matches(';').split(", "))
        .filter_map(|d| d.split(':').next())
        .filter(|n| n.starts_with('*') && !n.contains('#'))
        .map(str::to_string)
        .collect();
    out.sort();
    out
}

/// Whether the program model allocates a stack object or accesses memory (the leak checks of
/// `valid-memtrack` declare the memory variables in any case).
fn uses_memory(boogie: &str) -> bool {
    ["#mem_int[", "#mem_base[", "#mem_off[", "#snext + -1"].iter().any(|m| boogie.contains(m))
}

#[test]
fn pointers_used_only_through_star_become_scalars() {
    let src = r#"
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main() {
    int* x_ref = alloca(sizeof(int));
    int* i = alloca(sizeof(int));
    unsigned char *c = (unsigned char *) __builtin_alloca(sizeof(unsigned char));
    int **pp = alloca(sizeof(int *));
    int *unused = alloca(sizeof(int));
    *x_ref = __VERIFIER_nondet_int();
    *i = *x_ref;
    *c = 0;
    *pp = 0;
    while (*i > 0) { (*i)--; *c += 1; i[0] -= 1; }
    for (int *k = alloca(sizeof(int)); *k < 10; (*k)++) { if (*k == 3) goto done; }
done:
    if (sizeof(*i) != 4) reach_error();
    return *c + (*pp == 0);
}
"#;
    let d = dump(src);
    assert_eq!(promoted_in(&d), ["*c", "*i", "*k", "*pp", "*unused", "*x_ref"], "{d}");
    assert!(!uses_memory(&d), "{d}");
    // the scalar starts with an arbitrary value of its type, like an uninitialized local
    assert!(d.contains("havoc *c; assume 0 <= *c && *c <= 255;"), "{d}");
    assert!(d.contains("havoc *i; assume -2147483648 <= *i && *i <= 2147483647;"), "{d}");
}

/// One program per way a pointer escapes: the allocation and the accesses stay in memory.
#[test]
fn escaping_pointers_keep_their_objects_in_memory() {
    let escapes = [
        ("passed to a function", "void g(int *q) { *q = 1; } int main() { int *p = alloca(sizeof(int)); *p = 0; g(p); return *p; }"),
        ("reassigned", "int main() { int *p = alloca(sizeof(int)); *p = 0; p = alloca(sizeof(int)); *p = 1; return *p; }"),
        ("compared", "int main() { int *p = alloca(sizeof(int)); int *q = alloca(sizeof(int)); *p = 0; return p == q; }"),
        ("offset", "int main() { int *p = alloca(sizeof(int)); *p = 0; return *(p + 1); }"),
        ("freed", "#include <stdlib.h>\nint main() { int *p = alloca(sizeof(int)); *p = 0; free(p); return 0; }"),
        ("address taken", "int main() { int *p = alloca(sizeof(int)); int **q = &p; **q = 0; return *p; }"),
        ("address of *p", "int main() { int *p = alloca(sizeof(int)); int *q = &*p; *q = 0; return *p; }"),
        ("copied", "int main() { int *p = alloca(sizeof(int)); int *q = p; *q = 0; return *p; }"),
        ("returned", "int *f() { int *p = alloca(sizeof(int)); *p = 0; return p; } int main() { f(); return 0; }"),
        ("cast", "int main() { int *p = alloca(sizeof(int)); *p = 0; void *v = (void *)p; return v != 0; }"),
        ("other subscript", "int main() { int *p = alloca(2 * sizeof(int)); *p = 0; return p[1]; }"),
        ("too small", "int main() { int *p = alloca(1); *p = 0; return *p; }"),
        ("not constant size", "int main() { int n = 4; int *p = alloca(n); *p = 0; return *p; }"),
        ("heap object", "#include <stdlib.h>\nint main() { int *p = malloc(sizeof(int)); *p = 0; return *p; }"),
        ("declared twice", "int main() { int *p = alloca(sizeof(int)); *p = 0; { int *p = alloca(sizeof(int)); *p = 1; } return *p; }"),
        ("struct object", "struct s { int a; }; int main() { struct s *p = alloca(sizeof(struct s)); (*p).a = 0; return (*p).a; }"),
        (
            "jumped over by goto",
            "int main() { int n = 0; goto in; { int *p = alloca(sizeof(int)); *p = 0; in: n = 1; *p = n; } return n; }",
        ),
        ("jumped over by case", "int main(int a) { switch (a) { int *p = alloca(sizeof(int)); case 1: *p = 1; return *p; } return 0; }"),
    ];
    for (why, src) in escapes {
        let d = dump(src);
        assert_eq!(promoted_in(&d), Vec::<String>::new(), "{why}:\n{d}");
        assert!(uses_memory(&d), "{why}:\n{d}");
    }
}

/// A pointer that escapes keeps memory while the others of the same function are promoted.
#[test]
fn promotion_is_per_pointer() {
    let src = r#"
int g(int *q) { return *q; }
int main() {
    int *a = alloca(sizeof(int));
    int *b = alloca(sizeof(int));
    *a = 1; *b = 2;
    while (*a < 10) { *a = *a + g(b); }
    return 0;
}
"#;
    let d = dump(src);
    assert_eq!(promoted_in(&d), ["*a"], "{d}");
    assert!(d.contains("#mem_int[b]"), "{d}");
    assert!(!d.contains("#mem_int[a]"), "{d}");
}

/// The error of `programs/alloca_scalars_bug.c` is found at the line of its `reach_error()`.
#[test]
fn a_bug_through_promoted_scalars_is_reported_at_its_line() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs/alloca_scalars_bug.c");
    let t = translate_file(&path, &COptions::default()).expect("translates");
    let config = engines::Config {
        deadline: Some(std::time::Instant::now() + std::time::Duration::from_secs(300)),
        query_timeout: std::time::Duration::from_secs(60),
        ..Default::default()
    };
    let outcome = engines::verify(&t.program, &config);
    let engines::Verdict::Unsafe(cex) = &outcome.verdict else { panic!("expected FALSE, got {}", report::verdict_line(&outcome.verdict)) };
    assert_eq!(cex.violation.pos.as_ref().map(|p| p.line), Some(15));
}
