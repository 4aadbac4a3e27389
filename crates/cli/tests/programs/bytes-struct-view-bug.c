// Memory as bytes (the bug): a struct read through an `int *` and through `unsigned char *`, little-endian.
extern void reach_error(void);
struct pair { short lo; short hi; };
int main(void) {
  struct pair p = {0x0102, 0x0304};
  int *whole = (int *)&p;
  if (*whole != 0x03040102) reach_error();
  unsigned char *b = (unsigned char *)&p;
  b[3] = 0x7f;
  if (p.hi == 0x7f04) reach_error();
  return 0;
}
