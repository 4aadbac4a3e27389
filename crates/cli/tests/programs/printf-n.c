// `%n` stores the number of characters printed so far: its store is not modelled.
#include <stdio.h>
extern void reach_error(void);
int main(void) {
  int n = 0;
  printf("abc%n\n", &n);
  if (n != 3) reach_error();
  return 0;
}
