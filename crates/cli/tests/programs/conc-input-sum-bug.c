// Each thread adds an input between 1 and 99 to a counter under a mutex: the sum of the two
// is 151 for 52 and 99: two different inputs.
#include <pthread.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int sum = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *add(void *arg) {
  int v = __VERIFIER_nondet_int();
  if (v < 1 || v > 99) return 0;
  pthread_mutex_lock(&m);
  sum = sum + v;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, add, 0);
  pthread_create(&b, 0, add, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  if (sum == 151) reach_error();
  return 0;
}
