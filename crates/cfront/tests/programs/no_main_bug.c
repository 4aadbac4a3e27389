// expect: FALSE(unreach-call)
// Without `main`, every function that no other function calls is checked, `clamp` and `scale`
// here: `scale` fails for some arguments.
extern void reach_error(void);
int scale(int x) {
  if (x > 1000 && x < 1010)
    reach_error();
  return 2 * x;
}
int clamp(int x) {
  return x > 1000 ? 1000 : x;
}
