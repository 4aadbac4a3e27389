// expect: TRUE
// Function pointers in variables, arrays and structs, compared, passed and called both ways
// (`f(x)` and `(*f)(x)`): each call reaches exactly the function the pointer names.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
static int twice(int x) { return 2 * x; }
static int inc(int x) { return x + 1; }
static int neg(int x) { return -x; }
static void set(int *p, int v) { *p = v; }
struct ops {
  int (*apply)(int);
  void (*store)(int *, int);
};
static int apply_all(int (*fs[])(int), int n, int x) {
  for (int i = 0; i < n; i++)
    x = fs[i](x);
  return x;
}
int main(void) {
  int (*table[3])(int) = {twice, inc, &neg};
  int x = __VERIFIER_nondet_int();
  if (x < -1000 || x > 1000)
    return 0;
  if (apply_all(table, 3, x) != -(2 * x + 1))
    reach_error();
  struct ops o = {inc, set};
  int y;
  o.store(&y, (*o.apply)(x));
  if (y != x + 1)
    reach_error();
  int (*f)(int) = __VERIFIER_nondet_int() ? twice : neg;
  if (f != twice && f != neg)
    reach_error();
  if (f == twice && f(3) != 6)
    reach_error();
  if (f == neg && (*f)(3) != -3)
    reach_error();
  return 0;
}
