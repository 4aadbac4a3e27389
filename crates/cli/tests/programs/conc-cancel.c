// pthread_cancel is not modelled: the answer names it.
#include <pthread.h>
void *work(void *arg) { return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, work, 0);
  pthread_cancel(t);
  return 0;
}
