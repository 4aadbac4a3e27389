// expect: UNKNOWN bitvector=TRUE
// Conversions, division, shifts and bitwise operators as two's complement patterns (with integers
// `&` on a variable amount is over-approximated: no proof).
extern void __VERIFIER_assert(int cond);
extern int __VERIFIER_nondet_int(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
int main(void) {
  signed char c = -56;
  unsigned char u = c;
  __VERIFIER_assert(u == 200);
  int widened = c;
  __VERIFIER_assert(widened == -56);
  short s = 70000;
  __VERIFIER_assert(s == 4464);
  __VERIFIER_assert(-7 / 2 == -3 && -7 % 2 == -1);
  __VERIFIER_assert((-8 >> 1) == -4 && (~5) == -6);
  unsigned int big = 4294967295u;
  __VERIFIER_assert(big + 1 == 0 && (int)big == -1);
  unsigned char x = __VERIFIER_nondet_uchar();
  int k = __VERIFIER_nondet_int();
  if (k >= 0 && k < 8) {
    __VERIFIER_assert(((x >> k) & 1) == ((x & (1 << k)) != 0));
  }
  __VERIFIER_assert((x ^ x) == 0 && (x | 0x100) > 255 && (x & 0x0f) < 16);
  return 0;
}
