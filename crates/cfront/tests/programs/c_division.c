// expect: TRUE
// Division truncates toward zero; the remainder has the sign of the dividend.
extern void __VERIFIER_assert(int cond);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int a = -7, b = 2;
  __VERIFIER_assert(a / b == -3);
  __VERIFIER_assert(a % b == -1);
  __VERIFIER_assert(7 / -2 == -3);
  __VERIFIER_assert(7 % -2 == 1);
  __VERIFIER_assert(-7 / -2 == 3);
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  if (y != 0 && !(x == -2147483647 - 1 && y == -1)) {
    __VERIFIER_assert((x / y) * y + x % y == x);
    if (x < 0 && y > 0) __VERIFIER_assert(x % y <= 0);
  }
  return 0;
}
