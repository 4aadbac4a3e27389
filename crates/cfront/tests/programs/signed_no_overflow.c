// expect: TRUE bitvector=TRUE properties=no-overflow
// Guarded arithmetic; char arithmetic is done in int; unsigned arithmetic never overflows.
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x < 2147483647) {
    x = x + 1;
  }
  signed char c = 127;
  c = c + 1;
  unsigned int u = 4294967295U;
  u = u * 3;
  return x;
}
