// A struct copied out of memory is a copy: changing it leaves the original as it was.
#include <stdlib.h>
extern void reach_error(void);
struct packet { int len; unsigned char data[4]; };
int main(void) {
  struct packet *p = malloc(sizeof *p);
  if (!p) return 0;
  p->data[1] = 9;
  struct packet copy = *p;
  copy.data[1] = 10;
  if (p->data[1] != 10) reach_error();
  free(p);
  return 0;
}
