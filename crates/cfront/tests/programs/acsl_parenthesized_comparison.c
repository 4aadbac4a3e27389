// expect: TRUE
// ACSL: a comparison of two comparisons in parentheses is no chain.
int main(void) {
  int i = 0, x = 0;
  //@ assert (i == 0) == (x == 0);
  return 0;
}
