// expect: FALSE(unreach-call)
// Any input is possible: both conversions may succeed with any values.
#include <stdio.h>
extern void reach_error(void);
int main(void) {
  int x = 0;
  char c = 'a';
  if (scanf("%d %c", &x, &c) == 2 && x == 42 && c == 'z')
    reach_error();
  return 0;
}
