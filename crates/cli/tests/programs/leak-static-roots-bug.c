// The list is emptied, but the data of its last node is never freed: lost when main returns.
#include <stdlib.h>
struct node { struct node *next; int *data; };
struct node *head;
int main(void) {
  for (int i = 0; i < 2; i++) {
    struct node *n = malloc(sizeof *n);
    if (!n) return 1;
    n->data = malloc(sizeof(int));
    n->next = head;
    head = n;
  }
  while (head) {
    struct node *next = head->next;
    if (next) free(head->data);
    free(head);
    head = next;
  }
  return 0;
}
