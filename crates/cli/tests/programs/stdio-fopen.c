// fopen may fail; a stream left open is no leak; reads give characters or EOF and at most the
// items asked for.
#include <stdio.h>
#include <stdlib.h>
extern void abort(void);
void reach_error(void) { abort(); }
int main(void) {
  FILE *f = fopen("input.txt", "r");
  if (!f)
    return 1;
  int c = fgetc(f);
  if (c < -1 || c > 255)
    reach_error();
  char *line = malloc(8);
  if (!line)
    return 1;
  if (fread(line, 4, 2, stdin) > 2)
    reach_error();
  free(line);
  return feof(f);
}
