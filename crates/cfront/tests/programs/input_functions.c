// expect: TRUE
// `getchar` returns EOF or a byte; `rand` a value from 0 to RAND_MAX.
#include <stdio.h>
#include <stdlib.h>
extern void reach_error(void);
int main(void) {
  int c = getchar();
  if (c < -1 || c > 255)
    reach_error();
  if (rand() < 0)
    reach_error();
  return 0;
}
