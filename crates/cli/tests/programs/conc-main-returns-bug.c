// (The bug: the thread may run before `p` is set.) Returning from main ends the execution, every thread with it (C: it is `exit`): the thread
// cannot touch main's local after main returned.
#include <pthread.h>
int *p;
void *worker(void *arg) {
  *p = 1;
  return 0;
}
int main(void) {
  int x = 0;
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  p = &x;
  return 0;
}
