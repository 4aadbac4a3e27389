// expect: lp64=TRUE ilp32=FALSE(unreach-call)
// unsigned long wraps at 2^32 in ILP32 and at 2^64 in LP64.
extern void reach_error(void);
int main(void) {
  unsigned long x = 4294967295UL;
  x = x + 1;
  if (x == 0) reach_error();
  return 0;
}
