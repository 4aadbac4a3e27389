// Reading one variadic argument more than were passed is an invalid access.
#include <stdarg.h>
int last(int n, ...) {
  va_list ap;
  va_start(ap, n);
  int r = 0;
  for (int i = 0; i <= n; i++)
    r = va_arg(ap, int);
  va_end(ap);
  return r;
}
int main(void) { return last(2, 5, 6); }
