// A thread counts modulo 3 forever; main reads the counter once. Some interleaving lets the
// thread count twice before main reads: every interleaving returns to a state it passed, and
// the search of them still finds that one.
#include <pthread.h>
extern void reach_error(void);
int x = 0;
void *spin(void *arg) {
  while (1)
    x = (x + 1) % 3;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, spin, 0);
  if (x == 2)
    reach_error();
  return 0;
}
