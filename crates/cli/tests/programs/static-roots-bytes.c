// The pointer's bytes are copied into a static buffer: the object stays reachable.
#include <stdlib.h>
#include <string.h>
char buf[16];
int main(void) {
  int *p = malloc(4);
  memcpy(buf + 4, &p, sizeof p);
  p = 0;
  return 0;
}
