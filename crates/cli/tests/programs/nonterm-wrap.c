// Over bit-vectors the loop runs forever from x = 2^30 with every input 2^30: `2 * old` wraps
// to INT_MIN, so `x < 2 * old` never holds (line 7 is the loop). Over mathematical integers
// `x` at least doubles within the `int` range, and the loop ends.
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  while (x > 1) {
    int old = x;
    x = __VERIFIER_nondet_int();
    if (x < 2 * old)
      break;
  }
  return 0;
}
