// expect: UNKNOWN bitvector=TRUE
// `x | y` and `y | x` are over-approximated apart, so the error looks reachable; the exact
// re-check finds the path infeasible (`|` commutes): never FALSE, and no proof either. As
// bit-vectors, `|` is exact and the program is proved.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  if ((x | y) != (y | x)) reach_error();
  return 0;
}
