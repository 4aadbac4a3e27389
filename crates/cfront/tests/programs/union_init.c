// expect: TRUE
// Unions initialized by a designator, global and local, and a pointer member in a struct on the heap.
#include <stdlib.h>
extern void reach_error(void);
union U { int i; float f; char *p; };
union U g = {.i = 7};
struct S { int tag; union U val; };
int main(void) {
  union U w = {.i = 5};
  if (w.i != 5 || g.i != 7) reach_error();
  struct S *s = malloc(sizeof *s);
  s->val.p = "x";
  if (s->val.p[0] != 'x') reach_error();
  free(s);
  return 0;
}
