// Two threads add each other's counter five times, each addition atomic, and nothing is read
// from the input. Only strict alternation (the first thread first) makes `j` reach 144.
#include <pthread.h>
extern void reach_error(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
int i = 1, j = 1;
void *add_j(void *arg) {
  for (int k = 0; k < 5; k++) {
    __VERIFIER_atomic_begin();
    i = i + j;
    __VERIFIER_atomic_end();
  }
  return 0;
}
void *add_i(void *arg) {
  for (int k = 0; k < 5; k++) {
    __VERIFIER_atomic_begin();
    j = j + i;
    __VERIFIER_atomic_end();
  }
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, add_j, 0);
  pthread_create(&b, 0, add_i, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  if (i >= 144 || j >= 144) reach_error();
  return 0;
}
