// expect: TRUE properties=default,valid-memsafety
// memcpy and memset (with zero) of whole ints and pointers, unit by unit.
#include <string.h>
extern void reach_error(void);
int main(void) {
  int a[4] = {1, 2, 3, 4}, b[4];
  memcpy(b, a, sizeof a);
  if (b[3] != 4 || b[0] != 1)
    reach_error();
  memset(a, 0, 2 * sizeof(int));
  if (a[1] != 0 || a[2] != 3)
    reach_error();
  int *ps[2] = {&a[0], 0}, *qs[2];
  memcpy(qs, ps, sizeof ps);
  if (qs[0] != &a[0] || qs[1] != 0)
    reach_error();
  return 0;
}
