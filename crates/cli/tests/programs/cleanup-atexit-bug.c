// The handler frees only the first buffer: the second is left when exit runs the handlers.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
char *first, *second;
void release(void) { free(first); }
int main(void) {
  first = malloc(8);
  atexit(release);
  second = malloc(8);
  if (__VERIFIER_nondet_int())
    exit(1);
  free(second);
  return 0;
}
