// Both threads write their own cell, and the second one reads its own cell back: the threads
// touch different cells, no data race.
#include <pthread.h>
int a[2];
int seen;
void *first(void *arg) {
  a[0] = 1;
  return 0;
}
void *second(void *arg) {
  a[1] = 2;
  seen = a[1];
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, first, 0);
  pthread_create(&t2, 0, second, 0);
  return 0;
}
