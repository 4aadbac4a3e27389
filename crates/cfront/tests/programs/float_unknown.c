// expect: UNKNOWN bitvector=TRUE
// Under integer semantics floating-point values are opaque: a comparison of them is
// over-approximated. Under bit-vector semantics doubles are IEEE binary64: 0.1 + 0.2 rounds to
// 0.30000000000000004, which is not 0.3.
extern void reach_error(void);
int main(void) {
  double d = 0.1;
  if (d + 0.2 == 0.3) reach_error();
  return 0;
}
