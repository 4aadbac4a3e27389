// exit runs the handler registered last first: `first` sees no call before it.
#include <stdlib.h>
extern void abort(void);
void reach_error(void) { abort(); }
int calls;
void first(void) { if (calls != 0) reach_error(); calls++; }
void second(void) { calls++; }
int main(void) {
  atexit(first);
  atexit(second);
  return 0;
}
