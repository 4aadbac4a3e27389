// An atomic increment and a plain write of the same variable race.
#include <pthread.h>
int x = 0;
void *inc(void *arg) {
  __atomic_fetch_add(&x, 1, __ATOMIC_SEQ_CST);
  return 0;
}
void *swap(void *arg) {
  x = 5;
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, inc, 0);
  pthread_create(&t2, 0, swap, 0);
  return __atomic_load_n(&x, __ATOMIC_SEQ_CST);
}
