// expect: lp64=TRUE ilp32=FALSE(unreach-call)
// A declarator is in scope in its own initializer: `sizeof *n` is the size of the struct, and
// the inner `x` (a long: 8 bytes only in LP64) shadows the outer one from its initializer on.
#include <stdlib.h>
extern void reach_error(void);
struct node {
  long v;
  struct node *next;
};
int main(void) {
  int x = 5;
  {
    long x = sizeof x;
    if (x != 8)
      reach_error();
  }
  struct node *n = malloc(sizeof *n);
  if (!n)
    return 0;
  n->next = 0;
  n->v = x;
  if (sizeof *n != 2 * sizeof(long) || n->v != 5)
    reach_error();
  free(n);
  return 0;
}
