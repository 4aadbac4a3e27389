// A thread counts modulo 3 forever; main reads the counter once. The counter never reaches 3:
// every interleaving returns to a state it passed, so the search of them ends and proves it.
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
  if (x == 3)
    reach_error();
  return 0;
}
