// expect: UNKNOWN bitvector=UNKNOWN
// Floating-point values are opaque: a comparison of them is over-approximated.
extern void reach_error(void);
int main(void) {
  double d = 0.1;
  if (d + 0.2 == 0.3) reach_error();
  return 0;
}
