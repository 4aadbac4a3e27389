// An error-checking mutex: its holder's second lock fails with EDEADLK instead of blocking, and
// another thread's unlock fails with EPERM and leaves it held.
#include <errno.h>
#include <pthread.h>
extern void reach_error(void);
pthread_mutex_t m;
int x;
void *intruder(void *arg) {
  if (pthread_mutex_unlock(&m) != EPERM) reach_error();
  x = 1;
  return 0;
}
int main(void) {
  pthread_mutexattr_t a;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
  pthread_mutex_init(&m, &a);
  pthread_mutex_lock(&m);
  pthread_t id;
  pthread_create(&id, 0, intruder, 0);
  if (pthread_mutex_lock(&m) != EDEADLK) reach_error();
  if (pthread_mutex_trylock(&m) != EBUSY) reach_error();
  pthread_join(id, 0);
  if (pthread_mutex_unlock(&m) != 0) reach_error();
  if (pthread_mutex_unlock(&m) != EPERM) reach_error();
  return 0;
}
