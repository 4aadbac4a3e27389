#include <pthread.h>
extern void reach_error(void);
pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
int x, readers;
void *reader(void *arg) {
  pthread_rwlock_rdlock(&l);
  int a = x;
  int b = x;
  if (a != b) reach_error();
  pthread_rwlock_unlock(&l);
  return 0;
}
void *writer(void *arg) {
  pthread_rwlock_rdlock(&l);
  x++;
  x++;
  pthread_rwlock_unlock(&l);
  return 0;
}
int main(void) {
  pthread_t r1, r2, w;
  pthread_create(&r1, 0, reader, 0);
  pthread_create(&r2, 0, reader, 0);
  pthread_create(&w, 0, writer, 0);
  pthread_join(r1, 0);
  pthread_join(r2, 0);
  pthread_join(w, 0);
  return 0;
}
