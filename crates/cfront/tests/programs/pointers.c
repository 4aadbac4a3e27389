// expect: TRUE bitvector=TRUE
// Pointers to locals and globals, pointer parameters, heap structs, arrays through pointers.
#include <stdlib.h>
extern void __VERIFIER_assert(int cond);
struct node { int val; struct node *next; };
int g;
void set(int *p, int v) { *p = v; }
int main(void) {
  int x = 1;
  int *p = &x;
  *p = 5;
  __VERIFIER_assert(x == 5);
  set(&g, 7);
  __VERIFIER_assert(g == 7);
  struct node *n = malloc(sizeof(struct node));
  n->val = 3;
  n->next = 0;
  struct node *m = malloc(sizeof(struct node));
  m->val = 4;
  m->next = n;
  __VERIFIER_assert(m->next->val == 3 && m->next->next == 0);
  int a[4] = {1, 2, 3, 4};
  int *q = a;
  __VERIFIER_assert(q[2] == 3 && *(q + 3) == 4);
  q++;
  __VERIFIER_assert(*q == 2 && q - a == 1);
  free(n);
  free(m);
  return 0;
}
