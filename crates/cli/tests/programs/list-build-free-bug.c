// A list of nondeterministic length is built and walked, then freed except its last node: lost when main returns.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) { abort(); }
struct node { int value; struct node *next; };
int main(void) {
  struct node *head = 0;
  while (__VERIFIER_nondet_int()) {
    struct node *n = malloc(sizeof *n);
    if (!n)
      abort();
    n->value = 1;
    n->next = head;
    head = n;
  }
  for (struct node *p = head; p; p = p->next)
    if (p->value != 1)
      reach_error();
  while (head && head->next) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return 0;
}
