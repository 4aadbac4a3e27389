// Unions and structs with array members as values: returned, passed and copied between
// memory and variables.
#include <stdlib.h>
extern void reach_error(void);
union word { unsigned value; unsigned char bytes[4]; };
struct packet { int len; unsigned char data[4]; };
union word make(unsigned v) { union word w; w.value = v; return w; }
unsigned char low(union word w) { return w.bytes[0]; }
int main(void) {
  union word w = make(0x11223344u);
  if (low(w) != 0x44 || w.bytes[3] != 0x11) reach_error();
  struct packet *p = malloc(sizeof *p);
  if (!p) return 0;
  p->len = 2;
  p->data[0] = 7;
  p->data[1] = 9;
  struct packet copy = *p;
  copy.data[1] = 10;
  *p = copy;
  if (p->data[0] != 7 || p->data[1] != 10 || p->len != 2) reach_error();
  free(p);
  return 0;
}
