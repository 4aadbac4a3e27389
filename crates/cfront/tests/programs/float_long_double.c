// expect: UNKNOWN bitvector=UNKNOWN
// `long double` (x87 extended precision) stays opaque in both semantics.
extern void reach_error(void);
int main(void) {
  long double l = 0.5L;
  if (l + l != 1.0L) reach_error();
  return 0;
}
