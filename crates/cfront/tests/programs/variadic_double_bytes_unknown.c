// expect: UNKNOWN
// The bytes of a `double` passed to a variadic function, read as an `int`: floating-point
// values are not modelled in memory, so such a read is arbitrary (over-approximation).
#include <stdarg.h>
extern void reach_error(void);
int low(int n, ...) {
  va_list ap;
  va_start(ap, n);
  int r = va_arg(ap, int);
  va_end(ap);
  return r;
}
int main(void) {
  if (low(1, 2.5) != 0)
    reach_error();
  return 0;
}
