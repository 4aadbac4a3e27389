// Memory still allocated when the program aborts violates valid-memcleanup (SV-COMP counts
// every way a program ends), and not valid-memtrack while a pointer still reaches it.
#include <stdlib.h>
int main(void) {
  int *p = malloc(sizeof(int));
  if (p == 0)
    return 0;
  *p = 1;
  abort();
}
