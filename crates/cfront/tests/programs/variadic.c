// expect: TRUE
// A variadic function reads its arguments in slots of 8 bytes: a `char` promoted to `int`, a
// `double` in between, a pointer.
#include <stdarg.h>
extern void reach_error(void);
int pick(int n, ...) {
  va_list ap, copy;
  va_start(ap, n);
  va_copy(copy, ap);
  int c = va_arg(ap, int);
  (void)va_arg(ap, double);
  int *p = va_arg(ap, int *);
  int again = va_arg(copy, int);
  va_end(copy);
  va_end(ap);
  return c + *p + again;
}
int main(void) {
  int x = 10;
  if (pick(3, 'a', 2.5, &x) != 'a' + 10 + 'a')
    reach_error();
  return 0;
}
