// expect: TRUE
// An object read as another integer type of the same size gives its value modulo that size.
#include <stdlib.h>
extern void reach_error(void);
int main(void) {
  char *s = malloc(2);
  if (!s)
    return 0;
  s[0] = -1;
  s[1] = 65;
  unsigned char *u = (unsigned char *)s;
  if (u[0] != 255 || u[1] != 'A')
    reach_error();
  u[0] = 200;
  if (s[0] != -56)
    reach_error();
  int *x = malloc(sizeof(int));
  if (!x)
    return 0;
  *x = -2;
  unsigned *y = (unsigned *)x;
  if (*y != 4294967294u)
    reach_error();
  free(s);
  free(x);
  return 0;
}
