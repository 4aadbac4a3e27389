// expect: TRUE bitvector=TRUE
// A union's members overlap: memory as bytes, little-endian; a union is copied whole.
extern void reach_error(void);
union U { int i; unsigned char b[4]; short s[2]; };
int main(void) {
  union U u;
  u.i = 0x01020304;
  if (u.b[0] != 4 || u.s[1] != 0x0102) reach_error();
  u.b[3] = 0xff;
  if (u.i >= 0) reach_error();
  union U v = u;
  if (v.i != u.i) reach_error();
  return 0;
}
