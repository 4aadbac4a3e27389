// expect: TRUE bitvector=TRUE
// switch with fall-through and default (in an inlined function).
extern void __VERIFIER_assert(int cond);
extern int __VERIFIER_nondet_int(void);
int classify(int x) {
  int r = 0;
  switch (x) {
    case 1: r += 1;
    case 2: r += 2; break;
    case 3: { r = 30; break; }
    default: r = -1;
    case 4: r += 40;
  }
  return r;
}
int main(void) {
  __VERIFIER_assert(classify(1) == 3);
  __VERIFIER_assert(classify(2) == 2);
  __VERIFIER_assert(classify(3) == 30);
  __VERIFIER_assert(classify(4) == 40);
  __VERIFIER_assert(classify(9) == 39);
  return 0;
}
