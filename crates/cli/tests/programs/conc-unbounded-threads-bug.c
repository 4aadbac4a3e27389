// Unboundedly many threads, and a bug that a few of them reach: found although no bound on
// thread instances covers every run.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int x = 0;
void *work(void *arg) {
  __VERIFIER_atomic_begin();
  x = x + 1;
  __VERIFIER_atomic_end();
  return 0;
}
int main(void) {
  pthread_t t;
  while (__VERIFIER_nondet_int()) {
    pthread_create(&t, 0, work, 0);
  }
  if (x == 2) reach_error();
  return 0;
}
