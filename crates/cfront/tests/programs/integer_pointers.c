// expect: TRUE
// Pointers made from integers: equal addresses give equal pointers, arithmetic moves the
// address, and 0 is the null pointer.
extern void reach_error(void);
extern unsigned __VERIFIER_nondet_uint(void);
int main(void) {
  unsigned a = __VERIFIER_nondet_uint();
  int *p = (int *)a;
  int *q = (int *)(unsigned long)a;
  if (p != q)
    reach_error();
  if ((a == 0) != (p == 0))
    reach_error();
  int *r = (int *)8;
  if (r + 1 != (int *)(8 + sizeof(int)))
    reach_error();
  if (r - 2 >= r)
    reach_error();
  return 0;
}
