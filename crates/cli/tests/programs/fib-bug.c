// A deterministic recursion of about two thousand calls: symbolic execution folds every value.
extern void reach_error(void);

int fib(int n) {
  if (n < 1)
    return 0;
  if (n == 1)
    return 1;
  return fib(n - 1) + fib(n - 2);
}

int main(void) {
  int x = 15;
  if (fib(x) == 610)
    reach_error();
  return 0;
}
