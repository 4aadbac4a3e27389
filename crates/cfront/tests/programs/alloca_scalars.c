// expect: TRUE bitvector=TRUE properties=default,valid-memsafety,no-overflow
// Every variable lives in an object of its own on the stack, used only as `*p`: the objects
// become scalar variables.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
#include <alloca.h>

int main(void) {
    int *i = alloca(sizeof(int));
    int *n = alloca(sizeof(int));
    *n = __VERIFIER_nondet_int();
    if (*n < 0 || *n > 1000) return 0;
    *i = 0;
    while (*i < 10) (*i)++;
    if (*i != 10) reach_error();
    for (*i = 0; *i < *n; *i += 1) {
    }
    if (*i != *n) reach_error();
    return 0;
}
