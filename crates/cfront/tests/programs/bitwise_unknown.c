// expect: UNKNOWN
// `x | y` is over-approximated: the error looks reachable but must not be reported as FALSE.
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
