// expect: FALSE(no-overflow) bitvector=FALSE(no-overflow) properties=no-overflow
// `x + 1` overflows for INT_MAX.
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x > 0) {
    x = x + 1;
  }
  return x;
}
