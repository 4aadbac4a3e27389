#define _GNU_SOURCE
#include <pthread.h>
extern void reach_error(void);
pthread_mutex_t m = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
pthread_mutex_t n = PTHREAD_MUTEX_INITIALIZER;
int main(void) {
  pthread_mutex_lock(&n);
  pthread_mutex_lock(&m);
  pthread_mutex_lock(&m);
  reach_error();
  return 0;
}
