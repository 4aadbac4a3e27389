// expect: FALSE(valid-deref) properties=default,valid-memsafety
// The object is read after it was freed.
#include <stdlib.h>
int main(void) {
  int *p = malloc(sizeof(int));
  *p = 1;
  free(p);
  return *p;
}
