// expect: FALSE(valid-deref) properties=default,valid-memsafety
// A call through a null function pointer is an invalid dereference.
extern int __VERIFIER_nondet_int(void);
static int one(void) { return 1; }
int main(void) {
  int (*f)(void) = 0;
  if (__VERIFIER_nondet_int())
    f = one;
  return f();
}
