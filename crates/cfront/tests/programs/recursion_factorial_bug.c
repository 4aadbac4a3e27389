// expect: FALSE(unreach-call) bitvector=FALSE(unreach-call)
// A recursive function, verified on nested words (no contract needed): 3! = 6 reaches the error.
extern void reach_error(void);
int fact(int n) { if (n <= 1) return 1; return n * fact(n - 1); }
int main(void) {
  if (fact(3) == 6) reach_error();
  return 0;
}
