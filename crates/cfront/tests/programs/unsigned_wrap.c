// expect: TRUE bitvector=TRUE
// Unsigned arithmetic and conversions wrap modulo 2^n.
extern void __VERIFIER_assert(int cond);
extern unsigned int __VERIFIER_nondet_uint(void);
int main(void) {
  unsigned int x = 0;
  x--;
  __VERIFIER_assert(x == 4294967295U);
  x = x + 2;
  __VERIFIER_assert(x == 1);
  unsigned char c = 255;
  c++;
  __VERIFIER_assert(c == 0);
  signed char s = (signed char)200;
  __VERIFIER_assert(s == -56);
  unsigned int y = __VERIFIER_nondet_uint();
  __VERIFIER_assert(y >= 0);
  __VERIFIER_assert(-1 > 0u);
  unsigned short us = 65535;
  us = us * us;
  __VERIFIER_assert(us == 1);
  return 0;
}
