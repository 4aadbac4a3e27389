#include <pthread.h>
extern void reach_error(void);
pthread_t seen;
pthread_key_t key;
void *worker(void *arg) {
  seen = pthread_self();
  pthread_setspecific(key, arg);
  if (pthread_getspecific(key) != arg) reach_error();
  return 0;
}
int main(void) {
  pthread_t t;
  int a;
  pthread_key_create(&key, 0);
  pthread_setspecific(key, &key);
  pthread_create(&t, 0, worker, &a);
  pthread_join(t, 0);
  if (!pthread_equal(seen, t) || pthread_equal(pthread_self(), t)) reach_error();
  if (pthread_getspecific(key) != &a) reach_error();
  return 0;
}
