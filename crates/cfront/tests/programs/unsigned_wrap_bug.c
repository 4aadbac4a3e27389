// expect: FALSE(unreach-call) bitvector=FALSE(unreach-call)
// `y + 1 > y` fails for the largest unsigned value.
extern void __VERIFIER_assert(int cond);
extern unsigned int __VERIFIER_nondet_uint(void);
int main(void) {
  unsigned int y = __VERIFIER_nondet_uint();
  __VERIFIER_assert(y + 1 > y);
  return 0;
}
