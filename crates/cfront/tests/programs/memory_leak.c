// expect: FALSE(valid-memtrack) bitvector=FALSE(valid-memtrack) properties=default,valid-memsafety
// The second allocation is never freed.
#include <stdlib.h>
int main(void) {
  int *p = malloc(sizeof(int));
  int *q = malloc(sizeof(int));
  free(p);
  return 0;
}
