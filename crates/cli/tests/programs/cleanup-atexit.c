// A handler registered with atexit frees the memory when the program ends by exit or return.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
char *buffer;
void release(void) { free(buffer); }
int main(void) {
  buffer = malloc(8);
  atexit(release);
  if (__VERIFIER_nondet_int())
    exit(1);
  return 0;
}
