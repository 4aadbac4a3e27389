// The models of strtol and atoi: "0x1F" in base 16 is 31.
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
  if (strtol("0x1F", 0, 16) == 31)
    reach_error();
  const char *none = "abc";
  if (strtol(none, &end, 10) != 0 || end != none)
    reach_error();
  // out of range (in both data models): the limit of the sign
  if (strtol("-99999999999999999999", 0, 10) != LONG_MIN)
    reach_error();
  return 0;
}
