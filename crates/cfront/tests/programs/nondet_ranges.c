// expect: TRUE
// Nondeterministic values lie in their type's range; `char` is signed; enums and typedefs.
extern void __VERIFIER_assert(int cond);
extern char __VERIFIER_nondet_char(void);
extern unsigned short __VERIFIER_nondet_ushort(void);
extern _Bool __VERIFIER_nondet_bool(void);
typedef unsigned short u16;
enum color { RED, GREEN = 5, BLUE };
int main(void) {
  char c = __VERIFIER_nondet_char();
  __VERIFIER_assert(c >= -128 && c <= 127);
  u16 s = __VERIFIER_nondet_ushort();
  __VERIFIER_assert(s <= 65535);
  _Bool b = __VERIFIER_nondet_bool();
  __VERIFIER_assert(b == 0 || b == 1);
  _Bool b2 = 42;
  __VERIFIER_assert(b2 == 1);
  enum color col = BLUE;
  __VERIFIER_assert(col == 6 && RED == 0);
  __VERIFIER_assert('\xff' == -1 && '\'' == 39);
  __VERIFIER_assert(sizeof(int) == 4 && sizeof(long long) == 8);
  int uninit;
  __VERIFIER_assert(uninit >= -2147483647 - 1);
  return 0;
}
