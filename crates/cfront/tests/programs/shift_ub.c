// expect: FALSE(no-overflow) bitvector=FALSE(no-overflow) properties=no-overflow
// A negative left operand of `<<` is undefined behaviour (reported with no-overflow).
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = 1;
  if (x < 0) {
    x = x << y;
  }
  return x;
}
