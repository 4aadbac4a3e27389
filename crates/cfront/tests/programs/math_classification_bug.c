// expect: UNKNOWN bitvector=FALSE(unreach-call)
// fmin of two numbers is not always the first: a NaN first operand gives the second.
#include <math.h>
extern void reach_error(void);
extern double __VERIFIER_nondet_double(void);
int main(void) {
  double x = __VERIFIER_nondet_double();
  double y = fmin(x, 3.0);
  if (y == 3.0 && x != 3.0 && !isinf(x)) reach_error();
  return 0;
}
