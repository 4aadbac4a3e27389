// expect: UNKNOWN
// The bytes of an `int` are not modelled: viewing one as characters is unsupported.
int main(void) {
  int x = 258;
  void *p = &x;
  unsigned char *b = p;
  return b[0] == 2 ? 0 : 1;
}
