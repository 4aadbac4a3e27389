// A loop that reads an input at every iteration and stops on it: its paths multiply with their
// length, so a search of paths for programs with few of them gives up at once.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
  int x = 0;
  while (__VERIFIER_nondet_int()) {
    if (x < 10)
      x++;
  }
  if (x > 10)
    reach_error();
  return 0;
}
