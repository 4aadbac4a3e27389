// expect: UNKNOWN
// A call of a function without definition returns an arbitrary value (over-approximation).
extern void reach_error(void);
extern int unknown_function(int);
int main(void) {
  if (unknown_function(3) == 42) reach_error();
  return 0;
}
