// expect: TRUE bitvector=TRUE
// An ACSL contract: `requires` is checked where the function is entered, `ensures` where it
// returns, with `\result`, `\old` and the parameters' values on entry.
int total;
/*@ requires n >= 0 && n < 100;
  @ ensures total == \old(total) + n && \result == 0;
  @*/
int add(int n) {
  while (n > 0) {
    total++;
    n--;
  }
  return n;
}
int main(void) {
  total = 5;
  add(3);
  //@ assert total == 8;
  return 0;
}
