// expect: FALSE(unreach-call)
// A line read by fgets may hold any characters: "7\n" makes the number 7.
#include <stdio.h>
#include <stdlib.h>
extern void reach_error(void);
int main(void) {
  char line[4];
  if (fgets(line, sizeof line, stdin) != 0 && atoi(line) == 7)
    reach_error();
  return 0;
}
