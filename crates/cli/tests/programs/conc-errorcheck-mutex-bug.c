// A normal mutex: another thread's unlock releases it (undefined behaviour that the model
// takes as a release), so main's second lock can succeed.
#include <errno.h>
#include <pthread.h>
extern void reach_error(void);
pthread_mutex_t m;
int x;
void *intruder(void *arg) {
  pthread_mutex_unlock(&m);
  x = 1;
  return 0;
}
int main(void) {
  pthread_mutexattr_t a;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_settype(&a, PTHREAD_MUTEX_NORMAL);
  pthread_mutex_init(&m, &a);
  pthread_mutex_lock(&m);
  pthread_t id;
  pthread_create(&id, 0, intruder, 0);
  pthread_mutex_lock(&m);
  reach_error();
  return 0;
}
