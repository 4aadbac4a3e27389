// The twin of conc-race-atomic-section.c whose second write leaves the atomic section: the
// two plain writes of x race.
#include <pthread.h>
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
int x = 0;
void *writer(void *arg) {
  __VERIFIER_atomic_begin();
  x = 1;
  __VERIFIER_atomic_end();
  x = 3;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  x = 2;
  pthread_join(t, 0);
  return 0;
}
