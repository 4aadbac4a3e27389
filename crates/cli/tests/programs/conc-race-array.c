// Both threads write their own cell, and then the second one reads the first one's cell
// without synchronization: a data race on a[0] (none on a[1]).
#include <pthread.h>
int a[2];
int seen;
void *first(void *arg) {
  a[0] = 1;
  return 0;
}
void *second(void *arg) {
  a[1] = 2;
  seen = a[0];
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, first, 0);
  pthread_create(&t2, 0, second, 0);
  return 0;
}
