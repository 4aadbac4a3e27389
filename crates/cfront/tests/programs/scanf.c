// expect: TRUE
// `scanf` returns EOF or the number of conversions done, and stores only those.
#include <stdio.h>
extern void reach_error(void);
int main(void) {
  int x = 0;
  char c = 'a';
  int r = scanf("%d %c", &x, &c);
  if (r < -1 || r > 2)
    reach_error();
  if (r <= 0 && x != 0)
    reach_error();
  if (r <= 1 && c != 'a')
    reach_error();
  return 0;
}
