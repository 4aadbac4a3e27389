// Terminates: a call of reach_error ends the execution (it is no violation of termination).
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n > 1000) {
    reach_error();
  }
  int i = 0;
  while (i < n) {
    i = i + 1;
  }
  return 0;
}
