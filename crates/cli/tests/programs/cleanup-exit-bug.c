// exit() with memory still allocated violates valid-memcleanup.
#include <stdlib.h>
int main(void) {
  char *p = malloc(8);
  exit(0);
}
