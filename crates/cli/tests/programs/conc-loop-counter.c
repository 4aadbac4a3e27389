// A thread adds to a shared counter under a lock as often as it likes; the main thread reads
// it under the lock. Unboundedly many interleavings: no search ends, a proof is needed.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int x = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *adder(void *arg) {
  while (__VERIFIER_nondet_int()) {
    pthread_mutex_lock(&m);
    x = x + 1;
    pthread_mutex_unlock(&m);
  }
  return 0;
}
int main(void) {
  pthread_t a;
  pthread_create(&a, 0, adder, 0);
  pthread_mutex_lock(&m);
  if (x < 0)
    reach_error();
  pthread_mutex_unlock(&m);
  return 0;
}
