// The competition's own definition of the intrinsic: a failed assumption blocks the execution,
// it does not run forever (SV-COMP's meaning stands, whatever the body says).
extern int __VERIFIER_nondet_int(void);
void __VERIFIER_assume(int c) { while (!c); }
int main() {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x > 0);
  while (x > 0) x--;
  return 0;
}
