//#Safe
// Three nested counting loops: each counter ends at its bound. The interpolants of unrolled
// iterations count (k <= 0, k <= 1, ...); the interval invariants of the path program state
// each loop's range at once (0 <= k <= 3 at the innermost head).
void reach_error(void) {}

int main(void) {
  int i, j = 5, k = 3;
  for (i = 0; i < 8; i++) {
    for (j = 0; j < 5; j++) {
      for (k = 0; k < 3; k++) {
      }
    }
  }
  if (!(i == 8 && j == 5 && k == 3)) {
    reach_error();
  }
  return 0;
}
