// The models of strtol and atoi: white space, signs, bases, the end of the digits, range.
#include <limits.h>
#include <stdlib.h>
extern void reach_error(void);
int main(void) {
  if (atoi("  -42x") != -42)
    reach_error();
  char *end;
  const char *hex = "0x1F rest";
  if (strtol(hex, &end, 0) != 31 || end != hex + 4)
    reach_error();
  if (strtol("077", 0, 0) != 63 || strtol("+z", 0, 36) != 35)
    reach_error();
  const char *none = "abc";
  if (strtol(none, &end, 10) != 0 || end != none)
    reach_error();
  // out of range (in both data models): the limit of the sign
  if (strtol("-99999999999999999999", 0, 10) != LONG_MIN)
    reach_error();
  return 0;
}
