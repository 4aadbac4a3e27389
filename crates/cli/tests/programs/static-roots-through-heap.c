// The second node is reachable only through the first: lost or not is decided by reachability.
#include <stdlib.h>
struct node { struct node *next; };
struct node *head;
int main(void) {
  head = malloc(sizeof *head);
  if (!head) return 0;
  head->next = malloc(sizeof *head);
  return 0;
}
