// A copy of a whole struct reads every cell of its array member: it races with a write of one.
#include <pthread.h>
struct pair { int tag; int cells[2]; };
struct pair shared, copy;

void *writer(void *arg) {
  shared.cells[1] = 7;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  copy = shared;
  return 0;
}
