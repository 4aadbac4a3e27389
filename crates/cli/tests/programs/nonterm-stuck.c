// Does not terminate: from a negative x the loop keeps x as it is (line 7 is the loop).
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x > 100)
    return 0;
  while (x != 0) {
    if (x > 0)
      x = x - 1;
  }
  return 0;
}
