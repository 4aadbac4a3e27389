// The increments of conc-increment-bug.c in atomic sections: no update is lost.
#include <pthread.h>
extern void reach_error(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
int x = 0;
void *inc(void *arg) {
  __VERIFIER_atomic_begin();
  x++;
  __VERIFIER_atomic_end();
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
