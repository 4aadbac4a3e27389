// expect: TRUE bitvector=TRUE
// Bit-fields have GCC's layout (a field that would cross a unit of its type's size starts the
// next one) and live in the bytes of their struct; a struct with bit-fields is copied whole.
extern void reach_error(void);
struct packed { char a : 4; char b : 6; short c : 9; };
struct wide { unsigned ready : 1; unsigned long long bits : 40; };
int main(void) {
  if (sizeof(struct packed) != 4 || sizeof(struct wide) != 8) reach_error();
  struct packed p;
  unsigned char *bytes = (unsigned char *)&p;
  for (int i = 0; i < 4; i++) bytes[i] = 0;
  p.b = 33;
  p.c = 300;
  if (bytes[1] != 0x21 || bytes[2] != 0x2c || bytes[3] != 1 || p.b != -31) reach_error();
  struct packed q = p;
  if (q.c != -212 || q.a != 0) reach_error();
  struct wide w = { 1 };
  w.bits = 0xffffffffffffULL;
  if (w.bits != 0xffffffffffULL || w.ready != 1) reach_error();
  return 0;
}
