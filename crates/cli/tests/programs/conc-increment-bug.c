// Two threads increment a shared counter with `x++`, which reads and then writes: one update
// can be lost, so the assertion can fail.
#include <pthread.h>
extern void reach_error(void);
int x = 0;
void *inc(void *arg) {
  x++;
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, inc, 0);
  pthread_create(&t2, 0, inc, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  if (x != 2) reach_error();
  return 0;
}
