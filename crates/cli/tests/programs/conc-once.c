#include <pthread.h>
extern void reach_error(void);
pthread_once_t once = PTHREAD_ONCE_INIT;
int runs, ready;
void init(void) { runs++; ready = 1; }
void *worker(void *arg) {
  pthread_once(&once, init);
  if (!ready) reach_error();
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  worker(0);
  pthread_join(t, 0);
  if (runs != 1) reach_error();
  return 0;
}
