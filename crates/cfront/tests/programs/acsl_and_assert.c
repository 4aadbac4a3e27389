// expect: TRUE
// ACSL assertions are evaluated over mathematical integers; assert.h works.
#include <assert.h>
extern unsigned int __VERIFIER_nondet_uint(void);
int main(void) {
  unsigned int u = __VERIFIER_nondet_uint();
  //@ assert u + 1 > u;
  /*@ assert u >= 0 ==> \true; */
  assert(u + 1 != 0 || u == 4294967295u);
  int x = ({ int t = 3; t + 1; });
  //@ assert x == 4;
  return 0;
}
