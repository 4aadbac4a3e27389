// A loop that never ends, over sixteen states: (x, y) steps through a generator of period 16
// and a counter modulo 4. Symbolic execution stops each path where it returns to a state it
// passed, so it explores all sixteen and proves that (5, 1) is never reached.
extern void reach_error(void);

int main(void) {
  int x = 0, y = 0;
  while (1) {
    x = (x * 5 + 3) % 16;
    y = (y + 1) % 4;
    if (x == 5 && y == 1)
      reach_error();
  }
  return 0;
}
