// expect: TRUE
// Memory as bytes: writing one byte of an `int` through a `char *` changes the `int`, and a
// `short *` reads its upper half; a negative value has the bytes of its two's complement.
extern void reach_error(void);
int main(void) {
  int x = 0;
  char *p = (char *)&x;
  p[1] = 1;
  if (x != 256) reach_error();
  p[3] = 0x12;
  short *s = (short *)&x;
  if (s[1] != 0x1200) reach_error();
  x = -2;
  unsigned char *u = (unsigned char *)&x;
  if (u[0] != 0xfe || u[1] != 0xff || p[3] != -1) reach_error();
  return 0;
}
