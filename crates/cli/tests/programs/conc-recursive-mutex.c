#include <pthread.h>
extern void reach_error(void);
pthread_mutex_t m;
int main(void) {
  pthread_mutexattr_t a;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&m, &a);
  pthread_mutex_lock(&m);
  pthread_mutex_lock(&m);
  reach_error();
  return 0;
}
