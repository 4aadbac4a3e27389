extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
  int a = __VERIFIER_nondet_int();
  int b = __VERIFIER_nondet_int();
  // `a == 0 & b == 1` is 1 only when a is 0
  if ((a == 0 & b == 1) == 1 && a != 0)
    reach_error();
  if (((a > 0 | b > 0) ^ 1) == 1 && a > 0)
    reach_error();
  return 0;
}
