// expect: UNKNOWN
// The recursive call is replaced by a contract (`true`): an error through it is not reported.
extern void reach_error(void);
int fact(int n) { if (n <= 1) return 1; return n * fact(n - 1); }
int main(void) {
  if (fact(3) != 6) reach_error();
  return 0;
}
