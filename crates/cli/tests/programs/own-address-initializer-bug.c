// The node is unlinked from the circular list but never freed.
#include <stdlib.h>
extern void abort(void);
void reach_error(void) { abort(); }
struct list { struct list *next, *prev; };
int main(void) {
  struct list head = { &head, &head };
  if (head.next != &head || head.prev->next != &head)
    reach_error();
  struct list *n = malloc(sizeof *n);
  if (!n)
    return 0;
  n->next = &head;
  n->prev = &head;
  head.next = head.prev = n;
  head.next = head.prev = &head;
  return 0;
}
