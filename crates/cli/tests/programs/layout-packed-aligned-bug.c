// An aligned member starts at its alignment, not after the byte before it.
#include <stddef.h>
extern void abort(void);
void reach_error(void) { abort(); }
void check(int c) { if (!c) { ERROR: reach_error(); } }
struct __attribute__((packed)) P { char c; int i; short s; };
typedef struct { char c; short s[2]; int i; char d; } __attribute__((packed)) Q;
struct A { char c; } __attribute__((aligned(8)));
union U { Q q; char b[3]; };
struct F { char c; union U u[]; } __attribute__((packed));
struct N { char x; struct A y; };
extern unsigned __VERIFIER_nondet_uint(void);
int main(void) {
  unsigned k = __VERIFIER_nondet_uint() % 2;
  check(offsetof(Q, s[k]) == 1 + 2 * k && offsetof(Q, s[1]) == 3);
  check(sizeof(struct P) == 7);
  check(sizeof(Q) == 10);
  check(_Alignof(Q) == 1);
  check(sizeof(struct A) == 8 && _Alignof(struct A) == 8);
  check(sizeof(union U) == 10);
  check(sizeof(struct N) == 16);
  check(offsetof(struct P, s) == 5);
  check(offsetof(struct N, y) == 1);
  struct P p; p.c = 1; p.i = 0x03020100; p.s = 4;
  unsigned char *b = (unsigned char *)&p;
  check(b[1] == 0 && b[2] == 1 && b[5] == 4);
  return 0;
}
