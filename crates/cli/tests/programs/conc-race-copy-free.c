// Copies of whole structs that another thread does not touch while they run: no race.
#include <pthread.h>
struct pair { int tag; int cells[2]; };
struct pair shared, copy, other;

void *writer(void *arg) {
  other.cells[1] = 7;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  copy = shared;
  pthread_join(t, 0);
  shared = other;
  return 0;
}
