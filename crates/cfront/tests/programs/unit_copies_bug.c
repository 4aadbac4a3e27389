// expect: FALSE(valid-deref) properties=default,valid-memsafety
// A copy of five ints out of an array of four reads beyond it.
#include <string.h>
int main(void) {
  int a[4] = {1, 2, 3, 4}, b[8];
  memcpy(b, a, 5 * sizeof(int));
  return b[0];
}
