// expect: UNKNOWN
// `sscanf` does not read its string: the result is a guess, and the error path no proof.
#include <stdio.h>
extern void reach_error(void);
int main(void) {
  int x;
  if (sscanf("x", "%d", &x) < 0)
    reach_error();
  return 0;
}
