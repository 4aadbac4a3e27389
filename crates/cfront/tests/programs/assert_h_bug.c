// expect: FALSE(unreach-call)
// A failing assert from <assert.h>.
#include <assert.h>
int g = 23;
int main(void) {
  assert(g == 42);
  return 0;
}
