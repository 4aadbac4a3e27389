// (The bug: a nondeterministic element may come first.) qsort and bsearch call the program's comparison function through a pointer.
#include <stdlib.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int cmp(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return x < y ? -1 : x > y;
}
int main(void) {
  int a[3] = {3, 1, 2};
  a[2] = __VERIFIER_nondet_int();
  qsort(a, 3, sizeof(int), cmp);
  if (a[0] != 1 || a[1] != 2 || a[2] != 3)
    reach_error();
  int key = 2;
  int *p = bsearch(&key, a, 3, sizeof(int), cmp);
  if (p != &a[1])
    reach_error();
  return 0;
}
