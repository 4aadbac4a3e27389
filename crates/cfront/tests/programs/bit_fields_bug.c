// expect: FALSE(unreach-call) bitvector=FALSE(unreach-call)
// A store to a bit-field keeps only its low bits: 9 in three bits is 1.
#include <stdlib.h>
extern void reach_error(void);
struct s { unsigned a : 3; unsigned b : 5; };
int main(void) {
  struct s *p = malloc(sizeof *p);
  if (!p) return 0;
  p->b = 0;
  p->a = 9;
  if (p->a == 1 && p->b == 0) reach_error();
  free(p);
  return 0;
}
