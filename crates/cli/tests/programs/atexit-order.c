// exit runs the handlers in the reverse order of their registration, and runs each once.
#include <stdlib.h>
extern void abort(void);
void reach_error(void) { abort(); }
int calls;
void first(void) { if (calls != 1) reach_error(); calls++; }
void second(void) { if (calls != 0) reach_error(); calls++; }
int main(void) {
  atexit(first);
  atexit(second);
  exit(0);
}
