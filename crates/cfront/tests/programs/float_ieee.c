// expect: UNKNOWN bitvector=FALSE(unreach-call)
// IEEE semantics under bit-vectors: conversions round (float) and truncate (to int), and a
// nondeterministic double may be NaN, which is unequal to itself.
extern double __VERIFIER_nondet_double(void);
extern void reach_error(void);
int main(void) {
  float f = 16777217;          /* rounds to 16777216.0f */
  if ((int) f != 16777216) return 0;
  if ((int) -2.7 != -2) return 0;
  if ((unsigned char) 255.9 != 255) return 0;
  double x = __VERIFIER_nondet_double();
  if (x != x) reach_error();
  return 0;
}
