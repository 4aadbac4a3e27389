// expect: TRUE
// for with break/continue, do-while, goto.
extern void __VERIFIER_assert(int cond);
int main(void) {
  int s = 0;
  for (int i = 0; i < 10; i++) {
    if (i % 2) continue;
    if (i == 8) break;
    s += i;
  }
  __VERIFIER_assert(s == 12);
  int n = 0;
  do { n++; } while (n < 3);
  __VERIFIER_assert(n == 3);
  int t = 0;
again:
  t++;
  if (t < 5) goto again;
  __VERIFIER_assert(t == 5);
  return 0;
}
