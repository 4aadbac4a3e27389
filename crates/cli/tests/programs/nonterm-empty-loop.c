// Does not terminate when n is positive: the loop has no statement at all.
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n > 0) {
    while (1) {
    }
  }
  return 0;
}
