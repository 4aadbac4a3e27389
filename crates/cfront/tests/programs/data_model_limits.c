// expect: lp64=FALSE(unreach-call) ilp32=TRUE
// The limits of <limits.h> and <stdint.h> are the data model's, not the host's.
#include <limits.h>
#include <stdint.h>
extern void reach_error(void);
int main(void) {
  if (LONG_MAX != 2147483647L || ULONG_MAX != 4294967295UL || SIZE_MAX != 4294967295U || sizeof(long) != 4)
    reach_error();
  return 0;
}
