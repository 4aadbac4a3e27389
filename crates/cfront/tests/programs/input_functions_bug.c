// expect: FALSE(unreach-call)
// Any byte may come from `getchar`.
#include <stdio.h>
extern void reach_error(void);
int main(void) {
  if (getchar() == 'q')
    reach_error();
  return 0;
}
