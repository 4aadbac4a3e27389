// expect: TRUE
// A program whose memory holds only characters may view it through `void *` as characters
// (of another signedness too).
#include <stdlib.h>
extern void reach_error(void);
static unsigned count_zeros(const void *p, unsigned n) {
  const unsigned char *s = p;
  unsigned k = 0;
  for (unsigned i = 0; i < n; i++)
    if (s[i] == 0)
      k++;
  return k;
}
int main(void) {
  char *buf = malloc(3);
  if (!buf)
    return 0;
  buf[0] = 'a';
  buf[1] = 0;
  buf[2] = -1;
  if (count_zeros(buf, 3) != 1)
    reach_error();
  const unsigned char *u = (const void *)buf;
  if (u[2] != 255)
    reach_error();
  free(buf);
  return 0;
}
