extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
  int a = __VERIFIER_nondet_int();
  int b = __VERIFIER_nondet_int();
  int c = __VERIFIER_nondet_int();
  // `&`, `|` and `^` of comparisons are 0 or 1: exact without bit-vectors
  if (((a == 0 & b == 1) | (c > 5 ^ a < 0)) && (b == 1 & c == 7 & a == 0) == 0) {
    if (c > 5)
      reach_error();
  }
  return 0;
}
