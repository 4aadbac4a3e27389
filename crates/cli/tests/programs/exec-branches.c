// Finitely many paths (eleven, one per value of min(max(x, 0), 10)), none to an error: symbolic
// execution follows each to its end and proves the program.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  int s = 0;
  for (int i = 0; i < 10; i++) {
    if (x > i)
      s++;
  }
  if (x >= 10 && s != 10)
    reach_error();
  if (x <= 0 && s != 0)
    reach_error();
  if (x == 7 && s != 7)
    reach_error();
  return 0;
}
