// expect: TRUE bitvector=TRUE
// A struct with a double member in memory: the integers around it keep their cells (memory
// holds no floats; the double read back is arbitrary).
extern void reach_error(void);
struct s { int a; double d; int b; };
int main(void) {
  struct s v = { 1, 2.0, 3 };
  struct s *p = &v;
  p->d = p->d * 2;
  struct s w = *p;
  if (w.a != 1 || w.b != 3) reach_error();
  return 0;
}
