// No thread runs beside an atomic section: its write of x is simultaneous with no other
// access, so the plain write of the other thread does not race with it (SV-COMP).
#include <pthread.h>
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
int x = 0;
void *writer(void *arg) {
  __VERIFIER_atomic_begin();
  x = 1;
  __VERIFIER_atomic_end();
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  x = 2;
  pthread_join(t, 0);
  return 0;
}
