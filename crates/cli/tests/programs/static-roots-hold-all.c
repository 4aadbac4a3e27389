// Every live object is pointed to by a static variable when main returns: nothing is lost.
#include <stdlib.h>
int *g1; char *g2[3];
int main(void) {
  g1 = malloc(4);
  g2[1] = malloc(8);
  g2[2] = g2[1];
  return 0;
}
