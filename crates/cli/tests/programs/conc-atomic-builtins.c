// GCC's atomic builtins: accesses that are all atomic do not race.
#include <pthread.h>
int x = 0;
void *inc(void *arg) {
  __atomic_fetch_add(&x, 1, __ATOMIC_SEQ_CST);
  return 0;
}
void *swap(void *arg) {
  int old = __atomic_exchange_n(&x, 5, __ATOMIC_SEQ_CST);
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, inc, 0);
  pthread_create(&t2, 0, swap, 0);
  return __atomic_load_n(&x, __ATOMIC_SEQ_CST);
}
