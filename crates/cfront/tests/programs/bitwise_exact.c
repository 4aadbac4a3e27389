// expect: TRUE bitvector=TRUE
// Exact bitwise operators: constants, masks, shifts by constants, complement.
extern void __VERIFIER_assert(int cond);
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  unsigned int u = __VERIFIER_nondet_uint();
  __VERIFIER_assert((x & 255) >= 0 && (x & 255) <= 255);
  __VERIFIER_assert((x & -1) == x);
  __VERIFIER_assert((x | 0) == x);
  __VERIFIER_assert(~x == -x - 1);
  __VERIFIER_assert((u >> 1) <= u);
  __VERIFIER_assert((u << 1) % 2 == 0);
  __VERIFIER_assert((0xF0 & 0x3C) == 0x30);
  __VERIFIER_assert((5 ^ 3) == 6);
  __VERIFIER_assert((-7 >> 1) == -4);
  __VERIFIER_assert(~0u == 4294967295u);
  if (x > 0) __VERIFIER_assert((x & 1) == x % 2);
  return 0;
}
