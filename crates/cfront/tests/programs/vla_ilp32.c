// expect: lp64=TRUE ilp32=FALSE(valid-deref)
// The size of a variable-length array is computed in size_t: 4 * 2^30 wraps to 0 in ILP32.
extern unsigned int __VERIFIER_nondet_uint(void);
int main(void) {
  unsigned int size = __VERIFIER_nondet_uint();
  if (size == 0) return 0;
  int a[size];
  a[0] = 5;
  return a[0];
}
