// expect: FALSE(unreach-call) bitvector=FALSE(unreach-call)
// `x | y` is over-approximated; the first error is unreachable (the over-approximation proves
// it), the second is reached by x = 12345, y = 0: FALSE comes from the exact re-check.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  if (x >= 0 && y >= 0) {
    if ((x | y) < x) reach_error();
    if ((x | y) == 12345) reach_error();
  }
  return 0;
}
