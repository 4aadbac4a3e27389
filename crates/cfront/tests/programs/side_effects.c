// expect: TRUE bitvector=TRUE
// Side effects in expressions, short-circuit evaluation, comma, conditional expressions.
extern void __VERIFIER_assert(int cond);
int g;
int inc(void) { g++; return g; }
int main(void) {
  int i = 0, j = 0;
  int k = i++ + 10;
  __VERIFIER_assert(k == 10 && i == 1);
  k = ++i * 2;
  __VERIFIER_assert(k == 4 && i == 2);
  if (i > 5 && j++) { }
  __VERIFIER_assert(j == 0);
  if (i > 1 || j++) { }
  __VERIFIER_assert(j == 0);
  if (i > 1 && j++ == 0) { }
  __VERIFIER_assert(j == 1);
  k = (i = 7, i + 1);
  __VERIFIER_assert(k == 8);
  k = i > 3 ? inc() : inc() + 100;
  __VERIFIER_assert(k == 1 && g == 1);
  i += 3; i *= 2; i -= 1; i /= 3; i %= 4;
  __VERIFIER_assert(i == 2);
  int a[1];
  j = 0;
  while (j++ < 10) ;
  __VERIFIER_assert(j == 11);
  return 0;
}
