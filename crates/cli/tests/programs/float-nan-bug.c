// A bug that needs IEEE floats: a float strictly between 0.5 and 0.75, and a NaN double.
extern float __VERIFIER_nondet_float(void);
extern double __VERIFIER_nondet_double(void);
extern void reach_error(void);
int main(void) {
  float f = __VERIFIER_nondet_float();
  double d = __VERIFIER_nondet_double();
  if (f > 0.5f && f < 0.75f && d != d) reach_error();
  return 0;
}
