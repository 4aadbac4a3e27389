// TRUE: every cell the second loop reads was set by the first (needs a quantified invariant).
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 1000000) return 0;
  int a[n];
  for (int i = 0; i < n; i++)
    a[i] = 2 * i + 1;
  for (int k = 0; k < n; k++)
    if (a[k] <= k) reach_error();
  return 0;
}
