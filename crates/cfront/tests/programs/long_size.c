// expect: lp64=FALSE(unreach-call) ilp32=TRUE
// `long` has 4 bytes only in ILP32.
extern void reach_error(void);
int main(void) {
  if (sizeof(long) != 4) reach_error();
  return 0;
}
