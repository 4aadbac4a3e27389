// expect: TRUE
// fgets stores at most n - 1 characters and a terminator; at the end of the input it stores
// nothing.
#include <stdio.h>
#include <string.h>
extern void reach_error(void);
int main(void) {
  char line[4];
  line[0] = 'x';
  if (fgets(line, sizeof line, stdin) == 0) {
    if (line[0] != 'x')
      reach_error();
  } else if (strlen(line) > 3) {
    reach_error();
  }
  return 0;
}
