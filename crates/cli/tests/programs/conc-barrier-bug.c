#include <pthread.h>
extern void reach_error(void);
pthread_barrier_t b;
int before[2], after[2], serial;
void *worker(void *arg) {
  int me = *(int *)arg;
  before[me] = 1;
  if (pthread_barrier_wait(&b) == PTHREAD_BARRIER_SERIAL_THREAD) serial++;
  if (!before[1 - me]) reach_error();
  after[me] = 1;
  if (pthread_barrier_wait(&b) == PTHREAD_BARRIER_SERIAL_THREAD) serial++;
  if (!after[1 - me]) reach_error();
  return 0;
}
int main(void) {
  pthread_t t;
  int zero = 0, one = 1;
  pthread_barrier_init(&b, 0, 1);
  pthread_create(&t, 0, worker, &zero);
  worker(&one);
  pthread_join(t, 0);
  if (serial < 2) reach_error();
  return 0;
}
