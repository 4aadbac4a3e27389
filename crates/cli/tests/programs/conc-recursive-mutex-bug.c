// A recursive mutex locked twice and unlocked twice is free: the other thread can write `x`
// between main's write and its check.
#include <pthread.h>
extern void reach_error(void);
pthread_mutex_t m;
int x;
void *writer(void *arg) {
  pthread_mutex_lock(&m);
  x = 1;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_mutexattr_t a;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&m, &a);
  pthread_t id;
  pthread_create(&id, 0, writer, 0);
  pthread_mutex_lock(&m);
  if (pthread_mutex_lock(&m) != 0) reach_error();
  x = 0;
  pthread_mutex_unlock(&m);
  pthread_mutex_unlock(&m);
  if (x != 0) reach_error();
  pthread_join(id, 0);
  return 0;
}
