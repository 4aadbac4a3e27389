// expect: UNKNOWN
// A function without definition may write through its pointer argument: `x` may be 5 after
// the call (over-approximation, so no FALSE).
extern void reach_error(void);
extern void fill(int *p);
int main(void) {
  int x = 0;
  fill(&x);
  if (x == 5)
    reach_error();
  return 0;
}
