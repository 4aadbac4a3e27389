#include <pthread.h>
extern void reach_error(void);
pthread_spinlock_t s;
int x;
void *worker(void *arg) {
  pthread_spin_lock(&s);
  int v = x;
  x = v + 1;
  pthread_spin_unlock(&s);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_spin_init(&s, 0);
  pthread_create(&t, 0, worker, 0);
  if (pthread_spin_trylock(&s) == 0) {
    int v = x;
    x = v + 1;
    pthread_spin_unlock(&s);
    pthread_join(t, 0);
    if (x != 2) reach_error();
  }
  return 0;
}
