// expect: TRUE
// Without `main`, each function that no other function calls is an entry, with arbitrary
// arguments: `average` and `depth` here. `safe_div` is only called with a divisor that is not
// zero; `depth` calls itself (a call of an entry function is an ordinary call).
extern void reach_error(void);
static int safe_div(int a, int b) {
  if (b == 0)
    reach_error();
  return a / b;
}
int average(int sum, int n) {
  if (n <= 0)
    return 0;
  return safe_div(sum, n);
}
int depth(int n) {
  if (n <= 0)
    return 0;
  int d = depth(n - 1);
  if (d != n - 1)
    reach_error();
  return d + 1;
}
