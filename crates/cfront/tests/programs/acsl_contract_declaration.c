// expect: TRUE bitvector=TRUE
// A function known only by its declaration and contract: calls must meet the precondition and
// may rely on the postcondition.
/*@ requires 0 <= n && n <= 1000;
  @ ensures \result >= n;
  @*/
int bound(int n);
int main(void) {
  int b = bound(10);
  //@ assert b >= 10;
  return 0;
}
