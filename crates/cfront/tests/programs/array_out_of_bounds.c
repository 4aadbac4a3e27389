// expect: FALSE(valid-deref)
// `a[i]` with `i == 3` is outside `int a[3]`.
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int a[3] = {0};
  int i = __VERIFIER_nondet_int();
  if (i >= 0 && i <= 3) {
    a[i] = 1;
  }
  return 0;
}
