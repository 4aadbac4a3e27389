// expect: FALSE(unreach-call)
// Fall-through from case 1 into case 2.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  int r = 0;
  switch (x) {
    case 1: r = 1;
    case 2: r = r + 2; break;
    default: r = 0;
  }
  if (r == 3) reach_error();
  return 0;
}
