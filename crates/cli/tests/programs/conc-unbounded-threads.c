// A thread per iteration, unboundedly many at once: no bound on thread instances covers
// every run, so the answer may never be TRUE.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int x = 0;
void *work(void *arg) {
  x = 1;
  return 0;
}
int main(void) {
  pthread_t t;
  while (__VERIFIER_nondet_int()) {
    pthread_create(&t, 0, work, 0);
  }
  if (x > 1) reach_error();
  return 0;
}
