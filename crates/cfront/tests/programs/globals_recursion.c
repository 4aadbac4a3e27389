// expect: TRUE
// Globals are zero-initialized; calls are inlined; a recursive call is summarized soundly.
extern void __VERIFIER_assert(int cond);
int g;
int h = 5;
int fact(int n) { if (n <= 1) return 1; return n * fact(n - 1); }
void bump(int d) { g = g + d; }
int main(void) {
  __VERIFIER_assert(g == 0 && h == 5);
  bump(3);
  bump(4);
  __VERIFIER_assert(g == 7);
  int f = fact(3);
  __VERIFIER_assert(g == 7);
  return 0;
}
