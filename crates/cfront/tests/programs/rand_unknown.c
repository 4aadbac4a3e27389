// expect: UNKNOWN
// Without `srand`, `rand` follows one fixed sequence: whether it returns 7 first is not modelled.
#include <stdlib.h>
extern void reach_error(void);
int main(void) {
  if (rand() == 7)
    reach_error();
  return 0;
}
