// The twin of cleanup-abort-bug.c that frees its memory before it aborts.
#include <stdlib.h>
int main(void) {
  int *p = malloc(sizeof(int));
  free(p);
  abort();
}
