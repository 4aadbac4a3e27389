// expect: FALSE(unreach-call) bitvector=FALSE(unreach-call)
// The call violates the callee's precondition.
/*@ requires x > 0;
  @ ensures \result > x;
  @*/
int next(int x) {
  return x + 1;
}
int main(void) {
  return next(0);
}
