// expect: UNKNOWN bitvector=TRUE
// math.h's classification macros (GCC's builtins) and fmin/fmax under bit-vector semantics:
// NaN and infinities are told apart, and a NaN operand of fmax gives the other one.
#include <math.h>
extern void reach_error(void);
extern double __VERIFIER_nondet_double(void);
extern float __VERIFIER_nondet_float(void);
int main(void) {
  double x = __VERIFIER_nondet_double();
  if (isnan(x)) {
    if (fmax(x, 2.0) != 2.0 || isfinite(x) || isinf(x)) reach_error();
    return 0;
  }
  if (fmax(x, 1.0) < 1.0 || fmin(x, -1.0) > -1.0) reach_error();
  if (isinf(x) && isfinite(x)) reach_error();
  if (x > 1e308 * 10 && !isinf(x)) reach_error();
  if (isnormal(x) && x == 0.0) reach_error();
  float f = __VERIFIER_nondet_float();
  if (isinf(f) && f > 0 && isinf(f) != 1) reach_error();
  if (isnormal(1e-40f)) reach_error();
  return 0;
}
