// expect: TRUE
// Memory as bytes: an `int` viewed through `void *` as characters shows its bytes, least
// significant first.
int main(void) {
  int x = 258;
  void *p = &x;
  unsigned char *b = p;
  if (b[0] != 2 || b[1] != 1 || b[2] != 0 || b[3] != 0)
    return *(int *)0;
  return 0;
}
