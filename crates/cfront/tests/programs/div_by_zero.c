// expect: FALSE(div-by-zero) bitvector=FALSE(div-by-zero)
// The divisor can be zero.
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = 10 / (x - 3);
  return y;
}
