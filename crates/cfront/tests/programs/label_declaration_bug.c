// expect: FALSE(unreach-call)
// A label before a declaration (C23, a GCC extension before): the jump skips the store.
extern void reach_error(void);
int main(void) {
  int n = 0;
  goto next;
  n = 5;
next:
  int x = n + 1;
  if (x == 1) reach_error();
  return 0;
}
