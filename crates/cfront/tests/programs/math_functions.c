// expect: UNKNOWN bitvector=TRUE
// math.h's exact functions are IEEE operations under bit-vector semantics (floats are opaque
// under integers): rounding to integral values in each direction, absolute value, square root.
#include <math.h>
extern void reach_error(void);
extern double __VERIFIER_nondet_double(void);
int main(void) {
  if (floor(2.5) != 2.0 || ceil(2.5) != 3.0 || round(2.5) != 3.0 || trunc(-2.5) != -2.0)
    reach_error();
  if (fabs(-3.0) != 3.0 || sqrt(16.0) != 4.0 || floorf(-1.5f) != -2.0f)
    reach_error();
  double x = __VERIFIER_nondet_double();
  if (x > 1.0 && fabs(x) < 1.0)
    reach_error();
  return 0;
}
