// expect: FALSE(unreach-call) bitvector=FALSE(unreach-call)
// The invariant holds when the loop is entered but is not maintained: the check at the head
// after an iteration fails.
int main(void) {
  int i = 0;
  //@ loop invariant i <= 5;
  for (int k = 0; k < 10; k++) {
    i++;
  }
  return 0;
}
