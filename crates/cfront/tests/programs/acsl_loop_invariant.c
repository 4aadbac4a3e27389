// expect: TRUE bitvector=TRUE
// ACSL loop invariants hold at the head of their loop; ghost code runs as C.
int main(void) {
  int i = 0, s = 0;
  //@ ghost int steps = 0;
  /*@ loop invariant 0 <= i && i <= 10;
    @ loop invariant s == 2 * i; */
  while (i < 10) {
    i++;
    s += 2;
    //@ ghost steps++;
  }
  //@ assert s == 20 && steps == 10;
  // the invariant of a `for` loop may name the variables its initializer declares
  //@ loop invariant 0 <= k && k <= 5 && s == 20 + k;
  for (int k = 0; k < 5; k++)
    s++;
  //@ assert s == 25;
  return 0;
}
