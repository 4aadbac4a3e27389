// A declarator is in scope in its own initializer; an inner declaration shadows the outer
// one only in its block; tags and ordinary identifiers have separate name spaces.
#include <stdlib.h>
extern void reach_error(void);
struct node { struct node *next; int node; };
int main(void) {
  struct node *node = malloc(sizeof *node);
  if (!node) return 0;
  node->node = 1;
  int x = 1;
  {
    int x = 2;
    node->node += x;
  }
  if (node->node + x == 4) reach_error();
  free(node);
  return 0;
}
