// expect: FALSE(unreach-call)
// Memory as bytes: the byte written through a `char *` is the second least significant one.
extern void reach_error(void);
int main(void) {
  int x = 0;
  char *p = (char *)&x;
  p[1] = 1;
  if (x == 256) reach_error();
  return 0;
}
