// fopen may fail: reading from the stream it returns without a check is an invalid access.
#include <stdio.h>
int main(void) {
  FILE *f = fopen("input.txt", "r");
  int c = fgetc(f);
  fclose(f);
  return c;
}
