// The twin of term-own-assume.c whose loop runs forever once its input passes the assumption.
extern int __VERIFIER_nondet_int(void);
void __VERIFIER_assume(int c) { LOOP: if (!c) goto LOOP; }
int main() {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x > 0);
  while (x > 0) x = 1;
  return 0;
}
