#include <pthread.h>
#include <semaphore.h>
extern void reach_error(void);
sem_t s;
int inside;
void *worker(void *arg) {
  sem_wait(&s);
  inside++;
  if (inside > 1) reach_error();
  inside--;
  sem_post(&s);
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  sem_init(&s, 0, 1);
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  int v;
  sem_getvalue(&s, &v);
  if (v != 1) reach_error();
  return 0;
}
