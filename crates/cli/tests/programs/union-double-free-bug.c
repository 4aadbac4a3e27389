// Two members of a union hold the same pointer: freeing through both frees it twice.
#include <stdlib.h>
union handle { char *bytes; int *words; };
int main(void) {
  union handle h;
  h.bytes = malloc(8);
  free(h.bytes);
  free(h.words);
  return 0;
}
