// An error function ends the program when unreach-call is not checked: the memory still
// allocated there violates valid-memcleanup.
#include <stdlib.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int *p = malloc(sizeof(int));
  if (__VERIFIER_nondet_int())
    reach_error();
  free(p);
  return 0;
}
