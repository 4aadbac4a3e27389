// expect: UNKNOWN
// Whether an address made from an integer is that of `x` depends on where `x` is: the model
// does not know, so the comparison is a guess and the error path no proof of a bug.
extern void reach_error(void);
extern unsigned long __VERIFIER_nondet_ulong(void);
int main(void) {
  int x = 0;
  int *p = (int *)__VERIFIER_nondet_ulong();
  if (p == &x)
    reach_error();
  return x;
}
